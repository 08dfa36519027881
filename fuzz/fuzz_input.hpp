// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared by the fuzz targets: reads control values and byte strings off the fuzzer's input
// (running out yields zeros, so every input is usable), and the registry subsets they pick
// from. A target aborts (__builtin_trap) on a broken property so libFuzzer keeps the input.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <lwc/registry.hpp>

namespace lwc::fuzz {

using bytes = std::vector<std::uint8_t>;

class input {
 public:
  input(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  std::uint8_t byte() { return n_ ? (--n_, *p_++) : 0; }
  std::size_t u16() { return byte() | static_cast<std::size_t>(byte()) << 8; }
  bytes take(std::size_t n) {
    bytes out(n, 0);
    const std::size_t k = std::min(n, n_);
    std::copy(p_, p_ + k, out.begin());
    p_ += k;
    n_ -= k;
    return out;
  }
  std::size_t left() const { return n_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

inline std::vector<const lwc::algorithm*> pick_list(bool aead) {
  std::vector<const lwc::algorithm*> out;
  for (const auto& a : lwc::algorithms())
    if (a.is_aead() == aead) out.push_back(&a);
  return out;
}

[[noreturn]] inline void broken(const lwc::algorithm& a, const char* what) {
  std::fprintf(stderr, "%.*s: %s\n", static_cast<int>(a.name.size()), a.name.data(), what);
  __builtin_trap();
}
inline void require(bool ok, const lwc::algorithm& a, const char* what) {
  if (!ok) broken(a, what);
}
inline bool all_zero(const bytes& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint8_t b) { return b == 0; });
}

}  // namespace lwc::fuzz
