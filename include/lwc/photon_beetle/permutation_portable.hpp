// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-256 (PHOTON-Beetle v1.1, section 2.1), portable code for every host and CUDA: the
// state as four 64-bit bit planes, the S-box and the GF(2^4) matrix as logic operations (the
// published fast code looks cells up in tables indexed by the secret state).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/bytes.hpp"
#include "../common/config.hpp"

namespace lwc::photon_beetle {

// The 32 state bytes as little-endian words: byte 8k+b is bits 8b..8b+7 of w[k]. Cell (i,j)
// (row i, column j) is nibble 8i+j: the low nibble of byte 4i+j/2 for even j, else the high.
struct state {
  std::uint64_t w[4];
};

namespace detail {

// Bit planes: bit 8i+j of plane q is bit q of cell (i,j), so that a row is one byte of each
// plane. ShiftRows becomes a rotation inside each byte, MixColumnSerial a sum of whole-row
// products, and a product by a constant of GF(2^4) a fixed XOR of planes.
struct planes {
  std::uint64_t x0, x1, x2, x3;
};

// GF(2^4) with the reduction polynomial x^4 + x + 1.
constexpr unsigned gf16_mul(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) {
    if ((b >> i) & 1) r ^= a;
    a <<= 1;
    if (a & 0x10) a ^= 0x13;
  }
  return r & 0xf;
}

// MixColumnSerial: the 8x8 matrix M = A^8 over GF(2^4), A the companion matrix whose last
// row is Z (section 2.1).
struct mix_matrix_t {
  unsigned m[8][8];
};
constexpr mix_matrix_t mix_matrix() {
  const unsigned z[8] = {2, 4, 2, 11, 2, 8, 5, 6};
  unsigned a[8][8] = {};
  mix_matrix_t r{};
  for (int i = 0; i < 7; ++i) a[i][i + 1] = 1;
  for (int k = 0; k < 8; ++k) a[7][k] = z[k];
  for (int i = 0; i < 8; ++i) r.m[i][i] = 1;
  for (int n = 0; n < 8; ++n) {
    unsigned t[8][8] = {};
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        for (int k = 0; k < 8; ++k) t[i][j] ^= gf16_mul(a[i][k], r.m[k][j]);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) r.m[i][j] = t[i][j];
  }
  return r;
}

// On planes, output row i gets, through "diagonal" d, the product of M[i][(i+d) % 8] with
// input row (i+d) % 8, i.e. with the input planes rotated right by 8d bits. Such a product is
// a sum of the input's multiples by 1, 2, 4, 8 selected by the bits of the coefficient, so
// per diagonal d and coefficient bit b the rows where that bit is set form a byte mask. The
// masks are kept rotated left by 8d: masking before the rotation lets the rotation come last,
// once per plane.
struct mix_masks {
  std::uint64_t m[8][4];  // [d][b]
};

constexpr mix_masks make_mix_masks() {
  const mix_matrix_t mm = mix_matrix();
  const auto& m = mm.m;
  mix_masks r{};
  for (int d = 0; d < 8; ++d)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 8; ++i)
        if ((m[i][(i + d) % 8] >> b) & 1) r.m[d][b] |= std::uint64_t{0xff} << (8 * ((i + d) % 8));
  return r;
}

inline constexpr mix_masks mix_table = make_mix_masks();

// Read only in constant expressions (no array is touched at run time or on the device).
template <int D, int B>
inline constexpr std::uint64_t mix_mask = mix_table.m[D][B];

// The row-dependent part of the round constants, IC = (0, 1, 3, 7, 15, 14, 12, 8), as plane
// q's bits in column 0; the round-dependent part rc is the same in every row.
constexpr unsigned ic(int row) {
  const unsigned t[8] = {0, 1, 3, 7, 15, 14, 12, 8};
  return t[row];
}
constexpr std::uint64_t make_ic_plane(int q) {
  std::uint64_t r = 0;
  for (int i = 0; i < 8; ++i)
    if ((ic(i) >> q) & 1) r |= std::uint64_t{1} << (8 * i);
  return r;
}
template <int Q>
inline constexpr std::uint64_t ic_plane = make_ic_plane(Q);

inline constexpr std::uint64_t column0 = 0x0101010101010101;

// rc_0 = 1, then a 4-bit LFSR: shift left, feed in the complement of bit 3 XOR bit 2.
LWC_HD constexpr unsigned next_rc(unsigned rc) {
  return ((rc << 1) | (~((rc >> 3) ^ (rc >> 2)) & 1)) & 0xf;
}

