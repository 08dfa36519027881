// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-N and Romulus-M in lanes, written once over a lane_vector32 type V and instantiated by
// each backend translation unit inside its own namespace (LWC_SIMD_NS), through lane_kernels.hpp.
// Romulus-M's encryption pass is Romulus-N's message step with its own domain; its MAC pass
// runs on the group's vectors (m_family below).
//
// SKINNY-128-384+ is restated here for V as include/lwc/romulus/skinny128_384_plus.hpp computes
// it: the S-box as logic operations on all cells with the bit order tracked from round to round,
// the state complemented, the tweakey words in the bit order of the round that adds them. Each
// lane holds one block as four 32-bit rows (row i is bytes 4i..4i+3, little-endian), so
// ShiftRows is three rotations and MixColumns three XORs and a renaming of the rows. Only
// compile-time constants are read from the core (bit orders, S-box plans, the masks of the
// linear maps, the round constants): an inline function of the core compiled in this unit would
// carry its instruction set out of the backend's namespace.
//
// In Romulus-N, a lane step is one message block of a job: C = M ^ G(S), S ^= M (or C), then
// the TBC call with the next block counter and domain 0x04 in TK1. The TBC's fixed round words
// (TK2: the nonce, TK3: the key, and the round constants) are the same for every block of a job
// and differ per lane: they are expanded once per job into 40 round words (rows 0 and 1) kept
// in memory lane by lane; the counter (TK1) is stepped beside the rounds. What does not fit that
// step runs in groups of V::lanes jobs on the whole vectors:
//  - start: the round words of the nonce and key schedule, the associated data two blocks per
//    TBC call (one XORed into the state, one as TK2, expanded with the key for that call), a
//    job with fewer calls than another of its group keeping its state by a lane-wise select,
//    then the nonce call that closes the associated data. Started jobs wait in a pool that feeds
//    the refills.
//  - finish: the last message block (full, partial or none) with its bytes handled by scalar
//    code, its TBC call on the whole vectors, and the tag G(S). Finished jobs wait in a queue
//    until V::lanes of them can go together.
// Every TBC call, in the lane steps as in the groups, runs through one out-of-line copy of the
// cipher per vector type (an unrolled 40-round cipher inlined at every call site would make the
// backend units slow to compile under the sanitizers; a call per block costs little beside 40
// rounds).
//
// Lengths decide every branch and every index; keys, data and states never do, and a tag
// verdict only selects, by a mask, whether a job's plaintext is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/romulus/romulus_m.hpp>
#include <lwc/romulus/romulus_n.hpp>
#include <lwc/romulus/skinny128_384_plus.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/romulus.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::romulus_lanes {

namespace core = ::lwc::romulus::detail;

inline constexpr size_t block_bytes = 16;
inline constexpr size_t tag_bytes = 16;
inline constexpr unsigned rounds = 40;

// Domain bytes of Romulus-N (TK1 byte 7).
inline constexpr u32 domain_ad_pair = 0x08;
inline constexpr u32 domain_message = 0x04;

// ---- compile-time constants of the core ---------------------------------------------------

template <core::map_kind Kind, int Tk, int R>
inline constexpr core::shift_masks map_masks = core::masks_of(core::make_map<Kind, Tk, R>());

template <int R>
inline constexpr core::sbox_plan sbox_plan = core::plan_sbox(core::order_before_round(R));

template <int R>
inline constexpr u32 row2_constant =
    static_cast<u32>(~u64{0} ^ u64{1} << core::order_before_round((R + 1) % 8).pos[1]);

inline constexpr core::schedule round_constants = core::constant_schedule();

// ---- SKINNY-128-384+ over V ---------------------------------------------------------------

template <int D, class V>
LWC_SIMD_INLINE V move_up(const V& x) {  // bit p to bit p + D
  if constexpr (D > 0) return V::template shl<D>(x);
  else return V::template shr<-D>(x);
}

// The byte-wise linear map named by (Kind, Tk, R), as masked shifts.
template <core::map_kind Kind, int Tk, int R, int D, class V>
LWC_SIMD_INLINE V masked_terms(const V& x, const V& acc) {
  if constexpr (D > 7) {
    return acc;
  } else {
    constexpr u32 m = static_cast<u32>(map_masks<Kind, Tk, R>.mask[D + 7]);
    if constexpr (m == 0) {
      return masked_terms<Kind, Tk, R, D + 1>(x, acc);
    } else if constexpr (D == 0) {
      return masked_terms<Kind, Tk, R, D + 1>(x, acc ^ V::and_(x, V::set1(m)));
    } else {
      return masked_terms<Kind, Tk, R, D + 1>(x, acc ^ V::and_(move_up<D>(x), V::set1(m)));
    }
  }
}
template <core::map_kind Kind, int Tk = 1, int R = 0, class V>
LWC_SIMD_INLINE V apply_map(const V& x) {
  return masked_terms<Kind, Tk, R, -7>(x, V::set1(0));
}

LWC_SIMD_INLINE constexpr u32 bit_lanes(int bit) { return 0x01010101u << bit; }

