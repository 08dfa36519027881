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
#include "scheduler.hpp"

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

// P is the core's schwaemm_params (rate and capacity in branches, slim and big step counts).
template <class V, class P, bool Decrypt>
class schwaemm_engine : public lane_scheduler<schwaemm_engine<V, P, Decrypt>> {
  friend class lane_scheduler<schwaemm_engine>;
  static constexpr size_t N = V::lanes;
  static constexpr size_t nb = P::branches, rb = P::rate_branches, cb = P::cap_branches;
  static constexpr size_t words = 2 * nb, rate_words = 2 * rb, cap_words = 2 * cb;
  static constexpr size_t rate_bytes = 4 * rate_words, cap_bytes = 4 * cap_words;
  static constexpr size_t slim = P::slim, big = P::big;
  using states = state_array<nb, V>;

  // The domain constants, XORed into the last word before the last block of the associated
  // data (0: padded, 1: full) and of the message (2, 3).
  static constexpr u32 domain(u32 c) { return (c ^ (u32{1} << cb)) << 24; }

 public:
  explicit schwaemm_engine(const aead_task& t) : t_(t) {}
  schwaemm_engine(const schwaemm_engine&) = delete;
  schwaemm_engine& operator=(const schwaemm_engine&) = delete;
  ~schwaemm_engine() {
    wipe(x_, sizeof x_);
    wipe(spill_, sizeof spill_);
    wipe(pool_, sizeof pool_);
    wipe(fin_, sizeof fin_);
    wipe(stage_, sizeof stage_);
    wipe(cur_.sink, sizeof cur_.sink);
  }

  using lane_scheduler<schwaemm_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    load_state<nb>(x_, spill_);
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  // A job has one segment in the lanes: its message blocks but the last.
  bool next_segment(size_t) { return false; }
  void spill() { store_state<nb>(x_, spill_); }
  void reload() { load_state<nb>(x_, spill_); }
  void after_refills() {}
  void end() {
    if (fin_n_ != 0) finish_group();
  }

  // k message blocks on every lane: the other text is the block XOR the rate, the plaintext
  // goes through rho and the whitening, then the slim permutation.
  void steps(u64 k) {
    V x[words];
    for (size_t w = 0; w < words; ++w) x[w] = x_[w];
    const u8* src[N];
    u8* dst[N];
    for (size_t j = 0; j < N; ++j) {
      src[j] = cur_.src_ptr(j);
      dst[j] = cur_.dst_ptr(j);
    }
    for (size_t off = 0; off < k * rate_bytes; off += rate_bytes) {
      cur_.prefetch(off);
      V in[rate_words], out[rate_words];
      V::load_blocks(src, off, in);
      for (size_t w = 0; w < rate_words; ++w) out[w] = in[w] ^ x[w];
      V::store_blocks(dst, off, out);
      rho_whiten<rb, cb>(x, Decrypt ? out : in);
      permute<nb, 0, slim>(x);
    }
    for (size_t w = 0; w < words; ++w) x_[w] = x[w];
  }

  // Gives lane j the next started job, starting a group when the pool is empty; a job with
  // one message block or none goes straight to its finish. Leaves the lane idle when the
  // batch has no job left.
  void start_lane(size_t j) {
    for (;;) {
      if (pool_i_ == pool_n_ && !start_group()) {
        cur_.idle(j);
        active_ -= busy_[j];
        busy_[j] = false;
        return;
      }
      const size_t p = pool_i_++;
      for (size_t w = 0; w < words; ++w) spill_[w][j] = pool_[w][p];
      const aead_desc& d = job_[j] = pool_job_[p];
      if (d.len > rate_bytes) {
        cur_.set(j, d.in, d.out, (d.len - 1) / rate_bytes);
        active_ += !busy_[j];
        busy_[j] = true;
        return;
      }
      finish_lane(j);
    }
  }

  // Claims up to N jobs and runs their start on the whole vectors.
  bool start_group() {
    size_t first = 0;
    const size_t m = t_.claim(t_.claim_ctx, N, &first);
    if (m == 0) return false;
    t_.fetch(t_.ctx, first, m, pool_job_);
    size_t blocks[N] = {};
    size_t most = 0;
    for (size_t i = 0; i < N; ++i) {
      if (i >= m) {
        for (size_t w = 0; w < words; ++w) pool_[w][i] = 0;
        continue;
      }
      const aead_desc& d = pool_job_[i];
      for (size_t w = 0; w < rate_words; ++w) pool_[w][i] = load_le32(d.nonce + 4 * w);
      for (size_t w = 0; w < cap_words; ++w) pool_[rate_words + w][i] = load_le32(d.key + 4 * w);
      blocks[i] = (d.ad_len + rate_bytes - 1) / rate_bytes;
      most = blocks[i] > most ? blocks[i] : most;
    }
    permute_array<nb, 0, big, V>(pool_);
    for (size_t b = 0; b < most; ++b) absorb_block(b, blocks, m);
    pool_n_ = m;
    pool_i_ = 0;
    return true;
  }

