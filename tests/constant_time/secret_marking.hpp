// SPDX-License-Identifier: MIT OR Apache-2.0
// How the constant-time checks mark data as secret. Two checkers, one program:
// - valgrind memcheck (the default build): secrets are made "undefined" with its client
//   requests, and memcheck reports every branch and memory address that depends on them;
// - MemorySanitizer (a clang -fsanitize=memory build, LWC_CT_MSAN): secrets are "poisoned",
//   and MSan reports the same two things. It runs natively, so it reaches the AVX-512 code
//   that valgrind cannot emulate.
// Declassifying (a verdict, after the call that computed it) works the same way in both.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define LWC_CT_MSAN 1
#endif
#endif

#if defined(LWC_CT_MSAN)
#include <sanitizer/msan_interface.h>
#else
#include <valgrind/memcheck.h>
#endif

namespace lwc_ct {

inline void mark_secret(const void* p, std::size_t n) {
  if (n == 0) return;
#if defined(LWC_CT_MSAN)
  __msan_poison(p, n);
#else
  VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#endif
}

inline void declassify(const void* p, std::size_t n) {
  if (n == 0) return;
#if defined(LWC_CT_MSAN)
  __msan_unpoison(p, n);
#else
  VALGRIND_MAKE_MEM_DEFINED(p, n);
#endif
}

// The name of the checker this program was built for, for its report.
inline const char* checker() {
#if defined(LWC_CT_MSAN)
  return "MemorySanitizer";
#else
  return "valgrind memcheck";
#endif
}

}  // namespace lwc_ct