// One S-box step on the complemented state: bit t ^= bit a & bit b in every byte, for two
// (t, a, b) at once, sharing shifts where the two steps allow it.
template <int T1, int A1, int B1, int T2, int A2, int B2, class V>
LWC_SIMD_INLINE V nor_step(const V& y) {
  constexpr int p = T1 - A1, q = T1 - B1, r = T2 - A2, s = T2 - B2;
  const V m1 = V::set1(bit_lanes(T1)), m2 = V::set1(bit_lanes(T2));
  if constexpr ((p == r && q == s) || (p == s && q == r)) {
    return y ^ V::and_(V::and_(move_up<p>(y), V::set1(bit_lanes(T1) | bit_lanes(T2))),
                       move_up<q>(y));
  } else if constexpr (p == r || p == s) {
    constexpr int other = p == r ? s : r;
    return y ^ V::and_(move_up<p>(y),
                       V::and_(move_up<q>(y), m1) ^ V::and_(move_up<other>(y), m2));
  } else if constexpr (q == r || q == s) {
    constexpr int other = q == r ? s : r;
    return y ^ V::and_(move_up<q>(y),
                       V::and_(move_up<p>(y), m1) ^ V::and_(move_up<other>(y), m2));
  } else {
    return V::xor3(y, V::and_(V::and_(move_up<p>(y), m1), move_up<q>(y)),
                   V::and_(V::and_(move_up<r>(y), m2), move_up<s>(y)));
  }
}

template <int R, class V>
LWC_SIMD_INLINE V sbox(V y) {
  constexpr core::sbox_plan p = sbox_plan<R>;
#define LWC_ROMULUS_LANE_STEP(k)                                                               \
  y = nor_step<p.step[k][0][0], p.step[k][0][1], p.step[k][0][2], p.step[k][1][0],             \
               p.step[k][1][1], p.step[k][1][2]>(y)
  LWC_ROMULUS_LANE_STEP(0);
  LWC_ROMULUS_LANE_STEP(1);
  LWC_ROMULUS_LANE_STEP(2);
  LWC_ROMULUS_LANE_STEP(3);
#undef LWC_ROMULUS_LANE_STEP
  return y;
}

// A word of rows 0 and 1 (as the core's 64-bit row-pair word): row 0 in lo, row 1 in hi.
template <class V>
struct pair {
  V lo, hi;
};

template <core::map_kind Kind, int Tk = 1, int R = 0, class V>
LWC_SIMD_INLINE pair<V> map_pair(const pair<V>& x) {
  return {apply_map<Kind, Tk, R>(x.lo), apply_map<Kind, Tk, R>(x.hi)};
}

// The tweakey schedule's cell permutation seen from rows 0 and 1 (the core's permute_cells):
// the new bytes 0..7 are the old bytes 1, 7, 0, 5, 2, 6, 4, 3.
template <class V>
LWC_SIMD_INLINE pair<V> permute_cells(const pair<V>& x) {
  const V lo = V::xor3(V::and_(V::template shr<8>(x.lo), V::set1(0x000000ffu)),
                       V::and_(V::template shr<16>(x.hi), V::set1(0x0000ff00u)),
                       V::and_(V::template shl<16>(x.lo), V::set1(0x00ff0000u))) ^
               V::and_(V::template shl<16>(x.hi), V::set1(0xff000000u));
  const V hi = V::xor3(V::and_(V::template shr<16>(x.lo), V::set1(0x000000ffu)),
                       V::and_(V::template shr<8>(x.hi), V::set1(0x0000ff00u)),
                       V::and_(V::template shl<16>(x.hi), V::set1(0x00ff0000u))) ^
               V::and_(x.lo, V::set1(0xff000000u));
  return {lo, hi};
}

// A tweakey array that changes between calls: its words for the next even and odd rounds.
template <class V>
struct live_words {
  pair<V> even, odd;
};

template <int Tk, class V>
LWC_SIMD_INLINE live_words<V> start_live(const pair<V>& rows01, const pair<V>& rows23) {
  return {map_pair<core::map_kind::first_even>(rows01),
          map_pair<core::map_kind::first_odd, Tk>(permute_cells(rows23))};
}

template <int Tk, int R, class V>
LWC_SIMD_INLINE pair<V> step_word(const pair<V>& w) {
  return map_pair<core::map_kind::step, Tk, R>(permute_cells(w));
}

template <int Tk, int R, class V>
LWC_SIMD_INLINE pair<V> take_word(live_words<V>& l) {
  pair<V>& slot = R % 2 == 0 ? l.even : l.odd;
  const pair<V> w = slot;
  slot = step_word<Tk, R>(w);
  return w;
}

// Round words of the fixed tweakey arrays with the constants, lane by lane in memory: word
// (r, h) of lane j is w[2 r + h][j], h = 0 for row 0 and 1 for row 1.
template <size_t N>
using schedule = u32[2 * rounds][N];

// The round key source of one TBC call: the fixed words from memory and TK1 (the counter and
// domain; rows 2 and 3 zero, so it adds to the even rounds only).
template <class V, size_t N>
struct source {
  const schedule<N>* fixed;
  pair<V> tk1;

  template <int R>
  LWC_SIMD_INLINE pair<V> next(int r) {
    pair<V> w{V::load((*fixed)[2 * r]), V::load((*fixed)[2 * r + 1])};
    if constexpr (R % 2 == 0) {
      w = {w.lo ^ tk1.lo, w.hi ^ tk1.hi};
      tk1 = step_word<1, R>(tk1);
    }
    return w;
  }
};

