// The AVX2 backend: the engine over four 64-bit lanes per register, two registers per state
// word (eight messages in flight per thread). This unit alone is compiled with -mavx2; the
// dispatcher calls it only after CPUID and XGETBV say AVX2 runs.
#define LWC_SIMD_NS avx2
#include "../simd/vec_avx2.hpp"
#include "../simd/vec_pair.hpp"
#include "lane_engine.hpp"

namespace lwc::simd::avx2 {

constinit const lwc::batch::detail::backend_ops ops = make_ops<vec_pair<vec>>("avx2");

}  // namespace lwc::simd::avx2
