// Compiled for the baseline CPU: CPUID and XGETBV only, through inline assembly so that no
// -mxsave style flag is needed.
#include "cpu_features.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace lwc::simd {

#if defined(__x86_64__) || defined(__i386__)

namespace {
unsigned long long xgetbv0() {
  unsigned eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}
}  // namespace

cpu_features detect_cpu() noexcept {
  cpu_features f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return f;
  const bool osxsave = (ecx >> 27) & 1;
  const bool avx = (ecx >> 28) & 1;
  if (!osxsave || !avx) return f;
  const unsigned long long xcr0 = xgetbv0();
  const bool ymm_state = (xcr0 & 0x6) == 0x6;     // SSE and AVX state
  const bool zmm_state = (xcr0 & 0xe6) == 0xe6;   // and opmask, ZMM_Hi256, Hi16_ZMM
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return f;
  f.avx2 = ymm_state && ((ebx >> 5) & 1);
  const bool avx512f = (ebx >> 16) & 1, avx512bw = (ebx >> 30) & 1;
  f.avx512 = f.avx2 && zmm_state && avx512f && avx512bw;
  return f;
}

#else

cpu_features detect_cpu() noexcept { return {}; }

#endif

}  // namespace lwc::simd
