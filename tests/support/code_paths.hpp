// SPDX-License-Identifier: MIT OR Apache-2.0
// Selects one host code path of an algorithm family (its detail::path, a
// lwc::detail::code_path) for a test's duration, and goes back to the default afterwards.
// Only paths this CPU can run may be selected.
#pragma once

#include <atomic>

namespace lwc::test {

template <class Path>
struct use_path {
  template <class Implementation>
  explicit use_path(Implementation p) {
    Path::selected.store(static_cast<int>(p), std::memory_order_relaxed);
  }
  ~use_path() { Path::force_portable(false); }
  use_path(const use_path&) = delete;
  use_path& operator=(const use_path&) = delete;
};

}  // namespace lwc::test
