// SPDX-License-Identifier: MIT OR Apache-2.0
// Which backend runs: the compiled-in backends the CPU and OS support, fastest first, and the
// default (the fastest, or the one LWC_BACKEND names). Computed once per process; afterwards
// read-only, so concurrent callers share it safely.
#pragma once

#include <span>
#include <string_view>

#include "backend.hpp"

namespace lwc::batch::detail {

std::span<const backend_ops* const> runnable_backends() noexcept;
const backend_ops* find_runnable(std::string_view name) noexcept;
const backend_ops& default_ops() noexcept;

}  // namespace lwc::batch::detail
