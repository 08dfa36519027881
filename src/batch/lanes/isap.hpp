// SPDX-License-Identifier: MIT OR Apache-2.0
// ISAP-A-128a and ISAP-A-128 (ISAP v2.0 over Ascon-p) in 64-bit lanes: one job per lane,
// V::lanes jobs per step, on the Ascon lane permutation (simd/permute_lanes.hpp). Included by
// lane_kernels.hpp inside the backend's namespace, so everything here is compiled with that
// backend's instruction set and stays in it; nothing of the single-message core
// (include/lwc/isap/aead.hpp) is called, only its mode type's compile-time constants (round
// numbers and IVs) are read, so the results equal the core's.
//
// A job is three computations on 320-bit Ascon states:
//   - IsapEnc: the re-keyed state K_E* (IsapRk of the key with the nonce), the nonce in its
//     last 16 bytes, then one s_E-round permutation before each 8-byte block of keystream;
//   - IsapMac's sponge: nonce || IV_A, then the associated data and the ciphertext absorbed
//     in 8-byte blocks with an s_H-round permutation after each, both padded, the domain
//     separation bit between them;
//   - IsapMac's end: y (the sponge's first 16 bytes) re-keys the key into K_A* (IsapRk again),
//     whose first 16 bytes replace the sponge's before a last permutation gives the tag.
// IsapRk absorbs its 128 bits one at a time with an s_B-round permutation after each (about
// 150 rounds for ISAP-A-128a, 1550 for ISAP-A-128, against 18 or 24 rounds per message
// block): for short messages it is most of the work. Its cost is the same for every job, so
// it runs in groups of V::lanes jobs on whole vectors, each lane taking its own bits: the
// keystream key with the MAC sponge's first permutation when a group of jobs is fetched, the
// tag key with the permutations around it when V::lanes jobs have finished their messages.
//
// Between the two, a lane holds both states of its job (ten vectors) and runs the scheduler's
// steps (lanes/engine.hpp): one step is one 8-byte block, a keystream block XORed onto the
// input and the ciphertext block absorbed into the MAC, then p^s_E on the keystream state and
// p^s_H on the MAC state. The associated data runs through the same steps (its blocks absorbed,
// nothing emitted), and the keystream state is installed only when the lane enters its message,
// so the keystream permutation a lane runs during its associated data is discarded; when no lane
// is in its message (every lane of a batch of equal lengths starts together), the step runs the
// MAC permutation alone. The last 0..7 message bytes and the padding are done by scalar code when
// the job leaves its lane; short associated data is staged with its padding (ascon_state.hpp).
//
// Decryption: the specification verifies the tag before it decrypts. Here, as in the core, the
// keystream runs alongside the MAC and the plaintext is written as it is computed; once the tag
// is checked, a rejected job's plaintext is zeroed by a mask (keep_or_zero), never behind a
// branch on the verdict, before the kernel returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/isap/aead.hpp>

#include "../../simd/permute_lanes.hpp"
#include "../backend.hpp"
#include "ascon_state.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/isap.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS {

using lwc::batch::detail::aead_desc;
using lwc::batch::detail::aead_task;

namespace eng {

// The domain separation between associated data and ciphertext: the state's last bit.
inline constexpr u64 isap_dsep = 1;
// IsapRk's bits enter the state's first bit: the most significant bit of x0.
inline constexpr u64 isap_first_bit = u64{1} << 63;

// IsapRk on every lane: x holds each lane's key || IV || 0 on entry and its re-keyed state on
// exit; y0, y1 are the lane's 128 bits, absorbed most significant first. The loop runs the
// same 128 times whatever the bits are.
template <int BitRounds, int KeyRounds, class V>
LWC_SIMD_INLINE void isap_rekey(V (&x)[5], V y0, V y1) {
  const V first_bit = V::set1(isap_first_bit);
  permute<KeyRounds>(x);
  for (int i = 0; i < 64; ++i) {
    x[0] = V::and_xor(y0, first_bit, x[0]);
    y0 = V::template shl<1>(y0);
    permute<BitRounds>(x);
  }
  for (int i = 0; i < 63; ++i) {
    x[0] = V::and_xor(y1, first_bit, x[0]);
    y1 = V::template shl<1>(y1);
    permute<BitRounds>(x);
  }
  x[0] = V::and_xor(y1, first_bit, x[0]);
  permute<KeyRounds>(x);
}

// A group's start and its tags do not depend on the direction: kept out of line in a base of both
// families, IsapRk and the permutations around it are compiled once per backend, not twice.
template <class V, class Mode>
struct isap_a_ends {
  static constexpr size_t N = V::lanes;
  static constexpr size_t tag_bytes = 16;
  static constexpr size_t mac = 0, stream = 5, stream_next = 10;
  using states = u64[15][N];

