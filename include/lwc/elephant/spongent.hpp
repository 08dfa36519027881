// SPDX-License-Identifier: MIT OR Apache-2.0
// Spongent-pi[160] and Spongent-pi[176] (Bogdanov et al., "SPONGENT: A Lightweight Hash
// Function", CHES 2011; the permutations of Elephant v2's Dumbo and Jumbo, NIST LWC final
// round), bitsliced: no table is ever indexed by state bits.
//
// Bit i of the state is bit i % 8 of byte i / 8; nibble k is bits 4k .. 4k+3. One state is
// held as four bit planes: bit k of plane c is bit c of nibble k, so the S-box is a boolean
// circuit on the four planes. The bit permutation sends bit 4k+c to c*N+k (N nibbles; bit
// n-1 stays); read back in planes, plane c after it gathers the bits c, c+4, c+8, ... of
// the concatenation plane0 || plane1 || plane2 || plane3.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"
#include "../common/secure.hpp"
#include "bitsliced.hpp"
#include "block.hpp"

#if LWC_X86_DISPATCH
#include <immintrin.h>
#endif

namespace lwc::elephant {

// On x86-64 CPUs with BMI2, one Spongent call (the key expansion, the tag, and the calls of
// short messages) gathers the plane bits with pext (bmi2); with AVX2 as well, the bitsliced
// batches of a longer message take 256 calls at a time instead of 64 (avx2, which includes
// bmi2). This is picked at run time, and LWC_FORCE_PORTABLE=1 or force_portable(true) selects
// the portable code instead.
enum class implementation : int { portable = 1, bmi2 = 2, avx2 = 3 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (::lwc::detail::cpu_has_bmi1_bmi2())
    return ::lwc::detail::cpu_has_avx2() ? implementation::avx2 : implementation::bmi2;
#endif
  return implementation::portable;
}
using path = ::lwc::detail::code_path<implementation, fastest_implementation>;
}  // namespace detail

inline implementation default_implementation() { return detail::path::default_path(); }
inline implementation active_implementation() { return detail::path::active(); }
inline void force_portable(bool on) { detail::path::force_portable(on); }

}  // namespace lwc::elephant

namespace lwc::elephant::detail {

// The S-box {E,D,B,0,2,1,4,F,7,A,8,5,9,C,3,6} on four bit planes (x0: least significant bit
// of every nibble). Outputs 1..3 come out complemented; the caller folds that into the round
// constants, where it costs nothing.
template <class W>
LWC_HD LWC_ALWAYS_INLINE constexpr void sbox_nc(const W& x0, const W& x1, const W& x2,
                                                const W& x3, W& y0, W& y1n, W& y2n, W& y3n) {
  const W t = x0 & x3;
  const W v = x1 ^ x2;
  const W u = x1 & x2;
  y0 = x0 ^ x3 ^ (x1 & ~x2);
  y2n = v ^ t ^ (u & x3);
  y1n = x0 ^ t ^ u ^ (x3 & (x1 | x2));
  y3n = x2 ^ x3 ^ t ^ (x0 & x1) ^ (x3 & (x1 ^ (x0 & v)));
}

// Exchanges bit i with bit i + d for every i in m.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t delta_swap(std::uint64_t x, std::uint64_t m,
                                                            unsigned d) {
  const std::uint64_t t = ((x >> d) ^ x) & m;
  return x ^ t ^ (t << d);
}

// The positions whose index has bit p set and bit q clear: swapping them with their partners
// d = 2^q - 2^p away exchanges bits p and q of every bit index.
LWC_HD constexpr std::uint64_t index_swap_mask(unsigned p, unsigned q) {
  std::uint64_t m = 0;
  for (unsigned i = 0; i < 64; ++i)
    if ((i >> p & 1) && !(i >> q & 1)) m |= std::uint64_t{1} << i;
  return m;
}

// Bit 4j+c of x goes to bit 16c+j: the index bits (j3 j2 j1 j0 c1 c0) rotate to
// (c1 c0 j3 j2 j1 j0), as two 3-cycles of index bits, each two index-bit swaps.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t unshuffle4(std::uint64_t x) {
  x = delta_swap(x, index_swap_mask(0, 2), 3);
  x = delta_swap(x, index_swap_mask(1, 3), 6);
  x = delta_swap(x, index_swap_mask(2, 4), 12);
  x = delta_swap(x, index_swap_mask(3, 5), 24);
  return x;
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t shuffle4(std::uint64_t x) {
  x = delta_swap(x, index_swap_mask(3, 5), 24);
  x = delta_swap(x, index_swap_mask(2, 4), 12);
  x = delta_swap(x, index_swap_mask(1, 3), 6);
  x = delta_swap(x, index_swap_mask(0, 2), 3);
  return x;
}

