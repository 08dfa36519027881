// The span-based one-shot AEAD calls, written once for every AEAD family. An algorithm class
// derives from aead_span_forms<Itself, KeySize, NonceSize, TagSize>, provides the raw static
// encrypt(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len) and decrypt(...),
// and re-exports these overloads with `using`. Sizes are checked here; the tag length is
// checked by the raw functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "config.hpp"
#include "span.hpp"

namespace lwc::detail {

template <class Algorithm, std::size_t KeySize, std::size_t NonceSize, std::size_t TagSize>
struct aead_span_forms {
  using key_view = fixed_bytes_view<KeySize>;
  using nonce_view = fixed_bytes_view<NonceSize>;

  // ct_and_tag receives the ciphertext followed by the tag; its size picks the tag length
  // (pt.size() + the shortest tag the algorithm allows .. pt.size() + TagSize).
  LWC_HD static constexpr void encrypt(key_view key, nonce_view nonce, bytes_view ad,
                                       bytes_view pt, bytes_span ct_and_tag) {
    LWC_REQUIRE(ct_and_tag.size() >= pt.size(), "output shorter than the plaintext");
    Algorithm::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(),
                       pt.size(), ct_and_tag.data(), ct_and_tag.data() + pt.size(),
                       ct_and_tag.size() - pt.size());
  }

  // The last tag_len bytes of ct_and_tag are the tag; pt receives the rest and must have
  // exactly that size. On false, pt is all zeros.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(key_view key, nonce_view nonce, bytes_view ad,
                                                     bytes_view ct_and_tag, bytes_span pt,
                                                     std::size_t tag_len = TagSize) {
    LWC_REQUIRE(ct_and_tag.size() >= tag_len, "ciphertext shorter than the tag");
    LWC_REQUIRE(pt.size() == ct_and_tag.size() - tag_len, "plaintext buffer has the wrong size");
    return Algorithm::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(),
                              ct_and_tag.data(), pt.size(), ct_and_tag.data() + pt.size(), tag_len,
                              pt.data());
  }

  LWC_HD static constexpr void encrypt_detached(key_view key, nonce_view nonce, bytes_view ad,
                                                bytes_view pt, bytes_span ct, bytes_span tag) {
    LWC_REQUIRE(ct.size() == pt.size(), "ciphertext buffer must be as long as the plaintext");
    Algorithm::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(),
                       pt.size(), ct.data(), tag.data(), tag.size());
  }

  [[nodiscard]] LWC_HD static constexpr bool decrypt_detached(key_view key, nonce_view nonce,
                                                              bytes_view ad, bytes_view ct,
                                                              bytes_view tag, bytes_span pt) {
    LWC_REQUIRE(pt.size() == ct.size(), "plaintext buffer must be as long as the ciphertext");
    return Algorithm::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(),
                              ct.size(), tag.data(), tag.size(), pt.data());
  }
};

}  // namespace lwc::detail
