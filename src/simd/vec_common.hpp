// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared by the lane-vector headers: the inlining markers and the lane-vector concepts.
// Everything in a backend translation unit must be inlined into that unit's own entry points
// or live in its own namespace; see vec_avx512.hpp for why.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define LWC_SIMD_INLINE inline __attribute__((always_inline))
#define LWC_SIMD_NOINLINE __attribute__((noinline))
#else
#define LWC_SIMD_INLINE inline
#define LWC_SIMD_NOINLINE
#endif

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace lwc::simd {

// What a lane-vector type must provide for the batch engine's lane kernels: V::lanes 64-bit
// lanes, lane-wise logic, shifts and rotations, and block loads/stores that gather one word
// per lane from each lane's own pointer at a common offset, in either byte order. A
// backend (vec_neon.hpp, say) is one header with such a type and one translation unit that
// instantiates the kernels for it (src/batch/backend_*.cpp).
template <class V>
concept lane_vector = requires(const V& a, const V& b, const V& c, std::uint64_t* words,
                               const std::uint8_t* const* src, std::uint8_t* const* dst,
                               V (&blocks)[2]) {
  { V::lanes } -> std::convertible_to<std::size_t>;
  { V::set1(std::uint64_t{}) } -> std::same_as<V>;
  { V::load(static_cast<const std::uint64_t*>(words)) } -> std::same_as<V>;
  a.store(words);
  { a ^ b } -> std::same_as<V>;
  { V::not_(a) } -> std::same_as<V>;
  { V::and_(a, b) } -> std::same_as<V>;
  { V::xor3(a, b, c) } -> std::same_as<V>;
  { V::xor_andn(a, b, c) } -> std::same_as<V>;
  { V::and_xor(a, b, c) } -> std::same_as<V>;
  { V::template rotr<1>(a) } -> std::same_as<V>;
  { V::template shr<1>(a) } -> std::same_as<V>;
  { V::template shl<1>(a) } -> std::same_as<V>;
  V::template load_blocks<true>(src, std::size_t{}, blocks);
  V::template load_blocks<false>(src, std::size_t{}, blocks);
  V::template store_blocks<true>(dst, std::size_t{}, static_cast<const V(&)[2]>(blocks));
  V::template store_blocks<false>(dst, std::size_t{}, static_cast<const V(&)[2]>(blocks));
};

// A lane vector with an arbitrary three-input bitwise function in one instruction
// (AVX-512's vpternlogq): V::ternary<Imm>(a, b, c) is the function whose truth table is Imm,
// read with a, b, c as 0xf0, 0xcc, 0xaa. Optional: the permutations use it where it is there
// to take fewer operations per round than the two-operation steps of lane_vector allow.
template <class V>
concept ternary_vector = lane_vector<V> && requires(const V& a, const V& b, const V& c) {
  { V::template ternary<0x96>(a, b, c) } -> std::same_as<V>;
};

// The same with V::lanes 32-bit lanes, for the permutations built on 32-bit words (Xoodoo,
// SPARKLE): lane-wise logic, 32-bit addition (SPARKLE's ARX-box), rotations and shifts, a
// lane-wise select (lanes of a batch that sit out a step), and block loads/stores that gather
// W little-endian words per lane from each lane's own pointer at a common offset. It is a
// concept of its own rather than a lane width parameter of lane_vector: a backend provides it
// with a different lane count (twice as many lanes per register) and the kernels of the two
// widths share no code.
template <class V>
concept lane_vector32 = requires(const V& a, const V& b, const V& c, std::uint32_t* words,
                                 const std::uint8_t* const* src, std::uint8_t* const* dst,
                                 V (&blocks)[7]) {
  { V::lanes } -> std::convertible_to<std::size_t>;
  { V::set1(std::uint32_t{}) } -> std::same_as<V>;
  { V::load(static_cast<const std::uint32_t*>(words)) } -> std::same_as<V>;
  a.store(words);
  { a ^ b } -> std::same_as<V>;
  { a + b } -> std::same_as<V>;
  { V::not_(a) } -> std::same_as<V>;
  { V::and_(a, b) } -> std::same_as<V>;
  { V::xor3(a, b, c) } -> std::same_as<V>;
  { V::xor_andn(a, b, c) } -> std::same_as<V>;
  { V::select(a, b, c) } -> std::same_as<V>;
  { V::template rotr<1>(a) } -> std::same_as<V>;
  { V::template shl<1>(a) } -> std::same_as<V>;
  { V::template shr<1>(a) } -> std::same_as<V>;
  V::load_blocks(src, std::size_t{}, blocks);
  V::store_blocks(dst, std::size_t{}, static_cast<const V(&)[7]>(blocks));
};

}  // namespace lwc::simd
