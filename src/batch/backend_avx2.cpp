// SPDX-License-Identifier: MIT OR Apache-2.0
// The AVX2 backend: the engine over four 64-bit lanes per register, two registers per state
// word (eight messages in flight per thread). This unit alone is compiled with -mavx2; the
// dispatcher calls it only after CPUID and XGETBV say AVX2 runs.
#define LWC_SIMD_NS avx2
#include "../simd/vec_avx2.hpp"
#include "../simd/vec_pair.hpp"
#include "lane_kernels.hpp"

namespace lwc::simd::avx2 {

// 2 (default): two registers per state word; 1: one, for comparison (docs/performance-batch.md).
#if defined(LWC_BATCH_REGISTERS_PER_WORD) && LWC_BATCH_REGISTERS_PER_WORD == 1
using engine_vec = vec;
#else
using engine_vec = vec_pair<vec>;
#endif

constinit const lwc::batch::detail::backend_ops ops = make_ops<engine_vec, vec32>("avx2");

}  // namespace lwc::simd::avx2
