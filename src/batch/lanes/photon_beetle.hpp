// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-Beetle-AEAD[128], -AEAD[32] and -Hash[32] in 64-bit lanes: one job per lane, V::lanes
// jobs per step. Included by lane_kernels.hpp inside the backend's namespace; nothing of the
// single-message core (include/lwc/photon_beetle/) is called at run time, only its
// compile-time tables (the MixColumnSerial masks, the S-box formulas it checks against the
// specification's table), so the results equal the core's.
//
// A lane holds its job's 256-bit state as the core's four little-endian words. PHOTON-256
// runs on the bit planes of permutation_portable.hpp (plane q, bit 8i+j: bit q of cell (i,j)),
// which in a 64-bit lane are the same logic, shifts and rotations as in a 64-bit register: the
// S-box is its boolean formula and MixColumnSerial a sum of masked, byte-rotated planes, so
// no table is indexed by the state. The planes are made and undone around each permutation,
// and the data is XORed onto the words as the core does.
//
// Every permutation of a job runs in the lanes: one step is "permute, then one block", an
// associated-data block absorbed, a message block through Shuffle and absorbed, a tag or a
// digest half read. A job is a list of segments of such steps (engine.hpp): its full
// associated-data blocks, the padded last one from a staging area, its full message blocks,
// the last partial one (staged, with the absorbed bytes masked and the padding byte set lane
// by lane), then the tag permutation. The domain constants that end each phase are XORed onto
// the lanes between two runs. The tag and, on decryption, the verdict come from the state once
// the job leaves its lane; a rejected plaintext is zeroed by a mask (keep_or_zero), never
// behind a branch on the verdict, before the kernel returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/photon_beetle/aead.hpp>
#include <lwc/photon_beetle/hash.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/photon_beetle.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::photon_lanes {

using lwc::batch::detail::aead_desc;
using lwc::batch::detail::aead_task;
using lwc::batch::detail::sponge_desc;
using lwc::batch::detail::sponge_task;
namespace core = ::lwc::photon_beetle::detail;

// ---- PHOTON-256 on the lanes ----------------------------------------------------------------

// Swaps the bits whose indices differ only in index bits A and B (core::swap_index_bits).
template <unsigned A, unsigned B, class V>
LWC_SIMD_INLINE V swap_index_bits(V x) {
  constexpr unsigned shift = (1u << B) - (1u << A);
  constexpr u64 mask = [] {
    u64 m = 0;
    for (unsigned i = 0; i < 64; ++i)
      if (((i >> A) & 1) && !((i >> B) & 1)) m |= u64{1} << i;
    return m;
  }();
  const V t = V::and_(V::template shr<shift>(x) ^ x, V::set1(mask));
  return V::xor3(x, t, V::template shl<shift>(t));
}

template <class V>
LWC_SIMD_INLINE V gather_word(V w) {
  w = swap_index_bits<0, 4>(w);
  w = swap_index_bits<0, 2>(w);
  w = swap_index_bits<1, 5>(w);
  return swap_index_bits<1, 3>(w);
}
template <class V>
LWC_SIMD_INLINE V scatter_word(V w) {
  w = swap_index_bits<1, 3>(w);
  w = swap_index_bits<1, 5>(w);
  w = swap_index_bits<0, 2>(w);
  return swap_index_bits<0, 4>(w);
}

// The 4x4 transpose of 16-bit blocks; its own inverse.
template <class V>
LWC_SIMD_INLINE void transpose16(V& a, V& b, V& c, V& d) {
  const V lo32 = V::set1(0x00000000ffffffff), lo16 = V::set1(0x0000ffff0000ffff);
  V t = V::and_xor(c, lo32, V::template shr<32>(a));
  a = a ^ V::template shl<32>(t);
  c = c ^ t;
  t = V::and_xor(d, lo32, V::template shr<32>(b));
  b = b ^ V::template shl<32>(t);
  d = d ^ t;
  t = V::and_(V::template shr<16>(a) ^ b, lo16);
  a = a ^ V::template shl<16>(t);
  b = b ^ t;
  t = V::and_(V::template shr<16>(c) ^ d, lo16);
  c = c ^ V::template shl<16>(t);
  d = d ^ t;
}

