// SPDX-License-Identifier: MIT OR Apache-2.0
// The Ascon lane kernels (AEADs with 16-byte nonces, every hash, XOF, CXOF, MAC and PRF), written
// once over a lane-vector type V and instantiated by each backend translation unit inside its own
// namespace (LWC_SIMD_NS), through lane_kernels.hpp. V::lanes states are held as five lane vectors;
// every step absorbs one full block into every lane and runs the mode's block permutation on all of
// them. Each lane follows its own job: when a lane's job has no full block left, the lane is
// refilled at once with the next job, so a batch of mixed lengths keeps the lanes busy.
//
// The 12-round permutations that begin and end an AEAD job (initialization, finalization)
// do not fit the per-block step, which runs p^8 or p^6. They run in batches of V::lanes jobs
// instead: a pool of initialized states feeds the refills, and finished jobs wait in a queue
// until V::lanes of them can be finalized together. The partial block at the end of a message
// is absorbed once per job by scalar code; short associated data and short hash inputs are
// copied, padded, into a per-lane area and absorbed from there like any other blocks.
//
// The byte mapping, IV, rate and round counts come from the core's parameter structs
// (include/lwc/ascon/aead.hpp, hash.hpp, mac.hpp), so the results equal the single-message
// code. Only those structs' compile-time constants are used here: no inline function of the
// core is called, so nothing compiled with this unit's instruction set escapes its namespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <lwc/ascon/aead.hpp>
#include <lwc/ascon/hash.hpp>
#include <lwc/ascon/mac.hpp>

#include "../../simd/permute_lanes.hpp"
#include "../backend.hpp"
#include "ascon_state.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/ascon.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS {

using lwc::batch::detail::aead_desc;
using lwc::batch::detail::aead_task;
using lwc::batch::detail::sponge_desc;
using lwc::batch::detail::sponge_task;

namespace eng {

using std::size_t;
using u8 = std::uint8_t;
using u64 = std::uint64_t;

template <class Params>
inline constexpr bool big_endian_v =
    std::is_same_v<typename Params::lanes, lwc::ascon::big_endian_lanes>;

// ---- AEAD -----------------------------------------------------------------------------------

// The family's part of the lane engine (engine.hpp). Params is one of the core's aead_params
// (aead128_traits, v12_128_traits, ...).
template <class V, class Params, bool Decrypt>
struct aead_family {
  using vector = V;
  using word = u64;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 5;
  using states = u64[5][N];
  static constexpr size_t rate = Params::rate, out_rate = Params::rate;
  static constexpr size_t tag_bytes = 16;
  static constexpr bool decrypt = Decrypt;
  static constexpr size_t W = rate / 8;  // state words per block
  static constexpr bool be = big_endian_v<Params>;
  static constexpr bool pq = Params::key_size == 20;
  static constexpr u64 dsep = Params::lanes::dsep;
  static_assert(rate == 8 || rate == 16);

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_done };

  struct key_words {
    u64 k0, k1, k2;
  };

  // Domain separation of the lanes that entered their message in this round.
  void after_refills(V (&x)[words], const states&) {
    if (!any_dsep_) return;
    x[4] = x[4] ^ V::load(dsep_);
    std::memset(dsep_, 0, sizeof dsep_);
    any_dsep_ = false;
  }

