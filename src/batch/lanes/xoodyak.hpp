// SPDX-License-Identifier: MIT OR Apache-2.0
// Xoodyak in lanes (the AEAD and Xoodyak-Hash), written once over a lane_vector32 type V and
// instantiated by each backend translation unit inside its own namespace (LWC_SIMD_NS), through
// lane_kernels.hpp. V::lanes Xoodoo states are held as twelve lane vectors, one per 32-bit word
// of the state in the order of include/lwc/xoodyak/xoodoo.hpp. The permutation is restated here
// for V, and the mode's constants are copied: an inline function of the core compiled in this
// unit would carry its instruction set out of the backend's namespace.
//
// A lane step is the block that a job repeats most: for the AEAD, one full 24-byte block of
// Crypt (Up, then the block XORed in, the ciphertext left in the state); for the hash, one full
// 16-byte block of Absorb (the block and its padding XORed in, then Up). Each lane follows its
// own job and is refilled as soon as the job has no full block left (lanes/engine.hpp). What
// does not fit that step runs in groups of V::lanes jobs, every group on the whole vectors:
//  - AEAD start: the key block (Cyclist(K, N)) and Absorb of the associated data in 44-byte
//    blocks. A job whose associated data has fewer blocks than another's in its group sits out
//    the later steps: a lane-wise select keeps its state. The initialized states wait in a pool
//    that feeds the refills.
//  - AEAD finish: the partial or empty last block of the message (its Up in the group, masked
//    the same way, its bytes by scalar code), then Squeeze of the tag. Finished jobs wait in a
//    queue until V::lanes of them can go together.
//  - Hash finish: the partial or empty last block (scalar bytes, Up in the group) and the
//    squeeze of the digest.
// Lengths decide every branch and every index; keys, data and states never do, and a tag
// verdict only selects, by a mask, whether a job's plaintext is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/xoodyak/xoodyak.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/xoodyak.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::xoodyak_lanes {

// Xoodoo[12]'s round constants, first round first (Xoodyak specification v2.0, section 2).
inline constexpr u32 round_constants[12] = {0x058, 0x038, 0x3c0, 0x0d0, 0x120, 0x014,
                                            0x060, 0x02c, 0x380, 0x0f0, 0x1a0, 0x012};

// Cyclist on Xoodoo: the keyed absorb rate, the keyed squeeze (Crypt) rate, the hash rate.
inline constexpr size_t absorb_rate = 44;
inline constexpr size_t crypt_rate = 24;
inline constexpr size_t hash_rate = 16;

// Cyclist's domain bytes as they are XORed into the state: the last byte of the state is the
// top byte of word 11.
inline constexpr u32 domain_key = 0x02u << 24;       // the key block's Down
inline constexpr u32 domain_absorb = 0x03u << 24;    // the first Absorb block's Down
inline constexpr u32 domain_crypt = 0x80u << 24;     // the first Crypt block's Up
inline constexpr u32 domain_squeeze = 0x40u << 24;   // the tag's Up
inline constexpr u32 domain_hash_first = 0x01u << 24;  // hash mode: the first block's Down

template <unsigned R, class V>
LWC_SIMD_INLINE V rotl(const V& x) {
  return V::template rotr<32 - R>(x);
}