// The round constants of round r on plane q (AddConstant): IC in column 0 of every row, and
// the round's rc in column 0 where its bit q is set. Public, fixed numbers.
struct round_constants_t {
  u64 k[12][4];
};
constexpr round_constants_t make_round_constants() {
  round_constants_t r{};
  unsigned rc = 1;
  for (int round = 0; round < 12; ++round) {
    for (int q = 0; q < 4; ++q)
      r.k[round][q] = core::make_ic_plane(q) ^ (((rc >> q) & 1) != 0 ? core::column0 : 0);
    rc = core::next_rc(rc);
  }
  return r;
}
inline constexpr round_constants_t round_constants = make_round_constants();

template <class V>
struct planes {
  V x0, x1, x2, x3;
};

// The core's S-box formulas (core::sbox, checked there against the specification's table).
template <class V>
LWC_SIMD_INLINE void sbox(planes<V>& s) {
  const V x0 = s.x0, x1 = s.x1, x2 = s.x2, x3 = s.x3;
  const V x3t = V::and_(x3, x1 ^ x2);
  const V u = V::and_(x0, x3t);  // x0 x3 (x1 + x2)
  const V a = V::and_(x1, x2);
  s.x0 = V::xor_andn(x0 ^ x3, x1, x2);
  s.x1 = V::xor3(x1, x3, x3t) ^ V::and_xor(x0, a, u);
  s.x2 = V::not_(V::xor3(x2 ^ x3, V::and_xor(x0 ^ x1, x1 ^ x3, x1), u));
  s.x3 = V::not_(V::xor_andn(V::xor3(x0, x1, x3) ^ u, x0, a));
}

// The bytes selected by sel rotated right by K bits within themselves (core::rotate_bytes);
// the three parts are disjoint, so XOR joins them.
template <unsigned K, u64 Sel, class V>
LWC_SIMD_INLINE V rotate_bytes(V x) {
  constexpr u64 low = 0x0101010101010101 * (0xffu >> K);
  if constexpr (ternary_vector<V>) {
    // Two bitwise selects (truth table 0xe2: b ? a : c, the operand that dies first): the
    // rotated byte from its two shifted halves, then the rotated or the original byte.
    const V rotated = V::template ternary<0xe2>(V::template shr<K>(x), V::set1(low),
                                               V::template shl<8 - K>(x));
    return V::template ternary<0xe2>(rotated, V::set1(Sel), x);
  } else {
    const V kept = V::and_(x, V::set1(~Sel));
    const V right = V::and_xor(V::template shr<K>(x), V::set1(Sel & low), kept);
    return V::and_xor(V::template shl<8 - K>(x), V::set1(Sel & ~low), right);
  }
}

template <class V>
LWC_SIMD_INLINE V shift_rows(V x) {
  x = rotate_bytes<1, 0xff00ff00ff00ff00>(x);
  x = rotate_bytes<2, 0xffff0000ffff0000>(x);
  return rotate_bytes<4, 0xffffffff00000000>(x);
}

// (a & mask) ^ acc, with the zero and all-ones masks folded at compile time.
// Where the backend has the three-input instruction, whose first operand is also its
// destination, the operand that dies (here the sum) goes first, so that the compiler needs no
// copy of the operands that live on (truth table 0x78: a ^ (b & c)).
template <u64 Mask, class V>
LWC_SIMD_INLINE V masked_add(V a, V acc) {
  if constexpr (Mask == 0) return acc;
  else if constexpr (Mask == ~u64{0}) return a ^ acc;
  else if constexpr (ternary_vector<V>) return V::template ternary<0x78>(acc, a, V::set1(Mask));
  else return V::and_xor(a, V::set1(Mask), acc);
}

