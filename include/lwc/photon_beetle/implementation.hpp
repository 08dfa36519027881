// SPDX-License-Identifier: MIT OR Apache-2.0
// Which code PHOTON-256 runs on the host: the portable bit-plane code, the same planes in AVX2
// registers, or the AVX-512 (F, BW, VBMI) + GFNI code (several times faster than portable) on
// x86-64 CPUs that have those extensions. Chosen once, at the first call, from the CPU;
// LWC_FORCE_PORTABLE=1 in the environment or force_portable(true) selects the portable code.
#pragma once

#include "../common/cpu_dispatch.hpp"
#include "permutation_avx2.hpp"
#include "permutation_avx512.hpp"

namespace lwc::photon_beetle {

enum class implementation : int { portable = 1, avx512_gfni = 2, avx2 = 3 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (avx512::cpu_supported()) return implementation::avx512_gfni;
  if (avx2::cpu_supported()) return implementation::avx2;
#endif
  return implementation::portable;
}
using path = ::lwc::detail::code_path<implementation, fastest_implementation>;
}  // namespace detail

// The fastest path this CPU supports, unless the environment variable LWC_FORCE_PORTABLE is 1.
inline implementation default_implementation() { return detail::path::default_path(); }

// The path the host functions use: default_implementation() unless force_portable(true).
inline implementation active_implementation() { return detail::path::active(); }

// Tests use this to run both paths; false goes back to default_implementation().
inline void force_portable(bool on) { detail::path::force_portable(on); }

}  // namespace lwc::photon_beetle
