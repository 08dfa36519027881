// SPDX-License-Identifier: MIT OR Apache-2.0
// TinyJAMBU-128, -192 and -256 in lanes, written once over a lane_vector32 type V and the key
// size, and instantiated by each backend translation unit inside its own namespace
// (LWC_SIMD_NS), through lane_kernels.hpp. V::lanes jobs are held as four lane vectors, one per
// 32-bit word of the 128-bit NLFSR (the word order of the core's 32-bit form, which CUDA device
// code and 32-bit hosts run; 64-bit hosts run the core as two 64-bit words), and one
// lane vector per key word: the key is an input of every step of the permutation, and each
// lane has its own. The keyed permutation is restated here for V, and the frame constants are
// copied; only the core's parameter struct (the long permutation's length) is used, as a
// compile-time constant: an inline function of the core compiled in this unit would carry its
// instruction set out of the backend's namespace.
//
// The permutations P_640 and P_1024 (1152, 1280 for the longer keys) are 20 and 32 (36, 40)
// word updates, each the 32 feedback bits of one state word at once; they fill the vectors by
// themselves, so every lane runs the same update of its own job. A lane step is the block a job
// repeats: one 4-byte message word (the frame bits, P_1024, the keystream word out and the
// plaintext word in). Each lane follows its own job and is refilled as soon as the job has no
// full word left (the group lane engine, lanes/engine.hpp); within a run of steps the words are
// moved four at a time (16 bytes per lane). What does not fit that step runs in groups of
// V::lanes jobs, every group on the whole vectors:
//  - start: the key setup, the three nonce words and the associated data, a word per P_640. A
//    job whose associated data has fewer words than another's in its group sits out the later
//    steps: a lane-wise select keeps its state. The started states wait in a pool that feeds
//    the refills.
//  - finish: the partial last word of the message, if any (its permutation in the group, masked
//    the same way, its bytes by scalar code), then the two permutations of the tag. Finished
//    jobs wait in a queue until V::lanes of them can go together.
// Lengths decide every branch and every index; keys, data and states never do, and a tag
// verdict only selects, by a mask, whether a job's plaintext is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/tinyjambu/tinyjambu.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/tinyjambu.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::tinyjambu_lanes {

// The frame bits of each phase (TinyJAMBU specification v2, section 3.2.2), XORed into state
// word 1 (bits 36..38 of the state) before each permutation.
inline constexpr u32 frame_nonce = 0x10;
inline constexpr u32 frame_ad = 0x30;
inline constexpr u32 frame_message = 0x50;
inline constexpr u32 frame_final = 0x70;

// P_640 in 32-step word updates; the long permutation's length depends on the key size.
inline constexpr unsigned short_updates = 20;
template <unsigned KeyBits>
inline constexpr unsigned long_updates = lwc::tinyjambu::detail::params<KeyBits>::long_words;

// Message, associated data and nonce words are 4 bytes.
inline constexpr size_t word_bytes = 4;
inline constexpr size_t tag_bytes = 8;

// 32 steps of the NLFSR at once: the next value of state word s, whose successors in state
// order are a, b, c, with nk the complement of the step's key word. The feedback bits
// s_0 + s_47 + ~(s_70 s_85) + s_91 + k of 32 consecutive steps read the state at bit offsets 47,
// 70, 85 and 91 from s, each a 32-bit window across two neighbouring words (b >> 6 | c << 26
// for offset 70; the two parts never overlap, so XOR joins them). The key is kept complemented
// so that the NAND costs no NOT: ~k ^ (x & y) = k ^ ~(x & y).
template <class V>
LWC_SIMD_INLINE V update(const V& s, const V& a, const V& b, const V& c, const V& nk) {
  const V t70 = V::template shr<6>(b) ^ V::template shl<26>(c);
  const V t85 = V::template shr<21>(b) ^ V::template shl<11>(c);
  const V x = V::xor3(s, nk, V::template shr<15>(a));                          // offset 47, low part
  const V y = V::xor3(x, V::template shl<17>(b), V::template shr<27>(b));    // 47 high, 91 low
  return V::xor3(y, V::template shl<5>(c), V::and_(t70, t85));               // 91 high, the AND
}

// P_n with n = 32 Updates on every lane. Four updates in a row rotate the roles of the four
// words, so no word moves; update i uses key word i mod KeyWords (the key restarts at every
// permutation), a compile-time index once the loop is unrolled.
template <unsigned Updates, unsigned KeyWords, class V>
LWC_SIMD_INLINE void permute(V (&s)[4], const V (&nk)[KeyWords]) {
  static_assert(Updates % 4 == 0);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 10
#endif
  for (unsigned g = 0; g < Updates / 4; ++g) {
    s[0] = update(s[0], s[1], s[2], s[3], nk[(4 * g + 0) % KeyWords]);
    s[1] = update(s[1], s[2], s[3], s[0], nk[(4 * g + 1) % KeyWords]);
    s[2] = update(s[2], s[3], s[0], s[1], nk[(4 * g + 2) % KeyWords]);
    s[3] = update(s[3], s[0], s[1], s[2], nk[(4 * g + 3) % KeyWords]);
  }
}

