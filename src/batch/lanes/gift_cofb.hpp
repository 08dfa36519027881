// SPDX-License-Identifier: MIT OR Apache-2.0
// GIFT-COFB in lanes, written once over a lane_vector32 type V and instantiated by each backend
// translation unit inside its own namespace (LWC_SIMD_NS), through lane_kernels.hpp. Every
// 32-bit lane holds one job: its fixsliced GIFT-128 state (the four slices, in the order of
// include/lwc/gift_cofb/gift128.hpp) and its 64-bit mask L as two 32-bit halves are six lane
// vectors, and its 80 round-key words sit in memory, word by word (row w holds word w of every
// lane), where the rounds read them. The fixsliced rounds and the key schedule are restated
// here for V; only the round constants are read from the core, as compile-time constants: an
// inline function of the core compiled in this unit would carry its instruction set out of the
// backend's namespace.
//
// A lane step is one 16-byte message block that is not the message's last: L doubled, the
// text block out (the block cipher output XORed in), then G(Y), the plaintext block and L into
// the next block cipher input, and GIFT-128 on it. Each lane follows its own job and is
// refilled as soon as the job has only its last block left (lanes/engine.hpp). What does
// not fit that step runs in groups of V::lanes jobs, every group on the whole vectors:
//  - start: the key schedule, the nonce block, and the associated data a block per GIFT-128;
//    a job whose associated data has fewer blocks than another's in its group sits out the
//    later blocks (a lane-wise select keeps its state). The started states wait in a pool that
//    feeds the refills.
//  - finish: the message's last block, full or partial (its bytes and padding by scalar code,
//    its GIFT-128 in the group, masked the same way), which leaves the tag in the state.
//    Finished jobs wait in a queue until V::lanes of them can go together.
// Lengths decide every branch and every index; keys, data and states never do, and a tag
// verdict only selects, by a mask, whether a job's plaintext is kept.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <lwc/gift_cofb/gift_cofb.hpp>

#include "../backend.hpp"
#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/gift_cofb.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::gift_cofb_lanes {

inline constexpr size_t block_bytes = 16;
inline constexpr size_t tag_bytes = 16;
inline constexpr size_t key_words = 80;

// The core's round constants, copied at compile time.
inline constexpr std::array<u32, 40> round_constants = [] {
  std::array<u32, 40> c{};
  for (int r = 0; r < 40; ++r) c[static_cast<size_t>(r)] = lwc::gift_cofb::detail::round_constant(r);
  return c;
}();

// Big-endian 32-bit words (GIFT-COFB's byte order).
LWC_SIMD_INLINE u32 load_be32(const u8* p) {
  return u32{p[0]} << 24 | u32{p[1]} << 16 | u32{p[2]} << 8 | u32{p[3]};
}
LWC_SIMD_INLINE void store_be32(u8* p, u32 x) {
  p[0] = static_cast<u8>(x >> 24);
  p[1] = static_cast<u8>(x >> 16);
  p[2] = static_cast<u8>(x >> 8);
  p[3] = static_cast<u8>(x);
}

// ---- GIFT-128 over V (gift128.hpp) ----------------------------------------------------------
// Wherever the core joins disjoint bit fields with OR, XOR joins them here.

template <class V>
LWC_SIMD_INLINE V mask(const V& x, u32 m) {
  return V::and_(x, V::set1(m));
}
template <class V>
LWC_SIMD_INLINE V or_(const V& a, const V& b) {
  return V::xor_andn(a, a, b);  // a ^ (~a & b)
}
// (x >> R & m) ^ (x & n) << L: a rotation inside every field.
template <unsigned R, unsigned L, class V>
LWC_SIMD_INLINE V field_ror(const V& x, u32 m, u32 n) {
  return mask(V::template shr<R>(x), m) ^ V::template shl<L>(mask(x, n));
}
template <unsigned N, class V>
LWC_SIMD_INLINE V swap_bits(const V& x, u32 m) {
  const V t = mask(x ^ V::template shr<N>(x), m);
  return V::xor3(x, t, V::template shl<N>(t));
}

