// SPDX-License-Identifier: MIT OR Apache-2.0
// Byte-order explicit loads and stores. They are written with shifts so that they are
// constexpr, free of alignment and aliasing UB, correct on any host byte order, and still
// compile to a single mov (plus bswap) on x86 with GCC and Clang.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"

namespace lwc {

namespace detail {
// Host code at run time moves whole words with memcpy: GCC 12 merges shifted byte loads into
// one load but not shifted byte stores (eight stores per word in the Ascon block loop).
// Constant evaluation and device code keep the shift form.
#if defined(__CUDA_ARCH__)
inline constexpr bool word_memcpy = false;
#else
inline constexpr bool word_memcpy = std::endian::native == std::endian::little ||
                                    std::endian::native == std::endian::big;
#endif
LWC_HD constexpr std::uint64_t bswap64(std::uint64_t x) {
  x = ((x & 0x00ff00ff00ff00ffull) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffull);
  x = ((x & 0x0000ffff0000ffffull) << 16) | ((x >> 16) & 0x0000ffff0000ffffull);
  return (x << 32) | (x >> 32);
}
template <std::endian Order>
LWC_HD LWC_ALWAYS_INLINE std::uint64_t load_word(const std::uint8_t* p) {
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  return Order == std::endian::native ? x : bswap64(x);
}
template <std::endian Order>
LWC_HD LWC_ALWAYS_INLINE void store_word(std::uint8_t* p, std::uint64_t x) {
  if (Order != std::endian::native) x = bswap64(x);
  std::memcpy(p, &x, 8);
}
}  // namespace detail

// Loads n (0..8) bytes as the low-order bytes of a little-endian word.
LWC_HD constexpr std::uint64_t load_le(const std::uint8_t* p, std::size_t n) {
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < n; ++i) x |= std::uint64_t{p[i]} << (8 * i);
  return x;
}
LWC_HD constexpr std::uint64_t load_le64(const std::uint8_t* p) {
  if constexpr (detail::word_memcpy)
    if (!std::is_constant_evaluated()) return detail::load_word<std::endian::little>(p);
  std::uint64_t x = 0;
  LWC_UNROLL for (int i = 0; i < 8; ++i) x |= std::uint64_t{p[i]} << (8 * i);
  return x;
}
LWC_HD constexpr void store_le(std::uint8_t* p, std::uint64_t x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(x >> (8 * i));
}
LWC_HD constexpr void store_le64(std::uint8_t* p, std::uint64_t x) {
  if constexpr (detail::word_memcpy)
    if (!std::is_constant_evaluated()) return detail::store_word<std::endian::little>(p, x);
  LWC_UNROLL for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(x >> (8 * i));
}

// Loads n (0..8) bytes as the high-order bytes of a big-endian word.
LWC_HD constexpr std::uint64_t load_be(const std::uint8_t* p, std::size_t n) {
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < n; ++i) x |= std::uint64_t{p[i]} << (56 - 8 * i);
  return x;
}
LWC_HD constexpr std::uint64_t load_be64(const std::uint8_t* p) {
  if constexpr (detail::word_memcpy)
    if (!std::is_constant_evaluated()) return detail::load_word<std::endian::big>(p);
  std::uint64_t x = 0;
  LWC_UNROLL for (int i = 0; i < 8; ++i) x |= std::uint64_t{p[i]} << (56 - 8 * i);
  return x;
}
LWC_HD constexpr void store_be(std::uint8_t* p, std::uint64_t x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(x >> (56 - 8 * i));
}
LWC_HD constexpr void store_be64(std::uint8_t* p, std::uint64_t x) {
  if constexpr (detail::word_memcpy)
    if (!std::is_constant_evaluated()) return detail::store_word<std::endian::big>(p, x);
  LWC_UNROLL for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(x >> (56 - 8 * i));
}

LWC_HD constexpr std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}
LWC_HD constexpr void store_le32(std::uint8_t* p, std::uint32_t x) {
  p[0] = static_cast<std::uint8_t>(x);
  p[1] = static_cast<std::uint8_t>(x >> 8);
  p[2] = static_cast<std::uint8_t>(x >> 16);
  p[3] = static_cast<std::uint8_t>(x >> 24);
}
LWC_HD constexpr std::uint32_t load_be32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 |
         std::uint32_t{p[3]};
}
LWC_HD constexpr void store_be32(std::uint8_t* p, std::uint32_t x) {
  p[0] = static_cast<std::uint8_t>(x >> 24);
  p[1] = static_cast<std::uint8_t>(x >> 16);
  p[2] = static_cast<std::uint8_t>(x >> 8);
  p[3] = static_cast<std::uint8_t>(x);
}

LWC_HD constexpr std::uint64_t rotr64(std::uint64_t x, unsigned n) {
  return (x >> (n & 63)) | (x << ((64 - n) & 63));
}
LWC_HD constexpr std::uint32_t rotl32(std::uint32_t x, unsigned n) {
  return (x << (n & 31)) | (x >> ((32 - n) & 31));
}

}  // namespace lwc
