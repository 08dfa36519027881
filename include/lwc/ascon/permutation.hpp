// SPDX-License-Identifier: MIT OR Apache-2.0
// The Ascon permutation (NIST SP 800-232, section 3), shared by every Ascon mode in lwc, on the
// CPU and in CUDA kernels. State words are plain 64-bit integers; how bytes map onto them is
// the business of the mode (little endian for SP 800-232 and v1.3, big endian for v1.2).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../common/bytes.hpp"
#include "../common/config.hpp"

namespace lwc::ascon {

struct state {
  std::uint64_t x[5];
};

// Round constant of round i of the 12-round schedule; p^r runs rounds 12-r .. 11.
LWC_HD constexpr std::uint64_t round_constant(int i) {
  return (static_cast<std::uint64_t>(0xf - i) << 4) | static_cast<std::uint64_t>(i);
}

namespace detail {

// `v`, where the host compiler may not move it: an empty volatile asm takes it in a register
// and hands it back. Volatile asm statements keep their order, so a round written as one
// pinned statement per instruction is issued in the order written (see round_folded).
// x86-64 host code only, where the order was measured; not under MemorySanitizer, which
// checks an asm statement's operands as if they were branched on.
#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(__CUDACC__) && \
    (defined(__GNUC__) || defined(__clang__))
#define LWC_ASCON_PIN_ORDER 1
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#undef LWC_ASCON_PIN_ORDER
#endif
#endif
#endif
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t pinned(std::uint64_t v) {
#if defined(LWC_ASCON_PIN_ORDER)
  if (!std::is_constant_evaluated()) asm volatile("" : "+r"(v));
#endif
  return v;
}

// One round (constant addition, the 5-bit S-box in bitsliced form, linear diffusion), except
// that x2 enters with this round's constant already added and leaves with `next` XORed into
// it instead of being complemented: next = ~c adds the following round's constant c and the
// S-box's complement of x2 in one XOR, off the chain of dependent operations (~0 after the
// last round).
//
// The order of the statements is the order of the instructions. Out-of-order x86-64 cores
// issue the oldest ready instruction first, and only two of their four integer units rotate;
// this order (all five AND-NOTs before their XORs, the first rotation of every word before
// the second ones, each rotation XORed in as it arrives) keeps those two units busy and the
// chain short (measured in docs/PERFORMANCE.md, "Ahead of ascon-c").
LWC_HD LWC_ALWAYS_INLINE constexpr void round_folded(state& s, std::uint64_t next) {
  const std::uint64_t x0 = s.x[0], x1 = s.x[1], x2 = s.x[2], x3 = s.x[3], x4 = s.x[4];
  // S-box: the input XORs, the five AND-NOTs, their XORs, the output XORs.
  const std::uint64_t a2 = pinned(x2 ^ x1);
  const std::uint64_t a0 = pinned(x0 ^ x4);
  const std::uint64_t a4 = pinned(x4 ^ x3);
  const std::uint64_t n0 = pinned(~x1 & a2);
  const std::uint64_t n1 = pinned(~a2 & x3);
  const std::uint64_t n2 = pinned(~x3 & a4);
  const std::uint64_t n3 = pinned(~a4 & a0);
  const std::uint64_t n4 = pinned(~a0 & x1);
  const std::uint64_t u0 = pinned(a0 ^ n0);
  const std::uint64_t u1 = pinned(x1 ^ n1);
  const std::uint64_t t2 = pinned(a2 ^ n2);
  const std::uint64_t u3 = pinned(x3 ^ n3);
  const std::uint64_t t4 = pinned(a4 ^ n4);
  const std::uint64_t t1 = pinned(u1 ^ u0);
  const std::uint64_t t0 = pinned(u0 ^ t4);
  const std::uint64_t t3 = pinned(u3 ^ t2);
  // Linear diffusion: word i becomes t ^ ror(t, a) ^ ror(t, b), first rotations first.
  const std::uint64_t r2 = pinned(rotr64(t2, 1));
  const std::uint64_t r0 = pinned(rotr64(t0, 19));
  const std::uint64_t r1 = pinned(rotr64(t1, 61));
  const std::uint64_t v2 = pinned(t2 ^ next);
  const std::uint64_t r3 = pinned(rotr64(t3, 10));
  const std::uint64_t r4 = pinned(rotr64(t4, 7));
  const std::uint64_t y0 = pinned(t0 ^ r0);
  const std::uint64_t y1 = pinned(t1 ^ r1);
  const std::uint64_t q0 = pinned(rotr64(t0, 28));
  const std::uint64_t q1 = pinned(rotr64(t1, 39));
  const std::uint64_t y2 = pinned(v2 ^ r2);
  const std::uint64_t y3 = pinned(t3 ^ r3);
  const std::uint64_t q2 = pinned(rotr64(t2, 6));
  const std::uint64_t q3 = pinned(rotr64(t3, 17));
  const std::uint64_t y4 = pinned(t4 ^ r4);
  s.x[0] = y0 ^ q0;
  const std::uint64_t q4 = pinned(rotr64(t4, 41));
  s.x[1] = y1 ^ q1;
  s.x[2] = y2 ^ q2;
  s.x[3] = y3 ^ q3;
  s.x[4] = y4 ^ q4;
}

}  // namespace detail

// p^Rounds: the last Rounds rounds of the 12-round schedule.
template <int Rounds>
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& s) {
  static_assert(Rounds >= 1 && Rounds <= 12);
#if defined(__CUDA_ARCH__)
  // GPU: each round's constant is added as the round starts and the complement is left to the
  // diffusion (next = ~0). A GPU works on 32-bit halves with three-input logic instructions:
  // there the constant (low half only) joins the first XOR of x2, and the complement joins the
  // three-input XOR of the diffusion, for free. The host's folding cost one more instruction
  // per round in the sm_90 hash kernels (Ascon-Hash256 2.5 % slower on an H200; docs/cuda.md).
  LWC_UNROLL for (int i = 12 - Rounds; i < 12; ++i) {
    s.x[2] ^= round_constant(i);
    detail::round_folded(s, ~std::uint64_t{0});
  }
#else
  s.x[2] ^= round_constant(12 - Rounds);
  LWC_UNROLL for (int i = 12 - Rounds; i < 12; ++i) {
    detail::round_folded(s, ~(i < 11 ? round_constant(i + 1) : 0));
  }
#endif
}

