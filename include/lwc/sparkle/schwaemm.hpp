// SPDX-License-Identifier: MIT OR Apache-2.0
// Schwaemm256-128, Schwaemm192-192, Schwaemm128-128 and Schwaemm256-256 (SPARKLE final-round
// specification v1.2, section 2.3): the Beetle-like mode with the rho feedback and rate
// whitening on SPARKLE384, 384, 256 and 512 (section 2.1); key, nonce and tag sizes as in its
// Table 2.3. Words are read and written little endian.
//
// Never encrypt two messages under one key with the same nonce: it leaks the XOR of the first
// plaintext blocks where the two messages differ, and voids the integrity claim. Decryption is
// one-shot: the tag is checked in constant time before anything is returned, and on failure the
// output is all zeros.
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
#include "sparkle.hpp"

namespace lwc::sparkle {

namespace detail {

enum class direction : std::uint8_t { absorb, encrypt, decrypt };

// Rate and capacity in branches (a branch is two words), step counts, and the name. The key,
// nonce and tag are as long as the capacity, the rate and the capacity respectively.
template <std::size_t Rate, std::size_t Cap, std::size_t Slim, std::size_t Big>
struct schwaemm_params {
  static constexpr std::size_t rate_branches = Rate, cap_branches = Cap;
  static constexpr std::size_t branches = Rate + Cap;
  static constexpr std::size_t slim = Slim, big = Big;
};

template <class P>
struct schwaemm_mode {
  static constexpr std::size_t nb = P::branches;
  static constexpr std::size_t rb = P::rate_branches, cb = P::cap_branches;
  static constexpr std::size_t rate_words = 2 * rb, cap_words = 2 * cb;
  static constexpr std::size_t rate_bytes = 4 * rate_words, cap_bytes = 4 * cap_words;
  using state_t = state<nb>;

  // Domain constants added to the last word before the last block of the associated data
  // (A0: padded, A1: full) and of the message (M2, M3).
  static constexpr std::uint32_t domain(std::uint32_t c) {
    return (c ^ (std::uint32_t{1} << cb)) << 24;
  }

  // rho1 (FeistelSwap of the rate, then XOR of the padded data block d) and rate whitening
  // (each rate branch gets a capacity branch added, cycling through the capacity).
  LWC_HD LWC_ALWAYS_INLINE static constexpr void rho_whiten(std::uint32_t* w,
                                                            const std::uint32_t* d) {
    LWC_UNROLL for (std::size_t i = 0; i < rb; ++i) {
      const std::uint32_t left = w[i], right = w[i + rb];
      w[i] = right ^ d[i];
      w[i + rb] = right ^ left ^ d[i + rb];
    }
    LWC_UNROLL for (std::size_t i = 0; i < rb; ++i) {
      w[2 * i] ^= w[rate_words + 2 * (i % cb)];
      w[2 * i + 1] ^= w[rate_words + 2 * (i % cb) + 1];
    }
  }

  // A full block: the ciphertext is rho2 (data XOR rate); for decryption the plaintext is
  // recovered first, so that the state update is the same in both directions.
  template <direction Dir>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void full_block(std::uint32_t* w,
                                                            const std::uint8_t* in,
                                                            std::uint8_t* out) {
    if constexpr (rb % 2 == 0) {
      full_block_branches<Dir>(w, in, out);
    } else {
      std::uint32_t d[rate_words];
      load_words<rate_words>(d, in);
      if constexpr (Dir != direction::absorb) {
        std::uint32_t o[rate_words];
        LWC_UNROLL for (std::size_t i = 0; i < rate_words; ++i) o[i] = d[i] ^ w[i];
        if constexpr (Dir == direction::decrypt)
          LWC_UNROLL for (std::size_t i = 0; i < rate_words; ++i) d[i] = o[i];
        store_words<rate_words>(out, o);
      }
      rho_whiten(w, d);
    }
  }

  // The same where the halves of the rate are whole branches: every operation of rho and the
  // whitening then treats a branch (two words) alike, so it runs on 64-bit branch words, and
  // the data and ciphertext are read and written 8 bytes at a time with no splitting. (Word by
  // word, GCC's vectorizer with -march=native shuffled words between vector lanes and general
  // registers: about twice the instructions per block.)
  template <direction Dir>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void full_block_branches(std::uint32_t* w,
                                                                     const std::uint8_t* in,
                                                                     std::uint8_t* out) {
    constexpr std::size_t half = rb / 2;
    std::uint64_t r[rb], d[rb];
    LWC_UNROLL for (std::size_t j = 0; j < rb; ++j) {
      r[j] = load_branch(w + 2 * j);
      d[j] = load_le64(in + 8 * j);
    }
    if constexpr (Dir != direction::absorb) {
      LWC_UNROLL for (std::size_t j = 0; j < rb; ++j) {
        const std::uint64_t o = d[j] ^ r[j];
        store_le64(out + 8 * j, o);
        if constexpr (Dir == direction::decrypt) d[j] = o;
      }
    }
    LWC_UNROLL for (std::size_t j = 0; j < half; ++j) {
      const std::uint64_t left = r[j], right = r[j + half];
      r[j] = right ^ d[j];
      r[j + half] = right ^ left ^ d[j + half];
    }
    LWC_UNROLL for (std::size_t j = 0; j < rb; ++j) {
      store_branch(w + 2 * j, r[j] ^ load_branch(w + rate_words + 2 * (j % cb)));
    }
  }

