// SPDX-License-Identifier: MIT OR Apache-2.0
// AVX-512 lane vectors: eight 64-bit lanes in one __m512i (vec), or sixteen 32-bit lanes
// (vec32), with the three-input logic instruction (vpternlogq/d) for every two-operation step
// of the S-boxes and linear layers, and the native rotates (vprorq/d). Needs AVX-512F and
// AVX-512BW (byte shuffle for big-endian).
//
// Include only from a translation unit compiled with those flags, reached after a CPUID and
// XGETBV check. Everything here, and everything the engine instantiates, lives in
// lwc::simd::avx512: an inline function compiled with -mavx512f in a namespace that other
// units also use could be the copy the linker keeps, and a pre-AVX-512 CPU would then die
// with SIGILL in code that never asked for AVX-512.
#pragma once

#if !defined(__AVX512F__) || !defined(__AVX512BW__)
#error "vec_avx512.hpp needs -mavx512f -mavx512bw"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vec_common.hpp"

namespace lwc::simd::avx512 {

struct vec {
  static constexpr std::size_t lanes = 8;
  __m512i v;

  // Truth-table immediates of vpternlogq for inputs (a, b, c) = (0xf0, 0xcc, 0xaa).
  static constexpr int tl_xor3 = 0x96;      // a ^ b ^ c
  static constexpr int tl_xor_andn = 0xd2;  // a ^ (~b & c)
  static constexpr int tl_and_xor = 0x6a;   // (a & b) ^ c