// One round with the core's lane naming: a[x + 4 y] is lane x of plane y. The plane shifts of
// rho-west and rho-east are folded into the indices of chi, so a round is theta, iota, chi and
// the rotations only.
template <class V>
LWC_SIMD_INLINE void round(V (&a)[12], u32 rc) {
  const V p0 = V::xor3(a[0], a[4], a[8]), p1 = V::xor3(a[1], a[5], a[9]);
  const V p2 = V::xor3(a[2], a[6], a[10]), p3 = V::xor3(a[3], a[7], a[11]);
  const V e0 = rotl<5>(p3) ^ rotl<14>(p3), e1 = rotl<5>(p0) ^ rotl<14>(p0);
  const V e2 = rotl<5>(p1) ^ rotl<14>(p1), e3 = rotl<5>(p2) ^ rotl<14>(p2);
  const V b00 = V::xor3(a[0], e0, V::set1(rc)), b01 = a[1] ^ e1, b02 = a[2] ^ e2, b03 = a[3] ^ e3;
  const V b10 = a[7] ^ e3, b11 = a[4] ^ e0, b12 = a[5] ^ e1, b13 = a[6] ^ e2;
  const V b20 = rotl<11>(a[8] ^ e0), b21 = rotl<11>(a[9] ^ e1);
  const V b22 = rotl<11>(a[10] ^ e2), b23 = rotl<11>(a[11] ^ e3);
  a[0] = V::xor_andn(b00, b10, b20);
  a[1] = V::xor_andn(b01, b11, b21);
  a[2] = V::xor_andn(b02, b12, b22);
  a[3] = V::xor_andn(b03, b13, b23);
  a[4] = rotl<1>(V::xor_andn(b10, b20, b00));
  a[5] = rotl<1>(V::xor_andn(b11, b21, b01));
  a[6] = rotl<1>(V::xor_andn(b12, b22, b02));
  a[7] = rotl<1>(V::xor_andn(b13, b23, b03));
  a[8] = rotl<8>(V::xor_andn(b22, b02, b12));
  a[9] = rotl<8>(V::xor_andn(b23, b03, b13));
  a[10] = rotl<8>(V::xor_andn(b20, b00, b10));
  a[11] = rotl<8>(V::xor_andn(b21, b01, b11));
}

// Xoodoo[12] on every lane.
template <class V>
LWC_SIMD_INLINE void permute(V (&a)[12]) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
  for (int r = 0; r < 12; ++r) round(a, round_constants[r]);
}

// States of V::lanes jobs in memory, word by word: s[w][j] is word w of lane j.
template <class V>
using state_array = u32[12][V::lanes];

template <class V>
LWC_SIMD_INLINE void load_state(V (&x)[12], const state_array<V>& s) {
  for (int w = 0; w < 12; ++w) x[w] = V::load(s[w]);
}
template <class V>
LWC_SIMD_INLINE void store_state(const V (&x)[12], state_array<V>& s) {
  for (int w = 0; w < 12; ++w) x[w].store(s[w]);
}
// Outside the lane steps (the groups' starts and finishes) the permutation runs on states in
// memory through one out-of-line copy per vector type. Inlined at each of those calls in every
// engine, the fully unrolled copies made a backend unit take minutes to compile under the
// sanitizers; a call per group costs nothing measurable.
template <class V>
LWC_SIMD_NOINLINE void permute_array(state_array<V>& s) {
  V x[12];
  load_state(x, s);
  permute(x);
  store_state(x, s);
}
// s, with the lanes whose mask word is all-ones replaced by t.
template <class V>
LWC_SIMD_INLINE void select_lanes(state_array<V>& s, const state_array<V>& t, const V& mask) {
  for (int w = 0; w < 12; ++w) V::select(mask, V::load(t[w]), V::load(s[w])).store(s[w]);
}
// Up on the lanes whose mask word is all-ones; the other lanes keep their state.
template <class V>
LWC_SIMD_INLINE void permute_where(state_array<V>& s, const u32 (&mask)[V::lanes]) {
  alignas(64) state_array<V> t;
  std::memcpy(t, s, sizeof t);
  permute_array<V>(t);
  select_lanes<V>(s, t, V::load(mask));
  wipe(t, sizeof t);
}

// ---- AEAD -----------------------------------------------------------------------------------

// The family's part of the lane engine (engine.hpp).
template <class V, bool Decrypt>
struct aead_family {
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 12;
  static constexpr size_t rate = crypt_rate, out_rate = crypt_rate;
  static constexpr size_t tag_bytes = 16;
  static constexpr bool decrypt = Decrypt;
  using states = state_array<V>;
  // The associated data's partial last block, padded, for the group's absorb step.
  static constexpr size_t stage_bytes = 48;

