// SPDX-License-Identifier: MIT OR Apache-2.0
// ISAP v2.0 (NIST LWC final round, "ISAP v2.0", Dobraunig, Eichlseder, Mangard, Mendel,
// Mennink, Primas, Unterluggauer, 2021, section 2): ISAP-A-128A and ISAP-A-128 over Ascon-p
// (big-endian lanes), ISAP-K-128A and ISAP-K-128 over Keccak-p[400]; 128-bit key, nonce, tag.
//
// Never encrypt two messages under one key with the same nonce. Decryption is one-shot: the
// tag over the ciphertext is checked in constant time, the ciphertext is decrypted either way,
// and on failure the output is all zeros. ISAP's re-keying makes side-channel leakage harder
// to exploit; that property belongs to the mode, and this portable code is not hardened
// beyond being constant time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../ascon/permutation.hpp"
#include "../common/aead_span_forms.hpp"
#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/encryptor_calls.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "implementation.hpp"
#include "keccak_p400.hpp"

namespace lwc::isap {

namespace detail {

// ISAP-A: the 320-bit Ascon state with the byte order of the ISAP specification (and Ascon
// v1.2): byte i of the state is byte i % 8 of word i / 8, most significant first.
struct ascon_state_ops {
  using state = ::lwc::ascon::state;
  using lanes = ::lwc::ascon::big_endian_lanes;
  static constexpr std::size_t rate = 8;  // r_H = 64 bits
  static constexpr unsigned rate_bits = 64;
  static constexpr bool has_avx512 = false;

