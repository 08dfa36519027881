// SPDX-License-Identifier: MIT OR Apache-2.0
// AVX2 lane vectors: four 64-bit lanes in one __m256i (vec), or eight 32-bit lanes (vec32).
// Rotations are two shifts and an OR (AVX2 has no rotate), or one byte shuffle where the
// distance is a whole number of bytes. Include only from a translation unit compiled with -mavx2 whose
// code is reached after a CPUID check; everything here lives in lwc::simd::avx2 so that no
// AVX2-compiled inline function can be picked by the linker for another caller.
#pragma once

#if !defined(__AVX2__)
#error "vec_avx2.hpp needs -mavx2"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vec_common.hpp"

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define LWC_AVX2_NO_PIN 1
#endif
#endif

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
  // a, where the compiler may not move it (permute_lanes.hpp's pin). Not under
  // MemorySanitizer, which checks an asm statement's operands as if they were branched on
  // (the constant-time stage would report every secret that passes through).
#if !defined(LWC_AVX2_NO_PIN)
  LWC_SIMD_INLINE static vec pin(vec a) {
    asm volatile("" : "+x"(a.v));
    return a;
  }
#endif
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

// Eight 32-bit lanes in one __m256i (lane_vector32). Rotations by whole bytes are one byte
// shuffle; the others two shifts and an OR.
struct vec32 {
  static constexpr std::size_t lanes = 8;
  __m256i v;