  // Block b of every pooled job's associated data: rho and whitening, then the slim
  // permutation, or for the last block its domain constant first and the big permutation
  // after. Jobs with fewer blocks keep their state.
  void absorb_block(size_t b, const size_t (&blocks)[N], size_t m) {
    const u8* src[N];
    alignas(64) u32 takes[N], last[N], constant[N];
    bool any_last = false;
    for (size_t i = 0; i < N; ++i) {
      src[i] = cur_.zero;
      takes[i] = last[i] = constant[i] = 0;
      if (i >= m || b >= blocks[i]) continue;
      const aead_desc& d = pool_job_[i];
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
      load_state<nb>(y, pool_);
      y[words - 1] = y[words - 1] ^ V::load(constant);
      V in[rate_words];
      V::load_blocks(src, 0, in);
      rho_whiten<rb, cb>(y, in);
      store_state<nb>(y, t);
    }
    permute_array<nb, 0, slim, V>(t);
    select_lanes<nb, V>(pool_, t, V::load(takes));
    if (any_last) {
      std::memcpy(t, pool_, sizeof t);
      permute_array<nb, slim, big, V>(t);
      select_lanes<nb, V>(pool_, t, V::load(last));
    }
    wipe(t, sizeof t);
  }

  // Lane j's job has its last message block left (its state in spill_), or no message at all:
  // the last block goes in here, by scalar code, and the job waits for the big permutation.
  // An empty message has no block and no permutation: its tag is ready.
  void finish_lane(size_t j) {
    const aead_desc& d = job_[j];
    word32 s[words];
    lane_state<nb, V>(s, spill_, j);
    if (d.len == 0) {
      emit_tag(d, s);
      wipe(s, sizeof s);
      return;
    }
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
    const size_t q = fin_n_;
    for (size_t w = 0; w < words; ++w) fin_[w][q] = s[w].v;
    fin_job_[q] = d;
    wipe(buf, sizeof buf);
    wipe(in, sizeof in);
    wipe(out, sizeof out);
    wipe(s, sizeof s);
    if (++fin_n_ == N) finish_group();
  }

  // The big permutation on the queued states, then their tags.
  void finish_group() {
    permute_array<nb, 0, big, V>(fin_);
    for (size_t i = 0; i < fin_n_; ++i) {
      word32 s[words];
      lane_state<nb, V>(s, fin_, i);
      emit_tag(fin_job_[i], s);
      wipe(s, sizeof s);
    }
    fin_n_ = 0;
  }

  // The tag is the capacity XOR the key: written, or compared in constant time (all tag_len
  // bytes, whatever their values).
  void emit_tag(const aead_desc& d, const word32 (&s)[words]) {
    alignas(8) u8 tag[cap_bytes];
    for (size_t w = 0; w < cap_words; ++w)
      store_le32(tag + 4 * w, s[rate_words + w].v ^ load_le32(d.key + 4 * w));
    const size_t len = t_.tag_len;
    if constexpr (Decrypt) {
      u32 diff = 0;
      for (size_t b = 0; b < len; ++b) diff |= static_cast<u32>(tag[b] ^ d.tag[b]);
      const u8 ok = static_cast<u8>(((diff - 1) >> 8) & 1);  // 1 exactly when diff == 0
      t_.ok[d.index] = ok;
      // A rejected plaintext is zeroed by a mask, not behind a branch: the verdict is public,
      // but it comes from the key, and a branch on it is what the constant-time check flags.
      keep_or_zero(d.out, d.len, static_cast<u8>(0 - ok));
    } else {
      std::memcpy(d.tag, tag, len);
    }
    wipe(tag, sizeof tag);
  }

  const aead_task& t_;
  V x_[words];
  alignas(64) states spill_;
  lane_cursors<N, rate_bytes> cur_;
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  aead_desc job_[N];

  alignas(64) states pool_ = {};
  aead_desc pool_job_[N];
  size_t pool_n_ = 0, pool_i_ = 0;
  alignas(64) u8 stage_[N][rate_bytes];

  alignas(64) states fin_ = {};
  aead_desc fin_job_[N];
  size_t fin_n_ = 0;
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

// P is the core's esch_params (branches, slim and big step counts, digest size).
template <class V, class P>
class esch_engine : public lane_scheduler<esch_engine<V, P>> {
  friend class lane_scheduler<esch_engine>;
  static constexpr size_t N = V::lanes;
  static constexpr size_t nb = P::branches, words = 2 * nb;
  static constexpr size_t slim = P::slim, big = P::big;
  using states = state_array<nb, V>;

 public:
  explicit esch_engine(const sponge_task& t) : t_(t) {}
  esch_engine(const esch_engine&) = delete;
  esch_engine& operator=(const esch_engine&) = delete;
  // The input is the caller's, not a key, but the states hold it: wiped like an AEAD's.
  ~esch_engine() {
    wipe(x_, sizeof x_);
    wipe(spill_, sizeof spill_);
    wipe(fin_, sizeof fin_);
  }

