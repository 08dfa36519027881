// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-M (Romulus v1.3, NIST LWC final round, section 2.4): misuse-resistant AEAD over
// SKINNY-128-384+ (SIV-like: the tag is a MAC of the associated data and the message, and the
// encryption is keyed by the tag), 128-bit key, nonce and tag.
//
// A repeated nonce only reveals whether two (associated data, message) pairs were equal; still
// use each nonce once. The tag is checked in constant time before decryption returns, and on
// failure the output is all zeros; the decrypted bytes must not be used before that answer.
// Encryption reads the message twice, so it cannot be streamed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/aead_span_forms.hpp"
#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "common.hpp"

namespace lwc::romulus {

namespace detail {

// The domain byte of the final MAC call: 0x30, plus bits saying whether the associated data
// and the message end in a full or a partial block and whether their block counts are odd.
LWC_HD constexpr std::uint8_t romulus_m_domain(std::size_t ad_len, std::size_t len) {
  unsigned w = 48;
  const std::size_t a = ad_len % 32, x = len % 32;
  if (ad_len == 0 || (a != 0 && a < 16)) w ^= 2;
  else if (a == 0) w ^= 8;
  else if (a > 16) w ^= 10;
  if (len == 0 || (x != 0 && x < 16)) w ^= 1;
  else if (x == 0) w ^= 4;
  else if (x > 16) w ^= 5;
  return static_cast<std::uint8_t>(w);
}

// The MAC's state and block counter.
struct mac_state {
  block s;
  u64 counter;
};

// Absorbs a stream (the associated data, or what is left of the message) two blocks per call:
// the first is XORed into the state, the second goes into TK2 of the call. A partial last block
// is padded with its length; a lone last block waits in the state for the next stream (or for
// the final call).
LWC_HD constexpr void romulus_m_absorb(mac_state& m, const schedule& key_only,
                                       const std::uint8_t* p, std::size_t len,
                                       std::uint8_t domain) {
  while (len != 0) {
    const std::size_t n1 = len < 16 ? len : 16;
    m.s = m.s ^ load_padded(p, n1);
    m.counter = next_counter(m.counter);
    p += n1;
    len -= n1;
    if (len != 0) {
      const std::size_t n2 = len < 16 ? len : 16;
      tbc(m.s, key_only, m.counter, domain, load_padded(p, n2));
      m.counter = next_counter(m.counter);
      p += n2;
      len -= n2;
    }
  }
}

LWC_HD constexpr block romulus_m_tag(const schedule& key_only, const schedule& nonce_key,
                                     const std::uint8_t* ad, std::size_t ad_len,
                                     const std::uint8_t* msg, std::size_t len) {
  const std::uint8_t w = romulus_m_domain(ad_len, len);
  mac_state m{{0, 0}, 1};
  if (ad_len == 0) m.counter = next_counter(m.counter);
  else romulus_m_absorb(m, key_only, ad, ad_len, 40);
  if ((w & 8) == 0) {
    // The associated data left a state block without its TK2 partner: the first message
    // block (padded, possibly empty) takes that place.
    const std::size_t n = len < 16 ? len : 16;
    tbc(m.s, key_only, m.counter, 44, load_padded(msg, n));
    m.counter = next_counter(m.counter);
    msg += n;
    len -= n;
  } else if (len == 0) {
    m.counter = next_counter(m.counter);
  }
  romulus_m_absorb(m, key_only, msg, len, 44);
  tbc(m.s, nonce_key, m.counter, w);
  const block t = g(m.s);
  wipe_object(m);
  return t;
}

// The encryption keyed by the tag: S = T, then per block S = E(counter, 36, N)(S) and
// out = in ^ G(S) (Romulus-N's rho without its feedback mattering for the output).
template <bool Decrypt>
LWC_HD constexpr void romulus_m_crypt(const schedule& nonce_key, const block& tag,
                                      const std::uint8_t* in, std::size_t len, std::uint8_t* out) {
  if (len == 0) return;
  block s = tag;
  u64 counter = 1;
  tbc(s, nonce_key, counter, 36);
  for (; len > 16; len -= 16, in += 16, out += 16) {
    const block x = load_block(in);
    const block y = g(s) ^ x;
    store_block(out, y);
    s = s ^ (Decrypt ? y : x);
    counter = next_counter(counter);
    tbc(s, nonce_key, counter, 36);
  }
  block y = g(s) ^ load_padded(in, len);
  store_partial(out, y, len);
  wipe_object(y);
  wipe_object(s);
}

}  // namespace detail

// Romulus-M, the misuse-resistant variant: the AEAD calls of every AEAD class.
struct romulus_m : ::lwc::detail::aead_span_forms<romulus_m, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<romulus_m, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "romulus-m";
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 16;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t min_tag_size = 16;  // the specification defines no truncation
  static constexpr std::size_t block_size = 16;

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "romulus-m tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-m takes no second key");
    detail::schedule key_only{}, nonce_key{};
    detail::build_schedule(key_only, nullptr, key);
    detail::build_schedule(nonce_key, nonce, key);
    detail::block t = detail::romulus_m_tag(key_only, nonce_key, ad, ad_len, pt, pt_len);
    detail::romulus_m_crypt<false>(nonce_key, t, pt, pt_len, ct);
    detail::store_block(tag, t);
    wipe_object(t);
    wipe_object(key_only);
    wipe_object(nonce_key);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "romulus-m tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-m takes no second key");
    detail::schedule key_only{}, nonce_key{};
    detail::build_schedule(key_only, nullptr, key);
    detail::build_schedule(nonce_key, nonce, key);
    detail::romulus_m_crypt<true>(nonce_key, detail::load_block(tag), ct, ct_len, pt);
    detail::block t = detail::romulus_m_tag(key_only, nonce_key, ad, ad_len, pt, ct_len);
    std::uint8_t expected[16]{};
    detail::store_block(expected, t);
    const bool ok = ct_equal(expected, tag, tag_size);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(t);
    wipe_object(key_only);
    wipe_object(nonce_key);
    return ok;
  }
};

}  // namespace lwc::romulus