  LWC_SIMD_INLINE static vec set1(std::uint64_t c) {
    return {_mm512_set1_epi64(static_cast<long long>(c))};
  }
  LWC_SIMD_INLINE static vec load(const std::uint64_t* p) { return {_mm512_load_si512(p)}; }
  LWC_SIMD_INLINE void store(std::uint64_t* p) const { _mm512_store_si512(p, v); }
  LWC_SIMD_INLINE friend vec operator^(vec a, vec b) { return {_mm512_xor_si512(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec not_(vec a) {
    return {_mm512_ternarylogic_epi64(a.v, a.v, a.v, 0x55)};
  }
  LWC_SIMD_INLINE static vec xor3(vec a, vec b, vec c) {
    return {_mm512_ternarylogic_epi64(a.v, b.v, c.v, tl_xor3)};
  }
  LWC_SIMD_INLINE static vec xor_andn(vec a, vec b, vec c) {
    return {_mm512_ternarylogic_epi64(a.v, b.v, c.v, tl_xor_andn)};
  }
  LWC_SIMD_INLINE static vec and_xor(vec a, vec b, vec c) {
    return {_mm512_ternarylogic_epi64(a.v, b.v, c.v, tl_and_xor)};
  }
  // Any three-input function, its truth table as the immediate (ternary_vector).
  template <int Imm>
  LWC_SIMD_INLINE static vec ternary(vec a, vec b, vec c) {
    return {_mm512_ternarylogic_epi64(a.v, b.v, c.v, Imm)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec rotr(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm512_ror_epi64(a.v, R)};
  }
  LWC_SIMD_INLINE static vec and_(vec a, vec b) { return {_mm512_and_si512(a.v, b.v)}; }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shr(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm512_srli_epi64(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shl(vec a) {
    static_assert(R > 0 && R < 64);
    return {_mm512_slli_epi64(a.v, R)};
  }

  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec (&w)[W]) {
    static_assert(W == 1 || W == 2);
#if defined(LWC_AVX512_GATHER)
    // Alternative measured in docs/performance-batch.md: one vpgatherqq per word, the lane
    // addresses as 64-bit indices from a null base.
    __m512i idx = _mm512_add_epi64(_mm512_loadu_si512(p), _mm512_set1_epi64(static_cast<long long>(off)));
    for (std::size_t k = 0; k < W; ++k) {
      w[k].v = swap<BigEndian>(_mm512_i64gather_epi64(idx, static_cast<const void*>(nullptr), 1));
      idx = _mm512_add_epi64(idx, _mm512_set1_epi64(8));
    }
    return;
#endif
    if constexpr (W == 2) {
      // Even lanes in one register, odd lanes in the other: the in-lane unpacks then put
      // word k of lane j at position j without a cross-lane permute.
      __m512i a = _mm512_castsi128_si512(ld128(p[0] + off));
      a = _mm512_inserti32x4(a, ld128(p[2] + off), 1);
      a = _mm512_inserti32x4(a, ld128(p[4] + off), 2);
      a = _mm512_inserti32x4(a, ld128(p[6] + off), 3);
      __m512i b = _mm512_castsi128_si512(ld128(p[1] + off));
      b = _mm512_inserti32x4(b, ld128(p[3] + off), 1);
      b = _mm512_inserti32x4(b, ld128(p[5] + off), 2);
      b = _mm512_inserti32x4(b, ld128(p[7] + off), 3);
      w[0].v = swap<BigEndian>(_mm512_unpacklo_epi64(a, b));
      w[1].v = swap<BigEndian>(_mm512_unpackhi_epi64(a, b));
    } else {
      __m512i a = _mm512_castsi128_si512(pair(p[0] + off, p[1] + off));
      a = _mm512_inserti32x4(a, pair(p[2] + off, p[3] + off), 1);
      a = _mm512_inserti32x4(a, pair(p[4] + off, p[5] + off), 2);
      a = _mm512_inserti32x4(a, pair(p[6] + off, p[7] + off), 3);
      w[0].v = swap<BigEndian>(a);
    }
  }
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec (&w)[W]) {
    static_assert(W == 1 || W == 2);
    if constexpr (W == 2) {
      const __m512i w0 = swap<BigEndian>(w[0].v), w1 = swap<BigEndian>(w[1].v);
      const __m512i even = _mm512_unpacklo_epi64(w0, w1);
      const __m512i odd = _mm512_unpackhi_epi64(w0, w1);
      st128(p[0] + off, _mm512_castsi512_si128(even));
      st128(p[2] + off, _mm512_extracti32x4_epi32(even, 1));
      st128(p[4] + off, _mm512_extracti32x4_epi32(even, 2));
      st128(p[6] + off, _mm512_extracti32x4_epi32(even, 3));
      st128(p[1] + off, _mm512_castsi512_si128(odd));
      st128(p[3] + off, _mm512_extracti32x4_epi32(odd, 1));
      st128(p[5] + off, _mm512_extracti32x4_epi32(odd, 2));
      st128(p[7] + off, _mm512_extracti32x4_epi32(odd, 3));
    } else {
      const __m512i x = swap<BigEndian>(w[0].v);
      st_pair(p[0] + off, p[1] + off, _mm512_castsi512_si128(x));
      st_pair(p[2] + off, p[3] + off, _mm512_extracti32x4_epi32(x, 1));
      st_pair(p[4] + off, p[5] + off, _mm512_extracti32x4_epi32(x, 2));
      st_pair(p[6] + off, p[7] + off, _mm512_extracti32x4_epi32(x, 3));
    }
  }

 private:
  LWC_SIMD_INLINE static __m128i ld128(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  LWC_SIMD_INLINE static __m128i pair(const std::uint8_t* a, const std::uint8_t* b) {
    return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(a)),
                              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b)));
  }
  LWC_SIMD_INLINE static void st128(std::uint8_t* p, __m128i x) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x);
  }
  LWC_SIMD_INLINE static void st_pair(std::uint8_t* a, std::uint8_t* b, __m128i x) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(a), x);
    _mm_storel_epi64(reinterpret_cast<__m128i*>(b), _mm_unpackhi_epi64(x, x));
  }
  template <bool BigEndian>
  LWC_SIMD_INLINE static __m512i swap(__m512i x) {
    if constexpr (BigEndian) {
      const __m512i m = _mm512_set_epi64(0x08090a0b0c0d0e0f, 0x0001020304050607,
                                         0x08090a0b0c0d0e0f, 0x0001020304050607,
                                         0x08090a0b0c0d0e0f, 0x0001020304050607,
                                         0x08090a0b0c0d0e0f, 0x0001020304050607);
      return _mm512_shuffle_epi8(x, m);
    } else {
      return x;
    }
  }
};

