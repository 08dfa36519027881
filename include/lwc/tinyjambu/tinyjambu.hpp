// SPDX-License-Identifier: MIT OR Apache-2.0
// TinyJAMBU-128, -192 and -256 (NIST lightweight cryptography, final round; "TinyJAMBU: A Family
// of Lightweight Authenticated Encryption Algorithms (Version 2)", Wu and Huang, 2021, section
// 3): 128-, 192- or 256-bit key, 96-bit nonce, 64-bit tag, 32-bit message blocks.
//
// Never encrypt two messages under one key with the same nonce: the keystream would repeat and
// forgeries become easy. Decryption is one-shot: the tag is checked in constant time before
// anything is returned, and on failure the output is all zeros.
//
// The keyed permutation P_n is a 128-bit NLFSR; its 32 next feedback bits only read taps at
// least 32 bits from the input end, so a 32-bit word operation computes 32 steps at once. On
// 64-bit hosts a 64-bit operation computes 64, and a few more operations add what the first 32
// new bits contribute to the taps of the next 32.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../common/aead_span_forms.hpp"
#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/encryptor_calls.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"

namespace lwc::tinyjambu {

namespace detail {

// The NLFSR as two 64-bit words: bit i of the state is bit i % 64 of lo (i < 64) or of hi.
// In 32-bit words s0..s3 (bit i in s[i / 32]) that is lo = s0 | s1 << 32, hi = s2 | s3 << 32.
struct state {
  std::uint64_t lo, hi;
};

// The key as 64-bit words, loaded little-endian (bit i of the key is bit i % 64 of word i / 64)
// and kept complemented, so that the feedback's NAND costs no NOT: ~k ^ (x & y) = k ^ ~(x & y).
template <unsigned KeyWords32>
struct key_words {
  static_assert(KeyWords32 % 2 == 0);
  std::uint64_t k[KeyWords32 / 2];
};

// 32 steps of the feedback into 32-bit word s, whose successors (in state order) are a, b, c,
// with key word k: f = s_0 + s_47 + ~(s_70 s_85) + s_91 + k_i, for 32 consecutive values of
// the step index, less the complement, which the complemented key word supplies. c is the word
// the previous update wrote, so the terms that read it come last: the chain from one update to
// the next is a shift, an OR, the AND and two XORs. The form for 32-bit machines and GPUs,
// where a 64-bit shift costs two or three instructions.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t update32(std::uint32_t s, std::uint32_t k,
                                                         std::uint32_t a, std::uint32_t b,
                                                         std::uint32_t c) {
  const std::uint32_t early = s ^ k ^ (a >> 15 | b << 17);
  std::uint32_t b70 = b >> 6, b85 = b >> 21, b91 = b >> 27;
#if defined(__clang__) && !defined(__CUDA_ARCH__) && (defined(__x86_64__) || defined(__i386__))
#if !__has_feature(memory_sanitizer)
  // Clang merges each pair of shifts into one shld, which lengthens that chain on the x86-64
  // cores measured (P_1024 took 1.15-1.19x as long at clang++ -O2, side by side in one
  // process). The empty asm hides that the shifted halves come from b. MemorySanitizer counts
  // an asm's inputs as used: the constant-time check (tests/constant_time) would report the
  // key-dependent words here, so that build keeps the plain shifts.
  if (!std::is_constant_evaluated()) __asm__("" : "+r"(b70), "+r"(b85), "+r"(b91));
#endif
#endif
  const std::uint32_t t70 = b70 | c << 26, t85 = b85 | c << 11, t91 = b91 | c << 5;
  return (early ^ t91) ^ (t70 & t85);
}

// 64 steps of the feedback into lo, whose successor is hi, with the key word pair k. The taps
// of the first 32 steps all lie in lo and hi; those of the last 32 also read the first new bits
// (s_70 reaches them at step 58, s_85 at 43, s_91 at 37). So x takes every tap from lo and hi,
// which leaves its low half final, and its high half gets what the new bits add: at s_91 they
// fill the bits where hi >> 27 is zero, and at the AND, since hi >> 21 is zero wherever the
// new bits enter s_85's word, (a70 | new << 58) & (b85 | new << 43) differs from a70 & b85 by
// exactly (a70 | new << 58) & new << 43. About half the instructions of two 32-bit updates,
// and the same chain: four operations from hi to x, four from x to the result.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t update64(std::uint64_t lo, std::uint64_t k,
                                                         std::uint64_t hi) {
  const std::uint64_t a70 = hi >> 6, b85 = hi >> 21, c91 = hi >> 27;
  const std::uint64_t x = lo ^ k ^ (lo >> 47 | hi << 17) ^ c91 ^ (a70 & b85);
  return x ^ (x << 37) ^ ((a70 | x << 58) & (x << 43));
}

