// SPDX-License-Identifier: MIT OR Apache-2.0
// The kinds of algorithm lwc knows; every surface (registry, C ABI, Python, CLI) speaks these.
#pragma once

#include <cstdint>
#include <string_view>

namespace lwc {

// What an algorithm computes; lwc::algorithm::kind and the Python and C names use these words.
enum class algorithm_kind : std::uint8_t {
  aead,  // authenticated encryption with associated data
  hash,  // fixed-length digest
  xof,   // extendable output
  cxof,  // extendable output with a customization string
  mac,   // keyed, fixed-length tag
  prf,   // keyed, extendable output
};

// The kind's name as every surface writes it: "aead", "hash", ...
constexpr std::string_view to_string(algorithm_kind k) {
  switch (k) {
    case algorithm_kind::aead: return "aead";
    case algorithm_kind::hash: return "hash";
    case algorithm_kind::xof: return "xof";
    case algorithm_kind::cxof: return "cxof";
    case algorithm_kind::mac: return "mac";
    case algorithm_kind::prf: return "prf";
  }
  return "?";
}

}  // namespace lwc