  // k steps: absorb one block per lane (emitting ciphertext or plaintext), permute.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    // Decryption replaces the rate with the ciphertext; lanes still absorbing associated
    // data XOR it in instead: keep is all-ones on those lanes.
    [[maybe_unused]] const V keep = V::load(keep_);
    // Each step's blocks are loaded one step early, before the permutation that precedes
    // their use. Loaded at the top of their own step, they could only start once the
    // out-of-order core had room past most of the previous p^8 (about 50 vector instructions
    // per round on sixteen lanes), and the vector units then waited for them. Measured on an
    // AMD Zen 4 at 1 KiB: 4-7 % faster in the caches, 1-2 % with a 16 MiB batch
    // (docs/performance-batch.md, "Loading a step ahead").
    const size_t end = k * rate;
    V next[W];
    if (end != 0) V::template load_blocks<be>(src, 0, next);
    for (size_t off = 0; off < end; off += rate) {
      cur.prefetch(off);
      V in[W], out[W];
      for (size_t w = 0; w < W; ++w) in[w] = next[w];
      if (off + rate < end) V::template load_blocks<be>(src, off + rate, next);
      for (size_t w = 0; w < W; ++w) {
        if constexpr (Decrypt) {
          out[w] = x[w] ^ in[w];
          x[w] = V::and_xor(x[w], keep, in[w]);
        } else {
          x[w] = x[w] ^ in[w];
          out[w] = x[w];
        }
      }
      V::template store_blocks<be>(dst, off, out);
      permute<Params::rounds>(x);
    }
  }

  // Points lane j at the first non-empty segment from its first or next one on; false when
  // the job has no full block left (its tail and finalization remain).
  template <class Cursors>
  bool enter(size_t j, const aead_desc& d, Cursors& cur, bool first) {
    seg_[j] = first ? seg_ad : static_cast<segment>(seg_[j] + 1);
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          // Long associated data: its full blocks straight from the caller's buffer.
          if (d.ad_len >= stage_bytes) {
            cur.set(j, d.ad, nullptr, d.ad_len / rate);
            keep_[j] = ~u64{0};
            return true;
          }
          break;
        case seg_ad_last:
          // Short associated data whole, or the partial end of a long one, with its padding.
          if (d.ad_len != 0) {
            const size_t tail = d.ad_len < stage_bytes ? d.ad_len : d.ad_len % rate;
            stage<be>(stage_[j], d.ad + (d.ad_len - tail), tail);
            cur.set(j, stage_[j], nullptr, tail / rate + 1);
            keep_[j] = ~u64{0};
            return true;
          }
          break;
        case seg_msg:
          // Domain separation after the associated data; without any, the group's start did
          // it.
          if (d.ad_len != 0) {
            dsep_[j] = dsep;
            any_dsep_ = true;
          }
          if (d.len >= rate) {
            cur.set(j, d.in, d.out, d.len / rate);
            keep_[j] = 0;
            return true;
          }
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }
  void idle(size_t j) { keep_[j] = ~u64{0}; }

  LWC_SIMD_INLINE static key_words load_key(const u8* key) {
    if constexpr (pq)
      return {load_bytes<be>(key, 4) >> 32, load_word<be>(key + 4), load_word<be>(key + 12)};
    else
      return {0, load_word<be>(key), load_word<be>(key + 8)};
  }

  // The group's initialization: state = IV, key, nonce; p^12; key again.
  void start(states& pool, const aead_desc* jobs, size_t m) {
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      const key_words k = load_key(d.key);
      u64 n0 = load_word<be>(d.nonce), n1 = load_word<be>(d.nonce + 8);
      if constexpr (Params::nonce_masking) {
        if (d.second_key != nullptr) {
          n0 ^= load_word<be>(d.second_key);
          n1 ^= load_word<be>(d.second_key + 8);
        }
      }
      pool[0][i] = Params::iv | k.k0;
      pool[1][i] = k.k1;
      pool[2][i] = k.k2;
      pool[3][i] = n0;
      pool[4][i] = n1;
    }
    permute_array<12, V>(pool);
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      const key_words k = load_key(d.key);
      if constexpr (pq) pool[2][i] ^= k.k0;
      pool[3][i] ^= k.k1;
      pool[4][i] ^= k.k2;
      if (d.ad_len == 0) pool[4][i] ^= dsep;
    }
  }

  // A queued job has only its tail left: absorb the tail and its padding, and add the key.
  void queued(states& fin, size_t q, size_t j, const aead_desc& d) {
    fin[4][q] ^= dsep_[j];
    dsep_[j] = 0;
    const size_t r = d.len % rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    for (size_t w = 0; w < W && 8 * w < r; ++w) {
      const size_t n = r - 8 * w < 8 ? r - 8 * w : 8;
      u64& x = fin[w][q];
      if constexpr (Decrypt) {
        const u64 p = (x ^ load_partial<be>(in + 8 * w, n)) & byte_mask<be>(n);
        store_partial<be>(out + 8 * w, p, n);
        x ^= p;
      } else {
        x ^= load_partial<be>(in + 8 * w, n);
        store_partial<be>(out + 8 * w, x, n);
      }
    }
    fin[r / 8][q] ^= pad_bit<be>(r % 8);
    const key_words k = load_key(d.key);
    if constexpr (pq) {
      fin[1][q] ^= k.k0 << 32 | k.k1 >> 32;
      fin[2][q] ^= k.k1 << 32 | k.k2 >> 32;
      fin[3][q] ^= k.k2 << 32;
    } else {
      fin[W][q] ^= k.k1;
      fin[W + 1][q] ^= k.k2;
    }
  }

  // p^12 on the queued states, then the tag of each: its last two words XOR the key.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    permute_array<12, V>(fin);
    for (size_t i = 0; i < n; ++i) {
      const key_words k = load_key(jobs[i].key);
      store_word<be>(tags[i], fin[3][i] ^ k.k1);
      store_word<be>(tags[i] + 8, fin[4][i] ^ k.k2);
    }
  }

  void wipe_scratch() { wipe(stage_, sizeof stage_); }

  alignas(64) u64 keep_[N] = {};
  alignas(64) u64 dsep_[N] = {};
  bool any_dsep_ = false;
  segment seg_[N];
  alignas(64) u8 stage_[N][stage_bytes];
};