// Whether P_n runs as 64-bit updates: on 64-bit hosts, not in CUDA device code.
#if !defined(__CUDA_ARCH__) && UINTPTR_MAX > 0xffffffffu
inline constexpr bool wide_updates = true;
#else
inline constexpr bool wide_updates = false;
#endif

// P_n with n = 32 * Words steps. Each update rewrites the oldest word in place, so no word
// moves; the key word of step i is key word (i / 32) mod KeyWords32, restarted at every call.
// Words is a multiple of 4 for every n the mode uses (640, 1024, 1152, 1280).
template <unsigned Words, unsigned KeyWords32, bool Wide = wide_updates>
LWC_HD LWC_ALWAYS_INLINE constexpr void permute(state& st, const key_words<KeyWords32>& key) {
  static_assert(Words % 4 == 0);
  constexpr unsigned pairs = KeyWords32 / 2;
  if constexpr (Wide) {
    std::uint64_t lo = st.lo, hi = st.hi;
    LWC_UNROLL for (unsigned g = 0; g < Words / 4; ++g) {
      lo = update64(lo, key.k[(2 * g + 0) % pairs], hi);
      hi = update64(hi, key.k[(2 * g + 1) % pairs], lo);
    }
    st = state{lo, hi};
  } else {
    // Key word i; after unrolling every i is a constant, so nothing is copied out.
    const auto k32 = [&key](unsigned i) {
      return static_cast<std::uint32_t>(key.k[(i % KeyWords32) / 2] >> (32 * (i % 2)));
    };
    auto s0 = static_cast<std::uint32_t>(st.lo), s1 = static_cast<std::uint32_t>(st.lo >> 32);
    auto s2 = static_cast<std::uint32_t>(st.hi), s3 = static_cast<std::uint32_t>(st.hi >> 32);
    LWC_UNROLL for (unsigned g = 0; g < Words / 4; ++g) {
      s0 = update32(s0, k32(4 * g + 0), s1, s2, s3);
      s1 = update32(s1, k32(4 * g + 1), s2, s3, s0);
      s2 = update32(s2, k32(4 * g + 2), s3, s0, s1);
      s3 = update32(s3, k32(4 * g + 3), s0, s1, s2);
    }
    st = state{s0 | std::uint64_t{s1} << 32, s2 | std::uint64_t{s3} << 32};
  }
}

// The two forms agree, whichever one this build runs: P_640 and the long permutation of each
// key size, from a state and key with a spread of bit patterns.
template <unsigned Words, unsigned KeyWords32>
constexpr bool wide_and_narrow_agree() {
  key_words<KeyWords32> key{};
  for (unsigned i = 0; i < KeyWords32 / 2; ++i) key.k[i] = 0x9e3779b97f4a7c15u * (i + 1);
  state wide{0x0123456789abcdefu, 0xfedcba9876543210u}, narrow = wide;
  permute<Words, KeyWords32, true>(wide, key);
  permute<Words, KeyWords32, false>(narrow, key);
  return wide.lo == narrow.lo && wide.hi == narrow.hi;
}
static_assert(wide_and_narrow_agree<20, 4>() && wide_and_narrow_agree<32, 4>());
static_assert(wide_and_narrow_agree<20, 6>() && wide_and_narrow_agree<36, 6>());
static_assert(wide_and_narrow_agree<20, 8>() && wide_and_narrow_agree<40, 8>());

