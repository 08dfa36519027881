// SPDX-License-Identifier: MIT OR Apache-2.0
// GIFT-128 as GIFT-COFB uses it (GIFT-COFB, NIST LWC final-round submission, chapter 2: 40
// rounds, the bit-sliced input and output order), in the fixsliced representation (Adomnicai,
// Najm, Peyrin, "Fixslicing: a new GIFT representation", TCHES 2020/3).
//
// The four 32-bit state words are never passed through the bit permutation of a round. Word 3
// is left where the S-box puts it, and every word of round r is held permuted by P3^-r (P3, the
// permutation of the fourth slice, has order 5). The S-box acts bitwise across the four words,
// so a common permutation does not change it; what remains of each round's permutation, for
// the other three words, is a nibble, half-word or byte rotation, a swap of neighbouring bits
// or a word rotation. Every fifth round the representation is the ordinary one again. Round
// keys and constants are prepared in the representation of the round that adds them. There are
// no tables and no data-dependent branches or indices.
#pragma once

#include <cstdint>

#include "../common/config.hpp"
#include "../common/secure.hpp"

namespace lwc::gift_cofb::detail {

using u32 = std::uint32_t;

LWC_HD LWC_ALWAYS_INLINE constexpr u32 ror32(u32 x, unsigned n) {
  return (x >> (n & 31)) | (x << ((32 - n) & 31));
}

// Swaps the bits selected by m with the bits n places above them.
LWC_HD LWC_ALWAYS_INLINE constexpr u32 swap_bits(u32 x, u32 m, unsigned n) {
  const u32 t = (x ^ (x >> n)) & m;
  return x ^ t ^ (t << n);
}

// Rotations right by s inside every field of 4, 8 or 16 bits.
LWC_HD LWC_ALWAYS_INLINE constexpr u32 nibble_ror1(u32 x) {
  return (x >> 1 & 0x77777777u) | (x & 0x11111111u) << 3;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 nibble_ror2(u32 x) {
  return (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 nibble_ror3(u32 x) {
  return (x >> 3 & 0x11111111u) | (x & 0x77777777u) << 1;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 half_ror4(u32 x) {
  return (x >> 4 & 0x0fff0fffu) | (x & 0x000f000fu) << 12;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 half_ror8(u32 x) {
  return (x >> 8 & 0x00ff00ffu) | (x & 0x00ff00ffu) << 8;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 half_ror12(u32 x) {
  return (x >> 12 & 0x000f000fu) | (x & 0x0fff0fffu) << 4;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 byte_ror2(u32 x) {
  return (x >> 2 & 0x3f3f3f3fu) | (x & 0x03030303u) << 6;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 byte_ror4(u32 x) {
  return (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 byte_ror6(u32 x) {
  return (x >> 6 & 0x03030303u) | (x & 0x3f3f3f3fu) << 2;
}

// The S-box on the four slices, in place, with the round's additions folded in: k1 and k2 are
// the round-key words of slices 1 and 2 taken back through this round's permutation of those
// slices (see fold_keys), c the constant of slice 3. The specification's swap of slices 0 and
// 3 is left to the caller, which renames the words: slice 3 comes out in s0, slice 0 in s3.
//
// The specification's sequence of seven steps is one long chain, and 40 of them run back to
// back in a block. Expanded as below the longest path is five operations instead of ten, and
// the key words join it where they add no step.
LWC_HD LWC_ALWAYS_INLINE constexpr void sbox(u32& s0, u32& s1, u32& s2, u32& s3, u32 k1, u32 k2,
                                             u32 c) {
  const u32 a = s0, b = s1, x = s2, d = s3;
  const u32 ax = a & x;
  const u32 b1 = b ^ ax;                  // step 1
  const u32 a1 = a ^ (d & b) ^ (d & ax);  // step 2: a ^ (b1 & d)
  const u32 xd = x ^ d;
  const u32 o = a1 | b1;                  // step 3: x1 = x ^ o
  s0 = a1 ^ c;
  s1 = (b1 ^ (xd ^ k1)) ^ o;              // steps 4, 5: b1 ^ d ^ x1
  s2 = ((x ^ k2) ^ b1) ^ (a1 & xd);       // step 7: x1 ^ (a1 & s1), as a1 ? x ^ d : b1
  s3 = ~xd ^ o;                           // steps 4, 6: ~(d ^ x1)
}

// Five rounds. On entry slice i is in xi; on return slice 0 is in x3 and slice 3 in x0.
// rk holds the ten folded round-key words (slice 1, then slice 2, per round), rc the five
// constants.
LWC_HD LWC_ALWAYS_INLINE constexpr void five_rounds(u32& x0, u32& x1, u32& x2, u32& x3,
                                                    const u32* rk, u32 c0, u32 c1, u32 c2,
                                                    u32 c3, u32 c4) {
  sbox(x0, x1, x2, x3, rk[0], rk[1], c0);
  x3 = nibble_ror1(x3);
  x1 = nibble_ror2(x1);
  x2 = nibble_ror3(x2);

  sbox(x3, x1, x2, x0, rk[2], rk[3], c1);
  x0 = half_ror4(x0);
  x1 = half_ror8(x1);
  x2 = half_ror12(x2);

  sbox(x0, x1, x2, x3, rk[4], rk[5], c2);
  x3 = ror32(x3 & 0x00005555u, 15) | ror32(x3 & 0x0000aaaau, 17) | x3 >> 16;
  x1 = (x1 >> 1 & 0x55555555u) | (x1 & 0x55555555u) << 1;
  x2 = (x2 & 0x0000ffffu) << 16 | (x2 >> 15 & 0x0000aaaau) | (x2 >> 17 & 0x00005555u);

  sbox(x3, x1, x2, x0, rk[6], rk[7], c3);
  x0 = byte_ror6(x0);
  x1 = byte_ror4(x1);
  x2 = byte_ror2(x2);

  sbox(x0, x1, x2, x3, rk[8], rk[9], c4);
  x3 = ror32(x3, 24);
  x1 = ror32(x1, 16);
  x2 = ror32(x2, 8);
}

// ---- key schedule -------------------------------------------------------------------------
//
// The key state is eight 16-bit words; every round adds W2||W3 (U) to slice 2 and W6||W7 (V)
// to slice 1, then moves the words two places, rotating the two that wrap round. Seen as the
// four 32-bit key words, round r adds key word j with both halves rotated n times (n = r / 4).
// Rounds 0..9 are built from the key words; round r + 10 adds U_r or V_r rotated two or three
// more times, which in the fixsliced representation (the same for r and r + 10) is a fixed
// shuffle of the bits of the round-key word of round r.

// Both halves rotated as in four rounds of the key state: high half by 2, low half by 12.
LWC_HD LWC_ALWAYS_INLINE constexpr u32 rotate_halves(u32 x) {
  return (x >> 2 & 0x3fff0000u) | (x & 0x00030000u) << 14 | (x >> 12 & 0x0000000fu) |
         (x & 0x00000fffu) << 4;
}

// P3^-k, the representation of the round keys added in rounds r = k - 1 (mod 5), as rotations
// by 16 (the top index bit inverted) and exchanges of two index bits (one swap_bits each).
LWC_HD LWC_ALWAYS_INLINE constexpr u32 to_slice_order1(u32 x) {
  x = swap_bits(ror32(x, 16), 0x0000ff00u, 8);
  x = swap_bits(ror32(x, 16), 0x0a0a0a0au, 3);
  x = swap_bits(x, 0x00cc00ccu, 6);
  return swap_bits(x, 0x0000aaaau, 15);
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 to_slice_order2(u32 x) {
  x = swap_bits(ror32(x, 16), 0x0000ff00u, 8);
  x = swap_bits(ror32(x, 16), 0x0000f0f0u, 12);
  x = swap_bits(ror32(x, 16), 0x0000ccccu, 14);
  return swap_bits(ror32(x, 16), 0x0000aaaau, 15);
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 to_slice_order3(u32 x) {
  x = ror32(swap_bits(x, 0x0000aaaau, 15), 16);
  x = ror32(swap_bits(x, 0x0000ccccu, 14), 16);
  x = ror32(swap_bits(x, 0x0000f0f0u, 12), 16);
  return ror32(swap_bits(x, 0x0000ff00u, 8), 16);
}
LWC_HD LWC_ALWAYS_INLINE constexpr u32 to_slice_order4(u32 x) {
  x = ror32(swap_bits(x, 0x0000aaaau, 15), 16);
  x = ror32(swap_bits(x, 0x0000ccccu, 14), 16);
  x = swap_bits(x, 0x0a0a0a0au, 3);
  return swap_bits(x, 0x00cc00ccu, 6);
}

// The round-key word of round r + 10 from that of round r: two more half rotations (for V,
// from U) or three (for U, from V), conjugated by the representation of rounds r = k (mod 5).
template <int K>
LWC_HD LWC_ALWAYS_INLINE constexpr u32 ahead_by_two(u32 x) {
  if constexpr (K == 0)
    return (x >> 1 & 0x44444444u) | (x & 0x00001111u) << 17 | (x >> 16 & 0x00003333u) |
           (x & 0x00002222u) << 15 | (x & 0x44444444u) << 1;
  else if constexpr (K == 1)
    return (x >> 4 & 0x0f000f00u) | (x >> 6 & 0x00030003u) | (x & 0x0f000f00u) << 4 |
           (x & 0x003f003fu) << 2;
  else if constexpr (K == 2)
    return ror32(x & 0x55555555u, 16) | ror32(x & 0xaaaaaaaau, 24);
  else if constexpr (K == 3)
    return (x >> 1 & 0x70707070u) | (x >> 2 & 0x03030303u) | (x & 0x10101010u) << 3 |
           (x & 0x03030303u) << 2;
  else
    return (x >> 4 & 0x0fff0000u) | (x >> 8 & 0x000000ffu) | (x & 0x000f0000u) << 12 |
           (x & 0x000000ffu) << 8;
}
template <int K>
LWC_HD LWC_ALWAYS_INLINE constexpr u32 ahead_by_three(u32 x) {
  if constexpr (K == 0)
    return (x & 0x00004444u) << 17 | (x >> 16 & 0x0000ccccu) | (x & 0x00008888u) << 15 |
           (x & 0x00111111u) << 9 | (x >> 24 & 0x00000033u) | (x & 0x00222222u) << 7;
  else if constexpr (K == 1)
    return (x >> 5 & 0x00070007u) | (x >> 6 & 0x03000300u) | (x & 0x001f001fu) << 3 |
           (x & 0x3f003f00u) << 2;
  else if constexpr (K == 2)
    return ror32(x & 0xaaaaaaaau, 20) | ror32(x & 0x55555555u, 24);
  else if constexpr (K == 3)
    return (x >> 1 & 0x07070707u) | (x & 0x00001010u) << 19 | (x >> 14 & 0x0000c0c0u) |
           (x & 0x0000e0e0u) << 15 | (x >> 18 & 0x00003030u) | (x & 0x01010101u) << 3;
  else
    return (x >> 4 & 0x00000fffu) | (x >> 6 & 0x03ff0000u) | (x & 0x0000000fu) << 12 |
           (x & 0x003f0000u) << 10;
}

template <int K>
LWC_HD LWC_ALWAYS_INLINE constexpr void advance_ten_rounds(u32* rk, int r) {
  rk[2 * r] = ahead_by_two<K>(rk[2 * (r - 10) + 1]);
  rk[2 * r + 1] = ahead_by_three<K>(rk[2 * (r - 10)]);
}

// The round words taken back through the permutation that the round applies to slices 1 and 2
// after the S-box, so that sbox() can add them before it (the inverse maps; several of the
// permutations are their own inverse).
LWC_HD constexpr void fold_keys(u32* rk) {
  for (int r = 0; r < 40; r += 5, rk += 10) {
    rk[0] = nibble_ror2(rk[0]);
    rk[1] = nibble_ror1(rk[1]);
    rk[2] = half_ror8(rk[2]);
    rk[3] = half_ror4(rk[3]);
    rk[4] = (rk[4] >> 1 & 0x55555555u) | (rk[4] & 0x55555555u) << 1;
    rk[5] = rk[5] >> 16 | (rk[5] & 0x00005555u) << 17 | (rk[5] & 0x0000aaaau) << 15;
    rk[6] = byte_ror4(rk[6]);
    rk[7] = byte_ror6(rk[7]);
    rk[8] = ror32(rk[8], 16);
    rk[9] = ror32(rk[9], 24);
  }
}

struct round_keys {
  u32 w[80];  // per round: the word for slice 1 (V), then the word for slice 2 (U)
};

// k0..k3: the key as four big-endian 32-bit words.
LWC_HD constexpr void expand_key(round_keys& out, u32 k0, u32 k1, u32 k2, u32 k3) {
  u32* rk = out.w;
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
  fold_keys(rk);
}

// The round constants (0x80000000 and the 6-bit LFSR value, added to slice 3) in the
// representation of the round that adds them.
LWC_HD LWC_ALWAYS_INLINE constexpr u32 round_constant(int r) {
  constexpr u32 rc[40] = {
      0x10000008u, 0x80018000u, 0x54000002u, 0x01010181u, 0x8000001fu, 0x10888880u, 0x6001e000u,
      0x51500002u, 0x03030180u, 0x8000002fu, 0x10088880u, 0x60016000u, 0x41500002u, 0x03030080u,
      0x80000027u, 0x10008880u, 0x4001e000u, 0x11500002u, 0x03020180u, 0x8000002bu, 0x10080880u,
      0x60014000u, 0x01400002u, 0x02020080u, 0x80000021u, 0x10000080u, 0x0001c000u, 0x51000002u,
      0x03010180u, 0x8000002eu, 0x10088800u, 0x60012000u, 0x40500002u, 0x01030080u, 0x80000006u,
      0x10008808u, 0xc001a000u, 0x14500002u, 0x01020181u, 0x8000001au};
  return rc[r];
}

// Encrypts the block held as four big-endian 32-bit words (slices 0..3), in place.
LWC_HD LWC_ALWAYS_INLINE constexpr void encrypt(const round_keys& keys, u32& s0, u32& s1, u32& s2,
                                                u32& s3) {
  u32 a = s0, b = s1, c = s2, d = s3;
  LWC_UNROLL for (int q = 0; q < 8; q += 2) {
    five_rounds(a, b, c, d, keys.w + 10 * q, round_constant(5 * q), round_constant(5 * q + 1),
                round_constant(5 * q + 2), round_constant(5 * q + 3), round_constant(5 * q + 4));
    five_rounds(d, b, c, a, keys.w + 10 * q + 10, round_constant(5 * q + 5),
                round_constant(5 * q + 6), round_constant(5 * q + 7), round_constant(5 * q + 8),
                round_constant(5 * q + 9));
  }
  s0 = a;
  s1 = b;
  s2 = c;
  s3 = d;
}

}  // namespace lwc::gift_cofb::detail