template <class V> LWC_SIMD_INLINE V nibble_ror1(const V& x) { return field_ror<1, 3>(x, 0x77777777u, 0x11111111u); }
template <class V> LWC_SIMD_INLINE V nibble_ror2(const V& x) { return field_ror<2, 2>(x, 0x33333333u, 0x33333333u); }
template <class V> LWC_SIMD_INLINE V nibble_ror3(const V& x) { return field_ror<3, 1>(x, 0x11111111u, 0x77777777u); }
template <class V> LWC_SIMD_INLINE V half_ror4(const V& x) { return field_ror<4, 12>(x, 0x0fff0fffu, 0x000f000fu); }
template <class V> LWC_SIMD_INLINE V half_ror8(const V& x) { return field_ror<8, 8>(x, 0x00ff00ffu, 0x00ff00ffu); }
template <class V> LWC_SIMD_INLINE V half_ror12(const V& x) { return field_ror<12, 4>(x, 0x000f000fu, 0x0fff0fffu); }
template <class V> LWC_SIMD_INLINE V byte_ror2(const V& x) { return field_ror<2, 6>(x, 0x3f3f3f3fu, 0x03030303u); }
template <class V> LWC_SIMD_INLINE V byte_ror4(const V& x) { return field_ror<4, 4>(x, 0x0f0f0f0fu, 0x0f0f0f0fu); }
template <class V> LWC_SIMD_INLINE V byte_ror6(const V& x) { return field_ror<6, 2>(x, 0x03030303u, 0x3f3f3f3fu); }

// The little-endian words the lane loads give, as big-endian words, and back.
template <class V>
LWC_SIMD_INLINE V byte_swap(const V& x) {
  return half_ror8(V::template rotr<16>(x));
}

// The S-box with the round's additions (gift128.hpp, sbox); slice 3 comes out in s0.
template <class V>
LWC_SIMD_INLINE void sbox(V& s0, V& s1, V& s2, V& s3, const V& k1, const V& k2, u32 c) {
  const V a = s0, b = s1, x = s2, d = s3;
  const V ax = V::and_(a, x);
  const V b1 = b ^ ax;
  const V a1 = V::xor3(a, V::and_(d, b), V::and_(d, ax));
  const V xd = x ^ d;
  const V o = or_(a1, b1);
  s0 = a1 ^ V::set1(c);
  s1 = V::xor3(b1, xd, k1) ^ o;
  s2 = V::xor3(x, k2, b1) ^ V::and_(a1, xd);
  s3 = V::not_(xd) ^ o;
}

// Five rounds from round R (gift128.hpp, five_rounds); rk points at the round's first key row.
template <unsigned R, size_t N, class V>
LWC_SIMD_INLINE void five_rounds(V& x0, V& x1, V& x2, V& x3, const u32 (*rk)[N]) {
  sbox(x0, x1, x2, x3, V::load(rk[0]), V::load(rk[1]), round_constants[R]);
  x3 = nibble_ror1(x3);
  x1 = nibble_ror2(x1);
  x2 = nibble_ror3(x2);

  sbox(x3, x1, x2, x0, V::load(rk[2]), V::load(rk[3]), round_constants[R + 1]);
  x0 = half_ror4(x0);
  x1 = half_ror8(x1);
  x2 = half_ror12(x2);

  sbox(x0, x1, x2, x3, V::load(rk[4]), V::load(rk[5]), round_constants[R + 2]);
  x3 = V::xor3(V::template rotr<15>(mask(x3, 0x00005555u)), V::template rotr<17>(mask(x3, 0x0000aaaau)),
               V::template shr<16>(x3));
  x1 = field_ror<1, 1>(x1, 0x55555555u, 0x55555555u);
  x2 = V::xor3(V::template shl<16>(x2), mask(V::template shr<15>(x2), 0x0000aaaau),
               mask(V::template shr<17>(x2), 0x00005555u));

  sbox(x3, x1, x2, x0, V::load(rk[6]), V::load(rk[7]), round_constants[R + 3]);
  x0 = byte_ror6(x0);
  x1 = byte_ror4(x1);
  x2 = byte_ror2(x2);

  sbox(x0, x1, x2, x3, V::load(rk[8]), V::load(rk[9]), round_constants[R + 4]);
  x3 = V::template rotr<24>(x3);
  x1 = V::template rotr<16>(x1);
  x2 = V::template rotr<8>(x2);
}

