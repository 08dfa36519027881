// The Ascon permutation (NIST SP 800-232, section 3), shared by every Ascon mode in lwc, on the
// CPU and in CUDA kernels. State words are plain 64-bit integers; how bytes map onto them is
// the business of the mode (little endian for SP 800-232 and v1.3, big endian for v1.2).
#pragma once

#include <cstdint>

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

// One round: constant addition, the 5-bit S-box in bitsliced form, linear diffusion.
// Written for a short dependency chain: the chi-like core reads only the S-box inputs, the
// complement of x2 is folded into its diffusion output, and both rotations of a word are
// XORed together before the word itself (measured fastest of four forms on x86-64, with and
// without BMI; see docs/PERFORMANCE.md).
LWC_HD LWC_ALWAYS_INLINE constexpr void round(state& s, std::uint64_t c) {
  std::uint64_t x0 = s.x[0], x1 = s.x[1], x2 = s.x[2] ^ c, x3 = s.x[3], x4 = s.x[4];
  x0 ^= x4;
  x4 ^= x3;
  x2 ^= x1;
  std::uint64_t t0 = x0 ^ (~x1 & x2);
  std::uint64_t t1 = x1 ^ (~x2 & x3);
  const std::uint64_t t2 = x2 ^ (~x3 & x4);
  std::uint64_t t3 = x3 ^ (~x4 & x0);
  const std::uint64_t t4 = x4 ^ (~x0 & x1);
  t1 ^= t0;
  t0 ^= t4;
  t3 ^= t2;
  s.x[0] = t0 ^ (rotr64(t0, 19) ^ rotr64(t0, 28));
  s.x[1] = t1 ^ (rotr64(t1, 61) ^ rotr64(t1, 39));
  s.x[2] = ~(t2 ^ (rotr64(t2, 1) ^ rotr64(t2, 6)));
  s.x[3] = t3 ^ (rotr64(t3, 10) ^ rotr64(t3, 17));
  s.x[4] = t4 ^ (rotr64(t4, 7) ^ rotr64(t4, 41));
}

// p^Rounds: the last Rounds rounds of the 12-round schedule.
template <int Rounds>
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& s) {
  static_assert(Rounds >= 1 && Rounds <= 12);
  LWC_UNROLL for (int i = 12 - Rounds; i < 12; ++i) round(s, round_constant(i));
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
