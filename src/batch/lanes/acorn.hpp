// SPDX-License-Identifier: MIT OR Apache-2.0
// Acorn-128 in lanes: one job per 64-bit lane, V::lanes jobs advancing 32 steps at a time.
// Included by lane_kernels.hpp inside the backend's namespace, so everything here is compiled
// with that backend's instruction set and stays in it; nothing of the single-message core
// (include/lwc/acorn/acorn128.hpp) is called, only its algorithm is restated for lane vectors.
//
// A job is one stream of bytes, each byte eight steps of StateUpdate128 with its own input
// and its own ca, cb bits: the key, the nonce and the key eleven more times with the first bit
// after the nonce inverted (224 bytes, ca = cb = 1), the associated data (ca = cb = 1), its
// padding (32 bytes: 0x01 then zeros; ca = 1 for 16 bytes, 0 for 16; cb = 1), the message
// (ca = 1, cb = 0), its padding (as before with cb = 0) and 96 zero bytes (ca = cb = 1) whose
// last 16 bytes of keystream are the tag. The 32-step update is bitwise in ca and cb (bit i
// belongs to step i), so a word of four stream bytes may mix phases through per-byte masks.
// Decryption feeds back the plaintext, in ^ (keystream & dm) with dm all-ones on message bytes.
//
// Each lane walks its stream in 4-byte words, in segments: the key-and-nonce block and the
// whole words of associated data and of the message come straight from their buffers with one
// set of masks per segment; the words around the paddings are staged per lane and run as
// stretches of words with equal masks (a word where phases meet is a stretch of its own), so
// that every run of words gives each lane one set of masks. The last (stream length % 4) bytes
// are finalization bytes: they run on the lane's state alone, eight steps at a time, after the
// lane leaves the vectors.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common.hpp"
#include "engine.hpp"
#include "scheduler.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/acorn.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::acorn_lanes {

