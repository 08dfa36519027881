// SPDX-License-Identifier: MIT OR Apache-2.0
// Compiler glue shared by every lwc header: the LWC_HD marker that lets one definition of a
// primitive run on the host and inside CUDA kernels, loop-unrolling hints, and the check
// macro used for caller errors (wrong buffer sizes), which are never silently ignored.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define LWC_HD __host__ __device__
#else
#define LWC_HD
#endif

#define LWC_STRINGIFY_(x) #x
#define LWC_STRINGIFY(x) LWC_STRINGIFY_(x)

// LWC_PLAIN_INLINE (the sanitizer and fuzzing builds, see CMakeLists.txt): `inline` stays a hint
// and loops are not unrolled by force. The code means the same; forced inlining and unrolling
// turn each algorithm into one very large function, and compiling those is most of what an
// instrumented build costs (clang 14 with ASan, UBSan and the fuzzer's coverage: the registry's
// entry points in 32 s of CPU instead of 250 s).
#if defined(__CUDACC__)
#define LWC_UNROLL _Pragma("unroll")
#elif defined(LWC_PLAIN_INLINE)
#define LWC_UNROLL
#elif defined(__clang__)
#define LWC_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define LWC_UNROLL _Pragma("GCC unroll 16")
#else
#define LWC_UNROLL
#endif

#if (defined(__GNUC__) || defined(__clang__)) && !defined(LWC_PLAIN_INLINE)
#define LWC_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define LWC_ALWAYS_INLINE inline
#endif


#include <cstdlib>
#include <stdexcept>

namespace lwc::detail {
// Not constexpr on purpose: reaching it during constant evaluation turns a size error into a
// compile error; at run time it throws std::invalid_argument (or aborts without exceptions).
[[noreturn]] inline void precondition_failed(const char* what) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  throw std::invalid_argument(what);
#else
  (void)what;
  std::abort();
#endif
}
}  // namespace lwc::detail

#if defined(__CUDA_ARCH__)
#define LWC_REQUIRE(cond, what) \
  do {                          \
    if (!(cond)) __trap();      \
  } while (0)
#else
#define LWC_REQUIRE(cond, what)                                 \
  do {                                                          \
    if (!(cond)) ::lwc::detail::precondition_failed(what);      \
  } while (0)
#endif