  template <int Rounds>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void permute(state& s) {
    ::lwc::ascon::permute<Rounds>(s);
  }
  // state = first (16 bytes) || iv (8 bytes) || 0
  LWC_HD static constexpr void init(state& s, const std::uint8_t* first, std::uint64_t iv) {
    s = state{{lanes::load(first), lanes::load(first + 8), iv, 0, 0}};
  }
  // XORs a bit into the most significant bit of byte 0.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void add_bit(state& s, std::uint64_t bit) {
    s.x[0] ^= bit << 63;
  }
  LWC_HD static constexpr void xor_byte(state& s, std::size_t i, std::uint8_t b) {
    s.x[0] ^= std::uint64_t{b} << lanes::shift(i);
  }
  LWC_HD static constexpr std::uint8_t get_byte(const state& s, std::size_t i) {
    return static_cast<std::uint8_t>(s.x[0] >> lanes::shift(i));
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void xor_block(state& s, const std::uint8_t* in) {
    s.x[0] ^= lanes::load(in);
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void crypt_block(const state& s, const std::uint8_t* in,
                                                             std::uint8_t* out) {
    lanes::store(out, lanes::load(in) ^ s.x[0]);
  }
  LWC_HD static constexpr void domain_separate(state& s) { s.x[4] ^= 1; }
  LWC_HD static constexpr void first16(const state& s, std::uint8_t* out) {
    lanes::store(out, s.x[0]);
    lanes::store(out + 8, s.x[1]);
  }
  LWC_HD static constexpr void copy_first16(state& s, const state& from) {
    s.x[0] = from.x[0];
    s.x[1] = from.x[1];
  }
  LWC_HD static constexpr void set_last16(state& s, const std::uint8_t* n) {
    s.x[3] = lanes::load(n);
    s.x[4] = lanes::load(n + 8);
  }
};

LWC_HD constexpr std::uint16_t load_le16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

// ISAP-K: the 400-bit Keccak state, byte 2i + b is byte b (little endian) of lane i.
struct keccak_state_ops {
  using state = ::lwc::isap::keccak::state;
  static constexpr std::size_t rate = 18;  // r_H = 144 bits
  static constexpr unsigned rate_bits = 144;
  static constexpr bool has_avx512 = LWC_X86_DISPATCH;

  template <int Rounds>
  LWC_HD LWC_ALWAYS_INLINE static constexpr void permute(state& s) {
#if LWC_X86_DISPATCH
    if (!std::is_constant_evaluated() && use_avx512()) {
      ::lwc::isap::keccak::detail::avx512::permute<Rounds>(s);
      return;
    }
#endif
    ::lwc::isap::keccak::permute<Rounds>(s);
  }
  LWC_HD static constexpr void init(state& s, const std::uint8_t* first, std::uint64_t iv) {
    s = state{};
    for (int i = 0; i < 8; ++i) s.a[i] = load_le16(first + 2 * i);
    for (int i = 0; i < 4; ++i)  // the IV's bytes in order: most significant first
      s.a[8 + i] = static_cast<std::uint16_t>(((iv >> (56 - 16 * i)) & 0xff) |
                                              (((iv >> (48 - 16 * i)) & 0xff) << 8));
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void add_bit(state& s, std::uint64_t bit) {
    s.a[0] = static_cast<std::uint16_t>(s.a[0] ^ (bit << 7));
  }
  LWC_HD static constexpr void xor_byte(state& s, std::size_t i, std::uint8_t b) {
    s.a[i / 2] = static_cast<std::uint16_t>(s.a[i / 2] ^ (b << (8 * (i % 2))));
  }
  LWC_HD static constexpr std::uint8_t get_byte(const state& s, std::size_t i) {
    return static_cast<std::uint8_t>(s.a[i / 2] >> (8 * (i % 2)));
  }
  // Lanes 4w .. 4w+3 as one little-endian word.
  LWC_HD LWC_ALWAYS_INLINE static constexpr std::uint64_t word(const state& s, int w) {
    return std::uint64_t{s.a[4 * w]} | std::uint64_t{s.a[4 * w + 1]} << 16 |
           std::uint64_t{s.a[4 * w + 2]} << 32 | std::uint64_t{s.a[4 * w + 3]} << 48;
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void xor_word(state& s, int w, std::uint64_t x) {
    for (int i = 0; i < 4; ++i)
      s.a[4 * w + i] = static_cast<std::uint16_t>(s.a[4 * w + i] ^ (x >> (16 * i)));
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void xor_block(state& s, const std::uint8_t* in) {
    xor_word(s, 0, load_le64(in));
    xor_word(s, 1, load_le64(in + 8));
    s.a[8] = static_cast<std::uint16_t>(s.a[8] ^ load_le16(in + 16));
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void crypt_block(const state& s, const std::uint8_t* in,
                                                             std::uint8_t* out) {
    const std::uint64_t x0 = load_le64(in), x1 = load_le64(in + 8);
    const std::uint16_t x2 = load_le16(in + 16);
    store_le64(out, x0 ^ word(s, 0));
    store_le64(out + 8, x1 ^ word(s, 1));
    const std::uint16_t o2 = static_cast<std::uint16_t>(x2 ^ s.a[8]);
    out[16] = static_cast<std::uint8_t>(o2);
    out[17] = static_cast<std::uint8_t>(o2 >> 8);
  }
  LWC_HD static constexpr void domain_separate(state& s) {
    s.a[24] = static_cast<std::uint16_t>(s.a[24] ^ 0x100);  // byte 49
  }
  LWC_HD static constexpr void first16(const state& s, std::uint8_t* out) {
    store_le64(out, word(s, 0));
    store_le64(out + 8, word(s, 1));
  }
  LWC_HD static constexpr void copy_first16(state& s, const state& from) {
    for (int i = 0; i < 8; ++i) s.a[i] = from.a[i];
  }
  LWC_HD static constexpr void set_last16(state& s, const std::uint8_t* n) {  // bytes 34..49
    for (int i = 0; i < 8; ++i) s.a[17 + i] = load_le16(n + 2 * i);
  }

#if LWC_X86_DISPATCH
  // The mode's loops with the state in one AVX-512 register throughout; the rate (18 bytes,
  // lanes 0..8) is loaded and stored with word masks.
  template <int Rounds>
  LWC_KECCAK_AVX512_TARGET static void stream_avx512(state& st, const std::uint8_t* in,
                                                     std::size_t n, std::uint8_t* out) {
    namespace k = ::lwc::isap::keccak::detail::avx512;
    __m512i a = k::load_state(st);
    for (; n != 0; n -= rate, in += rate, out += rate) {
      a = k::permute<Rounds>(a);
      const __m512i x = _mm512_maskz_loadu_epi16(0x1ff, in);
      _mm512_mask_storeu_epi16(out, 0x1ff, _mm512_xor_si512(x, a));
    }
    k::store_state(st, a);
  }
  template <int Rounds>
  LWC_KECCAK_AVX512_TARGET static void absorb_avx512(state& st, const std::uint8_t* in,
                                                     std::size_t n) {
    namespace k = ::lwc::isap::keccak::detail::avx512;
    __m512i a = k::load_state(st);
    for (; n != 0; n -= rate, in += rate)
      a = k::permute<Rounds>(_mm512_xor_si512(a, _mm512_maskz_loadu_epi16(0x1ff, in)));
    k::store_state(st, a);
  }
  // The re-keying after its initial state: s_K rounds, the bits of y, s_K rounds.
  template <int SB, int SK>
  LWC_KECCAK_AVX512_TARGET static void rekey_avx512(state& st, const std::uint8_t* y) {
    namespace k = ::lwc::isap::keccak::detail::avx512;
    __m512i a = k::permute<SK>(k::load_state(st));
    std::uint64_t y0 = load_be64(y), y1 = load_be64(y + 8);
    for (int i = 0; i < 128; ++i) {
      const std::uint64_t bit = (i < 64 ? y0 : y1) >> 63;
      a = _mm512_xor_si512(a, _mm512_maskz_set1_epi16(1, static_cast<short>(bit << 7)));
      if (i < 64)
        y0 <<= 1;
      else
        y1 <<= 1;
      if (i < 127) a = k::permute<SB>(a);
    }
    k::store_state(st, k::permute<SK>(a));
    wipe_object(y0);
    wipe_object(y1);
  }
#endif
};

// The ISAP mode over one of the state types, with the round numbers of a parameter set:
// s_H (hashing), s_B (one re-keying bit), s_E (keystream), s_K (re-keying initialisation).
template <class Ops, int SH, int SB, int SE, int SK>
struct mode {
  using state = typename Ops::state;
  static constexpr std::size_t rate = Ops::rate;
  static constexpr int hash_rounds = SH;    // s_H: the MAC sponge
  static constexpr int bit_rounds = SB;     // s_B: after each re-keying bit
  static constexpr int stream_rounds = SE;  // s_E: before each keystream block
  static constexpr int key_rounds = SK;     // s_K: around the re-keying bits

  // IV_A, IV_KA, IV_KE: an identifier, k = 128, r_H, r_B = 1 and the four round numbers.
  LWC_HD static constexpr std::uint64_t iv(unsigned id) {
    return std::uint64_t{id} << 56 | std::uint64_t{128} << 48 |
           std::uint64_t{Ops::rate_bits} << 40 | std::uint64_t{1} << 32 | std::uint64_t{SH} << 24 |
           std::uint64_t{SB} << 16 | std::uint64_t{SE} << 8 | std::uint64_t{SK};
  }
  static constexpr unsigned id_a = 1, id_ka = 2, id_ke = 3;

  // IsapRk: the key and IV, then the 128 bits of y one at a time (most significant bit of
  // each byte first), s_B rounds after each but the last, s_K after that. The loop runs the
  // same 128 times whatever the bits are.
  LWC_HD static constexpr void rekey(state& s, const std::uint8_t* key, unsigned id,
                                     const std::uint8_t* y) {
#if LWC_X86_DISPATCH
    if constexpr (Ops::has_avx512) {
      if (!std::is_constant_evaluated() && use_avx512()) {
        Ops::init(s, key, iv(id));
        Ops::template rekey_avx512<SB, SK>(s, y);
        return;
      }
    }
    if (!std::is_constant_evaluated() && use_bmi2()) {
      rekey_bmi2(s, key, id, y);
      return;
    }
#endif
    rekey_loop(s, key, id, y);
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void rekey_loop(state& s, const std::uint8_t* key,
                                                            unsigned id, const std::uint8_t* y) {
    Ops::init(s, key, iv(id));
    Ops::template permute<SK>(s);
    std::uint64_t y0 = load_be64(y), y1 = load_be64(y + 8);
    for (int i = 0; i < 64; ++i, y0 <<= 1) {
      Ops::add_bit(s, y0 >> 63);
      Ops::template permute<SB>(s);
    }
    for (int i = 0; i < 63; ++i, y1 <<= 1) {
      Ops::add_bit(s, y1 >> 63);
      Ops::template permute<SB>(s);
    }
    Ops::add_bit(s, y1 >> 63);
    Ops::template permute<SK>(s);
    wipe_object(y0);
    wipe_object(y1);
  }
#if LWC_X86_DISPATCH
  LWC_TARGET_BMI1_BMI2 static void rekey_bmi2(state& s, const std::uint8_t* key, unsigned id,
                                              const std::uint8_t* y) {
    rekey_loop(s, key, id, y);
  }
#endif

  // IsapEnc state: the re-keyed state with the nonce in its last 16 bytes.
  LWC_HD static constexpr void start_keystream(state& s, const std::uint8_t* key,
                                               const std::uint8_t* nonce) {
    rekey(s, key, id_ke, nonce);
    Ops::set_last16(s, nonce);
  }

  // n bytes of keystream XORed onto in; pos == rate means a permutation is due first.
  LWC_HD static constexpr void stream(state& s, std::size_t& pos, const std::uint8_t* in,
                                      std::size_t n, std::uint8_t* out) {
    for (; n != 0 && pos != rate; --n)
      *out++ = static_cast<std::uint8_t>(*in++ ^ Ops::get_byte(s, pos++));
    if (n >= rate) {
      const std::size_t full = n - n % rate;
#if LWC_X86_DISPATCH
      if (!std::is_constant_evaluated() && Ops::has_avx512 && use_avx512())
        stream_avx512(s, in, full, out);
      else if (!std::is_constant_evaluated() && use_bmi2())
        stream_blocks_bmi2(s, in, full, out);
      else
#endif
        stream_blocks(s, in, full, out);
      in += full;
      out += full;
      n -= full;
    }
    if (n == 0) return;
    Ops::template permute<SE>(s);
    for (pos = 0; n != 0; --n) *out++ = static_cast<std::uint8_t>(*in++ ^ Ops::get_byte(s, pos++));
  }
  // Whole blocks (n a multiple of the rate); the state in locals.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void stream_blocks(state& st, const std::uint8_t* in,
                                                               std::size_t n, std::uint8_t* out) {
    state s = st;
    for (; n != 0; n -= rate, in += rate, out += rate) {
      Ops::template permute<SE>(s);
      Ops::crypt_block(s, in, out);
    }
    st = s;
    wipe_object(s);
  }
#if LWC_X86_DISPATCH
  static void stream_avx512(state& s, const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
    if constexpr (Ops::has_avx512) Ops::template stream_avx512<SE>(s, in, n, out);
  }
  static void absorb_avx512(state& s, const std::uint8_t* in, std::size_t n) {
    if constexpr (Ops::has_avx512) Ops::template absorb_avx512<SH>(s, in, n);
  }
  LWC_TARGET_BMI1_BMI2 static void stream_blocks_bmi2(state& s, const std::uint8_t* in,
                                                      std::size_t n, std::uint8_t* out) {
    stream_blocks(s, in, n, out);
  }
#endif

  // IsapMac absorption: a permutation after every full block; pos < rate always.
  LWC_HD static constexpr void absorb(state& s, std::size_t& pos, const std::uint8_t* in,
                                      std::size_t n) {
    for (; pos != 0 && n != 0; --n) {
      Ops::xor_byte(s, pos, *in++);
      if (++pos == rate) {
        Ops::template permute<SH>(s);
        pos = 0;
      }
    }
    if (n >= rate) {
      const std::size_t full = n - n % rate;
#if LWC_X86_DISPATCH
      if (!std::is_constant_evaluated() && Ops::has_avx512 && use_avx512())
        absorb_avx512(s, in, full);
      else if (!std::is_constant_evaluated() && use_bmi2())
        absorb_blocks_bmi2(s, in, full);
      else
#endif
        absorb_blocks(s, in, full);
      in += full;
      n -= full;
    }
    for (; n != 0; --n) Ops::xor_byte(s, pos++, *in++);
  }
  LWC_HD LWC_ALWAYS_INLINE static constexpr void absorb_blocks(state& st, const std::uint8_t* in,
                                                               std::size_t n) {
    state s = st;
    for (; n != 0; n -= rate, in += rate) {
      Ops::xor_block(s, in);
      Ops::template permute<SH>(s);
    }
    st = s;
    wipe_object(s);
  }
#if LWC_X86_DISPATCH
  LWC_TARGET_BMI1_BMI2 static void absorb_blocks_bmi2(state& s, const std::uint8_t* in,
                                                      std::size_t n) {
    absorb_blocks(s, in, n);
  }
#endif

  // 0x80 padding (always at least one byte) and the permutation that ends a padded input.
  LWC_HD static constexpr void pad(state& s, std::size_t& pos) {
    Ops::xor_byte(s, pos, 0x80);
    Ops::template permute<SH>(s);
    pos = 0;
  }

  LWC_HD static constexpr void domain_separate(state& s) { Ops::domain_separate(s); }

  LWC_HD static constexpr void mac_init(state& s, const std::uint8_t* nonce) {
    Ops::init(s, nonce, iv(id_a));
    Ops::template permute<SH>(s);
  }
  // After AD and ciphertext: y, the re-keyed K_A*, and the tag.
  LWC_HD static constexpr void mac_finish(state& s, const std::uint8_t* key, std::uint8_t* tag) {
    std::uint8_t y[16]{};
    Ops::first16(s, y);
    state k{};
    rekey(k, key, id_ka, y);
    Ops::copy_first16(s, k);
    Ops::template permute<SH>(s);
    Ops::first16(s, tag);
    wipe_object(y);
    wipe_object(k);
  }

  LWC_HD static constexpr void mac(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* ct, std::size_t ct_len, std::uint8_t* tag) {
    state s{};
    std::size_t pos = 0;
    mac_init(s, nonce);
    absorb(s, pos, ad, ad_len);
    pad(s, pos);
    domain_separate(s);
    absorb(s, pos, ct, ct_len);
    pad(s, pos);
    mac_finish(s, key, tag);
    wipe_object(s);
  }

  // The whole message through the keystream (nothing for an empty message).
  LWC_HD static constexpr void crypt(const std::uint8_t* key, const std::uint8_t* nonce,
                                     const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
    if (n == 0) return;
    state s{};
    std::size_t pos = rate;
    start_keystream(s, key, nonce);
    stream(s, pos, in, n, out);
    wipe_object(s);
  }
};

}  // namespace detail

template <class Mode>
class aead_algorithm : public ::lwc::detail::aead_span_forms<aead_algorithm<Mode>, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<aead_algorithm<Mode>, 16, 16, 16>;
  using state = typename Mode::state;

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
  static constexpr std::size_t block_size = Mode::rate;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. The key
  // is kept until finalize: the tag needs one more re-keying.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: ISAP has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "ISAP takes no second key");
      for (int i = 0; i < 16; ++i) {
        key_[i] = key[i];
        nonce_[i] = nonce[i];
      }
      Mode::mac_init(mac_, nonce);
    }
    LWC_HD constexpr ~encryptor() {
      wipe_object(mac_);
      wipe_object(enc_);
      wipe_object(key_);
    }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      Mode::absorb(mac_, mac_pos_, ad, n);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      if (n == 0) return;
      if (!keystream_started_) {
        Mode::start_keystream(enc_, key_, nonce_);
        keystream_started_ = true;
      }
      Mode::stream(enc_, enc_pos_, in, n, out);
      Mode::absorb(mac_, mac_pos_, out, n);
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "ISAP tags are 16 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      Mode::pad(mac_, mac_pos_);
      Mode::mac_finish(mac_, key_, tag);
      // Nothing may follow the tag: the key and states go now, not at destruction.
      wipe_object(mac_);
      wipe_object(enc_);
      wipe_object(key_);
      wipe_object(nonce_);
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      Mode::pad(mac_, mac_pos_);
      Mode::domain_separate(mac_);
      phase_ = phase::message;
    }

    state mac_{};
    state enc_{};
    std::uint8_t key_[16]{};
    std::uint8_t nonce_[16]{};
    std::size_t mac_pos_ = 0;
    std::size_t enc_pos_ = Mode::rate;
    phase phase_ = phase::ad;
    bool keystream_started_ = false;
  };

  // ---- one-shot, detached tag (the registry's entry points) --------------------------------

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "ISAP tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "ISAP takes no second key");
    Mode::crypt(key, nonce, pt, pt_len, ct);
    Mode::mac(key, nonce, ad, ad_len, ct, pt_len, tag);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "ISAP tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "ISAP takes no second key");
    std::uint8_t expected[tag_size]{};
    Mode::mac(key, nonce, ad, ad_len, ct, ct_len, expected);  // before pt may overwrite ct
    const bool ok = ct_equal(expected, tag, tag_len);
    Mode::crypt(key, nonce, ct, ct_len, pt);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    return ok;
  }
};

namespace detail {
using a128a_mode = mode<ascon_state_ops, 12, 1, 6, 12>;
using k128a_mode = mode<keccak_state_ops, 16, 1, 8, 8>;
using a128_mode = mode<ascon_state_ops, 12, 12, 12, 12>;
using k128_mode = mode<keccak_state_ops, 20, 12, 12, 12>;
}  // namespace detail

// Each AEAD is its own class (not an alias) so that error messages and the registry name it.
struct isap_a_128a : aead_algorithm<detail::a128a_mode> {
  static constexpr std::string_view name = "isap-a-128a";
};
struct isap_k_128a : aead_algorithm<detail::k128a_mode> {
  static constexpr std::string_view name = "isap-k-128a";
};
struct isap_a_128 : aead_algorithm<detail::a128_mode> {
  static constexpr std::string_view name = "isap-a-128";
};
struct isap_k_128 : aead_algorithm<detail::k128_mode> {
  static constexpr std::string_view name = "isap-k-128";
};

}  // namespace lwc::isap
