// What the CPU and the operating system let the SIMD backends use. Both must agree: CPUID says
// what the core implements, XGETBV says whether the OS saves the wider registers on a context
// switch (without that, the first AVX instruction faults).
#pragma once

namespace lwc::simd {

struct cpu_features {
  bool avx2 = false;
  bool avx512 = false;  // AVX-512 F and BW, with the opmask and ZMM state enabled by the OS
};

// Reads CPUID and XGETBV; cheap but not free, so callers keep the result.
cpu_features detect_cpu() noexcept;

}  // namespace lwc::simd
