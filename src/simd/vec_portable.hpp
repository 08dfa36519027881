// SPDX-License-Identifier: MIT OR Apache-2.0
// Portable N-lane vectors: N independent 64-bit words (vec) or 32-bit words (vec32) in a plain
// array. They run on any CPU and any byte order; the compiler may map them onto whatever
// baseline SIMD the target has.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vec_common.hpp"

namespace lwc::simd::portable {

template <std::size_t N>
struct vec {
  static constexpr std::size_t lanes = N;
  std::uint64_t v[N];

  LWC_SIMD_INLINE static vec set1(std::uint64_t c) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = c;
    return r;
  }
  LWC_SIMD_INLINE static vec load(const std::uint64_t* p) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = p[i];
    return r;
  }
  LWC_SIMD_INLINE void store(std::uint64_t* p) const {
    for (std::size_t i = 0; i < N; ++i) p[i] = v[i];
  }
  LWC_SIMD_INLINE friend vec operator^(const vec& a, const vec& b) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] ^ b.v[i];
    return r;
  }
  LWC_SIMD_INLINE static vec not_(const vec& a) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = ~a.v[i];
    return r;
  }
  LWC_SIMD_INLINE static vec xor3(const vec& a, const vec& b, const vec& c) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] ^ b.v[i] ^ c.v[i];
    return r;
  }
  // a ^ (~b & c): the chi step of the S-box.
  LWC_SIMD_INLINE static vec xor_andn(const vec& a, const vec& b, const vec& c) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] ^ (~b.v[i] & c.v[i]);
    return r;
  }
  // (a & b) ^ c
  LWC_SIMD_INLINE static vec and_xor(const vec& a, const vec& b, const vec& c) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = (a.v[i] & b.v[i]) ^ c.v[i];
    return r;
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec rotr(const vec& a) {
    static_assert(R > 0 && R < 64);
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = (a.v[i] >> R) | (a.v[i] << (64 - R));
    return r;
  }
  LWC_SIMD_INLINE static vec and_(const vec& a, const vec& b) {
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] & b.v[i];
    return r;
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shr(const vec& a) {
    static_assert(R > 0 && R < 64);
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] >> R;
    return r;
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shl(const vec& a) {
    static_assert(R > 0 && R < 64);
    vec r;
    for (std::size_t i = 0; i < N; ++i) r.v[i] = a.v[i] << R;
    return r;
  }

  // Word w of lane j is the 8 bytes at p[j] + off + 8 w, read in the given byte order. The
  // offset is common to all lanes so that one index register walks every lane's message.
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec (&w)[W]) {
    for (std::size_t j = 0; j < N; ++j)
      for (std::size_t k = 0; k < W; ++k) w[k].v[j] = read<BigEndian>(p[j] + off + 8 * k);
  }
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec (&w)[W]) {
    for (std::size_t j = 0; j < N; ++j)
      for (std::size_t k = 0; k < W; ++k) write<BigEndian>(p[j] + off + 8 * k, w[k].v[j]);
  }

 private:
  template <bool BigEndian>
  LWC_SIMD_INLINE static std::uint64_t read(const std::uint8_t* p) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    if constexpr ((std::endian::native == std::endian::big) != BigEndian) x = swap(x);
    return x;
  }
  template <bool BigEndian>
  LWC_SIMD_INLINE static void write(std::uint8_t* p, std::uint64_t x) {
    if constexpr ((std::endian::native == std::endian::big) != BigEndian) x = swap(x);
    std::memcpy(p, &x, 8);
  }
  LWC_SIMD_INLINE static std::uint64_t swap(std::uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(x);
#else
    x = (x & 0x00ff00ff00ff00ffull) << 8 | (x >> 8 & 0x00ff00ff00ff00ffull);
    x = (x & 0x0000ffff0000ffffull) << 16 | (x >> 16 & 0x0000ffff0000ffffull);
    return x << 32 | x >> 32;
#endif
  }
};

