// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-256 with AVX-512 (F, BW, VBMI) and GFNI, for x86-64 hosts that have them: one cell
// per byte of a 512-bit register (byte 8i+j = cell (i,j), low nibble). Products by constants
// of GF(2^4) and the S-box are GF(2) affine maps and ANDs of them (gf2p8affineqb, vpternlogq),
// ShiftRows and the row rotations of MixColumnSerial are fixed byte permutations (vpermb):
// no table lookup, no data-dependent index or branch.
#pragma once

#include "../common/cpu_dispatch.hpp"

#if LWC_X86_DISPATCH

#include <immintrin.h>

#include <cstdint>

#include "permutation_portable.hpp"

#define LWC_PHOTON_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,gfni")))

namespace lwc::photon_beetle::detail::avx512 {

// An 8x8 GF(2) matrix for gf2p8affineqb: output bit r is the parity of (byte 7-r) AND input.
constexpr std::uint64_t affine_row(int r, unsigned row) {
  return std::uint64_t{row & 0xff} << (8 * (7 - r));
}

// The S-box from affine maps. With x0 fixed, each output bit is a quadratic function of
// x1, x2, x3, hence a*b + c for affine forms a, b, c (in three variables every quadratic
// form has rank at most 2). Bits 0..3 of A, B, C carry the forms for x0 = 0, bits 4..7 those
// for x0 = 1; one AND-XOR makes both branches and x0 picks one. The forms are found here, by
// the compiler, from the S-box table.
struct sbox_maps {
  std::uint64_t a, b, c;  // matrices
  unsigned ca, cb, cc;    // constant bits (the instruction's immediate)
  bool ok;
};

// An affine form on (x1, x2, x3): bits 0..2 the coefficients, bit 3 the constant.
constexpr unsigned eval_form(unsigned form, unsigned x123) {
  unsigned v = (form >> 3) & 1;
  for (int k = 0; k < 3; ++k) v ^= ((form >> k) & (x123 >> k)) & 1;
  return v;
}

constexpr sbox_maps make_sbox_maps() {
  sbox_maps m{0, 0, 0, 0, 0, 0, true};
  for (unsigned x0 = 0; x0 < 2; ++x0) {
    for (int p = 0; p < 4; ++p) {
      const int r = p + 4 * static_cast<int>(x0);  // output bit of the affine maps
      bool found = false;
      for (unsigned fa = 0; fa < 16 && !found; ++fa) {
        for (unsigned fb = 0; fb < 16 && !found; ++fb) {
          // c = f ^ a*b must be affine: then it equals the form through its values at 0, e_k.
          unsigned g[8] = {};
          for (unsigned x = 0; x < 8; ++x)
            g[x] = ((sbox_table(x0 | (x << 1)) >> p) & 1) ^ (eval_form(fa, x) & eval_form(fb, x));
          unsigned fc = g[0] << 3;
          for (int k = 0; k < 3; ++k) fc |= (g[1u << k] ^ g[0]) << k;
          bool affine = true;
          for (unsigned x = 0; x < 8; ++x) affine = affine && eval_form(fc, x) == g[x];
          if (!affine) continue;
          found = true;
          // form bit k (k < 3) is input bit k+1 of the cell
          m.a |= affine_row(r, (fa & 7) << 1);
          m.b |= affine_row(r, (fb & 7) << 1);
          m.c |= affine_row(r, (fc & 7) << 1);
          m.ca |= ((fa >> 3) & 1) << r;
          m.cb |= ((fb >> 3) & 1) << r;
          m.cc |= ((fc >> 3) & 1) << r;
        }
      }
      m.ok = m.ok && found;
    }
  }
  return m;
}

inline constexpr sbox_maps sbox_affine = make_sbox_maps();
static_assert(sbox_affine.ok);
// The immediates as integral constants (GCC wants them so when not optimising).
inline constexpr int sbox_imm_a = static_cast<int>(sbox_affine.ca);
inline constexpr int sbox_imm_b = static_cast<int>(sbox_affine.cb);
inline constexpr int sbox_imm_c = static_cast<int>(sbox_affine.cc);

// The 64-byte constants, each as eight qwords (qword i = row i).
struct alignas(64) vec512 {
  std::uint64_t q[8];
};

struct constants {
  vec512 rc[12];   // AddConstant: rc_r ^ IC[i] in column 0 of row i
  vec512 perm[8];  // ShiftRows, then rows rotated up by d: byte 8i+j <- 8(i+d)+(i+d+j)
  vec512 mix[8];   // qword i: the matrix of the product by M[i][(i+d) % 8] on the low nibble
};

constexpr constants make_constants() {
  constants c{};
  unsigned rc = 1;
  for (int r = 0; r < 12; ++r, rc = next_rc(rc))
    for (int i = 0; i < 8; ++i) c.rc[r].q[i] = rc ^ ic(i);
  const mix_matrix_t mm = mix_matrix();
  for (int d = 0; d < 8; ++d) {
    for (int i = 0; i < 8; ++i) {
      std::uint64_t idx = 0, mat = 0;
      for (int j = 0; j < 8; ++j)
        idx |= std::uint64_t((8 * ((i + d) % 8) + (i + d + j) % 8)) << (8 * j);
      const unsigned coef = mm.m[i][(i + d) % 8];
      for (int p = 0; p < 4; ++p) {
        unsigned row = 0;
        for (int q = 0; q < 4; ++q) row |= ((gf16_mul(coef, 1u << q) >> p) & 1) << q;
        mat |= affine_row(p, row);
      }
      c.perm[d].q[i] = idx;
      c.mix[d].q[i] = mat;
    }
  }
  return c;
}

inline constexpr constants table = make_constants();

LWC_PHOTON_AVX512_TARGET LWC_ALWAYS_INLINE __m512i load(const vec512& v) {
  return _mm512_load_si512(static_cast<const void*>(v.q));
}

LWC_PHOTON_AVX512_TARGET LWC_ALWAYS_INLINE __m512i sbox(__m512i y) {
  constexpr sbox_maps m = sbox_affine;
  const __m512i a =
      _mm512_gf2p8affine_epi64_epi8(y, _mm512_set1_epi64(static_cast<long long>(m.a)), sbox_imm_a);
  const __m512i b =
      _mm512_gf2p8affine_epi64_epi8(y, _mm512_set1_epi64(static_cast<long long>(m.b)), sbox_imm_b);
  const __m512i c =
      _mm512_gf2p8affine_epi64_epi8(y, _mm512_set1_epi64(static_cast<long long>(m.c)), sbox_imm_c);
  // every bit of a byte: bit 0 of the cell
  const __m512i x0 = _mm512_gf2p8affine_epi64_epi8(
      y, _mm512_set1_epi64(static_cast<long long>(0x0101010101010101)), 0);
  const __m512i t = _mm512_ternarylogic_epi64(a, b, c, 0x6a);              // (a & b) ^ c
  return _mm512_ternarylogic_epi64(x0, _mm512_srli_epi16(t, 4), t, 0xca);  // x0 ? t >> 4 : t
}

// (The zero-masking forms of vpermb and vpmovwb: the plain intrinsics of GCC 12 trip its
// -Wuninitialized on their undefined pass-through operand.)
template <int D>
LWC_PHOTON_AVX512_TARGET LWC_ALWAYS_INLINE __m512i mix_term(__m512i y) {
  const __m512i moved = _mm512_maskz_permutexvar_epi8(~__mmask64{0}, load(table.perm[D]), y);
  return _mm512_gf2p8affine_epi64_epi8(moved, load(table.mix[D]), 0);
}

// One round without its AddConstant, plus the next round's constant `next`.
LWC_PHOTON_AVX512_TARGET LWC_ALWAYS_INLINE __m512i round(__m512i y, __m512i next) {
  y = sbox(y);
  const __m512i t0 =
      _mm512_ternarylogic_epi64(mix_term<0>(y), mix_term<1>(y), mix_term<2>(y), 0x96);
  const __m512i t1 =
      _mm512_ternarylogic_epi64(mix_term<3>(y), mix_term<4>(y), mix_term<5>(y), 0x96);
  const __m512i t2 = _mm512_ternarylogic_epi64(mix_term<6>(y), mix_term<7>(y), next, 0x96);
  return _mm512_ternarylogic_epi64(t0, t1, t2, 0x96);
}

LWC_PHOTON_AVX512_TARGET inline void permute(state& s) {
  // Byte b of the state holds cells 2b (low nibble) and 2b+1: widen to 16 bits, then the odd
  // bytes take the high nibble (the high nibbles of the bytes are ignored until the first
  // MixColumnSerial, whose outputs are clean).
  const __m256i bytes =
      _mm256_set_epi64x(static_cast<long long>(s.w[3]), static_cast<long long>(s.w[2]),
                        static_cast<long long>(s.w[1]), static_cast<long long>(s.w[0]));
  const __m512i wide = _mm512_cvtepu8_epi16(bytes);
  __m512i y = _mm512_mask_blend_epi8(0xaaaaaaaaaaaaaaaa, wide, _mm512_slli_epi16(wide, 4));
  y = _mm512_xor_si512(y, load(table.rc[0]));
  for (int r = 1; r < 12; ++r) y = round(y, load(table.rc[r]));
  y = round(y, _mm512_setzero_si512());
  const __m256i packed =
      _mm512_maskz_cvtepi16_epi8(~__mmask32{0}, _mm512_or_si512(y, _mm512_srli_epi16(y, 4)));
  s.w[0] = static_cast<std::uint64_t>(_mm256_extract_epi64(packed, 0));
  s.w[1] = static_cast<std::uint64_t>(_mm256_extract_epi64(packed, 1));
  s.w[2] = static_cast<std::uint64_t>(_mm256_extract_epi64(packed, 2));
  s.w[3] = static_cast<std::uint64_t>(_mm256_extract_epi64(packed, 3));
}

inline bool cpu_supported() {
  const cpu_features& f = host_cpu();
  return f.avx512 && f.avx512vbmi && f.gfni;
}

}  // namespace lwc::photon_beetle::detail::avx512

#endif  // LWC_X86_DISPATCH
