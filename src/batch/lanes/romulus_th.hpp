// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-H in lanes, on the SKINNY-128-384+ lanes of romulus.hpp (included after it, through
// lane_kernels.hpp, inside the backend's namespace).
//
// A lane step is one 32-byte block of a job through the Hirose compression function, as
// include/lwc/romulus/common.hpp computes it: with (g, m) as tweakey (TK1 = g, TK2 = the
// block's first 16 bytes, TK3 its last 16), h' = E(h) ^ h and g' = E(h ^ c) ^ h ^ c, c = 1 in
// byte 0. All three tweakey arrays change from block to block, so nothing is expanded ahead:
// the round words are stepped beside the rounds, once for the two encryptions, which share
// them and run side by side on the same vectors. A lane's state is h and g, eight 32-bit rows;
// a job starts from zeros. Its last 0..31 bytes, padded with their count, go through the
// compression (h ^= 2 first) in the finish queue, V::lanes jobs at a time on the whole vectors.
//
// Lengths decide every branch and every index; the message and the states never do.
#pragma once

#include <cstddef>
#include <cstdint>

#include <lwc/romulus/romulus_h.hpp>
#include <lwc/romulus/romulus_t.hpp>

#include "romulus.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/romulus_th.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::romulus_lanes {

inline constexpr size_t hash_block_bytes = 32;
inline constexpr size_t digest_bytes = 32;

// The round words of the Hirose calls: TK1, TK2 and TK3 all stepped beside the rounds.
template <class V>
struct hirose_source {
  live_words<V> tk1, tk2, tk3;

  template <int R>
  LWC_SIMD_INLINE pair<V> next(int r) {
    const u64 c = round_constants.w[r];
    const pair<V> a = take_word<1, R>(tk1), b = take_word<2, R>(tk2), d = take_word<3, R>(tk3);
    return {V::xor3(a.lo, b.lo, d.lo) ^ V::set1(static_cast<u32>(c)),
            V::xor3(a.hi, b.hi, d.hi) ^ V::set1(static_cast<u32>(c >> 32))};
  }
};

template <int R = 0, class V>
LWC_SIMD_INLINE void eight_rounds_two(V (&a)[4], V (&b)[4], hirose_source<V>& src, int q) {
  if constexpr (R < 8) {
    const pair<V> k = src.template next<R>(q + R);
    round_with<R>(a, k);
    round_with<R>(b, k);
    eight_rounds_two<R + 1>(a, b, src, q);
  }
}

// The Hirose compression's two inputs, h and h ^ c, into the cipher's representation (a, b);
// then the outputs back, fed forward into h' and g'.
template <class V>
LWC_SIMD_INLINE void hirose_enter(const V (&h)[4], V (&a)[4], V (&b)[4]) {
  for (size_t i = 0; i < 4; ++i) {
    a[i] = V::not_(apply_map<core::map_kind::enter>(h[i]));
    b[i] = V::not_(apply_map<core::map_kind::enter>(i == 0 ? h[0] ^ V::set1(1) : h[i]));
  }
}
template <class V>
LWC_SIMD_INLINE void hirose_leave(V (&h)[4], V (&g)[4], const V (&a)[4], const V (&b)[4]) {
  for (size_t i = 0; i < 4; ++i) {
    const V ea = apply_map<core::map_kind::leave>(V::not_(a[i]));
    const V eb = apply_map<core::map_kind::leave>(V::not_(b[i]));
    g[i] = eb ^ (i == 0 ? h[0] ^ V::set1(1) : h[i]);
    h[i] = ea ^ h[i];
  }
}