// A round under the words k that rows 0 and 1 take.
template <int R, class V>
LWC_SIMD_INLINE void round_with(V (&s)[4], const pair<V>& k) {
  const V r0 = sbox<R>(s[0]) ^ k.lo;
  const V r1 = sbox<R>(s[1]) ^ k.hi;
  const V r2 = sbox<R>(s[2]) ^ V::set1(row2_constant<R>);
  const V r3 = V::not_(sbox<R>(s[3]));
  // ShiftRows: row i rotated left by 8 i bits; MixColumns, then the rows renamed.
  const V t1 = V::template rotr<24>(r1), t2 = V::template rotr<16>(r2) ^ r0;
  const V t3 = V::template rotr<8>(r3);
  s[0] = t3 ^ t2;
  s[1] = r0;
  s[2] = t1 ^ V::template rotr<16>(r2);
  s[3] = t2;
}

template <int R, class V, class Source>
LWC_SIMD_INLINE void round(V (&s)[4], Source& src, int r) {
  round_with<R>(s, src.template next<R>(r));
}

// TK1 of a call from the raw counter words (bytes 0..6 the counter, byte 7 the domain).
template <class V>
LWC_SIMD_INLINE pair<V> counter_word(const pair<V>& raw) {
  return map_pair<core::map_kind::first_even>(raw);
}

template <class V, class Source>
LWC_SIMD_INLINE void encrypt(V (&s)[4], Source& src) {
  for (size_t i = 0; i < 4; ++i) s[i] = V::not_(apply_map<core::map_kind::enter>(s[i]));
  for (int q = 0; q < static_cast<int>(rounds); q += 8) {
    round<0>(s, src, q);
    round<1>(s, src, q + 1);
    round<2>(s, src, q + 2);
    round<3>(s, src, q + 3);
    round<4>(s, src, q + 4);
    round<5>(s, src, q + 5);
    round<6>(s, src, q + 6);
    round<7>(s, src, q + 7);
  }
  for (size_t i = 0; i < 4; ++i) s[i] = apply_map<core::map_kind::leave>(V::not_(s[i]));
}

// The block counter (a 56-bit LFSR), on the two raw words of every lane: lo holds bytes 0..3,
// hi bytes 4..6 and the domain byte, which is left alone.
template <class V>
LWC_SIMD_INLINE pair<V> next_counter(const pair<V>& c) {
  const V top = V::and_(V::template shr<23>(c.hi), V::set1(1));  // bit 55
  const V fb = V::xor3(top, V::template shl<2>(top), V::template shl<4>(top)) ^
               V::template shl<7>(top);  // 0x95
  const V hi = V::and_(V::template shl<1>(c.hi) ^ V::template shr<31>(c.lo), V::set1(0x00ffffffu)) ^
               V::and_(c.hi, V::set1(0xff000000u));
  return {V::template shl<1>(c.lo) ^ fb, hi};
}

// Scalar forms for the group code (public values: counters are lengths).
LWC_SIMD_INLINE u64 next_counter_scalar(u64 c) {
  return (c << 1 & 0x00ffffffffffffffull) ^ ((u64{0} - (c >> 55 & 1)) & 0x95);
}
// G on the bytes of a 32-bit row: every byte (x7..x0) becomes (x0 ^ x7, x7, ..., x1).
LWC_SIMD_INLINE u32 g_row(u32 s) {
  return (s >> 1 & 0x7f7f7f7fu) ^ (s & 0x80808080u) ^ (s << 7 & 0x80808080u);
}

// ---- out-of-line calls on states in memory ------------------------------------------------

template <size_t N>
using rows = u32[4][N];

