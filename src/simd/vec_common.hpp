// Shared by the lane-vector headers: the force-inline marker and the ternary-logic immediates.
// Everything in a backend translation unit must be inlined into that unit's own entry points
// or live in its own namespace; see vec_avx512.hpp for why.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define LWC_SIMD_INLINE inline __attribute__((always_inline))
#else
#define LWC_SIMD_INLINE inline
#endif
