// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-Beetle-AEAD[128] and PHOTON-Beetle-AEAD[32] (NIST LWC final round, "PHOTON-Beetle
// Authenticated Encryption and Hash Family", v1.1, section 3.2): 128-bit key, nonce and tag;
// the Beetle mode over PHOTON-256 with a 128-bit or a 32-bit rate.
//
// Never encrypt two messages under one key with the same nonce. Decryption is one-shot: the
// tag is checked in constant time before anything is returned, and on failure the output is
// all zeros. Incremental encryption is offered; incremental decryption is not.
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
#include "../common/span.hpp"
#include "permutation.hpp"

namespace lwc::photon_beetle {

namespace detail {

LWC_HD constexpr std::uint8_t get_byte(const state& s, std::size_t i) {
  return static_cast<std::uint8_t>(s.w[i / 8] >> (8 * (i % 8)));
}
LWC_HD constexpr void xor_byte(state& s, std::size_t i, std::uint8_t b) {
  s.w[i / 8] ^= std::uint64_t{b} << (8 * (i % 8));
}

// The domain constant goes into the last three bits of the state (bits 5..7 of byte 31).
LWC_HD constexpr void add_constant(state& s, unsigned c) { s.w[3] ^= std::uint64_t{c} << 61; }

// The Beetle duplex over a rate of Rate bytes (16 or 4). `pos` counts the bytes of the current
// block; Rate means that a permutation is due before the next byte, which is how the mode
// permutes before every block and leaves the last one open for its padding and constant.
template <std::size_t Rate>
struct duplex {
  static_assert(Rate == 16 || Rate == 4);

  // The keystream of a block, Shuffle(S) = S2 || (S1 >>> 1) for the rate halves S1, S2, taken
  // right after the permutation (the plaintext is absorbed into the same bytes).
  struct keystream {
    std::uint64_t k0, k1;
    LWC_HD constexpr std::uint8_t byte(std::size_t i) const {
      return static_cast<std::uint8_t>((i < 8 ? k0 : k1) >> (8 * (i % 8)));
    }
  };
  LWC_HD static constexpr keystream shuffle(const state& s) {
    if constexpr (Rate == 16) {
      return {s.w[1], rotr64(s.w[0], 1)};
    } else {
      const std::uint32_t s1 = static_cast<std::uint32_t>(s.w[0] & 0xffff);
      const std::uint32_t s2 = static_cast<std::uint32_t>((s.w[0] >> 16) & 0xffff);
      const std::uint32_t r1 = ((s1 >> 1) | (s1 << 15)) & 0xffff;
      return {std::uint64_t{s2 | (r1 << 16)}, 0};
    }
  }

  // Associated data: XOR into the rate, a permutation before each block.
  LWC_HD static constexpr void absorb(state& s, std::size_t& pos, const std::uint8_t* in,
                                      std::size_t n) {
    while (n != 0) {
      if (pos == Rate) {
        for (; n >= Rate; n -= Rate, in += Rate) {
          permute(s);
          if constexpr (Rate == 16) {
            s.w[0] ^= load_le64(in);
            s.w[1] ^= load_le64(in + 8);
          } else {
            s.w[0] ^= load_le32(in);
          }
        }
        if (n == 0) break;
        permute(s);
        pos = 0;
      }
      xor_byte(s, pos++, *in++);
      --n;
    }
  }

  // Message: out = in ^ Shuffle(S), and the plaintext is absorbed. ks is the keystream of
  // the open block, kept for the incremental encryptor.
  template <bool Decrypt>
  LWC_HD static constexpr void crypt(state& s, keystream& ks, std::size_t& pos,
                                     const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
    while (n != 0) {
      if (pos == Rate) {
        for (; n >= Rate; n -= Rate, in += Rate, out += Rate) {
          permute(s);
          if constexpr (Rate == 16) {
            const std::uint64_t x0 = load_le64(in), x1 = load_le64(in + 8);
            const std::uint64_t o0 = x0 ^ s.w[1], o1 = x1 ^ rotr64(s.w[0], 1);
            s.w[0] ^= Decrypt ? o0 : x0;
            s.w[1] ^= Decrypt ? o1 : x1;
            store_le64(out, o0);
            store_le64(out + 8, o1);
          } else {
            const std::uint32_t x = load_le32(in);
            const std::uint32_t o = x ^ static_cast<std::uint32_t>(shuffle(s).k0);
            s.w[0] ^= Decrypt ? o : x;
            store_le32(out, o);
          }
        }
        if (n == 0) break;
        permute(s);
        ks = shuffle(s);
        pos = 0;
      }
      const std::uint8_t x = *in++;
      const std::uint8_t o = static_cast<std::uint8_t>(x ^ ks.byte(pos));
      xor_byte(s, pos++, Decrypt ? o : x);
      *out++ = o;
      --n;
    }
  }