// S <- E(S) on every lane, under `fixed` with TK1 from the raw counter words: the one copy of
// the cipher per vector type, called by the lane steps (a call per block costs little beside
// 40 rounds) and by the group code.
template <class V>
LWC_SIMD_NOINLINE void tbc(V (&s)[4], const schedule<V::lanes>& fixed, const pair<V>& tk1) {
  source<V, V::lanes> src{&fixed, counter_word(tk1)};
  encrypt(s, src);
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
// The AVX-512 backend's unit: a copy of tbc for CPUs that also have GFNI and AVX-512 VBMI,
// which the message steps call. Its counter words (TK1) step with two byte permutes across the
// row words (the cell permutation) and two gf2p8affineqb (the per-byte map between bit orders;
// for TK1, whose LFSR is the identity, it is the same map in every round) instead of some sixty
// shifts, masks and XORs every other round. The counter is public.
#define LWC_ROMULUS_LANES_GFNI __attribute__((target("gfni,avx512vbmi,avx512bw,avx512f")))

// permute_cells (the core's cell_source) as vpermt2b indices: old bytes 0..3 are row 0 (the
// first table), 4..7 row 1 (the second, index bit 6); each 32-bit lane takes from its own lane.
// Half 0 gives the new row 0, half 1 the new row 1.
template <int Half>
inline constexpr auto cell_index_bytes = [] {
  struct {
    alignas(64) std::uint8_t b[64];
  } idx{};
  for (int lane = 0; lane < 16; ++lane)
    for (int k = 0; k < 4; ++k) {
      const int from = core::cell_source(4 * Half + k);
      idx.b[4 * lane + k] = static_cast<std::uint8_t>((from < 4 ? 0 : 64) + 4 * lane + (from & 3));
    }
  return idx;
}();

template <int Half>
LWC_ROMULUS_LANES_GFNI inline __m512i cell_indices() {
  return _mm512_load_si512(cell_index_bytes<Half>.b);
}

template <core::map_kind Kind, int Tk, int R>
LWC_ROMULUS_LANES_GFNI inline __m512i byte_map(__m512i x) {
  constexpr u64 matrix = core::gfni_matrix(core::make_map<Kind, Tk, R>());
  return _mm512_gf2p8affine_epi64_epi8(x, _mm512_set1_epi64(static_cast<long long>(matrix)), 0);
}

template <class V>
struct gfni_source {
  const schedule<V::lanes>* fixed;
  __m512i lo, hi;  // TK1's word of the next even round
  __m512i idx_lo, idx_hi;

  template <int R>
  LWC_SIMD_INLINE LWC_ROMULUS_LANES_GFNI pair<V> next(int r) {
    pair<V> w{V::load((*fixed)[2 * r]), V::load((*fixed)[2 * r + 1])};
    if constexpr (R % 2 == 0) {
      w = {w.lo ^ V{lo}, w.hi ^ V{hi}};
      const __m512i cells_lo = _mm512_permutex2var_epi8(lo, idx_lo, hi);
      const __m512i cells_hi = _mm512_permutex2var_epi8(lo, idx_hi, hi);
      lo = byte_map<core::map_kind::step, 1, R>(cells_lo);
      hi = byte_map<core::map_kind::step, 1, R>(cells_hi);
    }
    return w;
  }
};

// encrypt() with that source: its own copy, so that the source's steps inline under this
// target.
template <int R = 0, class V>
LWC_SIMD_INLINE LWC_ROMULUS_LANES_GFNI void eight_rounds_gfni(V (&s)[4], gfni_source<V>& src,
                                                              int q) {
  if constexpr (R < 8) {
    round_with<R>(s, src.template next<R>(q + R));
    eight_rounds_gfni<R + 1>(s, src, q);
  }
}

template <class V>
LWC_SIMD_NOINLINE LWC_ROMULUS_LANES_GFNI void tbc_gfni(V (&s)[4], const schedule<V::lanes>& fixed,
                                                       const pair<V>& tk1) {
  gfni_source<V> src{&fixed, byte_map<core::map_kind::first_even, 1, 0>(tk1.lo.v),
                     byte_map<core::map_kind::first_even, 1, 0>(tk1.hi.v), cell_indices<0>(),
                     cell_indices<1>()};
  for (size_t i = 0; i < 4; ++i) s[i] = V::not_(apply_map<core::map_kind::enter>(s[i]));
  for (int q = 0; q < static_cast<int>(rounds); q += 8) eight_rounds_gfni(s, src, q);
  for (size_t i = 0; i < 4; ++i) s[i] = apply_map<core::map_kind::leave>(V::not_(s[i]));
}
#undef LWC_ROMULUS_LANES_GFNI
#endif

// tbc on the fastest code this backend has for the CPU.
template <class V>
LWC_SIMD_INLINE void tbc_fastest(V (&s)[4], const schedule<V::lanes>& fixed, const pair<V>& tk1,
                                 [[maybe_unused]] bool gfni) {
#if defined(__AVX512F__) && defined(__AVX512BW__)
  if constexpr (sizeof(V) == 64) {
    if (gfni) {
      tbc_gfni<V>(s, fixed, tk1);
      return;
    }
  }
#endif
  tbc<V>(s, fixed, tk1);
}

// The same on states in memory; lanes whose keep word is zero keep their state.
template <class V>
LWC_SIMD_INLINE void tbc_array(rows<V::lanes>& st, const schedule<V::lanes>& fixed,
                               const u32 (&tk1)[2][V::lanes], const u32 (&keep)[V::lanes]) {
  V s[4], y[4];
  for (size_t i = 0; i < 4; ++i) s[i] = y[i] = V::load(st[i]);
  tbc<V>(y, fixed, pair<V>{V::load(tk1[0]), V::load(tk1[1])});
  const V m = V::load(keep);
  for (size_t i = 0; i < 4; ++i) V::select(m, y[i], s[i]).store(st[i]);
}

// The fixed round words of TK2 (the rows in tk2, or zero) and TK3 (the rows in tk3), with the
// round constants.
template <int R, class V, size_t N>
LWC_SIMD_INLINE void build_eight(schedule<N>& w, int q, live_words<V>& t2, live_words<V>& t3,
                                 bool with_tk2) {
  if constexpr (R < 8) {
    const int r = q + R;
    const u64 c = round_constants.w[r];
    pair<V> k = take_word<3, R>(t3);
    if (with_tk2) {
      const pair<V> k2 = take_word<2, R>(t2);
      k = {k.lo ^ k2.lo, k.hi ^ k2.hi};
    }
    (k.lo ^ V::set1(static_cast<u32>(c))).store(w[2 * r]);
    (k.hi ^ V::set1(static_cast<u32>(c >> 32))).store(w[2 * r + 1]);
    build_eight<R + 1>(w, q, t2, t3, with_tk2);
  }
}

template <class V>
LWC_SIMD_NOINLINE void build_schedule(schedule<V::lanes>& w, const rows<V::lanes>* tk2,
                                      const rows<V::lanes>& tk3) {
  live_words<V> t3 = start_live<3>(pair<V>{V::load(tk3[0]), V::load(tk3[1])},
                                   pair<V>{V::load(tk3[2]), V::load(tk3[3])});
  live_words<V> t2 = t3;
  if (tk2 != nullptr)
    t2 = start_live<2>(pair<V>{V::load((*tk2)[0]), V::load((*tk2)[1])},
                       pair<V>{V::load((*tk2)[2]), V::load((*tk2)[3])});
  for (int q = 0; q < static_cast<int>(rounds); q += 8)
    build_eight<0, V, V::lanes>(w, q, t2, t3, tk2 != nullptr);
}

// A padded block as four rows: n < 16 bytes get zeros and n in byte 15.
inline void padded_rows(const u8* p, size_t n, u32 (&out)[4]) {
  alignas(8) u8 buf[16] = {};
  for (size_t b = 0; b < n; ++b) buf[b] = p[b];
  if (n < 16) buf[15] = static_cast<u8>(n);
  for (size_t w = 0; w < 4; ++w) out[w] = load_le32(buf + 4 * w);
  wipe(buf, sizeof buf);
}

// A pair of blocks into lane i of a group's call: x XORed into the state, t as TK2 (expanded
// with the key for the call), the counter and domain in TK1; the counter steps before the call
// and after it.
template <size_t N>
inline void take_pair(rows<N>& st, rows<N>& data, u32 (&tk1)[2][N], u32 (&keep)[N], u64& counter,
                      size_t i, const u32 (&x)[4], const u32 (&t)[4], u32 domain) {
  for (size_t w = 0; w < 4; ++w) {
    st[w][i] ^= x[w];
    data[w][i] = t[w];
  }
  counter = next_counter_scalar(counter);
  tk1[0][i] = static_cast<u32>(counter);
  tk1[1][i] = static_cast<u32>(counter >> 32) | domain << 24;
  counter = next_counter_scalar(counter);
  keep[i] = ~u32{0};
}

// ---- the message steps --------------------------------------------------------------------

// k message blocks on every lane (x: the four state rows, then the two raw counter words):
// C = M ^ G(S), S ^= M (or C), then the TBC under the job's fixed round words with the next
// counter and Domain in TK1. Romulus-N's message blocks, and Romulus-M's second pass.
template <class V, bool Decrypt, u32 Domain, class Cursors>
LWC_SIMD_INLINE void rho_steps(V (&x)[6], const schedule<V::lanes>& sched, const u8* const* src,
                               u8* const* dst, u64 k, const Cursors& cur) {
  V s[4];
  for (size_t w = 0; w < 4; ++w) s[w] = x[w];
  pair<V> c{x[4], x[5]};
  const V domain = V::set1(Domain << 24);
#if defined(__AVX512F__) && defined(__AVX512BW__)
  const bool gfni = ::lwc::batch::detail::cpu_has_gfni_vbmi();
#else
  const bool gfni = false;
#endif
  const size_t end = k * block_bytes;
  for (size_t off = 0; off < end; off += block_bytes) {
    cur.prefetch(off);
    V in[4], out[4];
    V::load_blocks(src, off, in);
    for (size_t w = 0; w < 4; ++w) {
      const V gs = V::xor3(V::and_(V::template shr<1>(s[w]), V::set1(0x7f7f7f7fu)),
                           V::and_(s[w], V::set1(0x80808080u)),
                           V::and_(V::template shl<7>(s[w]), V::set1(0x80808080u)));
      out[w] = gs ^ in[w];
      s[w] = s[w] ^ (Decrypt ? out[w] : in[w]);
    }
    V::store_blocks(dst, off, out);
    c = next_counter(c);
    tbc_fastest<V>(s, sched, pair<V>{c.lo, c.hi ^ domain}, gfni);
  }
  for (size_t w = 0; w < 4; ++w) x[w] = s[w];
  x[4] = c.lo;
  x[5] = c.hi;
}

// ---- the engine ---------------------------------------------------------------------------

// What Romulus-N and Romulus-M's encryption pass share in the lanes: the state, the round
// words of the nonce schedule beside it, and the message steps under Domain. A lane in the
// vectors: the four state rows, then the two raw counter words; its fixed round words stay in
// memory, in the rows after those, then ExtraRows more rows of the family's own.
template <class V, bool Decrypt, u32 Domain, size_t ExtraRows>
struct message_lanes {
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 6;
  static constexpr size_t extra_row = words + 2 * rounds;
  using states = u32[extra_row + ExtraRows][N];
  static constexpr size_t rate = block_bytes, out_rate = block_bytes;
  static constexpr size_t tag_bytes = romulus_lanes::tag_bytes;
  static constexpr bool decrypt = Decrypt;

  static LWC_SIMD_INLINE const schedule<N>& schedule_of(const states& s) {
    return *reinterpret_cast<const schedule<N>*>(&s[words]);
  }
  static LWC_SIMD_INLINE schedule<N>& schedule_of(states& s) {
    return *reinterpret_cast<schedule<N>*>(&s[words]);
  }

  // A job's message blocks but the last go through the lanes.
  static u64 lane_steps(const aead_desc& d) { return d.len == 0 ? 0 : (d.len - 1) / block_bytes; }

  // k message blocks on every lane.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states& lanes, const u8* const* src,
                             u8* const* dst, u64 k, const Cursors& cur) {
    rho_steps<V, Decrypt, Domain>(x, schedule_of(lanes), src, dst, k, cur);
  }
};

