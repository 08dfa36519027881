// SPDX-License-Identifier: MIT OR Apache-2.0
// AArch64 Advanced SIMD (NEON) lane vectors: two 64-bit lanes in one 128-bit register (vec),
// or four 32-bit lanes (vec32). NEON has no rotate: a rotation is a left shift and a
// shift-right-and-insert (SRI) into it, or one byte permutation (REV, TBL) where the distance
// is a whole number of bytes. BIC gives the S-boxes' a ^ (~b & c) in two instructions.
//
// NEON is part of the AArch64 baseline, so no CPU check guards this unit; it still lives in
// lwc::simd::neon, like every backend, so that none of its inline code is shared with another
// unit. Little-endian AArch64 only: the block loads read bytes with LD1 and take lane 0 as the
// least significant byte; on aarch64_be the portable backend runs.
#pragma once

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "vec_neon.hpp is for AArch64 with Advanced SIMD"
#endif
#if defined(__AARCH64EB__)
#error "vec_neon.hpp assumes little-endian AArch64"
#endif

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vec_common.hpp"

namespace lwc::simd::neon {

namespace detail {

// x rotated right by R bits in each 64-bit lane.
template <unsigned R>
LWC_SIMD_INLINE uint64x2_t rotr64(uint64x2_t x) {
  static_assert(R > 0 && R < 64);
  if constexpr (R == 32) {
    return vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(x)));
  } else if constexpr (R % 8 == 0) {
    // Byte i of each lane takes byte (i + R / 8) % 8.
    constexpr unsigned b = R / 8;
    constexpr std::uint8_t index[16] = {
        b % 8,     (b + 1) % 8,     (b + 2) % 8,     (b + 3) % 8,
        (b + 4) % 8, (b + 5) % 8,   (b + 6) % 8,     (b + 7) % 8,
        8 + b % 8, 8 + (b + 1) % 8, 8 + (b + 2) % 8, 8 + (b + 3) % 8,
        8 + (b + 4) % 8, 8 + (b + 5) % 8, 8 + (b + 6) % 8, 8 + (b + 7) % 8};
    return vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), vld1q_u8(index)));
  } else {
    return vsriq_n_u64(vshlq_n_u64(x, 64 - R), x, R);
  }
}

// x rotated right by R bits in each 32-bit lane.
template <unsigned R>
LWC_SIMD_INLINE uint32x4_t rotr32(uint32x4_t x) {
  static_assert(R > 0 && R < 32);
  if constexpr (R == 16) {
    return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
  } else if constexpr (R % 8 == 0) {
    constexpr unsigned b = R / 8;
    constexpr std::uint8_t index[16] = {
        b % 4,      (b + 1) % 4,      (b + 2) % 4,      (b + 3) % 4,
        4 + b % 4,  4 + (b + 1) % 4,  4 + (b + 2) % 4,  4 + (b + 3) % 4,
        8 + b % 4,  8 + (b + 1) % 4,  8 + (b + 2) % 4,  8 + (b + 3) % 4,
        12 + b % 4, 12 + (b + 1) % 4, 12 + (b + 2) % 4, 12 + (b + 3) % 4};
    return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), vld1q_u8(index)));
  } else {
    return vsriq_n_u32(vshlq_n_u32(x, 32 - R), x, R);
  }
}

// Loads and stores of a lane's bytes through byte pointers: message blocks have no alignment.
LWC_SIMD_INLINE uint64x2_t load16(const std::uint8_t* p) { return vreinterpretq_u64_u8(vld1q_u8(p)); }
LWC_SIMD_INLINE uint64x1_t load8(const std::uint8_t* p) { return vreinterpret_u64_u8(vld1_u8(p)); }
LWC_SIMD_INLINE void store16(std::uint8_t* p, uint64x2_t x) { vst1q_u8(p, vreinterpretq_u8_u64(x)); }
LWC_SIMD_INLINE void store8(std::uint8_t* p, uint64x1_t x) { vst1_u8(p, vreinterpret_u8_u64(x)); }

template <bool BigEndian>
LWC_SIMD_INLINE uint64x2_t byte_order64(uint64x2_t x) {
  if constexpr (BigEndian) return vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(x)));
  else return x;
}

}  // namespace detail

struct vec {
  static constexpr std::size_t lanes = 2;
  uint64x2_t v;

