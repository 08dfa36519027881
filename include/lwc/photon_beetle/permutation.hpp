// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-256, the permutation of PHOTON-Beetle (NIST LWC final round, "PHOTON-Beetle
// Authenticated Encryption and Hash Family", v1.1, section 2.1): 12 rounds of AddConstant,
// SubCells, ShiftRows and MixColumnSerial on an 8x8 array of 4-bit cells.
//
// Constant time on every path: the S-box and the GF(2^4) matrix are logic operations, never
// tables indexed by the state (see permutation_portable.hpp, _avx2.hpp and _avx512.hpp).
#pragma once

#include <type_traits>

#include "../common/config.hpp"
#include "implementation.hpp"
#include "permutation_portable.hpp"

namespace lwc::photon_beetle {

// PHOTON-256 on the 32-byte state.
LWC_HD constexpr void permute(state& s) {
#if LWC_X86_DISPATCH
  if (!std::is_constant_evaluated()) {
    const implementation path = active_implementation();
    if (path == implementation::avx512_gfni) {
      detail::avx512::permute(s);
      return;
    }
    if (path == implementation::avx2) {
      detail::avx2::permute(s);
      return;
    }
  }
#endif
  detail::permute_portable(s);
}

}  // namespace lwc::photon_beetle