// The family's part of the lane engine (engine.hpp).
template <class V, bool Decrypt>
struct aead_family : message_lanes<V, Decrypt, domain_message, 0> {
  using base = message_lanes<V, Decrypt, domain_message, 0>;
  using typename base::states;
  using base::N;
  using base::schedule_of;

  // The group's start on the whole vectors: the two schedules, the associated data, the nonce
  // call.
  void start(states& pool, const aead_desc* jobs, size_t m) {
    alignas(64) rows<N> nonce = {}, key = {}, st = {}, data = {};
    alignas(64) schedule<N> call;
    alignas(64) u32 tk1[2][N] = {}, keep[N] = {};
    size_t pairs[N] = {};
    u64 counter[N];
    size_t most = 0;
    for (size_t i = 0; i < N; ++i) {
      counter[i] = 1;
      if (i >= m) continue;
      const aead_desc& d = jobs[i];
      for (size_t w = 0; w < 4; ++w) {
        nonce[w][i] = load_le32(d.nonce + 4 * w);
        key[w][i] = load_le32(d.key + 4 * w);
      }
      pairs[i] = d.ad_len > 16 ? (d.ad_len - 16 + 31) / 32 : 0;
      most = pairs[i] > most ? pairs[i] : most;
    }
    build_schedule<V>(schedule_of(pool), &nonce, key);
    // Pair p: the first block XORed into the state, the second (padded) as TK2, whose round
    // words are expanded with the key's for the call.
    for (size_t p = 0; p < most; ++p) {
      for (size_t i = 0; i < N; ++i) {
        keep[i] = 0;
        if (p >= pairs[i]) {
          for (size_t w = 0; w < 4; ++w) data[w][i] = 0;
          tk1[0][i] = tk1[1][i] = 0;
          continue;
        }
        const aead_desc& d = jobs[i];
        const size_t at = 32 * p, left = d.ad_len - at - 16;
        u32 a[4], b[4];
        padded_rows(d.ad + at, 16, a);
        padded_rows(d.ad + at + 16, left < 16 ? left : 16, b);
        take_pair(st, data, tk1, keep, counter[i], i, a, b, domain_ad_pair);
        wipe(a, sizeof a);
        wipe(b, sizeof b);
      }
      build_schedule<V>(call, &data, key);
      tbc_array<V>(st, call, tk1, keep);
    }
    // The nonce call: the last block (if not taken by a pair) into the state.
    for (size_t i = 0; i < N; ++i) {
      keep[i] = ~u32{0};
      tk1[0][i] = tk1[1][i] = 0;
      if (i >= m) continue;
      const aead_desc& d = jobs[i];
      // The pairs took min(32 pairs, ad_len) bytes (the last pair's second block may be partial).
      const size_t done = 32 * pairs[i] < d.ad_len ? 32 * pairs[i] : d.ad_len;
      const size_t rest = d.ad_len - done;
      u32 domain = 0x1a;
      if (rest != 0) {
        u32 a[4];
        padded_rows(d.ad + done, rest, a);
        for (size_t w = 0; w < 4; ++w) st[w][i] ^= a[w];
        wipe(a, sizeof a);
        counter[i] = next_counter_scalar(counter[i]);
        domain = rest == 16 ? 0x18 : 0x1a;
      } else if (pairs[i] == 0) {
        counter[i] = next_counter_scalar(counter[i]);  // no associated data at all
      } else {
        domain = d.ad_len == 32 * pairs[i] ? 0x18 : 0x1a;  // the last pair's second block full
      }
      tk1[0][i] = static_cast<u32>(counter[i]);
      tk1[1][i] = static_cast<u32>(counter[i] >> 32) | domain << 24;
    }
    tbc_array<V>(st, schedule_of(pool), tk1, keep);
    for (size_t i = 0; i < N; ++i) {
      for (size_t w = 0; w < 4; ++w) pool[w][i] = st[w][i];
      pool[4][i] = 1;  // the message counter starts at 1
      pool[5][i] = 0;
    }
    wipe(nonce, sizeof nonce);
    wipe(key, sizeof key);
    wipe(st, sizeof st);
    wipe(data, sizeof data);
    wipe(call, sizeof call);
  }

