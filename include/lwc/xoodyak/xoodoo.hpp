// SPDX-License-Identifier: MIT OR Apache-2.0
// The Xoodoo[12] permutation of Xoodyak (final-round NIST LWC submission "Xoodyak, a
// lightweight cryptographic scheme", v2.0, 2021: the Xoodoo round function and constants).
// It holds no secret of its own; the modes that key it wipe their states.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "../common/bytes.hpp"
#include "../common/config.hpp"

namespace lwc::xoodyak::detail {

// Three planes of four 32-bit lanes: lane x of plane y is a[x + 4 * y], and byte i of the
// 48-byte state is byte i % 4 (little endian) of lane i / 4.
struct state {
  std::uint32_t a[12];
};

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t rotl(std::uint32_t x, unsigned n) {
  return x << n | x >> (32 - n);
}

// Round constants of Xoodoo[12], first round first.
template <std::size_t Round>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t round_constant() {
  constexpr std::uint32_t rc[12] = {0x058, 0x038, 0x3c0, 0x0d0, 0x120, 0x014,
                                    0x060, 0x02c, 0x380, 0x0f0, 0x1a0, 0x012};
  return rc[Round];
}

// One round on the twelve lanes held in local variables. Instead of moving lanes, the plane
// shifts of rho-west and rho-east are folded into the lane indices of the following step, so
// each round is theta, iota, chi and the rotations only, and the full unrolling lets the
// compiler rename registers instead of copying.
template <std::size_t Round>
LWC_HD LWC_ALWAYS_INLINE constexpr void round(std::uint32_t (&a)[12]) {
  // theta: every lane gets the parity of the column one to the left, rotated by 5 and 14.
  const std::uint32_t p0 = a[0] ^ a[4] ^ a[8], p1 = a[1] ^ a[5] ^ a[9];
  const std::uint32_t p2 = a[2] ^ a[6] ^ a[10], p3 = a[3] ^ a[7] ^ a[11];
  const std::uint32_t e0 = rotl(p3, 5) ^ rotl(p3, 14), e1 = rotl(p0, 5) ^ rotl(p0, 14);
  const std::uint32_t e2 = rotl(p1, 5) ^ rotl(p1, 14), e3 = rotl(p2, 5) ^ rotl(p2, 14);
  // rho-west: plane 1 moves one lane along x, plane 2 rotates by 11; iota on lane 0.
  const std::uint32_t b00 = a[0] ^ e0 ^ round_constant<Round>(), b01 = a[1] ^ e1,
                      b02 = a[2] ^ e2, b03 = a[3] ^ e3;
  const std::uint32_t b10 = a[7] ^ e3, b11 = a[4] ^ e0, b12 = a[5] ^ e1, b13 = a[6] ^ e2;
  const std::uint32_t b20 = rotl(a[8] ^ e0, 11), b21 = rotl(a[9] ^ e1, 11),
                      b22 = rotl(a[10] ^ e2, 11), b23 = rotl(a[11] ^ e3, 11);
  // chi on each column, then rho-east: plane 1 rotates by 1, plane 2 moves two lanes along x
  // and rotates by 8.
  a[0] = b00 ^ (~b10 & b20);
  a[1] = b01 ^ (~b11 & b21);
  a[2] = b02 ^ (~b12 & b22);
  a[3] = b03 ^ (~b13 & b23);
  a[4] = rotl(b10 ^ (~b20 & b00), 1);
  a[5] = rotl(b11 ^ (~b21 & b01), 1);
  a[6] = rotl(b12 ^ (~b22 & b02), 1);
  a[7] = rotl(b13 ^ (~b23 & b03), 1);
  a[8] = rotl(b22 ^ (~b02 & b12), 8);
  a[9] = rotl(b23 ^ (~b03 & b13), 8);
  a[10] = rotl(b20 ^ (~b00 & b10), 8);
  a[11] = rotl(b21 ^ (~b01 & b11), 8);
}

template <std::size_t... R>
LWC_HD LWC_ALWAYS_INLINE constexpr void rounds(std::uint32_t (&a)[12], std::index_sequence<R...>) {
  (round<R>(a), ...);
}

// Xoodoo[12]. The lanes are copied into a local array so that they live in registers for the
// whole permutation, whatever the caller's state aliases.
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& s) {
  std::uint32_t a[12] = {s.a[0], s.a[1], s.a[2], s.a[3], s.a[4],  s.a[5],
                         s.a[6], s.a[7], s.a[8], s.a[9], s.a[10], s.a[11]};
  rounds(a, std::make_index_sequence<12>{});
  for (int i = 0; i < 12; ++i) s.a[i] = a[i];
}

// Byte-level access for partial blocks (lengths and offsets are public, the data is not).
LWC_HD LWC_ALWAYS_INLINE constexpr void add_byte(state& s, std::uint8_t b, std::size_t offset) {
  s.a[offset / 4] ^= std::uint32_t{b} << (8 * (offset % 4));
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint8_t get_byte(const state& s, std::size_t offset) {
  return static_cast<std::uint8_t>(s.a[offset / 4] >> (8 * (offset % 4)));
}

}  // namespace lwc::xoodyak::detail
