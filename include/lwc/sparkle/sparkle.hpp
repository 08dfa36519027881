// SPDX-License-Identifier: MIT OR Apache-2.0
// The SPARKLE permutations (SPARKLE final-round specification v1.2, "Schwaemm and Esch:
// Lightweight Authenticated Encryption and Hashing using the Sparkle Permutation Family",
// Beierle et al., section 2.1): SPARKLE256, 384 and 512 with their slim and big step counts.
// A permutation has no secret of its own; the callers that key it wipe the state.
//
// On x86-64 CPUs with BMI1/BMI2, a build without those extensions runs a copy of the
// permutation compiled for them (rorx rotates without the copy a two-operand rotate needs),
// picked at run time; LWC_FORCE_PORTABLE=1 in the environment or
// lwc::sparkle::force_portable(true) selects the portable code.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"

namespace lwc::sparkle {

enum class implementation : int { portable = 1, bmi2 = 2 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (::lwc::detail::cpu_has_bmi1_bmi2()) return implementation::bmi2;
#endif
  return implementation::portable;
}
using path = ::lwc::detail::code_path<implementation, fastest_implementation>;
}  // namespace detail

// The fastest path this CPU supports, unless the environment variable LWC_FORCE_PORTABLE is 1.
inline implementation default_implementation() { return detail::path::default_path(); }

// The path the host functions use: default_implementation() unless force_portable(true).
inline implementation active_implementation() { return detail::path::active(); }

// Tests use this to run both paths; false goes back to default_implementation().
inline void force_portable(bool on) { detail::path::force_portable(on); }

}  // namespace lwc::sparkle

namespace lwc::sparkle::detail {

// The state of an NB-branch SPARKLE as 2 * NB words x0, y0, x1, y1, ...: word i is bytes
// 4i..4i+3 of the byte string the modes read and write, little endian.
template <std::size_t NB>
struct state {
  std::uint32_t w[2 * NB];
};

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t rotr(std::uint32_t x, unsigned n) {
  return x >> n | x << (32 - n);
}

// Branch (x, y) of a state as x | y << 32. On little-endian hosts that is the branch's 8 bytes
// in memory, moved as one word. (A 64-bit load of two words just written by two 32-bit stores
// waits for both: no store forwarding.)
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t load_branch(const std::uint32_t* w) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::endian::native == std::endian::little) {
    if (!std::is_constant_evaluated()) {
      std::uint64_t b;
      std::memcpy(&b, w, 8);
      return b;
    }
  }
#endif
  return std::uint64_t{w[0]} | std::uint64_t{w[1]} << 32;
}
LWC_HD LWC_ALWAYS_INLINE constexpr void store_branch(std::uint32_t* w, std::uint64_t b) {
#if !defined(__CUDA_ARCH__)
  if constexpr (std::endian::native == std::endian::little) {
    if (!std::is_constant_evaluated()) {
      std::memcpy(w, &b, 8);
      return;
    }
  }
#endif
  w[0] = static_cast<std::uint32_t>(b);
  w[1] = static_cast<std::uint32_t>(b >> 32);
}

// The round constants (also the Alzette constants of branches 0..7).
template <std::size_t I>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t rcon() {
  constexpr std::uint32_t c[8] = {0xb7e15162, 0xbf715880, 0x38b4da56, 0x324e7738,
                                  0xbb1185eb, 0x4f7c7b57, 0xcfbfa1c8, 0xc2b3293d};
  return c[I % 8];
}

// Alzette: four ARX rounds on one 64-bit branch, after y takes the step's constant yc (the
// round constant on branch 0, the step number on branch 1, zero elsewhere).
template <std::uint32_t C>
LWC_HD LWC_ALWAYS_INLINE constexpr void alzette(std::uint32_t& x, std::uint32_t& y,
                                                std::uint32_t yc) {
#if defined(__clang__)
  // Clang sees that yc leaves some bits of y as they were and turns the rotation of y ^ yc
  // into a double shift of y ^ yc and y (shrd: three cycles on recent x86-64 cores, against one
  // for rorx). Rotating first and adding the rotated constant gives it nothing to merge.
  x += rotr(y, 31) ^ rotr(yc, 31);
  y ^= yc;
#else
  y ^= yc;
  x += rotr(y, 31);
#endif
  y ^= rotr(x, 24);
  x ^= C;
  x += rotr(y, 17);
  y ^= rotr(x, 17);
  x ^= C;
  x += y;
  y ^= rotr(x, 31);
  x ^= C;
  x += rotr(y, 24);
  y ^= rotr(x, 16);
  x ^= C;
}