namespace detail {

// n < 8 bytes at p as the first n bytes of a state word (zero beyond them), or the first n
// bytes of x stored at p: in pieces of 4, 2 and 1 bytes, at most three branches on n instead
// of a loop of n steps (which compilers turn into vector code with a long set-up).
template <class Lanes>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t load_partial_word(const std::uint8_t* p,
                                                                   std::size_t n) {
  std::uint64_t x = 0;
  std::size_t i = 0;
  if (n & 4) {
    for (; i < 4; ++i) x |= std::uint64_t{p[i]} << Lanes::shift(i);
  }
  if (n & 2) {
    x |= std::uint64_t{p[i]} << Lanes::shift(i) | std::uint64_t{p[i + 1]} << Lanes::shift(i + 1);
    i += 2;
  }
  if (n & 1) x |= std::uint64_t{p[i]} << Lanes::shift(i);
  return x;
}
template <class Lanes>
LWC_HD LWC_ALWAYS_INLINE constexpr void store_partial_word(std::uint8_t* p, std::uint64_t x,
                                                           std::size_t n) {
  std::size_t i = 0;
  if (n & 4) {
    for (; i < 4; ++i) p[i] = static_cast<std::uint8_t>(x >> Lanes::shift(i));
  }
  if (n & 2) {
    p[i] = static_cast<std::uint8_t>(x >> Lanes::shift(i));
    p[i + 1] = static_cast<std::uint8_t>(x >> Lanes::shift(i + 1));
    i += 2;
  }
  if (n & 1) p[i] = static_cast<std::uint8_t>(x >> Lanes::shift(i));
}

}  // namespace detail

