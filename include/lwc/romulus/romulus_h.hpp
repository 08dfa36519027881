// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-H (Romulus v1.3, NIST LWC final round, section 2.4): a 256-bit hash, the
// Merkle-Damgard iteration of the Hirose compression function over SKINNY-128-384+ (32-byte
// blocks, the last one padded with its length, h xored with 2 before it).
//
// Not a MAC and not an extendable-output function: the digest is 32 bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "common.hpp"

namespace lwc::romulus {

namespace detail {

// Everything but the last 0..31 bytes in whole blocks, then the padded block: a zero-filled
// 32-byte block whose last byte is the number of bytes used.
LWC_HD constexpr void romulus_h_final(block& h, block& g2, const std::uint8_t* rest,
                                      std::size_t n, const schedule& constants) {
  std::uint8_t p[32]{};
  for (std::size_t i = 0; i < n; ++i) p[i] = rest[i];
  p[31] = static_cast<std::uint8_t>(n);
  h.a ^= 2;
  hirose(h, g2, constants, p);
  wipe_object(p);
}

}  // namespace detail

// Romulus-H: an incremental hash with a 32-byte digest.
class romulus_h {
 public:
  static constexpr std::string_view name = "romulus-h";
  static constexpr algorithm_kind kind = algorithm_kind::hash;
  static constexpr bool keyed = false;
  static constexpr std::size_t key_size = 0;
  static constexpr std::size_t output_size = 32;
  static constexpr std::size_t max_output_size = 32;
  static constexpr std::size_t max_input_size = SIZE_MAX;
  static constexpr std::size_t max_customization_size = 0;
  static constexpr std::size_t block_size = 32;
  using output_type = std::array<std::uint8_t, 32>;

  constexpr romulus_h() = default;
  constexpr romulus_h(const romulus_h&) = default;
  constexpr romulus_h& operator=(const romulus_h&) = default;
  LWC_HD constexpr ~romulus_h() {
    wipe_object(h_);
    wipe_object(g_);
    wipe_object(buf_);
  }

  LWC_HD constexpr romulus_h& update(bytes_view data) {
    absorb(data.data(), data.size());
    return *this;
  }
  LWC_HD constexpr void absorb(const std::uint8_t* data, std::size_t n) {
    LWC_REQUIRE(!done_, "romulus-h: absorb after squeeze");
    if (n < 32u - used_) {
      for (; n != 0; --n) buf_[used_++] = *data++;
      return;
    }
    detail::schedule constants{};
    detail::load_constants(constants);
    if (used_ != 0) {
      const std::size_t take = 32u - used_;
      for (std::size_t i = 0; i < take; ++i) buf_[used_ + i] = data[i];
      data += take;
      n -= take;
      detail::hirose(h_, g_, constants, buf_);
      used_ = 0;
    }
    // A full block is compressed at once: the padded last block always follows it.
    for (; n >= 32; n -= 32, data += 32) detail::hirose(h_, g_, constants, data);
    for (; n != 0; --n) buf_[used_++] = *data++;
  }

  // Writes the next n digest bytes (32 in all, in any number of pieces).
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    LWC_REQUIRE(n <= 32u - squeezed_, "romulus-h: the digest is 32 bytes");
    if (!done_) {
      detail::schedule constants{};
      detail::load_constants(constants);
      detail::romulus_h_final(h_, g_, buf_, used_, constants);
      done_ = true;
    }
    std::uint8_t digest[32]{};
    detail::store_block(digest, h_);
    detail::store_block(digest + 16, g_);
    for (std::size_t i = 0; i < n; ++i) out[i] = digest[squeezed_ + i];
    squeezed_ += static_cast<std::uint8_t>(n);
    wipe_object(digest);
  }

  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), out.size());
    return out;
  }
  LWC_HD static constexpr output_type digest(bytes_view data) {
    romulus_h h;
    h.update(data);
    return h.finalize();
  }
  LWC_HD static constexpr void digest(bytes_view data, bytes_span out) {
    romulus_h h;
    h.update(data);
    h.squeeze(out);
  }

 private:
  detail::block h_{0, 0}, g_{0, 0};
  std::uint8_t buf_[32]{};
  std::uint8_t used_ = 0;
  std::uint8_t squeezed_ = 0;
  bool done_ = false;
};

}  // namespace lwc::romulus