// The frame bits, then P_n.
template <unsigned Updates, unsigned KeyWords, class V>
LWC_SIMD_INLINE void framed_permute(V (&s)[4], const V (&nk)[KeyWords], u32 frame) {
  s[1] = s[1] ^ V::set1(frame);
  permute<Updates>(s, nk);
}

// The group's start and the tags do not depend on the direction (only the bytes of a partial
// last message word do, a public choice made there at run time): kept out of line in a base of
// both families, their permutations are compiled once per key size and backend, not twice.
template <class V, unsigned KeyBits>
struct aead_ends {
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr unsigned key_words = KeyBits / 32;
  static constexpr unsigned long_n = long_updates<KeyBits>;
  // A lane: the four state words, then the complemented key words.
  static constexpr size_t words = 4 + key_words;
  static constexpr size_t rate = word_bytes, out_rate = word_bytes;
  static constexpr size_t tag_bytes = 8;
  using states = u32[words][N];

  static LWC_SIMD_INLINE void split(const V (&x)[words], V (&s)[4], V (&nk)[key_words]) {
    for (size_t w = 0; w < 4; ++w) s[w] = x[w];
    for (size_t w = 0; w < key_words; ++w) nk[w] = x[4 + w];
  }
  static void load(V (&x)[words], const states& a) {
    for (size_t w = 0; w < words; ++w) x[w] = V::load(a[w]);
  }

  // The group's start on the whole vectors: the key setup (the long permutation from the zero
  // state), the nonce a word per short permutation, then every word of the associated data
  // likewise.
  LWC_SIMD_NOINLINE void start(states& pool, const aead_desc* jobs, size_t m) {
    alignas(64) u32 nonce[3][N] = {};
    size_t blocks[N] = {};
    size_t most = 0;
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      for (size_t w = 0; w < key_words; ++w) pool[4 + w][i] = ~load_le32(d.key + 4 * w);
      for (size_t w = 0; w < 3; ++w) nonce[w][i] = load_le32(d.nonce + 4 * w);
      blocks[i] = (d.ad_len + word_bytes - 1) / word_bytes;
      most = blocks[i] > most ? blocks[i] : most;
    }
    V x[words], s[4], nk[key_words];
    load(x, pool);
    split(x, s, nk);
    permute<long_n>(s, nk);
    for (size_t w = 0; w < 3; ++w) {
      framed_permute<short_updates>(s, nk, frame_nonce);
      s[3] = s[3] ^ V::load(nonce[w]);
    }
    for (size_t b = 0; b < most; ++b) absorb_word(s, nk, jobs, b, blocks, m);
    for (size_t w = 0; w < 4; ++w) s[w].store(pool[w]);
    wipe(nonce, sizeof nonce);
  }

  // Word b of every started job's associated data: the frame bits, the short permutation and
  // the word into state word 3; a partial last word is zero-padded and adds its byte count to
  // word 1. Jobs with fewer words keep their state.
  static void absorb_word(V (&s)[4], const V (&nk)[key_words], const aead_desc* jobs, size_t b,
                          const size_t (&blocks)[N], size_t m) {
    alignas(64) u32 takes[N], data[N], count[N];
    for (size_t i = 0; i < N; ++i) {
      takes[i] = data[i] = count[i] = 0;
      if (i >= m || b >= blocks[i]) continue;
      const aead_desc& d = jobs[i];
      const size_t at = b * word_bytes, left = d.ad_len - at;
      takes[i] = ~u32{0};
      if (left >= word_bytes) {
        data[i] = load_le32(d.ad + at);
      } else {
        for (size_t k = 0; k < left; ++k) data[i] |= u32{d.ad[at + k]} << (8 * k);
        count[i] = static_cast<u32>(left);
      }
    }
    V y[4] = {s[0], s[1], s[2], s[3]};
    framed_permute<short_updates>(y, nk, frame_ad);
    y[3] = y[3] ^ V::load(data);
    y[1] = y[1] ^ V::load(count);
    const V keep = V::load(takes);
    for (size_t w = 0; w < 4; ++w) s[w] = V::select(keep, y[w], s[w]);
    wipe(data, sizeof data);
  }

  // The queued jobs' partial last words and tags: the long permutation for the jobs whose
  // message ends in a partial word and that word's bytes, then for all the frame bits and the
  // long permutation (tag word 0), the frame bits and the short permutation (tag word 1).
  LWC_SIMD_NOINLINE void finish_group(states& fin, const aead_desc* jobs, size_t n,
                                      u8 (&tags)[N][tag_bytes], bool decrypt) {
    alignas(64) u32 open[N] = {};
    bool any_open = false;
    for (size_t i = 0; i < n; ++i) {
      if (jobs[i].len % word_bytes != 0) {
        open[i] = ~u32{0};
        any_open = true;
      }
    }
    V x[words], s[4], nk[key_words];
    load(x, fin);
    split(x, s, nk);
    if (any_open) {
      V y[4] = {s[0], s[1], s[2], s[3]};
      framed_permute<long_n>(y, nk, frame_message);
      const V m = V::load(open);
      for (size_t w = 0; w < 4; ++w) s[w] = V::select(m, y[w], s[w]);
      for (size_t w = 0; w < 4; ++w) s[w].store(fin[w]);
      for (size_t i = 0; i < n; ++i)
        if (open[i] != 0) crypt_last_word(fin, i, jobs[i], decrypt);
      for (size_t w = 0; w < 4; ++w) s[w] = V::load(fin[w]);
    }
    alignas(64) u32 tag_word[2][N];
    framed_permute<long_n>(s, nk, frame_final);
    s[2].store(tag_word[0]);
    framed_permute<short_updates>(s, nk, frame_final);
    s[2].store(tag_word[1]);
    for (size_t i = 0; i < n; ++i) {
      store_le32(tags[i], tag_word[0][i]);
      store_le32(tags[i] + 4, tag_word[1][i]);
    }
    wipe(tag_word, sizeof tag_word);
  }

  // The message's last len % 4 bytes after their permutation: out = in ^ keystream, the
  // plaintext bytes into word 3, the byte count into word 1.
  static void crypt_last_word(states& fin, size_t i, const aead_desc& d, bool decrypt) {
    const size_t r = d.len % word_bytes;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    const u32 key_stream = fin[2][i];
    for (size_t b = 0; b < r; ++b) {
      const unsigned shift = static_cast<unsigned>(8 * b);
      const u8 x = in[b];
      const u8 y = static_cast<u8>(x ^ (key_stream >> shift));
      out[b] = y;
      fin[3][i] ^= u32{decrypt ? y : x} << shift;
    }
    fin[1][i] ^= static_cast<u32>(r);
  }
};