// Ten rounds from round R: five, then five with slices 0 and 3 renamed back.
template <unsigned R, size_t N, class V>
LWC_SIMD_INLINE void ten_rounds(V& a, V& b, V& c, V& d, const u32 (&rk)[key_words][N]) {
  five_rounds<R>(a, b, c, d, rk + 2 * R);
  five_rounds<R + 5>(d, b, c, a, rk + 2 * R + 10);
}

// GIFT-128 on the four slices of every lane, each lane with its round keys in rk.
template <class V, size_t N>
LWC_SIMD_INLINE void encrypt(V (&s)[4], const u32 (&rk)[key_words][N]) {
  ten_rounds<0>(s[0], s[1], s[2], s[3], rk);
  ten_rounds<10>(s[0], s[1], s[2], s[3], rk);
  ten_rounds<20>(s[0], s[1], s[2], s[3], rk);
  ten_rounds<30>(s[0], s[1], s[2], s[3], rk);
}

// GIFT-128 exists in one out-of-line copy per vector type, called by the lane steps and by
// the groups' starts and finishes. Inlined at each of those calls, the unrolled rounds made a
// backend unit slow to compile under the sanitizers; the call costs a few stores and loads
// next to the 40 rounds of a block.
template <class V>
LWC_SIMD_NOINLINE void encrypt_lanes(V (&s)[4], const u32 (&rk)[key_words][V::lanes]) {
  encrypt(s, rk);
}
// The same on states in memory.
template <class V>
LWC_SIMD_INLINE void encrypt_array(u32 (&s)[4][V::lanes], const u32 (&rk)[key_words][V::lanes]) {
  V x[4];
  for (size_t w = 0; w < 4; ++w) x[w] = V::load(s[w]);
  encrypt_lanes<V>(x, rk);
  for (size_t w = 0; w < 4; ++w) x[w].store(s[w]);
}

// ---- key schedule over V (gift128.hpp, expand_key) --------------------------------------------

template <class V>
LWC_SIMD_INLINE V rotate_halves(const V& x) {
  return mask(V::template shr<2>(x), 0x3fff0000u) ^ V::template shl<14>(mask(x, 0x00030000u)) ^
         mask(V::template shr<12>(x), 0x0000000fu) ^ V::template shl<4>(mask(x, 0x00000fffu));
}

template <class V>
LWC_SIMD_INLINE V to_slice_order1(V x) {
  x = swap_bits<8>(V::template rotr<16>(x), 0x0000ff00u);
  x = swap_bits<3>(V::template rotr<16>(x), 0x0a0a0a0au);
  x = swap_bits<6>(x, 0x00cc00ccu);
  return swap_bits<15>(x, 0x0000aaaau);
}
template <class V>
LWC_SIMD_INLINE V to_slice_order2(V x) {
  x = swap_bits<8>(V::template rotr<16>(x), 0x0000ff00u);
  x = swap_bits<12>(V::template rotr<16>(x), 0x0000f0f0u);
  x = swap_bits<14>(V::template rotr<16>(x), 0x0000ccccu);
  return swap_bits<15>(V::template rotr<16>(x), 0x0000aaaau);
}
template <class V>
LWC_SIMD_INLINE V to_slice_order3(V x) {
  x = V::template rotr<16>(swap_bits<15>(x, 0x0000aaaau));
  x = V::template rotr<16>(swap_bits<14>(x, 0x0000ccccu));
  x = V::template rotr<16>(swap_bits<12>(x, 0x0000f0f0u));
  return V::template rotr<16>(swap_bits<8>(x, 0x0000ff00u));
}
template <class V>
LWC_SIMD_INLINE V to_slice_order4(V x) {
  x = V::template rotr<16>(swap_bits<15>(x, 0x0000aaaau));
  x = V::template rotr<16>(swap_bits<14>(x, 0x0000ccccu));
  x = swap_bits<3>(x, 0x0a0a0a0au);
  return swap_bits<6>(x, 0x00cc00ccu);
}

