// SPDX-License-Identifier: MIT OR Apache-2.0
// The NEON backend (AArch64 Advanced SIMD): the engine over two 64-bit lanes per register, two
// registers per state word (four messages in flight per thread), and four 32-bit lanes per
// register for the 32-bit families. NEON is baseline on AArch64, so the dispatcher lists this
// backend on every AArch64 CPU and makes it the default there.
#define LWC_SIMD_NS neon
#include "../simd/vec_neon.hpp"
#include "../simd/vec_pair.hpp"
#include "lane_kernels.hpp"

namespace lwc::simd::neon {

// 2 (default): two registers per state word; 1: one, for comparison (docs/performance-neon.md).
#if defined(LWC_BATCH_REGISTERS_PER_WORD) && LWC_BATCH_REGISTERS_PER_WORD == 1
using engine_vec = vec;
#else
using engine_vec = vec_pair<vec>;
#endif

constinit const lwc::batch::detail::backend_ops ops = make_ops<engine_vec, vec32>("neon");

}  // namespace lwc::simd::neon