  // Closes a non-empty phase: 0x01 padding after a partial block, then the constant.
  LWC_HD static constexpr void close(state& s, std::size_t pos, unsigned c) {
    if (pos != Rate) xor_byte(s, pos, 0x01);
    add_constant(s, c);
  }

  // Section 3.2: c0 ends the associated data, c1 the message; each says whether the other
  // input is empty and whether the last block was full.
  LWC_HD static constexpr unsigned ad_constant(bool ad_full, bool has_msg) {
    return has_msg ? (ad_full ? 1 : 2) : (ad_full ? 3 : 4);
  }
  LWC_HD static constexpr unsigned msg_constant(bool msg_full, bool has_ad) {
    return has_ad ? (msg_full ? 1 : 2) : (msg_full ? 5 : 6);
  }

  LWC_HD static constexpr void init(state& s, const std::uint8_t* key, const std::uint8_t* nonce) {
    s.w[0] = load_le64(nonce);
    s.w[1] = load_le64(nonce + 8);
    s.w[2] = load_le64(key);
    s.w[3] = load_le64(key + 8);
  }

  // The tag is the first 128 bits after one more permutation.
  LWC_HD static constexpr void tag(state& s, std::uint8_t* out) {
    permute(s);
    store_le64(out, s.w[0]);
    store_le64(out + 8, s.w[1]);
  }

  template <bool Decrypt>
  LWC_HD static constexpr void run(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* in, std::size_t n, std::uint8_t* out,
                                   std::uint8_t* tag_out) {
    state s{};
    init(s, key, nonce);
    if (ad_len == 0 && n == 0) {
      add_constant(s, 1);
    } else {
      std::size_t pos = Rate;
      if (ad_len != 0) {
        absorb(s, pos, ad, ad_len);
        close(s, pos, ad_constant(pos == Rate, n != 0));
      }
      if (n != 0) {
        keystream ks{};
        pos = Rate;
        crypt<Decrypt>(s, ks, pos, in, n, out);
        close(s, pos, msg_constant(pos == Rate, ad_len != 0));
        wipe_object(ks);
      }
    }
    tag(s, tag_out);
    wipe_object(s);
  }
};

}  // namespace detail

template <std::size_t Rate>
class aead_algorithm : public ::lwc::detail::aead_span_forms<aead_algorithm<Rate>, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<aead_algorithm<Rate>, 16, 16, 16>;
  using core = detail::duplex<Rate>;

 public:
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;

  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 16;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t min_tag_size = 16;  // the specification defines no truncation
  static constexpr std::size_t block_size = Rate;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. The
  // constant that ends the associated data depends on whether a message follows, so it is
  // added with the first message byte (or at finalize).
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: PHOTON-Beetle has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "PHOTON-Beetle takes no second key");
      core::init(s_, key, nonce);
    }
    LWC_HD constexpr ~encryptor() {
      wipe_object(s_);
      wipe_object(ks_);
    }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      if (n == 0) return;
      has_ad_ = true;
      core::absorb(s_, pos_, ad, n);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      if (phase_ == phase::ad) phase_ = phase::message;
      if (n == 0) return;
      if (!has_msg_) {
        if (has_ad_) core::close(s_, pos_, core::ad_constant(pos_ == Rate, true));
        has_msg_ = true;
        pos_ = Rate;
      }
      core::template crypt<false>(s_, ks_, pos_, in, n, out);
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "PHOTON-Beetle tags are 16 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      if (has_msg_) {
        core::close(s_, pos_, core::msg_constant(pos_ == Rate, has_ad_));
      } else if (has_ad_) {
        core::close(s_, pos_, core::ad_constant(pos_ == Rate, false));
      } else {
        detail::add_constant(s_, 1);
      }
      core::tag(s_, tag);
      // Nothing may follow the tag: the state (which holds the key) goes now.
      wipe_object(s_);
      wipe_object(ks_);
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    state s_{};
    typename core::keystream ks_{};
    std::size_t pos_ = Rate;
    phase phase_ = phase::ad;
    bool has_ad_ = false;
    bool has_msg_ = false;
  };

  // ---- one-shot, detached tag (the registry's entry points) --------------------------------

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "PHOTON-Beetle tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "PHOTON-Beetle takes no second key");
    core::template run<false>(key, nonce, ad, ad_len, pt, pt_len, ct, tag);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "PHOTON-Beetle tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "PHOTON-Beetle takes no second key");
    std::uint8_t expected[tag_size]{};
    core::template run<true>(key, nonce, ad, ad_len, ct, ct_len, pt, expected);
    const bool ok = ct_equal(expected, tag, tag_len);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    return ok;
  }
};

// Each AEAD is its own class (not an alias) so that error messages and the registry name it.
struct aead128 : aead_algorithm<16> {
  static constexpr std::string_view name = "photon-beetle-aead128";
};
struct aead32 : aead_algorithm<4> {
  static constexpr std::string_view name = "photon-beetle-aead32";
};

}  // namespace lwc::photon_beetle
