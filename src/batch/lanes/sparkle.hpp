// SPDX-License-Identifier: MIT OR Apache-2.0
// The SPARKLE family in lanes: the four Schwaemm AEADs and the two Esch hashes, written once
// over a lane_vector32 type V and instantiated by each backend translation unit inside its own
// namespace (LWC_SIMD_NS), through lane_kernels.hpp. V::lanes SPARKLE states are held as 2 NB
// lane vectors, one per 32-bit word in the order of include/lwc/sparkle/sparkle.hpp (x0, y0,
// x1, y1, ...). The permutation (ARX-box Alzette, 32-bit additions) and the modes are restated
// here for V; only the core's parameter structs (branch counts, step counts, digest size) are
// used, as compile-time constants: an inline function of the core compiled in this unit would
// carry its instruction set out of the backend's namespace.
//
// SPARKLE runs two step counts: the slim permutation between the blocks of a message and the
// big one after the key and after the last block of the associated data and of the message.
// Lanes that ran different step counts in one vector step would each wait for the longest, so
// a lane step is one full message block with the slim permutation (Schwaemm: the block in and
// out, rho and the rate whitening; Esch: the block injected), and everything around the big
// permutations runs in groups of V::lanes jobs, each group on the whole vectors:
//  - Schwaemm start: nonce and key, the big permutation, then the associated data block by
//    block, the last block with its domain constant and the big permutation. A job whose
//    associated data has fewer blocks than another's in its group sits out the later steps
//    (a lane-wise select keeps its state). The started states wait in a pool that feeds the
//    lanes.
//  - Schwaemm and Esch finish: the last block of the message (full or padded, its domain
//    constant) by scalar code on the job's state, then the big permutation for the whole group
//    and the tags (the capacity XOR the key) or digests (16 bytes per slim permutation).
// Lengths decide every branch and every index; keys, data and states never do, and a tag
// verdict only selects, by a mask, whether a job's plaintext is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/sparkle/esch.hpp>
#include <lwc/sparkle/schwaemm.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/sparkle.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::sparkle_lanes {

// The round constants, also the Alzette constants of branches 0..7 (SPARKLE specification
// v1.2, section 2.1).
inline constexpr u32 round_constants[8] = {0xb7e15162, 0xbf715880, 0x38b4da56, 0x324e7738,
                                           0xbb1185eb, 0x4f7c7b57, 0xcfbfa1c8, 0xc2b3293d};

// Alzette with constant c on branch (x, y).
template <class V>
LWC_SIMD_INLINE void alzette(V& x, V& y, const V& c) {
  x = x + V::template rotr<31>(y);
  y = y ^ V::template rotr<24>(x);
  x = x ^ c;
  x = x + V::template rotr<17>(y);
  y = y ^ V::template rotr<17>(x);
  x = x ^ c;
  x = x + y;
  y = y ^ V::template rotr<31>(x);
  x = x ^ c;
  x = x + V::template rotr<24>(y);
  y = y ^ V::template rotr<16>(x);
  x = x ^ c;
}

template <class V>
LWC_SIMD_INLINE V ell(const V& x) {
  return V::template rotr<16>(x ^ V::template shl<16>(x));
}

// The XOR of the x (Y = 0) or y (Y = 1) words of the left half's H branches.
template <size_t H, size_t Y, class V>
LWC_SIMD_INLINE V left_sum(const V* w) {
  static_assert(H >= 2 && H <= 4);
  if constexpr (H == 2) return w[Y] ^ w[2 + Y];
  else if constexpr (H == 3) return V::xor3(w[Y], w[2 + Y], w[4 + Y]);
  else return V::xor3(w[Y], w[2 + Y], w[4 + Y]) ^ w[6 + Y];
}

