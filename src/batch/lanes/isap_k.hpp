// SPDX-License-Identifier: MIT OR Apache-2.0
// ISAP-K-128a and ISAP-K-128 (ISAP v2.0 over Keccak-p[400]) in 32-bit lanes: one job per
// lane, V::lanes jobs per step. Included by lane_kernels.hpp inside the backend's namespace;
// nothing of the single-message core (include/lwc/isap/) is called at run time, only its mode
// type's compile-time constants (round numbers, IVs, round constants) are read, so the results
// equal the core's.
//
// A Keccak lane has 16 bits. In a 32-bit vector lane it is kept twice, v | v << 16: logic
// operations keep that form, and a rotation of the 32-bit word by n is then the 16-bit lane's
// rotation by n in both halves, one instruction where the backend has a rotate. The state of a
// job is 25 such words; data enters as v | v << 16 and leaves through the low halves.
//
// The structure is that of ISAP-A's lanes (lanes/isap.hpp), on the group lane engine
// (lanes/engine.hpp): IsapRk (128 bits absorbed one at a time, an s_B-round permutation after
// each) runs in groups of V::lanes jobs on whole vectors, each lane taking its own bits: the
// keystream key K_E* with the MAC sponge's first permutation at a group's start, the tag key
// K_A* when V::lanes jobs have finished their messages. In between a lane holds both states of
// its job (keystream and MAC) and one step is one 18-byte block: keystream XORed onto the
// input, the ciphertext (or associated data) absorbed, p^s_E on the keystream state and p^s_H
// on the MAC state; the keystream state is installed when the lane enters its message, and a
// step with no lane in its message runs the MAC permutation alone. The last 0..17 message bytes
// and the padding are done by scalar code when the job leaves its lane (it is queued); the
// last associated-data block is staged with its padding.
//
// Decryption: as in the core, the keystream runs alongside the MAC and the plaintext is written
// as it is computed; once the tag is checked, a rejected job's plaintext is zeroed by a mask
// (keep_or_zero), never behind a branch on the verdict, before the kernel returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/isap/aead.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/isap_k.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::isap_k_lanes {

using lwc::batch::detail::aead_desc;
using lwc::batch::detail::aead_task;

// ---- Keccak-p[400] on the lanes ---------------------------------------------------------------

// A 16-bit value in both halves of a 32-bit word.
constexpr u32 twice(u32 v) { return (v & 0xffff) * 0x10001u; }

// The round constants of Keccak-f[400] (rounds 0..19), in both halves.
struct round_constants_t {
  u32 c[20];
};
constexpr round_constants_t make_round_constants() {
  round_constants_t r{};
  for (int i = 0; i < 20; ++i) r.c[i] = twice(::lwc::isap::keccak::detail::round_constant(i));
  return r;
}
inline constexpr round_constants_t round_constants = make_round_constants();

// The 16-bit lanes rotated left by N.
template <unsigned N, class V>
LWC_SIMD_INLINE V rol(V x) {
  static_assert(N > 0 && N < 16);
  return V::template rotr<32 - N>(x);
}

