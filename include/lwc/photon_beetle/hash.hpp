// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-Beetle-Hash[32] (NIST LWC final round, "PHOTON-Beetle Authenticated Encryption and
// Hash Family", v1.1, section 3.3): a 256-bit digest from PHOTON-256, the first 128 bits of
// the message taken in at once and the rest 32 bits per permutation.
// Not keyed: use PHOTON-Beetle-AEAD for authentication.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "aead.hpp"
#include "permutation.hpp"

namespace lwc::photon_beetle {

// Absorb any number of pieces, then squeeze up to 32 bytes in any number of pieces.
class hash {
 public:
  static constexpr std::string_view name = "photon-beetle-hash";
  static constexpr algorithm_kind kind = algorithm_kind::hash;
  static constexpr bool keyed = false;
  static constexpr std::size_t key_size = 0;
  static constexpr std::size_t output_size = 32;
  static constexpr std::size_t max_output_size = 32;
  static constexpr std::size_t max_input_size = SIZE_MAX;
  static constexpr std::size_t max_customization_size = 0;
  static constexpr std::size_t block_size = 4;
  using output_type = std::array<std::uint8_t, output_size>;

  LWC_HD constexpr hash() {}
  constexpr hash(const hash&) = default;
  constexpr hash& operator=(const hash&) = default;
  LWC_HD constexpr ~hash() { wipe_object(s_); }

  LWC_HD constexpr hash& update(bytes_view data) {
    absorb(data.data(), data.size());
    return *this;
  }
  // The first 16 bytes are XORed into a zero state without a permutation; then a permutation
  // comes before each 4-byte block. The last block stays open for the padding and constant.
  LWC_HD constexpr void absorb(const std::uint8_t* in, std::size_t n) {
    LWC_REQUIRE(squeezed_ == 0 && !finished_, "absorb after squeeze");
    if (n == 0) return;
    any_ = true;
    if (first_) {
      for (; n != 0 && pos_ != initial_rate; --n) detail::xor_byte(s_, pos_++, *in++);
      if (n == 0) return;
      first_ = false;
      pos_ = rate;
    }
    detail::duplex<rate>::absorb(s_, pos_, in, n);
  }

  // Writes the next out.size() bytes of the digest (32 in all).
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    LWC_REQUIRE(n <= max_output_size - squeezed_, "output longer than the algorithm defines");
    if (!finished_) finish();
    for (; n != 0; --n, ++squeezed_) {
      if (squeezed_ % 16 == 0) permute(s_);
      *out++ = detail::get_byte(s_, squeezed_ % 16);
    }
  }

  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), out.size());
    return out;
  }
  LWC_HD constexpr output_type digest() { return finalize(); }

  LWC_HD static constexpr output_type digest(bytes_view data) {
    hash h;
    h.update(data);
    return h.finalize();
  }
  LWC_HD static constexpr void digest(bytes_view data, bytes_span out) {
    hash h;
    h.update(data);
    h.squeeze(out);
  }

 private:
  static constexpr std::size_t initial_rate = 16;
  static constexpr std::size_t rate = 4;

  // Section 3.3: the constant says whether the last block was full; for a message of at most
  // 16 bytes a full block gets 2 and a partial one 1, for longer messages the other way round.
  LWC_HD constexpr void finish() {
    if (!any_) {
      detail::add_constant(s_, 1);
    } else if (first_) {
      const bool full = pos_ == initial_rate;
      if (!full) detail::xor_byte(s_, pos_, 0x01);
      detail::add_constant(s_, full ? 2 : 1);
    } else {
      detail::duplex<rate>::close(s_, pos_, pos_ == rate ? 1 : 2);
    }
    finished_ = true;
  }

  state s_{};
  std::size_t pos_ = 0;
  std::size_t squeezed_ = 0;
  bool first_ = true;
  bool any_ = false;
  bool finished_ = false;
};

}  // namespace lwc::photon_beetle