using std::size_t;
using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// One 64-bit word with the lane-vector operations the update uses: a lane taken out of the
// vectors runs the same update code.
struct word {
  static constexpr size_t lanes = 1;
  u64 v;
  LWC_SIMD_INLINE static word set1(u64 c) { return {c}; }
  LWC_SIMD_INLINE friend word operator^(word a, word b) { return {a.v ^ b.v}; }
  LWC_SIMD_INLINE static word not_(word a) { return {~a.v}; }
  LWC_SIMD_INLINE static word xor3(word a, word b, word c) { return {a.v ^ b.v ^ c.v}; }
  LWC_SIMD_INLINE static word and_xor(word a, word b, word c) { return {(a.v & b.v) ^ c.v}; }
  LWC_SIMD_INLINE static word and_(word a, word b) { return {a.v & b.v}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word shr(word a) { return {a.v >> R}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word shl(word a) { return {a.v << R}; }
};

LWC_SIMD_INLINE u32 load_le32(const u8* p) {
  u32 x;
  std::memcpy(&x, p, 4);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap32(x);
  return x;
}
LWC_SIMD_INLINE void store_le32(u8* p, u32 x) {
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap32(x);
  std::memcpy(p, &x, 4);
}

template <class V>
LWC_SIMD_INLINE V maj(const V& x, const V& y, const V& z) {
  return V::and_xor(x, y, V::and_(z, x ^ y));
}
template <class V>
LWC_SIMD_INLINE V ch(const V& x, const V& y, const V& z) {
  return V::and_xor(x, y ^ z, z);
}

// N (8 or 32) steps on every lane: the core's detail::update<N> with the register layout
// described there (r[k] is the queue of values arriving at the head of LFSR k). Inputs and
// masks sit in the low N bits of each lane; the bits above N of the intermediate values are
// don't-cares, cleared before they enter the state. Every read ahead is a plain shift: d + N
// never exceeds 64. Returns the keystream (low N bits).
template <unsigned N, bool Decrypt, class V>
LWC_SIMD_INLINE V update(V (&r)[6], const V& in, const V& ca, const V& cb, const V& dm) {
  static_assert(N == 8 || N == 32);
  const V low = V::set1(N == 32 ? 0xffffffffu : 0xffu);
  const V r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5];
  const V x0_23 = V::template shr<23>(r0), x1_5 = V::template shr<5>(r1),
          x2_4 = V::template shr<4>(r2), x3_6 = V::template shr<6>(r3),
          x4_3 = V::template shr<3>(r4);
  const V h1 = V::xor3(r1, x0_23, r0);
  const V h2 = V::xor3(r2, x1_5, r1);
  const V h3 = V::xor3(r3, x2_4, r2);
  const V h4 = V::xor3(r4, x3_6, r3);
  const V h5 = V::xor3(r5, x4_3, r4);
  const V ks = V::xor3(V::template shr<12>(r0), h3, maj(V::template shr<5>(r5), h1, h4)) ^
               ch(h5, x2_4, x1_5);
  V m = in;
  if constexpr (Decrypt) m = V::and_xor(ks, dm, in);
  const V f = V::not_(V::xor3(r0, h2, maj(V::template shr<14>(r5), x0_23, x3_6))) ^
              V::and_xor(ca, x4_3, V::and_(cb, ks));
  const V tail = V::and_(
      V::xor3(f, m, V::template shr<9>(r5) ^ V::template shr<4>(r5)), low);
  r[0] = V::template shr<N>(r0) ^ V::template shl<61 - N>(V::and_(h1, low));
  r[1] = V::template shr<N>(r1) ^ V::template shl<46 - N>(V::and_(h2, low));
  r[2] = V::template shr<N>(r2) ^ V::template shl<47 - N>(V::and_(h3, low));
  r[3] = V::template shr<N>(r3) ^ V::template shl<39 - N>(V::and_(h4, low));
  r[4] = V::template shr<N>(r4) ^ V::template shl<37 - N>(V::and_(h5, low));
  r[5] = V::template shr<N>(r5) ^ V::template shl<63 - N>(tail);
  return ks;
}

inline constexpr size_t init_bytes = 224, pad_bytes = 32, final_bytes = 96;
inline constexpr size_t tag_bytes = 16;
inline constexpr u32 ones = 0xffffffffu;

// The staged stretches are at most 3 + 32 + 7 + 128 bytes (short message: everything after
// the associated data's whole words) or 3 + 128 (after the message's whole words).
inline constexpr size_t stage_bytes = 192;

template <class V, bool Decrypt>
class engine : public lane_scheduler<engine<V, Decrypt>> {
  friend class lane_scheduler<engine>;
  static constexpr size_t N = V::lanes;
  static constexpr u32 message_dm = Decrypt ? ones : 0;

  // A stretch of a job's stream, in whole words. seg_init: key and nonce; seg_ad: the whole
  // words of associated data; seg_mix1: staged words up to the message's first whole word (or
  // up to the end when the message has none); seg_msg: the message's whole words; seg_mix2:
  // staged words from there to the end.
  enum segment : u8 { seg_init, seg_ad, seg_mix1, seg_msg, seg_mix2, seg_done };

  // Where a job's stream has its phases, in bytes.
  struct layout {
    size_t ad_end, msg_begin, msg_end, total;
    size_t body_begin, body_end;  // the message's whole words (empty when begin >= end)
  };
  static layout layout_of(const aead_desc& d) {
    layout l;
    l.ad_end = init_bytes + d.ad_len;
    l.msg_begin = l.ad_end + pad_bytes;
    l.msg_end = l.msg_begin + d.len;
    l.total = l.msg_end + pad_bytes + final_bytes;
    l.body_begin = (l.msg_begin + 3) / 4 * 4;
    l.body_end = l.msg_end / 4 * 4;
    return l;
  }

  struct masks {
    u32 ca, cb, dm;
    bool operator==(const masks&) const = default;
  };

