// SPDX-License-Identifier: MIT OR Apache-2.0
// Elephant's state blocks (20, 22 or 25 bytes) as four little-endian 64-bit words, so that
// masking, padding and the mask LFSR are word operations on every host byte order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/bytes.hpp"
#include "../common/config.hpp"

namespace lwc::elephant::detail {

// Byte i of the block is bits 8 (i % 8) .. 8 (i % 8) + 7 of w[i / 8]; bytes past the block
// size are zero.
struct block {
  std::uint64_t w[4];
};

LWC_HD LWC_ALWAYS_INLINE constexpr void xor_into(block& a, const block& b) {
  a.w[0] ^= b.w[0];
  a.w[1] ^= b.w[1];
  a.w[2] ^= b.w[2];
  a.w[3] ^= b.w[3];
}

LWC_HD LWC_ALWAYS_INLINE constexpr block xor_of(const block& a, const block& b) {
  return block{{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2], a.w[3] ^ b.w[3]}};
}

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint8_t byte_of(const block& b, unsigned i) {
  return static_cast<std::uint8_t>(b.w[i / 8] >> (8 * (i % 8)));
}

// n (<= B) bytes of p, the rest zero.
template <std::size_t B>
LWC_HD constexpr block load_block(const std::uint8_t* p, std::size_t n) {
  block b{};
  for (std::size_t q = 0; q < 4; ++q) {
    if (8 * q >= n) break;
    const std::size_t k = n - 8 * q;
    b.w[q] = k >= 8 ? load_le64(p + 8 * q) : load_le(p + 8 * q, k);
  }
  return b;
}

// A whole block of B bytes.
template <std::size_t B>
LWC_HD LWC_ALWAYS_INLINE constexpr block load_full(const std::uint8_t* p) {
  block b{};
  b.w[0] = load_le64(p);
  b.w[1] = load_le64(p + 8);
  if constexpr (B >= 24) {
    b.w[2] = load_le64(p + 16);
    b.w[3] = load_le(p + 24, B - 24);
  } else {
    b.w[2] = load_le(p + 16, B - 16);
  }
  return b;
}

template <std::size_t B>
LWC_HD LWC_ALWAYS_INLINE constexpr void store_full(std::uint8_t* p, const block& b) {
  store_le64(p, b.w[0]);
  store_le64(p + 8, b.w[1]);
  if constexpr (B >= 24) {
    store_le64(p + 16, b.w[2]);
    store_le(p + 24, b.w[3], B - 24);
  } else {
    store_le(p + 16, b.w[2], B - 16);
  }
}

// The first n (<= B) bytes of the block.
LWC_HD constexpr void store_block(std::uint8_t* p, const block& b, std::size_t n) {
  for (std::size_t q = 0; q < 4; ++q) {
    if (8 * q >= n) break;
    const std::size_t k = n - 8 * q;
    if (k >= 8) store_le64(p + 8 * q, b.w[q]);
    else store_le(p + 8 * q, b.w[q], k);
  }
}

// Block i of the padded stream s || 0x01 || 0*: its length (len) is public, so the choice
// between a whole block and the padded tail is too.
template <std::size_t B>
LWC_HD constexpr block stream_block(const std::uint8_t* s, std::size_t len, std::size_t i) {
  const std::size_t start = i * B;
  if (start + B <= len) return load_full<B>(s + start);
  const std::size_t r = len - start;  // 0 .. B-1
  block b = load_block<B>(s + start, r);
  b.w[r / 8] |= std::uint64_t{1} << (8 * (r % 8));
  return b;
}

// Moves every byte one place down (byte 0 leaves) and puts x in byte B-1.
template <std::size_t B>
LWC_HD LWC_ALWAYS_INLINE constexpr void shift_in(block& b, std::uint8_t x) {
  b.w[0] = b.w[0] >> 8 | b.w[1] << 56;
  b.w[1] = b.w[1] >> 8 | b.w[2] << 56;
  b.w[2] = b.w[2] >> 8 | b.w[3] << 56;
  b.w[3] >>= 8;
  b.w[(B - 1) / 8] |= std::uint64_t{x} << (8 * ((B - 1) % 8));
}

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint8_t rotl8(std::uint8_t x, unsigned r) {
  return static_cast<std::uint8_t>(x << (r & 7) | x >> ((8 - r) & 7));
}

}  // namespace lwc::elephant::detail