// Step s: the step constants, Alzette on every branch, then the linear layer (a Feistel round
// whose function is ELL of the XOR of the left branches, then the swap of the halves with the
// new left half rotated by one branch).
template <size_t NB, class V>
LWC_SIMD_INLINE void step(V (&w)[2 * NB], size_t s) {
  constexpr size_t h = NB / 2;
  w[1] = w[1] ^ V::set1(round_constants[s % 8]);
  w[3] = w[3] ^ V::set1(static_cast<u32>(s));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
  for (size_t j = 0; j < NB; ++j) alzette(w[2 * j], w[2 * j + 1], V::set1(round_constants[j]));
  const V tx = ell(left_sum<h, 0>(w)), ty = ell(left_sum<h, 1>(w));
  V t[2 * NB];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
  for (size_t i = 0; i < h; ++i) {
    const size_t to = 2 * ((i + h - 1) % h);
    t[to] = V::xor3(w[2 * (i + h)], w[2 * i], ty);
    t[to + 1] = V::xor3(w[2 * (i + h) + 1], w[2 * i + 1], tx);
    t[2 * (i + h)] = w[2 * i];
    t[2 * (i + h) + 1] = w[2 * i + 1];
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
  for (size_t i = 0; i < 2 * NB; ++i) w[i] = t[i];
}

// Steps First .. Last - 1 of SPARKLE with NB branches: 0 .. slim is the slim permutation,
// 0 .. big the big one, slim .. big what the big one adds to the slim one.
template <size_t NB, size_t First, size_t Last, class V>
LWC_SIMD_INLINE void permute(V (&w)[2 * NB]) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 1
#endif
  for (size_t s = First; s < Last; ++s) step<NB>(w, s);
}

// States of V::lanes jobs in memory, word by word: s[w][j] is word w of lane j.
template <size_t NB, class V>
using state_array = u32[2 * NB][V::lanes];

template <size_t NB, class V>
LWC_SIMD_INLINE void load_state(V (&x)[2 * NB], const state_array<NB, V>& s) {
  for (size_t w = 0; w < 2 * NB; ++w) x[w] = V::load(s[w]);
}
template <size_t NB, class V>
LWC_SIMD_INLINE void store_state(const V (&x)[2 * NB], state_array<NB, V>& s) {
  for (size_t w = 0; w < 2 * NB; ++w) x[w].store(s[w]);
}
// Outside the lane steps (the groups' starts and finishes) the permutation runs on states in
// memory through one out-of-line copy per vector type and step range, which the variants with
// the same branch count share. Inlined at each of those calls in every engine, the fully
// unrolled copies made a backend unit take minutes to compile under the sanitizers; a call per
// group costs nothing measurable.
template <size_t NB, size_t First, size_t Last, class V>
LWC_SIMD_NOINLINE void permute_array(state_array<NB, V>& s) {
  V x[2 * NB];
  load_state<NB>(x, s);
  permute<NB, First, Last>(x);
  store_state<NB>(x, s);
}
// s, with the lanes whose mask word is all-ones replaced by t.
template <size_t NB, class V>
LWC_SIMD_INLINE void select_lanes(state_array<NB, V>& s, const state_array<NB, V>& t,
                                  const V& mask) {
  for (size_t w = 0; w < 2 * NB; ++w) V::select(mask, V::load(t[w]), V::load(s[w])).store(s[w]);
}

// Lane j's state as word32 values, for the scalar code that finishes a job.
template <size_t NB, class V>
LWC_SIMD_INLINE void lane_state(word32 (&s)[2 * NB], const state_array<NB, V>& a, size_t j) {
  for (size_t w = 0; w < 2 * NB; ++w) s[w] = {a[w][j]};
}

// ---- Schwaemm -------------------------------------------------------------------------------

// Rho1 (the Feistel swap of the rate, then the data block d XORed in) and the rate whitening
// (each rate branch gets a capacity branch added, cycling through the capacity), in one pass:
// W is a lane vector or word32.
template <size_t RB, size_t CB, class W>
LWC_SIMD_INLINE void rho_whiten(W* w, const W* d) {
  constexpr size_t rate_words = 2 * RB;
  const auto cap = [&](size_t k) -> const W& { return w[rate_words + 2 * ((k / 2) % CB) + k % 2]; };
  W n[rate_words];
  for (size_t i = 0; i < RB; ++i) {
    n[i] = W::xor3(w[i + RB], d[i], cap(i));
    n[i + RB] = W::xor3(w[i + RB], w[i], d[i + RB]) ^ cap(i + RB);
  }
  for (size_t k = 0; k < rate_words; ++k) w[k] = n[k];
}