// The PHOTON S-box {C,5,6,B,9,0,A,D,3,E,F,8,4,7,1,2} on bit planes, from its algebraic
// normal form: y0 = x0+x3+x2(1+x1); y1 = x1+x3+x0x1x2+x3(x1+x2)(1+x0);
// y2 = 1+x2+x3+maj(x0,x1,x3)+x0x3(x1+x2); y3 = 1+x0+x1+x3+x1x2(1+x0)+x0x3(x1+x2).
LWC_HD LWC_ALWAYS_INLINE constexpr void sbox(planes& s) {
  const std::uint64_t x0 = s.x0, x1 = s.x1, x2 = s.x2, x3 = s.x3;
  const std::uint64_t t = x1 ^ x2;
  const std::uint64_t x3t = x3 & t;
  const std::uint64_t u = x0 & x3t;  // x0 x3 (x1 + x2)
  const std::uint64_t a = x1 & x2;
  s.x0 = x0 ^ x3 ^ (x2 & ~x1);
  s.x1 = x1 ^ x3 ^ (x0 & a) ^ x3t ^ u;
  s.x2 = ~(x2 ^ x3 ^ (((x0 ^ x1) & (x1 ^ x3)) ^ x1) ^ u);
  s.x3 = ~(x0 ^ x1 ^ x3 ^ (a & ~x0) ^ u);
}

// Rotates the bytes selected by `sel` right by K bits within themselves.
template <unsigned K>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t rotate_bytes(std::uint64_t x, std::uint64_t sel) {
  constexpr std::uint64_t low = 0x0101010101010101 * (0xffu >> K);
  return (x & ~sel) | ((x >> K) & (sel & low)) | ((x << (8 - K)) & (sel & ~low));
}

// ShiftRows: row i moves i cells to the left, i.e. byte i of every plane rotates right by i.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t shift_rows(std::uint64_t x) {
  x = rotate_bytes<1>(x, 0xff00ff00ff00ff00);
  x = rotate_bytes<2>(x, 0xffff0000ffff0000);
  return rotate_bytes<4>(x, 0xffffffff00000000);
}

// The input and its multiples by 2, 4 and 8 use seven distinct planes: x0..x3 and
// a = x0^x3, b = x2^x3, c = x1^x2 (2x = (x3, a, x1, x2), 4x = (x2, b, a, x1), 8x = (x1, c, b, a)).
struct multiples {
  std::uint64_t x0, x1, x2, x3, a, b, c;
};

template <int D>
LWC_HD LWC_ALWAYS_INLINE constexpr void mix_diagonal(const multiples& x, planes& out) {
  constexpr std::uint64_t m0 = mix_mask<D, 0>, m1 = mix_mask<D, 1>;
  constexpr std::uint64_t m2 = mix_mask<D, 2>, m3 = mix_mask<D, 3>;
  out.x0 ^= rotr64((x.x0 & m0) ^ (x.x3 & m1) ^ (x.x2 & m2) ^ (x.x1 & m3), 8 * D);
  out.x1 ^= rotr64((x.x1 & m0) ^ (x.a & m1) ^ (x.b & m2) ^ (x.c & m3), 8 * D);
  out.x2 ^= rotr64((x.x2 & m0) ^ (x.x1 & m1) ^ (x.a & m2) ^ (x.b & m3), 8 * D);
  out.x3 ^= rotr64((x.x3 & m0) ^ (x.x2 & m1) ^ (x.x1 & m2) ^ (x.a & m3), 8 * D);
}

LWC_HD LWC_ALWAYS_INLINE constexpr void mix_columns(planes& s) {
  const multiples x{s.x0, s.x1, s.x2, s.x3, s.x0 ^ s.x3, s.x2 ^ s.x3, s.x1 ^ s.x2};
  planes o{0, 0, 0, 0};
  mix_diagonal<0>(x, o);
  mix_diagonal<1>(x, o);
  mix_diagonal<2>(x, o);
  mix_diagonal<3>(x, o);
  mix_diagonal<4>(x, o);
  mix_diagonal<5>(x, o);
  mix_diagonal<6>(x, o);
  mix_diagonal<7>(x, o);
  s = o;
}

LWC_HD LWC_ALWAYS_INLINE constexpr void round(planes& s, unsigned rc) {
  s.x0 ^= ic_plane<0> ^ (column0 & (std::uint64_t{0} - (rc & 1)));
  s.x1 ^= ic_plane<1> ^ (column0 & (std::uint64_t{0} - ((rc >> 1) & 1)));
  s.x2 ^= ic_plane<2> ^ (column0 & (std::uint64_t{0} - ((rc >> 2) & 1)));
  s.x3 ^= ic_plane<3> ^ (column0 & (std::uint64_t{0} - ((rc >> 3) & 1)));
  sbox(s);
  s.x0 = shift_rows(s.x0);
  s.x1 = shift_rows(s.x1);
  s.x2 = shift_rows(s.x2);
  s.x3 = shift_rows(s.x3);
  mix_columns(s);
}