// One round (keccak_p400.hpp's round, with its rho offsets and pi order).
template <class V>
LWC_SIMD_INLINE void round(V* a, V rc) {
  const V c0 = V::xor3(V::xor3(a[0], a[5], a[10]), a[15], a[20]);
  const V c1 = V::xor3(V::xor3(a[1], a[6], a[11]), a[16], a[21]);
  const V c2 = V::xor3(V::xor3(a[2], a[7], a[12]), a[17], a[22]);
  const V c3 = V::xor3(V::xor3(a[3], a[8], a[13]), a[18], a[23]);
  const V c4 = V::xor3(V::xor3(a[4], a[9], a[14]), a[19], a[24]);
  const V d0 = c4 ^ rol<1>(c1), d1 = c0 ^ rol<1>(c2), d2 = c1 ^ rol<1>(c3);
  const V d3 = c2 ^ rol<1>(c4), d4 = c3 ^ rol<1>(c0);
  const V b0 = a[0] ^ d0;
  const V b1 = rol<12>(a[6] ^ d1);
  const V b2 = rol<11>(a[12] ^ d2);
  const V b3 = rol<5>(a[18] ^ d3);
  const V b4 = rol<14>(a[24] ^ d4);
  const V b5 = rol<12>(a[3] ^ d3);
  const V b6 = rol<4>(a[9] ^ d4);
  const V b7 = rol<3>(a[10] ^ d0);
  const V b8 = rol<13>(a[16] ^ d1);
  const V b9 = rol<13>(a[22] ^ d2);
  const V b10 = rol<1>(a[1] ^ d1);
  const V b11 = rol<6>(a[7] ^ d2);
  const V b12 = rol<9>(a[13] ^ d3);
  const V b13 = rol<8>(a[19] ^ d4);
  const V b14 = rol<2>(a[20] ^ d0);
  const V b15 = rol<11>(a[4] ^ d4);
  const V b16 = rol<4>(a[5] ^ d0);
  const V b17 = rol<10>(a[11] ^ d1);
  const V b18 = rol<15>(a[17] ^ d2);
  const V b19 = rol<8>(a[23] ^ d3);
  const V b20 = rol<14>(a[2] ^ d2);
  const V b21 = rol<7>(a[8] ^ d3);
  const V b22 = rol<7>(a[14] ^ d4);
  const V b23 = rol<9>(a[15] ^ d0);
  const V b24 = rol<2>(a[21] ^ d1);
  a[0] = V::xor_andn(b0, b1, b2) ^ rc;
  a[1] = V::xor_andn(b1, b2, b3);
  a[2] = V::xor_andn(b2, b3, b4);
  a[3] = V::xor_andn(b3, b4, b0);
  a[4] = V::xor_andn(b4, b0, b1);
  a[5] = V::xor_andn(b5, b6, b7);
  a[6] = V::xor_andn(b6, b7, b8);
  a[7] = V::xor_andn(b7, b8, b9);
  a[8] = V::xor_andn(b8, b9, b5);
  a[9] = V::xor_andn(b9, b5, b6);
  a[10] = V::xor_andn(b10, b11, b12);
  a[11] = V::xor_andn(b11, b12, b13);
  a[12] = V::xor_andn(b12, b13, b14);
  a[13] = V::xor_andn(b13, b14, b10);
  a[14] = V::xor_andn(b14, b10, b11);
  a[15] = V::xor_andn(b15, b16, b17);
  a[16] = V::xor_andn(b16, b17, b18);
  a[17] = V::xor_andn(b17, b18, b19);
  a[18] = V::xor_andn(b18, b19, b15);
  a[19] = V::xor_andn(b19, b15, b16);
  a[20] = V::xor_andn(b20, b21, b22);
  a[21] = V::xor_andn(b21, b22, b23);
  a[22] = V::xor_andn(b22, b23, b24);
  a[23] = V::xor_andn(b23, b24, b20);
  a[24] = V::xor_andn(b24, b20, b21);
}

// Keccak-p[400, rounds]: rounds 20 - rounds .. 19 of Keccak-f[400] (the round count is public).
template <class V>
LWC_SIMD_INLINE void rounds_inline(V* a, int rounds) {
  for (int r = 20 - rounds; r < 20; ++r) round(a, V::set1(round_constants.c[r]));
}
// In place: a copy on the stack would outlive the kernel with key-dependent words in it.
template <class V>
LWC_SIMD_NOINLINE void permute(V* a, int rounds) {
  rounds_inline(a, rounds);
}

// IsapRk on every lane: x holds each lane's key || IV || 0 on entry and its re-keyed state on
// exit; y the lane's 128 bits as four big-endian words, absorbed most significant first into
// bit 7 of lane 0. The loop runs the same 128 times whatever the bits are.
template <class V>
LWC_SIMD_NOINLINE void rekey(V* x, const V (&y)[4], int bit_rounds, int key_rounds) {
  rounds_inline(x, key_rounds);
  const V top = V::set1(0x80000000u);
  for (int w = 0; w < 4; ++w) {
    V bits = y[w];
    for (int i = 0; i < 32; ++i) {
      const V bit = V::and_(bits, top);
      x[0] = V::xor3(x[0], V::template shr<24>(bit), V::template shr<8>(bit));
      bits = V::template shl<1>(bits);
      if (w != 3 || i != 31) rounds_inline(x, bit_rounds);
    }
  }
  rounds_inline(x, key_rounds);
}

// ---- the mode ---------------------------------------------------------------------------------

inline constexpr size_t rate = 18;
// The domain separation between associated data and ciphertext: bit 0 of byte 49.
inline constexpr u32 dsep = twice(0x100);
inline constexpr u32 high_halves = 0xffff0000u;