// A group's start (with its associated data) and the tags do not depend on the direction: kept
// out of line in a base of both families, they are compiled once per backend, not twice. P is
// the core's schwaemm_params (rate and capacity in branches, slim and big step counts).
template <class V, class P>
struct schwaemm_ends {
  static constexpr size_t N = V::lanes;
  static constexpr size_t nb = P::branches, rb = P::rate_branches, cb = P::cap_branches;
  static constexpr size_t words = 2 * nb, rate_words = 2 * rb, cap_words = 2 * cb;
  static constexpr size_t rate_bytes = 4 * rate_words, cap_bytes = 4 * cap_words;
  static constexpr size_t tag_bytes = cap_bytes;
  static constexpr size_t slim = P::slim, big = P::big;
  using states = state_array<nb, V>;

  // The domain constants, XORed into the last word before the last block of the associated
  // data (0: padded, 1: full) and of the message (2, 3).
  static constexpr u32 domain(u32 c) { return (c ^ (u32{1} << cb)) << 24; }

  // The group's start on the whole vectors: nonce and key, the big permutation, then the
  // associated data block by block.
  LWC_SIMD_NOINLINE void start(states& pool, const aead_desc* jobs, size_t m) {
    size_t blocks[N] = {};
    size_t most = 0;
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      for (size_t w = 0; w < rate_words; ++w) pool[w][i] = load_le32(d.nonce + 4 * w);
      for (size_t w = 0; w < cap_words; ++w) pool[rate_words + w][i] = load_le32(d.key + 4 * w);
      blocks[i] = (d.ad_len + rate_bytes - 1) / rate_bytes;
      most = blocks[i] > most ? blocks[i] : most;
    }
    permute_array<nb, 0, big, V>(pool);
    for (size_t b = 0; b < most; ++b) absorb_block(pool, jobs, b, blocks, m);
  }

  // Block b of every started job's associated data: rho and whitening, then the slim
  // permutation, or for the last block its domain constant first and the big permutation
  // after. Jobs with fewer blocks keep their state.
  void absorb_block(states& pool, const aead_desc* jobs, size_t b, const size_t (&blocks)[N],
                    size_t m) {
    const u8* src[N];
    alignas(64) u32 takes[N], last[N], constant[N];
    bool any_last = false;
    for (size_t i = 0; i < N; ++i) {
      src[i] = zero_;
      takes[i] = last[i] = constant[i] = 0;
      if (i >= m || b >= blocks[i]) continue;
      const aead_desc& d = jobs[i];
      const size_t at = b * rate_bytes, left = d.ad_len - at;
      takes[i] = ~u32{0};
      if (left >= rate_bytes) src[i] = d.ad + at;
      if (left > rate_bytes) continue;
      last[i] = ~u32{0};
      any_last = true;
      if (left == rate_bytes) {
        constant[i] = domain(1);
      } else {
        std::memset(stage_[i], 0, rate_bytes);
        std::memcpy(stage_[i], d.ad + at, left);
        stage_[i][left] = 0x80;
        src[i] = stage_[i];
        constant[i] = domain(0);
      }
    }
    alignas(64) states t;
    {
      V y[words];
      load_state<nb>(y, pool);
      y[words - 1] = y[words - 1] ^ V::load(constant);
      V in[rate_words];
      V::load_blocks(src, 0, in);
      rho_whiten<rb, cb>(y, in);
      store_state<nb>(y, t);
    }
    permute_array<nb, 0, slim, V>(t);
    select_lanes<nb, V>(pool, t, V::load(takes));
    if (any_last) {
      std::memcpy(t, pool, sizeof t);
      permute_array<nb, slim, big, V>(t);
      select_lanes<nb, V>(pool, t, V::load(last));
    }
    wipe(t, sizeof t);
  }

  // The tags, the capacity XOR the key: an empty message has no block and no permutation, so
  // its tag comes from the state as queued; the others' after the big permutation.
  LWC_SIMD_NOINLINE void finish(states& fin, const aead_desc* jobs, size_t n,
                                u8 (&tags)[N][tag_bytes]) {
    for (size_t i = 0; i < n; ++i)
      if (jobs[i].len == 0) tag_of(fin, i, jobs[i], tags[i]);
    permute_array<nb, 0, big, V>(fin);
    for (size_t i = 0; i < n; ++i)
      if (jobs[i].len != 0) tag_of(fin, i, jobs[i], tags[i]);
  }
  static void tag_of(const states& fin, size_t i, const aead_desc& d, u8 (&tag)[tag_bytes]) {
    for (size_t w = 0; w < cap_words; ++w)
      store_le32(tag + 4 * w, fin[rate_words + w][i] ^ load_le32(d.key + 4 * w));
  }

  void wipe_scratch() { wipe(stage_, sizeof stage_); }

  alignas(64) u8 stage_[N][rate_bytes];
  alignas(64) u8 zero_[rate_bytes] = {};
};

