// SPDX-License-Identifier: MIT OR Apache-2.0
// The Ascon permutation on V::lanes independent states at once, each state held as five lane
// vectors (one per state word), for any lane-vector type V (vec_portable.hpp, vec_avx2.hpp,
// vec_avx512.hpp). It is the bitsliced round of include/lwc/ascon/permutation.hpp with the
// two-operation steps expressed as three-input operations, which AVX-512 does in one
// instruction. Included by each backend translation unit inside its own namespace
// (LWC_SIMD_NS), so that each instruction set gets a private copy.
#pragma once

#include <cstdint>

#include "vec_common.hpp"

#ifndef LWC_SIMD_NS
#error "define LWC_SIMD_NS (the backend namespace) before including permute_lanes.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS {

// v, kept by the compiler in the order written where V can say so (V::pin: an empty volatile
// asm that takes the vector in a register, as detail::pinned does for the scalar round in
// include/lwc/ascon/permutation.hpp); v itself for every other V.
template <class V>
LWC_SIMD_INLINE V pin(V v) {
  if constexpr (requires { V::pin(v); }) return V::pin(v);
  else return v;
}

// One round (round i of the 12-round schedule) on the five words of V::lanes states.
//
// Without a three-input function of any truth table, the S-box output x2 = ~t2 is carried
// uncomplemented from one round to the next: the NOT is folded into the next round's
// constant (x2 only enters the next round as x2 ^ x1 ^ c; `first` says whether the previous
// round left it complemented) and applied once at the end by permute, which saves an
// operation per round.
template <class V>
LWC_SIMD_INLINE void round_lanes(V& x0, V& x1, V& x2, V& x3, V& x4, int i, bool first) {
  const std::uint64_t c =
      (static_cast<std::uint64_t>(0xf - i) << 4) | static_cast<std::uint64_t>(i);
  if constexpr (ternary_vector<V>) {
    // Where V has one (ternary_vector: AVX-512's vpternlogq), every S-box output is one such
    // function of at most three values, given a0 = x0 ^ x4, a4 = x4 ^ x3 and
    // a2 = x2 ^ x1 ^ c (x2 with the round constant). From the chi form below
    // (t_i = a_i ^ (~a_{i+1} & a_{i+2}) over a0, x1, a2, x3, a4):
    //   y2 = ~t2 = ~((x4 & ~x3) ^ a2)                 since ~x3 & a4 = ~x3 & x4
    //   y3 = t3 ^ t2 = (a4 | x0) ^ a2
    //   y4 = t4 = a4 ^ (~a0 & x1)
    //   y0 = t0 ^ t4 = ((a0 | x1) ^ (~x1 & a2)) ^ a4  (a0 ^ (~a0 & x1) = a0 | x1)
    //   y1 = t1 ^ t0 = ((x1 | a2) ^ (~a2 & x3)) ^ a0  (x1 ^ (~x1 & a2) = x1 | a2)
    // 10 instructions for the S-box instead of 11, 25 per round with the linear layer instead
    // of 26 (tests/batch check every lane permutation against the core's). The NOT of y2 is
    // part of its function, so x2 is carried as is. On an AMD Zen 4, where the rotations are
    // the scarcer resource, the instruction saved made the AVX-512 Ascon-Hash256 lanes 5 to
    // 6 % faster (docs/performance-batch.md, "Ascon in lanes (AMD EPYC Zen 4)").
    // Truth tables for inputs (a, b, c) = (0xf0, 0xcc, 0xaa):
    constexpr int not_andn_xor = 0x65;  // ~((a & ~b) ^ c)
    constexpr int or_xor = 0x56;        // (a | b) ^ c
    constexpr int xor_andn = 0xd2;      // a ^ (~b & c)
    constexpr int or_xor_andn = 0xde;   // (a | b) ^ (~b & c)
    (void)first;
    const V a2 = V::xor3(x2, x1, V::set1(c));
    const V a0 = x0 ^ x4;
    const V a4 = x4 ^ x3;
    const V y2 = V::template ternary<not_andn_xor>(x4, x3, a2);
    const V y3 = V::template ternary<or_xor>(a4, x0, a2);
    const V y4 = V::template ternary<xor_andn>(a4, a0, x1);
    const V y0 = V::template ternary<or_xor_andn>(a0, x1, a2) ^ a4;
    const V y1 = V::template ternary<or_xor_andn>(x1, a2, x3) ^ a0;
    x0 = V::xor3(y0, V::template rotr<19>(y0), V::template rotr<28>(y0));
    x1 = V::xor3(y1, V::template rotr<61>(y1), V::template rotr<39>(y1));
    x2 = V::xor3(y2, V::template rotr<1>(y2), V::template rotr<6>(y2));
    x3 = V::xor3(y3, V::template rotr<10>(y3), V::template rotr<17>(y3));
    x4 = V::xor3(y4, V::template rotr<7>(y4), V::template rotr<41>(y4));
  } else {
    // The bitsliced round of include/lwc/ascon/permutation.hpp with the two-operation steps
    // expressed as three-input operations (one instruction each where V has them).
    //
    // Every value is pinned (pin above), so the instructions keep this order: each S-box
    // output is formed as soon as its two chi terms exist, each input is used for the last
    // time as early as the chi order allows, and each word's two rotations are XORed in as
    // they arrive, the first rotations running up to two words ahead of the second ones. Left to
    // itself, GCC 12 computed the left shifts of the rotations early and kept them on the
    // stack: the AVX2 step (two states of 4 lanes in 16 registers) had 280 stack accesses,
    // 98 with this order, and ran 8-15 % faster at 1 KiB in a 16 MiB batch, 5-10 % in the
    // caches (docs/performance-batch.md, "The AVX2 round in a pinned order").
    const V a2 = pin(V::xor3(x2, x1, V::set1(first ? c : ~c)));
    const V a0 = pin(x0 ^ x4);
    const V a4 = pin(x4 ^ x3);
    const V t0 = pin(V::xor_andn(a0, x1, a2));
    const V y1 = pin(pin(V::xor_andn(x1, a2, x3)) ^ t0);
    const V t2 = pin(V::xor_andn(a2, x3, a4));
    const V y3 = pin(pin(V::xor_andn(x3, a4, a0)) ^ t2);
    const V t4 = pin(V::xor_andn(a4, a0, x1));
    const V y0 = pin(t0 ^ t4);
    const V p0 = pin(y0 ^ pin(V::template rotr<19>(y0)));
    const V p1 = pin(y1 ^ pin(V::template rotr<61>(y1)));
    const V p2 = pin(t2 ^ pin(V::template rotr<1>(t2)));
    x0 = pin(p0 ^ pin(V::template rotr<28>(y0)));
    const V p3 = pin(y3 ^ pin(V::template rotr<10>(y3)));
    x1 = pin(p1 ^ pin(V::template rotr<39>(y1)));
    const V p4 = pin(t4 ^ pin(V::template rotr<7>(t4)));
    x2 = pin(p2 ^ pin(V::template rotr<6>(t2)));
    x3 = pin(p3 ^ pin(V::template rotr<17>(y3)));
    x4 = pin(p4 ^ pin(V::template rotr<41>(t4)));
  }
}

