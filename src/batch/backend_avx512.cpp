// SPDX-License-Identifier: MIT OR Apache-2.0
// The AVX-512 backend: the engine over eight 64-bit lanes per register with vpternlogq and
// vprorq, two registers per state word (sixteen messages in flight per thread). This unit
// alone is compiled with -mavx512f -mavx512bw; the dispatcher calls it only after CPUID and
// XGETBV say AVX-512 runs.
#define LWC_SIMD_NS avx512
#include "../simd/vec_avx512.hpp"
#include "../simd/vec_pair.hpp"
#include "lane_kernels.hpp"

namespace lwc::simd::avx512 {

// 2 (default): two registers per state word; 1: one, for comparison (docs/performance-batch.md).
#if defined(LWC_BATCH_REGISTERS_PER_WORD) && LWC_BATCH_REGISTERS_PER_WORD == 1
using engine_vec = vec;
#else
using engine_vec = vec_pair<vec>;
#endif

constinit const lwc::batch::detail::backend_ops ops = make_ops<engine_vec, vec32>("avx512");

}  // namespace lwc::simd::avx512
