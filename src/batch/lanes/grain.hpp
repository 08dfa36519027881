// SPDX-License-Identifier: MIT OR Apache-2.0
// Grain-128AEADv2 in lanes: one job per 64-bit lane, each lane holding its job's LFSR, NFSR,
// accumulator and register, V::lanes jobs advancing 64 clocks (4 bytes of the authenticated
// stream) per unit. Included by lane_kernels.hpp inside the backend's namespace, so everything
// here is compiled with that backend's instruction set and stays in it; nothing of the
// single-message core (include/lwc/grain/grain128aead.hpp) is called, only its algorithm is
// restated for lane vectors (same register views and merged taps as the core's taps()).
//
// A job runs 8 units of initialization (5 with the pre-output fed back, 1 that also adds the
// key, 2 that fill the accumulator and the register) and then its authenticated stream: the
// DER-encoded length of the associated data, the associated data, the message. Lanes in
// different phases share one unit through per-lane words that are constant over a run of
// units: im (all-ones while the pre-output is fed back), kfs and kfb (the key words of the
// key-adding unit, else zero), fill (all-ones while the accumulator is filled) and dm
// (all-ones on message bytes when decrypting: the authenticator reads the plaintext).
//
// Each lane walks its stream in 4-byte words, in segments: the whole words of associated data
// and of the message come straight from their buffers; the words around them (the length
// prefix, the word where the data meets the message, the message's last whole word when it
// straddles) are staged per lane and run as stretches with equal dm. The last (stream length
// % 4) bytes run on the lane's state alone, 16 clocks each, after it leaves the vectors. The
// group lane engine (engine.hpp) owns the rest of a job's life: claiming, refilling, the tag.
//
// The authenticator adds a 64-bit window of the authentication stream for every message bit
// that is set. AVX-512 does that in four instructions a bit (a test into a mask register, two
// shifts, one masked three-way XOR), and this kernel is offered on the avx512 backend only:
// on AVX2 (a compare to spread each bit) it measured slower than the core's BMI2 + PCLMULQDQ
// path job by job, which the avx2 and portable backends keep.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/grain.hpp through lane_kernels.hpp"
#endif

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::grain_lanes {

using std::size_t;
using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// One 64-bit word with the lane-vector operations below: the bytes a lane runs after leaving
// the vectors go through the same tap code.
struct word64 {
  static constexpr size_t lanes = 1;
  u64 v;
  LWC_SIMD_INLINE static word64 set1(u64 c) { return {c}; }
  LWC_SIMD_INLINE friend word64 operator^(word64 a, word64 b) { return {a.v ^ b.v}; }
  LWC_SIMD_INLINE static word64 xor3(word64 a, word64 b, word64 c) { return {a.v ^ b.v ^ c.v}; }
  LWC_SIMD_INLINE static word64 and_xor(word64 a, word64 b, word64 c) {
    return {(a.v & b.v) ^ c.v};
  }
  LWC_SIMD_INLINE static word64 and_(word64 a, word64 b) { return {a.v & b.v}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word64 shr(word64 a) { return {a.v >> R}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word64 shl(word64 a) { return {a.v << R}; }
};

// ---- spreading bit K of every lane over its lane --------------------------------------------

template <class V>
concept pair_of_vectors = requires(const V& x) {
  typename V::half;
  x.lo;
  x.hi;
};

template <class V>
concept avx512_vector = requires(const V& x) {
  { x.v };
#if defined(__AVX512F__)
  requires std::is_same_v<std::remove_cvref_t<decltype(x.v)>, __m512i>;
#else
  requires false;
#endif
};

// The vectors this kernel runs on (see the file comment).
template <class V>
concept spreads_bits =
    avx512_vector<V> || (pair_of_vectors<V> && avx512_vector<typename V::half>);

// acc ^= a ^ b in the lanes whose message bit K is set, without a branch: the message bit
// becomes a mask register (a lane mask for the scalar word), never an address or a jump.
template <unsigned K, class V>
LWC_SIMD_INLINE void xor_where_bit(V& acc, const V& m, const V& a, const V& b) {
  if constexpr (pair_of_vectors<V>) {
    xor_where_bit<K>(acc.lo, m.lo, a.lo, b.lo);
    xor_where_bit<K>(acc.hi, m.hi, a.hi, b.hi);
  }
#if defined(__AVX512F__)
  else if constexpr (avx512_vector<V>) {
    // The bit spread over its lane by two shifts, then acc ^ (spread & (a ^ b)) in one
    // three-input operation (0x78). A mask register from _mm512_test_epi64_mask would do it in
    // fewer operations, but MemorySanitizer treats a mask register made from secret data as a
    // branch, and the constant-time stage must see this code as it runs.
    const __m512i spread = _mm512_srai_epi64(_mm512_slli_epi64(m.v, 63 - K), 63);
    acc.v = _mm512_ternarylogic_epi64(acc.v, spread, _mm512_xor_si512(a.v, b.v), 0x78);
  }
#endif
  else if constexpr (std::is_same_v<V, word64>) {
    acc.v ^= (u64{0} - (m.v >> K & 1)) & (a.v ^ b.v);
  } else {
    static_assert(sizeof(V) == 0, "no bit spreading for this vector type");
  }
}

// The authenticator over N message bits (bit k of m in the low N bits of each lane): acc ^= the
// sum over k < N of m_k * (bits k .. k+63 of the register followed by next, the N new
// authentication bits). Four operations a bit with AVX-512 (mask, two shifts, one masked
// three-way XOR); summing in groups of 8 bits that share their shifts took fewer shifts but
// more operations in all, and measured slower.
template <unsigned K, class V>
LWC_SIMD_INLINE void accumulate_bit(V& acc, const V& m, const V& reg, const V& next) {
  if constexpr (K == 0) xor_where_bit<0>(acc, m, reg, V::set1(0));
  else xor_where_bit<K>(acc, m, V::template shr<K>(reg), V::template shl<64 - K>(next));
}
template <class V, unsigned... K>
LWC_SIMD_INLINE void accumulate_bits(V& acc, const V& m, const V& reg, const V& next,
                                     std::integer_sequence<unsigned, K...>) {
  (accumulate_bit<K>(acc, m, reg, next), ...);
}
template <unsigned N, class V>
LWC_SIMD_INLINE void accumulate(V& acc, const V& m, const V& reg, const V& next) {
  accumulate_bits(acc, m, reg, next, std::make_integer_sequence<unsigned, N>{});
}

// ---- the registers ---------------------------------------------------------------------------

// A 128-bit register as three overlapping views (bits 0..63, 32..95, 64..127), as in the
// core: the 32 values a tap at D takes over the next 32 clocks are bits D..D+31, one shift of
// one view away (the bits above 31 of the shifted word are don't-cares).
template <class V>
struct views {
  V lo, mid, hi;
  template <unsigned D>
  LWC_SIMD_INLINE V at() const {
    static_assert(D <= 96);
    if constexpr (D == 0) return lo;
    else if constexpr (D < 32) return V::template shr<D>(lo);
    else if constexpr (D == 32) return mid;
    else if constexpr (D < 64) return V::template shr<D - 32>(mid);
    else if constexpr (D == 64) return hi;
    else return V::template shr<D - 64>(hi);
  }
  // 32 clocks: the new bits (low 32 of fresh) enter at the top.
  LWC_SIMD_INLINE void push32(const V& fresh) {
    lo = mid;
    mid = hi;
    hi = V::template shr<32>(hi) ^ V::template shl<32>(fresh);
  }
};

// The next 32 pre-output bits (y) and the 32 new LFSR (ls) and NFSR (nb) bits, in the low 32
// bits of each lane; the core's taps() with the same merged taps.
template <class V>
LWC_SIMD_INLINE void taps(const views<V>& s, const views<V>& b, V& y, V& ls, V& nb) {
  const V b12 = b.template at<12>(), b95 = b.template at<95>();
  const V h = V::xor3(V::and_(b12, s.template at<8>()),
                      V::and_xor(s.template at<13>(), s.template at<20>(),
                                 V::and_(b95, s.template at<42>())),
                      V::and_xor(s.template at<60>(), s.template at<79>(),
                                 V::and_(V::and_(b12, b95), s.template at<94>())));
  y = V::xor3(V::xor3(h, s.template at<93>(), b.template at<2>()),
              V::xor3(b.template at<15>(), b.template at<36>(), b.template at<45>()),
              V::xor3(b.template at<64>(), b.template at<73>(), b.template at<89>()));
  // s38 + s70 share one shift; b3 b67; b27 b59 + b91; b17 b18 and b24 b25 are windows of one
  // product of neighbours, b78 b82 and b88 b92 of one product of taps 4 apart.
  const V pairs1 = V::and_(b.lo, V::template shr<1>(b.lo));
  const V hi4 = V::template shr<4>(b.hi), pairs4 = V::and_(b.hi, hi4);
  ls = V::xor3(V::xor3(s.lo, s.template at<7>(), V::template shr<6>(s.mid ^ s.hi)),
               s.template at<81>(), s.template at<96>());
  const V lin = V::xor3(V::xor3(s.lo, b.lo, b.template at<26>()), b.template at<56>(),
                        b.template at<96>());
  const V q1 = V::xor3(V::template shr<3>(V::and_(b.lo, b.hi)),
                       V::template shr<27>(V::and_xor(b.lo, b.mid, b.hi)),
                       V::and_(b.template at<11>(), b.template at<13>()));
  const V q2 = V::xor3(V::template shr<17>(pairs1), V::and_(b.template at<40>(), b.template at<48>()),
                       V::and_(b.template at<61>(), b.template at<65>()));
  const V q3 = V::xor3(V::and_(hi4, b.template at<84>()),
                       V::and_(b.template at<22>(), V::template shr<24>(pairs1)),
                       V::and_(b.template at<70>(), V::template shr<14>(pairs4)));
  const V q4 = V::and_(V::and_(V::template shr<24>(pairs4), b.template at<93>()), b95);
  nb = V::xor3(V::xor3(lin, q1, q2), q3, q4);
}

// x's even bits to its low half and its odd bits to its high half (an unshuffle in five
// rounds of bit swaps).
template <unsigned S, class V>
LWC_SIMD_INLINE V swap_bits(const V& x, u64 mask) {
  const V t = V::and_(x ^ V::template shr<S>(x), V::set1(mask));
  return V::xor3(x, t, V::template shl<S>(t));
}
template <class V>
LWC_SIMD_INLINE V unzip(V x) {
  x = swap_bits<1>(x, 0x2222222222222222u);
  x = swap_bits<2>(x, 0x0c0c0c0c0c0c0c0cu);
  x = swap_bits<4>(x, 0x00f000f000f000f0u);
  x = swap_bits<8>(x, 0x0000ff000000ff00u);
  return swap_bits<16>(x, 0x00000000ffff0000u);
}

// The per-lane words that stay constant over a run of units (see the file comment).
template <class V>
struct controls {
  V im, kfs, kfb, fill, dm;
};

// The whole state of every lane.
template <class V>
struct lanes_state {
  views<V> s, b;
  V acc, reg;
};

// 64 clocks (two of 32) on every lane. in holds 4 stream bytes (little-endian, low 32 bits);
// returns in ^ keystream (low 32 bits valid).
template <class V>
LWC_SIMD_INLINE V unit(lanes_state<V>& st, const V& in, const controls<V>& c) {
  const V low = V::set1(0xffffffffu);
  V y0, ls, nb;
  taps(st.s, st.b, y0, ls, nb);
  V yi = V::and_(c.im, y0);
  st.s.push32(V::xor3(ls, yi, c.kfs));
  st.b.push32(V::xor3(nb, yi, c.kfb));
  V y1;
  taps(st.s, st.b, y1, ls, nb);
  yi = V::and_(c.im, y1);
  st.s.push32(V::xor3(ls, yi, V::template shr<32>(c.kfs)));
  st.b.push32(V::xor3(nb, yi, V::template shr<32>(c.kfb)));
  // y0 then y1: 64 pre-output bits, keystream on the even ones, authentication on the odd.
  const V y = V::and_(y0, low) ^ V::template shl<32>(y1);
  const V split = unzip(y);
  const V z = V::and_(split, low), next = V::template shr<32>(split);
  const V m = V::and_xor(z, c.dm, in);
  V acc = st.acc;
  accumulate<32>(acc, m, st.reg, next);
  const V reg = V::template shr<32>(st.reg) ^ V::template shl<32>(next);
  // While filling, the accumulator takes the register and the register the pre-output.
  st.acc = V::and_xor(c.fill, st.reg ^ acc, acc);
  st.reg = V::and_xor(c.fill, y ^ reg, reg);
  return in ^ z;
}

inline constexpr size_t init_units = 8;
inline constexpr size_t tag_bytes = 8;
inline constexpr u64 ones = ~u64{0};
inline constexpr size_t stage_bytes = 64;  // the longest staged stretch is 28 bytes
inline constexpr size_t max_der = 1 + sizeof(size_t);

// The DER encoding of the associated data's length (section 2.6 of the specification).
inline size_t der_length(u8* out, size_t n) {
  if (n < 128) {
    out[0] = static_cast<u8>(n);
    return 1;
  }
  size_t len = 0;
  for (size_t v = n; v != 0; v >>= 8) ++len;
  out[0] = static_cast<u8>(0x80 | len);
  for (size_t i = 0; i < len && i < sizeof n; ++i)
    out[1 + i] = static_cast<u8>(n >> (8 * (len - 1 - i)));
  return 1 + len;
}

// A lane's state is the eight words of lanes_state and a step is one unit, 4 bytes in and 4
// out; enter() walks a lane through the segments below, and finish() runs the last (stream
// length % 4) bytes and the tag on the state taken out of the lanes.
template <class V, bool Decrypt>
struct family {
  using vector = V;
  using word = u64;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 8;
  using states = u64[words][N];
  static constexpr size_t rate = 4, out_rate = 4;
  static constexpr size_t tag_bytes = grain_lanes::tag_bytes;
  static constexpr bool decrypt = Decrypt;
  using cursors = lane_cursors<N, rate, out_rate>;
  static constexpr u64 message_dm = Decrypt ? ones : 0;

  // seg_init1..3: initialization (feedback; feedback and key; fill); seg_head: the staged
  // words before the associated data's first whole word (or before the message's, or to the
  // end); seg_ad: whole words of associated data; seg_mid: staged words from there to the
  // message's first whole word (or to the end); seg_msg: the message's whole words; seg_tail:
  // staged words from there to the last whole word of the stream.
  enum segment : u8 { seg_init1, seg_init2, seg_init3, seg_head, seg_ad, seg_mid, seg_msg,
                      seg_tail, seg_done };

  // Where a job's authenticated stream has its parts, in bytes.
  struct layout {
    size_t der, ad_end, total;
    size_t ad_begin_w, ad_end_w;    // the associated data's whole words (empty when begin >= end)
    size_t msg_begin_w, msg_end_w;  // the message's
    size_t tail;                    // total rounded down to a word
    bool has_ad() const { return ad_begin_w < ad_end_w; }
    bool has_msg() const { return msg_begin_w < msg_end_w; }
  };
  static layout layout_of(const aead_desc& d, size_t der) {
    layout l;
    l.der = der;
    l.ad_end = der + d.ad_len;
    l.total = l.ad_end + d.len;
    l.ad_begin_w = (der + 3) / 4 * 4;
    l.ad_end_w = l.ad_end / 4 * 4;
    l.msg_begin_w = (l.ad_end + 3) / 4 * 4;
    l.msg_end_w = l.total / 4 * 4;
    l.tail = l.total / 4 * 4;
    return l;
  }

  // The message bytes of the word at stream position p, when decrypting.
  static u64 dm_at(const layout& l, size_t p) {
    u64 m = 0;
    for (size_t i = 0; i < 4; ++i)
      if (p + i >= l.ad_end && p + i < l.total) m |= u64{0xff} << (8 * i);
    return m & message_dm;
  }

  // k units on every lane, each lane with its own controls for the whole run.
  LWC_SIMD_INLINE void steps(V (&x)[words], const states&, const u8* const* src,
                             u8* const* dst, u64 k, const cursors&) {
    lanes_state<V> st{{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, x[6], x[7]};
    const controls<V> c{V::load(im_), V::load(kfs_), V::load(kfb_), V::load(fill_),
                        V::load(dm_)};
    alignas(64) u64 in[N], out[N];
    for (u64 i = 0; i < k; ++i) {
      for (size_t j = 0; j < N; ++j) in[j] = load_le32(src[j] + rate * i);
      unit(st, V::load(in), c).store(out);
      for (size_t j = 0; j < N; ++j) store_le32(dst[j] + out_rate * i, static_cast<u32>(out[j]));
    }
    x[0] = st.s.lo, x[1] = st.s.mid, x[2] = st.s.hi;
    x[3] = st.b.lo, x[4] = st.b.mid, x[5] = st.b.hi;
    x[6] = st.acc, x[7] = st.reg;
    wipe(in, sizeof in);
    wipe(out, sizeof out);
  }

  // Section 2.2: the key in the NFSR; the nonce, 31 ones and a zero in the LFSR. The
  // key-adding unit adds the key's second half to the LFSR and its first half to the NFSR.
  void start_one(states& s, size_t j, const aead_desc& d) {
    layout_[j] = layout_of(d, der_length(der_[j], d.ad_len));
    u64 key_lo = 0, key_hi = 0, nonce_lo = 0;
    u32 nonce_hi = 0;
    std::memcpy(&key_lo, d.key, 8);
    std::memcpy(&key_hi, d.key + 8, 8);
    std::memcpy(&nonce_lo, d.nonce, 8);
    std::memcpy(&nonce_hi, d.nonce + 8, 4);
    if constexpr (std::endian::native == std::endian::big) {
      key_lo = __builtin_bswap64(key_lo);
      key_hi = __builtin_bswap64(key_hi);
      nonce_lo = __builtin_bswap64(nonce_lo);
      nonce_hi = __builtin_bswap32(nonce_hi);
    }
    key_[j][0] = key_lo;
    key_[j][1] = key_hi;
    const u64 s_hi = u64{nonce_hi} | u64{0x7fffffff} << 32;
    s[0][j] = nonce_lo;
    s[1][j] = nonce_lo >> 32 | s_hi << 32;
    s[2][j] = s_hi;
    s[3][j] = key_lo;
    s[4][j] = key_lo >> 32 | key_hi << 32;
    s[5][j] = key_hi;
    s[6][j] = 0;
    s[7][j] = 0;
    wipe(&key_lo, sizeof key_lo);
    wipe(&key_hi, sizeof key_hi);
  }

  // Lane j's first or next non-empty segment; false once only the last partial word is left.
  bool enter(size_t j, const aead_desc& d, cursors& c, bool first) {
    if (first) {
      seg_[j] = seg_init1;
      return enter_segment(j, d, c);
    }
    if (staged(seg_[j])) {
      if (next_staged_run(j, c)) return true;
      copy_message(j, d);
    }
    seg_[j] = static_cast<segment>(seg_[j] + 1);
    return enter_segment(j, d, c);
  }

  // The queued jobs' last (stream length % 4) bytes on their states, 16 clocks each, then
  // their tags.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    for (size_t i = 0; i < n; ++i) {
      const aead_desc& d = jobs[i];
      u8 der[max_der];
      const layout l = layout_of(d, der_length(der, d.ad_len));
      views<word64> s{{fin[0][i]}, {fin[1][i]}, {fin[2][i]}};
      views<word64> b{{fin[3][i]}, {fin[4][i]}, {fin[5][i]}};
      u64 acc = fin[6][i], reg = fin[7][i];
      for (size_t p = l.tail; p < l.total; ++p) {
        const bool msg = p >= l.ad_end;
        const u8 x = p < l.der ? der[p] : !msg ? d.ad[p - l.der] : d.in[p - l.ad_end];
        word64 y, ls, nb;
        taps(s, b, y, ls, nb);
        // 16 clocks: the views move by half a word.
        s = {{s.lo.v >> 16 | s.hi.v << 48}, {}, {s.hi.v >> 16 | (ls.v & 0xffff) << 48}};
        s.mid.v = s.lo.v >> 32 | s.hi.v << 32;
        b = {{b.lo.v >> 16 | b.hi.v << 48}, {}, {b.hi.v >> 16 | (nb.v & 0xffff) << 48}};
        b.mid.v = b.lo.v >> 32 | b.hi.v << 32;
        const u64 split = unzip(word64{y.v & 0xffff}).v;
        const u64 z = split & 0xff, next = split >> 32 & 0xff;
        const u64 m = msg && Decrypt ? x ^ z : x;
        word64 a{acc};
        accumulate<8>(a, word64{m}, word64{reg}, word64{next});
        acc = a.v;
        reg = reg >> 8 | next << 56;
        if (msg) d.out[p - l.ad_end] = static_cast<u8>(x ^ z);
      }
      const u64 t = acc ^ reg;
      for (size_t q = 0; q < tag_bytes; ++q) tags[i][q] = static_cast<u8>(t >> (8 * q));
      wipe(&s, sizeof s);
      wipe(&b, sizeof b);
      wipe(&acc, sizeof acc);
      wipe(&reg, sizeof reg);
    }
  }

  void wipe_scratch() {
    wipe(kfs_, sizeof kfs_);
    wipe(kfb_, sizeof kfb_);
    wipe(key_, sizeof key_);
    wipe(in_stage_, sizeof in_stage_);
    wipe(out_stage_, sizeof out_stage_);
  }

 private:
  static bool staged(segment s) { return s == seg_head || s == seg_mid || s == seg_tail; }

  void set_controls(size_t j, u64 im, u64 fill, bool key, u64 dm) {
    im_[j] = im;
    fill_[j] = fill;
    kfs_[j] = key ? key_[j][1] : 0;
    kfb_[j] = key ? key_[j][0] : 0;
    dm_[j] = dm;
  }

  // Stages the stream bytes [from, to) of lane j's job; they run as runs of words with equal
  // dm (next_staged_run). False when the stretch is empty.
  bool set_staged(size_t j, const aead_desc& d, cursors& c, size_t from, size_t to) {
    if (from >= to) return false;
    const layout& l = layout_[j];
    u8* in = in_stage_[j];
    const auto copy = [&](size_t a, size_t b, const u8* p, size_t p_at) {
      a = a > from ? a : from;
      b = b < to ? b : to;
      if (a < b) std::memcpy(in + (a - from), p + (a - p_at), b - a);
    };
    copy(0, l.der, der_[j], 0);
    copy(l.der, l.ad_end, d.ad, l.der);
    copy(l.ad_end, l.total, d.in, l.ad_end);
    stage_from_[j] = stage_next_[j] = from;
    stage_to_[j] = to;
    return next_staged_run(j, c);
  }

  // The next words of lane j's staged stretch that share their dm; false when none is left.
  bool next_staged_run(size_t j, cursors& c) {
    const layout& l = layout_[j];
    const size_t from = stage_next_[j];
    if (from >= stage_to_[j]) return false;
    const u64 dm = dm_at(l, from);
    size_t p = from + 4;
    while (p < stage_to_[j] && dm_at(l, p) == dm) p += 4;
    const size_t at = from - stage_from_[j];
    c.set(j, in_stage_[j] + at, out_stage_[j] + at, (p - from) / 4);
    set_controls(j, 0, 0, false, dm);
    stage_next_[j] = p;
    return true;
  }

  // Points lane j at its next non-empty segment from seg_[j] on; false at the stream's end.
  bool enter_segment(size_t j, const aead_desc& d, cursors& c) {
    const layout& l = layout_[j];
    for (;;) {
      switch (seg_[j]) {
        case seg_init1:
          c.set(j, nullptr, nullptr, 5);
          set_controls(j, ones, 0, false, 0);
          return true;
        case seg_init2:
          c.set(j, nullptr, nullptr, 1);
          set_controls(j, ones, 0, true, 0);
          return true;
        case seg_init3:
          // The key is in the state now; no segment reads it again.
          wipe(key_[j], sizeof key_[j]);
          c.set(j, nullptr, nullptr, 2);
          set_controls(j, 0, ones, false, 0);
          return true;
        case seg_head:
          if (set_staged(j, d, c, 0,
                         l.has_ad() ? l.ad_begin_w : l.has_msg() ? l.msg_begin_w : l.tail))
            return true;
          break;
        case seg_ad:
          if (l.has_ad()) {
            c.set(j, d.ad + (l.ad_begin_w - l.der), nullptr, (l.ad_end_w - l.ad_begin_w) / 4);
            set_controls(j, 0, 0, false, 0);
            return true;
          }
          break;
        case seg_mid:
          if (l.has_ad() && set_staged(j, d, c, l.ad_end_w, l.has_msg() ? l.msg_begin_w : l.tail))
            return true;
          break;
        case seg_msg:
          if (l.has_msg()) {
            const size_t at = l.msg_begin_w - l.ad_end;
            c.set(j, d.in + at, d.out + at, (l.msg_end_w - l.msg_begin_w) / 4);
            set_controls(j, 0, 0, false, message_dm);
            return true;
          }
          break;
        case seg_tail:
          if (l.has_msg() && set_staged(j, d, c, l.msg_end_w, l.tail)) return true;
          break;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  // The message bytes among lane j's staged output.
  void copy_message(size_t j, const aead_desc& d) {
    const layout& l = layout_[j];
    const size_t from = stage_from_[j], to = stage_to_[j];
    const size_t a = from > l.ad_end ? from : l.ad_end;
    const size_t b = to < l.total ? to : l.total;
    if (a < b) std::memcpy(d.out + (a - l.ad_end), out_stage_[j] + (a - from), b - a);
    stage_from_[j] = stage_next_[j] = stage_to_[j] = 0;
  }

  alignas(64) u64 im_[N] = {}, kfs_[N] = {}, kfb_[N] = {}, fill_[N] = {}, dm_[N] = {};
  segment seg_[N];
  layout layout_[N];
  u64 key_[N][2];
  u8 der_[N][max_der];
  size_t stage_from_[N] = {}, stage_next_[N] = {}, stage_to_[N] = {};
  alignas(64) u8 in_stage_[N][stage_bytes];
  alignas(64) u8 out_stage_[N][stage_bytes];
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::grain_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <>
struct lane_kernel<lwc::grain::grain128aead> {
  template <lane_vector V>
    requires grain_lanes::spreads_bits<V>
  static void aead(const aead_task& t) {
    run_aead_lanes<grain_lanes::family<V, false>, grain_lanes::family<V, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
