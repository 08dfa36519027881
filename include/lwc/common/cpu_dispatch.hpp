// SPDX-License-Identifier: MIT OR Apache-2.0
// Run-time choice between the portable code of the header-only core and copies of the same
// hot loops compiled for x86-64 instruction-set extensions. Such a copy is an ordinary inline
// function carrying a target attribute in every translation unit, so the one-definition rule
// holds whatever flags each consumer compiles with, and it is only called after the CPU check.
// No such copy exists in CUDA compilations or on other architectures: there, the portable
// code is all there is.
#pragma once

#include <atomic>
#include <cstdlib>

#include "cpu_features.hpp"

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

// The code path an algorithm family runs on the host. Enum names the paths, `portable` (not
// 0) among them; Fastest() returns the best one this CPU supports. The choice is made at the
// first use: Fastest() unless LWC_FORCE_PORTABLE=1; tests switch it with force_portable().
template <class Enum, Enum (*Fastest)()>
struct code_path {
  static Enum default_path() {
    return portable_forced_by_environment() ? Enum::portable : Fastest();
  }
  static Enum active() {
    int v = selected.load(std::memory_order_relaxed);
    if (v == 0) {
      v = static_cast<int>(default_path());
      selected.store(v, std::memory_order_relaxed);
    }
    return static_cast<Enum>(v);
  }
  // false goes back to default_path().
  static void force_portable(bool on) {
    const Enum v = on ? Enum::portable : default_path();
    selected.store(static_cast<int>(v), std::memory_order_relaxed);
  }

  static inline std::atomic<int> selected{0};  // 0: not decided yet, else an Enum value
};

#if LWC_X86_DISPATCH
inline bool cpu_has_bmi1_bmi2() { return host_cpu().bmi1 && host_cpu().bmi2; }
inline bool cpu_has_avx2() { return host_cpu().avx2; }
#endif

}  // namespace lwc::detail