// The family's part of the lane engine (engine.hpp).
template <class V, class P, bool Decrypt>
struct schwaemm_family : schwaemm_ends<V, P> {
  using ends = schwaemm_ends<V, P>;
  using ends::N, ends::nb, ends::rb, ends::cb, ends::words, ends::rate_words,
      ends::rate_bytes, ends::tag_bytes, ends::slim, ends::domain;
  using typename ends::states;
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t rate = rate_bytes, out_rate = rate_bytes;
  static constexpr bool decrypt = Decrypt;

  // A job's message blocks but the last go through the lanes.
  static u64 lane_steps(const aead_desc& d) {
    return d.len > rate_bytes ? (d.len - 1) / rate_bytes : 0;
  }

  // k message blocks on every lane: the other text is the block XOR the rate, the plaintext
  // goes through rho and the whitening, then the slim permutation.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src,
                             u8* const* dst, u64 k, const Cursors& cur) {
    for (size_t off = 0; off < k * rate_bytes; off += rate_bytes) {
      cur.prefetch(off);
      V in[rate_words], out[rate_words];
      V::load_blocks(src, off, in);
      for (size_t w = 0; w < rate_words; ++w) out[w] = in[w] ^ x[w];
      V::store_blocks(dst, off, out);
      rho_whiten<rb, cb>(x, Decrypt ? out : in);
      permute<nb, 0, slim>(x);
    }
  }

  // A queued job has its last message block left, or no message at all: the last block goes
  // in here, by scalar code, before the big permutation.
  void queued(states& fin, size_t q, size_t, const aead_desc& d) {
    if (d.len == 0) return;
    word32 s[words];
    lane_state<nb, V>(s, fin, q);
    const size_t done = (d.len - 1) / rate_bytes * rate_bytes, r = d.len - done;
    s[words - 1].v ^= domain(r == rate_bytes ? 3 : 2);
    alignas(8) u8 buf[rate_bytes] = {};
    std::memcpy(buf, d.in + done, r);
    word32 in[rate_words], out[rate_words];
    for (size_t w = 0; w < rate_words; ++w) {
      in[w] = {load_le32(buf + 4 * w)};
      out[w] = in[w] ^ s[w];
      store_le32(buf + 4 * w, out[w].v);
    }
    std::memcpy(d.out + done, buf, r);
    // The block that goes in is the plaintext, padded with 0x80 then zeros when short.
    if constexpr (Decrypt) {
      std::memset(buf + r, 0, rate_bytes - r);
      for (size_t w = 0; w < rate_words; ++w) in[w] = {load_le32(buf + 4 * w)};
    }
    if (r < rate_bytes) in[r / 4].v ^= u32{0x80} << (8 * (r % 4));
    rho_whiten<rb, cb>(s, in);
    for (size_t w = 0; w < words; ++w) fin[w][q] = s[w].v;
    wipe(buf, sizeof buf);
    wipe(in, sizeof in);
    wipe(out, sizeof out);
    wipe(s, sizeof s);
  }
};

// ---- Esch -----------------------------------------------------------------------------------

inline constexpr size_t esch_rate = 16;

// The block m0..m3 through the linear Feistel map, XORed into the left half: W is a lane
// vector or word32.
template <size_t NB, class W>
LWC_SIMD_INLINE void inject(W* w, const W* m) {
  const W tx = ell(m[0] ^ m[2]), ty = ell(m[1] ^ m[3]);
  w[0] = W::xor3(w[0], m[0], ty);
  w[1] = W::xor3(w[1], m[1], tx);
  w[2] = W::xor3(w[2], m[2], ty);
  w[3] = W::xor3(w[3], m[3], tx);
  for (size_t i = 2; i < NB / 2; ++i) {
    w[2 * i] = w[2 * i] ^ ty;
    w[2 * i + 1] = w[2 * i + 1] ^ tx;
  }
}