// The complement of x2 that round_lanes leaves for permute to apply (none with ternary_vector).
template <class V>
LWC_SIMD_INLINE V finish_x2(V x2) {
  if constexpr (ternary_vector<V>) return x2;
  else return V::not_(x2);
}

// Two lane vectors used as one (vec_pair.hpp) expose their halves as V::half.
template <class V>
concept split_pair = requires(const V& v) {
  typename V::half;
  v.lo;
  v.hi;
};

// Rounds First .. Last - 1 of the 12-round schedule on every lane of x: p^Rounds is the last
// Rounds of them (permute below); the first four alone complete p^8 to p^12 where a mode ends
// its absorption with p^12 but runs p^8 on its blocks.
//
// With a pair of registers per word, each round runs on the first half's five words, then on
// the second's: the two chains are independent, so the out-of-order core still overlaps
// them, and with half as many values live at a time the AVX2 round (16 registers) no longer
// spills to the stack; issuing every operation for both halves side by side did.
template <int First, int Last, class V>
LWC_SIMD_INLINE void permute_rounds(V (&x)[5]) {
  static_assert(0 <= First && First < Last && Last <= 12);
  if constexpr (split_pair<V>) {
    using H = typename V::half;
    H a0 = x[0].lo, a1 = x[1].lo, a2 = x[2].lo, a3 = x[3].lo, a4 = x[4].lo;
    H b0 = x[0].hi, b1 = x[1].hi, b2 = x[2].hi, b3 = x[3].hi, b4 = x[4].hi;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
    for (int i = First; i < Last; ++i) {
      round_lanes(a0, a1, a2, a3, a4, i, i == First);
      round_lanes(b0, b1, b2, b3, b4, i, i == First);
    }
    x[0] = {a0, b0};
    x[1] = {a1, b1};
    x[2] = {finish_x2(a2), finish_x2(b2)};
    x[3] = {a3, b3};
    x[4] = {a4, b4};
  } else {
    V x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
    for (int i = First; i < Last; ++i) round_lanes(x0, x1, x2, x3, x4, i, i == First);
    x[0] = x0;
    x[1] = x1;
    x[2] = finish_x2(x2);
    x[3] = x3;
    x[4] = x4;
  }
}

// p^Rounds (the last Rounds rounds of the 12-round schedule) on every lane of x.
template <int Rounds, class V>
LWC_SIMD_INLINE void permute(V (&x)[5]) {
  static_assert(Rounds >= 1 && Rounds <= 12);
  permute_rounds<12 - Rounds, 12>(x);
}

}  // namespace lwc::simd::LWC_SIMD_NS