// The lanes of a vec32: a GNU vector where the compiler has them, which it maps onto the
// target's baseline SIMD registers (SSE2 on x86-64, NEON on AArch64) or lowers to scalar code;
// otherwise an array with the same operators. The array form was measured at less than half the
// single-message core's speed for Xoodyak on x86-64 (GCC 12 keeps its words in general-purpose
// registers and spills them), the vector form above it (docs/performance-batch.md).
#if defined(__GNUC__) || defined(__clang__)
template <std::size_t N>
struct gnu_u32_vector {
  typedef std::uint32_t type __attribute__((vector_size(4 * N)));
};
template <std::size_t N>
using u32_lanes = typename gnu_u32_vector<N>::type;
#else
template <std::size_t N>
struct u32_lanes {
  std::uint32_t w[N];
  std::uint32_t& operator[](std::size_t i) { return w[i]; }
  std::uint32_t operator[](std::size_t i) const { return w[i]; }
  template <class F>
  static u32_lanes map(F f) {
    u32_lanes r;
    for (std::size_t i = 0; i < N; ++i) r.w[i] = f(i);
    return r;
  }
  friend u32_lanes operator^(const u32_lanes& a, const u32_lanes& b) {
    return map([&](std::size_t i) { return a.w[i] ^ b.w[i]; });
  }
  friend u32_lanes operator&(const u32_lanes& a, const u32_lanes& b) {
    return map([&](std::size_t i) { return a.w[i] & b.w[i]; });
  }
  friend u32_lanes operator|(const u32_lanes& a, const u32_lanes& b) {
    return map([&](std::size_t i) { return a.w[i] | b.w[i]; });
  }
  friend u32_lanes operator+(const u32_lanes& a, const u32_lanes& b) {
    return map([&](std::size_t i) { return a.w[i] + b.w[i]; });
  }
  friend u32_lanes operator~(const u32_lanes& a) {
    return map([&](std::size_t i) { return ~a.w[i]; });
  }
  friend u32_lanes operator<<(const u32_lanes& a, unsigned n) {
    return map([&](std::size_t i) { return a.w[i] << n; });
  }
  friend u32_lanes operator>>(const u32_lanes& a, unsigned n) {
    return map([&](std::size_t i) { return a.w[i] >> n; });
  }
};
#endif

// Portable N-lane vector of 32-bit words (lane_vector32); N a power of two.
template <std::size_t N>
struct vec32 {
  static_assert(N != 0 && (N & (N - 1)) == 0);
  static constexpr std::size_t lanes = N;
  u32_lanes<N> v;

  LWC_SIMD_INLINE static vec32 set1(std::uint32_t c) {
    std::uint32_t t[N];
    for (std::size_t i = 0; i < N; ++i) t[i] = c;
    return load(t);
  }
  LWC_SIMD_INLINE static vec32 load(const std::uint32_t* p) {
    vec32 r;
    std::memcpy(&r.v, p, sizeof r.v);
    return r;
  }
  LWC_SIMD_INLINE void store(std::uint32_t* p) const { std::memcpy(p, &v, sizeof v); }
  LWC_SIMD_INLINE friend vec32 operator^(const vec32& a, const vec32& b) { return {a.v ^ b.v}; }
  LWC_SIMD_INLINE friend vec32 operator+(const vec32& a, const vec32& b) { return {a.v + b.v}; }
  LWC_SIMD_INLINE static vec32 not_(const vec32& a) { return {~a.v}; }
  LWC_SIMD_INLINE static vec32 and_(const vec32& a, const vec32& b) { return {a.v & b.v}; }
  LWC_SIMD_INLINE static vec32 xor3(const vec32& a, const vec32& b, const vec32& c) {
    return {a.v ^ b.v ^ c.v};
  }
  // a ^ (~b & c)
  LWC_SIMD_INLINE static vec32 xor_andn(const vec32& a, const vec32& b, const vec32& c) {
    return {a.v ^ (~b.v & c.v)};
  }
  // m ? a : b, bit by bit (m is all-ones or zero per lane where the kernels use it).
  LWC_SIMD_INLINE static vec32 select(const vec32& m, const vec32& a, const vec32& b) {
    return {b.v ^ ((a.v ^ b.v) & m.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 rotr(const vec32& a) {
    static_assert(R > 0 && R < 32);
    return {(a.v >> R) | (a.v << (32 - R))};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shl(const vec32& a) {
    static_assert(R > 0 && R < 32);
    return {a.v << R};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shr(const vec32& a) {
    static_assert(R > 0 && R < 32);
    return {a.v >> R};
  }

  // Word k of lane j is the 4 bytes at p[j] + off + 4 k, little endian.
  template <std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec32 (&w)[W]) {
    for (std::size_t k = 0; k < W; ++k) {
      std::uint32_t t[N];
      for (std::size_t j = 0; j < N; ++j) t[j] = read(p[j] + off + 4 * k);
      w[k] = load(t);
    }
  }
  template <std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec32 (&w)[W]) {
    for (std::size_t k = 0; k < W; ++k) {
      std::uint32_t t[N];
      w[k].store(t);
      for (std::size_t j = 0; j < N; ++j) write(p[j] + off + 4 * k, t[j]);
    }
  }

 private:
  LWC_SIMD_INLINE static std::uint32_t read(const std::uint8_t* p) {
    std::uint32_t x;
    std::memcpy(&x, p, 4);
    if constexpr (std::endian::native == std::endian::big) x = swap(x);
    return x;
  }
  LWC_SIMD_INLINE static void write(std::uint8_t* p, std::uint32_t x) {
    if constexpr (std::endian::native == std::endian::big) x = swap(x);
    std::memcpy(p, &x, 4);
  }
  LWC_SIMD_INLINE static std::uint32_t swap(std::uint32_t x) {
    return (x >> 24) | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | (x << 24);
  }
};

}  // namespace lwc::simd::portable