  // The group's two states at once: the MAC sponge after its first permutation, and the
  // keystream state (K_E*, the nonce) after the permutation that precedes its first block.
  LWC_SIMD_NOINLINE void start(states& pool, const aead_desc* jobs, size_t m) {
    for (size_t i = 0; i < N; ++i) {
      const bool job = i < m;
      words_[0][i] = job ? load_word<true>(jobs[i].key) : 0;
      words_[1][i] = job ? load_word<true>(jobs[i].key + 8) : 0;
      words_[2][i] = job ? load_word<true>(jobs[i].nonce) : 0;
      words_[3][i] = job ? load_word<true>(jobs[i].nonce + 8) : 0;
    }
    const V n0 = V::load(words_[2]), n1 = V::load(words_[3]), zero = V::set1(0);
    V mc[5] = {n0, n1, V::set1(Mode::iv(Mode::id_a)), zero, zero};
    permute<Mode::hash_rounds>(mc);
    for (size_t w = 0; w < 5; ++w) mc[w].store(pool[mac + w]);
    V s[5] = {V::load(words_[0]), V::load(words_[1]), V::set1(Mode::iv(Mode::id_ke)), zero, zero};
    isap_rekey<Mode::bit_rounds, Mode::key_rounds>(s, n0, n1);
    s[3] = n0;
    s[4] = n1;
    permute<Mode::stream_rounds>(s);
    for (size_t w = 0; w < 5; ++w) s[w].store(pool[stream_next + w]);
  }

  // The queued MAC states to their tags: the permutation that ends the padded ciphertext,
  // K_A* from the key and y, its first 16 bytes in place of the state's, a last permutation.
  LWC_SIMD_NOINLINE void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    for (size_t i = 0; i < N; ++i) {
      const bool job = i < n;
      words_[0][i] = job ? load_word<true>(jobs[i].key) : 0;
      words_[1][i] = job ? load_word<true>(jobs[i].key + 8) : 0;
    }
    V m[5];
    for (size_t w = 0; w < 5; ++w) m[w] = V::load(fin[mac + w]);
    permute<Mode::hash_rounds>(m);
    const V zero = V::set1(0);
    V k[5] = {V::load(words_[0]), V::load(words_[1]), V::set1(Mode::iv(Mode::id_ka)), zero, zero};
    isap_rekey<Mode::bit_rounds, Mode::key_rounds>(k, m[0], m[1]);
    m[0] = k[0];
    m[1] = k[1];
    permute<Mode::hash_rounds>(m);
    m[0].store(words_[0]);
    m[1].store(words_[1]);
    for (size_t i = 0; i < n; ++i) {
      store_word<true>(tags[i], words_[0][i]);
      store_word<true>(tags[i] + 8, words_[1][i]);
    }
  }

  alignas(64) u64 words_[4][N];  // keys and nonces, or tags, of a group of jobs
};

