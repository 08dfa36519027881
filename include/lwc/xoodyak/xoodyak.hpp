// SPDX-License-Identifier: MIT OR Apache-2.0
// Xoodyak, AEAD (128-bit key, nonce and tag) and 256-bit hash, as in the final-round NIST LWC
// submission "Xoodyak, a lightweight cryptographic scheme" (v2.0, 2021): Cyclist (Algorithm 1)
// on Xoodoo[12]; the AEAD keys Cyclist with K and id = N, then Absorb(A), Encrypt(P),
// Squeeze(16); the hash is Absorb(M), Squeeze(32) in hash mode.
//
// Never encrypt two messages under one key with the same nonce: it leaks the XOR of the first
// plaintext blocks where the two messages differ. Decryption is one-shot: the tag is checked in
// constant time before anything is returned, and on failure the output is all zeros.
//
// On x86-64 CPUs with BMI1/BMI2 the host calls run a copy compiled for those extensions (andn,
// rorx), picked at run time; LWC_FORCE_PORTABLE=1 in the environment or
// lwc::xoodyak::force_portable(true) selects the portable code.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../common/aead_span_forms.hpp"
#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"
#include "../common/encryptor_calls.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "xoodoo.hpp"

namespace lwc::xoodyak {

enum class implementation : int { portable = 1, bmi2 = 2 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_X86_DISPATCH
  if (::lwc::detail::cpu_has_bmi1_bmi2()) return implementation::bmi2;
#endif
  return implementation::portable;
}
using path = ::lwc::detail::code_path<implementation, fastest_implementation>;
}  // namespace detail

// The fastest path this CPU supports, unless the environment variable LWC_FORCE_PORTABLE is 1.
inline implementation default_implementation() { return detail::path::default_path(); }

// The path the host functions use: default_implementation() unless force_portable(true).
inline implementation active_implementation() { return detail::path::active(); }

// Tests use this to run both paths; false goes back to default_implementation().
inline void force_portable(bool on) { detail::path::force_portable(on); }

namespace detail {

inline bool use_bmi2() { return active_implementation() == implementation::bmi2; }

// Cyclist's rates for Xoodoo: hash-mode absorb and squeeze, keyed absorb, keyed squeeze.
inline constexpr std::size_t rate_hash = 16;
inline constexpr std::size_t rate_kin = 44;
inline constexpr std::size_t rate_kout = 24;

// Cyclist's domain bytes, added to the last byte of the state (the top byte of lane 11).
inline constexpr std::uint32_t cd_absorb = 0x03, cd_key = 0x02;
inline constexpr std::uint32_t cu_crypt = 0x80, cu_squeeze = 0x40;
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t last_byte(std::uint32_t c) { return c << 24; }

// N lanes from 4N bytes, two at a time through one 64-bit little-endian load where possible.
template <std::size_t N>
LWC_HD LWC_ALWAYS_INLINE constexpr void load_lanes(std::uint32_t (&w)[N], const std::uint8_t* p) {
  LWC_UNROLL for (std::size_t i = 0; i + 1 < N; i += 2) {
    const std::uint64_t x = load_le64(p + 4 * i);
    w[i] = static_cast<std::uint32_t>(x);
    w[i + 1] = static_cast<std::uint32_t>(x >> 32);
  }
  if constexpr (N % 2 == 1) w[N - 1] = load_le32(p + 4 * (N - 1));
}
template <std::size_t N>
LWC_HD LWC_ALWAYS_INLINE constexpr void store_lanes(std::uint8_t* p, const std::uint32_t (&w)[N]) {
  LWC_UNROLL for (std::size_t i = 0; i + 1 < N; i += 2)
    store_le64(p + 4 * i, std::uint64_t{w[i]} | std::uint64_t{w[i + 1]} << 32);
  if constexpr (N % 2 == 1) store_le32(p + 4 * (N - 1), w[N - 1]);
}

// Up to 3 bytes as the low bytes of a little-endian lane.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t load_tail(const std::uint8_t* p, std::size_t n) {
  std::uint32_t w = 0;
  for (std::size_t i = 0; i < n; ++i) w |= std::uint32_t{p[i]} << (8 * i);
  return w;
}
LWC_HD LWC_ALWAYS_INLINE constexpr void store_tail(std::uint8_t* p, std::uint32_t w,
                                                   std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(w >> (8 * i));
}

