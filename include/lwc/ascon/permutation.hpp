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

// Where the host compiler may not move a value: an empty volatile asm that takes `v` in a
// register and hands it back. Volatile asm statements keep their order, so a round written
// as one pinned statement per instruction is issued in the order written (see round_folded).
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
LWC_HD LWC_ALWAYS_INLINE constexpr void pin(std::uint64_t& v) {
#if defined(LWC_ASCON_PIN_ORDER)
  if (!std::is_constant_evaluated()) asm volatile("" : "+r"(v));
#else
  (void)v;
#endif
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
// chain short: 10 instead of 12 cycles per round on Zen 4 (docs/PERFORMANCE.md).
LWC_HD LWC_ALWAYS_INLINE constexpr void round_folded(state& s, std::uint64_t next) {
  const std::uint64_t x0 = s.x[0], x1 = s.x[1], x2 = s.x[2], x3 = s.x[3], x4 = s.x[4];
  std::uint64_t a2 = x2 ^ x1;
  pin(a2);
  std::uint64_t a0 = x0 ^ x4;
  pin(a0);
  std::uint64_t a4 = x4 ^ x3;
  pin(a4);
  std::uint64_t n0 = ~x1 & a2;
  pin(n0);
  std::uint64_t n1 = ~a2 & x3;
  pin(n1);
  std::uint64_t n2 = ~x3 & a4;
  pin(n2);
  std::uint64_t n3 = ~a4 & a0;
  pin(n3);
  std::uint64_t n4 = ~a0 & x1;
  pin(n4);
  std::uint64_t t0 = a0 ^ n0;
  pin(t0);
  std::uint64_t t1 = x1 ^ n1;
  pin(t1);
  std::uint64_t t2 = a2 ^ n2;
  pin(t2);
  std::uint64_t t3 = x3 ^ n3;
  pin(t3);
  std::uint64_t t4 = a4 ^ n4;
  pin(t4);
  t1 ^= t0;
  pin(t1);
  t0 ^= t4;
  pin(t0);
  t3 ^= t2;
  pin(t3);
  // Linear diffusion: word i becomes t ^ ror(t, a) ^ ror(t, b).
  std::uint64_t r2 = rotr64(t2, 1);
  pin(r2);
  std::uint64_t r0 = rotr64(t0, 19);
  pin(r0);
  std::uint64_t r1 = rotr64(t1, 61);
  pin(r1);
  std::uint64_t y2 = t2 ^ next;
  pin(y2);
  std::uint64_t r3 = rotr64(t3, 10);
  pin(r3);
  std::uint64_t r4 = rotr64(t4, 7);
  pin(r4);
  std::uint64_t y0 = t0 ^ r0;
  pin(y0);
  std::uint64_t y1 = t1 ^ r1;
  pin(y1);
  r0 = rotr64(t0, 28);
  pin(r0);
  r1 = rotr64(t1, 39);
  pin(r1);
  y2 ^= r2;
  pin(y2);
  std::uint64_t y3 = t3 ^ r3;
  pin(y3);
  r2 = rotr64(t2, 6);
  pin(r2);
  r3 = rotr64(t3, 17);
  pin(r3);
  std::uint64_t y4 = t4 ^ r4;
  pin(y4);
  s.x[0] = y0 ^ r0;
  r4 = rotr64(t4, 41);
  pin(r4);
  s.x[1] = y1 ^ r1;
  s.x[2] = y2 ^ r2;
  s.x[3] = y3 ^ r3;
  s.x[4] = y4 ^ r4;
}

}  // namespace detail

// p^Rounds: the last Rounds rounds of the 12-round schedule.
template <int Rounds>
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& s) {
  static_assert(Rounds >= 1 && Rounds <= 12);
  s.x[2] ^= round_constant(12 - Rounds);
  LWC_UNROLL for (int i = 12 - Rounds; i < 12; ++i) {
    detail::round_folded(s, ~(i < 11 ? round_constant(i + 1) : 0));
  }
}

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
  LWC_HD static constexpr std::uint64_t pad(std::size_t n) { return std::uint64_t{1} << (8 * n); }
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
  LWC_HD static constexpr std::uint64_t pad(std::size_t n) {
    return std::uint64_t{0x80} << (56 - 8 * n);
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
