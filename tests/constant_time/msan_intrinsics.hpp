// SPDX-License-Identifier: MIT OR Apache-2.0
// Forced into every translation unit of the MemorySanitizer constant-time build
// (-DLWC_CT_MSAN=ON; the library never includes it). Clang 14's MSan has no shadow rule for a
// few instructions that take an immediate (vpternlog, gf2p8affineqb, pclmulqdq): it checks
// their operands strictly and would report every secret operand, though these instructions
// take the same time whatever their data. Each is replaced here by the same function written
// with operations whose shadow MSan propagates bit by bit (and, or, xor, not, shifts, byte
// tests), so that a secret still reaches every later branch and address it influences. Byte
// and word permutes get stand-ins too, for the opposite reason: MSan follows them too loosely
// (below). Every other instruction of the library is checked as compiled. A test
// (msan_intrinsics_test.cpp) holds each stand-in equal to its instruction on random inputs.
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

// The 128-bit form (Romulus' tweakey steps), byte by byte in plain integer code.
template <int Imm>
__attribute__((always_inline)) inline __m128i gf2p8affine128(__m128i x, __m128i m) {
  std::uint64_t matrix[2];
  std::uint8_t in[16], out[16];
  __builtin_memcpy(matrix, &m, 16);
  __msan_check_mem_is_initialized(matrix, sizeof matrix);
  __builtin_memcpy(in, &x, 16);
  for (int k = 0; k < 16; ++k) {
    unsigned r = Imm & 0xff;
    for (int i = 0; i < 8; ++i) {
      unsigned v = static_cast<unsigned>(matrix[k / 8] >> (8 * (7 - i))) & in[k] & 0xff;
      v ^= v >> 4;
      v ^= v >> 2;
      v ^= v >> 1;
      r ^= (v & 1) << i;
    }
    out[k] = static_cast<std::uint8_t>(r);
  }
  __m128i result;
  __builtin_memcpy(&result, out, 16);
  return result;
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

// Byte and word permutes (pshufb, vpermb, vpermw). MSan's generic rule for these intrinsics
// gives each output lane the OR of the inputs' shadows in the same lane, not the lane the data
// comes from, so a secret byte moved next to public ones would be lost. With a public index
// (lwc's permutes are fixed patterns), the permute is done byte by byte through memory, where
// MSan moves the shadow with the data. A secret index cannot leak through these instructions'
// timing, so it is not reported: the result is then computed by the instruction and marked
// secret as a whole.
inline bool is_public(const void* p, std::size_t n) { return __msan_test_shadow(p, n) == -1; }

// pshufb on n bytes: within each 16-byte lane, byte i is 0 where bit 7 of its index is set,
// else the lane's byte (index & 15).
inline void shuffle_bytes(const void* a, const void* index, void* r, std::size_t n) {
  alignas(64) unsigned char in[64], idx[64], out[64];
  __builtin_memcpy(in, a, n);
  __builtin_memcpy(idx, index, n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = (idx[i] & 0x80) ? 0 : in[(i & ~std::size_t{15}) | (idx[i] & 15)];
  __builtin_memcpy(r, out, n);
}

// vpermb / vpermw with a zeroing mask: element i is a[index[i] mod count], or 0 where mask bit
// i is clear. The mask must be public (it is checked like any branch condition).
template <class E>
inline void permute_elements(const void* a, const void* index, unsigned long long mask, void* r) {
  constexpr std::size_t n = 64 / sizeof(E);
  alignas(64) E in[n], idx[n], out[n];
  __builtin_memcpy(in, a, 64);
  __builtin_memcpy(idx, index, 64);
  for (std::size_t i = 0; i < n; ++i) out[i] = ((mask >> i) & 1) ? in[idx[i] & (n - 1)] : E{0};
  __builtin_memcpy(r, out, 64);
}

// With a secret index: the instruction's result, marked secret as a whole if any input is.
inline void all_secret_if_any(void* r, const void* a, const void* index, std::size_t n) {
  if (!is_public(a, n) || !is_public(index, n)) __msan_poison(r, n);
}

__attribute__((target("ssse3"), always_inline)) inline __m128i pshufb128(__m128i a, __m128i b) {
  __m128i r;
  if (is_public(&b, 16)) {
    shuffle_bytes(&a, &b, &r, 16);
    return r;
  }
  __m128i clean = b;
  __msan_unpoison(&clean, sizeof clean);
  r = _mm_shuffle_epi8(a, clean);
  all_secret_if_any(&r, &a, &b, 16);
  return r;
}
__attribute__((target("avx2"), always_inline)) inline __m256i pshufb256(__m256i a, __m256i b) {
  __m256i r;
  if (is_public(&b, 32)) {
    shuffle_bytes(&a, &b, &r, 32);
    return r;
  }
  __m256i clean = b;
  __msan_unpoison(&clean, sizeof clean);
  r = _mm256_shuffle_epi8(a, clean);
  all_secret_if_any(&r, &a, &b, 32);
  return r;
}
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i pshufb512(__m512i a,
                                                                                   __m512i b) {
  __m512i r;
  if (is_public(&b, 64)) {
    shuffle_bytes(&a, &b, &r, 64);
    return r;
  }
  __m512i clean = b;
  __msan_unpoison(&clean, sizeof clean);
  r = _mm512_shuffle_epi8(a, clean);
  all_secret_if_any(&r, &a, &b, 64);
  return r;
}
__attribute__((target("avx512f,avx512bw,avx512vbmi"), always_inline)) inline __m512i
vpermb(__mmask64 k, __m512i index, __m512i a) {
  __m512i r;
  if (is_public(&index, 64)) {
    permute_elements<unsigned char>(&a, &index, k, &r);
    return r;
  }
  __m512i clean = index;
  __msan_unpoison(&clean, sizeof clean);
  r = _mm512_maskz_permutexvar_epi8(k, clean, a);
  all_secret_if_any(&r, &a, &index, 64);
  return r;
}
__attribute__((target("avx512f,avx512bw"), always_inline)) inline __m512i
vpermw(__mmask32 k, __m512i index, __m512i a) {
  __m512i r;
  if (is_public(&index, 64)) {
    permute_elements<unsigned short>(&a, &index, k, &r);
    return r;
  }
  __m512i clean = index;
  __msan_unpoison(&clean, sizeof clean);
  r = _mm512_maskz_permutexvar_epi16(k, clean, a);
  all_secret_if_any(&r, &a, &index, 64);
  return r;
}

}  // namespace lwc_ct_msan

// msan_intrinsics_test.cpp compares the functions above with the real instructions.
#if !defined(LWC_CT_MSAN_KEEP_INTRINSICS)
#undef _mm512_ternarylogic_epi64
#undef _mm512_ternarylogic_epi32
#undef _mm512_gf2p8affine_epi64_epi8
#undef _mm_gf2p8affine_epi64_epi8
#undef _mm_clmulepi64_si128
// The truth table is per bit, so the 64-bit and 32-bit forms are the same function.
#define _mm512_ternarylogic_epi64(a, b, c, imm) (::lwc_ct_msan::ternlog<(imm)>((a), (b), (c)))
#define _mm512_ternarylogic_epi32(a, b, c, imm) (::lwc_ct_msan::ternlog<(imm)>((a), (b), (c)))
#define _mm512_gf2p8affine_epi64_epi8(x, m, imm) (::lwc_ct_msan::gf2p8affine<(imm)>((x), (m)))
#define _mm_gf2p8affine_epi64_epi8(x, m, imm) (::lwc_ct_msan::gf2p8affine128<(imm)>((x), (m)))
#define _mm_clmulepi64_si128(a, b, imm) (::lwc_ct_msan::clmul<(imm)>((a), (b)))
// Functions in the compiler's headers, not macros: from here on these names call the stand-ins.
#define _mm_shuffle_epi8(a, b) (::lwc_ct_msan::pshufb128((a), (b)))
#define _mm256_shuffle_epi8(a, b) (::lwc_ct_msan::pshufb256((a), (b)))
#define _mm512_shuffle_epi8(a, b) (::lwc_ct_msan::pshufb512((a), (b)))
#define _mm512_maskz_permutexvar_epi8(k, i, a) (::lwc_ct_msan::vpermb((k), (i), (a)))
#define _mm512_maskz_permutexvar_epi16(k, i, a) (::lwc_ct_msan::vpermw((k), (i), (a)))
#endif
#endif
