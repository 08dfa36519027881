// SPDX-License-Identifier: MIT OR Apache-2.0
// SKINNY-128-384+ with the state in vector registers, for x86-64 CPUs with AVX2 (the code is
// 128-bit wide; AVX2 stands for a CPU with three-operand encodings and fast byte shuffles): a
// block in one register, its two row-pair words in the two 64-bit lanes. The rounds are those
// of skinny128_384_plus.hpp, whose S-box code runs on both lanes at once; ShiftRows and
// MixColumns become two byte shuffles, a mask and two XORs. The tweakey words are still computed in
// general-purpose registers, beside the vector work, and added with the S-box's last step
// (before ShiftRows, as the specification orders it). Two blocks (the Hirose compression
// function, Romulus-T's key stream and next key) are two registers worked on side by side: a
// 256-bit register would hold both, but then every generic function handling the vector type
// would need AVX in its calling convention.
//
// Everything here is compiled for AVX2 (and again for AVX-512, skinny_x86_rounds.hpp) through
// function attributes, and only called by romulus/common.hpp after the CPU check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../common/cpu_dispatch.hpp"
#include "skinny128_384_plus.hpp"

#if LWC_X86_DISPATCH

#include <immintrin.h>

namespace lwc::romulus::detail::x86 {

typedef u64 u64x2 __attribute__((vector_size(16)));

// ShiftRows then MixColumns: the new rows are (r0 ^ r2 ^ r3, r0, r1 ^ r2, r0 ^ r2) of the rows
// after row i was rotated by i cells. Term a gives (r3, r0, r1, r0), b (r2, 0, r2, r2), and the
// rest, (r0, 0, 0, 0), is row 0 in place. The byte of the state each output byte takes, or -1
// for zero.
enum class mix_term : int { a, b };

LWC_HD constexpr int mix_source(mix_term t, int k) {
  const int row = k / 4, col = k % 4;
  auto shifted = [col](int i) { return 4 * i + ((col - i) & 3); };  // row i after ShiftRows
  if (t == mix_term::a) return shifted(row == 0 ? 3 : row == 2 ? 1 : 0);
  return row == 1 ? -1 : shifted(2);
}

// ---- tweakey words with GFNI ------------------------------------------------------------------
//
// A tweakey word's step from one round to the one two rounds later is a byte permutation (the
// cell permutation, permute_cells) followed by the same linear map on every byte (the LFSR
// between two bit orders, map_kind::step): one byte shuffle and one gf2p8affineqb, instead of
// about forty shifts, masks and XORs in general-purpose registers. Two arrays step side by side
// in the two 64-bit lanes (the matrix operand is per lane). Part of the AVX-512 path (which
// requires GFNI): the fixed schedules of every Romulus call, and the counter word stepped
// beside the rounds (skinny_x86_rounds.hpp).
namespace gfni {

// permute_cells as the source byte of each output byte, for both lanes of a shuffle.
LWC_HD constexpr int lane_cell_source(int k) { return cell_source(k % 8) + (k / 8) * 8; }

#define LWC_ROMULUS_GFNI_TARGET __attribute__((target("gfni,avx2"), always_inline)) inline

template <std::size_t... K>
LWC_ROMULUS_GFNI_TARGET __m128i cells(__m128i x, std::index_sequence<K...>) {
  return _mm_shuffle_epi8(x, _mm_setr_epi8(static_cast<char>(lane_cell_source(int(K)))...));
}
LWC_ROMULUS_GFNI_TARGET __m128i cells(__m128i x) { return cells(x, std::make_index_sequence<16>{}); }

template <map_kind Kind, int Tk0, int Tk1, int R>
LWC_ROMULUS_GFNI_TARGET __m128i map(__m128i x) {
  constexpr u64 m0 = gfni_matrix(make_map<Kind, Tk0, R>()),
                m1 = gfni_matrix(make_map<Kind, Tk1, R>());
  return _mm_gf2p8affine_epi64_epi8(
      x, _mm_set_epi64x(static_cast<long long>(m1), static_cast<long long>(m0)), 0);
}

// The words of round r for the arrays in the two lanes (Tk0 in lane 0, Tk1 in lane 1), as
// take_word hands them out: `out[r]` gets them, and the lanes move on.
template <int Tk0, int Tk1, int R = 0>
LWC_ROMULUS_GFNI_TARGET void eight_rounds(__m128i& even, __m128i& odd, __m128i* out) {
  if constexpr (R < 8) {
    __m128i& w = R % 2 == 0 ? even : odd;
    out[R] = w;
    w = map<map_kind::step, Tk0, Tk1, R>(cells(w));
    eight_rounds<Tk0, Tk1, R + 1>(even, odd, out);
  }
}

// start_live for both lanes: the even word from rows 0 and 1, the odd one from rows 2 and 3.
template <int Tk0, int Tk1>
LWC_ROMULUS_GFNI_TARGET void start(__m128i rows01, __m128i rows23, __m128i& even, __m128i& odd) {
  even = map<map_kind::first_even, Tk0, Tk1, 0>(rows01);
  odd = map<map_kind::first_odd, Tk0, Tk1, 0>(cells(rows23));
}

LWC_ROMULUS_GFNI_TARGET __m128i load_row_pairs(const std::uint8_t* tk, int half) {
  return tk == nullptr ? _mm_setzero_si128() : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(tk + 8 * half));
}

// build_schedule of skinny128_384_plus.hpp.
__attribute__((target("gfni,avx2"), noinline)) inline void build_schedule(
    schedule& s, const std::uint8_t* tk2, const std::uint8_t* tk3) {
  constexpr schedule constants = constant_schedule();
  __m128i even, odd, words[40];
  start<2, 3>(_mm_unpacklo_epi64(load_row_pairs(tk2, 0), load_row_pairs(tk3, 0)),
              _mm_unpacklo_epi64(load_row_pairs(tk2, 1), load_row_pairs(tk3, 1)), even, odd);
  for (int q = 0; q < 40; q += 8) eight_rounds<2, 3>(even, odd, words + q);
  for (int r = 0; r < 40; ++r)
    s.w[r] = constants.w[r] ^ static_cast<u64>(_mm_cvtsi128_si64(_mm_xor_si128(
                                  words[r], _mm_unpackhi_epi64(words[r], words[r]))));
  even = odd = _mm_setzero_si128();
  wipe_object(words);
}

#undef LWC_ROMULUS_GFNI_TARGET

}  // namespace gfni

}  // namespace lwc::romulus::detail::x86

