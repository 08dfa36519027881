// Run-time choice between the portable code of the header-only core and copies of the same
// hot loops compiled for x86-64 instruction-set extensions. Such a copy is an ordinary inline
// function carrying a target attribute in every translation unit, so the one-definition rule
// holds whatever flags each consumer compiles with, and it is only called after the CPU check.
// None of this exists in CUDA compilations or on other architectures: there, the portable
// code is all there is.
#pragma once

#include <cstdlib>

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(__CUDACC__) && \
    (defined(__GNUC__) || defined(__clang__))
#define LWC_X86_DISPATCH 1
// A loop compiled for BMI1 (andn) and BMI2 (rorx: rotations without a copy), with everything
// it calls inlined into it so that the permutation is compiled for those extensions too.
#define LWC_TARGET_BMI1_BMI2 __attribute__((target("bmi,bmi2"), flatten))
#else
#define LWC_X86_DISPATCH 0
#endif

namespace lwc::detail {

// LWC_FORCE_PORTABLE=1 in the environment keeps every algorithm on its portable code (for
// tests, and to rule the fast paths out when chasing a problem).
inline bool portable_forced_by_environment() {
  const char* env = std::getenv("LWC_FORCE_PORTABLE");
  return env != nullptr && env[0] == '1';
}

#if LWC_X86_DISPATCH
inline bool cpu_has_bmi1_bmi2() {
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi") != 0 && __builtin_cpu_supports("bmi2") != 0;
  }();
  return ok;
}
#endif

}  // namespace lwc::detail