  LWC_SIMD_INLINE static vec set1(std::uint64_t c) { return {vdupq_n_u64(c)}; }
  LWC_SIMD_INLINE static vec load(const std::uint64_t* p) { return {vld1q_u64(p)}; }
  LWC_SIMD_INLINE void store(std::uint64_t* p) const { vst1q_u64(p, v); }
  LWC_SIMD_INLINE friend vec operator^(vec a, vec b) { return {veorq_u64(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec not_(vec a) {
    return {vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(a.v)))};
  }
  LWC_SIMD_INLINE static vec and_(vec a, vec b) { return {vandq_u64(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec xor3(vec a, vec b, vec c) {
    return {veorq_u64(veorq_u64(a.v, b.v), c.v)};
  }
  // a ^ (~b & c): BIC computes c & ~b.
  LWC_SIMD_INLINE static vec xor_andn(vec a, vec b, vec c) {
    return {veorq_u64(a.v, vbicq_u64(c.v, b.v))};
  }
  LWC_SIMD_INLINE static vec and_xor(vec a, vec b, vec c) {
    return {veorq_u64(vandq_u64(a.v, b.v), c.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec rotr(vec a) {
    return {detail::rotr64<R>(a.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shr(vec a) {
    static_assert(R > 0 && R < 64);
    return {vshrq_n_u64(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec shl(vec a) {
    static_assert(R > 0 && R < 64);
    return {vshlq_n_u64(a.v, R)};
  }

  // Word k of lane j is the 8 bytes at p[j] + off + 8 k in the given byte order. Two words at a
  // time: one 16-byte load per lane and a 2 x 2 transpose (ZIP1/ZIP2, its own inverse).
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec (&w)[W]) {
    std::size_t k = 0;
    for (; k + 2 <= W; k += 2) {
      const std::size_t o = off + 8 * k;
      const uint64x2_t a = detail::load16(p[0] + o), b = detail::load16(p[1] + o);
      w[k].v = detail::byte_order64<BigEndian>(vzip1q_u64(a, b));
      w[k + 1].v = detail::byte_order64<BigEndian>(vzip2q_u64(a, b));
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 8 * k;
      w[k].v = detail::byte_order64<BigEndian>(
          vcombine_u64(detail::load8(p[0] + o), detail::load8(p[1] + o)));
    }
  }
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec (&w)[W]) {
    std::size_t k = 0;
    for (; k + 2 <= W; k += 2) {
      const std::size_t o = off + 8 * k;
      const uint64x2_t a = detail::byte_order64<BigEndian>(w[k].v);
      const uint64x2_t b = detail::byte_order64<BigEndian>(w[k + 1].v);
      detail::store16(p[0] + o, vzip1q_u64(a, b));
      detail::store16(p[1] + o, vzip2q_u64(a, b));
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 8 * k;
      const uint64x2_t x = detail::byte_order64<BigEndian>(w[k].v);
      detail::store8(p[0] + o, vget_low_u64(x));
      detail::store8(p[1] + o, vget_high_u64(x));
    }
  }
};

// Four 32-bit lanes in one register (lane_vector32).
struct vec32 {
  static constexpr std::size_t lanes = 4;
  uint32x4_t v;

  LWC_SIMD_INLINE static vec32 set1(std::uint32_t c) { return {vdupq_n_u32(c)}; }
  LWC_SIMD_INLINE static vec32 load(const std::uint32_t* p) { return {vld1q_u32(p)}; }
  LWC_SIMD_INLINE void store(std::uint32_t* p) const { vst1q_u32(p, v); }
  LWC_SIMD_INLINE friend vec32 operator^(vec32 a, vec32 b) { return {veorq_u32(a.v, b.v)}; }
  LWC_SIMD_INLINE friend vec32 operator+(vec32 a, vec32 b) { return {vaddq_u32(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 not_(vec32 a) { return {vmvnq_u32(a.v)}; }
  LWC_SIMD_INLINE static vec32 and_(vec32 a, vec32 b) { return {vandq_u32(a.v, b.v)}; }
  LWC_SIMD_INLINE static vec32 xor3(vec32 a, vec32 b, vec32 c) {
    return {veorq_u32(veorq_u32(a.v, b.v), c.v)};
  }
  LWC_SIMD_INLINE static vec32 xor_andn(vec32 a, vec32 b, vec32 c) {
    return {veorq_u32(a.v, vbicq_u32(c.v, b.v))};
  }
  // m ? a : b, bit by bit (BSL).
  LWC_SIMD_INLINE static vec32 select(vec32 m, vec32 a, vec32 b) { return {vbslq_u32(m.v, a.v, b.v)}; }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 rotr(vec32 a) {
    return {detail::rotr32<R>(a.v)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shl(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {vshlq_n_u32(a.v, R)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec32 shr(vec32 a) {
    static_assert(R > 0 && R < 32);
    return {vshrq_n_u32(a.v, R)};
  }

  // Word k of lane j is the 4 bytes at p[j] + off + 4 k, little endian. Four words at a time:
  // one 16-byte load per lane and a 4 x 4 transpose; then two words (8-byte loads) and one.
  template <std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off, vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      uint32x4_t r[4];
      for (std::size_t j = 0; j < 4; ++j) r[j] = vld1q_u32_bytes(p[j] + o);
      transpose4(r);
      for (std::size_t m = 0; m < 4; ++m) w[k + m].v = r[m];
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      // Lanes 0 and 2 in one register, 1 and 3 in the other; TRN1/TRN2 then put word k of lane
      // j at position j.
      const uint32x4_t a = vreinterpretq_u32_u64(
          vcombine_u64(detail::load8(p[0] + o), detail::load8(p[2] + o)));
      const uint32x4_t b = vreinterpretq_u32_u64(
          vcombine_u64(detail::load8(p[1] + o), detail::load8(p[3] + o)));
      w[k].v = vtrn1q_u32(a, b);
      w[k + 1].v = vtrn2q_u32(a, b);
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      std::uint32_t t[4];
      for (std::size_t j = 0; j < 4; ++j) std::memcpy(&t[j], p[j] + o, 4);
      w[k].v = vld1q_u32(t);
    }
  }
  template <std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off, const vec32 (&w)[W]) {
    std::size_t k = 0;
    for (; k + 4 <= W; k += 4) {
      const std::size_t o = off + 4 * k;
      uint32x4_t r[4] = {w[k].v, w[k + 1].v, w[k + 2].v, w[k + 3].v};
      transpose4(r);  // its own inverse: r[j] now holds the four words of lane j
      for (std::size_t j = 0; j < 4; ++j) vst1q_u8(p[j] + o, vreinterpretq_u8_u32(r[j]));
    }
    if constexpr (W % 4 >= 2) {
      const std::size_t o = off + 4 * k;
      // The inverse of the load above: TRN1/TRN2 give lanes 0 and 2, then 1 and 3.
      const uint64x2_t a = vreinterpretq_u64_u32(vtrn1q_u32(w[k].v, w[k + 1].v));
      const uint64x2_t b = vreinterpretq_u64_u32(vtrn2q_u32(w[k].v, w[k + 1].v));
      detail::store8(p[0] + o, vget_low_u64(a));
      detail::store8(p[2] + o, vget_high_u64(a));
      detail::store8(p[1] + o, vget_low_u64(b));
      detail::store8(p[3] + o, vget_high_u64(b));
      k += 2;
    }
    if constexpr (W % 2 == 1) {
      const std::size_t o = off + 4 * k;
      std::uint32_t t[4];
      vst1q_u32(t, w[k].v);
      for (std::size_t j = 0; j < 4; ++j) std::memcpy(p[j] + o, &t[j], 4);
    }
  }

 private:
  LWC_SIMD_INLINE static uint32x4_t vld1q_u32_bytes(const std::uint8_t* p) {
    return vreinterpretq_u32_u8(vld1q_u8(p));
  }
  // r[j] holds four words of lane j; afterwards r[m] holds word m of lanes 0..3.
  LWC_SIMD_INLINE static void transpose4(uint32x4_t (&r)[4]) {
    const uint32x4_t t0 = vtrn1q_u32(r[0], r[1]), t1 = vtrn2q_u32(r[0], r[1]);
    const uint32x4_t t2 = vtrn1q_u32(r[2], r[3]), t3 = vtrn2q_u32(r[2], r[3]);
    const uint64x2_t u0 = vreinterpretq_u64_u32(t0), u1 = vreinterpretq_u64_u32(t1);
    const uint64x2_t u2 = vreinterpretq_u64_u32(t2), u3 = vreinterpretq_u64_u32(t3);
    r[0] = vreinterpretq_u32_u64(vtrn1q_u64(u0, u2));
    r[1] = vreinterpretq_u32_u64(vtrn1q_u64(u1, u3));
    r[2] = vreinterpretq_u32_u64(vtrn2q_u64(u0, u2));
    r[3] = vreinterpretq_u32_u64(vtrn2q_u64(u1, u3));
  }
};

}  // namespace lwc::simd::neon
