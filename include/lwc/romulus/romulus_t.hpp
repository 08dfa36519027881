// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-T (Romulus v1.3, NIST LWC final round, section 2.4): leakage-resilient AEAD over
// SKINNY-128-384+, 128-bit key, nonce and tag: a key stream under a key that is re-derived
// after every block, and a tag that encrypts under the key the Romulus-H-style hash of the
// associated data, the ciphertext, the nonce and the block count.
//
// Never encrypt two messages under one key with the same nonce. Decryption checks the tag (in
// constant time) before it decrypts, and on failure the output is all zeros; the decrypted
// bytes must not be used before that answer.
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

// n < 16 bytes, zeros, and n in the last of the 16 bytes.
LWC_HD constexpr void pad_half(std::uint8_t* p, const std::uint8_t* src, std::size_t n) {
  for (std::size_t i = 0; i < 15; ++i) p[i] = i < n ? src[i] : 0;
  p[15] = static_cast<std::uint8_t>(n);
}

// 16 <= n <= 32 bytes, zeros, and n mod 16 in the last of the 32 bytes.
LWC_HD constexpr void pad_block(std::uint8_t* p, const std::uint8_t* src, std::size_t n) {
  for (std::size_t i = 0; i < 31; ++i) p[i] = i < n ? src[i] : 0;
  p[31] = static_cast<std::uint8_t>(n & 15);
}

// The hash of ipad*(A) || ipad*(C) || N || counter in 32-byte blocks. A and C are each padded
// to whole 16-byte halves (a partial half ends with its length; an empty A takes no half); the
// nonce takes the half after them when that half is the second of a block, and otherwise opens
// the last block, which ends with the counter (the encryption's block counter: one step per
// 16-byte block of C) and the number of bytes used. The cases below follow the specification's
// reference code one by one.
LWC_HD constexpr void romulus_t_hash(block& h, block& g2, const std::uint8_t* ad,
                                     std::size_t ad_len, const std::uint8_t* c, std::size_t c_len,
                                     const std::uint8_t* nonce) {
  schedule constants{};
  load_constants(constants);
  h = {0, 0};
  g2 = {0, 0};
  u64 counter = 1;
  bool nonce_taken = false;
  bool c_open = c_len != 0;  // C has bytes, or its padded last half, still to absorb
  std::uint8_t p[32]{};

  const bool ad_empty = ad_len == 0;
  for (; ad_len >= 32; ad_len -= 32, ad += 32) hirose(h, g2, constants, ad);
  if (ad_len >= 16) {
    pad_block(p, ad, ad_len);
    hirose(h, g2, constants, p);
  } else if (!ad_empty) {
    // A's last half shares its block with C's first half, or C's padded half, or the nonce.
    pad_half(p, ad, ad_len);
    if (c_len >= 16) {
      for (int i = 0; i < 16; ++i) p[16 + i] = c[i];
      hirose(h, g2, constants, p);
      counter = next_counter(counter);
      c_len -= 16;
      c += 16;
    } else if (c_len > 0) {
      pad_half(p + 16, c, c_len);
      hirose(h, g2, constants, p);
      counter = next_counter(counter);
      c_len = 0;
      c_open = false;
    } else {
      for (int i = 0; i < 16; ++i) p[16 + i] = nonce[i];
      hirose(h, g2, constants, p);
      nonce_taken = true;
    }
  }
  for (; c_len >= 32; c_len -= 32, c += 32) {
    hirose(h, g2, constants, c);
    counter = next_counter(next_counter(counter));
  }
  if (c_len > 16) {
    pad_block(p, c, c_len);
    hirose(h, g2, constants, p);
    counter = next_counter(next_counter(counter));
  } else if (c_len == 16) {
    pad_block(p, c, 16);
    hirose(h, g2, constants, p);
    counter = next_counter(counter);
  } else if (c_open) {
    pad_half(p, c, c_len);
    if (c_len != 0) counter = next_counter(counter);
    for (int i = 0; i < 16; ++i) p[16 + i] = nonce[i];
    hirose(h, g2, constants, p);
    nonce_taken = true;
  }

  // The last block: [N ||] counter (7 bytes), zeros, and the number of bytes used.
  for (int i = 0; i < 32; ++i) p[i] = 0;
  std::size_t used = 0;
  if (!nonce_taken) {
    for (int i = 0; i < 16; ++i) p[i] = nonce[i];
    used = 16;
  }
  for (std::size_t i = 0; i < 7; ++i) p[used + i] = static_cast<std::uint8_t>(counter >> (8 * i));
  p[31] = static_cast<std::uint8_t>(used + 7);
  h.a ^= 2;
  hirose(h, g2, constants, p);
  wipe_object(p);
}