// The compression of one block m (eight rows: TK2's four, then TK3's) into (h, g) on every
// lane: the one copy per vector type, called by the lane steps and the finish queue.
template <class V>
LWC_SIMD_NOINLINE void hirose(V (&h)[4], V (&g)[4], const V (&m)[8]) {
  hirose_source<V> src{start_live<1>(pair<V>{g[0], g[1]}, pair<V>{g[2], g[3]}),
                       start_live<2>(pair<V>{m[0], m[1]}, pair<V>{m[2], m[3]}),
                       start_live<3>(pair<V>{m[4], m[5]}, pair<V>{m[6], m[7]})};
  V a[4], b[4];
  hirose_enter(h, a, b);
  for (int q = 0; q < static_cast<int>(rounds); q += 8) eight_rounds_two(a, b, src, q);
  hirose_leave(h, g, a, b);
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
// The AVX-512 backend's unit: copies of the lane steps' ciphers for CPUs that also have GFNI
// and AVX-512 VBMI (romulus.hpp's tbc_gfni does the same for Romulus-N's counter). A live
// tweakey word steps with two byte permutes (the cell permutation) and two gf2p8affineqb (the
// per-byte map: LFSR and bit order) instead of some sixty shifts, masks and XORs; a Hirose
// round steps three of them, a key-stream round one or two.
#define LWC_ROMULUS_TH_GFNI __attribute__((target("gfni,avx512vbmi,avx512bw,avx512f")))

template <int Tk, int R, class V>
LWC_SIMD_INLINE LWC_ROMULUS_TH_GFNI pair<V> step_word_gfni(const pair<V>& w, __m512i idx_lo,
                                                           __m512i idx_hi) {
  const __m512i lo = _mm512_permutex2var_epi8(w.lo.v, idx_lo, w.hi.v);
  const __m512i hi = _mm512_permutex2var_epi8(w.lo.v, idx_hi, w.hi.v);
  return {V{byte_map<core::map_kind::step, Tk, R>(lo)},
          V{byte_map<core::map_kind::step, Tk, R>(hi)}};
}

template <int Tk, int R, class V>
LWC_SIMD_INLINE LWC_ROMULUS_TH_GFNI pair<V> take_word_gfni(live_words<V>& l, __m512i idx_lo,
                                                           __m512i idx_hi) {
  pair<V>& slot = R % 2 == 0 ? l.even : l.odd;
  const pair<V> w = slot;
  slot = step_word_gfni<Tk, R>(w, idx_lo, idx_hi);
  return w;
}

template <class V>
struct hirose_gfni_source {
  live_words<V> tk1, tk2, tk3;
  __m512i idx_lo, idx_hi;

  template <int R>
  LWC_SIMD_INLINE LWC_ROMULUS_TH_GFNI pair<V> next(int r) {
    const u64 c = round_constants.w[r];
    const pair<V> a = take_word_gfni<1, R>(tk1, idx_lo, idx_hi);
    const pair<V> b = take_word_gfni<2, R>(tk2, idx_lo, idx_hi);
    const pair<V> d = take_word_gfni<3, R>(tk3, idx_lo, idx_hi);
    return {V::xor3(a.lo, b.lo, d.lo) ^ V::set1(static_cast<u32>(c)),
            V::xor3(a.hi, b.hi, d.hi) ^ V::set1(static_cast<u32>(c >> 32))};
  }
};

template <int R = 0, class V>
LWC_SIMD_INLINE LWC_ROMULUS_TH_GFNI void eight_rounds_two_gfni(V (&a)[4], V (&b)[4],
                                                               hirose_gfni_source<V>& src, int q) {
  if constexpr (R < 8) {
    const pair<V> k = src.template next<R>(q + R);
    round_with<R>(a, k);
    round_with<R>(b, k);
    eight_rounds_two_gfni<R + 1>(a, b, src, q);
  }
}

template <class V>
LWC_SIMD_NOINLINE LWC_ROMULUS_TH_GFNI void hirose_gfni(V (&h)[4], V (&g)[4], const V (&m)[8]) {
  hirose_gfni_source<V> src{start_live<1>(pair<V>{g[0], g[1]}, pair<V>{g[2], g[3]}),
                            start_live<2>(pair<V>{m[0], m[1]}, pair<V>{m[2], m[3]}),
                            start_live<3>(pair<V>{m[4], m[5]}, pair<V>{m[6], m[7]}),
                            cell_indices<0>(), cell_indices<1>()};
  V a[4], b[4];
  hirose_enter(h, a, b);
  for (int q = 0; q < static_cast<int>(rounds); q += 8) eight_rounds_two_gfni(a, b, src, q);
  hirose_leave(h, g, a, b);
}
#endif

// hirose on the fastest code this backend has for the CPU.
template <class V>
LWC_SIMD_INLINE void hirose_fastest(V (&h)[4], V (&g)[4], const V (&m)[8],
                                    [[maybe_unused]] bool gfni) {
#if defined(__AVX512F__) && defined(__AVX512BW__)
  if constexpr (sizeof(V) == 64) {
    if (gfni) {
      hirose_gfni<V>(h, g, m);
      return;
    }
  }
#endif
  hirose<V>(h, g, m);
}

// Whether this backend's unit runs the GFNI copies on this CPU.
LWC_SIMD_INLINE bool use_gfni() {
#if defined(__AVX512F__) && defined(__AVX512BW__)
  return ::lwc::batch::detail::cpu_has_gfni_vbmi();
#else
  return false;
#endif
}

// The family's part of the lane engine (engine.hpp): rows 0..3 of a lane hold h, rows 4..7 g.
template <class V>
struct h_family {
  using vector = V;
  using word = u32;
  using task = sponge_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 8;
  static constexpr size_t rate = hash_block_bytes, out_rate = 0;
  using states = u32[words][N];

  // h = g = 0.
  void start_one(states& lanes, size_t j, const sponge_desc&) {
    for (size_t w = 0; w < words; ++w) lanes[w][j] = 0;
  }

  // A job's full blocks all go through the lanes: its padded last block (0..31 bytes) always
  // follows them.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src, u8* const*,
                             u64 k, const Cursors& cur) {
    V h[4], g[4];
    for (size_t w = 0; w < 4; ++w) {
      h[w] = x[w];
      g[w] = x[4 + w];
    }
    const bool gfni = use_gfni();
    for (size_t off = 0; off < k * hash_block_bytes; off += hash_block_bytes) {
      cur.prefetch_input(off);
      V m[8];
      V::load_blocks(src, off, m);
      hirose_fastest(h, g, m, gfni);
    }
    for (size_t w = 0; w < 4; ++w) {
      x[w] = h[w];
      x[4 + w] = g[w];
    }
  }

  // The queued jobs' last blocks: the 0..31 bytes left, zeros, their count in byte 31; h ^= 2;
  // one compression on the whole vectors; the digest h || g.
  void finish(states& fin, const sponge_desc* jobs, size_t n) {
    alignas(64) u32 block[8][N] = {};
    alignas(8) u8 buf[hash_block_bytes];
    for (size_t i = 0; i < n; ++i) {
      const sponge_desc& d = jobs[i];
      const size_t r = d.len % hash_block_bytes;
      for (size_t b = 0; b < hash_block_bytes; ++b) buf[b] = 0;
      for (size_t b = 0; b < r; ++b) buf[b] = d.in[d.len - r + b];
      buf[hash_block_bytes - 1] = static_cast<u8>(r);
      for (size_t w = 0; w < 8; ++w) block[w][i] = load_le32(buf + 4 * w);
      fin[0][i] ^= 2;
    }
    V h[4], g[4], m[8];
    for (size_t w = 0; w < 4; ++w) {
      h[w] = V::load(fin[w]);
      g[w] = V::load(fin[4 + w]);
    }
    for (size_t w = 0; w < 8; ++w) m[w] = V::load(block[w]);
    hirose_fastest(h, g, m, use_gfni());
    for (size_t w = 0; w < 4; ++w) {
      h[w].store(fin[w]);
      g[w].store(fin[4 + w]);
    }
    for (size_t i = 0; i < n; ++i) {
      const sponge_desc& d = jobs[i];
      const size_t len = d.out_len < digest_bytes ? d.out_len : digest_bytes;
      for (size_t b = 0; b < len; ++b) d.out[b] = static_cast<u8>(fin[b / 4][i] >> (8 * (b % 4)));
    }
    wipe(block, sizeof block);
    wipe(buf, sizeof buf);
  }
};

