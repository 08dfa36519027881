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
// The structure is that of ISAP-A's lanes (lanes/isap.hpp): IsapRk (128 bits absorbed one at a
// time, an s_B-round permutation after each) runs in groups of V::lanes jobs on whole vectors,
// each lane taking its own bits: the keystream key K_E* with the MAC sponge's first permutation
// when a group of jobs is fetched, the tag key K_A* when V::lanes jobs have finished their
// messages. In between a lane holds both states of its job (keystream and MAC) and one step is
// one 18-byte block: keystream XORed onto the input, the ciphertext (or associated data)
// absorbed, p^s_E on the keystream state and p^s_H on the MAC state; the keystream state is
// installed when the lane enters its message, and a step with no lane in its message runs the
// MAC permutation alone. The last 0..17 message bytes and the padding are done by scalar code
// when the job leaves its lane; the last associated-data block is staged with its padding.
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
#include "scheduler.hpp"

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
LWC_SIMD_INLINE void round(V (&a)[25], V rc) {
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
LWC_SIMD_INLINE void rounds_inline(V (&a)[25], int rounds) {
  for (int r = 20 - rounds; r < 20; ++r) round(a, V::set1(round_constants.c[r]));
}
// In place: a copy on the stack would outlive the kernel with key-dependent words in it.
template <class V>
LWC_SIMD_NOINLINE void permute(V (&a)[25], int rounds) {
  rounds_inline(a, rounds);
}

// IsapRk on every lane: x holds each lane's key || IV || 0 on entry and its re-keyed state on
// exit; y the lane's 128 bits as four big-endian words, absorbed most significant first into
// bit 7 of lane 0. The loop runs the same 128 times whatever the bits are.
template <class V>
LWC_SIMD_NOINLINE void rekey(V (&x)[25], const V (&y)[4], int bit_rounds, int key_rounds) {
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

// The round numbers and IVs of one of the core's ISAP-K modes, evaluated at compile time.
template <class Mode>
struct isap_k_params;
template <int SH, int SB, int SE, int SK>
struct isap_k_params<lwc::isap::detail::mode<lwc::isap::detail::keccak_state_ops, SH, SB, SE, SK>> {
  using mode = lwc::isap::detail::mode<lwc::isap::detail::keccak_state_ops, SH, SB, SE, SK>;
  static constexpr int hash_rounds = SH;    // s_H: the MAC sponge
  static constexpr int bit_rounds = SB;     // s_B: after each re-keying bit
  static constexpr int stream_rounds = SE;  // s_E: before each keystream block
  static constexpr int key_rounds = SK;     // s_K: around the re-keying bits
  static constexpr u64 iv_mac = mode::iv(mode::id_a);
  static constexpr u64 iv_tag_key = mode::iv(mode::id_ka);
  static constexpr u64 iv_stream_key = mode::iv(mode::id_ke);
  static_assert(mode::rate == 18);
};

inline constexpr size_t rate = 18;
// The domain separation between associated data and ciphertext: bit 0 of byte 49.
inline constexpr u32 dsep = twice(0x100);
inline constexpr u32 high_halves = 0xffff0000u;

// Lane i of the IV (bytes 16..23 of the initial state, most significant first).
constexpr u32 iv_lane(u64 iv, int i) {
  return twice(static_cast<u32>(((iv >> (56 - 16 * i)) & 0xff) | ((iv >> (48 - 16 * i)) & 0xff) << 8));
}

LWC_SIMD_INLINE u32 load_le16(const u8* p) { return u32{p[0]} | u32{p[1]} << 8; }
LWC_SIMD_INLINE u32 load_be32(const u8* p) {
  return u32{p[0]} << 24 | u32{p[1]} << 16 | u32{p[2]} << 8 | u32{p[3]};
}

// The state key-or-nonce || IV || 0 of every lane: the first 16 bytes from words (eight lanes
// each), then the IV.
template <class V>
LWC_SIMD_INLINE void init_state(V (&a)[25], const u32 (&first)[8][V::lanes], u64 iv) {
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

template <class V, class P, bool Decrypt>
class isap_k_engine : public lane_scheduler<isap_k_engine<V, P, Decrypt>> {
  friend class lane_scheduler<isap_k_engine>;
  static constexpr size_t N = V::lanes;

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_done };
  using words = u32[25][N];

 public:
  explicit isap_k_engine(const aead_task& t) : t_(t) {}
  isap_k_engine(const isap_k_engine&) = delete;
  isap_k_engine& operator=(const isap_k_engine&) = delete;
  ~isap_k_engine() {
    wipe(mac_, sizeof mac_);
    wipe(stream_, sizeof stream_);
    wipe(mac_spill_, sizeof mac_spill_);
    wipe(stream_spill_, sizeof stream_spill_);
    wipe(stream_next_, sizeof stream_next_);
    wipe(pool_mac_, sizeof pool_mac_);
    wipe(pool_stream_, sizeof pool_stream_);
    wipe(fin_, sizeof fin_);
    wipe(keys_, sizeof keys_);
    wipe(bits_, sizeof bits_);
    wipe(stage_, sizeof stage_);
    wipe(cur_.sink, sizeof cur_.sink);
  }

  using lane_scheduler<isap_k_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(mac_spill_, 0, sizeof mac_spill_);
    std::memset(stream_spill_, 0, sizeof stream_spill_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    reload();
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  bool next_segment(size_t j) {
    seg_[j] = static_cast<segment>(seg_[j] + 1);
    return enter_segment(j);
  }
  void spill() {
    for (int w = 0; w < 25; ++w) {
      mac_[w].store(mac_spill_[w]);
      stream_[w].store(stream_spill_[w]);
    }
  }
  void reload() {
    for (int w = 0; w < 25; ++w) {
      mac_[w] = V::load(mac_spill_[w]);
      stream_[w] = V::load(stream_spill_[w]);
    }
  }
  // The lanes that entered their message in this round: their keystream state replaces the
  // one the lane ran during the associated data, and the MAC state takes the domain
  // separation bit (lane-wise selects, no spill).
  void after_refills() {
    if (!any_entering_) return;
    const V entering = V::load(entering_);
    for (int w = 0; w < 25; ++w) stream_[w] = V::select(entering, V::load(stream_next_[w]), stream_[w]);
    mac_[24] = mac_[24] ^ V::and_(entering, V::set1(dsep));
    std::memset(entering_, 0, sizeof entering_);
    any_entering_ = false;
  }
  void end() {
    if (fin_n_ != 0) finalize_batch();
  }

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

  // k steps of one block on every lane.
  void steps(u64 k) {
    const u8* src[N];
    u8* dst[N];
    u32 any_message = 0;
    for (size_t j = 0; j < N; ++j) {
      src[j] = cur_.src_ptr(j);
      dst[j] = cur_.dst_ptr(j);
      any_message |= in_message_[j];
    }
    if (any_message == 0) {
      absorb_steps(src, k);
      return;
    }
    // Encryption absorbs the block it emits on message lanes and the associated data it
    // reads on the others: in ^ (keystream & in_message).
    [[maybe_unused]] const V absorbs_output = V::load(in_message_);
    for (size_t off = 0; off < k * rate; off += rate) {
      cur_.prefetch(off);
      V in[9], out[9];
      load_block(src, off, in);
      for (int i = 0; i < 9; ++i) {
        out[i] = in[i] ^ stream_[i];
        if constexpr (Decrypt) mac_[i] = mac_[i] ^ in[i];
        else mac_[i] = V::xor3(mac_[i], in[i], V::and_(stream_[i], absorbs_output));
      }
      store_block(dst, off, out);
      permute(stream_, P::stream_rounds);
      permute(mac_, P::hash_rounds);
    }
  }
  // No lane in its message: the MAC sponge absorbs, the keystream states wait.
  void absorb_steps(const u8* const (&src)[N], u64 k) {
    for (size_t off = 0; off < k * rate; off += rate) {
      cur_.prefetch_input(off);
      V in[9];
      load_block(src, off, in);
      for (int i = 0; i < 9; ++i) mac_[i] = mac_[i] ^ in[i];
      permute(mac_, P::hash_rounds);
    }
  }

  // Points lane j at the first non-empty segment from seg_[j] on; false when the job has no
  // full message block left (its last bytes and the tag remain).
  bool enter_segment(size_t j) {
    const aead_desc& d = job_[j];
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          if (d.ad_len >= rate) {
            cur_.set(j, d.ad, nullptr, d.ad_len / rate);
            return true;
          }
          break;
        case seg_ad_last: {
          // The associated data's last 0..17 bytes with the padding: always one block.
          const size_t r = d.ad_len % rate;
          std::memset(stage_[j], 0, sizeof stage_[j]);
          std::memcpy(stage_[j], d.ad + (d.ad_len - r), r);
          stage_[j][r] = 0x80;
          cur_.set(j, stage_[j], nullptr, 1);
          return true;
        }
        case seg_msg:
          entering_[j] = ~u32{0};
          any_entering_ = true;
          if (d.len >= rate) {
            cur_.set(j, d.in, d.out, d.len / rate);
            in_message_[j] = ~u32{0};
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

  // Gives lane j the next job (re-keying a group when the pool is empty); leaves the lane idle
  // when the range is exhausted.
  void start_lane(size_t j) {
    in_message_[j] = 0;
    if (pool_i_ == pool_n_ && !init_batch()) {
      cur_.idle(j);
      active_ -= busy_[j];
      busy_[j] = false;
      return;
    }
    const size_t p = pool_i_++;
    for (int w = 0; w < 25; ++w) {
      mac_spill_[w][j] = pool_mac_[w][p];
      stream_next_[w][j] = pool_stream_[w][p];
    }
    job_[j] = pool_job_[p];
    seg_[j] = seg_ad;
    enter_segment(j);
    active_ += !busy_[j];
    busy_[j] = true;
  }

  // Key (or nonce) lanes of a group's jobs, each in both halves; absent jobs get zeros.
  void lanes_of(const aead_desc* jobs, size_t m, bool nonce) {
    for (size_t i = 0; i < N; ++i)
      for (int w = 0; w < 8; ++w)
        keys_[w][i] = i < m ? twice(load_le16((nonce ? jobs[i].nonce : jobs[i].key) + 2 * w)) : 0;
  }

  // Fetches up to N jobs and starts both of their states at once: the MAC sponge after its
  // first permutation, and the keystream state (K_E*, the nonce) after the permutation that
  // precedes its first block.
  bool init_batch() {
    size_t first = 0;
    const size_t m = t_.claim(t_.claim_ctx, N, &first);
    if (m == 0) return false;
    t_.fetch(t_.ctx, first, m, pool_job_);
    for (size_t i = 0; i < N; ++i)
      for (int w = 0; w < 4; ++w) bits_[w][i] = i < m ? load_be32(pool_job_[i].nonce + 4 * w) : 0;
    V a[25];
    lanes_of(pool_job_, m, true);
    init_state(a, keys_, P::iv_mac);
    permute(a, P::hash_rounds);
    for (int w = 0; w < 25; ++w) a[w].store(pool_mac_[w]);
    V y[4];
    for (int w = 0; w < 4; ++w) y[w] = V::load(bits_[w]);
    const V nonce_lanes[8] = {V::load(keys_[0]), V::load(keys_[1]), V::load(keys_[2]),
                              V::load(keys_[3]), V::load(keys_[4]), V::load(keys_[5]),
                              V::load(keys_[6]), V::load(keys_[7])};
    lanes_of(pool_job_, m, false);
    init_state(a, keys_, P::iv_stream_key);
    rekey(a, y, P::bit_rounds, P::key_rounds);
    for (int w = 0; w < 8; ++w) a[17 + w] = nonce_lanes[w];  // the nonce in bytes 34..49
    permute(a, P::stream_rounds);
    for (int w = 0; w < 25; ++w) a[w].store(pool_stream_[w]);
    wipe(a, sizeof a);
    pool_n_ = m;
    pool_i_ = 0;
    return true;
  }

  // Lane j's job has only its last 0..17 message bytes left (states in the spill arrays, or,
  // for a message shorter than a block, the keystream state still waiting in stream_next_):
  // those bytes through the keystream and into the MAC with the padding, then the MAC state
  // queued for the tag.
  void finish_lane(size_t j) {
    const aead_desc& d = job_[j];
    const size_t q = fin_n_;
    for (int w = 0; w < 25; ++w) fin_[w][q] = mac_spill_[w][j];
    const u32(*keystream)[N] = stream_spill_;
    if (entering_[j] != 0) {
      fin_[24][q] ^= dsep;
      keystream = stream_next_;
      entering_[j] = 0;
    }
    const size_t r = d.len % rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    for (size_t b = 0; b < r; ++b) {
      const unsigned shift = 8 * (b % 2);
      const u8 k = static_cast<u8>(keystream[b / 2][j] >> shift);
      const u8 x = in[b];
      const u8 ct = Decrypt ? x : static_cast<u8>(x ^ k);
      out[b] = static_cast<u8>(x ^ k);
      fin_[b / 2][q] ^= twice(u32{ct} << shift);
    }
    fin_[r / 2][q] ^= twice(u32{0x80} << (8 * (r % 2)));
    fin_job_[q] = d;
    if (++fin_n_ == N) finalize_batch();
  }

  // The queued MAC states to their tags: the permutation that ends the padded ciphertext,
  // K_A* from the key and y (the state's first 16 bytes), its first 16 bytes in place of the
  // state's, a last permutation. Each tag is then written, or compared in constant time.
  void finalize_batch() {
    V m[25];
    for (int w = 0; w < 25; ++w) m[w] = V::load(fin_[w]);
    permute(m, P::hash_rounds);
    // y as big-endian words: bytes 4k..4k+3 are lanes 2k and 2k+1, each byte-swapped.
    V y[4];
    const V high = V::set1(high_halves);
    for (int k = 0; k < 4; ++k)
      y[k] = V::select(high, V::template rotr<8>(m[2 * k]), V::template rotr<8>(m[2 * k + 1]));
    V key[25];
    lanes_of(fin_job_, fin_n_, false);
    init_state(key, keys_, P::iv_tag_key);
    rekey(key, y, P::bit_rounds, P::key_rounds);
    for (int w = 0; w < 8; ++w) m[w] = key[w];
    permute(m, P::hash_rounds);
    for (int w = 0; w < 8; ++w) m[w].store(keys_[w]);
    for (size_t i = 0; i < fin_n_; ++i) {
      const aead_desc& d = fin_job_[i];
      alignas(8) u8 tag[16];
      for (int w = 0; w < 8; ++w) {
        tag[2 * w] = static_cast<u8>(keys_[w][i]);
        tag[2 * w + 1] = static_cast<u8>(keys_[w][i] >> 8);
      }
      if constexpr (Decrypt) {
        u32 diff = 0;
        for (size_t b = 0; b < t_.tag_len; ++b) diff |= static_cast<u32>(tag[b] ^ d.tag[b]);
        const u8 ok = static_cast<u8>(((diff - 1) >> 8) & 1);  // 1 exactly when diff == 0
        t_.ok[d.index] = ok;
        // A rejected plaintext is zeroed by a mask, not behind a branch on the verdict.
        keep_or_zero(d.out, d.len, static_cast<u8>(0 - ok));
      } else {
        std::memcpy(d.tag, tag, t_.tag_len);
      }
      wipe(tag, sizeof tag);
    }
    wipe(m, sizeof m);
    wipe(key, sizeof key);
    wipe(y, sizeof y);
    fin_n_ = 0;
  }

  const aead_task& t_;
  V mac_[25];
  V stream_[25];
  alignas(64) words mac_spill_;
  alignas(64) words stream_spill_;
  alignas(64) words stream_next_ = {};  // each lane's keystream state until its message
  alignas(64) u32 entering_[N] = {};    // all-ones: entered its message in this round
  alignas(64) u32 in_message_[N] = {};  // all-ones: its segment is message blocks
  bool any_entering_ = false;
  lane_cursors<N, rate> cur_;
  segment seg_[N] = {};
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  aead_desc job_[N];
  alignas(64) u8 stage_[N][24];

  alignas(64) words pool_mac_ = {};
  alignas(64) words pool_stream_ = {};
  aead_desc pool_job_[N];
  size_t pool_n_ = 0, pool_i_ = 0;

  alignas(64) words fin_ = {};
  aead_desc fin_job_[N];
  size_t fin_n_ = 0;

  alignas(64) u32 keys_[8][N];  // key or nonce lanes of a group of jobs, or tags
  alignas(64) u32 bits_[4][N];  // the nonces as big-endian words
};

template <class Mode>
struct isap_k_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    using P = isap_k_params<Mode>;
    if (t.decrypt) {
      isap_k_engine<V, P, true> e(t);
      e.run();
    } else {
      isap_k_engine<V, P, false> e(t);
      e.run();
    }
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::isap_k_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <> struct lane_kernel<lwc::isap::isap_k_128a> : isap_k_lanes::isap_k_lanes<lwc::isap::detail::k128a_mode> {};
template <> struct lane_kernel<lwc::isap::isap_k_128> : isap_k_lanes::isap_k_lanes<lwc::isap::detail::k128_mode> {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