// Down's data part: n (< 48) bytes XORed into the state from its first byte.
LWC_HD LWC_ALWAYS_INLINE constexpr void add_bytes(state& s, const std::uint8_t* in,
                                                 std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) s.a[i / 4] ^= load_le32(in + i);
  if (n % 4 != 0) s.a[i / 4] ^= load_tail(in + i, n % 4);
}

enum class direction : std::uint8_t { encrypt, decrypt };

// One block of Crypt after its Up: out = in ^ state, and the plaintext is XORed into the state
// (Down), which leaves the ciphertext there. n <= 24; the caller adds the padding.
template <direction Dir>
LWC_HD LWC_ALWAYS_INLINE constexpr void crypt_bytes(state& s, const std::uint8_t* in,
                                                    std::size_t n, std::uint8_t* out) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const std::uint32_t x = load_le32(in + i), y = x ^ s.a[i / 4];
    s.a[i / 4] = Dir == direction::encrypt ? y : x;
    store_le32(out + i, y);
  }
  if (n % 4 != 0) {
    const std::uint32_t mask = (std::uint32_t{1} << (8 * (n % 4))) - 1;
    const std::uint32_t x = load_tail(in + i, n % 4), y = (x ^ s.a[i / 4]) & mask;
    s.a[i / 4] ^= Dir == direction::encrypt ? x : y;
    store_tail(out + i, y, n % 4);
  }
}

// Cyclist(K, id = N, empty) then Absorb(A). The key block K || N || 16 is one Down with domain
// byte 0x02; every Absorb block, the empty one included, is an Up without output and a Down,
// and only the first carries the absorb domain byte.
LWC_HD LWC_ALWAYS_INLINE constexpr void start(state& s, const std::uint8_t* key,
                                             const std::uint8_t* nonce, const std::uint8_t* ad,
                                             std::size_t ad_len) {
  std::uint32_t k[4]{}, n[4]{};
  load_lanes(k, key);
  load_lanes(n, nonce);
  s = state{{k[0], k[1], k[2], k[3], n[0], n[1], n[2], n[3], 0x10 | 0x01 << 8, 0, 0,
             last_byte(cd_key)}};
  wipe_object(k);
  std::uint32_t cd = last_byte(cd_absorb);
  bool first = true;
  for (; ad_len >= rate_kin; ad_len -= rate_kin, ad += rate_kin) {
    permute(s);
    std::uint32_t w[11]{};
    load_lanes(w, ad);
    LWC_UNROLL for (int i = 0; i < 11; ++i) s.a[i] ^= w[i];
    s.a[11] ^= 0x01 ^ cd;
    cd = 0;
    first = false;
  }
  if (ad_len != 0 || first) {
    permute(s);
    add_bytes(s, ad, ad_len);
    add_byte(s, 0x01, ad_len);
    s.a[11] ^= cd;
  }
}

// Crypt: one block per Up (the first with domain byte 0x80), at least one block.
template <direction Dir>
LWC_HD LWC_ALWAYS_INLINE constexpr void crypt(state& s_, const std::uint8_t* in, std::size_t len,
                                             std::uint8_t* out) {
  // A local copy: stores through `out` may alias the caller's state, which would pin it to
  // memory.
  state s = s_;
  std::uint32_t cu = last_byte(cu_crypt);
  bool first = true;
  for (; len >= rate_kout; len -= rate_kout, in += rate_kout, out += rate_kout) {
    s.a[11] ^= cu;
    permute(s);
    std::uint32_t x[6]{}, y[6]{};
    load_lanes(x, in);
    LWC_UNROLL for (int i = 0; i < 6; ++i) {
      y[i] = x[i] ^ s.a[i];
      s.a[i] = Dir == direction::encrypt ? y[i] : x[i];
    }
    s.a[6] ^= 0x01;
    store_lanes(out, y);
    cu = 0;
    first = false;
  }
  if (len != 0 || first) {
    s.a[11] ^= cu;
    permute(s);
    crypt_bytes<Dir>(s, in, len, out);
    add_byte(s, 0x01, len);
  }
  s_ = s;
  wipe_object(s);
}