// Swaps the bits whose indices differ only in index bits A and B (A < B): a delta swap.
template <unsigned A, unsigned B>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t swap_index_bits(std::uint64_t x) {
  constexpr unsigned shift = (1u << B) - (1u << A);
  constexpr std::uint64_t mask = [] {
    std::uint64_t m = 0;
    for (unsigned i = 0; i < 64; ++i)
      if (((i >> A) & 1) && !((i >> B) & 1)) m |= std::uint64_t{1} << i;
    return m;
  }();
  const std::uint64_t t = ((x >> shift) ^ x) & mask;
  return x ^ t ^ (t << shift);
}

// Word k holds nibbles 16k..16k+15, bit q of nibble n at 4n+q. Moving it to 16q+n gathers
// each plane's 16 bits of the word (index bits q0 q1 n0..n3 rotated by two places); a 4x4
// transpose of 16-bit blocks across the words then makes plane q.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t gather_word(std::uint64_t w) {
  w = swap_index_bits<0, 4>(w);
  w = swap_index_bits<0, 2>(w);
  w = swap_index_bits<1, 5>(w);
  return swap_index_bits<1, 3>(w);
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t scatter_word(std::uint64_t w) {
  w = swap_index_bits<1, 3>(w);
  w = swap_index_bits<1, 5>(w);
  w = swap_index_bits<0, 2>(w);
  return swap_index_bits<0, 4>(w);
}

// The 4x4 transpose of 16-bit blocks (block q of word k <-> block k of word q); its own inverse.
LWC_HD LWC_ALWAYS_INLINE constexpr void transpose16(std::uint64_t& a, std::uint64_t& b,
                                                    std::uint64_t& c, std::uint64_t& d) {
  constexpr std::uint64_t lo32 = 0x00000000ffffffff, lo16 = 0x0000ffff0000ffff;
  std::uint64_t t;
  t = (a >> 32) ^ (c & lo32);  // swap the high half of a with the low half of c
  a ^= t << 32;
  c ^= t;
  t = (b >> 32) ^ (d & lo32);
  b ^= t << 32;
  d ^= t;
  t = ((a >> 16) ^ b) & lo16;  // and the odd blocks of a with the even blocks of b
  a ^= t << 16;
  b ^= t;
  t = ((c >> 16) ^ d) & lo16;
  c ^= t << 16;
  d ^= t;
}

LWC_HD LWC_ALWAYS_INLINE constexpr planes to_planes(const state& s) {
  std::uint64_t a = gather_word(s.w[0]), b = gather_word(s.w[1]);
  std::uint64_t c = gather_word(s.w[2]), d = gather_word(s.w[3]);
  transpose16(a, b, c, d);
  return planes{a, b, c, d};
}

LWC_HD LWC_ALWAYS_INLINE constexpr void from_planes(state& s, planes p) {
  transpose16(p.x0, p.x1, p.x2, p.x3);
  s.w[0] = scatter_word(p.x0);
  s.w[1] = scatter_word(p.x1);
  s.w[2] = scatter_word(p.x2);
  s.w[3] = scatter_word(p.x3);
}

LWC_HD constexpr void permute_portable(state& st) {
  planes s = to_planes(st);
  unsigned rc = 1;
  for (int r = 0; r < 12; ++r) {
    round(s, rc);
    rc = next_rc(rc);
  }
  from_planes(st, s);
}

// The S-box as specified, for the derivations and checks done by the compiler.
constexpr unsigned sbox_table(unsigned x) {
  const unsigned t[16] = {12, 5, 6, 11, 9, 0, 10, 13, 3, 14, 15, 8, 4, 7, 1, 2};
  return t[x & 15];
}

// The S-box circuit against the table, on all 16 inputs at once (bit n of plane q = bit q of n).
constexpr bool sbox_matches() {
  planes p{0xaaaa, 0xcccc, 0xf0f0, 0xff00};
  sbox(p);
  for (unsigned n = 0; n < 16; ++n) {
    const unsigned y = unsigned((p.x0 >> n) & 1) | unsigned((p.x1 >> n) & 1) << 1 |
                       unsigned((p.x2 >> n) & 1) << 2 | unsigned((p.x3 >> n) & 1) << 3;
    if (y != sbox_table(n)) return false;
  }
  return true;
}
static_assert(sbox_matches());

}  // namespace detail

}  // namespace lwc::photon_beetle
