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
#include "../common/encryptor_calls.hpp"
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

// GIFT-COFB: the AEAD calls of every AEAD class (key, nonce and tag of 16 bytes).
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

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. The mask
  // of a block depends on whether it is the last (and the last associated data block's on
  // whether a message follows), so a block is held until more input or finalize tells; its
  // ciphertext depends only on the previous block and is written at once.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: GIFT-COFB has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "gift-cofb takes no second key");
      detail::expand_key(keys_, load_be32(key), load_be32(key + 4), load_be32(key + 8),
                         load_be32(key + 12));
      y_ = detail::encrypt_block(keys_, detail::load_block(nonce));
      l_ = y_.hi;
    }
    LWC_HD constexpr ~encryptor() { wipe(); }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      for (; n != 0; --n) {
        if (held_ == 16) absorb_held();
        block_[held_++] = *ad++;
      }
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      phase_ = phase::message;
      if (n == 0) return;  // the message may still be empty, which changes the last AD mask
      if (!ad_closed_) close_ad(false);
      for (; n != 0; --n) {
        if (held_ == 16) absorb_held();
        // Blocks with more input after them are not the last: straight through.
        for (; held_ == 0 && n > 16; n -= 16, in += 16, out += 16) {
          l_ = detail::times2(l_);
          const detail::block x = detail::load_block(in);
          detail::store_block(out, {y_.hi ^ x.hi, y_.lo ^ x.lo});
          y_ = detail::encrypt_block(keys_, detail::feedback(y_, x, l_));
        }
        const std::uint8_t x = *in++;
        const std::uint64_t half = held_ < 8 ? y_.hi : y_.lo;
        *out++ = static_cast<std::uint8_t>(x ^ (half >> (56 - 8 * (held_ % 8))));
        block_[held_++] = x;
      }
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "gift-cofb tags are 16 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      if (!ad_closed_) {
        close_ad(true);
      } else {  // the last message block, padded when short
        l_ = detail::times3(l_);
        if (held_ != 16) l_ = detail::times3(l_);
        y_ = detail::encrypt_block(keys_, detail::feedback(y_, held_block(), l_));
      }
      detail::store_block(tag, y_);
      // Nothing may follow the tag: the key and state go now.
      wipe();
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    // The held block, full or padded.
    LWC_HD constexpr detail::block held_block() const {
      return held_ == 16 ? detail::load_block(block_) : detail::load_padded(block_, held_);
    }
    // A full held block that more input shows is not the last.
    LWC_HD constexpr void absorb_held() {
      l_ = detail::times2(l_);
      y_ = detail::encrypt_block(keys_, detail::feedback(y_, detail::load_block(block_), l_));
      held_ = 0;
    }
    // The last associated data block (padded, and empty when there was none).
    LWC_HD constexpr void close_ad(bool message_empty) {
      l_ = detail::times3(l_);
      if (held_ != 16) l_ = detail::times3(l_);
      if (message_empty) l_ = detail::times3(detail::times3(l_));
      y_ = detail::encrypt_block(keys_, detail::feedback(y_, held_block(), l_));
      held_ = 0;
      ad_closed_ = true;
    }
    LWC_HD constexpr void wipe() {
      wipe_object(keys_);
      wipe_object(y_);
      wipe_object(l_);
      wipe_object(block_);
    }

    detail::round_keys keys_{};
    detail::block y_{};
    std::uint64_t l_ = 0;
    std::uint8_t block_[16]{};  // the held block's data
    std::size_t held_ = 0;
    phase phase_ = phase::ad;
    bool ad_closed_ = false;
  };

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
