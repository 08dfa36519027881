// SPDX-License-Identifier: MIT OR Apache-2.0
// The master key of fuzz_stream and of its seed streams (fuzz_make_seeds): bytes 0, 1, ..., 31.
// A fixed, public key: the target exercises the reader, not secrecy.
#pragma once

#include <cstdint>

#include <lwc/stream/format.hpp>

namespace lwc::fuzz {

inline lwc::stream::master_key stream_key() {
  std::uint8_t k[lwc::stream::master_key_size];
  for (std::size_t i = 0; i < sizeof k; ++i) k[i] = static_cast<std::uint8_t>(i);
  return lwc::stream::master_key(lwc::bytes_view{k, sizeof k});
}

}  // namespace lwc::fuzz
