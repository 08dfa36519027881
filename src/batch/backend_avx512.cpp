// The AVX-512 backend: the engine over eight 64-bit lanes per register with vpternlogq and
// vprorq, two registers per state word (sixteen messages in flight per thread). This unit
// alone is compiled with -mavx512f -mavx512bw; the dispatcher calls it only after CPUID and
// XGETBV say AVX-512 runs.
#define LWC_SIMD_NS avx512
#include "../simd/vec_avx512.hpp"
#include "../simd/vec_pair.hpp"
#include "lane_engine.hpp"

namespace lwc::simd::avx512 {

constinit const lwc::batch::detail::backend_ops ops = make_ops<vec_pair<vec>>("avx512");

}  // namespace lwc::simd::avx512