// ---- hashes, XOFs, the CXOF, MACs and PRFs --------------------------------------------------

// The steps depend only on the sponge's shape (byte order, rates and rounds), not on its IV: the
// variants of one shape (Ascon-Hash256, -XOF128 and -CXOF128; the v1.2 Hash and Xof; a MAC and
// its PRF) share one out-of-line copy per backend rather than one inlined into each variant's
// engine. The call per run of steps adds at most 2.5 % to the instructions of a batch of
// 64-byte messages and under 1 % at 16 KiB (callgrind, AVX2 and portable backends).
template <class V, bool BE, size_t Rate, size_t OutRate, int Rounds>
struct sponge_shape {
  static constexpr size_t W = Rate / 8, WO = OutRate / 8;
  static_assert(Rate % 8 == 0 && Rate <= 40 && OutRate % 8 == 0 && OutRate <= Rate);

  // k steps: XOR one block into the rate and emit the first OutRate bytes (absorbing: to the
  // scratch area; squeezing: with a zero block in, to the output), then the block permutation.
  // The state is copied into local vectors for the run: the caller's x is memory that the
  // stores through dst could alias, so the compiler would otherwise reload it after each one.
  template <class Cursors>
  LWC_SIMD_NOINLINE static void steps(V (&state)[5], const u8* const* src, u8* const* dst, u64 k,
                                      const Cursors& cur) {
    V x[5];
    for (size_t w = 0; w < 5; ++w) x[w] = state[w];
    const size_t end = k * Rate;  // blocks loaded a step early, as in aead_family::steps
    V next[W];
    if (end != 0) load(src, 0, next);
    for (size_t off = 0; off < end; off += Rate) {
      cur.prefetch(off);
      V in[W];
      for (size_t w = 0; w < W; ++w) in[w] = next[w];
      if (off + Rate < end) load(src, off + Rate, next);
      for (size_t w = 0; w < W; ++w) x[w] = x[w] ^ in[w];
      V out[WO];
      for (size_t w = 0; w < WO; ++w) out[w] = x[w];
      V::template store_blocks<BE>(dst, off / Rate * OutRate, out);
      permute<Rounds>(x);
    }
    for (size_t w = 0; w < 5; ++w) state[w] = x[w];
  }
  // One block of every lane (the vector types load one or two words per lane at a time).
  LWC_SIMD_INLINE static void load(const u8* const* src, size_t off, V (&w)[W]) {
    for (size_t h = 0; h < W; h += 2) {
      if (h + 1 < W) {
        V pair[2];
        V::template load_blocks<BE>(src, off + 8 * h, pair);
        w[h] = pair[0];
        w[h + 1] = pair[1];
      } else {
        V one[1];
        V::template load_blocks<BE>(src, off + 8 * h, one);
        w[h] = one[0];
      }
    }
  }
};

