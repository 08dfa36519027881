// SPDX-License-Identifier: MIT OR Apache-2.0
// The span-based one-shot AEAD calls, written once for every AEAD family. An algorithm class
// derives from aead_span_forms<Itself, KeySize, NonceSize, TagSize>, provides the raw static
// encrypt(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len) and decrypt(...),
// and re-exports these overloads with `using`. Sizes are checked here and must be exact: the
// plain forms take the full tag; a truncated tag goes through the *_truncated forms, whose
// caller names its length. The tag length is range-checked by the raw functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "checked.hpp"
#include "config.hpp"
#include "span.hpp"

namespace lwc::detail {

// The calls every AEAD class has (lwc::ascon::aead128::encrypt, ...): key and nonce are exactly
// the algorithm's sizes; a buffer of the wrong size throws std::invalid_argument (a trap in
// GPU code) before anything is written.
template <class Algorithm, std::size_t KeySize, std::size_t NonceSize, std::size_t TagSize>
struct aead_span_forms {
  // A view of exactly the algorithm's key size, and of its nonce size.
  using key_view = fixed_bytes_view<KeySize>;
  using nonce_view = fixed_bytes_view<NonceSize>;

  // ct_and_tag receives the ciphertext followed by the full tag: its size must be exactly
  // pt.size() + TagSize (a shorter buffer is an error, not a shorter tag).
  LWC_HD static constexpr void encrypt(key_view key, nonce_view nonce, bytes_view ad,
                                       bytes_view pt, bytes_span ct_and_tag) {
    encrypt_truncated(key, nonce, ad, pt, ct_and_tag, TagSize);
  }
  // The opt-in for a truncated tag of tag_len bytes (the algorithm's shortest .. TagSize):
  // ct_and_tag must be exactly pt.size() + tag_len bytes.
  LWC_HD static constexpr void encrypt_truncated(key_view key, nonce_view nonce, bytes_view ad,
                                                 bytes_view pt, bytes_span ct_and_tag,
                                                 std::size_t tag_len) {
    std::size_t want = 0;
    LWC_REQUIRE(add_fits(pt.size(), tag_len, want) && ct_and_tag.size() == want,
                "output must be exactly the plaintext's size plus the tag length");
    Algorithm::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(),
                       pt.size(), ct_and_tag.data(), ct_and_tag.data() + pt.size(), tag_len);
  }

  // The last TagSize bytes of ct_and_tag are the full tag; pt receives the rest and must have
  // exactly that size. On false, pt is all zeros.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(key_view key, nonce_view nonce, bytes_view ad,
                                                     bytes_view ct_and_tag, bytes_span pt) {
    return decrypt_truncated(key, nonce, ad, ct_and_tag, pt, TagSize);
  }
  // The opt-in for truncated tags: the last tag_len bytes are the tag. tag_len is the
  // caller's configuration, never a length read from the received data.
  [[nodiscard]] LWC_HD static constexpr bool decrypt_truncated(key_view key, nonce_view nonce,
                                                               bytes_view ad,
                                                               bytes_view ct_and_tag,
                                                               bytes_span pt,
                                                               std::size_t tag_len) {
    LWC_REQUIRE(ct_and_tag.size() >= tag_len, "ciphertext shorter than the tag");
    LWC_REQUIRE(pt.size() == ct_and_tag.size() - tag_len, "plaintext buffer has the wrong size");
    return Algorithm::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(),
                              ct_and_tag.data(), pt.size(), ct_and_tag.data() + pt.size(), tag_len,
                              pt.data());
  }

  // Detached: tag must be the full TagSize bytes.
  LWC_HD static constexpr void encrypt_detached(key_view key, nonce_view nonce, bytes_view ad,
                                                bytes_view pt, bytes_span ct, bytes_span tag) {
    LWC_REQUIRE(tag.size() == TagSize, "tag buffer must be the full tag's size");
    encrypt_detached_truncated(key, nonce, ad, pt, ct, tag);
  }
  // The opt-in for truncated tags: tag.size() picks the length (the shortest .. TagSize).
  LWC_HD static constexpr void encrypt_detached_truncated(key_view key, nonce_view nonce,
                                                          bytes_view ad, bytes_view pt,
                                                          bytes_span ct, bytes_span tag) {
    LWC_REQUIRE(ct.size() == pt.size(), "ciphertext buffer must be as long as the plaintext");
    Algorithm::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(),
                       pt.size(), ct.data(), tag.data(), tag.size());
  }

  // Detached: tag must be the full TagSize bytes (another size zeroes pt, then throws);
  // ct and pt have the same size. On false, pt is all zeros.
  [[nodiscard]] LWC_HD static constexpr bool decrypt_detached(key_view key, nonce_view nonce,
                                                              bytes_view ad, bytes_view ct,
                                                              bytes_view tag, bytes_span pt) {
    if (tag.size() != TagSize) {
      for (std::uint8_t& b : pt) b = 0;  // fails as a wrong tag does: nothing of pt is left
      LWC_REQUIRE(false, "tag must be the full tag's size");
    }
    return decrypt_detached_truncated(key, nonce, ad, ct, tag, pt);
  }
  // The opt-in for truncated tags: tag.size() (the shortest .. TagSize) must be the caller's
  // configuration, never the length of whatever tag arrived.
  [[nodiscard]] LWC_HD static constexpr bool decrypt_detached_truncated(key_view key,
                                                                        nonce_view nonce,
                                                                        bytes_view ad,
                                                                        bytes_view ct,
                                                                        bytes_view tag,
                                                                        bytes_span pt) {
    LWC_REQUIRE(pt.size() == ct.size(), "plaintext buffer must be as long as the ciphertext");
    return Algorithm::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(),
                              ct.size(), tag.data(), tag.size(), pt.data());
  }
};

}  // namespace lwc::detail
