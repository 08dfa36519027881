// SPDX-License-Identifier: MIT OR Apache-2.0
// Ascon authenticated encryption: Ascon-AEAD128 (NIST SP 800-232, section 4, with the optional
// tag truncation to 32..128 bits and nonce masking with a second 128-bit key), the one to use,
// and the legacy (Ascon v1.2) AEADs Ascon-128, Ascon-128a and Ascon-80pq (big endian, 160-bit
// key for 80pq), kept for existing data.
//
// Never encrypt two messages under one key with the same nonce. Decryption is one-shot: it
// verifies the tag in constant time before anything is returned, and on failure the output
// buffer is all zeros. Incremental encryption is offered; incremental decryption is not,
// because its output would be unauthenticated until the very end.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../common/aead_span_forms.hpp"
#include "../common/encryptor_calls.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "implementation.hpp"
#include "permutation.hpp"

namespace lwc::ascon {

namespace detail {

template <class Lanes, std::uint64_t IV, std::size_t KeySize, std::size_t Rate, int Rounds,
          std::size_t MinTag, bool NonceMasking>
struct aead_params {
  using lanes = Lanes;
  static constexpr std::uint64_t iv = IV;
  static constexpr std::size_t key_size = KeySize;
  static constexpr std::size_t rate = Rate;
  static constexpr int rounds = Rounds;
  static constexpr std::size_t min_tag_size = MinTag;
  static constexpr bool nonce_masking = NonceMasking;
};

// The key as up to three state-sized words. A 128-bit key is k1 || k2; the 160-bit key of
// Ascon-80pq is k0 (32 bits, low half) || k1 || k2.
struct key_words {
  std::uint64_t k0, k1, k2;
};

}  // namespace detail

template <class Params>
class aead_algorithm
    : public ::lwc::detail::aead_span_forms<aead_algorithm<Params>, Params::key_size, 16, 16> {
  using lanes = typename Params::lanes;
  static constexpr std::size_t rate = Params::rate;
  using span_forms = ::lwc::detail::aead_span_forms<aead_algorithm<Params>, Params::key_size, 16, 16>;

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
  static constexpr std::size_t key_size = Params::key_size;
  static constexpr std::size_t second_key_size = Params::nonce_masking ? 16 : 0;
  static constexpr std::size_t nonce_size = 16;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t min_tag_size = Params::min_tag_size;
  static constexpr std::size_t block_size = rate;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. After
  // finalize the key and state are wiped and every further call is refused.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // Nonce masking (SP 800-232): the state is initialised with nonce XOR second_key.
    LWC_HD constexpr encryptor(key_view key, fixed_bytes_view<16> second_key, nonce_view nonce)
      requires Params::nonce_masking
        : encryptor(key.data(), nonce.data(), second_key.data()) {}

    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      init(s_, k_, key, nonce, second_key);
    }
    LWC_HD constexpr ~encryptor() {
      wipe_object(s_);
      wipe_object(k_);
    }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      if (n == 0) return;
      has_ad_ = true;
      absorb_blocks(s_, pos_, ad, n);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      crypt_blocks<false>(s_, pos_, in, n, out);
    }

    // Writes the tag, truncated to tag_len bytes (min_tag_size .. 16).
    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len >= min_tag_size && tag_len <= tag_size, "tag length out of range");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      finish(s_, pos_, k_, tag, tag_len);
      // Nothing may follow the tag: the key and state go now, not at destruction.
      wipe_object(s_);
      wipe_object(k_);
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      close_ad(s_, pos_, has_ad_);
      phase_ = phase::message;
    }

    state s_{};
    detail::key_words k_{};
    std::size_t pos_ = 0;
    phase phase_ = phase::ad;
    bool has_ad_ = false;
  };

  // ---- one-shot, detached tag --------------------------------------------------------------
  // On x86-64 hosts with BMI1/BMI2 the whole call (initialization, blocks, finalization) runs
  // in a copy compiled for those extensions, chosen once per call: the state stays in
  // registers from the first p^12 to the tag, and the two p^12 use andn/rorx too. Every step
  // of the call is always_inline: a step left out of line is compiled once, for the baseline
  // target, and Clang (unlike GCC) did leave them out of line, so its BMI copy ran the
  // baseline code with the state in memory between the steps. The choice itself is inlined
  // into the caller (one call, not two), and a build whose flags already allow BMI1/BMI2
  // (-march=native on such a CPU) has no choice to make.

  LWC_HD LWC_ALWAYS_INLINE static constexpr void encrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* pt, std::size_t pt_len,
      std::uint8_t* ct, std::uint8_t* tag, std::size_t tag_len) {
    LWC_REQUIRE(tag_len >= min_tag_size && tag_len <= tag_size, "tag length out of range");
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && detail::use_bmi2())
      return encrypt_bmi2(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
#endif
    encrypt_portable(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD LWC_ALWAYS_INLINE static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len >= min_tag_size && tag_len <= tag_size, "tag length out of range");
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && detail::use_bmi2())
      return decrypt_bmi2(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
#endif
    return decrypt_portable(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
  }

 private:
  // The one-shot calls on the code path already chosen (no dispatch inside). The state is a
  // local whose address is never taken: the last, partial block of the associated data and of
  // the message picks its state word by a branch on its (public) length, so every word has a
  // constant index, and the tag is compared and written as words. The compilers then keep
  // the state in registers from the nonce to the tag, with no copy of it in memory to wipe;
  // the key's copy is in memory (it waits out the whole call) and is wiped.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void encrypt_whole(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* pt, std::size_t pt_len,
      std::uint8_t* ct, std::uint8_t* tag, std::size_t tag_len) {
    detail::key_words k{};
    state s = start(k, key, nonce, second_key, ad, ad_len);
    const std::size_t full = pt_len - pt_len % rate;
    crypt_full_blocks<false>(s, pt, full, ct);
    crypt_last_block<false>(s, pt + full, pt_len % rate, ct + full);
    write_tag(tag_words(s, k), tag, tag_len);
    wipe_object(k);
  }

  LWC_HD LWC_ALWAYS_INLINE static constexpr bool decrypt_whole(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    detail::key_words k{};
    state s = start(k, key, nonce, second_key, ad, ad_len);
    const std::size_t full = ct_len - ct_len % rate;
    crypt_full_blocks<true>(s, ct, full, pt);
    crypt_last_block<true>(s, ct + full, ct_len % rate, pt + full);
    const std::uint64_t ok = tag_matches(tag_words(s, k), tag, tag_len);
    wipe_object(k);
    // Word-wise: a byte loop is most of the call's time at 64 KiB when the compiler does not
    // vectorize it (g++ -O2).
    const std::uint64_t keep = ct_opaque(0 - ok);
    std::size_t i = 0;
    for (; ct_len - i >= 8; i += 8) store_le64(pt + i, load_le64(pt + i) & keep);
    for (; i < ct_len; ++i) pt[i] &= static_cast<std::uint8_t>(keep);
    return ok != 0;
  }

  // The one-shot calls out of line: what the public calls choose between.
  LWC_HD static constexpr void encrypt_portable(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* pt, std::size_t pt_len,
      std::uint8_t* ct, std::uint8_t* tag, std::size_t tag_len) {
    encrypt_whole(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
  }
  LWC_HD static constexpr bool decrypt_portable(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    return decrypt_whole(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
  }
#if LWC_ASCON_BMI_COPIES
  LWC_TARGET_BMI1_BMI2 static void encrypt_bmi2(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* pt, std::size_t pt_len,
      std::uint8_t* ct, std::uint8_t* tag, std::size_t tag_len) {
    encrypt_whole(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
  }
  LWC_TARGET_BMI1_BMI2 static bool decrypt_bmi2(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    return decrypt_whole(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
  }
#endif

  // Initialization and the whole associated data of a one-shot call, up to the domain
  // separation; returns the state.
  LWC_HD LWC_ALWAYS_INLINE static constexpr state start(detail::key_words& k,
                                                       const std::uint8_t* key,
                                                       const std::uint8_t* nonce,
                                                       const std::uint8_t* second_key,
                                                       const std::uint8_t* ad,
                                                       std::size_t ad_len) {
    state s{};
    init(s, k, key, nonce, second_key);
    if (ad_len != 0) {
      const std::size_t full = ad_len - ad_len % rate;
      absorb_full_blocks(s, ad, full);
      absorb_last_block(s, ad + full, ad_len % rate);
      permute<Params::rounds>(s);
    }
    s.x[4] ^= lanes::dsep;
    return s;
  }

  // The last block of a one-shot call, n < rate bytes (none possibly), as rate / 8 words: the
  // input (zero beyond its n bytes), the bytes it covers and the padding. Only the loads
  // branch (on the public length); the state words are then updated with constant indices
  // alike whatever n is, which keeps the compilers from picking a word through memory.
  struct last_block {
    std::uint64_t in[2], covered[2], pad[2];
  };
  LWC_HD LWC_ALWAYS_INLINE static constexpr last_block read_last_block(const std::uint8_t* in,
                                                                       std::size_t n) {
    constexpr std::uint64_t all = ~std::uint64_t{0};
    last_block b{{0, 0}, {0, 0}, {0, 0}};
    if (rate == 16 && n >= 8) {
      b.in[0] = lanes::load(in);
      b.covered[0] = all;
      b.in[1] = lanes::load_partial(in + 8, n - 8);
      b.covered[1] = lanes::first_bytes(all, n - 8);
      b.pad[1] = lanes::pad(n - 8);
    } else {
      b.in[0] = lanes::load_partial(in, n);
      b.covered[0] = lanes::first_bytes(all, n);
      b.pad[0] = lanes::pad(n);
    }
    return b;
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void absorb_last_block(state& s,
                                                                   const std::uint8_t* in,
                                                                   std::size_t n) {
    const last_block b = read_last_block(in, n);
    LWC_UNROLL for (std::size_t w = 0; w < rate / 8; ++w) s.x[w] ^= b.in[w] ^ b.pad[w];
  }
  // Encryption outputs state ^ pt and absorbs pt; decryption outputs state ^ ct and the
  // ciphertext bytes replace the state's.
  template <bool Decrypt>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void crypt_last_block(state& s,
                                                                  const std::uint8_t* in,
                                                                  std::size_t n,
                                                                  std::uint8_t* out) {
    const last_block b = read_last_block(in, n);
    std::uint64_t o[2]{};
    LWC_UNROLL for (std::size_t w = 0; w < rate / 8; ++w) {
      o[w] = s.x[w] ^ b.in[w];
      s.x[w] = (Decrypt ? b.in[w] | (s.x[w] & ~b.covered[w]) : o[w]) ^ b.pad[w];
    }
    if (rate == 16 && n >= 8) {
      lanes::store(out, o[0]);
      lanes::store_partial(out + 8, o[1], n - 8);
    } else {
      lanes::store_partial(out, o[0], n);
    }
  }

  // The finalization after the padded last block: the tag as the two words x3, x4.
  struct tag_pair {
    std::uint64_t t0, t1;
  };
  LWC_HD LWC_ALWAYS_INLINE static constexpr tag_pair tag_words(state& s,
                                                              const detail::key_words& k) {
    if constexpr (key_size == 20) {
      s.x[1] ^= k.k0 << 32 | k.k1 >> 32;
      s.x[2] ^= k.k1 << 32 | k.k2 >> 32;
      s.x[3] ^= k.k2 << 32;
    } else {
      s.x[rate / 8] ^= k.k1;
      s.x[rate / 8 + 1] ^= k.k2;
    }
    permute<12>(s);
    return {s.x[3] ^ k.k1, s.x[4] ^ k.k2};
  }
  // The first tag_len bytes of the tag.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void write_tag(const tag_pair& t, std::uint8_t* tag,
                                                           std::size_t tag_len) {
    if (tag_len == tag_size) {
      lanes::store(tag, t.t0);
      lanes::store(tag + 8, t.t1);
    } else if (tag_len >= 8) {
      lanes::store(tag, t.t0);
      lanes::store_partial(tag + 8, t.t1, tag_len - 8);
    } else {
      lanes::store_partial(tag, t.t0, tag_len);
    }
  }
  // 1 when the first tag_len bytes of t equal `tag`, else 0: every byte is compared whatever
  // the data (the branches are on the public tag length only).
  LWC_HD LWC_ALWAYS_INLINE static constexpr std::uint64_t tag_matches(const tag_pair& t,
                                                                      const std::uint8_t* tag,
                                                                      std::size_t tag_len) {
    std::uint64_t diff;
    if (tag_len == tag_size) {
      diff = (t.t0 ^ lanes::load(tag)) | (t.t1 ^ lanes::load(tag + 8));
    } else if (tag_len >= 8) {
      diff = (t.t0 ^ lanes::load(tag)) |
             (lanes::first_bytes(t.t1, tag_len - 8) ^ lanes::load_partial(tag + 8, tag_len - 8));
    } else {
      diff = lanes::first_bytes(t.t0, tag_len) ^ lanes::load_partial(tag, tag_len);
    }
    // The top bit of diff | -diff is set exactly when diff is not zero.
    return ((diff | (0 - diff)) >> 63) ^ 1;
  }

  LWC_HD LWC_ALWAYS_INLINE static constexpr void init(state& s, detail::key_words& k,
                                                      const std::uint8_t* key,
                                                      const std::uint8_t* nonce,
                                                      const std::uint8_t* second_key) {
    std::uint64_t n0 = lanes::load(nonce), n1 = lanes::load(nonce + 8);
    if constexpr (Params::nonce_masking) {
      if (second_key != nullptr) {
        n0 ^= lanes::load(second_key);
        n1 ^= lanes::load(second_key + 8);
      }
    }
    if constexpr (key_size == 20) {
      k = {lanes::load(key, 4) >> 32, lanes::load(key + 4), lanes::load(key + 12)};
      s = state{{Params::iv | k.k0, k.k1, k.k2, n0, n1}};
      permute<12>(s);
      s.x[2] ^= k.k0;
    } else {
      k = {0, lanes::load(key), lanes::load(key + 8)};
      s = state{{Params::iv, k.k1, k.k2, n0, n1}};
      permute<12>(s);
    }
    s.x[3] ^= k.k1;
    s.x[4] ^= k.k2;
  }

  // The incremental encryptor's steps. XORs n bytes into the rate, permuting after each full
  // block; the full blocks run in their BMI copy where there is one.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void absorb_blocks(state& st, std::size_t& pos,
                                                               const std::uint8_t* in,
                                                               std::size_t n) {
    while (pos != 0 && n != 0) {
      detail::xor_byte<lanes>(st, pos, *in++);
      --n;
      if (++pos == rate) {
        permute<Params::rounds>(st);
        pos = 0;
      }
    }
    if (n >= rate) {
      const std::size_t full = n - n % rate;
#if LWC_ASCON_BMI_COPIES
      if (!std::is_constant_evaluated() && detail::use_bmi2())
        absorb_full_blocks_bmi2(st, in, full);
      else
#endif
        absorb_full_blocks(st, in, full);
      in += full;
      n -= full;
    }
    for (; n != 0; --n) detail::xor_byte<lanes>(st, pos++, *in++);
  }

  // Whole blocks (n a multiple of the rate), with the state held in locals.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void absorb_full_blocks(state& st,
                                                                    const std::uint8_t* in,
                                                                    std::size_t n) {
    state s = st;
    for (; n != 0; n -= rate, in += rate) {
      s.x[0] ^= lanes::load(in);
      if constexpr (rate == 16) s.x[1] ^= lanes::load(in + 8);
      permute<Params::rounds>(s);
    }
    st = s;
  }
#if LWC_ASCON_BMI_COPIES
  LWC_TARGET_BMI1_BMI2 static void absorb_full_blocks_bmi2(state& st, const std::uint8_t* in,
                                                           std::size_t n) {
    absorb_full_blocks(st, in, n);
  }
#endif

  // Ends the associated data: pad and permute if there was any, then domain separation.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void close_ad(state& s, std::size_t& pos,
                                                          bool has_ad) {
    if (has_ad) {
      s.x[pos / 8] ^= lanes::pad(pos % 8);
      permute<Params::rounds>(s);
      pos = 0;
    }
    s.x[4] ^= lanes::dsep;
  }

  // Duplexes n message bytes. The state always absorbs the plaintext; encryption outputs
  // state ^ pt, decryption outputs state ^ ct and then absorbs that plaintext.
  template <bool Decrypt>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void crypt_blocks(state& st, std::size_t& pos,
                                                              const std::uint8_t* in,
                                                              std::size_t n, std::uint8_t* out) {
    while (pos != 0 && n != 0) {
      const std::uint8_t o = static_cast<std::uint8_t>(detail::get_byte<lanes>(st, pos) ^ *in++);
      detail::xor_byte<lanes>(st, pos, Decrypt ? o : static_cast<std::uint8_t>(o ^ detail::get_byte<lanes>(st, pos)));
      *out++ = o;
      --n;
      if (++pos == rate) {
        permute<Params::rounds>(st);
        pos = 0;
      }
    }
    if (n >= rate) {
      const std::size_t full = n - n % rate;
#if LWC_ASCON_BMI_COPIES
      if (!std::is_constant_evaluated() && detail::use_bmi2())
        crypt_full_blocks_bmi2<Decrypt>(st, in, full, out);
      else
#endif
        crypt_full_blocks<Decrypt>(st, in, full, out);
      in += full;
      out += full;
      n -= full;
    }
    for (; n != 0; --n) {
      const std::uint8_t x = *in++;
      const std::uint8_t o = static_cast<std::uint8_t>(detail::get_byte<lanes>(st, pos) ^ x);
      detail::xor_byte<lanes>(st, pos++, Decrypt ? o : x);
      *out++ = o;
    }
  }

  // Whole blocks (n a multiple of the rate), with the state held in locals.
  template <bool Decrypt>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void crypt_full_blocks(state& st,
                                                                   const std::uint8_t* in,
                                                                   std::size_t n,
                                                                   std::uint8_t* out) {
    state s = st;
    for (; n != 0; n -= rate, in += rate, out += rate) {
      LWC_UNROLL for (std::size_t w = 0; w < rate / 8; ++w) {
        const std::uint64_t x = lanes::load(in + 8 * w);
        if constexpr (Decrypt) {
          lanes::store(out + 8 * w, s.x[w] ^ x);
          s.x[w] = x;
        } else {
          s.x[w] ^= x;
          lanes::store(out + 8 * w, s.x[w]);
        }
      }
      permute<Params::rounds>(s);
    }
    st = s;
  }
#if LWC_ASCON_BMI_COPIES
  template <bool Decrypt>
  LWC_TARGET_BMI1_BMI2 static void crypt_full_blocks_bmi2(state& st, const std::uint8_t* in,
                                                          std::size_t n, std::uint8_t* out) {
    crypt_full_blocks<Decrypt>(st, in, n, out);
  }
#endif

  // The incremental encryptor's end: pads the last message block at pos, runs the
  // finalization and writes tag_len tag bytes.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void finish(state& s, std::size_t pos,
                                                        const detail::key_words& k,
                                                        std::uint8_t* tag, std::size_t tag_len) {
    s.x[pos / 8] ^= lanes::pad(pos % 8);
    write_tag(tag_words(s, k), tag, tag_len);
  }
};

