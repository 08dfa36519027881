// SPDX-License-Identifier: MIT OR Apache-2.0
// Up to 64 (256 with AVX2) independent Elephant permutation calls at once, bitsliced across
// calls: word i holds bit i of every state (bit L of the word is call L), so the bit
// permutations of Spongent and the lane rotations of Keccak are only a choice of which word to
// read, and the S-boxes are boolean operations on whole words. Host code only; device code runs
// the calls one by one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"
#include "../common/secure.hpp"
#include "block.hpp"

namespace lwc::elephant::detail {

// One word per state bit: a 64-bit word (64 calls) everywhere, and on x86-64 CPUs with AVX2
// a 256-bit vector of four such words (256 calls, four groups of 64 side by side), picked at
// run time: each boolean operation then serves four times the calls (docs/PERFORMANCE.md,
// "Elephant in AVX2 words": Dumbo and Jumbo about twice as fast at 4 to 16 KiB). No AVX-512
// form: 512-bit words would need 512 calls, messages of 10 KiB and more, to fill, and AMD's
// Zen 4 executes them as two 256-bit halves.
inline constexpr std::size_t lanes = 64;

// w ^= all-ones in every lane when bit is 1, nothing when it is 0 (bit is a public constant).
// In place, so that no wide vector is passed or returned by value outside code compiled for it.
template <class W>
LWC_ALWAYS_INLINE void xor_lane_mask(W& w, unsigned bit) {
  w ^= std::uint64_t{0} - std::uint64_t{bit & 1u};
}

// In place: bit c of a[r] becomes bit r of a[c]. Six rounds of block swaps, 32 to 1 bits wide.
inline void transpose64(std::uint64_t (&a)[64]) {
  std::uint64_t m = 0x00000000ffffffffu;
  for (unsigned j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

// Lane g (0 .. groups) of word w: the words are std::uint64_t or a GCC vector of them.
template <class W>
LWC_ALWAYS_INLINE void set_group(W& w, std::size_t g, std::uint64_t v) {
  if constexpr (sizeof(W) == sizeof(std::uint64_t)) w = v;
  else w[g] = v;
}
template <class W>
LWC_ALWAYS_INLINE std::uint64_t get_group(const W& w, std::size_t g) {
  if constexpr (sizeof(W) == sizeof(std::uint64_t)) return w;
  else return w[g];
}

// Runs Perm on blocks[0 .. count) in place, count <= 64 * (the 64-bit groups in W): each
// group of 64 blocks is transposed into one 64-bit slot of every word.
template <class Perm, class W>
LWC_ALWAYS_INLINE void permute_many_as(block* blocks, std::size_t count) {
  constexpr std::size_t groups = sizeof(W) / sizeof(std::uint64_t);
  constexpr std::size_t bits = 8 * Perm::state_bytes;
  constexpr std::size_t words = (bits + 63) / 64;
  W s[64 * words];
  std::uint64_t m[64];
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t first = 64 * g;
    for (std::size_t q = 0; q < words; ++q) {
      if (first < count) {
        for (std::size_t l = 0; l < lanes; ++l)
          m[l] = first + l < count ? blocks[first + l].w[q] : 0;
        transpose64(m);
      } else {
        for (std::size_t i = 0; i < 64; ++i) m[i] = 0;
      }
      for (std::size_t i = 0; i < 64; ++i) set_group(s[64 * q + i], g, m[i]);
    }
  }
  Perm::permute_sliced(s);
  for (std::size_t g = 0; g < groups && 64 * g < count; ++g) {
    const std::size_t first = 64 * g;
    for (std::size_t q = 0; q < words; ++q) {
      for (std::size_t i = 0; i < 64; ++i)
        m[i] = 64 * q + i < bits ? get_group(s[64 * q + i], g) : 0;
      transpose64(m);
      for (std::size_t l = 0; l < lanes && first + l < count; ++l) blocks[first + l].w[q] = m[l];
    }
  }
  secure_wipe(s, sizeof s);
  secure_wipe(m, sizeof m);
}

// count <= 64.
template <class Perm>
inline void permute_many(block* blocks, std::size_t count) {
  permute_many_as<Perm, std::uint64_t>(blocks, count);
}

inline constexpr std::size_t avx2_lanes = 256;

#if LWC_X86_DISPATCH
// count <= 256; only after the CPU check (cpu_has_avx2). The vector type and everything the
// permutation inlines are compiled for AVX2 in this one function.
typedef std::uint64_t avx2_word __attribute__((vector_size(32)));

template <class Perm>
__attribute__((target("avx2"), flatten)) inline void permute_many_avx2(block* blocks,
                                                                       std::size_t count) {
  permute_many_as<Perm, avx2_word>(blocks, count);
}
#endif

}  // namespace lwc::elephant::detail