// MixColumnSerial on planes (core::mix_columns): output plane q is the sum over the
// diagonals d of products of input rows by the coefficients M[i][(i+d) % 8], each a sum of
// the input's multiples by 1, 2, 4 and 8 masked to the rows whose coefficient has that bit,
// rotated into place by 8d bits. The rotations are nested (Horner's rule on the rotation by
// 8 bits): the sum of diagonals d+1.. is rotated once more and the masked terms of d are
// added onto it, four AND-XORs and one rotation per diagonal and plane.
template <int D, class V>
LWC_SIMD_INLINE V mix_plane(V p0, V p1, V p2, V p3) {
  constexpr u64 m0 = core::mix_mask<D, 0>, m1 = core::mix_mask<D, 1>;
  constexpr u64 m2 = core::mix_mask<D, 2>, m3 = core::mix_mask<D, 3>;
  V acc;
  if constexpr (D == 7) acc = V::and_(p0, V::set1(m0));
  else acc = masked_add<m0>(p0, V::template rotr<8>(mix_plane<D + 1>(p0, p1, p2, p3)));
  acc = masked_add<m1>(p1, acc);
  acc = masked_add<m2>(p2, acc);
  return masked_add<m3>(p3, acc);
}

template <class V>
LWC_SIMD_INLINE void mix_columns(planes<V>& s) {
  // The input and its multiples by 2, 4 and 8 use seven planes: x0..x3 and a = x0^x3,
  // b = x2^x3, c = x1^x2 (2x = (x3, a, x1, x2), 4x = (x2, b, a, x1), 8x = (x1, c, b, a)).
  const V a = s.x0 ^ s.x3, b = s.x2 ^ s.x3, c = s.x1 ^ s.x2;
  const planes<V> o{mix_plane<0>(s.x0, s.x3, s.x2, s.x1), mix_plane<0>(s.x1, a, b, c),
                    mix_plane<0>(s.x2, s.x1, a, b), mix_plane<0>(s.x3, s.x2, s.x1, a)};
  s = o;
}

// PHOTON-256 on every lane; w holds each lane's state as the core's four words. The rounds
// are a loop (with the round number as index of the public constants): fully unrolled, the
// twelve rounds only cost compile time.
template <class V>
LWC_SIMD_NOINLINE void permute(V (&w)[4]) {
  V a = gather_word(w[0]), b = gather_word(w[1]), c = gather_word(w[2]), d = gather_word(w[3]);
  transpose16(a, b, c, d);
  planes<V> s{a, b, c, d};
  for (int r = 0; r < 12; ++r) {
    const u64(&k)[4] = round_constants.k[r];
    s.x0 = s.x0 ^ V::set1(k[0]);
    s.x1 = s.x1 ^ V::set1(k[1]);
    s.x2 = s.x2 ^ V::set1(k[2]);
    s.x3 = s.x3 ^ V::set1(k[3]);
    sbox(s);
    s.x0 = shift_rows(s.x0);
    s.x1 = shift_rows(s.x1);
    s.x2 = shift_rows(s.x2);
    s.x3 = shift_rows(s.x3);
    mix_columns(s);
  }
  transpose16(s.x0, s.x1, s.x2, s.x3);
  w[0] = scatter_word(s.x0);
  w[1] = scatter_word(s.x1);
  w[2] = scatter_word(s.x2);
  w[3] = scatter_word(s.x3);
}

// ---- data in and out of the lanes -----------------------------------------------------------