  LWC_SIMD_INLINE static vec32 set1(std::uint32_t c) {
    return {_mm256_set1_epi32(static_cast<int>(c))};
  }
  LWC_SIMD_INLINE static vec32 load(const std::uint32_t* p) {
    return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))};
  }
  LWC_SIMD_INLINE void store(std::uint32_t* p) const {
    _mm256_store_si256(reinterpret_cast<__m256i*>(p), v);
  }
  LWC_SIMD_INLINE friend vec32 operator^(vec32 a, vec32 b) { return {_mm256_xor_si256(a.v, b.v)}; }
  LWC_SIMD_INLINE friend vec32 operator+(vec32 a, vec32 b) { return {_mm256_add_epi32(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 not_(vec32 a) {
    return {_mm256_xor_si256(a.v, _mm256_set1_epi32(-1))};
  }
  LWC_SIMD_INLINE static vec32 and_(vec32 a, vec32 b) { return {_mm256_and_si256(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 xor3(vec32 a, vec32 b, vec32 c) {
    return {_mm256_xor_si256(_mm256_xor_si256(a.v, b.v), c.v)};
  }
  LWC_SIMD_INLINE static vec32 xor_andn(vec32 a, vec32 b, vec32 c) {
    return {_mm256_xor_si256(a.v, _mm256_andnot_si256(b.v, c.v))};
  }
  // m ? a : b per lane; m is all-ones or zero in each lane.
  LWC_SIMD_INLINE static vec32 select(vec32 m, vec32 a, vec32 b) {
    return {_mm256_blendv_epi8(b.v, a.v, m.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 rotr(vec32 a) {
    static_assert(R > 0 && R < 32);
    if constexpr (R % 8 == 0) {
      // Byte i of each word takes byte (i + R / 8) % 4.
      constexpr char b = R / 8;
      const __m256i m = _mm256_setr_epi8(
          b % 4, (b + 1) % 4, (b + 2) % 4, (b + 3) % 4, 4 + b % 4, 4 + (b + 1) % 4, 4 + (b + 2) % 4,
          4 + (b + 3) % 4, 8 + b % 4, 8 + (b + 1) % 4, 8 + (b + 2) % 4, 8 + (b + 3) % 4, 12 + b % 4,
          12 + (b + 1) % 4, 12 + (b + 2) % 4, 12 + (b + 3) % 4, b % 4, (b + 1) % 4, (b + 2) % 4,
          (b + 3) % 4, 4 + b % 4, 4 + (b + 1) % 4, 4 + (b + 2) % 4, 4 + (b + 3) % 4, 8 + b % 4,
          8 + (b + 1) % 4, 8 + (b + 2) % 4, 8 + (b + 3) % 4, 12 + b % 4, 12 + (b + 1) % 4,
          12 + (b + 2) % 4, 12 + (b + 3) % 4);
      return {_mm256_shuffle_epi8(a.v, m)};
    } else {
      return {_mm256_or_si256(_mm256_srli_epi32(a.v, R), _mm256_slli_epi32(a.v, 32 - R))};
    }
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shl(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {_mm256_slli_epi32(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shr(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {_mm256_srli_epi32(a.v, R)};
  }

  // Word k of lane j is the 4 bytes at p[j] + off + 4 k, little endian. Four words at a time:
  // one 16-byte load per lane, lanes j and j + 4 in the two halves of a register, and a 4 x 4
  // transpose in each half (in-lane unpacks only); then two words (8-byte loads) and one.
  template <std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      __m256i r[4];
      for (std::size_t m = 0; m < 4; ++m)
        r[m] = _mm256_inserti128_si256(_mm256_castsi128_si256(ld128(p[m] + o)), ld128(p[m + 4] + o), 1);
      transpose4(r);
      for (std::size_t m = 0; m < 4; ++m) w[k + m].v = r[m];
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      const __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(pair(p[0] + o, p[2] + o)),
                                                pair(p[4] + o, p[6] + o), 1);
      const __m256i y = _mm256_inserti128_si256(_mm256_castsi128_si256(pair(p[1] + o, p[3] + o)),
                                                pair(p[5] + o, p[7] + o), 1);
      const __m256i lo = _mm256_unpacklo_epi32(x, y), hi = _mm256_unpackhi_epi32(x, y);
      w[k].v = _mm256_unpacklo_epi64(lo, hi);
      w[k + 1].v = _mm256_unpackhi_epi64(lo, hi);
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      w[k].v = _mm256_setr_epi32(ld32(p[0] + o), ld32(p[1] + o), ld32(p[2] + o), ld32(p[3] + o),
                                 ld32(p[4] + o), ld32(p[5] + o), ld32(p[6] + o), ld32(p[7] + o));
    }
  }
  template <std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      __m256i r[4] = {w[k].v, w[k + 1].v, w[k + 2].v, w[k + 3].v};
      transpose4(r);  // its own inverse: r[m] now holds lanes m and m + 4
      for (std::size_t m = 0; m < 4; ++m) {
        st128(p[m] + o, _mm256_castsi256_si128(r[m]));
        st128(p[m + 4] + o, _mm256_extracti128_si256(r[m], 1));
      }
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      const __m256i lo = _mm256_unpacklo_epi32(w[k].v, w[k + 1].v);  // lanes 0, 1 | 4, 5
      const __m256i hi = _mm256_unpackhi_epi32(w[k].v, w[k + 1].v);  // lanes 2, 3 | 6, 7
      st_pair(p[0] + o, p[1] + o, _mm256_castsi256_si128(lo));
      st_pair(p[4] + o, p[5] + o, _mm256_extracti128_si256(lo, 1));
      st_pair(p[2] + o, p[3] + o, _mm256_castsi256_si128(hi));
      st_pair(p[6] + o, p[7] + o, _mm256_extracti128_si256(hi, 1));
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      alignas(32) std::uint32_t t[8];
      _mm256_store_si256(reinterpret_cast<__m256i*>(t), w[k].v);
      for (std::size_t j = 0; j < 8; ++j) std::memcpy(p[j] + o, &t[j], 4);
    }
  }

 private:
  // r[m] holds four words of lane m in its low half and of lane m + 4 in its high half; after
  // the transpose r[m] holds word m of lanes 0..3 and 4..7.
  LWC_SIMD_INLINE static void transpose4(__m256i (&r)[4]) {
    const __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    r[0] = _mm256_unpacklo_epi64(t0, t2);
    r[1] = _mm256_unpackhi_epi64(t0, t2);
    r[2] = _mm256_unpacklo_epi64(t1, t3);
    r[3] = _mm256_unpackhi_epi64(t1, t3);
  }
  LWC_SIMD_INLINE static __m128i ld128(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  // Two words of lane a, then two of lane b.
  LWC_SIMD_INLINE static __m128i pair(const std::uint8_t* a, const std::uint8_t* b) {
    return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a)),
                              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b)));
  }
  LWC_SIMD_INLINE static int ld32(const std::uint8_t* p) {
    int x;
    std::memcpy(&x, p, 4);
    return x;
  }
  LWC_SIMD_INLINE static void st128(std::uint8_t* p, __m128i x) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
  }
  LWC_SIMD_INLINE static void st_pair(std::uint8_t* a, std::uint8_t* b, __m128i x) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(a), x);
    // The high half through an integer copy: _mm_storeh_pd stores through a double*, which
    // must be 8-byte aligned, and message blocks are not.
    const long long hi = _mm_extract_epi64(x, 1);
    std::memcpy(b, &hi, 8);
  }
};

}  // namespace lwc::simd::avx2
