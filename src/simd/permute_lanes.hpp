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

// p^Rounds (the last Rounds rounds of the 12-round schedule) on every lane of x.
//
// The S-box output x2 = ~t2 is carried uncomplemented from one round to the next: the NOT
// is folded into the next round's constant (x2 only enters the next round as x2 ^ x1 ^ c)
// and applied once at the end, which saves an operation per round where V has no
// three-input instruction.
//
// Where V has a three-input function of any truth table (ternary_vector: AVX-512), the S-box
// is regrouped to take 10 such operations instead of 11, 25 per round with the linear layer
// instead of 26; see permute_ternary below.
template <int Rounds, class V>
LWC_SIMD_INLINE void permute_ternary(V (&x)[5]);

template <int Rounds, class V>
LWC_SIMD_INLINE void permute(V (&x)[5]) {
  static_assert(Rounds >= 1 && Rounds <= 12);
  if constexpr (ternary_vector<V>) {
    permute_ternary<Rounds>(x);
    return;
  }
  V x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
  for (int i = 12 - Rounds; i < 12; ++i) {
    const std::uint64_t c =
        (static_cast<std::uint64_t>(0xf - i) << 4) | static_cast<std::uint64_t>(i);
    const V a2 = V::xor3(x2, x1, V::set1(i == 12 - Rounds ? c : ~c));
    const V a0 = x0 ^ x4;
    const V a4 = x4 ^ x3;
    const V t0 = V::xor_andn(a0, x1, a2);
    const V t1 = V::xor_andn(x1, a2, x3);
    const V t2 = V::xor_andn(a2, x3, a4);
    const V t3 = V::xor_andn(x3, a4, a0);
    const V t4 = V::xor_andn(a4, a0, x1);
    const V y0 = t0 ^ t4;
    const V y1 = t1 ^ t0;
    const V y3 = t3 ^ t2;
    x0 = V::xor3(y0, V::template rotr<19>(y0), V::template rotr<28>(y0));
    x1 = V::xor3(y1, V::template rotr<61>(y1), V::template rotr<39>(y1));
    x2 = V::xor3(t2, V::template rotr<1>(t2), V::template rotr<6>(t2));
    x3 = V::xor3(y3, V::template rotr<10>(y3), V::template rotr<17>(y3));
    x4 = V::xor3(t4, V::template rotr<7>(t4), V::template rotr<41>(t4));
  }
  x[0] = x0;
  x[1] = x1;
  x[2] = V::not_(x2);
  x[3] = x3;
  x[4] = x4;
}

// The same round with every S-box output a function of at most three values, given
// a0 = x0 ^ x4, a4 = x4 ^ x3 and a2 = x2 ^ x1 ^ c (x2 with the round constant). From the
// chi form above (t_i = a_i ^ (~a_{i+1} & a_{i+2}) over a0, x1, a2, x3, a4):
//   y2 = ~t2 = ~((x4 & ~x3) ^ a2)               since ~x3 & a4 = ~x3 & x4
//   y3 = t3 ^ t2 = (a4 | x0) ^ a2
//   y4 = t4 = a4 ^ (~a0 & x1)
//   y0 = t0 ^ t4 = ((a0 | x1) ^ (~x1 & a2)) ^ a4  (a0 ^ (~a0 & x1) = a0 | x1)
//   y1 = t1 ^ t0 = ((x1 | a2) ^ (~a2 & x3)) ^ a0  (x1 ^ (~x1 & a2) = x1 | a2)
// (tests/batch check every lane permutation against the core's). The NOT of y2 is part of
// its function, so x2 is carried as is. On an AMD Zen 4, where the rotations are the scarcer
// resource, the instruction saved made the AVX-512 Ascon-Hash256 lanes 5 to 6 % faster
// (docs/performance-batch.md, "Ascon in lanes (AMD EPYC Zen 4)").
template <int Rounds, class V>
LWC_SIMD_INLINE void permute_ternary(V (&x)[5]) {
  static_assert(Rounds >= 1 && Rounds <= 12);
  // Truth tables for inputs (a, b, c) = (0xf0, 0xcc, 0xaa).
  constexpr int not_andn_xor = 0x65;  // ~((a & ~b) ^ c)
  constexpr int or_xor = 0x56;        // (a | b) ^ c
  constexpr int xor_andn = 0xd2;      // a ^ (~b & c)
  constexpr int or_xor_andn = 0xde;   // (a | b) ^ (~b & c)
  V x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
  for (int i = 12 - Rounds; i < 12; ++i) {
    const std::uint64_t c =
        (static_cast<std::uint64_t>(0xf - i) << 4) | static_cast<std::uint64_t>(i);
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
  }
  x[0] = x0;
  x[1] = x1;
  x[2] = x2;
  x[3] = x3;
  x[4] = x4;
}

}  // namespace lwc::simd::LWC_SIMD_NS