template <int K, class V>
LWC_SIMD_INLINE V ahead_by_two(const V& x) {
  if constexpr (K == 0)
    return mask(V::template shr<1>(x), 0x44444444u) ^ V::template shl<17>(mask(x, 0x00001111u)) ^
           mask(V::template shr<16>(x), 0x00003333u) ^ V::template shl<15>(mask(x, 0x00002222u)) ^
           V::template shl<1>(mask(x, 0x44444444u));
  else if constexpr (K == 1)
    return mask(V::template shr<4>(x), 0x0f000f00u) ^ mask(V::template shr<6>(x), 0x00030003u) ^
           V::template shl<4>(mask(x, 0x0f000f00u)) ^ V::template shl<2>(mask(x, 0x003f003fu));
  else if constexpr (K == 2)
    return V::template rotr<16>(mask(x, 0x55555555u)) ^ V::template rotr<24>(mask(x, 0xaaaaaaaau));
  else if constexpr (K == 3)
    return mask(V::template shr<1>(x), 0x70707070u) ^ mask(V::template shr<2>(x), 0x03030303u) ^
           V::template shl<3>(mask(x, 0x10101010u)) ^ V::template shl<2>(mask(x, 0x03030303u));
  else
    return mask(V::template shr<4>(x), 0x0fff0000u) ^ mask(V::template shr<8>(x), 0x000000ffu) ^
           V::template shl<12>(mask(x, 0x000f0000u)) ^ V::template shl<8>(mask(x, 0x000000ffu));
}
template <int K, class V>
LWC_SIMD_INLINE V ahead_by_three(const V& x) {
  if constexpr (K == 0)
    return V::template shl<17>(mask(x, 0x00004444u)) ^ mask(V::template shr<16>(x), 0x0000ccccu) ^
           V::template shl<15>(mask(x, 0x00008888u)) ^ V::template shl<9>(mask(x, 0x00111111u)) ^
           mask(V::template shr<24>(x), 0x00000033u) ^ V::template shl<7>(mask(x, 0x00222222u));
  else if constexpr (K == 1)
    return mask(V::template shr<5>(x), 0x00070007u) ^ mask(V::template shr<6>(x), 0x03000300u) ^
           V::template shl<3>(mask(x, 0x001f001fu)) ^ V::template shl<2>(mask(x, 0x3f003f00u));
  else if constexpr (K == 2)
    return V::template rotr<20>(mask(x, 0xaaaaaaaau)) ^ V::template rotr<24>(mask(x, 0x55555555u));
  else if constexpr (K == 3)
    return mask(V::template shr<1>(x), 0x07070707u) ^ V::template shl<19>(mask(x, 0x00001010u)) ^
           mask(V::template shr<14>(x), 0x0000c0c0u) ^ V::template shl<15>(mask(x, 0x0000e0e0u)) ^
           mask(V::template shr<18>(x), 0x00003030u) ^ V::template shl<3>(mask(x, 0x01010101u));
  else
    return mask(V::template shr<4>(x), 0x00000fffu) ^ mask(V::template shr<6>(x), 0x03ff0000u) ^
           V::template shl<12>(mask(x, 0x0000000fu)) ^ V::template shl<10>(mask(x, 0x003f0000u));
}

