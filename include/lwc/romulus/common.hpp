// SPDX-License-Identifier: MIT OR Apache-2.0
// The pieces the Romulus modes share (Romulus v1.3 specification, NIST LWC final round,
// section 2.4): the 128-bit state as two little-endian words, the padding of partial
// blocks, G, the 56-bit block counter, the Hirose compression function, and the calls of
// SKINNY-128-384+ with the tweakey laid out as Romulus does (TK1: counter and domain byte,
// TK2: nonce or data, TK3: key).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"
#include "../common/secure.hpp"
#include "skinny128_384_plus.hpp"
#include "skinny_x86.hpp"

namespace lwc::romulus {

// Which SKINNY code the host runs: the portable one, or the vector one on CPUs with AVX2, or
// the same compiled for AVX-512VL with GFNI (whose tweakey words step with gf2p8affineqb).
enum class implementation : int { portable = 1, avx2 = 2, avx512 = 3 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (x86::cpu_has_avx512vl_gfni()) return implementation::avx512;
  if (x86::cpu_has_avx2()) return implementation::avx2;
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

}  // namespace lwc::romulus

namespace lwc::romulus::detail {

// The round words of fixed tweakey arrays (tk2 or tk3 may be null: all-zero arrays), with GFNI
// on the AVX-512 path.
LWC_HD constexpr void build_schedule(schedule& s, const std::uint8_t* tk2,
                                     const std::uint8_t* tk3) {
#if LWC_X86_DISPATCH
  if (!std::is_constant_evaluated() && active_implementation() == implementation::avx512) {
    x86::gfni::build_schedule(s, tk2, tk3);
    return;
  }
#endif
  build_schedule_portable(s, tk2, tk3);
}

// One SKINNY-128-384+ call on NB blocks (NB = 1, or 2 sharing their rounds), on the fastest
// code the host has. Not inlined: the modes call it from many places.
template <std::size_t NB, class Source>
LWC_HD LWC_SKINNY_NOINLINE constexpr void skinny(u64 (&a)[NB], u64 (&b)[NB], Source src) {
  u64 x[NB]{}, y[NB]{};
  for (std::size_t i = 0; i < NB; ++i) x[i] = a[i], y[i] = b[i];
  bool done = false;
#if LWC_X86_DISPATCH
  if (!std::is_constant_evaluated()) {
    const implementation code = active_implementation();
    if (code == implementation::avx512) x86::avx512::encrypt(x, y, src);
    else if (code == implementation::avx2) x86::avx2::encrypt(x, y, src);
    done = code != implementation::portable;
  }
#endif
  if (!done) encrypt(x, y, src);
  for (std::size_t i = 0; i < NB; ++i) a[i] = x[i], b[i] = y[i];
  wipe_object(src);
  wipe_object(x);
  wipe_object(y);
}

struct block {
  u64 a, b;  // bytes 0..7 and 8..15, little-endian
};

LWC_HD LWC_ALWAYS_INLINE constexpr block load_block(const std::uint8_t* p) {
  return {load_le64(p), load_le64(p + 8)};
}
LWC_HD LWC_ALWAYS_INLINE constexpr void store_block(std::uint8_t* p, const block& x) {
  store_le64(p, x.a);
  store_le64(p + 8, x.b);
}
LWC_HD LWC_ALWAYS_INLINE constexpr block operator^(const block& x, const block& y) {
  return {x.a ^ y.a, x.b ^ y.b};
}

// n <= 16 bytes; a partial block (n < 16) gets zeros and its length in the last byte.
LWC_HD constexpr block load_padded(const std::uint8_t* p, std::size_t n) {
  if (n == 16) return load_block(p);
  std::uint8_t buf[16]{};
  for (std::size_t i = 0; i < n; ++i) buf[i] = p[i];
  buf[15] = static_cast<std::uint8_t>(n);
  const block x = load_block(buf);
  wipe_object(buf);
  return x;
}

LWC_HD constexpr void store_partial(std::uint8_t* p, const block& x, std::size_t n) {
  if (n == 16) {
    store_block(p, x);
    return;
  }
  std::uint8_t buf[16]{};
  store_block(buf, x);
  for (std::size_t i = 0; i < n; ++i) p[i] = buf[i];
  wipe_object(buf);
}

// G: every byte (x7..x0) becomes (x0 ^ x7, x7, x6, ..., x1).
LWC_HD LWC_ALWAYS_INLINE constexpr u64 g_word(u64 s) {
  return (s >> 1 & 0x7f7f7f7f7f7f7f7full) ^ (s & 0x8080808080808080ull) ^
         (s << 7 & 0x8080808080808080ull);
}
LWC_HD LWC_ALWAYS_INLINE constexpr block g(const block& s) { return {g_word(s.a), g_word(s.b)}; }

// S <- E(K, (counter, domain), tk2)(S), where `fixed` holds the round words of TK2 and TK3.
LWC_HD LWC_ALWAYS_INLINE constexpr void tbc(block& s, const schedule& fixed, u64 counter,
                                           std::uint8_t domain) {
  u64 a[1] = {s.a}, b[1] = {s.b};
  skinny(a, b, counter_source<false>{&fixed, counter_word(counter, domain), {}});
  s = {a[0], b[0]};
}

// The same with a TK2 that changes from call to call (a data block); `fixed` holds TK3.
LWC_HD LWC_ALWAYS_INLINE constexpr void tbc(block& s, const schedule& fixed, u64 counter,
                                           std::uint8_t domain, const block& tk2) {
  u64 a[1] = {s.a}, b[1] = {s.b};
  skinny(a, b,
         counter_source<true>{&fixed, counter_word(counter, domain), start_live<2>(tk2.a, tk2.b)});
  s = {a[0], b[0]};
}

// The Hirose double-block-length compression function of Romulus-H and Romulus-T: with
// (g, m) as tweakey, h' = E(h) ^ h and g' = E(h ^ c) ^ h ^ c, c = 1 in byte 0. The two
// encryptions share their tweakey schedule and run side by side.
LWC_HD LWC_ALWAYS_INLINE constexpr void hirose(block& h, block& g2, const schedule& constants,
                                              const std::uint8_t* m32) {
  u64 a[2] = {h.a, h.a ^ 1}, b[2] = {h.b, h.b};
  skinny(a, b,
         hash_source{&constants, start_live<1>(g2.a, g2.b), start_live<2>(m32),
                     start_live<3>(m32 + 16)});
  g2 = {a[1] ^ h.a ^ 1, b[1] ^ h.b};
  h = {a[0] ^ h.a, b[0] ^ h.b};
}

}  // namespace lwc::romulus::detail