// Params is one of the core's sponge parameter structs: Ascon-Hash256, -XOF128, -CXOF128, the
// v1.2 Hash, Xof, Hash-a, Xof-a and the v1.2 and v1.3 MAC and PRF (PRF-short is no sponge).
// A step XORs one input block of in_rate bytes (8, 32 or 40) into the state, emits the first
// out_rate bytes (8 or 16: the squeezed output; while absorbing they go to a scratch area)
// and runs the block permutation, p^12 or p^8. Absorption always ends with p^12: where the
// blocks run p^8 (the -a variants), a lane's last block is XORed in between runs instead,
// with the first four rounds of p^12 on the lanes that take one (a masked update of the
// vectors), and its step then runs the other eight on a zero block. Custom adds the CXOF's
// customization string in front of the message: its length word, then the string padded to
// blocks of its own, absorbed by the same steps.
template <class V, class Params, bool Custom>
struct sponge_family {
  using vector = V;
  using word = u64;
  using task = sponge_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 5;
  using states = u64[5][N];
  static constexpr size_t rate = Params::in_rate;
  static constexpr size_t out_rate = Params::out_rate;
  static constexpr size_t W = rate / 8, WO = out_rate / 8;
  static constexpr bool be = big_endian_v<Params>;
  static constexpr bool keyed = Params::keyed;
  static constexpr int rounds = Params::absorb_rounds;
  using shape = sponge_shape<V, be, rate, out_rate, rounds>;
  static_assert(!(Custom && keyed));
  static_assert(Params::squeeze_rounds == rounds && (rounds == 12 || rounds == 8));
  static constexpr u64 dsep = Params::lanes::dsep;
  // The last block completes its p^12 between runs (the -a variants).
  static constexpr bool last_between_runs = rounds != 12;
  // The last block has a segment of its own: it is XORed in between runs, or a MAC's domain
  // separation precedes it.
  static constexpr bool last_alone = keyed || last_between_runs;

  enum segment : u8 { seg_custom_len, seg_custom, seg_custom_last, seg_absorb, seg_last,
                      seg_squeeze, seg_done };

  sponge_family() {
    for (size_t j = 0; j < N; ++j) last_src_[j] = zero_;
  }