// The family's part of the lane engine (engine.hpp).
template <class V, class Mode, bool Decrypt>  // Mode: the core's lwc::isap::detail::mode
struct isap_a_family : isap_a_ends<V, Mode> {
  using ends = isap_a_ends<V, Mode>;
  using ends::N, ends::tag_bytes, ends::mac, ends::stream, ends::stream_next, ends::words_;
  using typename ends::states;
  using vector = V;
  using word = u64;
  using task = aead_task;
  static constexpr size_t rate = 8, out_rate = 8;
  static constexpr bool decrypt = Decrypt;
  // A lane in the vectors: the MAC state (mac), then the keystream state (stream); in memory
  // after those, the keystream state waiting for the lane to enter its message (stream_next).
  static constexpr size_t words = 10;

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_done };

  // The lanes that entered their message in this round: their keystream state replaces the
  // one the lane ran during the associated data, and the MAC state takes the domain
  // separation bit (lane-wise selects, no spill).
  void after_refills(V (&x)[words], const states& lanes) {
    if (!any_entering_) return;
    const V entering = V::load(entering_);
    for (size_t w = 0; w < 5; ++w)
      x[stream + w] = V::and_xor(x[stream + w] ^ V::load(lanes[stream_next + w]), entering,
                                 x[stream + w]);
    x[mac + 4] = V::and_xor(entering, V::set1(isap_dsep), x[mac + 4]);
    std::memset(entering_, 0, sizeof entering_);
    any_entering_ = false;
  }

  // k steps of one block on every lane.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    u64 any_message = 0;
    for (size_t j = 0; j < N; ++j) any_message |= in_message_[j];
    V m[5] = {x[0], x[1], x[2], x[3], x[4]};
    if (any_message == 0) {
      // No lane in its message: the MAC sponge absorbs, the keystream states wait.
      for (size_t off = 0; off < k * rate; off += rate) {
        cur.prefetch_input(off);
        V in[1];
        V::template load_blocks<true>(src, off, in);
        m[0] = m[0] ^ in[0];
        permute<Mode::hash_rounds>(m);
      }
      for (size_t w = 0; w < 5; ++w) x[mac + w] = m[w];
      return;
    }
    V s[5] = {x[5], x[6], x[7], x[8], x[9]};
    // Encryption absorbs the block it emits on message lanes and the associated data it
    // reads on the others: in ^ (keystream & in_message).
    [[maybe_unused]] const V absorbs_output = V::load(in_message_);
    for (size_t off = 0; off < k * rate; off += rate) {
      cur.prefetch(off);
      V in[1];
      V::template load_blocks<true>(src, off, in);
      const V out[1] = {in[0] ^ s[0]};
      V::template store_blocks<true>(dst, off, out);
      if constexpr (Decrypt) m[0] = m[0] ^ in[0];
      else m[0] = m[0] ^ V::and_xor(s[0], absorbs_output, in[0]);
      permute<Mode::stream_rounds>(s);
      permute<Mode::hash_rounds>(m);
    }
    for (size_t w = 0; w < 5; ++w) {
      x[mac + w] = m[w];
      x[stream + w] = s[w];
    }
  }

  // Points lane j at the first non-empty segment from its first or next one on; false when
  // the job has no full message block left (its last bytes and the tag remain).
  template <class Cursors>
  bool enter(size_t j, const aead_desc& d, Cursors& cur, bool first) {
    if (first) {
      seg_[j] = seg_ad;
      in_message_[j] = 0;
    } else {
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          // Long associated data: its full blocks straight from the caller's buffer.
          if (d.ad_len >= stage_bytes) {
            cur.set(j, d.ad, nullptr, d.ad_len / rate);
            return true;
          }
          break;
        case seg_ad_last: {
          // Short associated data whole, or the partial end of a long one, with its padding:
          // at least one block, so every job starts with a step.
          const size_t tail = d.ad_len < stage_bytes ? d.ad_len : d.ad_len % rate;
          stage<true>(stage_[j], d.ad + (d.ad_len - tail), tail);
          cur.set(j, stage_[j], nullptr, tail / rate + 1);
          return true;
        }
        case seg_msg:
          entering_[j] = ~u64{0};
          any_entering_ = true;
          if (d.len >= rate) {
            cur.set(j, d.in, d.out, d.len / rate);
            in_message_[j] = ~u64{0};
            return true;
          }
          break;
        default:
          in_message_[j] = 0;
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }
  void idle(size_t j) { in_message_[j] = 0; }

  // A queued job has only its last 0..7 message bytes left (for a message shorter than a
  // block, the keystream state still waits in its stream_next rows): those bytes through the
  // keystream and into the MAC with the padding.
  void queued(states& fin, size_t q, size_t j, const aead_desc& d) {
    u64 keystream = fin[stream][q];
    if (entering_[j] != 0) {
      fin[mac + 4][q] ^= isap_dsep;
      keystream = fin[stream_next][q];
      entering_[j] = 0;
    }
    const size_t r = d.len % rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    u64 ct;
    if constexpr (Decrypt) {
      ct = load_bytes<true>(in, r);
      store_bytes<true>(out, ct ^ keystream, r);
    } else {
      ct = (load_bytes<true>(in, r) ^ keystream) & byte_mask<true>(r);
      store_bytes<true>(out, ct, r);
    }
    fin[mac][q] ^= ct ^ pad_bit<true>(r);
  }

  void wipe_scratch() {
    wipe(words_, sizeof words_);
    wipe(stage_, sizeof stage_);
  }

  alignas(64) u64 entering_[N] = {};    // all-ones: entered its message in this round
  alignas(64) u64 in_message_[N] = {};  // all-ones: its segment is message blocks
  bool any_entering_ = false;
  segment seg_[N];
  alignas(64) u8 stage_[N][stage_bytes];
};

template <class Mode>
struct isap_a_lanes {
  template <lane_vector V>
  static void aead(const aead_task& t) {
    static_assert(Mode::rate == 8);
    run_aead_lanes<isap_a_family<V, Mode, false>, isap_a_family<V, Mode, true>>(t);
  }
};

template <> struct lane_kernel<lwc::isap::isap_a_128a> : isap_a_lanes<lwc::isap::detail::a128a_mode> {};
template <> struct lane_kernel<lwc::isap::isap_a_128> : isap_a_lanes<lwc::isap::detail::a128_mode> {};

}  // namespace eng
}  // namespace lwc::simd::LWC_SIMD_NS