template <unsigned NBits>
struct spongent_params;
template <>
struct spongent_params<160> {
  static constexpr unsigned rounds = 80;
  static constexpr std::uint8_t iv = 0x75;
};
template <>
struct spongent_params<176> {
  static constexpr unsigned rounds = 90;
  static constexpr std::uint8_t iv = 0x45;
};

template <unsigned NBits>
struct spongent {
  static constexpr std::size_t state_bytes = NBits / 8;
  static constexpr unsigned rounds = spongent_params<NBits>::rounds;
  // Calls below which one at a time is faster than a bitsliced batch (measured on x86-64).
  static std::size_t min_batch() {
#if LWC_X86_DISPATCH
    if (active_implementation() != implementation::portable) return 12;
#endif
    return 7;
  }
  static constexpr unsigned nibbles = NBits / 4;   // N: bits per plane
  static constexpr unsigned group = nibbles / 4;   // bits of one plane that land in another
  static constexpr std::uint64_t group_mask = (std::uint64_t{1} << group) - 1;
  // The bits that come from S-box outputs 1..3 after the permutation: the complement the
  // S-box circuit leaves out.
  static constexpr std::uint64_t complement =
      ((std::uint64_t{1} << nibbles) - 1) & ~group_mask;

  // The round counter (a 7-bit LFSR) is added to byte 0 and, bit-reversed, to the last byte;
  // in planes that is bits 0, 1, N-2, N-1 of each plane. Entry 4r+c is for plane c in round
  // r, with the complement of the previous round folded in.
  LWC_HD static constexpr std::array<std::uint64_t, 4 * rounds> round_constants() {
    std::array<std::uint64_t, 4 * rounds> rc{};
    unsigned lfsr = spongent_params<NBits>::iv;
    for (unsigned r = 0; r < rounds; ++r) {
      unsigned rev = 0;
      for (unsigned i = 0; i < 8; ++i) rev |= (lfsr >> i & 1) << (7 - i);
      for (unsigned c = 0; c < 4; ++c) {
        std::uint64_t v = (lfsr >> c & 1) | (lfsr >> (c + 4) & 1) << 1;
        v |= std::uint64_t{rev >> c & 1} << (nibbles - 2);
        v |= std::uint64_t{rev >> (c + 4) & 1} << (nibbles - 1);
        rc[4 * r + c] = r == 0 ? v : v ^ complement;
      }
      lfsr = ((lfsr << 1) | ((lfsr >> 6 ^ lfsr >> 5) & 1)) & 0x7f;
    }
    return rc;
  }

  // The permutation on one state held as planes.
  LWC_HD static constexpr void permute_planes(std::uint64_t& x0, std::uint64_t& x1,
                                              std::uint64_t& x2, std::uint64_t& x3) {
    constexpr std::array<std::uint64_t, 4 * rounds> rc = round_constants();
    constexpr unsigned g = group;
    for (unsigned r = 0; r < rounds; ++r) {
      x0 ^= rc[4 * r];
      x1 ^= rc[4 * r + 1];
      x2 ^= rc[4 * r + 2];
      x3 ^= rc[4 * r + 3];
      std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
      sbox_nc(x0, x1, x2, x3, t0, t1, t2, t3);
      // Plane b's bits c, c+4, ... (slot c after unshuffle4) become bits g*b .. g*b+g-1
      // of plane c.
      t0 = unshuffle4(t0);
      t1 = unshuffle4(t1);
      t2 = unshuffle4(t2);
      t3 = unshuffle4(t3);
      x0 = (t0 & group_mask) | (t1 & group_mask) << g | (t2 & group_mask) << (2 * g) |
           (t3 & group_mask) << (3 * g);
      x1 = (t0 >> 16 & group_mask) | (t1 >> 16 & group_mask) << g |
           (t2 >> 16 & group_mask) << (2 * g) | (t3 >> 16 & group_mask) << (3 * g);
      x2 = (t0 >> 32 & group_mask) | (t1 >> 32 & group_mask) << g |
           (t2 >> 32 & group_mask) << (2 * g) | (t3 >> 32 & group_mask) << (3 * g);
      x3 = (t0 >> 48 & group_mask) | (t1 >> 48 & group_mask) << g |
           (t2 >> 48 & group_mask) << (2 * g) | (t3 >> 48 & group_mask) << (3 * g);
    }
    x0 ^= complement;
    x1 ^= complement;
    x2 ^= complement;
    x3 ^= complement;
  }