// The key stream: Z = E(K, (0, 66))(N); per block E(Z, (counter, 64))(N) is XORed into the
// data, and unless the block is the last one Z becomes E(Z, (counter, 65))(N).
LWC_HD constexpr void romulus_t_crypt(const schedule& key_only, const std::uint8_t* nonce,
                                      const std::uint8_t* in, std::size_t len, std::uint8_t* out) {
  if (len == 0) return;
  schedule constants{};
  load_constants(constants);
  const block n = load_block(nonce);
  block z = n;
  tbc(z, key_only, 0, 66);
  u64 counter = 1;
  for (; len > 16; len -= 16, in += 16, out += 16) {
    counter_tk3_source<2> src{&constants,
                              {counter_word(counter, 64), counter_word(counter, 65)},
                              start_live<3>(z.a, z.b)};
    u64 a[2] = {n.a, n.a}, b[2] = {n.b, n.b};
    skinny(a, b, src);
    store_block(out, load_block(in) ^ block{a[0], b[0]});
    z = {a[1], b[1]};
    counter = next_counter(counter);
    wipe_object(src);
  }
  counter_tk3_source<1> src{&constants, {counter_word(counter, 64)}, start_live<3>(z.a, z.b)};
  u64 a[1] = {n.a}, b[1] = {n.b};
  skinny(a, b, src);
  block s = load_padded(in, len) ^ block{a[0], b[0]};
  store_partial(out, s, len);
  wipe_object(src);
  wipe_object(z);
  wipe_object(s);
}

// T = E(K, (0, 68), g)(h) for the hash h || g.
LWC_HD constexpr block romulus_t_tag(const schedule& key_only, const std::uint8_t* nonce,
                                     const std::uint8_t* ad, std::size_t ad_len,
                                     const std::uint8_t* c, std::size_t c_len) {
  block h{}, g2{};
  romulus_t_hash(h, g2, ad, ad_len, c, c_len, nonce);
  tbc(h, key_only, 0, 68, g2);
  return h;
}

}  // namespace detail

// Romulus-T, the leakage-resilient variant: the AEAD calls of every AEAD class.
struct romulus_t : ::lwc::detail::aead_span_forms<romulus_t, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<romulus_t, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "romulus-t";
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
    LWC_REQUIRE(tag_len == tag_size, "romulus-t tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-t takes no second key");
    detail::schedule key_only{};
    detail::build_schedule(key_only, nullptr, key);
    detail::romulus_t_crypt(key_only, nonce, pt, pt_len, ct);
    detail::block t = detail::romulus_t_tag(key_only, nonce, ad, ad_len, ct, pt_len);
    detail::store_block(tag, t);
    wipe_object(t);
    wipe_object(key_only);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "romulus-t tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-t takes no second key");
    detail::schedule key_only{};
    detail::build_schedule(key_only, nullptr, key);
    // The tag covers the ciphertext, which may be overwritten by the plaintext: check first.
    detail::block t = detail::romulus_t_tag(key_only, nonce, ad, ad_len, ct, ct_len);
    std::uint8_t expected[16]{};
    detail::store_block(expected, t);
    const bool ok = ct_equal(expected, tag, tag_size);
    detail::romulus_t_crypt(key_only, nonce, ct, ct_len, pt);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(t);
    wipe_object(key_only);
    return ok;
  }
};

}  // namespace lwc::romulus
