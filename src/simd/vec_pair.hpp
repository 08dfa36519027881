// SPDX-License-Identifier: MIT OR Apache-2.0
// Two lane vectors used as one: every operation is issued for both halves, so each step
// offers the out-of-order core two independent copies of the permutation. On the AVX-512 and
// AVX2 backends this keeps the vector ports busier than one register per state word does
// (measured in docs/performance-batch.md). The Ascon lane permutation takes the halves apart
// (V::half) and runs each round on one, then the other (simd/permute_lanes.hpp says why).
// Included by a backend inside its own namespace.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vec_common.hpp"

#ifndef LWC_SIMD_NS
#error "define LWC_SIMD_NS (the backend namespace) before including vec_pair.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS {

template <class V>
struct vec_pair {
  static constexpr std::size_t lanes = 2 * V::lanes;
  using half = V;
  V lo, hi;  // lanes 0 .. V::lanes - 1, then the rest

  LWC_SIMD_INLINE static vec_pair set1(std::uint64_t c) { return {V::set1(c), V::set1(c)}; }
  LWC_SIMD_INLINE static vec_pair load(const std::uint64_t* p) {
    return {V::load(p), V::load(p + V::lanes)};
  }
  LWC_SIMD_INLINE void store(std::uint64_t* p) const {
    lo.store(p);
    hi.store(p + V::lanes);
  }
  LWC_SIMD_INLINE friend vec_pair operator^(const vec_pair& a, const vec_pair& b) {
    return {a.lo ^ b.lo, a.hi ^ b.hi};
  }
  LWC_SIMD_INLINE static vec_pair not_(const vec_pair& a) { return {V::not_(a.lo), V::not_(a.hi)}; }
  LWC_SIMD_INLINE static vec_pair xor3(const vec_pair& a, const vec_pair& b, const vec_pair& c) {
    return {V::xor3(a.lo, b.lo, c.lo), V::xor3(a.hi, b.hi, c.hi)};
  }
  LWC_SIMD_INLINE static vec_pair xor_andn(const vec_pair& a, const vec_pair& b,
                                           const vec_pair& c) {
    return {V::xor_andn(a.lo, b.lo, c.lo), V::xor_andn(a.hi, b.hi, c.hi)};
  }
  LWC_SIMD_INLINE static vec_pair and_xor(const vec_pair& a, const vec_pair& b,
                                          const vec_pair& c) {
    return {V::and_xor(a.lo, b.lo, c.lo), V::and_xor(a.hi, b.hi, c.hi)};
  }
  template <int Imm>
    requires ternary_vector<V>
  LWC_SIMD_INLINE static vec_pair ternary(const vec_pair& a, const vec_pair& b,
                                          const vec_pair& c) {
    return {V::template ternary<Imm>(a.lo, b.lo, c.lo), V::template ternary<Imm>(a.hi, b.hi, c.hi)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec_pair rotr(const vec_pair& a) {
    return {V::template rotr<R>(a.lo), V::template rotr<R>(a.hi)};
  }
  LWC_SIMD_INLINE static vec_pair and_(const vec_pair& a, const vec_pair& b) {
    return {V::and_(a.lo, b.lo), V::and_(a.hi, b.hi)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec_pair shr(const vec_pair& a) {
    return {V::template shr<R>(a.lo), V::template shr<R>(a.hi)};
  }
  template <unsigned R>
  LWC_SIMD_INLINE static vec_pair shl(const vec_pair& a) {
    return {V::template shl<R>(a.lo), V::template shl<R>(a.hi)};
  }

  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void load_blocks(const std::uint8_t* const* p, std::size_t off,
                                          vec_pair (&w)[W]) {
    V lo[W], hi[W];
    V::template load_blocks<BigEndian>(p, off, lo);
    V::template load_blocks<BigEndian>(p + V::lanes, off, hi);
    for (std::size_t k = 0; k < W; ++k) w[k] = {lo[k], hi[k]};
  }
  template <bool BigEndian, std::size_t W>
  LWC_SIMD_INLINE static void store_blocks(std::uint8_t* const* p, std::size_t off,
                                           const vec_pair (&w)[W]) {
    V lo[W], hi[W];
    for (std::size_t k = 0; k < W; ++k) {
      lo[k] = w[k].lo;
      hi[k] = w[k].hi;
    }
    V::template store_blocks<BigEndian>(p, off, lo);
    V::template store_blocks<BigEndian>(p + V::lanes, off, hi);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS
