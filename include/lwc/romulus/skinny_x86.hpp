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

}  // namespace lwc::romulus::detail::x86

// The rounds, compiled once for each instruction set: AVX2, and AVX-512 (VL: the same 128-bit
// code, where the compiler merges AND/XOR chains into three-input logic instructions).
#define LWC_ROMULUS_X86_NAMESPACE avx2
#define LWC_ROMULUS_X86_TARGET "avx2,bmi,bmi2"
#include "skinny_x86_rounds.hpp"
#undef LWC_ROMULUS_X86_NAMESPACE
#undef LWC_ROMULUS_X86_TARGET
#define LWC_ROMULUS_X86_NAMESPACE avx512
#define LWC_ROMULUS_X86_TARGET "avx512f,avx512vl,avx2,bmi,bmi2"
#include "skinny_x86_rounds.hpp"
#undef LWC_ROMULUS_X86_NAMESPACE
#undef LWC_ROMULUS_X86_TARGET

namespace lwc::romulus::detail::x86 {

inline bool cpu_has_avx2() {
  const cpu_features& f = host_cpu();
  return f.avx2 && f.bmi1 && f.bmi2;
}

inline bool cpu_has_avx512vl() { return cpu_has_avx2() && host_cpu().avx512vl; }

}  // namespace lwc::romulus::detail::x86

#endif  // LWC_X86_DISPATCH