// Squeeze(16): one Up with domain byte 0x40.
LWC_HD LWC_ALWAYS_INLINE constexpr void squeeze_tag(state& s, std::uint8_t* tag) {
  s.a[11] ^= last_byte(cu_squeeze);
  permute(s);
  std::uint32_t t[4] = {s.a[0], s.a[1], s.a[2], s.a[3]};
  store_lanes(tag, t);
  wipe_object(t);
}

// The whole AEAD operation; decryption writes the tag it expects.
// Every step is always inline: Clang does not inline the baseline-target steps into the BMI1/
// BMI2 copy below (flatten or not), which then called them out of line, without andn or rorx
// and with the state in memory.
template <direction Dir>
LWC_HD LWC_ALWAYS_INLINE constexpr void run(const std::uint8_t* key, const std::uint8_t* nonce,
                                            const std::uint8_t* ad, std::size_t ad_len,
                                            const std::uint8_t* in, std::size_t len,
                                            std::uint8_t* out, std::uint8_t* tag) {
  state s{};
  start(s, key, nonce, ad, ad_len);
  crypt<Dir>(s, in, len, out);
  squeeze_tag(s, tag);
  wipe_object(s);
}

#if LWC_X86_DISPATCH
template <direction Dir>
LWC_TARGET_BMI1_BMI2 void run_bmi2(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                                   std::uint8_t* tag) {
  run<Dir>(key, nonce, ad, ad_len, in, len, out, tag);
}
#endif

template <direction Dir>
LWC_HD constexpr void run_dispatch(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                                   std::uint8_t* tag) {
#if LWC_X86_DISPATCH
  if (!std::is_constant_evaluated() && use_bmi2()) {
    run_bmi2<Dir>(key, nonce, ad, ad_len, in, len, out, tag);
    return;
  }
#endif
  run<Dir>(key, nonce, ad, ad_len, in, len, out, tag);
}

}  // namespace detail