template <int K, class V>
LWC_SIMD_INLINE void advance_ten_rounds(V (&rk)[key_words], int r) {
  rk[2 * r] = ahead_by_two<K>(rk[2 * (r - 10) + 1]);
  rk[2 * r + 1] = ahead_by_three<K>(rk[2 * (r - 10)]);
}

// The round keys of every lane from its key (k[w]: key word w, big-endian), into out, row by
// row; once per group, out of line.
template <class V>
LWC_SIMD_NOINLINE void expand_keys(const u32 (&k)[4][V::lanes], u32 (&out)[key_words][V::lanes]) {
  V k0 = V::load(k[0]), k1 = V::load(k[1]), k2 = V::load(k[2]), k3 = V::load(k[3]);
  V rk[key_words];
  rk[0] = to_slice_order1(k3);
  rk[1] = to_slice_order1(k1);
  rk[2] = to_slice_order2(k2);
  rk[3] = to_slice_order2(k0);
  rk[4] = to_slice_order3(k1);
  rk[6] = to_slice_order4(k0);
  k0 = rotate_halves(k0);
  k1 = rotate_halves(k1);
  k2 = rotate_halves(k2);
  k3 = rotate_halves(k3);
  rk[5] = to_slice_order3(k3);
  rk[7] = to_slice_order4(k2);
  rk[8] = k3;
  rk[9] = k1;
  rk[10] = to_slice_order1(k2);
  rk[11] = to_slice_order1(k0);
  rk[12] = to_slice_order2(k1);
  rk[14] = to_slice_order3(k0);
  k0 = rotate_halves(k0);
  k1 = rotate_halves(k1);
  k2 = rotate_halves(k2);
  k3 = rotate_halves(k3);
  rk[13] = to_slice_order2(k3);
  rk[15] = to_slice_order3(k2);
  rk[16] = to_slice_order4(k3);
  rk[17] = to_slice_order4(k1);
  rk[18] = k2;
  rk[19] = k0;
  for (int r = 10; r < 40; r += 5) {
    advance_ten_rounds<0>(rk, r);
    advance_ten_rounds<1>(rk, r + 1);
    advance_ten_rounds<2>(rk, r + 2);
    advance_ten_rounds<3>(rk, r + 3);
    advance_ten_rounds<4>(rk, r + 4);
  }
  // fold_keys: each word taken back through its round's permutation of slices 1 and 2.
  for (size_t r = 0; r < key_words; r += 10) {
    rk[r] = nibble_ror2(rk[r]);
    rk[r + 1] = nibble_ror1(rk[r + 1]);
    rk[r + 2] = half_ror8(rk[r + 2]);
    rk[r + 3] = half_ror4(rk[r + 3]);
    rk[r + 4] = field_ror<1, 1>(rk[r + 4], 0x55555555u, 0x55555555u);
    rk[r + 5] = V::xor3(V::template shr<16>(rk[r + 5]), V::template shl<17>(mask(rk[r + 5], 0x00005555u)),
                        V::template shl<15>(mask(rk[r + 5], 0x0000aaaau)));
    rk[r + 6] = byte_ror4(rk[r + 6]);
    rk[r + 7] = byte_ror6(rk[r + 7]);
    rk[r + 8] = V::template rotr<16>(rk[r + 8]);
    rk[r + 9] = V::template rotr<24>(rk[r + 9]);
  }
  for (size_t w = 0; w < key_words; ++w) rk[w].store(out[w]);
  wipe(rk, sizeof rk);
}

// ---- the mode over V (gift_cofb.hpp) ------------------------------------------------------------

