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

// Round constants of Xoodoo[12], first round first; also as a table for GCC's round loop (CUDA
// device code cannot read a namespace-scope table, and unrolls instead).
template <std::size_t Round>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t round_constant() {
  constexpr std::uint32_t rc[12] = {0x058, 0x038, 0x3c0, 0x0d0, 0x120, 0x014,
                                    0x060, 0x02c, 0x380, 0x0f0, 0x1a0, 0x012};
  return rc[Round];
}
inline constexpr std::uint32_t round_constants[12] = {
    round_constant<0>(), round_constant<1>(), round_constant<2>(),  round_constant<3>(),
    round_constant<4>(), round_constant<5>(), round_constant<6>(),  round_constant<7>(),
    round_constant<8>(), round_constant<9>(), round_constant<10>(), round_constant<11>()};

// One round on the twelve lanes held in local variables. Instead of moving lanes, the plane
// shifts of rho-west and rho-east are folded into the lane indices of the following step, so
// each round is theta, iota, chi and the rotations only.
LWC_HD LWC_ALWAYS_INLINE constexpr void round(std::uint32_t (&a)[12], std::uint32_t rc) {
  // theta: every lane gets the parity of the column one to the left, rotated by 5 and 14.
  const std::uint32_t p0 = a[0] ^ a[4] ^ a[8], p1 = a[1] ^ a[5] ^ a[9];
  const std::uint32_t p2 = a[2] ^ a[6] ^ a[10], p3 = a[3] ^ a[7] ^ a[11];
  const std::uint32_t e0 = rotl(p3, 5) ^ rotl(p3, 14), e1 = rotl(p0, 5) ^ rotl(p0, 14);
  const std::uint32_t e2 = rotl(p1, 5) ^ rotl(p1, 14), e3 = rotl(p2, 5) ^ rotl(p2, 14);
  // rho-west: plane 1 moves one lane along x, plane 2 rotates by 11; iota on lane 0.
  const std::uint32_t b00 = a[0] ^ e0 ^ rc, b01 = a[1] ^ e1, b02 = a[2] ^ e2, b03 = a[3] ^ e3;
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

// The same round with the lanes updated in place, which needs only two temporaries: GCC makes
// about half as many stack accesses with this form as with the form above (about ten a round
// against twenty). The arguments name plane 1 and plane 2 in the order the round sees
// them; the caller passes them rotated to account for the plane shifts. chi updates a column's
// lanes one after the other: each update may read the lane already updated before it, because
// ~y & (x ^ (~y & z)) = ~y & x.
LWC_HD LWC_ALWAYS_INLINE constexpr void round_in_place(
    std::uint32_t& x00, std::uint32_t& x01, std::uint32_t& x02, std::uint32_t& x03,
    std::uint32_t& x10, std::uint32_t& x11, std::uint32_t& x12, std::uint32_t& x13,
    std::uint32_t& x20, std::uint32_t& x21, std::uint32_t& x22, std::uint32_t& x23,
    std::uint32_t rc) {
  // theta, one column parity at a time (each is taken before its column changes).
  std::uint32_t e = x03 ^ x13 ^ x23, f = x00 ^ x10 ^ x20;
  e = rotl(e, 5) ^ rotl(e, 14);
  f = rotl(f, 5) ^ rotl(f, 14);
  x00 ^= e, x10 ^= e, x20 ^= e;
  e = x01 ^ x11 ^ x21;
  e = rotl(e, 5) ^ rotl(e, 14);
  x01 ^= f, x11 ^= f, x21 ^= f;
  f = x02 ^ x12 ^ x22;
  f = rotl(f, 5) ^ rotl(f, 14);
  x02 ^= e, x12 ^= e, x22 ^= e;
  x03 ^= f, x13 ^= f, x23 ^= f;
  // rho-west: plane 1's lane x is now the one passed as x1(x-1); plane 2 rotates by 11.
  x20 = rotl(x20, 11), x21 = rotl(x21, 11), x22 = rotl(x22, 11), x23 = rotl(x23, 11);
  x00 ^= rc;  // iota
  x00 ^= ~x13 & x20, x13 ^= ~x20 & x00, x20 ^= ~x00 & x13;
  x01 ^= ~x10 & x21, x10 ^= ~x21 & x01, x21 ^= ~x01 & x10;
  x02 ^= ~x11 & x22, x11 ^= ~x22 & x02, x22 ^= ~x02 & x11;
  x03 ^= ~x12 & x23, x12 ^= ~x23 & x03, x23 ^= ~x03 & x12;
  // rho-east: the lane moves of plane 2 are left to the caller.
  x10 = rotl(x10, 1), x11 = rotl(x11, 1), x12 = rotl(x12, 1), x13 = rotl(x13, 1);
  x20 = rotl(x20, 8), x21 = rotl(x21, 8), x22 = rotl(x22, 8), x23 = rotl(x23, 8);
}

template <std::size_t... R>
LWC_HD LWC_ALWAYS_INLINE constexpr void rounds(std::uint32_t (&a)[12], std::index_sequence<R...>) {
  (round(a, round_constant<R>()), ...);
}

// Xoodoo[12]. The lanes are copied into local variables so that they live in registers for the
// whole permutation, whatever the caller's state aliases. The form depends on the compiler, as
// measured side by side (bench/anchors): GCC runs the in-place form as a loop of four rounds
// (after four rounds both plane shifts are back where they began, so no lane is ever moved),
// which takes about 10 % fewer instructions than twelve unrolled rounds of the form above and
// a third of their code (the permutation is inlined in several places of each mode; short
// messages gained most). Clang and CUDA devices keep the twelve rounds of the form above
// unrolled: Clang runs about 10 % more instructions with either form as a loop, and vectorizes
// parts of the in-place form under AVX-512 to its loss.
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& s) {
#if defined(__CUDA_ARCH__) || defined(__clang__)
  std::uint32_t a[12] = {s.a[0], s.a[1], s.a[2], s.a[3], s.a[4],  s.a[5],
                         s.a[6], s.a[7], s.a[8], s.a[9], s.a[10], s.a[11]};
  rounds(a, std::make_index_sequence<12>{});
  for (int i = 0; i < 12; ++i) s.a[i] = a[i];
#else
  std::uint32_t x00 = s.a[0], x01 = s.a[1], x02 = s.a[2], x03 = s.a[3];
  std::uint32_t x10 = s.a[4], x11 = s.a[5], x12 = s.a[6], x13 = s.a[7];
  std::uint32_t x20 = s.a[8], x21 = s.a[9], x22 = s.a[10], x23 = s.a[11];
  // Plane 1 turns by one lane a round, plane 2 by two.
#if defined(__GNUC__) && !defined(__CUDACC__)
  _Pragma("GCC unroll 1")
#endif
  for (std::size_t r = 0; r < 12; r += 4) {
    round_in_place(x00, x01, x02, x03, x10, x11, x12, x13, x20, x21, x22, x23,
                   round_constants[r]);
    round_in_place(x00, x01, x02, x03, x13, x10, x11, x12, x22, x23, x20, x21,
                   round_constants[r + 1]);
    round_in_place(x00, x01, x02, x03, x12, x13, x10, x11, x20, x21, x22, x23,
                   round_constants[r + 2]);
    round_in_place(x00, x01, x02, x03, x11, x12, x13, x10, x22, x23, x20, x21,
                   round_constants[r + 3]);
  }
  s = state{{x00, x01, x02, x03, x10, x11, x12, x13, x20, x21, x22, x23}};
#endif
}

// Byte-level access for partial blocks (lengths and offsets are public, the data is not).
LWC_HD LWC_ALWAYS_INLINE constexpr void add_byte(state& s, std::uint8_t b, std::size_t offset) {
  s.a[offset / 4] ^= std::uint32_t{b} << (8 * (offset % 4));
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint8_t get_byte(const state& s, std::size_t offset) {
  return static_cast<std::uint8_t>(s.a[offset / 4] >> (8 * (offset % 4)));
}

}  // namespace lwc::xoodyak::detail