  // The bytes of the word at stream position p (a multiple of 4) that lie in [a, b).
  static u32 range_mask(size_t p, size_t a, size_t b) {
    const size_t lo = a <= p ? 0 : (a - p < 4 ? a - p : 4);
    const size_t hi = b <= p ? 0 : (b - p < 4 ? b - p : 4);
    const u64 m = ((u64{1} << (8 * hi)) - 1) & ~((u64{1} << (8 * lo)) - 1);
    return static_cast<u32>(m);
  }
  // ca is 0 on the second half of each padding, cb on the message and its padding; the
  // plaintext feeds back on the message when decrypting.
  static masks masks_at(const layout& l, size_t p) {
    const u32 ca = ~(range_mask(p, l.ad_end + pad_bytes / 2, l.msg_begin) |
                     range_mask(p, l.msg_end + pad_bytes / 2, l.msg_end + pad_bytes));
    const u32 cb = ~range_mask(p, l.msg_begin, l.msg_end + pad_bytes);
    const u32 dm = range_mask(p, l.msg_begin, l.msg_end) & message_dm;
    return {ca, cb, dm};
  }

 public:
  explicit engine(const aead_task& t) : t_(t) {}
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;
  ~engine() {
    wipe(r_, sizeof r_);
    wipe(spill_, sizeof spill_);
    wipe(key_stage_, sizeof key_stage_);
    wipe(in_stage_, sizeof in_stage_);
    wipe(out_stage_, sizeof out_stage_);
    wipe(&sink_, sizeof sink_);
  }

  using lane_scheduler<engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    reload();
  }
  size_t active() const { return active_; }
  u64 run_length() const {
    u64 k = left_[0];
    for (size_t j = 1; j < N; ++j) k = left_[j] < k ? left_[j] : k;
    return k;
  }
  void advance(u64 k) {
    for (size_t j = 0; j < N; ++j) left_[j] -= k;
  }
  bool segment_ended(size_t j) const { return left_[j] == 0; }
  // The staged words around a padding run as several runs with their own masks.
  bool next_segment(size_t j) {
    if (seg_[j] == seg_mix1 || seg_[j] == seg_mix2) {
      if (next_staged_run(j)) return true;
      if (seg_[j] == seg_mix1) copy_message(j);
    }
    seg_[j] = static_cast<segment>(seg_[j] + 1);
    return enter_segment(j);
  }
  void spill() {
    for (int w = 0; w < 6; ++w) r_[w].store(spill_[w]);
  }
  void reload() {
    for (int w = 0; w < 6; ++w) r_[w] = V::load(spill_[w]);
  }
  void after_refills() {}
  void end() {}

  // k words on every lane, each lane with its own masks for the whole run.
  void steps(u64 k) {
    V r[6] = {r_[0], r_[1], r_[2], r_[3], r_[4], r_[5]};
    // Local copies: the byte stores below could alias the members and force reloads.
    const u8* src[N];
    u8* dst[N];
    size_t src_step[N], dst_step[N];
    alignas(64) u64 in[N], out[N];
    for (size_t j = 0; j < N; ++j) {
      src[j] = src_[j];
      dst[j] = dst_[j];
      src_step[j] = src_step_[j];
      dst_step[j] = dst_step_[j];
    }
    const V ca = V::load(ca_), cb = V::load(cb_), dm = V::load(dm_);
    for (u64 i = 0; i < k; ++i) {
      for (size_t j = 0; j < N; ++j) {
        in[j] = load_le32(src[j]);
        src[j] += src_step[j];
      }
      const V x = V::load(in);
      (x ^ update<32, Decrypt>(r, x, ca, cb, dm)).store(out);
      for (size_t j = 0; j < N; ++j) {
        store_le32(dst[j], static_cast<u32>(out[j]));
        dst[j] += dst_step[j];
      }
    }
    for (size_t j = 0; j < N; ++j) {
      src_[j] = src[j];
      dst_[j] = dst[j];
    }
    for (int w = 0; w < 6; ++w) r_[w] = r[w];
  }

  void set_masks(size_t j, const masks& m) {
    ca_[j] = m.ca;
    cb_[j] = m.cb;
    dm_[j] = m.dm;
  }