// Rate bytes (16 or 4) of every lane at its pointer + off, as the state's first words: two
// little-endian words, or one 32-bit word in the low half of word 0.
template <size_t Rate, class V>
LWC_SIMD_INLINE void load_rate(const u8* const* src, size_t off, V (&x)[Rate == 16 ? 2 : 1]) {
  if constexpr (Rate == 16) {
    V::template load_blocks<false>(src, off, x);
  } else {
    alignas(64) u64 t[V::lanes];
    for (size_t j = 0; j < V::lanes; ++j) t[j] = load_le32(src[j] + off);
    x[0] = V::load(t);
  }
}
template <size_t Rate, class V>
LWC_SIMD_INLINE void store_rate(u8* const* dst, size_t off, const V (&x)[Rate == 16 ? 2 : 1]) {
  if constexpr (Rate == 16) {
    V::template store_blocks<false>(dst, off, x);
  } else {
    alignas(64) u64 t[V::lanes];
    x[0].store(t);
    for (size_t j = 0; j < V::lanes; ++j) store_le32(dst[j] + off, static_cast<u32>(t[j]));
  }
}

// Shuffle(S) = S2 || (S1 >>> 1) of the rate halves (core::duplex::shuffle).
template <size_t Rate, class V>
LWC_SIMD_INLINE void shuffle(const V (&w)[4], V (&ks)[Rate == 16 ? 2 : 1]) {
  if constexpr (Rate == 16) {
    ks[0] = w[1];
    ks[1] = V::template rotr<1>(w[0]);
  } else {
    ks[0] = V::xor3(V::and_(V::template shr<16>(w[0]), V::set1(0xffff)),
                    V::and_(V::template shl<15>(w[0]), V::set1(0x7fff0000)),
                    V::and_(V::template shl<31>(w[0]), V::set1(0x80000000)));
  }
}

// State words as bytes, and bytes into state words, for the scalar ends of a job.
inline void xor_bytes(u64 (&w)[4], const u8* p, size_t n) {
  for (size_t i = 0; i < n; ++i) w[i / 8] ^= u64{p[i]} << (8 * (i % 8));
}

// The domain constant into the state's last three bits (core::add_constant).
constexpr u64 constant_bits(unsigned c) { return u64{c} << 61; }

// Section 3.2's constants (core::duplex::ad_constant and msg_constant, restated here: a
// backend unit calls no inline function of the core, which would be compiled with its
// instruction set under a name other units share).
constexpr unsigned ad_constant(bool ad_full, bool has_msg) {
  return has_msg ? (ad_full ? 1 : 2) : (ad_full ? 3 : 4);
}
constexpr unsigned msg_constant(bool msg_full, bool has_ad) {
  return has_ad ? (msg_full ? 1 : 2) : (msg_full ? 5 : 6);
}
static_assert([] {
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      if (ad_constant(a != 0, b != 0) != core::duplex<16>::ad_constant(a != 0, b != 0) ||
          msg_constant(a != 0, b != 0) != core::duplex<16>::msg_constant(a != 0, b != 0))
        return false;
  return true;
}());

// ---- AEAD ------------------------------------------------------------------------------------

// The family's part of the lane engine (engine.hpp): a lane's vectors are its job's state.
template <class V, size_t Rate, bool Decrypt>
struct aead_family {
  using vector = V;
  using word = u64;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 4;
  using states = u64[4][N];
  static constexpr size_t rate = Rate, out_rate = Rate;
  static constexpr size_t tag_bytes = 16;
  static constexpr bool decrypt = Decrypt;
  static constexpr size_t rate_words = Rate == 16 ? 2 : 1;

  enum segment : u8 { seg_ad, seg_ad_last, seg_msg, seg_msg_last, seg_tag, seg_done };

