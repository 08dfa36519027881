// SPDX-License-Identifier: MIT OR Apache-2.0
// Acorn-128 v3 (CAESAR final portfolio, lightweight use case), as specified in "ACORN: A
// Lightweight Authenticated Cipher (v3)", H. Wu, 2016, sections 2.1-2.4: 128-bit key, 128-bit
// nonce, 128-bit tag. Bits enter and leave the state least significant bit of each byte first.
//
// Never encrypt two messages under one key with the same nonce: Acorn is a stream cipher, and
// a repeated nonce leaks the XOR of the plaintexts and allows forgeries. Decryption is one-shot:
// the tag is checked in constant time before anything is returned, and on failure the output
// is all zeros. Incremental encryption is offered; incremental decryption is not.
//
// The state advances 32 steps per update. On x86-64 CPUs with BMI2 the bulk loop is a copy
// compiled for BMI2 (picked at run time; LWC_FORCE_PORTABLE=1 in the environment or
// lwc::acorn::force_portable(true) selects the portable one).
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

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(__CUDACC__) && \
    (defined(__GNUC__) || defined(__clang__))
#define LWC_ACORN_X86 1
#else
#define LWC_ACORN_X86 0
#endif

namespace lwc::acorn {

namespace detail {

// The specification's 293-bit state S[0..292] is seven LFSRs joined end to end (lengths 61, 46,
// 47, 39, 37, 59 and 4). A bit only changes when it sits at the head of one of them (S[61],
// S[107], S[154], S[193], S[230], S[289]) or when it enters at S[292]. So each LFSR is kept as
// the queue of values that will arrive at its head: bit d of r[k] is the value its head will
// hold d steps from now (r[0] is S[0..60] itself). Every tap then reads bits that are already
// known for the next 32 steps, which is what lets one step run 32 clocks. The 4-bit LFSR is
// folded into r[5]: the value that enters S[292] at step t reaches S[230] as
// f ^ m ^ (the bits 9 and 4 steps ahead in r[5]), so r[5] holds 63 bits.
struct state {
  std::uint64_t r[6];
};

LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t maj(std::uint32_t x, std::uint32_t y,
                                                     std::uint32_t z) {
  return (x & y) ^ (z & (x ^ y));
}
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t ch(std::uint32_t x, std::uint32_t y,
                                                    std::uint32_t z) {
  return z ^ (x & (y ^ z));
}

// The N values a register's head takes over the next N steps, starting d steps ahead. A
// rotation gives the same low 32 bits as a shift here (d + 32 <= 64), and with BMI2 it is
// rorx, which leaves its source intact: no register copies.
template <unsigned N>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t ahead(std::uint64_t r, unsigned d) {
  constexpr std::uint32_t mask = N == 32 ? 0xffffffffu : (1u << N) - 1;
  return static_cast<std::uint32_t>(rotr64(r, d)) & mask;
}

// N (8 or 32) steps of StateUpdate128 at once. Bit i of each word belongs to step i. ca and cb
// are all-ones or zero (they only change on 32-step boundaries). The message bits are `in`
// (Decrypt: in ^ keystream); the return value is the keystream.
template <unsigned N, bool Decrypt = false>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t update(state& s, std::uint32_t in,
                                                        std::uint32_t ca, std::uint32_t cb) {
  static_assert(N == 8 || N == 32);
  constexpr std::uint32_t mask = N == 32 ? 0xffffffffu : (1u << N) - 1;
  std::uint64_t r0 = s.r[0], r1 = s.r[1], r2 = s.r[2], r3 = s.r[3], r4 = s.r[4], r5 = s.r[5];
  // The new head values of LFSRs 1..5 (S[61], S[107], S[154], S[193], S[230] after their XOR).
  const std::uint32_t x0_23 = ahead<N>(r0, 23), x1_5 = ahead<N>(r1, 5), x2_4 = ahead<N>(r2, 4),
                      x3_6 = ahead<N>(r3, 6), x4_3 = ahead<N>(r4, 3);
  const std::uint32_t h1 = ahead<N>(r1, 0) ^ x0_23 ^ ahead<N>(r0, 0);
  const std::uint32_t h2 = ahead<N>(r2, 0) ^ x1_5 ^ ahead<N>(r1, 0);
  const std::uint32_t h3 = ahead<N>(r3, 0) ^ x2_4 ^ ahead<N>(r2, 0);
  const std::uint32_t h4 = ahead<N>(r4, 0) ^ x3_6 ^ ahead<N>(r3, 0);
  const std::uint32_t h5 = ahead<N>(r5, 0) ^ x4_3 ^ ahead<N>(r4, 0);
  // KSG128: S[12] ^ S[154] ^ maj(S[235], S[61], S[193]) ^ ch(S[230], S[111], S[66]).
  const std::uint32_t ks =
      ahead<N>(r0, 12) ^ h3 ^ maj(ahead<N>(r5, 5), h1, h4) ^ ch(h5, x2_4, x1_5);
  const std::uint32_t m = Decrypt ? (in ^ ks) & mask : in;
  // FBK128: S[0] ^ ~S[107] ^ maj(S[244], S[23], S[160]) ^ (ca & S[196]) ^ (cb & ks).
  const std::uint32_t f = ahead<N>(r0, 0) ^ ~h2 ^ maj(ahead<N>(r5, 14), x0_23, x3_6) ^
                          (ca & x4_3) ^ (cb & ks);
  const std::uint32_t tail = (f ^ m ^ ahead<N>(r5, 9) ^ ahead<N>(r5, 4)) & mask;
  s.r[0] = r0 >> N | std::uint64_t{h1} << (61 - N);
  s.r[1] = r1 >> N | std::uint64_t{h2} << (46 - N);
  s.r[2] = r2 >> N | std::uint64_t{h3} << (47 - N);
  s.r[3] = r3 >> N | std::uint64_t{h4} << (39 - N);
  s.r[4] = r4 >> N | std::uint64_t{h5} << (37 - N);
  s.r[5] = r5 >> N | std::uint64_t{tail} << (63 - N);
  return ks;
}

inline constexpr std::uint32_t ones = 0xffffffffu;

enum class direction : std::uint8_t { absorb, encrypt, decrypt };

// 32 steps over 4 bytes of associated data (absorb) or message. ca = 1 throughout; cb is 1 for
// associated data, 0 otherwise.
template <direction Dir>
LWC_HD LWC_ALWAYS_INLINE constexpr void word_step(state& s, const std::uint8_t* in,
                                                  std::uint8_t* out) {
  constexpr std::uint32_t cb = Dir == direction::absorb ? ones : 0;
  const std::uint32_t x = load_le32(in);
  const std::uint32_t ks = update<32, Dir == direction::decrypt>(s, x, ones, cb);
  if constexpr (Dir != direction::absorb) store_le32(out, x ^ ks);
}

// Whole 4-byte words, portable code.
template <direction Dir>
LWC_HD constexpr void words_portable(state& st, const std::uint8_t* in, std::size_t words,
                                     std::uint8_t* out) {
  // A local copy: stores through `out` may alias `st`, which would pin the state to memory.
  state s = st;
  for (std::size_t i = 0; i < words; ++i)
    word_step<Dir>(s, in + 4 * i, Dir == direction::absorb ? out : out + 4 * i);
  st = s;
  wipe_object(s);
}

#if LWC_ACORN_X86
// The same loop compiled for BMI2 (three-operand rotations). Only reached after the CPU check.
template <direction Dir>
__attribute__((target("bmi2"))) void words_bmi2(state& st, const std::uint8_t* in,
                                                std::size_t words, std::uint8_t* out) {
  state s = st;
  for (std::size_t i = 0; i < words; ++i)
    word_step<Dir>(s, in + 4 * i, Dir == direction::absorb ? out : out + 4 * i);
  st = s;
  wipe_object(s);
}

inline bool cpu_has_bmi2() { return host_cpu().bmi2; }
#endif

}  // namespace detail

enum class implementation : int { portable = 1, bmi2 = 2 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_ACORN_X86
  if (cpu_has_bmi2()) return implementation::bmi2;
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

// Runs the state over n bytes of associated data (absorb) or message: 32 steps per 4 bytes,
// then 8 steps per leftover byte.
template <direction Dir>
LWC_HD constexpr void process(state& st, const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  const std::size_t words = n / 4;
  if (words != 0) {
    bool done = false;
#if LWC_ACORN_X86
    if (!std::is_constant_evaluated() && active_implementation() == implementation::bmi2) {
      words_bmi2<Dir>(st, in, words, out);
      done = true;
    }
#endif
    if (!done) words_portable<Dir>(st, in, words, out);
    in += 4 * words;
    if constexpr (Dir != direction::absorb) out += 4 * words;
  }
  constexpr std::uint32_t cb = Dir == direction::absorb ? ones : 0;
  for (std::size_t i = 0; i < n % 4; ++i) {
    const std::uint32_t ks = update<8, Dir == direction::decrypt>(st, in[i], ones, cb);
    if constexpr (Dir != direction::absorb) out[i] = static_cast<std::uint8_t>(in[i] ^ ks);
  }
}

// The 256 padding steps after the associated data (cb = 1) and after the message (cb = 0):
// message bits 1, 0, 0, ...; ca = 1 for the first 128 steps and 0 for the last 128.
LWC_HD constexpr void pad(state& s, std::uint32_t cb) {
  update<32>(s, 1, ones, cb);
  LWC_UNROLL for (int i = 1; i < 4; ++i) update<32>(s, 0, ones, cb);
  LWC_UNROLL for (int i = 0; i < 4; ++i) update<32>(s, 0, 0, cb);
}

// 1792 steps with ca = cb = 1: the key, the nonce, then the key repeated 12 times with the
// first bit after the nonce inverted.
LWC_HD constexpr void init(state& s, const std::uint8_t* key, const std::uint8_t* nonce) {
  s = state{};
  std::uint32_t k[4]{};
  for (int i = 0; i < 4; ++i) k[i] = load_le32(key + 4 * i);
  for (int i = 0; i < 4; ++i) update<32>(s, k[i], ones, ones);
  for (int i = 0; i < 4; ++i) update<32>(s, load_le32(nonce + 4 * i), ones, ones);
  update<32>(s, k[0] ^ 1, ones, ones);
  for (int i = 1; i < 48; ++i) update<32>(s, k[i % 4], ones, ones);
  wipe_object(k);
}

// 768 steps with ca = cb = 1 and zero input; the tag is the keystream of the last 128.
LWC_HD constexpr void finish(state& s, std::uint8_t* tag, std::size_t tag_len) {
  for (int i = 0; i < 20; ++i) update<32>(s, 0, ones, ones);
  std::uint8_t full[16]{};
  for (int i = 0; i < 4; ++i) store_le32(full + 4 * i, update<32>(s, 0, ones, ones));
  for (std::size_t i = 0; i < tag_len; ++i) tag[i] = full[i];
  wipe_object(full);
}

}  // namespace detail

// ACORN-128 v3: the AEAD calls of every AEAD class (key, nonce and tag of 16 bytes).
struct acorn128
    : ::lwc::detail::aead_span_forms<acorn128, 16, 16, 16> {
  using span_forms = ::lwc::detail::aead_span_forms<acorn128, 16, 16, 16>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "acorn-128";
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 16;
  static constexpr std::size_t tag_size = 16;
  static constexpr std::size_t min_tag_size = 16;  // the specification defines no truncation
  static constexpr std::size_t block_size = 4;     // bytes per 32-step update
  // 1792 initialization and 768 finalization steps at 8 per byte: 320 bytes' worth.
  static constexpr std::size_t setup_cost = 320;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: associated data in any number of pieces, then plaintext in any
  // number of pieces (each produces exactly as many ciphertext bytes), then the tag.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce)
        : encryptor(key.data(), nonce.data(), nullptr) {}
    // second_key must be null: Acorn has no nonce masking (the registry's shape has the slot).
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key) {
      LWC_REQUIRE(second_key == nullptr, "acorn-128 takes no second key");
      detail::init(s_, key, nonce);
    }
    LWC_HD constexpr ~encryptor() { wipe_object(s_); }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      detail::process<detail::direction::absorb>(s_, ad, n, nullptr);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      detail::process<detail::direction::encrypt>(s_, in, n, out);
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "acorn-128 tags are 16 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      detail::pad(s_, 0);
      detail::finish(s_, tag, tag_len);
      // Nothing may follow the tag: the state (which holds the key) goes now.
      wipe_object(s_);
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      detail::pad(s_, detail::ones);
      phase_ = phase::message;
    }

    detail::state s_{};
    phase phase_ = phase::ad;
  };

  // ---- one-shot, detached tag (the registry's entry points) --------------------------------

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "acorn-128 tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "acorn-128 takes no second key");
    detail::state s{};
    detail::init(s, key, nonce);
    detail::process<detail::direction::absorb>(s, ad, ad_len, nullptr);
    detail::pad(s, detail::ones);
    detail::process<detail::direction::encrypt>(s, pt, pt_len, ct);
    detail::pad(s, 0);
    detail::finish(s, tag, tag_len);
    wipe_object(s);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "acorn-128 tags are 16 bytes");
    LWC_REQUIRE(second_key == nullptr, "acorn-128 takes no second key");
    detail::state s{};
    detail::init(s, key, nonce);
    detail::process<detail::direction::absorb>(s, ad, ad_len, nullptr);
    detail::pad(s, detail::ones);
    detail::process<detail::direction::decrypt>(s, ct, ct_len, pt);
    detail::pad(s, 0);
    std::uint8_t expected[tag_size]{};
    detail::finish(s, expected, tag_size);
    const bool ok = ct_equal(expected, tag, tag_len);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(s);
    return ok;
  }

};

}  // namespace lwc::acorn
