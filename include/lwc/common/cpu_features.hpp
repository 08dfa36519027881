// SPDX-License-Identifier: MIT OR Apache-2.0
// The one probe of the host CPU: what the core's run-time paths (BMI1/BMI2, PCLMULQDQ) and the
// batch engine's SIMD backends (AVX2, AVX-512) may use. CPUID says what the core implements;
// for the vector extensions XGETBV must also say that the operating system saves the wider
// registers on a context switch (without that, the first such instruction faults). Read once
// per process. Outside x86-64 host compilations (other architectures, CUDA device code) every
// feature reads false and the portable code is all there is.
#pragma once

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(__CUDACC__) && \
    (defined(__GNUC__) || defined(__clang__))
#define LWC_X86_CPU_PROBE 1
#include <cpuid.h>
#else
#define LWC_X86_CPU_PROBE 0
#endif

namespace lwc {

struct cpu_features {
  bool bmi1 = false;
  bool bmi2 = false;
  bool pclmul = false;
  bool avx2 = false;
  bool avx512 = false;  // AVX-512 F and BW, with the opmask and ZMM state enabled by the OS
  bool avx512vl = false;    // with avx512
  bool avx512vbmi = false;  // with avx512
  bool avx512vbmi2 = false; // with avx512
  bool gfni = false;        // with avx512 (the 512-bit forms are what lwc uses)
};

namespace detail {

#if LWC_X86_CPU_PROBE
inline cpu_features probe_cpu() noexcept {
  cpu_features f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
  f.pclmul = (ecx >> 1) & 1;
  const bool osxsave = (ecx >> 27) & 1, avx = (ecx >> 28) & 1;
  unsigned long long xcr0 = 0;
  if (osxsave) {
    // XGETBV through inline assembly, so that no -mxsave style flag is needed.
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return f;
  f.bmi1 = (ebx >> 3) & 1;
  f.bmi2 = (ebx >> 8) & 1;
  const bool ymm_state = osxsave && avx && (xcr0 & 0x6) == 0x6;  // SSE and AVX state
  const bool zmm_state = ymm_state && (xcr0 & 0xe6) == 0xe6;     // and opmask, ZMM_Hi256, Hi16_ZMM
  f.avx2 = ymm_state && ((ebx >> 5) & 1);
  f.avx512 = f.avx2 && zmm_state && ((ebx >> 16) & 1) && ((ebx >> 30) & 1);
  f.avx512vl = f.avx512 && ((ebx >> 31) & 1);
  f.avx512vbmi = f.avx512 && ((ecx >> 1) & 1);
  f.avx512vbmi2 = f.avx512 && ((ecx >> 6) & 1);
  f.gfni = f.avx512 && ((ecx >> 8) & 1);
  return f;
}
#else
inline cpu_features probe_cpu() noexcept { return {}; }
#endif

}  // namespace detail

// The host CPU's features, probed at the first call.
inline const cpu_features& host_cpu() noexcept {
  static const cpu_features f = detail::probe_cpu();
  return f;
}

}  // namespace lwc