  // The queued jobs' last blocks and tags: C = M ^ G(S) on the last (or no) block and S ^= M,
  // by scalar code; the TBC with domain 0x14 (full block) or 0x15 on the whole vectors; the
  // tag G(S).
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    alignas(64) rows<N> st;
    alignas(64) u32 tk1[2][N] = {}, keep[N];
    for (size_t i = 0; i < N; ++i) {
      keep[i] = ~u32{0};
      for (size_t w = 0; w < 4; ++w) st[w][i] = fin[w][i];
      if (i >= n) continue;
      const aead_desc& d = jobs[i];
      const size_t r = d.len == 0 ? 0 : d.len - (d.len - 1) / block_bytes * block_bytes;
      const size_t at = d.len - r;
      if (r != 0) {
        u32 x[4];
        alignas(8) u8 y[16];
        padded_rows(d.in + at, r, x);
        for (size_t w = 0; w < 4; ++w) store_le32(y + 4 * w, g_row(st[w][i]) ^ x[w]);
        for (size_t b = 0; b < r; ++b) d.out[at + b] = y[b];
        u32 z[4];
        if constexpr (Decrypt) padded_rows(y, r, z);
        else
          for (size_t w = 0; w < 4; ++w) z[w] = x[w];
        for (size_t w = 0; w < 4; ++w) st[w][i] ^= z[w];
        wipe(x, sizeof x);
        wipe(y, sizeof y);
        wipe(z, sizeof z);
      }
      const u64 c = next_counter_scalar(u64{fin[4][i]} | u64{fin[5][i]} << 32);
      const u32 domain = r == 16 ? 0x14 : 0x15;
      tk1[0][i] = static_cast<u32>(c);
      tk1[1][i] = static_cast<u32>(c >> 32) | domain << 24;
    }
    tbc_array<V>(st, schedule_of(fin), tk1, keep);
    for (size_t i = 0; i < n; ++i)
      for (size_t w = 0; w < 4; ++w) store_le32(tags[i] + 4 * w, g_row(st[w][i]));
    wipe(st, sizeof st);
  }
};