  // The last block when shorter than the rate: the plaintext is padded with 0x80 then zeros.
  template <direction Dir>
  LWC_HD static constexpr void partial_block(std::uint32_t* w, const std::uint8_t* in,
                                             std::size_t n, std::uint8_t* out) {
    std::uint8_t buf[rate_bytes]{};
    for (std::size_t i = 0; i < n; ++i) buf[i] = in[i];
    std::uint32_t d[rate_words];
    load_words<rate_words>(d, buf);
    if constexpr (Dir != direction::absorb) {
      std::uint32_t o[rate_words];
      LWC_UNROLL for (std::size_t i = 0; i < rate_words; ++i) o[i] = d[i] ^ w[i];
      store_words<rate_words>(buf, o);
      for (std::size_t i = 0; i < n; ++i) out[i] = buf[i];
      if constexpr (Dir == direction::decrypt) {
        for (std::size_t i = n; i < rate_bytes; ++i) buf[i] = 0;
        load_words<rate_words>(d, buf);
      }
      wipe_object(o);
    }
    d[n / 4] ^= std::uint32_t{0x80} << (8 * (n % 4));
    rho_whiten(w, d);
    wipe_object(buf);
    wipe_object(d);
  }

  // Associated data or message: all blocks but the last with the slim permutation; the last
  // one, padded if short, after a domain constant and followed by the big permutation.
  // Nothing at all for empty input.
  template <direction Dir>
  LWC_HD static constexpr void process(state_t& s_, const std::uint8_t* in, std::size_t len,
                                       std::uint8_t* out, std::uint32_t c_padded,
                                       std::uint32_t c_full) {
    if (len == 0) return;
    // A local copy: stores through `out` may alias the caller's state.
    state_t s = s_;
    for (; len > rate_bytes; len -= rate_bytes, in += rate_bytes) {
      full_block<Dir>(s.w, in, out);
      if constexpr (Dir != direction::absorb) out += rate_bytes;
      permute<nb, P::slim>(s);
    }
    if (len == rate_bytes) {
      s.w[2 * nb - 1] ^= c_full;
      full_block<Dir>(s.w, in, out);
    } else {
      s.w[2 * nb - 1] ^= c_padded;
      partial_block<Dir>(s.w, in, len, out);
    }
    permute<nb, P::big>(s);
    s_ = s;
    wipe_object(s);
  }

  // Nonce in the rate, key in the capacity, the big permutation.
  LWC_HD static constexpr void start(state_t& s, const std::uint8_t* key,
                                     const std::uint8_t* nonce, const std::uint8_t* ad,
                                     std::size_t ad_len) {
    load_words<rate_words>(s.w, nonce);
    load_words<cap_words>(s.w + rate_words, key);
    permute<nb, P::big>(s);
    process<direction::absorb>(s, ad, ad_len, nullptr, domain(0), domain(1));
  }