// How a mode maps bytes onto state words. Byte i of a rate block lives in word i / 8 at bit
// offset shift(i % 8); pad(n) is the padding bit after n bytes of a word; dsep is the
// domain-separation bit XORed into x4 between associated data and message.
struct little_endian_lanes {
  LWC_HD static constexpr unsigned shift(std::size_t i) { return static_cast<unsigned>(8 * i); }
  LWC_HD static constexpr std::uint64_t load(const std::uint8_t* p) { return load_le64(p); }
  LWC_HD static constexpr std::uint64_t load(const std::uint8_t* p, std::size_t n) {
    return load_le(p, n);
  }
  LWC_HD static constexpr void store(std::uint8_t* p, std::uint64_t x) { store_le64(p, x); }
  LWC_HD static constexpr void store(std::uint8_t* p, std::uint64_t x, std::size_t n) {
    store_le(p, x, n);
  }
  // The same for n < 8, in at most three pieces.
  LWC_HD static constexpr std::uint64_t load_partial(const std::uint8_t* p, std::size_t n) {
    return detail::load_partial_word<little_endian_lanes>(p, n);
  }
  LWC_HD static constexpr void store_partial(std::uint8_t* p, std::uint64_t x, std::size_t n) {
    detail::store_partial_word<little_endian_lanes>(p, x, n);
  }
  LWC_HD static constexpr std::uint64_t pad(std::size_t n) { return std::uint64_t{1} << (8 * n); }
  // x with all but its first n (0..8) bytes cleared.
  LWC_HD static constexpr std::uint64_t first_bytes(std::uint64_t x, std::size_t n) {
    return n >= 8 ? x : x & ((std::uint64_t{1} << (8 * n)) - 1);
  }
  static constexpr std::uint64_t dsep = std::uint64_t{1} << 63;
};

struct big_endian_lanes {
  LWC_HD static constexpr unsigned shift(std::size_t i) {
    return static_cast<unsigned>(56 - 8 * i);
  }
  LWC_HD static constexpr std::uint64_t load(const std::uint8_t* p) { return load_be64(p); }
  LWC_HD static constexpr std::uint64_t load(const std::uint8_t* p, std::size_t n) {
    return load_be(p, n);
  }
  LWC_HD static constexpr void store(std::uint8_t* p, std::uint64_t x) { store_be64(p, x); }
  LWC_HD static constexpr void store(std::uint8_t* p, std::uint64_t x, std::size_t n) {
    store_be(p, x, n);
  }
  LWC_HD static constexpr std::uint64_t load_partial(const std::uint8_t* p, std::size_t n) {
    return detail::load_partial_word<big_endian_lanes>(p, n);
  }
  LWC_HD static constexpr void store_partial(std::uint8_t* p, std::uint64_t x, std::size_t n) {
    detail::store_partial_word<big_endian_lanes>(p, x, n);
  }
  LWC_HD static constexpr std::uint64_t pad(std::size_t n) {
    return std::uint64_t{0x80} << (56 - 8 * n);
  }
  LWC_HD static constexpr std::uint64_t first_bytes(std::uint64_t x, std::size_t n) {
    return n >= 8 ? x : x & ~(~std::uint64_t{0} >> (8 * n));
  }
  static constexpr std::uint64_t dsep = 1;
};

namespace detail {

// Byte access to the first `rate` bytes of the state, for the partial blocks of
// incremental calls (full blocks take the word-wise fast paths).
template <class Lanes>
LWC_HD constexpr void xor_byte(state& s, std::size_t i, std::uint8_t b) {
  s.x[i / 8] ^= std::uint64_t{b} << Lanes::shift(i % 8);
}
template <class Lanes>
LWC_HD constexpr std::uint8_t get_byte(const state& s, std::size_t i) {
  return static_cast<std::uint8_t>(s.x[i / 8] >> Lanes::shift(i % 8));
}

}  // namespace detail

// Known-answer check of the permutation, evaluated by the compiler: p^12 of the all-zero state.
namespace detail {
constexpr state p12_of_zero() {
  state s{{0, 0, 0, 0, 0}};
  permute<12>(s);
  return s;
}
}  // namespace detail

}  // namespace lwc::ascon