// ---- Romulus-M ----------------------------------------------------------------------------

// Domain bytes of Romulus-M (TK1 byte 7): the MAC's calls over associated data and message,
// and the encryption keyed by the tag.
inline constexpr u32 domain_m_ad = 40;
inline constexpr u32 domain_m_message = 44;
inline constexpr u32 domain_m_crypt = 36;

// The domain byte of the MAC's final call (the core's romulus_m_domain): whether the
// associated data and the message end in a full or a partial block, and their block parity.
inline u32 m_final_domain(size_t ad_len, size_t len) {
  u32 w = 48;
  const size_t a = ad_len % 32, x = len % 32;
  if (ad_len == 0 || (a != 0 && a < 16)) w ^= 2;
  else if (a == 0) w ^= 8;
  else if (a > 16) w ^= 10;
  if (len == 0 || (x != 0 && x < 16)) w ^= 1;
  else if (x == 0) w ^= 4;
  else if (x > 16) w ^= 5;
  return w;
}

// Padded blocks of a stream, an empty one counting as one zero block.
inline size_t m_blocks(size_t len) { return len == 0 ? 1 : (len + 15) / 16; }

// Block b of a job's MAC input: the associated data's padded blocks, then the message's (msg:
// the plaintext, len bytes), an empty stream giving one zero block.
inline void m_block(const aead_desc& d, const u8* msg, size_t b, u32 (&out)[4]) {
  const size_t ad_blocks = m_blocks(d.ad_len);
  const u8* p = b < ad_blocks ? d.ad : msg;
  const size_t len = b < ad_blocks ? d.ad_len : d.len;
  const size_t at = 16 * (b < ad_blocks ? b : b - ad_blocks);
  const size_t left = len - (at < len ? at : len);
  padded_rows(p + (left != 0 ? at : 0), left < 16 ? left : 16, out);
}

// Romulus-M's MAC of n jobs on the whole vectors, msg[i] the plaintext of job i: the blocks of
// associated data and message taken as one sequence, two per call (the first XORed into the
// state, the second as TK2, expanded with the key for the call), a lone last block XORed in,
// then the call under the nonce schedule; tag = G(S), as rows. A job with fewer calls than
// another of its group keeps its state by a lane-wise select.
template <class V>
void m_tags(rows<V::lanes>& tag, const aead_desc* jobs, size_t n, const u8* const* msg,
            const rows<V::lanes>& key, const schedule<V::lanes>& nonce_key) {
  constexpr size_t N = V::lanes;
  alignas(64) rows<N> st = {}, data = {};
  alignas(64) schedule<N> call;
  alignas(64) u32 tk1[2][N] = {}, keep[N] = {};
  size_t blocks[N] = {};
  u64 counter[N];
  size_t most = 0;
  for (size_t i = 0; i < N; ++i) {
    counter[i] = 1;
    if (i >= n) continue;
    blocks[i] = m_blocks(jobs[i].ad_len) + m_blocks(jobs[i].len);
    most = blocks[i] / 2 > most ? blocks[i] / 2 : most;
  }
  u32 x[4], t[4];
  for (size_t p = 0; p < most; ++p) {
    for (size_t i = 0; i < N; ++i) {
      keep[i] = 0;
      if (2 * p + 1 >= blocks[i]) {
        for (size_t w = 0; w < 4; ++w) data[w][i] = 0;
        tk1[0][i] = tk1[1][i] = 0;
        continue;
      }
      const aead_desc& d = jobs[i];
      m_block(d, msg[i], 2 * p, x);
      m_block(d, msg[i], 2 * p + 1, t);
      const u32 domain = 2 * p + 1 < m_blocks(d.ad_len) ? domain_m_ad : domain_m_message;
      take_pair(st, data, tk1, keep, counter[i], i, x, t, domain);
    }
    build_schedule<V>(call, &data, key);
    tbc_array<V>(st, call, tk1, keep);
  }
  for (size_t i = 0; i < N; ++i) {
    keep[i] = ~u32{0};
    tk1[0][i] = tk1[1][i] = 0;
    if (i >= n) continue;
    const aead_desc& d = jobs[i];
    if (blocks[i] % 2 != 0) {
      m_block(d, msg[i], blocks[i] - 1, x);
      for (size_t w = 0; w < 4; ++w) st[w][i] ^= x[w];
      counter[i] = next_counter_scalar(counter[i]);
    }
    tk1[0][i] = static_cast<u32>(counter[i]);
    tk1[1][i] = static_cast<u32>(counter[i] >> 32) | m_final_domain(d.ad_len, d.len) << 24;
  }
  tbc_array<V>(st, nonce_key, tk1, keep);
  for (size_t w = 0; w < 4; ++w)
    for (size_t i = 0; i < N; ++i) tag[w][i] = g_row(st[w][i]);
  wipe(x, sizeof x);
  wipe(t, sizeof t);
  wipe(st, sizeof st);
  wipe(data, sizeof data);
  wipe(call, sizeof call);
}

