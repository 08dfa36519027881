// AVX2 lane vector: four 64-bit lanes in one __m256i. Rotations are two shifts and an OR
// (AVX2 has no 64-bit rotate). Include only from a translation unit compiled with -mavx2 whose
// code is reached after a CPUID check; everything here lives in lwc::simd::avx2 so that no
// AVX2-compiled inline function can be picked by the linker for another caller.
#pragma once

#if !defined(__AVX2__)
#error "vec_avx2.hpp needs -mavx2"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "vec_common.hpp"

namespace lwc::simd::avx2 {

struct vec {
  static constexpr std::size_t lanes = 4;
  __m256i v;

  LWC_SIMD_INLINE static vec set1(std::uint64_t c) {
    return {_mm256_set1_epi64x(static_cast<long long>(c))};
  }
  LWC_SIMD_INLINE static vec load(const std::uint64_t* p) {
    return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))};
  }
  LWC_SIMD_INLINE void store(std::uint64_t* p) const {
    _mm256_store_si256(reinterpret_cast<__m256i*>(p), v);
  }
  LWC_SIMD_INLINE friend vec operator^(vec a, vec b) { return {_mm256_xor_si256(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec not_(vec a) {
    return {_mm256_xor_si256(a.v, _mm256_set1_epi64x(-1))};
  }
  LWC_SIMD_INLINE static vec xor3(vec a, vec b, vec c) {
    return {_mm256_xor_si256(_mm256_xor_si256(a.v, b.v), c.v)};
  }
  LWC_SIMD_INLINE static vec xor_andn(vec a, vec b, vec c) {
    return {_mm256_xor_si256(a.v, _mm256_andnot_si256(b.v, c.v))};
  }
  LWC_SIMD_INLINE static vec and_xor(vec a, vec b, vec c) {
    return {_mm256_xor_si256(_mm256_and_si256(a.v, b.v), c.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec rotr(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm256_or_si256(_mm256_srli_epi64(a.v, R), _mm256_slli_epi64(a.v, 64 - R))};
  }
  LWC_SIMD_INLINE static vec and_(vec a, vec b) { return {_mm256_and_si256(a.v, b.v)}; }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shr(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm256_srli_epi64(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shl(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm256_slli_epi64(a.v, R)};
  }

  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec (&w)[W]) {
    static_assert(W == 1 || W == 2);
    if constexpr (W == 2) {
      // Lanes 0 and 2 in one register, 1 and 3 in the other: the in-lane unpacks then put
      // word k of lane j at position j.
      const __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(ld128(p[0] + off)), ld128(p[2] + off), 1);
      const __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(ld128(p[1] + off)), ld128(p[3] + off), 1);
      w[0].v = swap<BigEndian>(_mm256_unpacklo_epi64(a, b));
      w[1].v = swap<BigEndian>(_mm256_unpackhi_epi64(a, b));
    } else {
      const __m128i lo = _mm_unpacklo_epi64(ld64(p[0] + off), ld64(p[1] + off));
      const __m128i hi = _mm_unpacklo_epi64(ld64(p[2] + off), ld64(p[3] + off));
      w[0].v = swap<BigEndian>(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
    }
  }
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec (&w)[W]) {
    static_assert(W == 1 || W == 2);
    if constexpr (W == 2) {
      const __m256i w0 = swap<BigEndian>(w[0].v), w1 = swap<BigEndian>(w[1].v);
      const __m256i even = _mm256_unpacklo_epi64(w0, w1);  // lanes 0 | 2
      const __m256i odd = _mm256_unpackhi_epi64(w0, w1);   // lanes 1 | 3
      st128(p[0] + off, _mm256_castsi256_si128(even));
      st128(p[2] + off, _mm256_extracti128_si256(even, 1));
      st128(p[1] + off, _mm256_castsi256_si128(odd));
      st128(p[3] + off, _mm256_extracti128_si256(odd, 1));
    } else {
      const __m256i x = swap<BigEndian>(w[0].v);
      const __m128i lo = _mm256_castsi256_si128(x), hi = _mm256_extracti128_si256(x, 1);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p[0] + off), lo);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p[1] + off), _mm_unpackhi_epi64(lo, lo));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p[2] + off), hi);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p[3] + off), _mm_unpackhi_epi64(hi, hi));
    }
  }

 private:
  LWC_SIMD_INLINE static __m128i ld128(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  LWC_SIMD_INLINE static __m128i ld64(const std::uint8_t* p) {
    return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  }
  LWC_SIMD_INLINE static void st128(std::uint8_t* p, __m128i x) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
  }
  template <bool BigEndian>
  LWC_SIMD_INLINE static __m256i swap(__m256i x) {
    if constexpr (BigEndian) {
      const __m256i m = _mm256_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                        10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
      return _mm256_shuffle_epi8(x, m);
    } else {
      return x;
    }
  }
};

}  // namespace lwc::simd::avx2
