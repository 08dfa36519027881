// SPDX-License-Identifier: MIT OR Apache-2.0
// Which code the ISAP modes run on the host: the portable loops; the same loops compiled for
// BMI1/BMI2 (andn shortens the chi step of Keccak-p[400] and the S-box of Ascon-p; about 10 %
// faster for ISAP-K when the consumer's own flags do not already allow those instructions);
// or, in addition, Keccak-p[400] in an AVX-512 register (BW, VBMI2) for ISAP-K. Chosen once,
// at the first call, from the CPU.
#pragma once

#include "../common/cpu_dispatch.hpp"
#include "keccak_p400_avx512.hpp"

namespace lwc::isap {

enum class implementation : int { portable = 1, bmi2 = 2, avx512 = 3 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (::lwc::detail::cpu_has_bmi1_bmi2()) {
    if (keccak::detail::avx512::cpu_supported()) return implementation::avx512;
    return implementation::bmi2;
  }
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

namespace detail {
inline bool use_bmi2() { return active_implementation() != implementation::portable; }
inline bool use_avx512() { return active_implementation() == implementation::avx512; }
}  // namespace detail

}  // namespace lwc::isap
