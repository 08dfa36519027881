// Which code the Ascon modes run on the host: the portable loops, or the same loops compiled
// for BMI1/BMI2 (about 6-9 % faster on current x86-64 cores when the consumer's own flags do
// not already allow those instructions). Chosen once, at the first call, from the CPU.
#pragma once

#include <atomic>

#include "../common/cpu_dispatch.hpp"

namespace lwc::ascon {

enum class implementation : int { portable = 1, bmi2 = 2 };

// The fastest path this CPU supports, unless the environment variable LWC_FORCE_PORTABLE is 1.
inline implementation default_implementation() {
#if LWC_X86_DISPATCH
  if (!::lwc::detail::portable_forced_by_environment() && ::lwc::detail::cpu_has_bmi1_bmi2())
    return implementation::bmi2;
#endif
  return implementation::portable;
}

namespace detail {
// 0: not decided yet, else an implementation.
inline std::atomic<int> selected_impl{0};
}  // namespace detail

// The path the host functions use: default_implementation() unless force_portable(true).
inline implementation active_implementation() {
  int v = detail::selected_impl.load(std::memory_order_relaxed);
  if (v == 0) {
    v = static_cast<int>(default_implementation());
    detail::selected_impl.store(v, std::memory_order_relaxed);
  }
  return static_cast<implementation>(v);
}

// Tests use this to run both paths; false goes back to default_implementation().
inline void force_portable(bool on) {
  const implementation v = on ? implementation::portable : default_implementation();
  detail::selected_impl.store(static_cast<int>(v), std::memory_order_relaxed);
}

namespace detail {
inline bool use_bmi2() { return active_implementation() == implementation::bmi2; }
}  // namespace detail

}  // namespace lwc::ascon
