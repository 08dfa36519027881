// SPDX-License-Identifier: MIT OR Apache-2.0
// The byte views used across the public C++ API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace lwc {

// Bytes the call reads, and bytes it writes; the fixed forms have exactly N bytes (an array of
// N bytes converts to one, a span of another size does not compile).
using bytes_view = std::span<const std::uint8_t>;
using bytes_span = std::span<std::uint8_t>;
template <std::size_t N>
using fixed_bytes_view = std::span<const std::uint8_t, N>;
template <std::size_t N>
using fixed_bytes_span = std::span<std::uint8_t, N>;

}  // namespace lwc
