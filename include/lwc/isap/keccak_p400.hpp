// SPDX-License-Identifier: MIT OR Apache-2.0
// Keccak-p[400, nr] (FIPS 202, section 3.3, with 16-bit lanes), the permutation of ISAP-K: the
// last nr rounds of Keccak-f[400]. Logic operations only; no table is indexed at run time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/config.hpp"

namespace lwc::isap::keccak {

// Lane (x, y) is a[x + 5y]; state byte 2i + b is byte b (little endian) of lane i.
struct state {
  std::uint16_t a[25];
};

namespace detail {

// Round constants from the LFSR rc(t) of FIPS 202, section 3.2.5, truncated to 16 bits.
constexpr bool rc_bit(int t) {
  unsigned r = 1;  // bit k is R[k]
  for (int i = 1; i <= t % 255; ++i) {
    r <<= 1;
    r ^= ((r >> 8) & 1) * 0x71;  // R[0], R[4], R[5], R[6] ^= R[8]
    r &= 0xff;
  }
  return r & 1;
}

constexpr std::uint16_t round_constant(int round) {
  std::uint16_t c = 0;
  for (int j = 0; j <= 4; ++j)  // bit positions 2^j - 1 < 16
    if (rc_bit(j + 7 * round)) c |= static_cast<std::uint16_t>(1u << ((1u << j) - 1));
  return c;
}

template <int Round>
inline constexpr std::uint16_t rc = round_constant(Round);

static_assert(round_constant(0) == 0x0001 && round_constant(1) == 0x8082 &&
              round_constant(3) == 0x8000 && round_constant(19) == 0x000a);

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint16_t rol(std::uint16_t x, unsigned n) {
  return static_cast<std::uint16_t>((x << (n & 15)) | (x >> ((16 - n) & 15)));
}

// One round on the lanes in locals. Rho offsets (FIPS 202 table 2, modulo 16) and the pi
// permutation are written out: B[y][2x+3y] = rol(A[x][y], r[x][y]).
LWC_HD LWC_ALWAYS_INLINE constexpr void round(std::uint16_t* a, std::uint16_t c) {
  // theta
  const std::uint16_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
  const std::uint16_t c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
  const std::uint16_t c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
  const std::uint16_t c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
  const std::uint16_t c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
  const std::uint16_t d0 = c4 ^ rol(c1, 1), d1 = c0 ^ rol(c2, 1), d2 = c1 ^ rol(c3, 1);
  const std::uint16_t d3 = c2 ^ rol(c4, 1), d4 = c3 ^ rol(c0, 1);
  // rho and pi: b[i] is the lane that lands at position i
  const std::uint16_t b0 = a[0] ^ d0;
  const std::uint16_t b1 = rol(a[6] ^ d1, 12);
  const std::uint16_t b2 = rol(a[12] ^ d2, 11);
  const std::uint16_t b3 = rol(a[18] ^ d3, 5);
  const std::uint16_t b4 = rol(a[24] ^ d4, 14);
  const std::uint16_t b5 = rol(a[3] ^ d3, 12);
  const std::uint16_t b6 = rol(a[9] ^ d4, 4);
  const std::uint16_t b7 = rol(a[10] ^ d0, 3);
  const std::uint16_t b8 = rol(a[16] ^ d1, 13);
  const std::uint16_t b9 = rol(a[22] ^ d2, 13);
  const std::uint16_t b10 = rol(a[1] ^ d1, 1);
  const std::uint16_t b11 = rol(a[7] ^ d2, 6);
  const std::uint16_t b12 = rol(a[13] ^ d3, 9);
  const std::uint16_t b13 = rol(a[19] ^ d4, 8);
  const std::uint16_t b14 = rol(a[20] ^ d0, 2);
  const std::uint16_t b15 = rol(a[4] ^ d4, 11);
  const std::uint16_t b16 = rol(a[5] ^ d0, 4);
  const std::uint16_t b17 = rol(a[11] ^ d1, 10);
  const std::uint16_t b18 = rol(a[17] ^ d2, 15);
  const std::uint16_t b19 = rol(a[23] ^ d3, 8);
  const std::uint16_t b20 = rol(a[2] ^ d2, 14);
  const std::uint16_t b21 = rol(a[8] ^ d3, 7);
  const std::uint16_t b22 = rol(a[14] ^ d4, 7);
  const std::uint16_t b23 = rol(a[15] ^ d0, 9);
  const std::uint16_t b24 = rol(a[21] ^ d1, 2);
  // chi and iota
  auto chi = [](std::uint16_t x, std::uint16_t y, std::uint16_t z) {
    return static_cast<std::uint16_t>(x ^ (~y & z));
  };
  a[0] = static_cast<std::uint16_t>(chi(b0, b1, b2) ^ c);
  a[1] = chi(b1, b2, b3);
  a[2] = chi(b2, b3, b4);
  a[3] = chi(b3, b4, b0);
  a[4] = chi(b4, b0, b1);
  a[5] = chi(b5, b6, b7);
  a[6] = chi(b6, b7, b8);
  a[7] = chi(b7, b8, b9);
  a[8] = chi(b8, b9, b5);
  a[9] = chi(b9, b5, b6);
  a[10] = chi(b10, b11, b12);
  a[11] = chi(b11, b12, b13);
  a[12] = chi(b12, b13, b14);
  a[13] = chi(b13, b14, b10);
  a[14] = chi(b14, b10, b11);
  a[15] = chi(b15, b16, b17);
  a[16] = chi(b16, b17, b18);
  a[17] = chi(b17, b18, b19);
  a[18] = chi(b18, b19, b15);
  a[19] = chi(b19, b15, b16);
  a[20] = chi(b20, b21, b22);
  a[21] = chi(b21, b22, b23);
  a[22] = chi(b22, b23, b24);
  a[23] = chi(b23, b24, b20);
  a[24] = chi(b24, b20, b21);
}

template <int First, int Last>
LWC_HD LWC_ALWAYS_INLINE constexpr void rounds(std::uint16_t* a) {
  if constexpr (First < Last) {
    round(a, rc<First>);
    rounds<First + 1, Last>(a);
  }
}

}  // namespace detail

// Keccak-p[400, Rounds]: rounds 20 - Rounds .. 19 of Keccak-f[400].
template <int Rounds>
LWC_HD constexpr void permute(state& s) {
  static_assert(Rounds >= 1 && Rounds <= 20);
  detail::rounds<20 - Rounds, 20>(s.a);
}

}  // namespace lwc::isap::keccak