// The rounds, compiled once for each instruction set: AVX2, and AVX-512 with GFNI (VL: the
// same 128-bit code, where the compiler merges AND/XOR chains into three-input logic
// instructions; GFNI for the tweakey words).
#define LWC_ROMULUS_X86_NAMESPACE avx2
#define LWC_ROMULUS_X86_TARGET "avx2,bmi,bmi2"
#define LWC_ROMULUS_X86_GFNI 0
#include "skinny_x86_rounds.hpp"
#undef LWC_ROMULUS_X86_NAMESPACE
#undef LWC_ROMULUS_X86_TARGET
#undef LWC_ROMULUS_X86_GFNI
#define LWC_ROMULUS_X86_NAMESPACE avx512
#define LWC_ROMULUS_X86_TARGET "avx512f,avx512vl,gfni,avx2,bmi,bmi2"
#define LWC_ROMULUS_X86_GFNI 1
#include "skinny_x86_rounds.hpp"
#undef LWC_ROMULUS_X86_NAMESPACE
#undef LWC_ROMULUS_X86_TARGET
#undef LWC_ROMULUS_X86_GFNI

namespace lwc::romulus::detail::x86 {

inline bool cpu_has_avx2() {
  const cpu_features& f = host_cpu();
  return f.avx2 && f.bmi1 && f.bmi2;
}

// AVX-512VL and GFNI (Ice Lake, Zen 4 and later; the first AVX-512 CPUs run the AVX2 code).
inline bool cpu_has_avx512vl_gfni() {
  return cpu_has_avx2() && host_cpu().avx512vl && host_cpu().gfni;
}

}  // namespace lwc::romulus::detail::x86

#endif  // LWC_X86_DISPATCH