// Lane i of the IV (bytes 16..23 of the initial state, most significant first).
constexpr u32 iv_lane(u64 iv, int i) {
  const u64 high = (iv >> (56 - 16 * i)) & 0xff, low = (iv >> (48 - 16 * i)) & 0xff;
  return twice(static_cast<u32>(high | low << 8));
}

LWC_SIMD_INLINE u32 load_le16(const u8* p) { return u32{p[0]} | u32{p[1]} << 8; }
LWC_SIMD_INLINE u32 load_be32(const u8* p) {
  return u32{p[0]} << 24 | u32{p[1]} << 16 | u32{p[2]} << 8 | u32{p[3]};
}

// The state key-or-nonce || IV || 0 of every lane: the first 16 bytes from words (eight lanes
// each), then the IV.
template <class V>
LWC_SIMD_INLINE void init_state(V* a, const u32 (&first)[8][V::lanes], u64 iv) {
  for (int i = 0; i < 8; ++i) a[i] = V::load(first[i]);
  for (int i = 0; i < 4; ++i) a[8 + i] = V::set1(iv_lane(iv, i));
  for (int i = 12; i < 25; ++i) a[i] = V::set1(0);
}

// A word of two 16-bit lanes as those lanes, each in both halves.
template <class V>
LWC_SIMD_INLINE V low_twice(V w) {
  return V::and_(w, V::set1(0xffff)) ^ V::template shl<16>(w);
}
template <class V>
LWC_SIMD_INLINE V high_twice(V w) {
  return V::template shr<16>(w) ^ V::and_(w, V::set1(high_halves));
}

// A group's start and its tags do not depend on the direction: kept out of line in a base of
// both families, they are compiled once per backend, not twice. A lane's vectors are its job's MAC
// state (words 0..24) and keystream state (25..49); rows 50..74 carry the job's keystream state
// from its group's start until the lane enters the message.
template <class V, class Mode>  // Mode: the core's lwc::isap::detail::mode
struct aead_ends {
  static constexpr size_t N = V::lanes;
  static constexpr size_t mac = 0, stream = 25, stream_next = 50;
  using states = u32[75][N];
  static constexpr size_t tag_bytes = 16;

  // Key (or nonce) lanes of a group's jobs, each in both halves; absent jobs get zeros.
  void lanes_of(const aead_desc* jobs, size_t m, bool nonce) {
    for (size_t i = 0; i < N; ++i)
      for (int w = 0; w < 8; ++w)
        keys_[w][i] = i < m ? twice(load_le16((nonce ? jobs[i].nonce : jobs[i].key) + 2 * w)) : 0;
  }

  // The group's start on the whole vectors: the MAC sponge after its first permutation, and
  // the keystream state (K_E*, then the nonce) after the permutation that precedes its first
  // block.
  LWC_SIMD_NOINLINE void start(states& pool, const aead_desc* jobs, size_t m) {
    for (size_t i = 0; i < N; ++i)
      for (int w = 0; w < 4; ++w) bits_[w][i] = i < m ? load_be32(jobs[i].nonce + 4 * w) : 0;
    V a[25];
    lanes_of(jobs, m, true);
    init_state(a, keys_, Mode::iv(Mode::id_a));
    permute(a, Mode::hash_rounds);
    for (size_t w = 0; w < 25; ++w) a[w].store(pool[mac + w]);
    V y[4];
    for (int w = 0; w < 4; ++w) y[w] = V::load(bits_[w]);
    V nonce_lanes[8];
    for (int w = 0; w < 8; ++w) nonce_lanes[w] = V::load(keys_[w]);
    lanes_of(jobs, m, false);
    init_state(a, keys_, Mode::iv(Mode::id_ke));
    rekey(a, y, Mode::bit_rounds, Mode::key_rounds);
    for (int w = 0; w < 8; ++w) a[17 + w] = nonce_lanes[w];  // the nonce in bytes 34..49
    permute(a, Mode::stream_rounds);
    for (size_t w = 0; w < 25; ++w) a[w].store(pool[stream_next + w]);
    wipe(a, sizeof a);
  }