// ---- Romulus-T ----------------------------------------------------------------------------

// Domain bytes of Romulus-T (TK1 byte 7): the first key from K, a block's key stream, the next
// key, the tag.
inline constexpr u32 domain_t_first_key = 66;
inline constexpr u32 domain_t_stream = 64;
inline constexpr u32 domain_t_next_key = 65;
inline constexpr u32 domain_t_tag = 68;

// The round words of a key-stream block: TK3 (the block's key Z) stepped beside the rounds and
// shared, TK1 the counter under two domains (one per encryption), TK2 zero.
template <class V>
struct t_stream_source {
  live_words<V> tk3;
  pair<V> tk1a, tk1b;  // their words of the next even round

  template <int R>
  LWC_SIMD_INLINE void next(int r, pair<V>& ka, pair<V>& kb) {
    const u64 c = round_constants.w[r];
    const pair<V> k = take_word<3, R>(tk3);
    const pair<V> w{k.lo ^ V::set1(static_cast<u32>(c)), k.hi ^ V::set1(static_cast<u32>(c >> 32))};
    if constexpr (R % 2 == 0) {
      ka = {w.lo ^ tk1a.lo, w.hi ^ tk1a.hi};
      kb = {w.lo ^ tk1b.lo, w.hi ^ tk1b.hi};
      tk1a = step_word<1, R>(tk1a);
      tk1b = step_word<1, R>(tk1b);
    } else {
      ka = kb = w;
    }
  }
};

