// Forced into every translation unit of the MemorySanitizer constant-time build
// (-DLWC_CT_MSAN=ON; the library never includes it). Clang 14's MSan has no shadow rule for a
// few instructions that take an immediate (vpternlog, gf2p8affineqb, pclmulqdq): it checks
// their operands strictly and would report every secret operand, though these instructions
// take the same time whatever their data. Each is replaced here by the same function written
// with operations whose shadow MSan propagates bit by bit (and, or, xor, not, shifts, byte
// tests), so that a secret still reaches every later branch and address it influences; every
// other instruction of the library is checked as compiled. A test (msan_intrinsics_test.cpp)
// holds each replacement equal to the instruction on random inputs and every immediate.
#pragma once

#if defined(__x86_64__) && defined(__clang__)
#include <immintrin.h>
#include <sanitizer/msan_interface.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace lwc_ct_msan {

// vpternlog{q,d}: minterm I of the truth table is (I & 4 ? a : ~a) & (I & 2 ? b : ~b) &
// (I & 1 ? c : ~c) (a is the first source: bit 7 of the immediate is a = b = c = 1).
template <int Imm, std::size_t... I>
__attribute__((target("avx512f"), always_inline)) inline __m512i
truth_table(__m512i a, __m512i b, __m512i c, std::index_sequence<I...>) {
  const __m512i ones = _mm512_set1_epi64(-1);
  __m512i r = _mm512_setzero_si512();
  ((r = ((Imm >> I) & 1)
            ? _mm512_or_si512(
                  r, _mm512_and_si512(
                         _mm512_and_si512((I & 4) ? a : _mm512_xor_si512(a, ones),
                                          (I & 2) ? b : _mm512_xor_si512(b, ones)),
                         (I & 1) ? c : _mm512_xor_si512(c, ones)))
            : r),
   ...);
  return r;
}

template <int Imm>
__attribute__((target("avx512f"), always_inline)) inline __m512i ternlog(__m512i a, __m512i b,
                                                                         __m512i c) {
  return truth_table<(Imm & 0xff)>(a, b, c, std::make_index_sequence<8>{});
}

// gf2p8affineqb: bit i of each output byte is the parity of (byte 7 - i of the lane's matrix
// qword) & (the input byte), xor bit i of Imm. Written as: for each input bit j, a byte mask
// (all ones where bit j is set, from a byte test) and'ed with column j of the matrix. The
// matrix is a public constant wherever lwc uses the instruction; it is checked to be.
template <int Imm>
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i gf2p8affine(__m512i x,
                                                                                     __m512i m) {
  alignas(64) std::uint64_t matrix[8];
  _mm512_store_si512(matrix, m);
  __msan_check_mem_is_initialized(matrix, sizeof matrix);
  __m512i r = _mm512_set1_epi8(static_cast<char>(Imm & 0xff));
  for (int j = 0; j < 8; ++j) {
    alignas(64) std::uint64_t column[8];
    for (int q = 0; q < 8; ++q) {
      std::uint64_t c = 0;
      for (int i = 0; i < 8; ++i) c |= ((matrix[q] >> (8 * (7 - i) + j)) & 1) << i;
      column[q] = c * 0x0101010101010101ull;
    }
    const __m512i has_bit =
        _mm512_movm_epi8(_mm512_test_epi8_mask(x, _mm512_set1_epi8(static_cast<char>(1 << j))));
    r = _mm512_xor_si512(r, _mm512_and_si512(has_bit, _mm512_load_si512(column)));
  }
  return r;
}

// pclmulqdq: shift-and-xor, each bit of y spread to a whole word by an arithmetic shift (whose
// shadow MSan spreads the same way).
template <int Imm>
__attribute__((always_inline)) inline __m128i clmul(__m128i a, __m128i b) {
  const std::uint64_t x = static_cast<std::uint64_t>(
      _mm_cvtsi128_si64((Imm & 0x01) ? _mm_unpackhi_epi64(a, a) : a));
  const std::uint64_t y = static_cast<std::uint64_t>(
      _mm_cvtsi128_si64((Imm & 0x10) ? _mm_unpackhi_epi64(b, b) : b));
  std::uint64_t lo = x & static_cast<std::uint64_t>(static_cast<std::int64_t>(y << 63) >> 63);
  std::uint64_t hi = 0;
  for (int i = 1; i < 64; ++i) {
    const auto spread =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(y << (63 - i)) >> 63);
    lo ^= spread & (x << i);
    hi ^= spread & (x >> (64 - i));
  }
  return _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo));
}

}  // namespace lwc_ct_msan

// msan_intrinsics_test.cpp compares the functions above with the real instructions.
#if !defined(LWC_CT_MSAN_KEEP_INTRINSICS)
#undef _mm512_ternarylogic_epi64
#undef _mm512_ternarylogic_epi32
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_clmulepi64_si128
// The truth table is per bit, so the 64-bit and 32-bit forms are the same function.
#define _mm512_ternarylogic_epi64(a, b, c, imm) (::lwc_ct_msan::ternlog<(imm)>((a), (b), (c)))
#define _mm512_ternarylogic_epi32(a, b, c, imm) (::lwc_ct_msan::ternlog<(imm)>((a), (b), (c)))
#define _mm512_gf2p8affine_epi64_epi8(x, m, imm) (::lwc_ct_msan::gf2p8affine<(imm)>((x), (m)))
#define _mm_clmulepi64_si128(a, b, imm) (::lwc_ct_msan::clmul<(imm)>((a), (b)))
#endif
#endif