// Sixteen 32-bit lanes in one __m512i (lane_vector32), with vpternlogd and vprold.
struct vec32 {
  static constexpr std::size_t lanes = 16;
  __m512i v;

  // Truth-table immediates of vpternlogd for inputs (a, b, c) = (0xf0, 0xcc, 0xaa).
  static constexpr int tl_xor3 = 0x96;      // a ^ b ^ c
  static constexpr int tl_xor_andn = 0xd2;  // a ^ (~b & c)
  static constexpr int tl_select = 0xca;    // a ? b : c, bit by bit

  LWC_SIMD_INLINE static vec32 set1(std::uint32_t c) {
    return {_mm512_set1_epi32(static_cast<int>(c))};
  }
  LWC_SIMD_INLINE static vec32 load(const std::uint32_t* p) { return {_mm512_load_si512(p)}; }
  LWC_SIMD_INLINE void store(std::uint32_t* p) const { _mm512_store_si512(p, v); }
  LWC_SIMD_INLINE friend vec32 operator^(vec32 a, vec32 b) { return {_mm512_xor_si512(a.v, b.v)}; }
  LWC_SIMD_INLINE friend vec32 operator+(vec32 a, vec32 b) { return {_mm512_add_epi32(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 not_(vec32 a) {
    return {_mm512_ternarylogic_epi32(a.v, a.v, a.v, 0x55)};
  }
  LWC_SIMD_INLINE static vec32 and_(vec32 a, vec32 b) { return {_mm512_and_si512(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 xor3(vec32 a, vec32 b, vec32 c) {
    return {_mm512_ternarylogic_epi32(a.v, b.v, c.v, tl_xor3)};
  }
  LWC_SIMD_INLINE static vec32 xor_andn(vec32 a, vec32 b, vec32 c) {
    return {_mm512_ternarylogic_epi32(a.v, b.v, c.v, tl_xor_andn)};
  }
  LWC_SIMD_INLINE static vec32 select(vec32 m, vec32 a, vec32 b) {
    return {_mm512_ternarylogic_epi32(m.v, a.v, b.v, tl_select)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 rotr(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {_mm512_ror_epi32(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shl(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {_mm512_slli_epi32(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shr(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {_mm512_srli_epi32(a.v, R)};
  }

  // Word k of lane j is the 4 bytes at p[j] + off + 4 k, little endian. Four words at a time:
  // one 16-byte load per lane, lanes m, m + 4, m + 8, m + 12 in the four quarters of register
  // m, and a 4 x 4 transpose in each quarter (in-lane unpacks only); then two words (8-byte
  // loads) and one.
  template <std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      __m512i r[4];
      for (std::size_t m = 0; m < 4; ++m) {
        __m512i x = _mm512_castsi128_si512(ld128(p[m] + o));
        x = _mm512_inserti32x4(x, ld128(p[m + 4] + o), 1);
        x = _mm512_inserti32x4(x, ld128(p[m + 8] + o), 2);
        r[m] = _mm512_inserti32x4(x, ld128(p[m + 12] + o), 3);
      }
      transpose4(r);
      for (std::size_t m = 0; m < 4; ++m) w[k + m].v = r[m];
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      __m512i x = _mm512_castsi128_si512(pair(p[0] + o, p[2] + o));
      x = _mm512_inserti32x4(x, pair(p[4] + o, p[6] + o), 1);
      x = _mm512_inserti32x4(x, pair(p[8] + o, p[10] + o), 2);
      x = _mm512_inserti32x4(x, pair(p[12] + o, p[14] + o), 3);
      __m512i y = _mm512_castsi128_si512(pair(p[1] + o, p[3] + o));
      y = _mm512_inserti32x4(y, pair(p[5] + o, p[7] + o), 1);
      y = _mm512_inserti32x4(y, pair(p[9] + o, p[11] + o), 2);
      y = _mm512_inserti32x4(y, pair(p[13] + o, p[15] + o), 3);
      const __m512i lo = _mm512_unpacklo_epi32(x, y), hi = _mm512_unpackhi_epi32(x, y);
      w[k].v = _mm512_unpacklo_epi64(lo, hi);
      w[k + 1].v = _mm512_unpackhi_epi64(lo, hi);
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      w[k].v = _mm512_setr_epi32(ld32(p[0] + o), ld32(p[1] + o), ld32(p[2] + o), ld32(p[3] + o),
                                 ld32(p[4] + o), ld32(p[5] + o), ld32(p[6] + o), ld32(p[7] + o),
                                 ld32(p[8] + o), ld32(p[9] + o), ld32(p[10] + o), ld32(p[11] + o),
                                 ld32(p[12] + o), ld32(p[13] + o), ld32(p[14] + o), ld32(p[15] + o));
    }
  }
  template <std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      __m512i r[4] = {w[k].v, w[k + 1].v, w[k + 2].v, w[k + 3].v};
      transpose4(r);  // its own inverse: quarter q of r[m] now holds lane m + 4 q
      for (std::size_t m = 0; m < 4; ++m) {
        st128(p[m] + o, _mm512_castsi512_si128(r[m]));
        st128(p[m + 4] + o, _mm512_extracti32x4_epi32(r[m], 1));
        st128(p[m + 8] + o, _mm512_extracti32x4_epi32(r[m], 2));
        st128(p[m + 12] + o, _mm512_extracti32x4_epi32(r[m], 3));
      }
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      // Quarter q: lanes 4 q, 4 q + 1 in lo; 4 q + 2, 4 q + 3 in hi.
      const __m512i lo = _mm512_unpacklo_epi32(w[k].v, w[k + 1].v);
      const __m512i hi = _mm512_unpackhi_epi32(w[k].v, w[k + 1].v);
      st_pair(p[0] + o, p[1] + o, _mm512_castsi512_si128(lo));
      st_pair(p[2] + o, p[3] + o, _mm512_castsi512_si128(hi));
      st_pair(p[4] + o, p[5] + o, _mm512_extracti32x4_epi32(lo, 1));
      st_pair(p[6] + o, p[7] + o, _mm512_extracti32x4_epi32(hi, 1));
      st_pair(p[8] + o, p[9] + o, _mm512_extracti32x4_epi32(lo, 2));
      st_pair(p[10] + o, p[11] + o, _mm512_extracti32x4_epi32(hi, 2));
      st_pair(p[12] + o, p[13] + o, _mm512_extracti32x4_epi32(lo, 3));
      st_pair(p[14] + o, p[15] + o, _mm512_extracti32x4_epi32(hi, 3));
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      alignas(64) std::uint32_t t[16];
      _mm512_store_si512(t, w[k].v);
      for (std::size_t j = 0; j < 16; ++j) std::memcpy(p[j] + o, &t[j], 4);
    }
  }

 private:
  // Quarter q of r[m] holds four words of lane m + 4 q; after the transpose quarter q of r[m]
  // holds word m of lanes 4 q .. 4 q + 3.
  LWC_SIMD_INLINE static void transpose4(__m512i (&r)[4]) {
    const __m512i t0 = _mm512_unpacklo_epi32(r[0], r[1]), t1 = _mm512_unpackhi_epi32(r[0], r[1]);
    const __m512i t2 = _mm512_unpacklo_epi32(r[2], r[3]), t3 = _mm512_unpackhi_epi32(r[2], r[3]);
    r[0] = _mm512_unpacklo_epi64(t0, t2);
    r[1] = _mm512_unpackhi_epi64(t0, t2);
    r[2] = _mm512_unpacklo_epi64(t1, t3);
    r[3] = _mm512_unpackhi_epi64(t1, t3);
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

}  // namespace lwc::simd::avx512