// Xoodyak authenticated encryption.
struct aead : ::lwc::detail::aead_span_forms<aead, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<aead, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "xoodyak";
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 16;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t min_tag_size = 16;  // the specification defines no truncation
  static constexpr std::size_t block_size = detail::rate_kout;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag. The
  // associated data is gathered a block at a time (a block is absorbed once it is full, the
  // last one when the message begins); a plaintext block's Up runs with its first byte, and its
  // padding is added when it is full or at finalize, where the message ends.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: Xoodyak has no nonce masking.
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "xoodyak takes no second key");
      for (std::size_t i = 0; i < key_size; ++i) key_[i] = key[i];
      for (std::size_t i = 0; i < nonce_size; ++i) nonce_[i] = nonce[i];
    }
    LWC_HD constexpr ~encryptor() { wipe(); }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      while (n != 0) {
        if (held_ == detail::rate_kin) absorb_held_ad();
        const std::size_t take = n < detail::rate_kin - held_ ? n : detail::rate_kin - held_;
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
      // Whole blocks at a block boundary: a lane at a time.
      for (; !block_open_ && n >= detail::rate_kout;
           n -= detail::rate_kout, in += detail::rate_kout, out += detail::rate_kout) {
        open_block();
        std::uint32_t x[6]{};
        detail::load_lanes(x, in);
        LWC_UNROLL for (int i = 0; i < 6; ++i) s_.a[i] ^= x[i];  // the ciphertext
        std::uint32_t y[6] = {s_.a[0], s_.a[1], s_.a[2], s_.a[3], s_.a[4], s_.a[5]};
        detail::store_lanes(out, y);
        detail::add_byte(s_, 0x01, detail::rate_kout);
        block_open_ = false;
        wipe_object(x);
        wipe_object(y);
      }
      for (; n != 0; --n) {
        if (!block_open_) open_block();
        const std::uint8_t x = *in++;
        *out++ = static_cast<std::uint8_t>(x ^ detail::get_byte(s_, pos_));
        detail::add_byte(s_, x, pos_);
        if (++pos_ == detail::rate_kout) {
          detail::add_byte(s_, 0x01, pos_);
          block_open_ = false;
        }
      }
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "xoodyak tags are 16 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      // Crypt has at least one block: an empty message is one empty padded block.
      if (first_block_) open_block();
      if (block_open_) detail::add_byte(s_, 0x01, pos_);
      detail::squeeze_tag(s_, tag);
      // Nothing may follow the tag: the state goes now.
      wipe();
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    // The first associated data block also keys Cyclist; the last one (short, or the only
    // one) carries the padding and, when it is the first, the absorb domain byte.
    // (A full block is padded alike whether more follow or not, so it goes as soon as it is
    // full and more data comes.)
    LWC_HD constexpr void absorb_held_ad() {
      if (!keyed_) {
        detail::start(s_, key_, nonce_, block_, held_);
        keyed_ = true;
      } else {
        detail::permute(s_);
        detail::add_bytes(s_, block_, held_);
        detail::add_byte(s_, 0x01, held_);
      }
      held_ = 0;
    }
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      if (!keyed_ || held_ != 0) absorb_held_ad();
      wipe_object(block_);
      phase_ = phase::message;
    }
    LWC_HD constexpr void open_block() {
      s_.a[11] ^= first_block_ ? detail::last_byte(detail::cu_crypt) : 0;
      detail::permute(s_);
      first_block_ = false;
      block_open_ = true;
      pos_ = 0;
    }
    LWC_HD constexpr void wipe() {
      wipe_object(s_);
      wipe_object(key_);
      wipe_object(nonce_);
      wipe_object(block_);
    }

    detail::state s_{};
    std::uint8_t key_[key_size]{};
    std::uint8_t nonce_[nonce_size]{};
    std::uint8_t block_[detail::rate_kin]{};  // associated data not yet absorbed
    std::size_t held_ = 0;
    std::size_t pos_ = 0;  // bytes of the open plaintext block
    phase phase_ = phase::ad;
    bool keyed_ = false;
    bool first_block_ = true;
    bool block_open_ = false;
  };

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "xoodyak tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "xoodyak takes no second key");
    detail::run_dispatch<detail::direction::encrypt>(key, nonce, ad, ad_len, pt, pt_len, ct, tag);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "xoodyak tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "xoodyak takes no second key");
    std::uint8_t expected[tag_size]{};
    detail::run_dispatch<detail::direction::decrypt>(key, nonce, ad, ad_len, ct, ct_len, pt,
                                                     expected);
    const bool ok = ct_equal(expected, tag, tag_len);
    // Word-wise: a byte loop the compiler does not vectorize (g++ -O2) runs four instructions
    // a byte, this one half an instruction.
    const std::uint8_t keep = ct_mask(ok);
    const std::uint64_t keep_words = std::uint64_t{keep} * 0x0101010101010101;
    std::size_t i = 0;
    for (; ct_len - i >= 8; i += 8) store_le64(pt + i, load_le64(pt + i) & keep_words);
    for (; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    return ok;
  }
};

// Xoodyak-Hash: Cyclist in hash mode, 16-byte blocks, 32-byte digest. Input bytes go straight
// into the state; a full block is only closed (padded and permuted) once more input arrives or
// output is asked for, because the last block, full or not, is padded where it ends.
class hash {
 public:
  static constexpr std::string_view name = "xoodyak-hash";
  static constexpr algorithm_kind kind = algorithm_kind::hash;
  static constexpr bool keyed = false;
  static constexpr std::size_t key_size = 0;
  static constexpr std::size_t output_size = 32;
  static constexpr std::size_t max_output_size = 32;
  static constexpr std::size_t max_input_size = SIZE_MAX;
  static constexpr std::size_t max_customization_size = 0;
  static constexpr std::size_t block_size = detail::rate_hash;
  using output_type = std::array<std::uint8_t, output_size>;

  LWC_HD constexpr hash() {}
  constexpr hash(const hash&) = default;
  constexpr hash& operator=(const hash&) = default;
  LWC_HD constexpr ~hash() { wipe_object(s_); }