// L (high half l[0], low half l[1]) times x in GF(2^64) modulo x^64 + x^4 + x^3 + x + 1; the
// reduction mask is 0 - top bit, as ~(top + 0xffffffff).
template <class V>
LWC_SIMD_INLINE void times2(V (&l)[2]) {
  const V top = V::template shr<31>(l[0]);
  const V red = mask(V::not_(top + V::set1(~u32{0})), 0x1bu);
  l[0] = V::template shl<1>(l[0]) ^ V::template shr<31>(l[1]);
  l[1] = V::template shl<1>(l[1]) ^ red;
}
template <class V>
LWC_SIMD_INLINE void times3(V (&l)[2]) {
  V t[2] = {l[0], l[1]};
  times2(t);
  l[0] = l[0] ^ t[0];
  l[1] = l[1] ^ t[1];
}

// G(Y) ^ data ^ (L || 0): the next block cipher input, in y.
template <class V>
LWC_SIMD_INLINE void feedback(V (&y)[4], const V (&d)[4], const V (&l)[2]) {
  const V y0 = y[0], y1 = y[1];
  y[0] = V::xor3(y[2], d[0], l[0]);
  y[1] = V::xor3(y[3], d[1], l[1]);
  y[2] = V::xor3(V::template shl<1>(y0), V::template shr<31>(y1), d[2]);
  y[3] = V::xor3(V::template shl<1>(y1), V::template shr<31>(y0), d[3]);
}

// Scalar L steps for the finish, on the two halves.
LWC_SIMD_INLINE void times3_scalar(u32& hi, u32& lo) {
  const u64 l = u64{hi} << 32 | lo;
  const u64 t = l ^ (l << 1 ^ ((u64{0} - (l >> 63)) & 0x1b));
  hi = static_cast<u32>(t >> 32);
  lo = static_cast<u32>(t);
}

// The family's part of the lane engine (engine.hpp).
template <class V, bool Decrypt>
struct aead_family {
  using vector = V;
  using word = u32;
  using task = aead_task;
  static constexpr size_t N = V::lanes;
  // A lane in the vectors: the four slices of Y, then L's high and low halves; its round keys
  // stay in memory, in the rows after those.
  static constexpr size_t words = 6;
  using states = u32[words + key_words][N];
  using keys = u32[key_words][N];
  static constexpr size_t rate = block_bytes, out_rate = block_bytes;
  static constexpr size_t tag_bytes = gift_cofb_lanes::tag_bytes;
  static constexpr bool decrypt = Decrypt;

  static LWC_SIMD_INLINE const keys& round_keys(const states& s) {
    return *reinterpret_cast<const keys*>(&s[words]);
  }
  static LWC_SIMD_INLINE keys& round_keys(states& s) { return *reinterpret_cast<keys*>(&s[words]); }

  // A job's message blocks but the last go through the lanes.
  static u64 lane_steps(const aead_desc& d) {
    return d.len > block_bytes ? (d.len - 1) / block_bytes : 0;
  }

  // k message blocks on every lane.
  template <class Cursors>
  LWC_SIMD_INLINE void steps(V (&x)[words], const states& lanes, const u8* const* src,
                             u8* const* dst, u64 k, const Cursors& cur) {
    V y[4] = {x[0], x[1], x[2], x[3]};
    V l[2] = {x[4], x[5]};
    const keys& rk = round_keys(lanes);
    const size_t end = k * block_bytes;
    for (size_t off = 0; off < end; off += block_bytes) {
      cur.prefetch(off);
      V in[4], o[4], out[4];
      V::load_blocks(src, off, in);
      for (size_t w = 0; w < 4; ++w) {
        in[w] = byte_swap(in[w]);
        o[w] = y[w] ^ in[w];
        out[w] = byte_swap(o[w]);
      }
      V::store_blocks(dst, off, out);
      times2(l);
      if constexpr (Decrypt) feedback(y, o, l);
      else feedback(y, in, l);
      encrypt_lanes<V>(y, rk);
    }
    for (size_t w = 0; w < 4; ++w) x[w] = y[w];
    x[4] = l[0];
    x[5] = l[1];
  }

