// SPDX-License-Identifier: MIT OR Apache-2.0
// Whether two byte ranges share memory: the engines and the C ABI refuse an output that
// overlaps an input (other than exactly in place), since the input would be overwritten
// while it is still being read and the result would be neither the right ciphertext nor
// covered by the tag.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lwc {

// True when [a, a + a_len) and [b, b + b_len) share a byte; empty ranges share none.
inline bool ranges_overlap(const void* a, std::size_t a_len, const void* b,
                           std::size_t b_len) noexcept {
  if (a == nullptr || b == nullptr || a_len == 0 || b_len == 0) return false;
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  // Differences rather than end addresses: an end address may not be representable.
  return x >= y ? x - y < b_len : y - x < a_len;
}

// An output range that must be disjoint from an input range unless it starts at the same
// byte (in place: byte i of the output is byte i of the input, which the engines read before
// they write it; a packed output buffer may be longer than the messages it holds).
inline bool bad_in_place(const void* out, std::size_t out_len, const void* in,
                         std::size_t in_len) noexcept {
  if (out == in) return false;
  return ranges_overlap(out, out_len, in, in_len);
}

}  // namespace lwc
