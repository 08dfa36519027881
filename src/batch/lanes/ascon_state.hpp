// SPDX-License-Identifier: MIT OR Apache-2.0
// The Ascon state in lanes, as the modes over Ascon-p use it: words of a job's bytes in either
// byte order (whole, partial, masked, padded), the five-vector state and its spill arrays, and
// the staging of short inputs with their padding. Shared by the Ascon kernels (lanes/ascon.hpp)
// and ISAP-A (lanes/isap.hpp); the permutation itself is simd/permute_lanes.hpp. Included
// inside the backend's namespace (through lane_kernels.hpp), like the kernels.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../../simd/permute_lanes.hpp"
#include "common.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/ascon_state.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng {

// n (0..8) bytes as the first bytes of a word in the mode's byte order.
template <bool BE>
LWC_SIMD_INLINE u64 load_bytes(const u8* p, size_t n) {
  u64 x = 0;
  for (size_t i = 0; i < n; ++i) x |= u64{p[i]} << (BE ? 56 - 8 * i : 8 * i);
  return x;
}
template <bool BE>
LWC_SIMD_INLINE void store_bytes(u8* p, u64 x, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<u8>(x >> (BE ? 56 - 8 * i : 8 * i));
}
// A whole word: one move (and a byte swap where the host order differs).
template <bool BE>
LWC_SIMD_INLINE u64 load_word(const u8* p) {
  u64 x;
  std::memcpy(&x, p, 8);
  if constexpr ((std::endian::native == std::endian::big) != BE) x = __builtin_bswap64(x);
  return x;
}
template <bool BE>
LWC_SIMD_INLINE void store_word(u8* p, u64 x) {
  if constexpr ((std::endian::native == std::endian::big) != BE) x = __builtin_bswap64(x);
  std::memcpy(p, &x, 8);
}
// n (0..8) bytes, as a whole word when n == 8.
template <bool BE>
LWC_SIMD_INLINE u64 load_partial(const u8* p, size_t n) {
  return n == 8 ? load_word<BE>(p) : load_bytes<BE>(p, n);
}
template <bool BE>
LWC_SIMD_INLINE void store_partial(u8* p, u64 x, size_t n) {
  if (n == 8) store_word<BE>(p, x);
  else store_bytes<BE>(p, x, n);
}

// The first n (0..8) bytes of a word.
template <bool BE>
LWC_SIMD_INLINE u64 byte_mask(size_t n) {
  if (n == 0) return 0;
  if (n >= 8) return ~u64{0};
  return BE ? ~u64{0} << (64 - 8 * n) : (u64{1} << (8 * n)) - 1;
}
// The padding bit after n bytes of a word.
template <bool BE>
LWC_SIMD_INLINE u64 pad_bit(size_t n) {
  return BE ? u64{0x80} << (56 - 8 * n) : u64{1} << (8 * n);
}
template <bool BE>
inline constexpr u8 pad_byte = BE ? 0x80 : 0x01;

template <class V>
LWC_SIMD_INLINE void load_state(V (&x)[5], const u64 (&s)[5][V::lanes]) {
  for (int i = 0; i < 5; ++i) x[i] = V::load(s[i]);
}
template <class V>
LWC_SIMD_INLINE void store_state(const V (&x)[5], u64 (&s)[5][V::lanes]) {
  for (int i = 0; i < 5; ++i) x[i].store(s[i]);
}

// The groups' starts and finishes (the AEADs' initialization and finalization, the MACs'
// keyed start, PRF-short) run p^12 on states in memory: one out-of-line copy per vector type
// serves every variant and both directions rather than one inlined into each of them (the call
// per group of V::lanes jobs changes the instructions of 64-byte messages by about 1 %, under
// callgrind).
template <int Rounds, class V>
LWC_SIMD_NOINLINE void permute_array(u64 (&s)[5][V::lanes]) {
  V x[5];
  load_state(x, s);
  permute<Rounds>(x);
  store_state(x, s);
}

// Short associated data (AEAD) or short messages (hashes) are copied with their padding into
// a per-lane area of this many bytes, so that they take one segment instead of two.
inline constexpr size_t stage_bytes = 64;

// The n (< stage_bytes) bytes at p, then the padding byte, then zeros up to the next block.
template <bool BE>
LWC_SIMD_INLINE void stage(u8 (&area)[stage_bytes], const u8* p, size_t n) {
  std::memset(area, 0, stage_bytes);
  if (n != 0) std::memcpy(area, p, n);
  area[n] = pad_byte<BE>;
}

}  // namespace lwc::simd::LWC_SIMD_NS::eng