  using lane_scheduler<esch_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    load_state<nb>(x_, spill_);
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  // A job has one segment in the lanes: its blocks but the last.
  bool next_segment(size_t) { return false; }
  void spill() { store_state<nb>(x_, spill_); }
  void reload() { load_state<nb>(x_, spill_); }
  void after_refills() {}
  void end() {
    if (fin_n_ != 0) finish_group();
  }

  // k blocks on every lane: injected, then the slim permutation.
  void steps(u64 k) {
    V x[words];
    for (size_t w = 0; w < words; ++w) x[w] = x_[w];
    const u8* src[N];
    for (size_t j = 0; j < N; ++j) src[j] = cur_.src_ptr(j);
    for (size_t off = 0; off < k * esch_rate; off += esch_rate) {
      cur_.prefetch_input(off);
      V in[4];
      V::load_blocks(src, off, in);
      inject<nb>(x, in);
      permute<nb, 0, slim>(x);
    }
    for (size_t w = 0; w < words; ++w) x_[w] = x[w];
  }

  // Gives lane j the next job, from the empty state; a job of one block or none goes straight
  // to its finish.
  void start_lane(size_t j) {
    for (;;) {
      if (pend_i_ == pend_n_) {
        size_t first = 0;
        pend_n_ = t_.claim(t_.claim_ctx, N, &first);
        pend_i_ = 0;
        if (pend_n_ == 0) {
          cur_.idle(j);
          active_ -= busy_[j];
          busy_[j] = false;
          return;
        }
        t_.fetch(t_.ctx, first, pend_n_, pend_);
      }
      const sponge_desc& d = job_[j] = pend_[pend_i_++];
      for (size_t w = 0; w < words; ++w) spill_[w][j] = 0;
      if (d.len > esch_rate) {
        cur_.set(j, d.in, nullptr, (d.len - 1) / esch_rate);
        active_ += !busy_[j];
        busy_[j] = true;
        return;
      }
      finish_lane(j);
    }
  }

  // Lane j's job has its last block left (full, partial or empty): its constant (M1 padded,
  // M2 full) in the last word of the left half, the block injected, and the job queued for
  // the big permutation.
  void finish_lane(size_t j) {
    const sponge_desc& d = job_[j];
    word32 s[words];
    lane_state<nb, V>(s, spill_, j);
    const size_t done = d.len == 0 ? 0 : (d.len - 1) / esch_rate * esch_rate, r = d.len - done;
    s[nb - 1].v ^= (r < esch_rate ? 1u : 2u) << 24;
    alignas(8) u8 buf[esch_rate] = {};
    if (r != 0) std::memcpy(buf, d.in + done, r);
    if (r < esch_rate) buf[r] = 0x80;
    word32 m[4];
    for (size_t w = 0; w < 4; ++w) m[w] = {load_le32(buf + 4 * w)};
    inject<nb>(s, m);
    const size_t q = fin_n_;
    for (size_t w = 0; w < words; ++w) fin_[w][q] = s[w].v;
    fin_job_[q] = d;
    wipe(buf, sizeof buf);
    wipe(m, sizeof m);
    wipe(s, sizeof s);
    if (++fin_n_ == N) finish_group();
  }

  // The big permutation on the queued states, then the digests: 16 bytes (the first four
  // words) per slim permutation.
  void finish_group() {
    const size_t n = fin_n_;
    permute_array<nb, 0, big, V>(fin_);
    for (size_t done = 0;;) {
      bool more = false;
      for (size_t i = 0; i < n; ++i) {
        const sponge_desc& d = fin_job_[i];
        for (size_t b = done; b < d.out_len && b < done + esch_rate; ++b)
          d.out[b] = static_cast<u8>(fin_[(b - done) / 4][i] >> (8 * (b % 4)));
        more |= d.out_len > done + esch_rate;
      }
      if (!more) break;
      done += esch_rate;
      permute_array<nb, 0, slim, V>(fin_);
    }
    fin_n_ = 0;
  }

  const sponge_task& t_;
  V x_[words];
  alignas(64) states spill_;
  lane_cursors<N, esch_rate> cur_;
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  sponge_desc job_[N];
  sponge_desc pend_[N];
  size_t pend_n_ = 0, pend_i_ = 0;

  alignas(64) states fin_ = {};
  sponge_desc fin_job_[N];
  size_t fin_n_ = 0;
};

// ---- the lane kernels of the SPARKLE algorithms ----------------------------------------------

template <class Traits>
struct schwaemm_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    using P = typename Traits::params;
    if (t.decrypt) {
      schwaemm_engine<V, P, true> e(t);
      e.run();
    } else {
      schwaemm_engine<V, P, false> e(t);
      e.run();
    }
  }
};
template <class Traits>
struct esch_lanes {
  template <lane_vector32 V>
  static void sponge(const sponge_task& t) {
    esch_engine<V, typename Traits::params> e(t);
    e.run();
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