// rotr(x ^ (x << 16), 16), written so that no compiler makes it a double shift (Clang did, a
// three-cycle shrd in the chain from one step to the next): the two halves are independent.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t ell(std::uint32_t x) {
  return rotr(x, 16) ^ (x & 0xffff);
}

template <std::size_t NB, std::size_t... J>
LWC_HD LWC_ALWAYS_INLINE constexpr void arx_layer(std::uint32_t (&w)[2 * NB], std::uint32_t rc,
                                                  std::uint32_t k, std::index_sequence<J...>) {
  (alzette<rcon<J>()>(w[2 * J], w[2 * J + 1], J == 0 ? rc : J == 1 ? k : 0), ...);
}

// One step with round constant rc and step number k: the Alzette layer, and the linear layer (a
// Feistel round whose function is ELL of the XOR of the left branches, then the swap of the
// halves with the right half rotated by one branch). The new words are written to a fresh
// array, which the compiler turns into register renaming. In a loop of steps (KnownConstants
// false) the constants are not known at compile time and go straight into y.
template <std::size_t NB, bool KnownConstants = true>
LWC_HD LWC_ALWAYS_INLINE constexpr void step(std::uint32_t (&w)[2 * NB], std::uint32_t rc,
                                             std::uint32_t k) {
  constexpr std::size_t h = NB / 2;
  if constexpr (KnownConstants) {
    arx_layer<NB>(w, rc, k, std::make_index_sequence<NB>{});
  } else {
    w[1] ^= rc;
    w[3] ^= k;
    arx_layer<NB>(w, 0, 0, std::make_index_sequence<NB>{});
  }
  std::uint32_t tx = 0, ty = 0;
  LWC_UNROLL for (std::size_t i = 0; i < h; ++i) {
    tx ^= w[2 * i];
    ty ^= w[2 * i + 1];
  }
  tx = ell(tx);
  ty = ell(ty);
  std::uint32_t t[2 * NB];
  LWC_UNROLL for (std::size_t i = 0; i < h; ++i) {
    const std::size_t dst = 2 * ((i + h - 1) % h);  // right branch i moves to the left, one back
    t[dst] = w[2 * (i + h)] ^ w[2 * i] ^ ty;
    t[dst + 1] = w[2 * (i + h) + 1] ^ w[2 * i + 1] ^ tx;
    t[2 * (i + h)] = w[2 * i];
    t[2 * (i + h) + 1] = w[2 * i + 1];
  }
  LWC_UNROLL for (std::size_t i = 0; i < 2 * NB; ++i) w[i] = t[i];
}

template <std::size_t NB, std::size_t... S>
LWC_HD LWC_ALWAYS_INLINE constexpr void steps(std::uint32_t (&w)[2 * NB],
                                              std::index_sequence<S...>) {
  (step<NB>(w, rcon<S>(), static_cast<std::uint32_t>(S)), ...);
}

// Two choices where Clang compiles scalar x86 code (no AVX-512; the BMI1/BMI2 copy of a build
// without -march is such code), each measured with clang++ 14 -O2 side by side in one process:
// - SPARKLE512 (16 words, one more than x86-64 has registers for) runs as a loop of steps.
//   Unrolled, Clang keeps about twice as many words on the stack as GCC (25 loads and stores a
//   step against 13); the loop takes 3-10 % less time for Schwaemm256-256 and Esch384.
// - The result is stored a branch (64 bits) at a time, because Schwaemm reads the rate back that
//   way (5-13 % less time for Schwaemm256-128 and Schwaemm128-128).
// With AVX-512 Clang vectorizes pairs of Alzettes in the loop and the packing of branches, both
// slower than the plain code; GCC's code is as fast either way.
#if defined(__clang__) && !defined(__CUDA_ARCH__) && \
    (defined(__x86_64__) || defined(__i386__)) && !defined(__AVX512VL__)
