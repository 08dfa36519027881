// SPDX-License-Identifier: MIT OR Apache-2.0
// Reading the columns of the packed job form (<lwc/packed_jobs.hpp>) in host memory: element i
// of a fixed-stride or offset column, whatever the offsets' width and sign. Only after
// checks::column (checks.hpp) accepted the column: nothing here checks a bound.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/common/config.hpp>
#include <lwc/packed_jobs.hpp>

namespace lwc::jobs::columns {

// Entry k of an offsets array. Through memcpy, so that any integer type of the right width
// (size_t, Arrow's int32/int64, numpy's uint64) may hold them without an aliasing question.
// Forced inline, as is reader's element access: both run once per job and column in every
// pass over a batch, and GCC kept them out of line: in a profile of 10^5 Arrow rows of 64
// bytes the calls took about 6 % of the time.
LWC_ALWAYS_INLINE std::uint64_t offset_at(const void* offsets, offset_type type, std::size_t k) noexcept {
  const auto* p = static_cast<const unsigned char*>(offsets);
  switch (type) {
    case offset_type::u32: {
      std::uint32_t v;
      std::memcpy(&v, p + 4 * k, 4);
      return v;
    }
    case offset_type::i32: {
      std::int32_t v;
      std::memcpy(&v, p + 4 * k, 4);
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
    }
    case offset_type::u64:
    case offset_type::i64: {
      std::uint64_t v;
      std::memcpy(&v, p + 8 * k, 8);
      return v;
    }
    case offset_type::none: break;
  }
  return 0;
}

inline std::size_t offset_width(offset_type type) noexcept {
  switch (type) {
    case offset_type::u32:
    case offset_type::i32: return 4;
    case offset_type::u64:
    case offset_type::i64: return 8;
    case offset_type::none: break;
  }
  return 0;
}

// Calls f(T{}) with T the integer type of offsets of `type` (not none), so that a pass over
// a whole offsets array reads it with one type: such loops vectorize, a per-entry switch
// does not.
template <class F>
decltype(auto) with_offset_type(offset_type type, F&& f) {
  switch (type) {
    case offset_type::u32: return f(std::uint32_t{});
    case offset_type::i32: return f(std::int32_t{});
    case offset_type::u64: return f(std::uint64_t{});
    case offset_type::i64:
    case offset_type::none: break;
  }
  return f(std::int64_t{});
}

// Entry k of an offsets array of T.
template <class T>
LWC_ALWAYS_INLINE T entry(const void* offsets, std::size_t k) noexcept {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(offsets) + sizeof(T) * k, sizeof(T));
  return v;
}

template <class Byte>
struct element {
  Byte* data;
  std::size_t size;
};

// A checked column, reduced to what the engines' job fetch needs.
template <class Byte>
struct reader {
  Byte* base = nullptr;
  std::size_t stride = 0;
  const void* offsets = nullptr;
  offset_type type = offset_type::none;

  reader() = default;
  explicit reader(const basic_column<Byte>& c) noexcept
      : base(c.data.data()), stride(c.stride), offsets(c.offsets), type(c.offset_kind) {}

  LWC_ALWAYS_INLINE element<Byte> operator[](std::size_t i) const noexcept {
    if (type == offset_type::none) return {base + i * stride, stride};
    const std::uint64_t from = offset_at(offsets, type, i), to = offset_at(offsets, type, i + 1);
    return {base + from, static_cast<std::size_t>(to - from)};
  }
};

}  // namespace lwc::jobs::columns