  // k full blocks of Crypt on every lane: Up, then the block in and the other text out.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[12], const states&, const u8* const* src, u8* const* dst, u64 k,
                             const Cursors& cur) {
    const V pad = V::set1(0x01);  // Down's padding byte, right after the 24-byte block
    for (size_t off = 0; off < k * crypt_rate; off += crypt_rate) {
      cur.prefetch(off);
      permute(x);
      V in[6], out[6];
      V::load_blocks(src, off, in);
      for (int w = 0; w < 6; ++w) {
        out[w] = x[w] ^ in[w];
        x[w] = Decrypt ? in[w] : out[w];  // the ciphertext stays in the state
      }
      x[6] = x[6] ^ pad;
      V::store_blocks(dst, off, out);
    }
  }

  // The group's start on the whole vectors: the key block K || N || 0x10, its padding and
  // domain byte, then every Absorb block of the associated data (at least one, empty when there
  // is none), then the first Crypt block's domain byte.
  void start(states& pool, const aead_desc* jobs, size_t m) {
    size_t blocks[N] = {};
    size_t most = 0;
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      for (int w = 0; w < 4; ++w) {
        pool[w][i] = load_le32(d.key + 4 * w);
        pool[4 + w][i] = load_le32(d.nonce + 4 * w);
      }
      pool[8][i] = 0x10 | 0x01 << 8;  // id length byte, then Down's padding
      pool[11][i] = domain_key;
      blocks[i] = d.ad_len / absorb_rate + (d.ad_len % absorb_rate != 0 || d.ad_len == 0);
      most = blocks[i] > most ? blocks[i] : most;
    }
    for (size_t b = 0; b < most; ++b) absorb_block(pool, jobs, b, blocks, m);
    for (size_t i = 0; i < m; ++i) pool[11][i] ^= domain_crypt;
  }

  // Block b of every started job's associated data: Up, then Down of the block (a full one
  // from the caller's buffer with its padding byte in byte 44, a partial or empty one copied
  // and padded), the first with domain byte 0x03. Jobs with fewer blocks keep their state.
  void absorb_block(states& pool, const aead_desc* jobs, size_t b, const size_t (&blocks)[N],
                    size_t m) {
    const u8* src[N];
    alignas(64) u32 takes[N], last_word[N];
    for (size_t i = 0; i < N; ++i) {
      src[i] = zero_;
      takes[i] = 0;
      last_word[i] = 0;
      if (i >= m || b >= blocks[i]) continue;
      const aead_desc& d = jobs[i];
      const size_t at = b * absorb_rate, left = d.ad_len - at;
      takes[i] = ~u32{0};
      if (left >= absorb_rate) {
        src[i] = d.ad + at;
        last_word[i] = 0x01;
      } else {
        std::memset(stage_[i], 0, stage_bytes);
        if (left != 0) std::memcpy(stage_[i], d.ad + at, left);
        stage_[i][left] = 0x01;
        src[i] = stage_[i];
      }
      if (b == 0) last_word[i] ^= domain_absorb;
    }
    alignas(64) state_array<V> t;
    std::memcpy(t, pool, sizeof t);
    permute_array<V>(t);
    V in[11];
    V::load_blocks(src, 0, in);
    for (int w = 0; w < 11; ++w) (V::load(t[w]) ^ in[w]).store(t[w]);
    (V::load(t[11]) ^ V::load(last_word)).store(t[11]);
    select_lanes<V>(pool, t, V::load(takes));
    wipe(t, sizeof t);
  }

  // The queued jobs' last blocks and tags: Up for the jobs whose message ends in a partial or
  // empty block and that block's bytes, then Squeeze(16) (domain byte 0x40, Up) for all.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    alignas(64) u32 open[N] = {};
    bool any_open = false;
    for (size_t i = 0; i < n; ++i) {
      const aead_desc& d = jobs[i];
      if (d.len % crypt_rate != 0 || d.len == 0) {
        open[i] = ~u32{0};
        any_open = true;
      }
    }
    if (any_open) permute_where<V>(fin, open);
    for (size_t i = 0; i < n; ++i) {
      if (open[i] != 0) crypt_last_block(fin, i, jobs[i]);
      fin[11][i] ^= domain_squeeze;
    }
    permute_array<V>(fin);
    for (size_t i = 0; i < n; ++i)
      for (int w = 0; w < 4; ++w) store_le32(tags[i] + 4 * w, fin[w][i]);
  }

  // The message's last len % 24 bytes (none for an empty message) after their Up: out = in ^
  // state, the ciphertext into the state, then the padding byte.
  static void crypt_last_block(states& fin, size_t i, const aead_desc& d) {
    const size_t r = d.len % crypt_rate;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    for (size_t b = 0; b < r; ++b) {
      u32& w = fin[b / 4][i];
      const unsigned shift = 8 * (b % 4);
      const u8 x = in[b];
      const u8 y = static_cast<u8>(x ^ (w >> shift));
      out[b] = y;
      w ^= u32{Decrypt ? y : x} << shift;
    }
    fin[r / 4][i] ^= u32{0x01} << (8 * (r % 4));
  }

  void wipe_scratch() { wipe(stage_, sizeof stage_); }

  alignas(64) u8 stage_[N][stage_bytes];
  alignas(64) u8 zero_[stage_bytes] = {};
};