  // The queued MAC states to their tags: the permutation that ends the padded ciphertext,
  // K_A* from the key and y (the state's first 16 bytes), its first 16 bytes in place of the
  // state's, a last permutation.
  LWC_SIMD_NOINLINE void finish(states& s, const aead_desc* jobs, size_t n,
                                u8 (&tags)[N][tag_bytes]) {
    V m[25];
    for (size_t w = 0; w < 25; ++w) m[w] = V::load(s[mac + w]);
    permute(m, Mode::hash_rounds);
    // y as big-endian words: bytes 4k..4k+3 are lanes 2k and 2k+1, each byte-swapped.
    V y[4];
    const V high = V::set1(high_halves);
    for (int k = 0; k < 4; ++k)
      y[k] = V::select(high, V::template rotr<8>(m[2 * k]), V::template rotr<8>(m[2 * k + 1]));
    V key[25];
    lanes_of(jobs, n, false);
    init_state(key, keys_, Mode::iv(Mode::id_ka));
    rekey(key, y, Mode::bit_rounds, Mode::key_rounds);
    for (int w = 0; w < 8; ++w) m[w] = key[w];
    permute(m, Mode::hash_rounds);
    for (int w = 0; w < 8; ++w) m[w].store(keys_[w]);
    for (size_t i = 0; i < n; ++i)
      for (int w = 0; w < 8; ++w) {
        tags[i][2 * w] = static_cast<u8>(keys_[w][i]);
        tags[i][2 * w + 1] = static_cast<u8>(keys_[w][i] >> 8);
      }
    wipe(m, sizeof m);
    wipe(key, sizeof key);
    wipe(y, sizeof y);
  }

  void wipe_keys() {
    wipe(keys_, sizeof keys_);
    wipe(bits_, sizeof bits_);
  }

  alignas(64) u32 keys_[8][N];  // key or nonce lanes of a group of jobs, or tags
  alignas(64) u32 bits_[4][N];  // the nonces as big-endian words
};

