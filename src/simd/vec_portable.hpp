// Portable N-lane vector: N independent 64-bit words in a plain array. It runs on any CPU and
// any byte order; the compiler may map it onto whatever baseline SIMD the target has.
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

}  // namespace lwc::simd::portable