// The family's part of the lane engine (engine.hpp): the message steps, which differ by
// direction.
template <class V, unsigned KeyBits, bool Decrypt>
struct aead_family : aead_ends<V, KeyBits> {
  using ends = aead_ends<V, KeyBits>;
  using ends::N, ends::key_words, ends::long_n, ends::words, ends::rate, ends::out_rate,
      ends::tag_bytes, ends::split;
  using typename ends::states;
  static constexpr bool decrypt = Decrypt;

  // One message word on every lane: the frame bits and the long permutation, then the
  // keystream (word 2) XORed into the text, and the plaintext word into word 3.
  static LWC_SIMD_INLINE void crypt_word(V (&s)[4], const V (&nk)[key_words], const V& in,
                                         V& out) {
    framed_permute<long_n>(s, nk, frame_message);
    out = in ^ s[2];
    s[3] = s[3] ^ (Decrypt ? out : in);
  }

  // k message words on every lane: four at a time (one 16-byte load and store per lane), then
  // the rest one by one.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src,
                             u8* const* dst, u64 k, const Cursors& cur) {
    V s[4], nk[key_words];
    split(x, s, nk);
    const size_t end = k * word_bytes;
    size_t off = 0;
    for (; off + 4 * word_bytes <= end; off += 4 * word_bytes) {
      cur.prefetch(off);
      V in[4], out[4];
      V::load_blocks(src, off, in);
      for (size_t w = 0; w < 4; ++w) crypt_word(s, nk, in[w], out[w]);
      V::store_blocks(dst, off, out);
    }
    for (; off < end; off += word_bytes) {
      V in[1], out[1];
      V::load_blocks(src, off, in);
      crypt_word(s, nk, in[0], out[0]);
      V::store_blocks(dst, off, out);
    }
    for (size_t w = 0; w < 4; ++w) x[w] = s[w];
  }

  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    this->finish_group(fin, jobs, n, tags, Decrypt);
  }
};

// The lane kernel of one member of the family.
template <unsigned KeyBits>
struct aead_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<aead_family<V, KeyBits, false>, aead_family<V, KeyBits, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::tinyjambu_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <> struct lane_kernel<lwc::tinyjambu::tinyjambu128> : tinyjambu_lanes::aead_lanes<128> {};
template <> struct lane_kernel<lwc::tinyjambu::tinyjambu192> : tinyjambu_lanes::aead_lanes<192> {};
template <> struct lane_kernel<lwc::tinyjambu::tinyjambu256> : tinyjambu_lanes::aead_lanes<256> {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