// The family's part of the lane engine (engine.hpp).
template <class V, class Mode, bool Decrypt>
struct aead_family : aead_ends<V, Mode> {
  using ends = aead_ends<V, Mode>;
  using ends::N, ends::mac, ends::stream, ends::stream_next, ends::tag_bytes;
  using typename ends::states;
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t words = 50;
  static constexpr size_t rate = isap_k_lanes::rate, out_rate = isap_k_lanes::rate;
  static constexpr bool decrypt = Decrypt;

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_done };

  // One block of every lane at offset off: its 18 bytes as nine lanes, each in both halves.
  LWC_SIMD_INLINE static void load_block(const u8* const* src, size_t off, V (&in)[9]) {
    V w[4];
    V::load_blocks(src, off, w);
    for (int i = 0; i < 4; ++i) {
      in[2 * i] = low_twice(w[i]);
      in[2 * i + 1] = high_twice(w[i]);
    }
    alignas(64) u32 last[N];
    for (size_t j = 0; j < N; ++j) last[j] = twice(load_le16(src[j] + off + 16));
    in[8] = V::load(last);
  }
  LWC_SIMD_INLINE static void store_block(u8* const* dst, size_t off, const V (&out)[9]) {
    V w[4];
    const V high = V::set1(high_halves);
    for (int i = 0; i < 4; ++i) w[i] = V::select(high, out[2 * i + 1], out[2 * i]);
    V::store_blocks(dst, off, w);
    alignas(64) u32 last[N];
    out[8].store(last);
    for (size_t j = 0; j < N; ++j) {
      dst[j][off + 16] = static_cast<u8>(last[j]);
      dst[j][off + 17] = static_cast<u8>(last[j] >> 8);
    }
  }

  // k steps of one block on every lane: the keystream XORed onto the input, the ciphertext
  // (or the associated data) absorbed, then both permutations; with no lane in its message,
  // the MAC sponge alone.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    u32 any_message = 0;
    for (size_t j = 0; j < N; ++j) any_message |= in_message_[j];
    V* m = x + mac;
    V* s = x + stream;
    if (any_message == 0) {
      for (size_t off = 0; off < k * rate; off += rate) {
        cur.prefetch_input(off);
        V in[9];
        load_block(src, off, in);
        for (int i = 0; i < 9; ++i) m[i] = m[i] ^ in[i];
        permute(m, Mode::hash_rounds);
      }
      return;
    }
    // Encryption absorbs the block it emits on message lanes and the associated data it
    // reads on the others: in ^ (keystream & in_message).
    [[maybe_unused]] const V absorbs_output = V::load(in_message_);
    for (size_t off = 0; off < k * rate; off += rate) {
      cur.prefetch(off);
      V in[9], out[9];
      load_block(src, off, in);
      for (int i = 0; i < 9; ++i) {
        out[i] = in[i] ^ s[i];
        if constexpr (Decrypt) m[i] = m[i] ^ in[i];
        else m[i] = V::xor3(m[i], in[i], V::and_(s[i], absorbs_output));
      }
      store_block(dst, off, out);
      permute(s, Mode::stream_rounds);
      permute(m, Mode::hash_rounds);
    }
  }

  // The lanes that entered their message in this round: their keystream state replaces the
  // one the lane ran during the associated data, and the MAC state takes the domain
  // separation bit (lane-wise selects, no spill).
  void after_refills(V (&x)[words], const states& lanes) {
    if (!any_entering_) return;
    const V entering = V::load(entering_);
    for (size_t w = 0; w < 25; ++w)
      x[stream + w] = V::select(entering, V::load(lanes[stream_next + w]), x[stream + w]);
    x[mac + 24] = x[mac + 24] ^ V::and_(entering, V::set1(dsep));
    std::memset(entering_, 0, sizeof entering_);
    any_entering_ = false;
  }

  // Points lane j at its job's first or next non-empty segment; false when the job has no full
  // message block left (its last bytes and the tag remain).
  template <class Cursors>
  bool enter(size_t j, const aead_desc& d, Cursors& cur, bool first) {
    seg_[j] = first ? seg_ad : static_cast<segment>(seg_[j] + 1);
    in_message_[j] = 0;
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          if (d.ad_len >= rate) {
            cur.set(j, d.ad, nullptr, d.ad_len / rate);
            return true;
          }
          break;
        case seg_ad_last: {
          // The associated data's last 0..17 bytes with the padding: always one block.
          const size_t r = d.ad_len % rate;
          std::memset(stage_[j], 0, sizeof stage_[j]);
          if (r != 0) std::memcpy(stage_[j], d.ad + (d.ad_len - r), r);  // ad may be null
          stage_[j][r] = 0x80;
          cur.set(j, stage_[j], nullptr, 1);
          return true;
        }
        case seg_msg:
          entering_[j] = ~u32{0};
          any_entering_ = true;
          if (d.len >= rate) {
            cur.set(j, d.in, d.out, d.len / rate);
            in_message_[j] = ~u32{0};
            return true;
          }
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  void idle(size_t j) {
    in_message_[j] = 0;
    entering_[j] = 0;
  }

  // A job entering the finish queue at q has only its last 0..17 message bytes left (its
  // keystream state in the lanes' rows, or, for a message shorter than a block, still in the
  // rows it started with): those bytes through the keystream and into the MAC with the padding.
  void queued(states& s, size_t q, size_t j, const aead_desc& d) {
    size_t ks = stream;
    if (entering_[j] != 0) {
      s[mac + 24][q] ^= dsep;
      ks = stream_next;
      entering_[j] = 0;
    }
    const size_t r = d.len % rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    for (size_t b = 0; b < r; ++b) {
      const unsigned shift = 8 * (b % 2);
      const u8 k = static_cast<u8>(s[ks + b / 2][q] >> shift);
      const u8 x = in[b];
      const u8 ct = Decrypt ? x : static_cast<u8>(x ^ k);
      out[b] = static_cast<u8>(x ^ k);
      s[mac + b / 2][q] ^= twice(u32{ct} << shift);
    }
    s[mac + r / 2][q] ^= twice(u32{0x80} << (8 * (r % 2)));
  }

  void wipe_scratch() {
    this->wipe_keys();
    wipe(stage_, sizeof stage_);
  }

  alignas(64) u32 entering_[N] = {};    // all-ones: entered its message in this round
  alignas(64) u32 in_message_[N] = {};  // all-ones: its segment is message blocks
  bool any_entering_ = false;
  segment seg_[N] = {};
  alignas(64) u8 stage_[N][24];
};

template <class Mode>
struct isap_k_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    static_assert(Mode::rate == 18);
    run_aead_lanes<aead_family<V, Mode, false>, aead_family<V, Mode, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::isap_k_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <>
struct lane_kernel<lwc::isap::isap_k_128a>
    : isap_k_lanes::isap_k_lanes<lwc::isap::detail::k128a_mode> {};
template <>
struct lane_kernel<lwc::isap::isap_k_128>
    : isap_k_lanes::isap_k_lanes<lwc::isap::detail::k128_mode> {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