// The family's part of the lane engine (engine.hpp). P is the core's esch_params (branches,
// slim and big step counts, digest size). A job starts from the empty state (the engine's
// zeros).
template <class V, class P>
struct esch_family {
  using vector = V;
  using word = u32;
  using task = sponge_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t nb = P::branches, words = 2 * nb;
  static constexpr size_t rate = esch_rate, out_rate = 0;
  static constexpr size_t slim = P::slim, big = P::big;
  using states = state_array<nb, V>;

  // A job's blocks but the last go through the lanes.
  static u64 lane_steps(const sponge_desc& d) {
    return d.len > esch_rate ? (d.len - 1) / esch_rate : 0;
  }

  // k blocks on every lane: injected, then the slim permutation.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const*, u64 k,
                             const Cursors& cur) {
    for (size_t off = 0; off < k * esch_rate; off += esch_rate) {
      cur.prefetch_input(off);
      V in[4];
      V::load_blocks(src, off, in);
      inject<nb>(x, in);
      permute<nb, 0, slim>(x);
    }
  }

  void start(states&, const sponge_desc*, size_t) {}

  // A queued job has its last block left (full, partial or empty): its constant (M1 padded,
  // M2 full) in the last word of the left half, and the block injected.
  void queued(states& fin, size_t q, size_t, const sponge_desc& d) {
    word32 s[words];
    lane_state<nb, V>(s, fin, q);
    const size_t done = d.len == 0 ? 0 : (d.len - 1) / esch_rate * esch_rate, r = d.len - done;
    s[nb - 1].v ^= (r < esch_rate ? 1u : 2u) << 24;
    alignas(8) u8 buf[esch_rate] = {};
    if (r != 0) std::memcpy(buf, d.in + done, r);
    if (r < esch_rate) buf[r] = 0x80;
    word32 m[4];
    for (size_t w = 0; w < 4; ++w) m[w] = {load_le32(buf + 4 * w)};
    inject<nb>(s, m);
    for (size_t w = 0; w < words; ++w) fin[w][q] = s[w].v;
    wipe(buf, sizeof buf);
    wipe(m, sizeof m);
    wipe(s, sizeof s);
  }

  // The big permutation on the queued states, then the digests: 16 bytes (the first four
  // words) per slim permutation.
  void finish(states& fin, const sponge_desc* jobs, size_t n) {
    permute_array<nb, 0, big, V>(fin);
    for (size_t done = 0;;) {
      bool more = false;
      for (size_t i = 0; i < n; ++i) {
        const sponge_desc& d = jobs[i];
        for (size_t b = done; b < d.out_len && b < done + esch_rate; ++b)
          d.out[b] = static_cast<u8>(fin[(b - done) / 4][i] >> (8 * (b % 4)));
        more |= d.out_len > done + esch_rate;
      }
      if (!more) break;
      done += esch_rate;
      permute_array<nb, 0, slim, V>(fin);
    }
  }
};

// ---- the lane kernels of the SPARKLE algorithms ----------------------------------------------

template <class Traits>
struct schwaemm_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    using P = typename Traits::params;
    run_aead_lanes<schwaemm_family<V, P, false>, schwaemm_family<V, P, true>>(t);
  }
};
template <class Traits>
struct esch_lanes {
  template <lane_vector32 V>
  static void sponge(const sponge_task& t) {
    run_sponge_lanes<esch_family<V, typename Traits::params>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::sparkle_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

namespace sd = lwc::sparkle::detail;
template <> struct lane_kernel<lwc::sparkle::schwaemm256_128> : sparkle_lanes::schwaemm_lanes<sd::schwaemm256_128_traits> {};
template <> struct lane_kernel<lwc::sparkle::schwaemm192_192> : sparkle_lanes::schwaemm_lanes<sd::schwaemm192_192_traits> {};
template <> struct lane_kernel<lwc::sparkle::schwaemm128_128> : sparkle_lanes::schwaemm_lanes<sd::schwaemm128_128_traits> {};
template <> struct lane_kernel<lwc::sparkle::schwaemm256_256> : sparkle_lanes::schwaemm_lanes<sd::schwaemm256_256_traits> {};
template <> struct lane_kernel<lwc::sparkle::esch256> : sparkle_lanes::esch_lanes<sd::esch256_traits> {};
template <> struct lane_kernel<lwc::sparkle::esch384> : sparkle_lanes::esch_lanes<sd::esch384_traits> {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