// ---- Xoodyak-Hash ---------------------------------------------------------------------------

template <class V>
struct hash_family {
  using vector = V;
  using word = u32;
  using task = sponge_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 12;
  static constexpr size_t rate = hash_rate, out_rate = 0;
  using states = state_array<V>;

  // k full blocks on every lane: the block and its padding byte (byte 16) in, then Up.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[12], const states&, const u8* const* src, u8* const*, u64 k,
                             const Cursors& cur) {
    const V pad = V::set1(0x01);
    for (size_t off = 0; off < k * hash_rate; off += hash_rate) {
      cur.prefetch_input(off);
      V in[4];
      V::load_blocks(src, off, in);
      for (int w = 0; w < 4; ++w) x[w] = x[w] ^ in[w];
      x[4] = x[4] ^ pad;
      permute(x);
    }
  }

  // The empty state with the first block's domain byte, which no block before the first Up
  // can touch.
  void start(states& pool, const sponge_desc*, size_t m) {
    for (size_t i = 0; i < m; ++i) pool[11][i] = domain_hash_first;
  }

  // A queued job has only its partial or empty last block left, or nothing when its length is
  // a nonzero multiple of 16: that block's bytes and padding go in here.
  void queued(states& fin, size_t q, size_t, const sponge_desc& d) {
    const size_t r = d.len % hash_rate;
    open_[q] = 0;
    if (r != 0 || d.len == 0) {
      const u8* in = d.in + (d.len - r);
      for (size_t b = 0; b < r; ++b) fin[b / 4][q] ^= u32{in[b]} << (8 * (b % 4));
      fin[r / 4][q] ^= u32{0x01} << (8 * (r % 4));
      open_[q] = ~u32{0};
    }
  }

  // Up for the queued jobs whose last block went in at queued(), then the digests: 16 bytes
  // per Up, with an empty block (padding byte 0) in between.
  void finish(states& fin, const sponge_desc* jobs, size_t n) {
    for (size_t i = n; i < N; ++i) open_[i] = 0;
    bool any_open = false;
    for (size_t i = 0; i < n; ++i) any_open |= open_[i] != 0;
    if (any_open) permute_where<V>(fin, open_);
    for (size_t done = 0;;) {
      bool more = false;
      for (size_t i = 0; i < n; ++i) {
        const sponge_desc& d = jobs[i];
        for (size_t b = done; b < d.out_len && b < done + hash_rate; ++b)
          d.out[b] = static_cast<u8>(fin[(b - done) / 4][i] >> (8 * (b % 4)));
        more |= d.out_len > done + hash_rate;
      }
      if (!more) break;
      done += hash_rate;
      for (size_t i = 0; i < N; ++i) fin[0][i] ^= 0x01;
      permute_array<V>(fin);
    }
  }

  alignas(64) u32 open_[N] = {};  // all-ones where the queued job's last block waits for its Up
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::xoodyak_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <>
struct lane_kernel<lwc::xoodyak::aead> {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<xoodyak_lanes::aead_family<V, false>, xoodyak_lanes::aead_family<V, true>>(t);
  }
};
template <>
struct lane_kernel<lwc::xoodyak::hash> {
  template <lane_vector32 V>
  static void sponge(const sponge_task& t) { run_sponge_lanes<xoodyak_lanes::hash_family<V>>(t); }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