// Where the mode touches the state, in the specification's 32-bit words: frame bits and a
// short word's byte count into s1, input into s3, keystream and tag from s2.
LWC_HD LWC_ALWAYS_INLINE constexpr void add_to_s1(state& st, std::uint32_t v) {
  st.lo ^= std::uint64_t{v} << 32;
}
LWC_HD LWC_ALWAYS_INLINE constexpr void add_to_s3(state& st, std::uint32_t v) {
  st.hi ^= std::uint64_t{v} << 32;
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t s2(const state& st) {
  return static_cast<std::uint32_t>(st.hi);
}

// Frame bits (section 3.2.2), added to bits 36..38 of the state before each permutation.
inline constexpr std::uint32_t frame_nonce = 0x10;
inline constexpr std::uint32_t frame_ad = 0x30;
inline constexpr std::uint32_t frame_message = 0x50;
inline constexpr std::uint32_t frame_final = 0x70;

// The parameters of one member of the family: P_640 for the nonce and associated data, P_n2
// for the key setup, the message and the first tag word.
template <unsigned KeyBits>
struct params;
template <>
struct params<128> {
  static constexpr unsigned long_words = 32;  // P_1024
};
template <>
struct params<192> {
  static constexpr unsigned long_words = 36;  // P_1152
};
template <>
struct params<256> {
  static constexpr unsigned long_words = 40;  // P_1280
};
inline constexpr unsigned short_words = 20;  // P_640

template <unsigned KeyBits>
struct core {
  static constexpr unsigned key_words_n = KeyBits / 32;
  static constexpr unsigned long_words = params<KeyBits>::long_words;
  using key_type = key_words<key_words_n>;

  LWC_HD static constexpr key_type load_key(const std::uint8_t* key) {
    key_type k{};
    for (unsigned i = 0; i < key_words_n / 2; ++i) k.k[i] = ~load_le64(key + 8 * i);
    return k;
  }

  // Section 3.3.1: the key setup from the zero state, then the nonce one word at a time.
  LWC_HD static constexpr void init(state& st, const key_type& k, const std::uint8_t* nonce) {
    st = state{0, 0};
    permute<long_words>(st, k);
    for (unsigned i = 0; i < 3; ++i) {
      add_to_s1(st, frame_nonce);
      permute<short_words>(st, k);
      add_to_s3(st, load_le32(nonce + 4 * i));
    }
  }

  // Section 3.3.2: a final partial word also adds its byte count to the frame bits.
  LWC_HD static constexpr void absorb_ad(state& st, const key_type& k, const std::uint8_t* ad,
                                         std::size_t n) {
    for (; n >= 4; n -= 4, ad += 4) {
      add_to_s1(st, frame_ad);
      permute<short_words>(st, k);
      add_to_s3(st, load_le32(ad));
    }
    if (n != 0) {
      add_to_s1(st, frame_ad);
      permute<short_words>(st, k);
      add_to_s3(st, static_cast<std::uint32_t>(load_le(ad, n)));
      add_to_s1(st, static_cast<std::uint32_t>(n));
    }
  }

  // Section 3.3.3: the plaintext word enters bits 96..127, the keystream is bits 64..95.
  // Words are read before they are written, so in == out is allowed.
  template <bool Decrypt>
  LWC_HD static constexpr void crypt(state& st, const key_type& k, const std::uint8_t* in,
                                     std::size_t n, std::uint8_t* out) {
    state s = st;  // a local copy: stores through out could alias the caller's state
    for (; n >= 4; n -= 4, in += 4, out += 4) {
      add_to_s1(s, frame_message);
      permute<long_words>(s, k);
      const std::uint32_t x = load_le32(in);
      const std::uint32_t m = Decrypt ? x ^ s2(s) : x;
      add_to_s3(s, m);
      store_le32(out, x ^ s2(s));
    }
    if (n != 0) {
      add_to_s1(s, frame_message);
      permute<long_words>(s, k);
      const std::uint32_t keep = 0xffffffffu >> (32 - 8 * n);
      const auto x = static_cast<std::uint32_t>(load_le(in, n));
      const std::uint32_t m = (Decrypt ? x ^ s2(s) : x) & keep;
      add_to_s3(s, m);
      add_to_s1(s, static_cast<std::uint32_t>(n));
      store_le(out, x ^ s2(s), n);
    }
    st = s;
    wipe_object(s);
  }

  // Section 3.3.4: two more permutations, each giving one tag word.
  LWC_HD static constexpr void finish(state& st, const key_type& k, std::uint8_t* tag) {
    add_to_s1(st, frame_final);
    permute<long_words>(st, k);
    store_le32(tag, s2(st));
    add_to_s1(st, frame_final);
    permute<short_words>(st, k);
    store_le32(tag + 4, s2(st));
  }
};

}  // namespace detail

