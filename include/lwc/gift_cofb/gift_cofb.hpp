// SPDX-License-Identifier: MIT OR Apache-2.0
// GIFT-COFB (NIST lightweight cryptography, final-round submission "GIFT-COFB", Banik,
// Chakraborti, Inoue, Iwata, Minematsu, Nandi, Peyrin, Sasaki, Sim, Todo, chapter 2): 128-bit
// key, nonce and tag, over GIFT-128 (gift128.hpp).
//
// Never encrypt two messages under one key with the same nonce: COFB's security rests on it. The
// tag is checked in constant time before decryption returns, and on failure the output is all
// zeros; the decrypted bytes must not be used before that answer.
//
// Blocks are two big-endian 64-bit words (bytes 0..7, bytes 8..15), which are also the four
// slices GIFT-128 takes. The 64-bit mask L lives in the same byte order, so that doubling in
// GF(2^64) is a shift with a conditional reduction.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/aead_span_forms.hpp"
#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "gift128.hpp"

namespace lwc::gift_cofb {

namespace detail {

struct block {
  std::uint64_t hi, lo;  // bytes 0..7 and 8..15, big-endian
};

LWC_HD LWC_ALWAYS_INLINE constexpr block load_block(const std::uint8_t* p) {
  return {load_be64(p), load_be64(p + 8)};
}
LWC_HD LWC_ALWAYS_INLINE constexpr void store_block(std::uint8_t* p, const block& b) {
  store_be64(p, b.hi);
  store_be64(p + 8, b.lo);
}

// n < 16 bytes followed by the 10* padding (a single 0x80 byte when n == 0).
LWC_HD constexpr block load_padded(const std::uint8_t* p, std::size_t n) {
  std::uint8_t buf[16]{};
  for (std::size_t i = 0; i < n; ++i) buf[i] = p[i];
  buf[n] = 0x80;
  const block b = load_block(buf);
  wipe_object(buf);
  return b;
}

// The first n < 16 bytes of a block.
LWC_HD constexpr void store_partial(std::uint8_t* p, const block& b, std::size_t n) {
  std::uint8_t buf[16]{};
  store_block(buf, b);
  for (std::size_t i = 0; i < n; ++i) p[i] = buf[i];
  wipe_object(buf);
}

LWC_HD LWC_ALWAYS_INLINE constexpr block encrypt_block(const round_keys& keys, const block& x) {
  u32 s0 = static_cast<u32>(x.hi >> 32), s1 = static_cast<u32>(x.hi);
  u32 s2 = static_cast<u32>(x.lo >> 32), s3 = static_cast<u32>(x.lo);
  encrypt(keys, s0, s1, s2, s3);
  return {std::uint64_t{s0} << 32 | s1, std::uint64_t{s2} << 32 | s3};
}

// Multiplication by x and by x + 1 in GF(2^64) modulo x^64 + x^4 + x^3 + x + 1.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t times2(std::uint64_t l) {
  return l << 1 ^ ((std::uint64_t{0} - (l >> 63)) & 0x1b);
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t times3(std::uint64_t l) { return l ^ times2(l); }

// G(Y) = (Y[2], Y[1] <<< 1), then the data block and the mask on the upper half: the next
// block cipher input.
LWC_HD LWC_ALWAYS_INLINE constexpr block feedback(const block& y, const block& data,
                                                  std::uint64_t l) {
  return {y.lo ^ data.hi ^ l, (y.hi << 1 | y.hi >> 63) ^ data.lo};
}

enum class direction : std::uint8_t { encrypt, decrypt };

// The whole mode; returns the tag. Every branch and index depends only on the lengths.
template <direction Dir>
LWC_HD constexpr block cofb(const std::uint8_t* key, const std::uint8_t* nonce,
                            const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* in,
                            std::size_t len, std::uint8_t* out) {
  round_keys keys{};
  expand_key(keys, load_be32(key), load_be32(key + 4), load_be32(key + 8), load_be32(key + 12));
  block y = encrypt_block(keys, load_block(nonce));
  std::uint64_t l = y.hi;

  // Associated data: every block but the last with 2L; the last one (padded when partial or
  // when there is none) with 3L or 9L, and 9L more when the message is empty.
  for (; ad_len > 16; ad_len -= 16, ad += 16) {
    l = times2(l);
    y = encrypt_block(keys, feedback(y, load_block(ad), l));
  }
  l = times3(l);
  if (ad_len != 16) l = times3(l);
  if (len == 0) l = times3(times3(l));
  y = encrypt_block(keys, feedback(y, ad_len == 16 ? load_block(ad) : load_padded(ad, ad_len), l));

  if (len != 0) {
    for (; len > 16; len -= 16, in += 16, out += 16) {
      l = times2(l);
      const block x = load_block(in);
      const block o = {y.hi ^ x.hi, y.lo ^ x.lo};
      store_block(out, o);
      y = encrypt_block(keys, feedback(y, Dir == direction::encrypt ? x : o, l));
    }
    l = times3(l);
    block m{};
    if (len == 16) {
      const block x = load_block(in);
      const block o = {y.hi ^ x.hi, y.lo ^ x.lo};
      store_block(out, o);
      m = Dir == direction::encrypt ? x : o;
    } else {
      l = times3(l);
      // The padded message block: for decryption the key stream past the message is dropped,
      // so the padding follows the recovered bytes.
      const block x = load_padded(in, len);
      const block o = {y.hi ^ x.hi, y.lo ^ x.lo};
      store_partial(out, o, len);
      if constexpr (Dir == direction::encrypt) {
        m = x;
      } else {
        std::uint8_t buf[16]{};
        store_partial(buf, o, len);
        m = load_padded(buf, len);
        wipe_object(buf);
      }
    }
    y = encrypt_block(keys, feedback(y, m, l));
  }
  wipe_object(keys);
  wipe_object(l);
  return y;
}

}  // namespace detail

struct gift_cofb : ::lwc::detail::aead_span_forms<gift_cofb, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<gift_cofb, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "gift-cofb";
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
    LWC_REQUIRE(tag_len == tag_size, "gift-cofb tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "gift-cofb takes no second key");
    detail::block t =
        detail::cofb<detail::direction::encrypt>(key, nonce, ad, ad_len, pt, pt_len, ct);
    detail::store_block(tag, t);
    wipe_object(t);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "gift-cofb tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "gift-cofb takes no second key");
    detail::block t =
        detail::cofb<detail::direction::decrypt>(key, nonce, ad, ad_len, ct, ct_len, pt);
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

}  // namespace lwc::gift_cofb
