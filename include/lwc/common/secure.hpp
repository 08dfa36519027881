// SPDX-License-Identifier: MIT OR Apache-2.0
// Constant-time comparison and selection, and wiping of secrets. The compare touches every
// byte whatever the data; the wipe is written so that the compiler cannot drop it as a dead
// store before an object's memory is released.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "config.hpp"

namespace lwc {

// True when the n bytes at a and b are equal; the time taken depends only on n.
LWC_HD constexpr bool ct_equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  std::uint32_t diff = 0;
  for (std::size_t i = 0; i < n; ++i) diff |= static_cast<std::uint32_t>(a[i] ^ b[i]);
  // (diff - 1) >> 8 has bit 0 set only when diff == 0; no branch on the data.
  return ((diff - 1) >> 8) & 1;
}

// All-ones when flag is true, zero otherwise, without a branch.
LWC_HD constexpr std::uint8_t ct_mask(bool flag) {
  return static_cast<std::uint8_t>(0u - static_cast<unsigned>(flag));
}

// v, with what the compiler knows of it forgotten: pass a verdict's mask through it before
// masking data with it. A compiler that knows a mask is 0 or all ones may turn the AND into a
// branch on the verdict (Clang -O3 copies a masking loop, one version per outcome). An empty
// asm statement hides the value for free; under MemorySanitizer, which checks an asm
// statement's operands as if they were branched on, a volatile copy does.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t ct_opaque(std::uint64_t v) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
  if (std::is_constant_evaluated()) return v;
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
  volatile std::uint64_t copy = v;
  return copy;
#endif
#endif
  asm("" : "+r"(v));
#endif
  return v;
}

// Zeroes n bytes so that the stores are not optimised away.
LWC_HD inline void secure_wipe(void* p, std::size_t n) {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
  // A plain memset (a few wide stores), then an empty asm statement that receives the
  // pointer and clobbers memory: the compiler must assume the zeros are read there, so it
  // cannot remove the memset. Byte-wise volatile stores cost a store per byte, several
  // percent of a 64-byte Ascon encryption.
  if (n == 0) return;  // p may be null then (an empty buffer), which memset does not allow
  std::memset(p, 0, n);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  volatile std::uint8_t* v = static_cast<volatile std::uint8_t*>(p);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0;
#endif
}

// Wipes a trivially copyable object, skipped during constant evaluation (no secrets there).
template <class T>
LWC_HD constexpr void wipe_object(T& obj) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (!std::is_constant_evaluated()) secure_wipe(&obj, sizeof(T));
}

}  // namespace lwc