// Romulus-M is two passes over the message, a MAC and then an encryption keyed by its tag
// (decryption: the other way round). The pass that reads the message whole runs on the
// group's vectors (encryption: in start, over the plaintext; decryption: in finish, over the
// plaintext the lanes wrote), the other in the lanes, with Romulus-N's message steps. A group's
// MAC runs as many calls as its longest job needs, so batches of similar lengths suit it best.
template <class V, bool Decrypt>
struct m_family : message_lanes<V, Decrypt, domain_m_crypt, 4> {
  using base = message_lanes<V, Decrypt, domain_m_crypt, 4>;
  using typename base::states;
  using base::N;
  using base::schedule_of;
  using base::tag_bytes;
  // The tag's four rows (encryption: computed at the start) after the round words.
  static constexpr size_t tag_row = base::extra_row;

  static void load_key(rows<N>& key, const aead_desc* jobs, size_t n) {
    for (size_t i = 0; i < N; ++i)
      for (size_t w = 0; w < 4; ++w) key[w][i] = i < n ? load_le32(jobs[i].key + 4 * w) : 0;
  }

  // The nonce schedule; encryption: the tag (MAC over associated data and plaintext), which
  // keys the encryption; decryption: the given tag. Then S = E(1, 36)(T).
  void start(states& pool, const aead_desc* jobs, size_t m) {
    alignas(64) rows<N> nonce = {}, key, st = {};
    alignas(64) u32 tk1[2][N] = {}, keep[N];
    load_key(key, jobs, m);
    for (size_t i = 0; i < m; ++i)
      for (size_t w = 0; w < 4; ++w) nonce[w][i] = load_le32(jobs[i].nonce + 4 * w);
    build_schedule<V>(schedule_of(pool), &nonce, key);
    rows<N>& tag = *reinterpret_cast<rows<N>*>(&pool[tag_row]);
    if constexpr (Decrypt) {
      for (size_t i = 0; i < m; ++i)
        for (size_t w = 0; w < 4; ++w) tag[w][i] = load_le32(jobs[i].tag + 4 * w);
    } else {
      const u8* msg[N];
      for (size_t i = 0; i < m; ++i) msg[i] = jobs[i].in;
      m_tags<V>(tag, jobs, m, msg, key, schedule_of(pool));
    }
    for (size_t i = 0; i < N; ++i) {
      keep[i] = ~u32{0};
      tk1[0][i] = 1;
      tk1[1][i] = domain_m_crypt << 24;
      for (size_t w = 0; w < 4; ++w) st[w][i] = tag[w][i];
    }
    tbc_array<V>(st, schedule_of(pool), tk1, keep);
    for (size_t i = 0; i < N; ++i) {
      for (size_t w = 0; w < 4; ++w) pool[w][i] = st[w][i];
      pool[4][i] = 1;  // the counter of the first message call
      pool[5][i] = 0;
    }
    wipe(nonce, sizeof nonce);
    wipe(key, sizeof key);
    wipe(st, sizeof st);
  }

  // The queued jobs' last blocks (out = in ^ G(S), no call after them); their tags: the one
  // computed at the start, or (decryption) the MAC over the plaintext now complete.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    for (size_t i = 0; i < n; ++i) {
      const aead_desc& d = jobs[i];
      if (d.len == 0) continue;
      const size_t at = (d.len - 1) / block_bytes * block_bytes, r = d.len - at;
      u32 x[4];
      alignas(8) u8 y[16];
      padded_rows(d.in + at, r, x);
      for (size_t w = 0; w < 4; ++w) store_le32(y + 4 * w, g_row(fin[w][i]) ^ x[w]);
      for (size_t b = 0; b < r; ++b) d.out[at + b] = y[b];
      wipe(x, sizeof x);
      wipe(y, sizeof y);
    }
    const rows<N>* tag = reinterpret_cast<const rows<N>*>(&fin[tag_row]);
    alignas(64) rows<N> macs;
    if constexpr (Decrypt) {
      alignas(64) rows<N> key;
      const u8* msg[N];
      for (size_t i = 0; i < n; ++i) msg[i] = jobs[i].out;
      load_key(key, jobs, n);
      m_tags<V>(macs, jobs, n, msg, key, schedule_of(fin));
      wipe(key, sizeof key);
      tag = &macs;
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t w = 0; w < 4; ++w) store_le32(tags[i] + 4 * w, (*tag)[w][i]);
    wipe(macs, sizeof macs);
  }
};

struct aead_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<aead_family<V, false>, aead_family<V, true>>(t);
  }
};

struct m_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<m_family<V, false>, m_family<V, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::romulus_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <> struct lane_kernel<lwc::romulus::romulus_n> : romulus_lanes::aead_lanes {};
// The portable backend leaves Romulus-M to the core job by job: its four 32-bit lanes measured
// slower than the core's SKINNY code on x86 (docs/performance-batch.md).
#ifndef LWC_BATCH_ROMULUS_M_JOB_BY_JOB
template <> struct lane_kernel<lwc::romulus::romulus_m> : romulus_lanes::m_lanes {};
#endif

}  // namespace lwc::simd::LWC_SIMD_NS::eng