template <unsigned KeyBits, class Self>
struct tinyjambu_aead : ::lwc::detail::aead_span_forms<Self, KeyBits / 8, 12, 8> {
  using span_forms = ::lwc::detail::aead_span_forms<Self, KeyBits / 8, 12, 8>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = KeyBits / 8;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 12;
  static constexpr std::size_t tag_size = 8;
  static constexpr std::size_t min_tag_size = 8;  // the specification defines no truncation
  static constexpr std::size_t block_size = 4;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. A word
  // that is not yet complete is held: its keystream is known once its permutation has run,
  // but whether it ends short (and adds its byte count to the frame bits) is known only when
  // more input or finalize comes.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
    using core = detail::core<KeyBits>;

   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: TinyJAMBU has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "tinyjambu takes no second key");
      k_ = core::load_key(key);
      core::init(s_, k_, nonce);
    }
    LWC_HD constexpr ~encryptor() { wipe(); }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      for (; n != 0 && held_ != 0; --n, ++ad) hold(*ad);
      const std::size_t whole = n & ~std::size_t{3};
      core::absorb_ad(s_, k_, ad, whole);
      for (ad += whole, n -= whole; n != 0; --n, ++ad) hold(*ad);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      while (n != 0) {
        if (held_ == 0 && n >= 4) {  // whole words straight through the core
          const std::size_t whole = n & ~std::size_t{3};
          core::template crypt<false>(s_, k_, in, whole, out);
          in += whole;
          out += whole;
          n -= whole;
          continue;
        }
        if (held_ == 0) {  // a word begins: its keystream
          detail::add_to_s1(s_, detail::frame_message);
          detail::permute<core::long_words>(s_, k_);
        }
        const std::uint32_t x = *in++;
        *out++ = static_cast<std::uint8_t>(x ^ (detail::s2(s_) >> (8 * held_)));
        word_ |= x << (8 * held_);
        --n;
        if (++held_ == 4) {
          detail::add_to_s3(s_, word_);
          word_ = 0;
          held_ = 0;
        }
      }
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "tinyjambu tags are 8 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      if (held_ != 0) {  // the short last word: its bytes, then its byte count
        detail::add_to_s3(s_, word_);
        detail::add_to_s1(s_, static_cast<std::uint32_t>(held_));
      }
      core::finish(s_, k_, tag);
      // Nothing may follow the tag: the key and state go now.
      wipe();
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    // One byte of associated data into the held word; a completed word goes to the core.
    LWC_HD constexpr void hold(std::uint8_t b) {
      word_ |= std::uint32_t{b} << (8 * held_);
      if (++held_ == 4) absorb_held_ad();
    }
    LWC_HD constexpr void absorb_held_ad() {
      std::uint8_t bytes[4]{};
      store_le32(bytes, word_);
      core::absorb_ad(s_, k_, bytes, held_);
      wipe_object(bytes);
      word_ = 0;
      held_ = 0;
    }
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      if (held_ != 0) absorb_held_ad();
      phase_ = phase::message;
    }
    LWC_HD constexpr void wipe() {
      wipe_object(s_);
      wipe_object(k_);
      wipe_object(word_);
    }

    detail::state s_{};
    typename core::key_type k_{};
    std::uint32_t word_ = 0;  // the held bytes, little-endian
    std::size_t held_ = 0;
    phase phase_ = phase::ad;
  };

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "tinyjambu tags are 8 bytes");
    LWC_REQUIRE(second_key == nullptr, "tinyjambu takes no second key");
    using core = detail::core<KeyBits>;
    auto k = core::load_key(key);
    detail::state s{};
    core::init(s, k, nonce);
    core::absorb_ad(s, k, ad, ad_len);
    core::template crypt<false>(s, k, pt, pt_len, ct);
    core::finish(s, k, tag);
    wipe_object(s);
    wipe_object(k);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "tinyjambu tags are 8 bytes");
    LWC_REQUIRE(second_key == nullptr, "tinyjambu takes no second key");
    using core = detail::core<KeyBits>;
    auto k = core::load_key(key);
    detail::state s{};
    core::init(s, k, nonce);
    core::absorb_ad(s, k, ad, ad_len);
    core::template crypt<true>(s, k, ct, ct_len, pt);
    std::uint8_t expected[tag_size]{};
    core::finish(s, k, expected);
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
    wipe_object(k);
    return ok;
  }
};

// TinyJAMBU with a 128-, 192- or 256-bit key: 12-byte nonce, 8-byte tag.
struct tinyjambu128 : tinyjambu_aead<128, tinyjambu128> {
  static constexpr std::string_view name = "tinyjambu-128";
};
struct tinyjambu192 : tinyjambu_aead<192, tinyjambu192> {
  static constexpr std::string_view name = "tinyjambu-192";
};
struct tinyjambu256 : tinyjambu_aead<256, tinyjambu256> {
  static constexpr std::string_view name = "tinyjambu-256";
};

}  // namespace lwc::tinyjambu