  // Lane j reads words from src (or zeros when src is null) and writes in ^ keystream to dst
  // (or nowhere when dst is null).
  void set_direct(size_t j, const u8* src, u8* dst, const masks& m, u64 words) {
    src_[j] = src != nullptr ? src : zero_;
    src_step_[j] = src != nullptr ? 4 : 0;
    dst_[j] = dst != nullptr ? dst : sink_;
    dst_step_[j] = dst != nullptr ? 4 : 0;
    set_masks(j, m);
    left_[j] = words;
  }

  // Stages the stream bytes [from, to) of lane j's job; they run as several runs of words
  // with equal masks (next_staged_run).
  void set_staged(size_t j, size_t from, size_t to) {
    const aead_desc& d = job_[j];
    const layout& l = layout_[j];
    u8* in = in_stage_[j];
    std::memset(in, 0, to - from);
    const auto copy = [&](size_t a, size_t b, const u8* p, size_t p_at) {
      a = a > from ? a : from;
      b = b < to ? b : to;
      if (a < b) std::memcpy(in + (a - from), p + (a - p_at), b - a);
    };
    copy(init_bytes, l.ad_end, d.ad, init_bytes);
    copy(l.msg_begin, l.msg_end, d.in, l.msg_begin);
    if (l.ad_end >= from && l.ad_end < to) in[l.ad_end - from] = 1;
    if (l.msg_end >= from && l.msg_end < to) in[l.msg_end - from] = 1;
    stage_from_[j] = from;
    stage_to_[j] = to;
    src_[j] = in;
    src_step_[j] = 4;
    dst_[j] = out_stage_[j];
    dst_step_[j] = 4;
    next_staged_run(j);
  }

  // The next words of lane j's staged stretch that share their masks; false when none is left.
  bool next_staged_run(size_t j) {
    const layout& l = layout_[j];
    const size_t from = stage_from_[j] + static_cast<size_t>(dst_[j] - out_stage_[j]);
    if (from == stage_to_[j]) return false;
    const masks m = masks_at(l, from);
    size_t p = from + 4;
    while (p < stage_to_[j] && masks_at(l, p) == m) p += 4;
    set_masks(j, m);
    left_[j] = (p - from) / 4;
    return true;
  }

