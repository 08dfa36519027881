// SPDX-License-Identifier: MIT OR Apache-2.0
// Keccak-f[200] (FIPS 202 section 3, with 8-bit lanes and 18 rounds; as used by Elephant v2,
// NIST LWC final round): 25 lanes of one byte, lane (x, y) is byte 5y + x of the state.
// chi is a boolean expression on whole lanes, never a table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "../common/config.hpp"
#include "../common/secure.hpp"
#include "bitsliced.hpp"
#include "block.hpp"

namespace lwc::elephant::detail {

struct keccak200 {
  static constexpr std::size_t state_bytes = 25;
  static constexpr unsigned rounds = 18;
  // Calls below which one at a time is faster than a bitsliced batch (measured on x86-64).
  static std::size_t min_batch() { return 27; }

  // rho offsets by lane index 5y + x (FIPS 202 table 2, reduced mod 8).
  LWC_HD static constexpr unsigned rho(unsigned i) {
    constexpr unsigned r[25] = {0, 1, 6, 4, 3, 4, 4, 6, 7, 4, 3, 2, 3,
                                1, 7, 1, 5, 7, 5, 0, 2, 2, 5, 0, 6};
    return r[i];
  }
  // pi sends lane (x, y) to (y, 2x + 3y).
  LWC_HD static constexpr unsigned pi(unsigned i) {
    const unsigned x = i % 5, y = i / 5;
    return 5 * ((2 * x + 3 * y) % 5) + y;
  }
  // The round constants: the low byte of the iota constants of Keccak-f[1600].
  LWC_HD static constexpr std::uint8_t iota(unsigned r) {
    constexpr std::uint8_t rc[18] = {0x01, 0x82, 0x8a, 0x00, 0x8b, 0x01, 0x81, 0x09, 0x8a,
                                     0x88, 0x09, 0x0a, 0x8b, 0x8b, 0x89, 0x03, 0x02, 0x80};
    return rc[r];
  }

  // theta, rho and pi for lane I: its word lands in lane pi(I), rotated by rho(I).
  template <std::size_t... I>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void theta_rho_pi(const std::uint8_t (&a)[25],
                                                              const std::uint8_t (&d)[5],
                                                              std::uint8_t (&b)[25],
                                                              std::index_sequence<I...>) {
    ((b[pi(I)] = rotl8(static_cast<std::uint8_t>(a[I] ^ d[I % 5]), rho(I))), ...);
  }
  template <std::size_t... I>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void chi(std::uint8_t (&a)[25],
                                                     const std::uint8_t (&b)[25],
                                                     std::index_sequence<I...>) {
    ((a[I] = static_cast<std::uint8_t>(b[I] ^ (~b[I - I % 5 + (I + 1) % 5] &
                                               b[I - I % 5 + (I + 2) % 5]))),
     ...);
  }

  LWC_HD static constexpr void permute_lanes(std::uint8_t (&a)[25]) {
    for (unsigned r = 0; r < rounds; ++r) {
      std::uint8_t c[5] = {}, d[5] = {}, b[25] = {};
      LWC_UNROLL for (unsigned x = 0; x < 5; ++x)
        c[x] = static_cast<std::uint8_t>(a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]);
      LWC_UNROLL for (unsigned x = 0; x < 5; ++x)
        d[x] = static_cast<std::uint8_t>(c[(x + 4) % 5] ^ rotl8(c[(x + 1) % 5], 1));
      theta_rho_pi(a, d, b, std::make_index_sequence<25>{});
      chi(a, b, std::make_index_sequence<25>{});
      a[0] ^= iota(r);
    }
  }

  // Many states at once, one word per state bit: s[8 * lane + z] holds bit z of the lane of
  // every state, so rho and pi only choose where each word goes.
  template <class W>
  static void permute_sliced(W* s) {
    W b[200];
    for (unsigned r = 0; r < rounds; ++r) {
      W c[40], d[40];
      LWC_UNROLL for (unsigned i = 0; i < 40; ++i)
        c[i] = s[i] ^ s[i + 40] ^ s[i + 80] ^ s[i + 120] ^ s[i + 160];
      LWC_UNROLL for (unsigned x = 0; x < 5; ++x) {
        const unsigned xm = 8 * ((x + 4) % 5), xp = 8 * ((x + 1) % 5);
        d[8 * x] = c[xm] ^ c[xp + 7];
        LWC_UNROLL for (unsigned z = 1; z < 8; ++z) d[8 * x + z] = c[xm + z] ^ c[xp + z - 1];
      }
      for (unsigned i = 0; i < 25; ++i) {
        const unsigned dst = 8 * pi(i), rot = rho(i), col = 8 * (i % 5);
        LWC_UNROLL for (unsigned z = 0; z < 8; ++z)
          b[dst + ((z + rot) & 7)] = s[8 * i + z] ^ d[col + z];
      }
      for (unsigned y = 0; y < 200; y += 40) {
        LWC_UNROLL for (unsigned x = 0; x < 5; ++x) {
          const unsigned x0 = y + 8 * x, x1 = y + 8 * ((x + 1) % 5), x2 = y + 8 * ((x + 2) % 5);
          LWC_UNROLL for (unsigned z = 0; z < 8; ++z)
            s[x0 + z] = b[x0 + z] ^ (~b[x1 + z] & b[x2 + z]);
        }
      }
      const unsigned rc = iota(r);
      LWC_UNROLL for (unsigned z = 0; z < 8; ++z) xor_lane_mask(s[z], rc >> z);
    }
    secure_wipe(b, sizeof b);
  }

  LWC_HD static constexpr void permute(block& blk) {
    std::uint8_t a[25] = {};
    for (unsigned i = 0; i < 25; ++i) a[i] = byte_of(blk, i);
    permute_lanes(a);
    blk = block{};
    for (unsigned i = 0; i < 25; ++i) blk.w[i / 8] |= std::uint64_t{a[i]} << (8 * (i % 8));
  }
};

}  // namespace lwc::elephant::detail