template <int R = 0, class V>
LWC_SIMD_INLINE void eight_stream_rounds(V (&a)[4], V (&b)[4], t_stream_source<V>& src, int q) {
  if constexpr (R < 8) {
    pair<V> ka, kb;
    src.template next<R>(q + R, ka, kb);
    round_with<R>(a, ka);
    round_with<R>(b, kb);
    eight_stream_rounds<R + 1>(a, b, src, q);
  }
}

// One block of Romulus-T's key stream on every lane, raw the counter words: ks = E(Z, (counter,
// 64))(N) and Z <- E(Z, (counter, 65))(N), the two encryptions side by side.
template <class V>
LWC_SIMD_INLINE t_stream_source<V> t_stream_start(const V (&z)[4], const pair<V>& raw) {
  return {start_live<3>(pair<V>{z[0], z[1]}, pair<V>{z[2], z[3]}),
          counter_word(pair<V>{raw.lo, raw.hi ^ V::set1(domain_t_stream << 24)}),
          counter_word(pair<V>{raw.lo, raw.hi ^ V::set1(domain_t_next_key << 24)})};
}

template <class V>
LWC_SIMD_NOINLINE void t_stream(V (&z)[4], const V (&n)[4], const pair<V>& raw, V (&ks)[4]) {
  t_stream_source<V> src = t_stream_start(z, raw);
  V a[4], b[4];
  for (size_t i = 0; i < 4; ++i) a[i] = b[i] = V::not_(apply_map<core::map_kind::enter>(n[i]));
  for (int q = 0; q < static_cast<int>(rounds); q += 8) eight_stream_rounds(a, b, src, q);
  for (size_t i = 0; i < 4; ++i) {
    ks[i] = apply_map<core::map_kind::leave>(V::not_(a[i]));
    z[i] = apply_map<core::map_kind::leave>(V::not_(b[i]));
  }
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
template <int R = 0, class V>
LWC_SIMD_INLINE LWC_ROMULUS_TH_GFNI void eight_stream_rounds_gfni(V (&a)[4], V (&b)[4],
                                                                  t_stream_source<V>& src,
                                                                  int q, __m512i idx_lo,
                                                                  __m512i idx_hi) {
  if constexpr (R < 8) {
    const u64 c = round_constants.w[q + R];
    const pair<V> k = take_word_gfni<3, R>(src.tk3, idx_lo, idx_hi);
    const pair<V> w{k.lo ^ V::set1(static_cast<u32>(c)), k.hi ^ V::set1(static_cast<u32>(c >> 32))};
    if constexpr (R % 2 == 0) {
      round_with<R>(a, pair<V>{w.lo ^ src.tk1a.lo, w.hi ^ src.tk1a.hi});
      round_with<R>(b, pair<V>{w.lo ^ src.tk1b.lo, w.hi ^ src.tk1b.hi});
      src.tk1a = step_word_gfni<1, R>(src.tk1a, idx_lo, idx_hi);
      src.tk1b = step_word_gfni<1, R>(src.tk1b, idx_lo, idx_hi);
    } else {
      round_with<R>(a, w);
      round_with<R>(b, w);
    }
    eight_stream_rounds_gfni<R + 1>(a, b, src, q, idx_lo, idx_hi);
  }
}

template <class V>
LWC_SIMD_NOINLINE LWC_ROMULUS_TH_GFNI void t_stream_gfni(V (&z)[4], const V (&n)[4],
                                                         const pair<V>& raw, V (&ks)[4]) {
  t_stream_source<V> src = t_stream_start(z, raw);
  const __m512i idx_lo = cell_indices<0>(), idx_hi = cell_indices<1>();
  V a[4], b[4];
  for (size_t i = 0; i < 4; ++i) a[i] = b[i] = V::not_(apply_map<core::map_kind::enter>(n[i]));
  for (int q = 0; q < static_cast<int>(rounds); q += 8)
    eight_stream_rounds_gfni(a, b, src, q, idx_lo, idx_hi);
  for (size_t i = 0; i < 4; ++i) {
    ks[i] = apply_map<core::map_kind::leave>(V::not_(a[i]));
    z[i] = apply_map<core::map_kind::leave>(V::not_(b[i]));
  }
}
#undef LWC_ROMULUS_TH_GFNI
#endif

template <class V>
LWC_SIMD_INLINE void t_stream_fastest(V (&z)[4], const V (&n)[4], const pair<V>& raw,
                                      V (&ks)[4], [[maybe_unused]] bool gfni) {
#if defined(__AVX512F__) && defined(__AVX512BW__)
  if constexpr (sizeof(V) == 64) {
    if (gfni) {
      t_stream_gfni<V>(z, n, raw, ks);
      return;
    }
  }
#endif
  t_stream<V>(z, n, raw, ks);
}

// The compression on states in memory; lanes whose keep word is zero keep theirs.
template <class V>
LWC_SIMD_INLINE void hirose_array(rows<V::lanes>& h, rows<V::lanes>& g,
                                  const u32 (&block)[8][V::lanes], const u32 (&keep)[V::lanes]) {
  V h0[4], g0[4], h1[4], g1[4], m[8];
  for (size_t w = 0; w < 4; ++w) {
    h0[w] = h1[w] = V::load(h[w]);
    g0[w] = g1[w] = V::load(g[w]);
  }
  for (size_t w = 0; w < 8; ++w) m[w] = V::load(block[w]);
  hirose_fastest(h1, g1, m, use_gfni());
  const V k = V::load(keep);
  for (size_t w = 0; w < 4; ++w) {
    V::select(k, h1[w], h0[w]).store(h[w]);
    V::select(k, g1[w], g0[w]).store(g[w]);
  }
}

// n < 16 bytes, zeros, and n in the last of the 16 bytes.
inline void t_pad_half(u8* p, const u8* src, size_t n) {
  for (size_t i = 0; i < 15; ++i) p[i] = i < n ? src[i] : 0;
  p[15] = static_cast<u8>(n);
}
// 16 <= n < 32 bytes, zeros, and n mod 16 in the last of the 32 bytes.
inline void t_pad_block(u8* p, const u8* src, size_t n) {
  for (size_t i = 0; i < 31; ++i) p[i] = i < n ? src[i] : 0;
  p[31] = static_cast<u8>(n & 15);
}

// The 32-byte blocks a job's tag hashes (the core's romulus_t_hash, case by case): A's whole
// blocks, A's padded tail (which may take C's first half, C's padded half or the nonce), C's
// whole blocks, C's padded tail (which may take the nonce), and the last block with the nonce
// (unless taken), the counter and the number of bytes used. The whole blocks are read where
// they lie; the others are built here.
struct t_hash_plan {
  const u8* ad;
  size_t ad_whole;
  const u8* c;
  size_t c_whole;
  bool has_a_tail, has_c_tail;
  size_t blocks;
  alignas(8) u8 a_tail[32], c_tail[32], last[32];

  void make(const u8* a, size_t ad_len, const u8* ct, size_t c_len, const u8* nonce) {
    u64 counter = 1;
    bool nonce_taken = false;
    bool c_open = c_len != 0;  // C has bytes, or its padded last half, still to absorb
    ad = a;
    ad_whole = ad_len / 32;
    const size_t rest = ad_len % 32;
    has_a_tail = ad_len != 0;
    if (rest >= 16) {
      t_pad_block(a_tail, a + 32 * ad_whole, rest);
    } else if (ad_len != 0) {
      t_pad_half(a_tail, a + 32 * ad_whole, rest);
      if (c_len >= 16) {
        for (size_t i = 0; i < 16; ++i) a_tail[16 + i] = ct[i];
        counter = next_counter_scalar(counter);
        c_len -= 16;
        ct += 16;
      } else if (c_len > 0) {
        t_pad_half(a_tail + 16, ct, c_len);
        counter = next_counter_scalar(counter);
        c_len = 0;
        c_open = false;
      } else {
        for (size_t i = 0; i < 16; ++i) a_tail[16 + i] = nonce[i];
        nonce_taken = true;
      }
    }
    c = ct;
    c_whole = c_len / 32;
    for (size_t i = 0; i < 2 * c_whole; ++i) counter = next_counter_scalar(counter);
    const size_t rc = c_len % 32;
    const u8* tail = ct + 32 * c_whole;
    has_c_tail = rc >= 16 || c_open;
    if (rc > 16) {
      t_pad_block(c_tail, tail, rc);
      counter = next_counter_scalar(next_counter_scalar(counter));
    } else if (rc == 16) {
      t_pad_block(c_tail, tail, 16);
      counter = next_counter_scalar(counter);
    } else if (c_open) {
      t_pad_half(c_tail, tail, rc);
      if (rc != 0) counter = next_counter_scalar(counter);
      for (size_t i = 0; i < 16; ++i) c_tail[16 + i] = nonce[i];
      nonce_taken = true;
    }
    for (size_t i = 0; i < 32; ++i) last[i] = 0;
    size_t used = 0;
    if (!nonce_taken) {
      for (size_t i = 0; i < 16; ++i) last[i] = nonce[i];
      used = 16;
    }
    for (size_t i = 0; i < 7; ++i) last[used + i] = static_cast<u8>(counter >> (8 * i));
    last[31] = static_cast<u8>(used + 7);
    blocks = ad_whole + (has_a_tail ? 1 : 0) + c_whole + (has_c_tail ? 1 : 0) + 1;
  }

  const u8* block(size_t b) const {
    if (b < ad_whole) return ad + 32 * b;
    b -= ad_whole;
    if (has_a_tail && b-- == 0) return a_tail;
    if (b < c_whole) return c + 32 * b;
    b -= c_whole;
    if (has_c_tail && b-- == 0) return c_tail;
    return last;
  }

  void wipe_tails() {
    wipe(a_tail, sizeof a_tail);
    wipe(c_tail, sizeof c_tail);
    wipe(last, sizeof last);
  }
};

// The tags of n jobs on the whole vectors, c[i] the ciphertext of job i: the hash (h, g) of
// each job's blocks, h ^= 2 before its last, a job with fewer blocks than another of its group
// keeping its state by a lane-wise select; then T = E(K, (0, 68), g)(h).
template <class V>
void t_tags(rows<V::lanes>& tag, const aead_desc* jobs, size_t n, const u8* const* c,
            const rows<V::lanes>& key) {
  constexpr size_t N = V::lanes;
  t_hash_plan plan[N] = {};
  size_t most = 0;
  for (size_t i = 0; i < n; ++i) {
    plan[i].make(jobs[i].ad, jobs[i].ad_len, c[i], jobs[i].len, jobs[i].nonce);
    most = plan[i].blocks > most ? plan[i].blocks : most;
  }
  alignas(64) rows<N> h = {}, g = {};
  alignas(64) u32 data[8][N] = {}, keep[N] = {};
  for (size_t p = 0; p < most; ++p) {
    for (size_t i = 0; i < N; ++i) {
      keep[i] = 0;
      if (i >= n || p >= plan[i].blocks) continue;
      const u8* b = plan[i].block(p);
      for (size_t w = 0; w < 8; ++w) data[w][i] = load_le32(b + 4 * w);
      if (p + 1 == plan[i].blocks) h[0][i] ^= 2;
      keep[i] = ~u32{0};
    }
    hirose_array<V>(h, g, data, keep);
  }
  alignas(64) schedule<N> call;
  alignas(64) u32 tk1[2][N] = {}, all[N];
  for (size_t i = 0; i < N; ++i) {
    tk1[1][i] = domain_t_tag << 24;
    all[i] = ~u32{0};
  }
  build_schedule<V>(call, &g, key);
  tbc_array<V>(h, call, tk1, all);
  for (size_t w = 0; w < 4; ++w)
    for (size_t i = 0; i < N; ++i) tag[w][i] = h[w][i];
  for (size_t i = 0; i < n; ++i) plan[i].wipe_tails();
  wipe(h, sizeof h);
  wipe(g, sizeof g);
  wipe(data, sizeof data);
  wipe(call, sizeof call);
}

// Romulus-T's key stream runs in the lanes, a step per message block but the last: the key
// stream block and the next key from two encryptions that share their rounds. The tag reads
// the ciphertext whole and runs on the group's vectors (encryption: in finish, over the
// ciphertext the lanes wrote; decryption: in start, before the lanes overwrite an in-place
// ciphertext). A lane: the key Z (four rows) and the two raw counter words; the nonce, the key
// and (decryption) the tag wait in memory beside it.
template <class V, bool Decrypt>
struct t_family {
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 6;
  static constexpr size_t nonce_row = words, key_row = words + 4, tag_row = words + 8;
  using states = u32[words + 12][N];
  static constexpr size_t rate = block_bytes, out_rate = block_bytes;
  static constexpr size_t tag_bytes = romulus_lanes::tag_bytes;
  static constexpr bool decrypt = Decrypt;

  static LWC_SIMD_INLINE rows<N>& rows_at(states& s, size_t r) {
    return *reinterpret_cast<rows<N>*>(&s[r]);
  }

  static u64 lane_steps(const aead_desc& d) { return d.len == 0 ? 0 : (d.len - 1) / block_bytes; }

  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states& lanes, const u8* const* src,
                             u8* const* dst, u64 k, const Cursors& cur) {
    V z[4], n[4];
    for (size_t w = 0; w < 4; ++w) {
      z[w] = x[w];
      n[w] = V::load(lanes[nonce_row + w]);
    }
    pair<V> c{x[4], x[5]};
    const bool gfni = use_gfni();
    for (size_t off = 0; off < k * block_bytes; off += block_bytes) {
      cur.prefetch(off);
      V in[4], ks[4];
      V::load_blocks(src, off, in);
      t_stream_fastest(z, n, c, ks, gfni);
      for (size_t w = 0; w < 4; ++w) ks[w] = ks[w] ^ in[w];
      V::store_blocks(dst, off, ks);
      c = next_counter(c);
    }
    for (size_t w = 0; w < 4; ++w) x[w] = z[w];
    x[4] = c.lo;
    x[5] = c.hi;
  }

  // Z = E(K, (0, 66))(N); decryption: the tag over the associated data and the ciphertext.
  void start(states& pool, const aead_desc* jobs, size_t m) {
    rows<N>& nonce = rows_at(pool, nonce_row);
    rows<N>& key = rows_at(pool, key_row);
    for (size_t i = 0; i < m; ++i)
      for (size_t w = 0; w < 4; ++w) {
        nonce[w][i] = load_le32(jobs[i].nonce + 4 * w);
        key[w][i] = load_le32(jobs[i].key + 4 * w);
      }
    alignas(64) schedule<N> key_only;
    alignas(64) rows<N> st;
    alignas(64) u32 tk1[2][N] = {}, all[N];
    for (size_t i = 0; i < N; ++i) {
      tk1[1][i] = domain_t_first_key << 24;
      all[i] = ~u32{0};
      for (size_t w = 0; w < 4; ++w) st[w][i] = nonce[w][i];
    }
    build_schedule<V>(key_only, nullptr, key);
    tbc_array<V>(st, key_only, tk1, all);
    for (size_t i = 0; i < N; ++i) {
      for (size_t w = 0; w < 4; ++w) pool[w][i] = st[w][i];
      pool[4][i] = 1;  // the counter of the first block
      pool[5][i] = 0;
    }
    if constexpr (Decrypt) {
      const u8* ct[N] = {};
      for (size_t i = 0; i < m; ++i) ct[i] = jobs[i].in;
      t_tags<V>(rows_at(pool, tag_row), jobs, m, ct, key);
    }
    wipe(key_only, sizeof key_only);
    wipe(st, sizeof st);
  }

  // The queued jobs' last blocks (1..16 bytes: out = in ^ E(Z, (counter, 64))(N)), and their
  // tags: encryption's over the ciphertext now complete, or the one decryption computed at the
  // start.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    alignas(64) schedule<N> call;
    alignas(64) rows<N> st;
    alignas(64) u32 tk1[2][N], all[N];
    for (size_t i = 0; i < N; ++i) {
      tk1[0][i] = fin[4][i];
      tk1[1][i] = fin[5][i] | domain_t_stream << 24;
      all[i] = ~u32{0};
      for (size_t w = 0; w < 4; ++w) st[w][i] = fin[nonce_row + w][i];
    }
    build_schedule<V>(call, nullptr, rows_at(fin, 0));
    tbc_array<V>(st, call, tk1, all);
    for (size_t i = 0; i < n; ++i) {
      const aead_desc& d = jobs[i];
      if (d.len == 0) continue;
      const size_t at = (d.len - 1) / block_bytes * block_bytes;
      alignas(8) u8 ks[16];
      for (size_t w = 0; w < 4; ++w) store_le32(ks + 4 * w, st[w][i]);
      for (size_t b = 0; b < d.len - at; ++b)
        d.out[at + b] = static_cast<u8>(d.in[at + b] ^ ks[b]);
      wipe(ks, sizeof ks);
    }
    alignas(64) rows<N> computed;
    const rows<N>* tag = &rows_at(fin, tag_row);
    if constexpr (!Decrypt) {
      const u8* ct[N] = {};
      for (size_t i = 0; i < n; ++i) ct[i] = jobs[i].out;
      t_tags<V>(computed, jobs, n, ct, rows_at(fin, key_row));
      tag = &computed;
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t w = 0; w < 4; ++w) store_le32(tags[i] + 4 * w, (*tag)[w][i]);
    wipe(call, sizeof call);
    wipe(st, sizeof st);
    wipe(computed, sizeof computed);
  }
};

struct t_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<t_family<V, false>, t_family<V, true>>(t);
  }
};

struct h_lanes {
  template <lane_vector32 V>
  static void sponge(const sponge_task& t) {
    run_sponge_lanes<h_family<V>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::romulus_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

#ifndef LWC_BATCH_ROMULUS_H_JOB_BY_JOB
template <> struct lane_kernel<lwc::romulus::romulus_h> : romulus_lanes::h_lanes {};
#endif
#ifndef LWC_BATCH_ROMULUS_T_JOB_BY_JOB
template <> struct lane_kernel<lwc::romulus::romulus_t> : romulus_lanes::t_lanes {};
#endif

}  // namespace lwc::simd::LWC_SIMD_NS::eng
