// SPDX-License-Identifier: MIT OR Apache-2.0
// Checked size arithmetic: the one place where sizes a caller controls are added or multiplied
// (n messages times a tag length, a message length plus its tag, ...). A wrapped product
// would size a buffer check too small and let the engine write past the caller's buffer, so
// every layer (C ABI, batch and CUDA front ends, the Python binding) goes through these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "config.hpp"

namespace lwc {

namespace detail {
// Spelled out rather than numeric_limits::max(), which device code may not call.
inline constexpr std::size_t size_max = ~std::size_t{0};
}  // namespace detail

// False when a * b (or a + b) does not fit in size_t; else the result is stored in out.
[[nodiscard]] LWC_HD constexpr bool mul_fits(std::size_t a, std::size_t b,
                                             std::size_t& out) noexcept {
  if (b != 0 && a > detail::size_max / b) return false;
  out = a * b;
  return true;
}
[[nodiscard]] LWC_HD constexpr bool add_fits(std::size_t a, std::size_t b,
                                             std::size_t& out) noexcept {
  if (a > detail::size_max - b) return false;
  out = a + b;
  return true;
}

namespace detail {
[[noreturn]] inline void size_overflow(std::string_view what, std::size_t a, char op,
                                       std::size_t b) {
  throw std::invalid_argument(std::string(what) + ": " + std::to_string(a) + " " + op + " " +
                              std::to_string(b) + " bytes does not fit in size_t");
}
}  // namespace detail

// a * b, or std::invalid_argument naming `what` and both operands when it does not fit.
inline std::size_t checked_mul(std::size_t a, std::size_t b, std::string_view what) {
  std::size_t r = 0;
  if (!mul_fits(a, b, r)) detail::size_overflow(what, a, '*', b);
  return r;
}
// a + b, or std::invalid_argument naming `what` and both operands when it does not fit.
inline std::size_t checked_add(std::size_t a, std::size_t b, std::string_view what) {
  std::size_t r = 0;
  if (!add_fits(a, b, r)) detail::size_overflow(what, a, '+', b);
  return r;
}

// A running total of sizes (the bytes of a batch) that reports the first overflow.
class checked_total {
 public:
  explicit checked_total(std::string_view what) noexcept : what_(what) {}
  checked_total& add(std::size_t n) {
    total_ = checked_add(total_, n, what_);
    return *this;
  }
  std::size_t value() const noexcept { return total_; }

 private:
  std::string_view what_;
  std::size_t total_ = 0;
};

}  // namespace lwc
