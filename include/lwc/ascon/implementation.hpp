// SPDX-License-Identifier: MIT OR Apache-2.0
// Which code the Ascon modes run on the host: the portable loops, or the same loops compiled
// for BMI1/BMI2 (about 5 % faster for Ascon-AEAD128 on current x86-64 cores when the
// consumer's own flags do not already allow those instructions). Chosen once, at the first
// call, from the CPU.
#pragma once

#include "../common/cpu_dispatch.hpp"

// Whether those copies exist: not where the consumer's flags already allow BMI1/BMI2
// (-march=native on such a CPU), since the portable code is then that copy and choosing
// between the two would only cost a call.
#if LWC_X86_DISPATCH && !(defined(__BMI__) && defined(__BMI2__))
#define LWC_ASCON_BMI_COPIES 1
#else
#define LWC_ASCON_BMI_COPIES 0
#endif

namespace lwc::ascon {

enum class implementation : int { portable = 1, bmi2 = 2 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (::lwc::detail::cpu_has_bmi1_bmi2()) return implementation::bmi2;
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
inline bool use_bmi2() { return active_implementation() == implementation::bmi2; }
}  // namespace detail

}  // namespace lwc::ascon