  // Points lane j at its next non-empty segment from seg_[j] on; false at the stream's end.
  bool enter_segment(size_t j) {
    const aead_desc& d = job_[j];
    const layout& l = layout_[j];
    const bool body = l.body_begin < l.body_end;
    const size_t tail_begin = l.total / 4 * 4;
    for (;;) {
      switch (seg_[j]) {
        case seg_init:
          set_direct(j, key_stage_[j], nullptr, keyed_masks, init_bytes / 4);
          return true;
        case seg_ad:
          if (d.ad_len >= 4) {
            set_direct(j, d.ad, nullptr, keyed_masks, d.ad_len / 4);
            return true;
          }
          break;
        case seg_mix1:
          set_staged(j, init_bytes + d.ad_len / 4 * 4, body ? l.body_begin : tail_begin);
          return true;
        case seg_msg:
          if (body) {
            set_direct(j, d.in + (l.body_begin - l.msg_begin), d.out + (l.body_begin - l.msg_begin),
                       message_masks, (l.body_end - l.body_begin) / 4);
            return true;
          }
          break;
        case seg_mix2:
          if (body) {
            set_staged(j, l.body_end, tail_begin);
            return true;
          }
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  // The message bytes among lane j's staged output.
  void copy_message(size_t j) {
    const aead_desc& d = job_[j];
    const layout& l = layout_[j];
    const size_t from = stage_from_[j], to = stage_to_[j];
    const size_t a = from > l.msg_begin ? from : l.msg_begin;
    const size_t b = to < l.msg_end ? to : l.msg_end;
    if (a < b) std::memcpy(d.out + (a - l.msg_begin), out_stage_[j] + (a - from), b - a);
  }

  void start_lane(size_t j) {
    if (pend_i_ == pend_n_) {
      size_t first = 0;
      pend_n_ = t_.claim(t_.claim_ctx, N, &first);
      pend_i_ = 0;
      if (pend_n_ == 0) {
        set_direct(j, nullptr, nullptr, keyed_masks, idle_words);
        seg_[j] = seg_done;
        active_ -= busy_[j];
        busy_[j] = false;
        return;
      }
      t_.fetch(t_.ctx, first, pend_n_, pend_);
    }
    active_ += !busy_[j];
    busy_[j] = true;
    const aead_desc& d = job_[j] = pend_[pend_i_++];
    layout_[j] = layout_of(d);
    u8* ks = key_stage_[j];
    std::memcpy(ks, d.key, 16);
    std::memcpy(ks + 16, d.nonce, 16);
    for (size_t i = 32; i < init_bytes; i += 16) std::memcpy(ks + i, d.key, 16);
    ks[32] ^= 1;
    for (int w = 0; w < 6; ++w) spill_[w][j] = 0;
    seg_[j] = seg_init;
    enter_segment(j);
  }

  // Lane j's stream has only its last (total % 4) bytes left, all finalization bytes (zero
  // input, ca = cb = 1): run them on the lane's state (in spill_), then write or check the tag.
  void finish_lane(size_t j) {
    const aead_desc& d = job_[j];
    const layout& l = layout_[j];
    copy_message(j);
    const size_t tail_begin = l.total / 4 * 4;
    alignas(8) u8 tag[tag_bytes];
    const size_t staged_tag = tag_bytes - (l.total - tail_begin);
    const size_t staged_end = tail_begin - stage_from_[j];
    for (size_t i = 0; i < staged_tag; ++i) tag[i] = out_stage_[j][staged_end - staged_tag + i];
    word r[6];
    for (int w = 0; w < 6; ++w) r[w] = {spill_[w][j]};
    const word zero{0}, all{0xff};
    for (size_t i = staged_tag; i < tag_bytes; ++i)
      tag[i] = static_cast<u8>(update<8, false>(r, zero, all, all, zero).v);
    settle_tag<Decrypt>(t_, d, tag);
    wipe(tag, sizeof tag);
    wipe(r, sizeof r);
  }

  static constexpr u64 idle_words = u64{1} << 62;  // never reached: idle lanes outlast the rest
  static constexpr masks keyed_masks = {ones, ones, 0};
  static constexpr masks message_masks = {ones, 0, message_dm};

  const aead_task& t_;
  V r_[6];
  alignas(64) u64 spill_[6][N];
  alignas(64) u64 ca_[N], cb_[N], dm_[N];
  const u8* src_[N];
  u8* dst_[N];
  size_t src_step_[N], dst_step_[N];
  u64 left_[N];
  segment seg_[N];
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  aead_desc job_[N];
  layout layout_[N];
  size_t stage_from_[N], stage_to_[N];
  alignas(64) u8 key_stage_[N][init_bytes];
  alignas(64) u8 in_stage_[N][stage_bytes];
  alignas(64) u8 out_stage_[N][stage_bytes];
  alignas(8) u8 zero_[8] = {};
  alignas(8) u8 sink_[8];
  aead_desc pend_[N];
  size_t pend_n_ = 0, pend_i_ = 0;
};

template <class V>
void run(const aead_task& t) {
  if (t.decrypt) {
    engine<V, true> e(t);
    e.run();
  } else {
    engine<V, false> e(t);
    e.run();
  }
}

}  // namespace lwc::simd::LWC_SIMD_NS::eng::acorn_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

// The portable backend leaves Acorn-128 to the core's BMI2 path job by job, which measured
// faster than its plain 64-bit lanes (docs/performance-acorn-grain.md).
#ifndef LWC_BATCH_ACORN_JOB_BY_JOB
template <>
struct lane_kernel<lwc::acorn::acorn128> {
  template <lane_vector V>
  static void aead(const aead_task& t) { acorn_lanes::run<V>(t); }
};
#endif

}  // namespace lwc::simd::LWC_SIMD_NS::eng