  LWC_HD constexpr hash& update(bytes_view data) {
    absorb(data.data(), data.size());
    return *this;
  }
  LWC_HD constexpr void absorb(const std::uint8_t* in, std::size_t n) {
    LWC_REQUIRE(!squeezing_, "absorb after squeeze");
#if LWC_X86_DISPATCH
    if (!std::is_constant_evaluated() && detail::use_bmi2()) return absorb_bmi2(in, n);
#endif
    absorb_impl(in, n);
  }

  // Writes the next n output bytes. After the first call, absorb() is an error.
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    LWC_REQUIRE(n <= max_output_size - squeezed_, "output longer than the algorithm defines");
    squeezed_ = static_cast<std::uint8_t>(squeezed_ + n);
#if LWC_X86_DISPATCH
    if (!std::is_constant_evaluated() && detail::use_bmi2()) return squeeze_bmi2(out, n);
#endif
    squeeze_impl(out, n);
  }

  // The 32-byte digest. Call once, instead of squeeze().
  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), out.size());
    return out;
  }

  LWC_HD static constexpr output_type digest(bytes_view data) {
    hash h;
    h.update(data);
    return h.finalize();
  }

 private:
  static constexpr std::size_t rate = detail::rate_hash;

  LWC_HD LWC_ALWAYS_INLINE constexpr void absorb_impl(const std::uint8_t* in, std::size_t n) {
    if (n == 0) return;
    // Finish the partial block (bytes at pos_ .. 15).
    while (pos_ != 0 && pos_ < rate && n != 0) {
      detail::add_byte(s_, *in++, pos_++);
      --n;
    }
    if (n == 0) return;
    if (pos_ == rate) close_block(rate);
    // Whole blocks that more input follows.
    detail::state s = s_;
    std::uint32_t cd = first_ ? 0x01u << 24 : 0;
    for (; n > rate; n -= rate, in += rate) {
      std::uint32_t w[4]{};
      detail::load_lanes(w, in);
      s.a[0] ^= w[0];
      s.a[1] ^= w[1];
      s.a[2] ^= w[2];
      s.a[3] ^= w[3];
      s.a[4] ^= 0x01;
      s.a[11] ^= cd;
      cd = 0;
      first_ = false;
      detail::permute(s);
    }
    s_ = s;
    wipe_object(s);
    // The last 1..16 bytes stay open.
    detail::add_bytes(s_, in, n);
    pos_ = static_cast<std::uint8_t>(n);
  }

  LWC_HD LWC_ALWAYS_INLINE constexpr void squeeze_impl(std::uint8_t* out, std::size_t n) {
    if (!squeezing_) {
      close_block(pos_);
      squeezing_ = true;
      pos_ = 0;
    }
    while (n != 0) {
      if (pos_ == rate) {
        // Squeezing more than a block: an empty Down, then Up.
        s_.a[0] ^= 0x01;
        detail::permute(s_);
        pos_ = 0;
      }
      if (pos_ % 4 == 0 && n >= 4) {  // a whole lane
        store_le32(out, s_.a[pos_ / 4]);
        out += 4;
        n -= 4;
        pos_ = static_cast<std::uint8_t>(pos_ + 4);
        continue;
      }
      *out++ = detail::get_byte(s_, pos_++);
      --n;
    }
  }

#if LWC_X86_DISPATCH
  LWC_TARGET_BMI1_BMI2 void absorb_bmi2(const std::uint8_t* in, std::size_t n) {
    absorb_impl(in, n);
  }
  LWC_TARGET_BMI1_BMI2 void squeeze_bmi2(std::uint8_t* out, std::size_t n) {
    squeeze_impl(out, n);
  }
#endif

  // Down's padding and, on the first block, the absorb domain byte (in hash mode only its low
  // bit); then Up. Hash mode adds no domain byte on Up.
  LWC_HD LWC_ALWAYS_INLINE constexpr void close_block(std::size_t len) {
    detail::add_byte(s_, 0x01, len);
    if (first_) s_.a[11] ^= 0x01u << 24;
    first_ = false;
    detail::permute(s_);
  }

  detail::state s_{};
  std::uint8_t pos_ = 0;       // absorbing: bytes in the open block; squeezing: bytes read
  std::uint8_t squeezed_ = 0;  // output bytes given so far
  bool first_ = true;          // no block closed yet
  bool squeezing_ = false;
};

}  // namespace lwc::xoodyak