  // The group's start on the whole vectors: the key schedule, GIFT-128 on the nonce (Y, and L
  // from its upper half), then every block of the associated data.
  void start(states& pool, const aead_desc* jobs, size_t m) {
    alignas(64) u32 key[4][N] = {};
    alignas(64) u32 y[4][N] = {};
    size_t blocks[N] = {};
    size_t most = 0;
    for (size_t i = 0; i < m; ++i) {
      const aead_desc& d = jobs[i];
      for (size_t w = 0; w < 4; ++w) {
        key[w][i] = load_be32(d.key + 4 * w);
        y[w][i] = load_be32(d.nonce + 4 * w);
      }
      blocks[i] = d.ad_len == 0 ? 1 : (d.ad_len + block_bytes - 1) / block_bytes;
      most = blocks[i] > most ? blocks[i] : most;
    }
    expand_keys<V>(key, round_keys(pool));
    wipe(key, sizeof key);
    encrypt_array<V>(y, round_keys(pool));
    for (size_t w = 0; w < 4; ++w)
      for (size_t i = 0; i < N; ++i) pool[w][i] = y[w][i];
    for (size_t i = 0; i < N; ++i) {
      pool[4][i] = y[0][i];
      pool[5][i] = y[1][i];
    }
    for (size_t b = 0; b < most; ++b) absorb_block(pool, jobs, b, blocks, m);
    wipe(y, sizeof y);
  }

  // Block b of every started job's associated data. L: times 2 before every block but the
  // last; times 3 before the last, once more when it is padded (partial, or no associated
  // data), and times 9 more when the message is empty. Jobs with fewer blocks keep their state.
  static void absorb_block(states& pool, const aead_desc* jobs, size_t b,
                           const size_t (&blocks)[N], size_t m) {
    alignas(64) u32 takes[N] = {}, last[N] = {}, padded[N] = {}, empty[N] = {};
    alignas(64) u32 data[4][N] = {};
    for (size_t i = 0; i < m; ++i) {
      if (b >= blocks[i]) continue;
      const aead_desc& d = jobs[i];
      takes[i] = ~u32{0};
      const size_t at = b * block_bytes, left = d.ad_len - at;
      if (b + 1 == blocks[i]) {
        last[i] = ~u32{0};
        if (left != block_bytes) padded[i] = ~u32{0};
        if (d.len == 0) empty[i] = ~u32{0};
      }
      if (left >= block_bytes) {
        for (size_t w = 0; w < 4; ++w) data[w][i] = load_be32(d.ad + at + 4 * w);
      } else {
        alignas(8) u8 buf[block_bytes] = {};
        for (size_t k = 0; k < left; ++k) buf[k] = d.ad[at + k];
        buf[left] = 0x80;
        for (size_t w = 0; w < 4; ++w) data[w][i] = load_be32(buf + 4 * w);
        wipe(buf, sizeof buf);
      }
    }
    V y[4], l[2], dv[4];
    for (size_t w = 0; w < 4; ++w) {
      y[w] = V::load(pool[w]);
      dv[w] = V::load(data[w]);
    }
    l[0] = V::load(pool[4]);
    l[1] = V::load(pool[5]);
    V n[2] = {l[0], l[1]};
    times2(n);
    {
      const V is_last = V::load(last);
      n[0] = V::select(is_last, n[0] ^ l[0], n[0]);
      n[1] = V::select(is_last, n[1] ^ l[1], n[1]);
      V t[2] = {n[0], n[1]};
      times3(t);
      const V is_padded = V::load(padded);
      n[0] = V::select(is_padded, t[0], n[0]);
      n[1] = V::select(is_padded, t[1], n[1]);
      t[0] = n[0];
      t[1] = n[1];
      times3(t);
      times3(t);
      const V is_empty = V::load(empty);
      n[0] = V::select(is_empty, t[0], n[0]);
      n[1] = V::select(is_empty, t[1], n[1]);
    }
    V z[4] = {y[0], y[1], y[2], y[3]};
    feedback(z, dv, n);
    alignas(64) u32 e[4][N];
    for (size_t w = 0; w < 4; ++w) z[w].store(e[w]);
    encrypt_array<V>(e, round_keys(pool));
    const V keep = V::load(takes);
    for (size_t w = 0; w < 4; ++w) V::select(keep, V::load(e[w]), y[w]).store(pool[w]);
    V::select(keep, n[0], l[0]).store(pool[4]);
    V::select(keep, n[1], l[1]).store(pool[5]);
    wipe(data, sizeof data);
    wipe(e, sizeof e);
  }

