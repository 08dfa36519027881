// SPDX-License-Identifier: MIT OR Apache-2.0
// The portable backend: the engine over plain arrays of 64-bit words, compiled for the
// baseline CPU. It is always available and is the fallback of the dispatcher.
#define LWC_SIMD_NS portable
// Acorn-128 job by job: the core's BMI2 path beats Acorn in plain 64-bit lanes (about half its
// speed, docs/performance-acorn-grain.md).
#define LWC_BATCH_ACORN_JOB_BY_JOB 1
// Romulus-M job by job: four 32-bit lanes lose to the core's SKINNY code (0.77-0.99x at 64 B to
// 16 KiB, docs/performance-batch.md).
#define LWC_BATCH_ROMULUS_M_JOB_BY_JOB 1
// Romulus-T and -H likewise (0.44-0.86x of the core at 64 B to 16 KiB,
// docs/performance-batch.md).
#define LWC_BATCH_ROMULUS_T_JOB_BY_JOB 1
#define LWC_BATCH_ROMULUS_H_JOB_BY_JOB 1
#include "../simd/vec_portable.hpp"
#include "lane_kernels.hpp"

namespace lwc::simd::portable {

// Two interleaved states per step: enough independent work to fill a superscalar core
// without SIMD; measured against 1 and 4 in docs/performance-batch.md.
#ifndef LWC_PORTABLE_LANES
#define LWC_PORTABLE_LANES 2
#endif

// 32-bit lanes (Xoodyak, SPARKLE): four, one 128-bit register's worth (SSE2 on x86-64);
// measured against eight in docs/performance-batch.md.
#ifndef LWC_PORTABLE_LANES32
#define LWC_PORTABLE_LANES32 4
#endif

constinit const lwc::batch::detail::backend_ops ops =
    make_ops<vec<LWC_PORTABLE_LANES>, vec32<LWC_PORTABLE_LANES32>>("portable");

}  // namespace lwc::simd::portable