  // The tag is the capacity XOR the key.
  LWC_HD static constexpr void finish(state_t& s, const std::uint8_t* key, std::uint8_t* tag) {
    std::uint32_t k[cap_words];
    load_words<cap_words>(k, key);
    LWC_UNROLL for (std::size_t i = 0; i < cap_words; ++i) k[i] ^= s.w[rate_words + i];
    store_words<cap_words>(tag, k);
    wipe_object(k);
  }
};

// The AEAD class of one instance (Traits gives its name and parameters).
template <class Traits>
struct schwaemm
    : ::lwc::detail::aead_span_forms<schwaemm<Traits>,
                                     schwaemm_mode<typename Traits::params>::cap_bytes,
                                     schwaemm_mode<typename Traits::params>::rate_bytes,
                                     schwaemm_mode<typename Traits::params>::cap_bytes> {
 private:
  using mode = schwaemm_mode<typename Traits::params>;

 public:
  using span_forms =
      ::lwc::detail::aead_span_forms<schwaemm<Traits>, mode::cap_bytes, mode::rate_bytes,
                                     mode::cap_bytes>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = Traits::name;
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = mode::cap_bytes;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = mode::rate_bytes;
  static constexpr std::size_t tag_size = mode::cap_bytes;
  static constexpr std::size_t min_tag_size = tag_size;  // the specification defines no truncation
  static constexpr std::size_t block_size = mode::rate_bytes;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. The last
  // block of each takes a domain constant and the big permutation, so a block is held until
  // more input shows that it is not the last; its ciphertext does not depend on that (the
  // constant goes into the capacity) and is written at once.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: Schwaemm has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "Schwaemm takes no second key");
      for (std::size_t i = 0; i < key_size; ++i) key_[i] = key[i];
      mode::start(s_, key, nonce, nullptr, 0);
    }
    LWC_HD constexpr ~encryptor() { wipe(); }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      while (n != 0) {
        if (held_ == mode::rate_bytes) absorb_held();
        const std::size_t take = n < mode::rate_bytes - held_ ? n : mode::rate_bytes - held_;
        for (std::size_t i = 0; i < take; ++i) block_[held_ + i] = ad[i];
        held_ += take;
        ad += take;
        n -= take;
      }
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      for (; n != 0; --n) {
        if (held_ == mode::rate_bytes) absorb_held();
        // Blocks with more input after them are not the last: straight through.
        for (; held_ == 0 && n > mode::rate_bytes;
             n -= mode::rate_bytes, in += mode::rate_bytes, out += mode::rate_bytes) {
          mode::template full_block<direction::encrypt>(s_.w, in, out);
          permute<mode::nb, Traits::params::slim>(s_);
        }
        const std::uint8_t x = *in++;
        *out++ = static_cast<std::uint8_t>(x ^ (s_.w[held_ / 4] >> (8 * (held_ % 4))));
        block_[held_++] = x;
      }
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "wrong tag length for this Schwaemm instance");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      close_held(mode::domain(2), mode::domain(3));
      mode::finish(s_, key_, tag);
      // Nothing may follow the tag: the key and state go now.
      wipe();
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    // The held block, known not to be the last (associated data or plaintext alike: the
    // state takes the data block, not the ciphertext).
    LWC_HD constexpr void absorb_held() {
      mode::template full_block<direction::absorb>(s_.w, block_, nullptr);
      permute<mode::nb, Traits::params::slim>(s_);
      held_ = 0;
    }
    // The held block as the last one; nothing when no data came.
    LWC_HD constexpr void close_held(std::uint32_t c_padded, std::uint32_t c_full) {
      if (held_ == 0) return;
      mode::template process<direction::absorb>(s_, block_, held_, nullptr, c_padded, c_full);
      wipe_object(block_);
      held_ = 0;
    }
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      close_held(mode::domain(0), mode::domain(1));
      phase_ = phase::message;
    }
    LWC_HD constexpr void wipe() {
      wipe_object(s_);
      wipe_object(key_);
      wipe_object(block_);
    }

    typename mode::state_t s_{};
    std::uint8_t key_[key_size]{};
    std::uint8_t block_[mode::rate_bytes]{};  // the held block's data
    std::size_t held_ = 0;
    phase phase_ = phase::ad;
  };

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "wrong tag length for this Schwaemm instance");
    LWC_REQUIRE(second_key == nullptr, "Schwaemm takes no second key");
    typename mode::state_t s{};
    mode::start(s, key, nonce, ad, ad_len);
    mode::template process<direction::encrypt>(s, pt, pt_len, ct, mode::domain(2),
                                               mode::domain(3));
    mode::finish(s, key, tag);
    wipe_object(s);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "wrong tag length for this Schwaemm instance");
    LWC_REQUIRE(second_key == nullptr, "Schwaemm takes no second key");
    typename mode::state_t s{};
    mode::start(s, key, nonce, ad, ad_len);
    mode::template process<direction::decrypt>(s, ct, ct_len, pt, mode::domain(2),
                                               mode::domain(3));
    std::uint8_t expected[tag_size]{};
    mode::finish(s, key, expected);
    const bool ok = ct_equal(expected, tag, tag_len);
    // Word-wise: a byte loop the compiler does not vectorize (g++ -O2) runs four instructions
    // a byte, this one half an instruction.
    const std::uint8_t keep = ct_mask(ok);
    const std::uint64_t keep_words = std::uint64_t{keep} * 0x0101010101010101;
    std::size_t i = 0;
    for (; ct_len - i >= 8; i += 8) store_le64(pt + i, load_le64(pt + i) & keep_words);
    for (; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(s);
    return ok;
  }
};

struct schwaemm256_128_traits {
  static constexpr std::string_view name = "schwaemm256-128";
  using params = schwaemm_params<4, 2, 7, 11>;  // SPARKLE384
};
struct schwaemm192_192_traits {
  static constexpr std::string_view name = "schwaemm192-192";
  using params = schwaemm_params<3, 3, 7, 11>;  // SPARKLE384
};
struct schwaemm128_128_traits {
  static constexpr std::string_view name = "schwaemm128-128";
  using params = schwaemm_params<2, 2, 7, 10>;  // SPARKLE256
};
struct schwaemm256_256_traits {
  static constexpr std::string_view name = "schwaemm256-256";
  using params = schwaemm_params<4, 4, 8, 12>;  // SPARKLE512
};

}  // namespace detail

// Key / nonce / tag bytes: 16 / 32 / 16 (the primary instance).
using schwaemm256_128 = detail::schwaemm<detail::schwaemm256_128_traits>;
// 24 / 24 / 24.
using schwaemm192_192 = detail::schwaemm<detail::schwaemm192_192_traits>;
// 16 / 16 / 16.
using schwaemm128_128 = detail::schwaemm<detail::schwaemm128_128_traits>;
// 32 / 32 / 32.
using schwaemm256_256 = detail::schwaemm<detail::schwaemm256_256_traits>;

}  // namespace lwc::sparkle
