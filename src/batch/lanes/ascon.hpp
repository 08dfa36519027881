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
#include "scheduler.hpp"

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

// Params is one of the core's aead_params (aead128_traits, v12_128_traits, ...).
template <class V, class Params, bool Decrypt>
class aead_engine : public lane_scheduler<aead_engine<V, Params, Decrypt>> {
  friend class lane_scheduler<aead_engine>;
  static constexpr size_t N = V::lanes;
  static constexpr size_t rate = Params::rate;
  static constexpr size_t W = rate / 8;  // state words per block
  static constexpr bool be = big_endian_v<Params>;
  static constexpr bool pq = Params::key_size == 20;
  static constexpr u64 dsep = Params::lanes::dsep;
  static_assert(rate == 8 || rate == 16);

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_done };

  struct key_words {
    u64 k0, k1, k2;
  };

 public:
  explicit aead_engine(const aead_task& t) : t_(t) {}
  aead_engine(const aead_engine&) = delete;
  aead_engine& operator=(const aead_engine&) = delete;
  ~aead_engine() {
    wipe(spill_, sizeof spill_);
    wipe(pool_, sizeof pool_);
    wipe(fin_, sizeof fin_);
    wipe(x_, sizeof x_);
    wipe(stage_, sizeof stage_);
    wipe(cur_.sink, sizeof cur_.sink);
  }

  using lane_scheduler<aead_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    std::memset(dsep_, 0, sizeof dsep_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    load_state(x_, spill_);
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  bool next_segment(size_t j) {
    seg_[j] = static_cast<segment>(seg_[j] + 1);
    return enter_segment(j);
  }
  void spill() { store_state(x_, spill_); }
  void reload() { load_state(x_, spill_); }
  // Domain separation of the lanes that entered their message in this round.
  void after_refills() {
    if (!any_dsep_) return;
    x_[4] = x_[4] ^ V::load(dsep_);
    std::memset(dsep_, 0, sizeof dsep_);
    any_dsep_ = false;
  }
  void end() {
    if (fin_n_ != 0) finalize_batch();
  }

  // k steps: absorb one block per lane (emitting ciphertext or plaintext), permute.
  void steps(u64 k) {
    V x[5] = {x_[0], x_[1], x_[2], x_[3], x_[4]};
    const u8* src[N];
    u8* dst[N];
    for (size_t j = 0; j < N; ++j) {
      src[j] = cur_.src_ptr(j);
      dst[j] = cur_.dst_ptr(j);
    }
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
      cur_.prefetch(off);
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
    for (int w = 0; w < 5; ++w) x_[w] = x[w];
  }

  // Points lane j at the first non-empty segment from seg_[j] on; false when the job has no
  // full block left (its tail and finalization remain).
  bool enter_segment(size_t j) {
    const aead_desc& d = job_[j];
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          // Long associated data: its full blocks straight from the caller's buffer.
          if (d.ad_len >= stage_bytes) {
            cur_.set(j, d.ad, nullptr, d.ad_len / rate);
            keep_[j] = ~u64{0};
            return true;
          }
          break;
        case seg_ad_last:
          // Short associated data whole, or the partial end of a long one, with its padding.
          if (d.ad_len != 0) {
            const size_t tail = d.ad_len < stage_bytes ? d.ad_len : d.ad_len % rate;
            stage<be>(stage_[j], d.ad + (d.ad_len - tail), tail);
            cur_.set(j, stage_[j], nullptr, tail / rate + 1);
            keep_[j] = ~u64{0};
            return true;
          }
          break;
        case seg_msg:
          // Domain separation after the associated data; without any, the init batch did it.
          if (d.ad_len != 0) {
            dsep_[j] = dsep;
            any_dsep_ = true;
          }
          if (d.len >= rate) {
            cur_.set(j, d.in, d.out, d.len / rate);
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

  // Gives lane j the next job (initializing a group when the pool is empty), skipping jobs
  // that need no full-block step; leaves the lane idle when the range is exhausted.
  void start_lane(size_t j) {
    for (;;) {
      if (pool_i_ == pool_n_ && !init_batch()) {
        cur_.idle(j);
        keep_[j] = ~u64{0};
        active_ -= busy_[j];
        busy_[j] = false;
        return;
      }
      const size_t p = pool_i_++;
      for (int w = 0; w < 5; ++w) spill_[w][j] = pool_[w][p];
      job_[j] = pool_job_[p];
      seg_[j] = seg_ad;
      if (enter_segment(j)) {
        active_ += !busy_[j];
        busy_[j] = true;
        return;
      }
      finish_lane(j);
    }
  }

  LWC_SIMD_INLINE static key_words load_key(const u8* key) {
    if constexpr (pq)
      return {load_bytes<be>(key, 4) >> 32, load_word<be>(key + 4), load_word<be>(key + 12)};
    else
      return {0, load_word<be>(key), load_word<be>(key + 8)};
  }

  // Fetches and initializes up to N jobs at once: state = IV, key, nonce; p^12; key again.
  bool init_batch() {
    size_t first = 0;
    const size_t m = t_.claim(t_.claim_ctx, N, &first);
    if (m == 0) return false;
    t_.fetch(t_.ctx, first, m, pool_job_);
    for (size_t i = 0; i < N; ++i) {
      if (i >= m) {
        for (int w = 0; w < 5; ++w) pool_[w][i] = 0;
        continue;
      }
      const aead_desc& d = pool_job_[i];
      const key_words k = load_key(d.key);
      u64 n0 = load_word<be>(d.nonce), n1 = load_word<be>(d.nonce + 8);
      if constexpr (Params::nonce_masking) {
        if (d.second_key != nullptr) {
          n0 ^= load_word<be>(d.second_key);
          n1 ^= load_word<be>(d.second_key + 8);
        }
      }
      pool_[0][i] = Params::iv | k.k0;
      pool_[1][i] = k.k1;
      pool_[2][i] = k.k2;
      pool_[3][i] = n0;
      pool_[4][i] = n1;
    }
    permute_array<12, V>(pool_);
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = pool_job_[i];
      const key_words k = load_key(d.key);
      if constexpr (pq) pool_[2][i] ^= k.k0;
      pool_[3][i] ^= k.k1;
      pool_[4][i] ^= k.k2;
      if (d.ad_len == 0) pool_[4][i] ^= dsep;
    }
    pool_n_ = m;
    pool_i_ = 0;
    return true;
  }

  // Lane j's job has only its tail left (state in spill_): absorb the tail and its padding,
  // add the key, and queue the state for the finalization permutation.
  void finish_lane(size_t j) {
    const aead_desc& d = job_[j];
    const size_t q = fin_n_;
    for (int w = 0; w < 5; ++w) fin_[w][q] = spill_[w][j];
    fin_[4][q] ^= dsep_[j];
    dsep_[j] = 0;
    const size_t r = d.len % rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    for (size_t w = 0; w < W && 8 * w < r; ++w) {
      const size_t n = r - 8 * w < 8 ? r - 8 * w : 8;
      u64& x = fin_[w][q];
      if constexpr (Decrypt) {
        const u64 p = (x ^ load_partial<be>(in + 8 * w, n)) & byte_mask<be>(n);
        store_partial<be>(out + 8 * w, p, n);
        x ^= p;
      } else {
        x ^= load_partial<be>(in + 8 * w, n);
        store_partial<be>(out + 8 * w, x, n);
      }
    }
    fin_[r / 8][q] ^= pad_bit<be>(r % 8);
    const key_words k = load_key(d.key);
    if constexpr (pq) {
      fin_[1][q] ^= k.k0 << 32 | k.k1 >> 32;
      fin_[2][q] ^= k.k1 << 32 | k.k2 >> 32;
      fin_[3][q] ^= k.k2 << 32;
    } else {
      fin_[W][q] ^= k.k1;
      fin_[W + 1][q] ^= k.k2;
    }
    fin_job_[q] = d;
    if (++fin_n_ == N) finalize_batch();
  }

  // p^12 on the queued states, then the tag of each: written, or compared in constant time
  // (all tag_len bytes, whatever their values).
  void finalize_batch() {
    permute_array<12, V>(fin_);
    const size_t len = t_.tag_len;
    const size_t n0 = len < 8 ? len : 8, n1 = len - n0;
    for (size_t i = 0; i < fin_n_; ++i) {
      const aead_desc& d = fin_job_[i];
      const key_words k = load_key(d.key);
      const u64 t0 = fin_[3][i] ^ k.k1, t1 = fin_[4][i] ^ k.k2;
      if constexpr (Decrypt) {
        const u64 diff = ((t0 ^ load_partial<be>(d.tag, n0)) & byte_mask<be>(n0)) |
                         ((t1 ^ load_partial<be>(d.tag + 8, n1)) & byte_mask<be>(n1));
        const bool ok = ((diff | (0 - diff)) >> 63) == 0;
        t_.ok[d.index] = static_cast<u8>(ok);
        // A rejected plaintext is zeroed by a mask, not behind a branch: the verdict is public,
        // but it comes from the key, and a branch on it is what the constant-time check flags.
        const u8 keep = static_cast<u8>(0 - static_cast<u8>(ok));
        keep_or_zero(d.out, d.len, keep);
      } else {
        store_partial<be>(d.tag, t0, n0);
        store_partial<be>(d.tag + 8, t1, n1);
      }
    }
    fin_n_ = 0;
  }

  const aead_task& t_;
  V x_[5];
  alignas(64) u64 spill_[5][N];
  alignas(64) u64 keep_[N] = {};
  alignas(64) u64 dsep_[N] = {};
  bool any_dsep_ = false;
  lane_cursors<N, rate> cur_;
  segment seg_[N];
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  aead_desc job_[N];
  alignas(64) u8 stage_[N][stage_bytes];

  alignas(64) u64 pool_[5][N] = {};
  aead_desc pool_job_[N];
  size_t pool_n_ = 0, pool_i_ = 0;

  alignas(64) u64 fin_[5][N] = {};
  aead_desc fin_job_[N];
  size_t fin_n_ = 0;
};

// ---- hashes, XOFs, the CXOF, MACs and PRFs --------------------------------------------------

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
class sponge_engine : public lane_scheduler<sponge_engine<V, Params, Custom>> {
  friend class lane_scheduler<sponge_engine>;
  static constexpr size_t N = V::lanes;
  static constexpr size_t rate = Params::in_rate;
  static constexpr size_t out_rate = Params::out_rate;
  static constexpr size_t W = rate / 8, WO = out_rate / 8;
  static constexpr bool be = big_endian_v<Params>;
  static constexpr bool keyed = Params::keyed;
  static constexpr int rounds = Params::absorb_rounds;
  static_assert(rate % 8 == 0 && rate <= 40 && out_rate % 8 == 0 && out_rate <= rate);
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

 public:
  explicit sponge_engine(const sponge_task& t) : t_(t) {}
  sponge_engine(const sponge_engine&) = delete;
  sponge_engine& operator=(const sponge_engine&) = delete;
  ~sponge_engine() {  // a MAC's states hold its key
    wipe(spill_, sizeof spill_);
    wipe(pool_, sizeof pool_);
    wipe(x_, sizeof x_);
    wipe(stage_, sizeof stage_);
    wipe(cur_.sink, sizeof cur_.sink);
  }

  using lane_scheduler<sponge_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    std::memset(dsep_, 0, sizeof dsep_);
    std::memset(last_mask_, 0, sizeof last_mask_);
    for (size_t j = 0; j < N; ++j) last_src_[j] = cur_.zero;
    for (size_t j = 0; j < N; ++j) start_lane(j);
    load_state(x_, spill_);
    after_refills();
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  bool next_segment(size_t j) {
    seg_[j] = static_cast<segment>(seg_[j] + 1);
    return enter_segment(j);
  }
  void spill() { store_state(x_, spill_); }
  void reload() { load_state(x_, spill_); }
  // On the lanes that entered their last block in this round: a MAC's domain separation and,
  // where the blocks run p^8, the block itself and the first four rounds of p^12.
  void after_refills() {
    if (!any_last_) return;
    if constexpr (keyed) {
      x_[4] = x_[4] ^ V::load(dsep_);
      std::memset(dsep_, 0, sizeof dsep_);
    }
    if constexpr (last_between_runs) {
      V in[W];
      load(last_src_, 0, in);
      for (size_t w = 0; w < W; ++w) x_[w] = x_[w] ^ in[w];
      V y[5] = {x_[0], x_[1], x_[2], x_[3], x_[4]};
      permute_rounds<0, 4>(y);
      const V take = V::load(last_mask_);
      for (int w = 0; w < 5; ++w) x_[w] = x_[w] ^ V::and_(take, y[w] ^ x_[w]);
      std::memset(last_mask_, 0, sizeof last_mask_);
      for (size_t j = 0; j < N; ++j) last_src_[j] = cur_.zero;
    }
    any_last_ = false;
  }
  void end() {}

  // k steps: XOR one block into the rate and emit the first out_rate bytes (absorbing: to the
  // scratch area; squeezing: with a zero block in, to the output), then p^12.
  void steps(u64 k) {
    V x[5] = {x_[0], x_[1], x_[2], x_[3], x_[4]};
    const u8* src[N];
    u8* dst[N];
    for (size_t j = 0; j < N; ++j) {
      src[j] = cur_.src_ptr(j);
      dst[j] = cur_.dst_ptr(j);
    }
    const size_t end = k * rate;  // blocks loaded a step early, as in aead_engine::steps
    V next[W];
    if (end != 0) load(src, 0, next);
    for (size_t off = 0; off < end; off += rate) {
      cur_.prefetch(off);
      V in[W];
      for (size_t w = 0; w < W; ++w) in[w] = next[w];
      if (off + rate < end) load(src, off + rate, next);
      for (size_t w = 0; w < W; ++w) x[w] = x[w] ^ in[w];
      V out[WO];
      for (size_t w = 0; w < WO; ++w) out[w] = x[w];
      V::template store_blocks<be>(dst, off / rate * out_rate, out);
      permute<rounds>(x);
    }
    for (int w = 0; w < 5; ++w) x_[w] = x[w];
  }
  // One block of every lane (the vector types load one or two words per lane at a time).
  LWC_SIMD_INLINE static void load(const u8* const* src, size_t off, V (&w)[W]) {
    for (size_t h = 0; h < W; h += 2) {
      if (h + 1 < W) {
        V pair[2];
        V::template load_blocks<be>(src, off + 8 * h, pair);
        w[h] = pair[0];
        w[h + 1] = pair[1];
      } else {
        V one[1];
        V::template load_blocks<be>(src, off + 8 * h, one);
        w[h] = one[0];
      }
    }
  }

  static size_t out_blocks(size_t out_len) { return out_len / out_rate + (out_len % out_rate != 0); }

  bool enter_segment(size_t j) {
    const sponge_desc& d = job_[j];
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
            cur_.set(j, stage_[j], nullptr, whole ? (8 + d.custom_len) / rate + 1 : 1);
            return true;
          }
          break;
        case seg_custom:
          if constexpr (Custom) {
            if (d.custom_len >= stage_bytes - 8) {
              cur_.set(j, d.custom, nullptr, d.custom_len / rate);
              return true;
            }
          }
          break;
        case seg_custom_last:
          if constexpr (Custom) {
            if (d.custom_len >= stage_bytes - 8) {
              const size_t tail = d.custom_len % rate;
              stage<be>(stage_[j], d.custom + (d.custom_len - tail), tail);
              cur_.set(j, stage_[j], nullptr, 1);
              return true;
            }
          }
          break;
        case seg_absorb:
          // Long messages: their full blocks straight from the caller's buffer. Where the last
          // block is alone (last_alone), every full block comes from there.
          if (d.len >= (last_alone ? rate : stage_bytes)) {
            cur_.set(j, d.in, nullptr, d.len / rate);
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
            cur_.set(j, nullptr, nullptr, 1);
          } else {
            cur_.set(j, stage_[j], nullptr, tail / rate + 1);
          }
          if constexpr (keyed) dsep_[j] = dsep;
          any_last_ = any_last_ || last_alone;
          return true;
        }
        case seg_squeeze:
          // All output blocks but the last; the last is taken from the state when the lane
          // finishes, so no permutation is spent after it.
          if (out_blocks(d.out_len) > 1) {
            cur_.set(j, nullptr, d.out, out_blocks(d.out_len) - 1);
            return true;
          }
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  // Fetches the next group of up to N jobs; a MAC's initial states (IV, key; p^12) are
  // computed for the whole group at once.
  bool next_group() {
    size_t first = 0;
    pend_n_ = t_.claim(t_.claim_ctx, N, &first);
    pend_i_ = 0;
    if (pend_n_ == 0) return false;
    t_.fetch(t_.ctx, first, pend_n_, pend_);
    if constexpr (keyed) {
      for (size_t i = 0; i < N; ++i) {
        const bool job = i < pend_n_;
        pool_[0][i] = Params::iv;
        pool_[1][i] = job ? load_word<be>(pend_[i].key) : 0;
        pool_[2][i] = job ? load_word<be>(pend_[i].key + 8) : 0;
        pool_[3][i] = 0;
        pool_[4][i] = 0;
      }
      permute_array<12, V>(pool_);
    }
    return true;
  }

  void start_lane(size_t j) {
    if (pend_i_ == pend_n_ && !next_group()) {
      cur_.idle(j);
      active_ -= busy_[j];
      busy_[j] = false;
      return;
    }
    active_ += !busy_[j];
    busy_[j] = true;
    const size_t p = pend_i_++;
    job_[j] = pend_[p];
    for (int w = 0; w < 5; ++w) spill_[w][j] = keyed ? pool_[w][p] : initial.x[w];
    seg_[j] = Custom ? seg_custom_len : seg_absorb;
    enter_segment(j);  // a job always has its padded last block
  }

  void finish_lane(size_t j) {
    const sponge_desc& d = job_[j];
    if (d.out_len == 0) return;
    const size_t done = out_rate * (out_blocks(d.out_len) - 1);
    for (size_t w = 0; w < WO && done + 8 * w < d.out_len; ++w) {
      const size_t n = d.out_len - done - 8 * w;
      store_partial<be>(d.out + done + 8 * w, spill_[w][j], n < 8 ? n : 8);
    }
  }

  static constexpr lwc::ascon::state initial = [] {
    if constexpr (keyed) return lwc::ascon::state{};
    else return lwc::ascon::detail::sponge<Params>::initial_state();
  }();

  const sponge_task& t_;
  V x_[5];
  alignas(64) u64 spill_[5][N];
  alignas(64) u64 dsep_[N] = {};
  alignas(64) u64 last_mask_[N] = {};  // all-ones on the lanes whose last block waits
  const u8* last_src_[N];              // that block, or zeros
  bool any_last_ = false;
  lane_cursors<N, rate, out_rate> cur_;
  segment seg_[N];
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  sponge_desc job_[N];
  alignas(64) u8 stage_[N][stage_bytes];
  sponge_desc pend_[N];
  alignas(64) u64 pool_[5][N] = {};  // a MAC's initial states for the group in pend_
  size_t pend_n_ = 0, pend_i_ = 0;
};

// ---- the lane kernels of the Ascon algorithms ------------------------------------------------

template <class V, class Params>
void run_aead(const aead_task& t) {
  if (t.decrypt) {
    aead_engine<V, Params, true> e(t);
    e.run();
  } else {
    aead_engine<V, Params, false> e(t);
    e.run();
  }
}

template <class V, class Params, bool Custom>
void run_sponge(const sponge_task& t) {
  sponge_engine<V, Params, Custom> e(t);
  e.run();
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
