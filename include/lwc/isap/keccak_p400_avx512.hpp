// SPDX-License-Identifier: MIT OR Apache-2.0
// Keccak-p[400] with AVX-512 (BW, VBMI2) for x86-64 hosts that have them: the 25 lanes are the
// first 25 16-bit words of one 512-bit register. theta's column sums, pi and the neighbours
// chi needs are fixed word permutations (vpermw), rho is one variable rotation (vpshldvw),
// chi one vpternlogq. No data-dependent index or branch.
#pragma once

#include "../common/cpu_dispatch.hpp"

#if LWC_X86_DISPATCH

#include <immintrin.h>

#include <cstdint>

#include "keccak_p400.hpp"

#define LWC_KECCAK_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi2")))

namespace lwc::isap::keccak::detail::avx512 {

struct alignas(64) vec512 {
  std::uint16_t w[32];
};

// Word index of lane (x, y); words 25..31 are spare and map to themselves.
constexpr int lane(int x, int y) { return ((x % 5 + 5) % 5) + 5 * ((y % 5 + 5) % 5); }

struct constants {
  vec512 row[4];       // word (x, y) <- (x, y + k), k = 1..4: the column sums in every row
  vec512 left, right;  // word (x, y) <- (x - 1, y) and (x + 1, y)
  vec512 rho;          // rotation counts
  vec512 pi[3];        // word (X, Y) <- B(X + k, Y), k = 0..2, B(X, Y) = A((X + 3Y) % 5, X)
  vec512 rc[20];       // iota: the constant in word 0 and, for the next theta, its effect
};

constexpr constants make_constants() {
  constants c{};
  const unsigned r[25] = {0, 1, 14, 12, 11, 4, 12, 6, 7, 4,  3, 10, 11,
                          9, 7, 9,  13, 15, 5, 8,  2, 2, 13, 8, 14};  // FIPS 202 table 2 mod 16
  for (int i = 25; i < 32; ++i) {
    for (int k = 0; k < 4; ++k) c.row[k].w[i] = static_cast<std::uint16_t>(i);
    c.left.w[i] = c.right.w[i] = static_cast<std::uint16_t>(i);
    for (int k = 0; k < 3; ++k) c.pi[k].w[i] = static_cast<std::uint16_t>(i);
  }
  for (int x = 0; x < 5; ++x) {
    for (int y = 0; y < 5; ++y) {
      const int i = lane(x, y);
      for (int k = 0; k < 4; ++k) c.row[k].w[i] = static_cast<std::uint16_t>(lane(x, y + k + 1));
      c.left.w[i] = static_cast<std::uint16_t>(lane(x - 1, y));
      c.right.w[i] = static_cast<std::uint16_t>(lane(x + 1, y));
      c.rho.w[i] = static_cast<std::uint16_t>(r[i]);
      for (int k = 0; k < 3; ++k) {
        const int bx = x + k;  // B(bx, y) = A((bx + 3y) % 5, bx)
        c.pi[k].w[i] = static_cast<std::uint16_t>(lane(bx + 3 * y, bx));
      }
    }
  }
  // iota is applied together with the next round's theta, off its critical path: theta is
  // linear, and theta(RC) ^ RC is RC in lane (0, 0), RC in every lane with x = 1 (C[x-1])
  // and RC rotated by 1 in every lane with x = 4 (C[x+1]).
  for (int n = 0; n < 20; ++n) {
    const unsigned rc = round_constant(n);
    const auto rot = static_cast<std::uint16_t>(((rc << 1) | (rc >> 15)) & 0xffff);
    for (int y = 0; y < 5; ++y) {
      c.rc[n].w[lane(1, y)] = static_cast<std::uint16_t>(rc);
      c.rc[n].w[lane(4, y)] = rot;
    }
    c.rc[n].w[0] = static_cast<std::uint16_t>(rc);
  }
  return c;
}

inline constexpr constants table = make_constants();

LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE __m512i load(const vec512& v) {
  return _mm512_load_si512(static_cast<const void*>(v.w));
}

// (The zero-masking form of vpermw: GCC 12's plain intrinsic trips its -Wuninitialized.)
LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE __m512i move(const vec512& idx, __m512i a) {
  return _mm512_maskz_permutexvar_epi16(~__mmask32{0}, load(idx), a);
}

// One round without its iota; `pending` is the previous round's iota together with its
// effect on this theta (zero for the first round).
LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE __m512i round(__m512i a, __m512i pending) {
  // theta: the column sums in every row, then C[x-1] ^ (C[x+1] <<< 1)
  const __m512i c = _mm512_ternarylogic_epi64(
      _mm512_ternarylogic_epi64(a, move(table.row[0], a), move(table.row[1], a), 0x96),
      move(table.row[2], a), move(table.row[3], a), 0x96);
  const __m512i r = move(table.right, c);
  a = _mm512_ternarylogic_epi64(_mm512_xor_si512(a, pending), move(table.left, c),
                                _mm512_shldi_epi16(r, r, 1), 0x96);
  // rho
  a = _mm512_shldv_epi16(a, a, load(table.rho));
  // pi, chi: b0 ^ (~b1 & b2)
  return _mm512_ternarylogic_epi64(move(table.pi[0], a), move(table.pi[1], a), move(table.pi[2], a),
                                   0xd2);
}

LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE __m512i load_state(const state& s) {
  return _mm512_maskz_loadu_epi16(0x1ffffff, s.a);
}
LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE void store_state(state& s, __m512i a) {
  _mm512_mask_storeu_epi16(s.a, 0x1ffffff, a);
}

// Keccak-p[400, Rounds] on lanes held in a register.
template <int Rounds>
LWC_KECCAK_AVX512_TARGET LWC_ALWAYS_INLINE __m512i permute(__m512i a) {
  a = round(a, _mm512_setzero_si512());
  for (int n = 20 - Rounds; n < 19; ++n) a = round(a, load(table.rc[n]));
  return _mm512_xor_si512(a, _mm512_maskz_set1_epi16(1, static_cast<short>(rc<19>)));
}

template <int Rounds>
LWC_KECCAK_AVX512_TARGET inline void permute(state& s) {
  store_state(s, permute<Rounds>(load_state(s)));
}

inline bool cpu_supported() { return host_cpu().avx512 && host_cpu().avx512vbmi2; }

}  // namespace lwc::isap::keccak::detail::avx512

#endif  // LWC_X86_DISPATCH
