// SPDX-License-Identifier: MIT OR Apache-2.0
// The span-based calls of every incremental encryptor (ascon::aead128::encryptor, ...), written
// once. An encryptor derives from encryptor_calls<Itself, TagSize>, provides the raw
// absorb_ad(ad, n), encrypt(in, n, out) and finalize(tag, tag_len) with their own checks, and
// re-exports finalize with `using` (its raw finalize hides these overloads otherwise).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "config.hpp"
#include "span.hpp"

namespace lwc::detail {

// The calls a program makes on an incremental encryptor, besides its constructors and the raw
// forms: update_ad, update and finalize.
template <class Encryptor, std::size_t TagSize>
class encryptor_calls {
 public:
  // An encryptor holds a keyed state for one (key, nonce): a copy could encrypt a second
  // message under the same pair.
  encryptor_calls(const encryptor_calls&) = delete;
  encryptor_calls& operator=(const encryptor_calls&) = delete;

  // Associated data in any number of pieces, before the message.
  LWC_HD constexpr Encryptor& update_ad(bytes_view ad) {
    self().absorb_ad(ad.data(), ad.size());
    return self();
  }

  // Encrypts in.size() bytes into out (same size; in == out is allowed).
  LWC_HD constexpr void update(bytes_view in, bytes_span out) {
    LWC_REQUIRE(out.size() == in.size(), "ciphertext buffer must be as long as the plaintext");
    self().encrypt(in.data(), in.size(), out.data());
  }

  // Writes the tag: tag.size() bytes, which the encryptor's raw finalize checks.
  LWC_HD constexpr void finalize(bytes_span tag) { self().finalize(tag.data(), tag.size()); }
  // The full tag.
  LWC_HD constexpr std::array<std::uint8_t, TagSize> finalize() {
    std::array<std::uint8_t, TagSize> tag{};
    self().finalize(tag.data(), tag.size());
    return tag;
  }

 protected:
  encryptor_calls() = default;
  ~encryptor_calls() = default;

 private:
  LWC_HD constexpr Encryptor& self() { return static_cast<Encryptor&>(*this); }
};

}  // namespace lwc::detail