namespace detail {

struct aead128_traits
    : aead_params<little_endian_lanes, 0x00001000808c0001, 16, 16, 8, 4, true> {};
struct v12_128_traits : aead_params<big_endian_lanes, 0x80400c0600000000, 16, 8, 6, 16, false> {};
struct v12_128a_traits
    : aead_params<big_endian_lanes, 0x80800c0800000000, 16, 16, 8, 16, false> {};
struct v12_80pq_traits
    : aead_params<big_endian_lanes, 0xa0400c0600000000, 20, 8, 6, 16, false> {};

}  // namespace detail

// Each AEAD is its own class (not an alias) so that error messages and the registry name it.
struct aead128 : aead_algorithm<detail::aead128_traits> {
  static constexpr std::string_view name = "ascon-aead128";
};
// Legacy (Ascon v1.2), superseded by SP 800-232's aead128: for existing data only.
namespace v12 {
struct ascon128 : aead_algorithm<detail::v12_128_traits> {
  static constexpr std::string_view name = "ascon-128";
};
struct ascon128a : aead_algorithm<detail::v12_128a_traits> {
  static constexpr std::string_view name = "ascon-128a";
};
struct ascon80pq : aead_algorithm<detail::v12_80pq_traits> {
  static constexpr std::string_view name = "ascon-80pq";
};
}  // namespace v12

}  // namespace lwc::ascon