  // k steps of one block on every lane: the permutation, then the block.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&s)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    V keep[rate_words], pad[rate_words];
    for (size_t i = 0; i < rate_words; ++i) {
      keep[i] = V::load(keep_[i]);
      pad[i] = V::load(pad_[i]);
    }
    [[maybe_unused]] const V in_message = V::load(in_message_);
    for (size_t off = 0; off < k * Rate; off += Rate) {
      cur.prefetch(off);
      permute(s);
      V in[rate_words], ks[rate_words], out[rate_words];
      load_rate<Rate>(src, off, in);
      shuffle<Rate>(s, ks);
      for (size_t i = 0; i < rate_words; ++i) {
        out[i] = in[i] ^ ks[i];
        // Encryption absorbs the plaintext, decryption the plaintext it computes on message
        // lanes and the associated data it reads on the others.
        const V absorbed = Decrypt ? V::and_xor(ks[i], in_message, in[i]) : in[i];
        s[i] = s[i] ^ V::and_xor(absorbed, keep[i], pad[i]);
      }
      store_rate<Rate>(dst, off, out);
    }
  }

  // The constants that close a phase, on the lanes that closed one in this round.
  void after_refills(V (&s)[words], const states&) {
    if (!any_constant_) return;
    s[3] = s[3] ^ V::load(constant_);
    std::memset(constant_, 0, sizeof constant_);
    any_constant_ = false;
  }

  void set_block_masks(size_t j, u64 in_message, size_t bytes) {
    in_message_[j] = in_message;
    for (size_t i = 0; i < rate_words; ++i) {
      keep_[i][j] = ~u64{0};
      pad_[i][j] = 0;
    }
    if (bytes == Rate) return;
    // A partial last message block: only its bytes are absorbed, then the padding byte.
    for (size_t i = 0; i < rate_words; ++i) {
      const size_t lo = 8 * i;
      const size_t n = bytes <= lo ? 0 : bytes - lo >= 8 ? 8 : bytes - lo;
      keep_[i][j] = n == 8 ? ~u64{0} : (u64{1} << (8 * n)) - 1;
      if (bytes >= lo && bytes < lo + 8) pad_[i][j] = u64{1} << (8 * (bytes - lo));
    }
  }

  void add_constant(size_t j, unsigned c) {
    constant_[j] ^= constant_bits(c);
    any_constant_ = true;
  }

  // Points lane j at its job's first or next non-empty segment (the staged end of the message
  // going to the caller as the lane leaves it); false once the tag permutation is done.
  template <class Cursors>
  bool enter(size_t j, const aead_desc& d, Cursors& cur, bool first) {
    if (first) {
      seg_[j] = seg_ad;
    } else {
      if (seg_[j] == seg_msg_last) {
        const size_t r = d.len % Rate;
        std::memcpy(d.out + (d.len - r), stage_out_[j], r);
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
    for (;;) {
      switch (seg_[j]) {
        case seg_ad:
          if (d.ad_len >= Rate) {
            cur.set(j, d.ad, nullptr, d.ad_len / Rate);
            set_block_masks(j, 0, Rate);
            return true;
          }
          break;
        case seg_ad_last:
          if (d.ad_len % Rate != 0) {
            const size_t r = d.ad_len % Rate;
            std::memset(stage_in_[j], 0, Rate);
            std::memcpy(stage_in_[j], d.ad + (d.ad_len - r), r);
            stage_in_[j][r] = 0x01;
            cur.set(j, stage_in_[j], nullptr, 1);
            set_block_masks(j, 0, Rate);
            return true;
          }
          break;
        case seg_msg:
          if (d.ad_len != 0) add_constant(j, ad_constant(d.ad_len % Rate == 0, d.len != 0));
          if (d.len >= Rate) {
            cur.set(j, d.in, d.out, d.len / Rate);
            set_block_masks(j, ~u64{0}, Rate);
            return true;
          }
          break;
        case seg_msg_last:
          if (d.len % Rate != 0) {
            const size_t r = d.len % Rate;
            std::memset(stage_in_[j], 0, Rate);
            std::memcpy(stage_in_[j], d.in + (d.len - r), r);
            cur.set(j, stage_in_[j], stage_out_[j], 1);
            set_block_masks(j, ~u64{0}, r);
            return true;
          }
          break;
        case seg_tag:
          if (d.len != 0) add_constant(j, msg_constant(d.len % Rate == 0, d.ad_len != 0));
          if (d.ad_len == 0 && d.len == 0) add_constant(j, 1);
          cur.set(j, nullptr, nullptr, 1);
          set_block_masks(j, 0, Rate);
          return true;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  void idle(size_t j) { set_block_masks(j, 0, Rate); }

  // The group's states: nonce || key.
  void start(states& s, const aead_desc* jobs, size_t m) {
    for (size_t i = 0; i < m; ++i) {
      s[0][i] = load_le64(jobs[i].nonce);
      s[1][i] = load_le64(jobs[i].nonce + 8);
      s[2][i] = load_le64(jobs[i].key);
      s[3][i] = load_le64(jobs[i].key + 8);
    }
  }

  // The tag permutation ran in the lanes: the tag is the state's first 16 bytes.
  void finish(states& s, const aead_desc*, size_t n, u8 (&tags)[N][tag_bytes]) {
    for (size_t i = 0; i < n; ++i)
      for (size_t b = 0; b < 16; ++b) tags[i][b] = static_cast<u8>(s[b / 8][i] >> (8 * (b % 8)));
  }

  void wipe_scratch() {
    wipe(stage_in_, sizeof stage_in_);
    wipe(stage_out_, sizeof stage_out_);
  }

  static u64 load_le64(const u8* p) {
    u64 x = 0;
    for (int b = 7; b >= 0; --b) x = x << 8 | p[b];
    return x;
  }

  alignas(64) u64 keep_[rate_words][N] = {};
  alignas(64) u64 pad_[rate_words][N] = {};
  alignas(64) u64 in_message_[N] = {};
  alignas(64) u64 constant_[N] = {};
  bool any_constant_ = false;
  segment seg_[N] = {};
  alignas(64) u8 stage_in_[N][Rate == 16 ? 16 : 8];
  alignas(64) u8 stage_out_[N][Rate == 16 ? 16 : 8];
};

// Only where the backend has the three-input logic instruction (AVX-512). Measured per
// permutation and message on an Intel Xeon with AVX-512 and GFNI (CPU time, loaded machine):
// these lanes 75-83 ns on AVX-512, the core's GFNI code (what job by job runs there) 142-149,
// AVX2 lanes 200-290 and portable lanes about 4 times the GFNI time: on AVX2 and portable the
// lanes would be slower than job by job. (Against the core's AVX2 code, 380-390 ns, the AVX2
// lanes would win on a CPU without AVX-512.)
template <size_t Rate>
struct aead_lanes {
  template <lane_vector V>
    requires ternary_vector<V>
  static void aead(const aead_task& t) {
    run_aead_lanes<aead_family<V, Rate, false>, aead_family<V, Rate, true>>(t);
  }
};

// ---- Hash ------------------------------------------------------------------------------------

// PHOTON-Beetle-Hash[32]: the first 16 bytes (or the whole of a shorter message, padded and
// closed) go into the zero state at the group's start; then a step is one 4-byte block
// absorbed after the permutation, and two more steps with no input squeeze the digest, 16
// bytes each, into a staging area the job's output is copied from.
template <class V>
struct hash_family {
  using vector = V;
  using word = u64;
  using task = sponge_task;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = 4;
  using states = u64[4][N];
  static constexpr size_t rate = 4, out_rate = 16;
  static constexpr size_t initial_rate = 16;

  enum segment : u8 { seg_absorb, seg_absorb_last, seg_squeeze, seg_done };

  // k steps: the permutation, a block absorbed (zeros when squeezing), the rate's first 16
  // bytes out (kept only by squeezing lanes).
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&s)[words], const states&, const u8* const* src, u8* const* dst,
                             u64 k, const Cursors& cur) {
    for (size_t off = 0; off < k * rate; off += rate) {
      cur.prefetch(off);
      permute(s);
      V in[1];
      load_rate<rate>(src, off, in);
      s[0] = s[0] ^ in[0];
      const V out[2] = {s[0], s[1]};
      V::template store_blocks<false>(dst, off / rate * out_rate, out);
    }
  }

  void after_refills(V (&s)[words], const states&) {
    if (!any_constant_) return;
    s[3] = s[3] ^ V::load(constant_);
    std::memset(constant_, 0, sizeof constant_);
    any_constant_ = false;
  }

  template <class Cursors>
  bool enter(size_t j, const sponge_desc& d, Cursors& cur, bool first) {
    seg_[j] = first ? seg_absorb : static_cast<segment>(seg_[j] + 1);
    const size_t rest = d.len > initial_rate ? d.len - initial_rate : 0;
    for (;;) {
      switch (seg_[j]) {
        case seg_absorb:
          if (rest >= rate) {
            cur.set(j, d.in + initial_rate, nullptr, rest / rate);
            return true;
          }
          break;
        case seg_absorb_last:
          if (rest % rate != 0) {
            const size_t r = rest % rate;
            std::memset(stage_in_[j], 0, sizeof stage_in_[j]);
            std::memcpy(stage_in_[j], d.in + (d.len - r), r);
            stage_in_[j][r] = 0x01;
            cur.set(j, stage_in_[j], nullptr, 1);
            return true;
          }
          break;
        case seg_squeeze:
          // Section 3.3: after a message longer than 16 bytes, 1 closes a full last block and
          // 2 a partial one (the constants of shorter messages are added at the start).
          if (rest != 0) {
            constant_[j] ^= constant_bits(rest % rate == 0 ? 1 : 2);
            any_constant_ = true;
          }
          cur.set(j, nullptr, digest_[j], 2);
          return true;
        default:
          return false;
      }
      seg_[j] = static_cast<segment>(seg_[j] + 1);
    }
  }

  // The group's states: the first 16 bytes (or the whole of a shorter message, padded and
  // closed) in the zero state.
  void start(states& s, const sponge_desc* jobs, size_t m) {
    for (size_t i = 0; i < m; ++i) {
      const sponge_desc& d = jobs[i];
      u64 w[4] = {};
      const size_t first = d.len < initial_rate ? d.len : initial_rate;
      xor_bytes(w, d.in, first);
      if (d.len == 0) {
        w[3] ^= constant_bits(1);
      } else if (d.len < initial_rate) {
        w[first / 8] ^= u64{0x01} << (8 * (first % 8));
        w[3] ^= constant_bits(1);
      } else if (d.len == initial_rate) {
        w[3] ^= constant_bits(2);
      }
      for (size_t k = 0; k < 4; ++k) s[k][i] = w[k];
      wipe(w, sizeof w);
    }
  }

  // The digest was squeezed in the lanes, into lane j's staging area.
  void queued(states&, size_t, size_t j, const sponge_desc& d) {
    if (d.out_len != 0) std::memcpy(d.out, digest_[j], d.out_len);
  }
  void finish(states&, const sponge_desc*, size_t) {}

  void wipe_scratch() {
    wipe(stage_in_, sizeof stage_in_);
    wipe(digest_, sizeof digest_);
  }

  alignas(64) u64 constant_[N] = {};
  bool any_constant_ = false;
  segment seg_[N] = {};
  alignas(64) u8 stage_in_[N][8];
  alignas(64) u8 digest_[N][2 * out_rate];
};

struct hash_lanes {
  template <lane_vector V>
    requires ternary_vector<V>
  static void sponge(const sponge_task& t) {
    run_sponge_lanes<hash_family<V>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::photon_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <> struct lane_kernel<lwc::photon_beetle::aead128> : photon_lanes::aead_lanes<16> {};
template <> struct lane_kernel<lwc::photon_beetle::aead32> : photon_lanes::aead_lanes<4> {};
template <> struct lane_kernel<lwc::photon_beetle::hash> : photon_lanes::hash_lanes {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