  // Many states at once, one word per state bit (s[i]: bit i of every state). The bit
  // permutation is where each S-box writes its outputs: bit 4k+b goes to b*N + k.
  template <class W>
  static void permute_sliced(W* s) {
    constexpr unsigned n = NBits, N = nibbles;
    W t[n];
    W* from = s;
    W* to = t;
    unsigned lfsr = spongent_params<NBits>::iv;
    for (unsigned r = 0; r < rounds; ++r) {
      for (unsigned j = 0; j < 7; ++j) {
        xor_lane_mask(from[j], lfsr >> j);
        xor_lane_mask(from[n - 1 - j], lfsr >> j);
      }
      lfsr = ((lfsr << 1) | ((lfsr >> 6 ^ lfsr >> 5) & 1)) & 0x7f;
      LWC_UNROLL for (unsigned k = 0; k < N; ++k) {
        W y0{}, y1{}, y2{}, y3{};
        sbox_nc(from[4 * k], from[4 * k + 1], from[4 * k + 2], from[4 * k + 3], y0, y1, y2, y3);
        to[k] = y0;
        to[N + k] = ~y1;
        to[2 * N + k] = ~y2;
        to[3 * N + k] = ~y3;
      }
      W* const u = from;
      from = to;
      to = u;
    }
    static_assert(rounds % 2 == 0, "the result must end in s");
    secure_wipe(t, sizeof t);
  }

#if LWC_X86_DISPATCH
  // The same with pext and pdep doing the gathers: plane c is the bits c, c+4, ... of a word.
  LWC_TARGET_BMI1_BMI2 static void permute_bmi2(block& b) {
    constexpr std::array<std::uint64_t, 4 * rounds> rc = round_constants();
    constexpr std::uint64_t e = 0x1111111111111111u;
    constexpr unsigned g = group;
    std::uint64_t x0 = _pext_u64(b.w[0], e) | _pext_u64(b.w[1], e) << 16 | _pext_u64(b.w[2], e) << 32;
    std::uint64_t x1 = _pext_u64(b.w[0], e << 1) | _pext_u64(b.w[1], e << 1) << 16 |
                       _pext_u64(b.w[2], e << 1) << 32;
    std::uint64_t x2 = _pext_u64(b.w[0], e << 2) | _pext_u64(b.w[1], e << 2) << 16 |
                       _pext_u64(b.w[2], e << 2) << 32;
    std::uint64_t x3 = _pext_u64(b.w[0], e << 3) | _pext_u64(b.w[1], e << 3) << 16 |
                       _pext_u64(b.w[2], e << 3) << 32;
    for (unsigned r = 0; r < rounds; ++r) {
      x0 ^= rc[4 * r];
      x1 ^= rc[4 * r + 1];
      x2 ^= rc[4 * r + 2];
      x3 ^= rc[4 * r + 3];
      std::uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
      sbox_nc(x0, x1, x2, x3, t0, t1, t2, t3);
      x0 = _pext_u64(t0, e) | _pext_u64(t1, e) << g | _pext_u64(t2, e) << (2 * g) |
           _pext_u64(t3, e) << (3 * g);
      x1 = _pext_u64(t0, e << 1) | _pext_u64(t1, e << 1) << g |
           _pext_u64(t2, e << 1) << (2 * g) | _pext_u64(t3, e << 1) << (3 * g);
      x2 = _pext_u64(t0, e << 2) | _pext_u64(t1, e << 2) << g |
           _pext_u64(t2, e << 2) << (2 * g) | _pext_u64(t3, e << 2) << (3 * g);
      x3 = _pext_u64(t0, e << 3) | _pext_u64(t1, e << 3) << g |
           _pext_u64(t2, e << 3) << (2 * g) | _pext_u64(t3, e << 3) << (3 * g);
    }
    x0 ^= complement;
    x1 ^= complement;
    x2 ^= complement;
    x3 ^= complement;
    for (unsigned q = 0; q < 3; ++q)
      b.w[q] = _pdep_u64(x0 >> (16 * q) & 0xffff, e) | _pdep_u64(x1 >> (16 * q) & 0xffff, e << 1) |
               _pdep_u64(x2 >> (16 * q) & 0xffff, e << 2) |
               _pdep_u64(x3 >> (16 * q) & 0xffff, e << 3);
  }
#endif

  // One state in natural order. Each 64-bit word holds 16 nibbles; unshuffled, its slot c
  // (bits 16c .. 16c+15) is their plane-c bits.
  LWC_HD static constexpr void permute(block& b) {
#if LWC_X86_DISPATCH
    if (!std::is_constant_evaluated() && active_implementation() != implementation::portable) {
      permute_bmi2(b);
      return;
    }
#endif
    const std::uint64_t w0 = unshuffle4(b.w[0]), w1 = unshuffle4(b.w[1]),
                        w2 = unshuffle4(b.w[2]);
    std::uint64_t x[4] = {};
    for (unsigned c = 0; c < 4; ++c)
      x[c] = (w0 >> (16 * c) & 0xffff) | (w1 >> (16 * c) & 0xffff) << 16 |
             (w2 >> (16 * c) & 0xffff) << 32;
    permute_planes(x[0], x[1], x[2], x[3]);
    for (unsigned q = 0; q < 3; ++q) {
      std::uint64_t w = 0;
      for (unsigned c = 0; c < 4; ++c) w |= (x[c] >> (16 * q) & 0xffff) << (16 * c);
      b.w[q] = shuffle4(w);
    }
  }
};

}  // namespace lwc::elephant::detail