  // On the lanes that entered their last block in this round: a MAC's domain separation and,
  // where the blocks run p^8, the block itself and the first four rounds of p^12.
  void after_refills(V (&x)[words], const states&) {
    if (!any_last_) return;
    if constexpr (keyed) {
      x[4] = x[4] ^ V::load(dsep_);
      std::memset(dsep_, 0, sizeof dsep_);
    }
    if constexpr (last_between_runs) {
      V in[W];
      shape::load(last_src_, 0, in);
      for (size_t w = 0; w < W; ++w) x[w] = x[w] ^ in[w];
      V y[5] = {x[0], x[1], x[2], x[3], x[4]};
      permute_rounds<0, 4>(y);
      const V take = V::load(last_mask_);
      for (int w = 0; w < 5; ++w) x[w] = x[w] ^ V::and_(take, y[w] ^ x[w]);
      std::memset(last_mask_, 0, sizeof last_mask_);
      for (size_t j = 0; j < N; ++j) last_src_[j] = zero_;
    }
    any_last_ = false;
  }

  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    shape::steps(x, src, dst, k, cur);
  }

  static size_t out_blocks(size_t out_len) { return out_len / out_rate + (out_len % out_rate != 0); }

  // Every job has its padded last block, so a lane always enters a segment when it starts.
  template <class Cursors>
  bool enter(size_t j, const sponge_desc& d, Cursors& cur, bool first) {
    if (first) seg_[j] = Custom ? seg_custom_len : seg_absorb;
    else seg_[j] = static_cast<segment>(seg_[j] + 1);
    for (;;) {
      switch (seg_[j]) {
        case seg_custom_len:
          // The customization string's length in bits, then the string itself with its padding
          // when it fits the staging area beside the length.
          if constexpr (Custom) {
            std::memset(stage_[j], 0, stage_bytes);
            store_word<be>(stage_[j], u64{d.custom_len} * 8);
            const bool whole = d.custom_len < stage_bytes - 8;
            if (whole) {
              if (d.custom_len != 0) std::memcpy(stage_[j] + 8, d.custom, d.custom_len);
              stage_[j][8 + d.custom_len] = pad_byte<be>;
            }
            cur.set(j, stage_[j], nullptr, whole ? (8 + d.custom_len) / rate + 1 : 1);
            return true;
          }
          break;
        case seg_custom:
          if constexpr (Custom) {
            if (d.custom_len >= stage_bytes - 8) {
              cur.set(j, d.custom, nullptr, d.custom_len / rate);
              return true;
            }
          }
          break;
        case seg_custom_last:
          if constexpr (Custom) {
            if (d.custom_len >= stage_bytes - 8) {
              const size_t tail = d.custom_len % rate;
              stage<be>(stage_[j], d.custom + (d.custom_len - tail), tail);
              cur.set(j, stage_[j], nullptr, 1);
              return true;
            }
          }
          break;
        case seg_absorb:
          // Long messages: their full blocks straight from the caller's buffer. Where the last
          // block is alone (last_alone), every full block comes from there.
          if (d.len >= (last_alone ? rate : stage_bytes)) {
            cur.set(j, d.in, nullptr, d.len / rate);
            return true;
          }
          break;
        case seg_last: {
          // Short messages whole, or the partial end of a long one, with the padding.
          const size_t tail = !last_alone && d.len < stage_bytes ? d.len : d.len % rate;
          stage<be>(stage_[j], d.in + (d.len - tail), tail);
          if constexpr (last_between_runs) {
            last_src_[j] = stage_[j];
            last_mask_[j] = ~u64{0};
            cur.set(j, nullptr, nullptr, 1);
          } else {
            cur.set(j, stage_[j], nullptr, tail / rate + 1);
          }
          if constexpr (keyed) dsep_[j] = dsep;
          any_last_ = any_last_ || last_alone;
          return true;
        }
        case seg_squeeze:
          // All output blocks but the last; the last is taken from the state when the lane
          // finishes, so no permutation is spent after it.
          if (out_blocks(d.out_len) > 1) {
            cur.set(j, nullptr, d.out, out_blocks(d.out_len) - 1);
            return true;
          }
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  // A MAC's initial states (IV, key; p^12), computed for the whole group at once.
  void start(states& pool, const sponge_desc* jobs, size_t m) {
    for (size_t i = 0; i < N; ++i) {
      const bool job = i < m;
      pool[0][i] = Params::iv;
      pool[1][i] = job ? load_word<be>(jobs[i].key) : 0;
      pool[2][i] = job ? load_word<be>(jobs[i].key + 8) : 0;
    }
    permute_array<12, V>(pool);
  }
  // The sponge's constant initial state.
  void start_one(states& lanes, size_t j, const sponge_desc&)
    requires(!keyed)
  {
    for (size_t w = 0; w < 5; ++w) lanes[w][j] = initial.x[w];
  }

  // The last output block of the job leaving lane j, from its state.
  void finish_one(const states& lanes, size_t j, const sponge_desc& d) {
    if (d.out_len == 0) return;
    const size_t done = out_rate * (out_blocks(d.out_len) - 1);
    for (size_t w = 0; w < WO && done + 8 * w < d.out_len; ++w) {
      const size_t b = d.out_len - done - 8 * w;
      store_partial<be>(d.out + done + 8 * w, lanes[w][j], b < 8 ? b : 8);
    }
  }

  void wipe_scratch() { wipe(stage_, sizeof stage_); }

  static constexpr lwc::ascon::state initial = [] {
    if constexpr (keyed) return lwc::ascon::state{};
    else return lwc::ascon::detail::sponge<Params>::initial_state();
  }();

  alignas(64) u64 dsep_[N] = {};
  alignas(64) u64 last_mask_[N] = {};  // all-ones on the lanes whose last block waits
  const u8* last_src_[N];              // that block, or zeros
  bool any_last_ = false;
  segment seg_[N];
  alignas(64) u8 stage_[N][stage_bytes];
  alignas(64) u8 zero_[stage_bytes] = {};
};

// ---- the lane kernels of the Ascon algorithms ------------------------------------------------

template <class V, class Params>
void run_aead(const aead_task& t) {
  run_aead_lanes<aead_family<V, Params, false>, aead_family<V, Params, true>>(t);
}

template <class V, class Params, bool Custom>
void run_sponge(const sponge_task& t) {
  run_sponge_lanes<sponge_family<V, Params, Custom>>(t);
}

// Ascon-PRFShort: one p^12 per message (at most 16 bytes, zero-padded, in x3 and x4; its bit
// length in the IV), so no steps: groups of V::lanes jobs are permuted together.
template <class V, class Traits>
void run_short_prf(const sponge_task& t) {
  constexpr size_t N = V::lanes;
  constexpr bool be = big_endian_v<Traits>;
  alignas(64) u64 s[5][N];
  alignas(64) u64 k[2][N];
  u8 msg[16];
  sponge_desc jobs[N];
  for (;;) {
    size_t first = 0;
    const size_t m = t.claim(t.claim_ctx, N, &first);
    if (m == 0) break;
    t.fetch(t.ctx, first, m, jobs);
    for (size_t i = 0; i < N; ++i) {
      const bool job = i < m;
      const sponge_desc& d = jobs[job ? i : 0];
      std::memset(msg, 0, sizeof msg);
      if (job && d.len != 0) std::memcpy(msg, d.in, d.len);
      k[0][i] = job ? load_word<be>(d.key) : 0;
      k[1][i] = job ? load_word<be>(d.key + 8) : 0;
      s[0][i] = Traits::iv | u64{job ? d.len * 8 : 0} << 48;
      s[1][i] = k[0][i];
      s[2][i] = k[1][i];
      s[3][i] = load_word<be>(msg);
      s[4][i] = load_word<be>(msg + 8);
    }
    permute_array<12, V>(s);
    for (size_t i = 0; i < m; ++i) {
      const sponge_desc& d = jobs[i];
      const size_t n0 = d.out_len < 8 ? d.out_len : 8;
      store_partial<be>(d.out, s[3][i] ^ k[0][i], n0);
      store_partial<be>(d.out + n0, s[4][i] ^ k[1][i], d.out_len - n0);
    }
  }
  wipe(s, sizeof s);
  wipe(k, sizeof k);
  wipe(msg, sizeof msg);
}

template <class Params>
struct ascon_aead_lanes {
  template <lane_vector V>
  static void aead(const aead_task& t) { run_aead<V, Params>(t); }
};
template <class Params, bool Custom = false>
struct ascon_sponge_lanes {
  template <lane_vector V>
  static void sponge(const sponge_task& t) { run_sponge<V, Params, Custom>(t); }
};
template <class Traits>
struct ascon_short_prf_lanes {
  template <lane_vector V>
  static void sponge(const sponge_task& t) { run_short_prf<V, Traits>(t); }
};

namespace ad = lwc::ascon::detail;
template <> struct lane_kernel<lwc::ascon::aead128> : ascon_aead_lanes<ad::aead128_traits> {};
template <> struct lane_kernel<lwc::ascon::v12::ascon128> : ascon_aead_lanes<ad::v12_128_traits> {};
template <> struct lane_kernel<lwc::ascon::v12::ascon128a> : ascon_aead_lanes<ad::v12_128a_traits> {};
template <> struct lane_kernel<lwc::ascon::v12::ascon80pq> : ascon_aead_lanes<ad::v12_80pq_traits> {};
template <> struct lane_kernel<lwc::ascon::hash256> : ascon_sponge_lanes<ad::hash256_params> {};
template <> struct lane_kernel<lwc::ascon::xof128> : ascon_sponge_lanes<ad::xof128_params> {};
template <> struct lane_kernel<lwc::ascon::v12::hash> : ascon_sponge_lanes<ad::v12_hash_params> {};
template <> struct lane_kernel<lwc::ascon::v12::xof> : ascon_sponge_lanes<ad::v12_xof_params> {};
template <> struct lane_kernel<lwc::ascon::cxof128> : ascon_sponge_lanes<ad::cxof128_params, true> {};
template <> struct lane_kernel<lwc::ascon::v12::mac> : ascon_sponge_lanes<ad::v12_mac_params> {};
template <> struct lane_kernel<lwc::ascon::v12::prf> : ascon_sponge_lanes<ad::v12_prf_params> {};
template <> struct lane_kernel<lwc::ascon::v13::mac> : ascon_sponge_lanes<ad::v13_mac_params> {};
template <> struct lane_kernel<lwc::ascon::v13::prf> : ascon_sponge_lanes<ad::v13_prf_params> {};
template <> struct lane_kernel<lwc::ascon::v12::hasha> : ascon_sponge_lanes<ad::v12_hasha_params> {};
template <> struct lane_kernel<lwc::ascon::v12::xofa> : ascon_sponge_lanes<ad::v12_xofa_params> {};
template <> struct lane_kernel<lwc::ascon::v12::maca> : ascon_sponge_lanes<ad::v12_maca_params> {};
template <> struct lane_kernel<lwc::ascon::v12::prfa> : ascon_sponge_lanes<ad::v12_prfa_params> {};
template <> struct lane_kernel<lwc::ascon::v12::prfshort> : ascon_short_prf_lanes<ad::v12_prfshort_traits> {};
template <> struct lane_kernel<lwc::ascon::v13::prfshort> : ascon_short_prf_lanes<ad::v13_prfshort_traits> {};

// p^rounds on `count` states of five words, for the tests of the lane permutation.
template <class V>
void permute_entry(u64* states, size_t count, int rounds) {
  alignas(64) u64 s[5][V::lanes];
  for (size_t base = 0; base < count; base += V::lanes) {
    const size_t m = count - base < V::lanes ? count - base : V::lanes;
    for (size_t j = 0; j < V::lanes; ++j)
      for (size_t w = 0; w < 5; ++w) s[w][j] = j < m ? states[5 * (base + j) + w] : 0;
    if (rounds == 12) permute_array<12, V>(s);
    else if (rounds == 8) permute_array<8, V>(s);
    else permute_array<6, V>(s);
    for (size_t j = 0; j < m; ++j)
      for (size_t w = 0; w < 5; ++w) states[5 * (base + j) + w] = s[w][j];
  }
}

}  // namespace eng
}  // namespace lwc::simd::LWC_SIMD_NS