inline constexpr bool clang_scalar = true;
#else
inline constexpr bool clang_scalar = false;
#endif

// Inside, the words live in a local array kept in registers.
template <std::size_t NB, std::size_t Steps>
LWC_HD LWC_ALWAYS_INLINE constexpr void permute_words(state<NB>& s) {
  static_assert(NB == 4 || NB == 6 || NB == 8);
  static_assert(Steps <= 12);
  std::uint32_t w[2 * NB];
  LWC_UNROLL for (std::size_t i = 0; i < 2 * NB; ++i) w[i] = s.w[i];
  if constexpr (NB == 8 && clang_scalar) {
    constexpr std::uint32_t rc[12] = {rcon<0>(), rcon<1>(), rcon<2>(), rcon<3>(),
                                      rcon<4>(), rcon<5>(), rcon<6>(), rcon<7>(),
                                      rcon<8>(), rcon<9>(), rcon<10>(), rcon<11>()};
#if defined(__clang__)
#pragma clang loop unroll(disable)
#endif
    for (std::uint32_t k = 0; k < Steps; ++k) step<NB, false>(w, rc[k], k);
  } else {
    steps<NB>(w, std::make_index_sequence<Steps>{});
  }
  if constexpr (clang_scalar) {
    LWC_UNROLL for (std::size_t i = 0; i < NB; ++i)
      store_branch(s.w + 2 * i, std::uint64_t{w[2 * i]} | std::uint64_t{w[2 * i + 1]} << 32);
  } else {
    LWC_UNROLL for (std::size_t i = 0; i < 2 * NB; ++i) s.w[i] = w[i];
  }
}

// Where the compiler may not use BMI2 itself: 7 of Alzette's 19 operations are rotations, and
// without rorx most need a copy too (SPARKLE384 takes about 30 % more instructions).
#if LWC_X86_DISPATCH && !defined(__BMI2__)
#define LWC_SPARKLE_DISPATCH 1
template <std::size_t NB, std::size_t Steps>
LWC_TARGET_BMI1_BMI2 void permute_bmi2(state<NB>& s) {
  permute_words<NB, Steps>(s);
}
#else
#define LWC_SPARKLE_DISPATCH 0
#endif

// SPARKLE with NB branches and Steps steps. Out of line on purpose (the modes call it from
// several places and it is long).
template <std::size_t NB, std::size_t Steps>
LWC_HD constexpr void permute(state<NB>& s) {
#if LWC_SPARKLE_DISPATCH
  if (!std::is_constant_evaluated() && path::active() == implementation::bmi2)
    return permute_bmi2<NB, Steps>(s);
#endif
  permute_words<NB, Steps>(s);
}

// N words from 4N bytes (little endian), two at a time through one 64-bit load where possible.
template <std::size_t N>
LWC_HD LWC_ALWAYS_INLINE constexpr void load_words(std::uint32_t* w, const std::uint8_t* p) {
  LWC_UNROLL for (std::size_t i = 0; i + 1 < N; i += 2) {
    const std::uint64_t x = load_le64(p + 4 * i);
    w[i] = static_cast<std::uint32_t>(x);
    w[i + 1] = static_cast<std::uint32_t>(x >> 32);
  }
  if constexpr (N % 2 == 1) w[N - 1] = load_le32(p + 4 * (N - 1));
}
template <std::size_t N>
LWC_HD LWC_ALWAYS_INLINE constexpr void store_words(std::uint8_t* p, const std::uint32_t* w) {
  LWC_UNROLL for (std::size_t i = 0; i + 1 < N; i += 2)
    store_le64(p + 4 * i, std::uint64_t{w[i]} | std::uint64_t{w[i + 1]} << 32);
  if constexpr (N % 2 == 1) store_le32(p + 4 * (N - 1), w[N - 1]);
}

}  // namespace lwc::sparkle::detail