  // The queued jobs' last message blocks and tags. For a job with a message, its last block
  // (full, or partial and padded) by scalar code: L times 3 (times 9 when padded), the text
  // bytes out, and G(Y) ^ block ^ L as the next input; then GIFT-128 on the group, kept where
  // a job had a message. Y is then the tag.
  void finish(states& fin, const aead_desc* jobs, size_t n, u8 (&tags)[N][tag_bytes]) {
    alignas(64) u32 open[N] = {};
    alignas(64) u32 e[4][N] = {};
    bool any_open = false;
    for (size_t i = 0; i < n; ++i) {
      if (jobs[i].len != 0) {
        open[i] = ~u32{0};
        any_open = true;
        last_block(fin, i, jobs[i], e);
      }
    }
    if (any_open) {
      encrypt_array<V>(e, round_keys(fin));
      const V m = V::load(open);
      for (size_t w = 0; w < 4; ++w) V::select(m, V::load(e[w]), V::load(fin[w])).store(fin[w]);
    }
    for (size_t i = 0; i < n; ++i)
      for (size_t w = 0; w < 4; ++w) store_be32(tags[i] + 4 * w, fin[w][i]);
    wipe(e, sizeof e);
  }

  // Queued job i's last message block (1 to 16 bytes): its text bytes out, and the next block
  // cipher input into e.
  static void last_block(const states& fin, size_t i, const aead_desc& d, u32 (&e)[4][N]) {
    const size_t r = d.len - (d.len - 1) / block_bytes * block_bytes;
    const u8* in = d.in + (d.len - r);
    u8* out = d.out + (d.len - r);
    u32 hi = fin[4][i], lo = fin[5][i];
    times3_scalar(hi, lo);
    if (r != block_bytes) times3_scalar(hi, lo);
    alignas(8) u8 ks[block_bytes], blk[block_bytes] = {};
    for (size_t w = 0; w < 4; ++w) store_be32(ks + 4 * w, fin[w][i]);
    for (size_t b = 0; b < r; ++b) {
      const u8 x = in[b];
      const u8 o = static_cast<u8>(x ^ ks[b]);
      out[b] = o;
      blk[b] = Decrypt ? o : x;
    }
    if (r != block_bytes) blk[r] = 0x80;
    alignas(8) u32 m[4];
    for (size_t w = 0; w < 4; ++w) m[w] = load_be32(blk + 4 * w);
    const u32 y0 = fin[0][i], y1 = fin[1][i];
    e[0][i] = fin[2][i] ^ m[0] ^ hi;
    e[1][i] = fin[3][i] ^ m[1] ^ lo;
    e[2][i] = (y0 << 1 | y1 >> 31) ^ m[2];
    e[3][i] = (y1 << 1 | y0 >> 31) ^ m[3];
    wipe(ks, sizeof ks);
    wipe(blk, sizeof blk);
    wipe(m, sizeof m);
  }
};

struct aead_lanes {
  template <lane_vector32 V>
  static void aead(const aead_task& t) {
    run_aead_lanes<aead_family<V, false>, aead_family<V, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::gift_cofb_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <> struct lane_kernel<lwc::gift_cofb::gift_cofb> : gift_cofb_lanes::aead_lanes {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
