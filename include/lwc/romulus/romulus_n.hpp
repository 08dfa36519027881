// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus-N (Romulus v1.3, NIST LWC final round, section 2.4): nonce-based AEAD over
// SKINNY-128-384+, 128-bit key, nonce and tag.
//
// Never encrypt two messages under one key with the same nonce (Romulus-M is the variant that
// tolerates it). The tag is checked in constant time before decryption returns, and on failure
// the output is all zeros; the decrypted bytes must not be used before that answer.
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

enum class direction : std::uint8_t { encrypt, decrypt };

// Associated data, two blocks per call: the odd ones are XORed into the state, the even ones
// go into TK2. The final call takes the nonce, with domain 0x18 after a full last block and
// 0x1a after a partial one (or none).
LWC_HD constexpr void romulus_n_ad(block& s, const schedule& nonce_key, const std::uint8_t* key,
                                   const std::uint8_t* ad, std::size_t ad_len) {
  u64 counter = 1;
  std::uint8_t domain = 0x1a;
  if (ad_len > 16) {
    schedule key_only{};
    build_schedule(key_only, nullptr, key);
    for (;;) {
      s = s ^ load_block(ad);
      counter = next_counter(counter);
      const std::size_t n = ad_len - 16 < 16 ? ad_len - 16 : 16;
      tbc(s, key_only, counter, 0x08, load_padded(ad + 16, n));
      counter = next_counter(counter);
      ad += 16 + n;
      ad_len -= 16 + n;
      if (ad_len <= 16) {
        if (ad_len == 0) domain = n == 16 ? 0x18 : 0x1a;
        break;
      }
    }
    wipe_object(key_only);
  }
  if (ad_len != 0) {
    s = s ^ load_padded(ad, ad_len);
    counter = next_counter(counter);
    domain = ad_len == 16 ? 0x18 : 0x1a;
  } else if (counter == 1) {
    counter = next_counter(counter);  // no associated data at all
  }
  tbc(s, nonce_key, counter, domain);
}

// The message, one block per call: C = M ^ G(S), S ^= M (padded), then the nonce call with
// domain 0x04, or 0x14 / 0x15 for a full / partial last block (0x15 for an empty message).
template <direction Dir>
LWC_HD constexpr void romulus_n_message(block& s, const schedule& nonce_key,
                                        const std::uint8_t* in, std::size_t len,
                                        std::uint8_t* out) {
  u64 counter = 1;
  if (len == 0) {
    tbc(s, nonce_key, next_counter(counter), 0x15);
    return;
  }
#if LWC_X86_DISPATCH
  // All blocks but the last in the vector code, the state kept in its registers.
  if (!std::is_constant_evaluated() && len > 16 &&
      active_implementation() != implementation::portable) {
    const implementation code = active_implementation();
    const std::size_t blocks = (len - 1) / 16;
    u64 state[2] = {s.a, s.b};
    constexpr bool decrypt = Dir == direction::decrypt;
    if (code == implementation::avx512)
      x86::avx512::romulus_n_blocks<decrypt>(state, nonce_key, counter, in, out, blocks);
    else x86::avx2::romulus_n_blocks<decrypt>(state, nonce_key, counter, in, out, blocks);
    s = {state[0], state[1]};
    wipe_object(state);
    in += 16 * blocks, out += 16 * blocks, len -= 16 * blocks;
  }
#endif
  for (; len > 16; len -= 16, in += 16, out += 16) {
    const block x = load_block(in);
    const block y = g(s) ^ x;
    store_block(out, y);
    s = s ^ (Dir == direction::encrypt ? x : y);
    counter = next_counter(counter);
    tbc(s, nonce_key, counter, 0x04);
  }
  const block x = load_padded(in, len);
  block y = g(s) ^ x;
  store_partial(out, y, len);
  if constexpr (Dir == direction::decrypt) {
    // The key stream past a partial block is not part of the message; the state takes the
    // recovered bytes padded.
    if (len != 16) {
      std::uint8_t buf[16]{};
      store_partial(buf, y, len);
      y = load_padded(buf, len);
      wipe_object(buf);
    }
  }
  s = s ^ (Dir == direction::encrypt ? x : y);
  wipe_object(y);
  tbc(s, nonce_key, next_counter(counter), len == 16 ? 0x14 : 0x15);
}

template <direction Dir>
LWC_HD constexpr block romulus_n(const std::uint8_t* key, const std::uint8_t* nonce,
                                 const std::uint8_t* ad, std::size_t ad_len,
                                 const std::uint8_t* in, std::size_t len, std::uint8_t* out) {
  schedule nonce_key{};
  build_schedule(nonce_key, nonce, key);
  block s{0, 0};
  romulus_n_ad(s, nonce_key, key, ad, ad_len);
  romulus_n_message<Dir>(s, nonce_key, in, len, out);
  wipe_object(nonce_key);
  return g(s);
}

}  // namespace detail

// Romulus-N, the primary variant: the AEAD calls of every AEAD class.
struct romulus_n : ::lwc::detail::aead_span_forms<romulus_n, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<romulus_n, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "romulus-n";
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
    LWC_REQUIRE(tag_len == tag_size, "romulus-n tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-n takes no second key");
    detail::block t = detail::romulus_n<detail::direction::encrypt>(key, nonce, ad, ad_len, pt,
                                                                    pt_len, ct);
    detail::store_block(tag, t);
    wipe_object(t);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "romulus-n tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "romulus-n takes no second key");
    detail::block t = detail::romulus_n<detail::direction::decrypt>(key, nonce, ad, ad_len, ct,
                                                                    ct_len, pt);
    std::uint8_t expected[16]{};
    detail::store_block(expected, t);
    const bool ok = ct_equal(expected, tag, tag_size);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(t);
    return ok;
  }
};

}  // namespace lwc::romulus
