// Up to 64 independent Elephant permutation calls at once, bitsliced across calls: word i holds
// bit i of every state (bit L of the word is call L), so the bit permutations of Spongent and
// the lane rotations of Keccak are only a choice of which word to read, and the S-boxes are
// boolean operations on whole words. Host code only; device code runs the calls one by one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/config.hpp"
#include "../common/secure.hpp"
#include "block.hpp"

namespace lwc::elephant::detail {

// One 64-bit word per state bit: 128-bit vector words were tried and gave only about a fifth
// more per call on x86-64 (the loads and stores of the slices bound it), at a higher cost for
// the partly filled batches of short messages.
inline constexpr std::size_t lanes = 64;

// All-ones in every lane when bit is 1, zero when it is 0 (bit is a public constant).
template <class W>
LWC_ALWAYS_INLINE W lane_mask(unsigned bit) {
  W w{};
  return w ^ (std::uint64_t{0} - std::uint64_t{bit & 1u});
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

// Runs Perm on blocks[0 .. count) (count <= 64) in place.
template <class Perm>
inline void permute_many(block* blocks, std::size_t count) {
  constexpr std::size_t bits = 8 * Perm::state_bytes;
  constexpr std::size_t words = (bits + 63) / 64;
  std::uint64_t s[64 * words];
  std::uint64_t m[64];
  for (std::size_t q = 0; q < words; ++q) {
    for (std::size_t l = 0; l < lanes; ++l) m[l] = l < count ? blocks[l].w[q] : 0;
    transpose64(m);
    for (std::size_t i = 0; i < 64; ++i) s[64 * q + i] = m[i];
  }
  Perm::permute_sliced(s);
  for (std::size_t q = 0; q < words; ++q) {
    for (std::size_t i = 0; i < 64; ++i) m[i] = 64 * q + i < bits ? s[64 * q + i] : 0;
    transpose64(m);
    for (std::size_t l = 0; l < count; ++l) blocks[l].w[q] = m[l];
  }
  secure_wipe(s, sizeof s);
  secure_wipe(m, sizeof m);
}

}  // namespace lwc::elephant::detail
