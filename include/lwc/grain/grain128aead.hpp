// SPDX-License-Identifier: MIT OR Apache-2.0
// Grain-128AEADv2 (NIST lightweight cryptography, final round; "Grain-128AEADv2 - A lightweight
// AEAD stream cipher", Hell, Johansson, Maximov, Meier, Sönnerup, Yoshida, 2021, section 2):
// 128-bit key, 96-bit nonce, 64-bit tag. Bits are taken least significant bit of each byte first.
//
// Never encrypt two messages under one key with the same nonce: Grain is a stream cipher, and a
// repeated nonce leaks the XOR of the plaintexts and allows forgeries. Decryption is one-shot:
// the tag is checked in constant time before anything is returned, and on failure the output is
// all zeros. The associated data is authenticated after its DER-encoded length, so the
// incremental encryptor must be told the total length of the associated data up front.
//
// The keystream generator runs 32 clocks per step everywhere. On x86-64 CPUs with BMI2 and
// PCLMULQDQ the bit deinterleaving (pext) and the accumulator update (carry-less
// multiplication) use them; this is picked at run time, and LWC_FORCE_PORTABLE=1 in the
// environment or lwc::grain::force_portable(true) selects the portable code instead.
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
#define LWC_GRAIN_X86 1
#include <immintrin.h>
#else
#define LWC_GRAIN_X86 0
#endif

namespace lwc::grain {

namespace detail {

// The two 128-bit registers: bit i of lo is s_{t+i} (b_{t+i}), bit i of hi is s_{t+64+i}.
struct state {
  std::uint64_t s_lo, s_hi;  // LFSR
  std::uint64_t b_lo, b_hi;  // NFSR
};

// The accumulator A and the shift register R of the authenticator; bit j is A^j (R^j).
struct mac {
  std::uint64_t acc, reg;
};

// Three overlapping 64-bit views of a register (bits 0..63, 32..95, 64..127), so that the 32
// values a tap takes over the next 32 clocks (bits D..D+31, D <= 96) are one rotation away.
struct views {
  std::uint64_t lo, mid, hi;
  LWC_HD LWC_ALWAYS_INLINE constexpr views(std::uint64_t l, std::uint64_t h)
      : lo(l), mid(l >> 32 | h << 32), hi(h) {}
  LWC_HD LWC_ALWAYS_INLINE constexpr views(std::uint64_t l, std::uint64_t m, std::uint64_t h)
      : lo(l), mid(m), hi(h) {}
  template <unsigned D>
  LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t at() const {
    static_assert(D <= 96);
    if constexpr (D < 32) return window(lo, D);
    else if constexpr (D < 64) return window(mid, D - 32);
    else return window(hi, D - 64);
  }
  // Bits r..r+31 of x. A rotation gives the same low 32 bits as a shift (the bits that wrap
  // land at 32 and up), and with BMI2 it is rorx, which leaves its source intact.
  LWC_HD LWC_ALWAYS_INLINE static constexpr std::uint32_t window(std::uint64_t x, unsigned r) {
    return static_cast<std::uint32_t>(rotr64(x, r));
  }
};

// The next 32 pre-output bits and the 32 new LFSR and NFSR bits (bit i: clock t+i). No tap is
// closer than 32 bits to a register's input end, so they depend only on the current state.
struct feedback {
  std::uint32_t y, ls, nb;
};

LWC_HD LWC_ALWAYS_INLINE constexpr feedback taps(const views& s, const views& b) {
  using w = views;
  // y = h(x) + s93 + b2 + b15 + b36 + b45 + b64 + b73 + b89, with
  // h = b12 s8 + s13 s20 + b95 s42 + s60 s79 + b12 b95 s94.
  const std::uint32_t b12 = b.at<12>(), b95 = b.at<95>(), s0 = s.at<0>();
  const std::uint32_t h = (b12 & s.at<8>()) ^ (s.at<13>() & s.at<20>()) ^ (b95 & s.at<42>()) ^
                          (s.at<60>() & s.at<79>()) ^ (b12 & b95 & s.at<94>());
  const std::uint32_t y = h ^ s.at<93>() ^ b.at<2>() ^ b.at<15>() ^ b.at<36>() ^ b.at<45>() ^
                          b.at<64>() ^ b.at<73>() ^ b.at<89>();
  // Fewer rotations: taps 32 or 64 bits apart share one (s38 + s70; b3 b67; b27 b59 + b91);
  // b17 b18 and b24 b25 are windows of one product of neighbours, b78 b82 and b88 b92 of one
  // product of taps 4 apart, whose rotated factor is also the b68 window.
  const std::uint64_t pairs1 = b.lo & rotr64(b.lo, 1);
  const std::uint64_t hi4 = rotr64(b.hi, 4), pairs4 = b.hi & hi4;
  const std::uint32_t ls = s0 ^ s.at<7>() ^ w::window(s.mid ^ s.hi, 6) ^ s.at<81>() ^ s.at<96>();
  const std::uint32_t nb =
      s0 ^ b.at<0>() ^ b.at<26>() ^ b.at<56>() ^ b.at<96>() ^ w::window(b.lo & b.hi, 3) ^
      w::window((b.lo & b.mid) ^ b.hi, 27) ^ (b.at<11>() & b.at<13>()) ^ w::window(pairs1, 17) ^
      (b.at<40>() & b.at<48>()) ^ (b.at<61>() & b.at<65>()) ^
      (static_cast<std::uint32_t>(hi4) & b.at<84>()) ^ (b.at<22>() & w::window(pairs1, 24)) ^
      (b.at<70>() & w::window(pairs4, 14)) ^ (w::window(pairs4, 24) & b.at<93>() & b95);
  return {y, ls, nb};
}

// 32 clocks on registers kept as views: the new bits only change the top view.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t clock32(views& s, views& b) {
  const feedback f = taps(s, b);
  s = views(s.mid, s.hi, s.hi >> 32 | std::uint64_t{f.ls} << 32);
  b = views(b.mid, b.hi, b.hi >> 32 | std::uint64_t{f.nb} << 32);
  return f.y;
}

// N (<= 32) clocks; bit i of the result is y_{t+i}. During initialisation (Init) the pre-output
// is fed back into both registers, together with key bits (fs into the LFSR, fb into the NFSR).
template <unsigned N, bool Init = false>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint32_t clock(state& st, std::uint32_t fs = 0,
                                                       std::uint32_t fb = 0) {
  static_assert(N >= 1 && N <= 32);
  constexpr std::uint32_t mask = N == 32 ? 0xffffffffu : (1u << N) - 1;
  feedback f = taps(views(st.s_lo, st.s_hi), views(st.b_lo, st.b_hi));
  if constexpr (Init) {
    f.ls ^= f.y ^ fs;
    f.nb ^= f.y ^ fb;
  }
  st.s_lo = st.s_lo >> N | st.s_hi << (64 - N);
  st.s_hi = st.s_hi >> N | std::uint64_t{f.ls & mask} << (64 - N);
  st.b_lo = st.b_lo >> N | st.b_hi << (64 - N);
  st.b_hi = st.b_hi >> N | std::uint64_t{f.nb & mask} << (64 - N);
  return f.y & mask;
}

// The even-indexed bits of x, packed (bit 2i -> bit i): the keystream half of the pre-output.
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint64_t even_bits(std::uint64_t x) {
  x &= 0x5555555555555555;
  x = (x | x >> 1) & 0x3333333333333333;
  x = (x | x >> 2) & 0x0f0f0f0f0f0f0f0f;
  x = (x | x >> 4) & 0x00ff00ff00ff00ff;
  x = (x | x >> 8) & 0x0000ffff0000ffff;
  return (x | x >> 16) & 0x00000000ffffffff;
}

// A ^= sum over k < N of m_k * R_k, where R_k is the 64-bit window of the authentication
// stream starting k bits ahead (the register followed by `next`, the next N stream bits);
// then the register moves N bits on. Every message bit is read through a mask: no branch.
template <unsigned N>
LWC_HD LWC_ALWAYS_INLINE constexpr void accumulate(mac& a, std::uint64_t m, std::uint64_t next) {
  static_assert(N >= 1 && N <= 64);
  std::uint64_t acc = a.acc;
  const std::uint64_t reg = a.reg;
  acc ^= (std::uint64_t{0} - (m & 1)) & reg;
  LWC_UNROLL for (unsigned k = 1; k < N; ++k)
    acc ^= (std::uint64_t{0} - (m >> k & 1)) & (reg >> k | next << (64 - k));
  a.acc = acc;
  a.reg = N == 64 ? next : (reg >> (N % 64) | next << ((64 - N) % 64));
}

enum class direction : std::uint8_t { absorb, encrypt, decrypt };

// One byte of the authenticated stream: 16 clocks, 8 keystream and 8 authentication bits.
template <direction Dir>
LWC_HD LWC_ALWAYS_INLINE constexpr std::uint8_t byte_step(state& st, mac& a, std::uint8_t in) {
  const std::uint32_t y = clock<16>(st);
  const std::uint8_t z = static_cast<std::uint8_t>(even_bits(y));
  const std::uint8_t r = static_cast<std::uint8_t>(even_bits(y >> 1));
  const std::uint8_t m = Dir == direction::decrypt ? static_cast<std::uint8_t>(in ^ z) : in;
  accumulate<8>(a, m, r);
  return Dir == direction::encrypt ? static_cast<std::uint8_t>(in ^ z) : m;
}

// 128 clocks: the pre-output for 8 bytes of the authenticated stream, as two 64-bit words.
LWC_HD LWC_ALWAYS_INLINE constexpr void clock128(views& s, views& b, std::uint64_t& y0,
                                                 std::uint64_t& y1) {
  y0 = clock32(s, b);
  y0 |= std::uint64_t{clock32(s, b)} << 32;
  y1 = clock32(s, b);
  y1 |= std::uint64_t{clock32(s, b)} << 32;
}

// Whole 8-byte units, portable code.
template <direction Dir>
LWC_HD constexpr void units_portable(state& st_, mac& a_, const std::uint8_t* in,
                                     std::size_t units, std::uint8_t* out) {
  // Local copies: stores through `out` may alias the state, which would pin it to memory.
  views s(st_.s_lo, st_.s_hi), b(st_.b_lo, st_.b_hi);
  mac a = a_;
  for (; units != 0; --units, in += 8) {
    std::uint64_t y0 = 0, y1 = 0;
    clock128(s, b, y0, y1);
    const std::uint64_t z = even_bits(y0) | even_bits(y1) << 32;
    const std::uint64_t r = even_bits(y0 >> 1) | even_bits(y1 >> 1) << 32;
    const std::uint64_t x = load_le64(in);
    const std::uint64_t m = Dir == direction::decrypt ? x ^ z : x;
    accumulate<64>(a, m, r);
    if constexpr (Dir != direction::absorb) {
      store_le64(out, x ^ z);
      out += 8;
    }
  }
  st_ = state{s.lo, s.hi, b.lo, b.hi};
  a_ = a;
  wipe_object(s);
  wipe_object(b);
  wipe_object(a);
}

#if LWC_GRAIN_X86

#define LWC_GRAIN_X86_TARGET __attribute__((target("bmi2,pclmul")))

LWC_GRAIN_X86_TARGET LWC_ALWAYS_INLINE std::uint64_t bit_reverse64(std::uint64_t x) {
  x = (x >> 1 & 0x5555555555555555) | (x & 0x5555555555555555) << 1;
  x = (x >> 2 & 0x3333333333333333) | (x & 0x3333333333333333) << 2;
  x = (x >> 4 & 0x0f0f0f0f0f0f0f0f) | (x & 0x0f0f0f0f0f0f0f0f) << 4;
  return __builtin_bswap64(x);
}

// accumulate<64> as one carry-less product. The sum over k of m_k * (W >> k), W = reg | next
// << 64, is a correlation; with m bit-reversed it becomes the convolution clmul computes, and
// the wanted 64 bits are bits 63..126 of rev(m) * W.
LWC_GRAIN_X86_TARGET LWC_ALWAYS_INLINE void accumulate_clmul(mac& a, std::uint64_t m,
                                                             std::uint64_t next) {
  const __m128i mr = _mm_cvtsi64_si128(static_cast<long long>(bit_reverse64(m)));
  const __m128i w = _mm_set_epi64x(static_cast<long long>(next), static_cast<long long>(a.reg));
  const __m128i p_reg = _mm_clmulepi64_si128(mr, w, 0x00);
  const __m128i p_next = _mm_clmulepi64_si128(mr, w, 0x10);
  const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(p_reg));
  const auto hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(p_reg, p_reg)));
  const auto nx = static_cast<std::uint64_t>(_mm_cvtsi128_si64(p_next));
  a.acc ^= (hi << 1 | lo >> 63) ^ nx << 1;
  a.reg = next;
}

template <direction Dir>
LWC_GRAIN_X86_TARGET void units_bmi2_pclmul(state& st_, mac& a_, const std::uint8_t* in,
                                            std::size_t units, std::uint8_t* out) {
  constexpr std::uint64_t even = 0x5555555555555555, odd = ~even;
  views s(st_.s_lo, st_.s_hi), b(st_.b_lo, st_.b_hi);
  mac a = a_;
  for (; units != 0; --units, in += 8) {
    std::uint64_t y0 = 0, y1 = 0;
    clock128(s, b, y0, y1);
    const std::uint64_t z = _pext_u64(y0, even) | _pext_u64(y1, even) << 32;
    const std::uint64_t r = _pext_u64(y0, odd) | _pext_u64(y1, odd) << 32;
    const std::uint64_t x = load_le64(in);
    const std::uint64_t m = Dir == direction::decrypt ? x ^ z : x;
    accumulate_clmul(a, m, r);
    if constexpr (Dir != direction::absorb) {
      store_le64(out, x ^ z);
      out += 8;
    }
  }
  st_ = state{s.lo, s.hi, b.lo, b.hi};
  a_ = a;
  wipe_object(s);
  wipe_object(b);
  wipe_object(a);
}

#undef LWC_GRAIN_X86_TARGET

inline bool cpu_has_bmi2_pclmul() { return host_cpu().bmi2 && host_cpu().pclmul; }

#endif  // LWC_GRAIN_X86

}  // namespace detail

enum class implementation : int { portable = 1, bmi2_pclmul = 2 };

namespace detail {
inline implementation fastest_implementation() {
#if LWC_GRAIN_X86
  if (cpu_has_bmi2_pclmul()) return implementation::bmi2_pclmul;
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

// n bytes of the authenticated stream: associated data (absorb) or message.
template <direction Dir>
LWC_HD constexpr void process(state& st, mac& a, const std::uint8_t* in, std::size_t n,
                              std::uint8_t* out) {
  const std::size_t units = n / 8;
  if (units != 0) {
    bool done = false;
#if LWC_GRAIN_X86
    if (!std::is_constant_evaluated() && active_implementation() == implementation::bmi2_pclmul) {
      units_bmi2_pclmul<Dir>(st, a, in, units, out);
      done = true;
    }
#endif
    if (!done) units_portable<Dir>(st, a, in, units, out);
    in += 8 * units;
    if constexpr (Dir != direction::absorb) out += 8 * units;
  }
  for (std::size_t i = 0; i < n % 8; ++i) {
    const std::uint8_t o = byte_step<Dir>(st, a, in[i]);
    if constexpr (Dir != direction::absorb) out[i] = o;
  }
}

// Section 2.2: the key in the NFSR, the nonce, 31 ones and a zero in the LFSR; 320 clocks with
// the pre-output fed back; 64 more that also add the key (its second half to the LFSR, its
// first half to the NFSR); then 64 pre-output bits fill the accumulator and 64 the register.
LWC_HD constexpr void init(state& st, mac& a, const std::uint8_t* key, const std::uint8_t* nonce) {
  st.b_lo = load_le64(key);
  st.b_hi = load_le64(key + 8);
  st.s_lo = load_le64(nonce);
  st.s_hi = std::uint64_t{load_le32(nonce + 8)} | std::uint64_t{0x7fffffff} << 32;
  for (int i = 0; i < 10; ++i) clock<32, true>(st);
  clock<32, true>(st, load_le32(key + 8), load_le32(key));
  clock<32, true>(st, load_le32(key + 12), load_le32(key + 4));
  a.acc = clock<32>(st);
  a.acc |= std::uint64_t{clock<32>(st)} << 32;
  a.reg = clock<32>(st);
  a.reg |= std::uint64_t{clock<32>(st)} << 32;
}

// The DER encoding of the associated data length that precedes it in the authenticated stream.
LWC_HD constexpr std::size_t der_length(std::uint8_t* out, std::size_t n) {
  if (n < 128) {
    out[0] = static_cast<std::uint8_t>(n);
    return 1;
  }
  std::size_t len = 0;
  for (std::size_t v = n; v != 0; v >>= 8) ++len;
  out[0] = static_cast<std::uint8_t>(0x80 | len);
  // len <= sizeof n; the second bound says so to GCC, whose -march=native vectorized form of
  // this loop otherwise warns of a 32-byte write into the 9-byte buffer.
  for (std::size_t i = 0; i < len && i < sizeof n; ++i)
    out[1 + i] = static_cast<std::uint8_t>(n >> (8 * (len - 1 - i)));
  return 1 + len;
}

LWC_HD constexpr void start(state& st, mac& a, const std::uint8_t* key, const std::uint8_t* nonce,
                            std::size_t ad_len) {
  init(st, a, key, nonce);
  std::uint8_t der[1 + sizeof(std::size_t)]{};
  process<direction::absorb>(st, a, der, der_length(der, ad_len), nullptr);
}

// The message is followed by a single 1 bit, which adds the register once more.
LWC_HD constexpr void finish(mac& a, std::uint8_t* tag, std::size_t tag_len) {
  std::uint8_t full[8]{};
  store_le64(full, a.acc ^ a.reg);
  for (std::size_t i = 0; i < tag_len; ++i) tag[i] = full[i];
  wipe_object(full);
}

}  // namespace detail

// Grain-128AEADv2: the AEAD calls of every AEAD class (16-byte key, 12-byte nonce,
// 8-byte tag).
struct grain128aead
    : ::lwc::detail::aead_span_forms<grain128aead, 16, 12, 8> {
  using span_forms = ::lwc::detail::aead_span_forms<grain128aead, 16, 12, 8>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr std::string_view name = "grain-128aead";
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 12;
  static constexpr std::size_t tag_size = 8;
  static constexpr std::size_t min_tag_size = 8;  // the specification defines no truncation
  static constexpr std::size_t block_size = 8;    // bytes per 128-clock unit
  // 512 initialization clocks at 16 per byte: 32 bytes' worth.
  static constexpr std::size_t setup_cost = 32;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  // Incremental encryption: ad_len bytes of associated data in any number of pieces (their
  // length is authenticated before them, hence needed first), then plaintext in any number of
  // pieces (each produces exactly as many ciphertext bytes), then the tag.
  class encryptor : public ::lwc::detail::encryptor_calls<encryptor, tag_size> {
   public:
    using ::lwc::detail::encryptor_calls<encryptor, tag_size>::finalize;

    LWC_HD constexpr encryptor(key_view key, nonce_view nonce, std::size_t ad_len = 0)
        : encryptor(key.data(), nonce.data(), nullptr, ad_len) {}
    // second_key must be null: Grain has no nonce masking (the registry's shape has the slot).
    LWC_HD constexpr encryptor(const std::uint8_t* key, const std::uint8_t* nonce,
                               const std::uint8_t* second_key, std::size_t ad_len = 0)
        : ad_left_(ad_len) {
      LWC_REQUIRE(second_key == nullptr, "grain-128aead takes no second key");
      detail::start(s_, a_, key, nonce, ad_len);
    }
    LWC_HD constexpr ~encryptor() {
      wipe_object(s_);
      wipe_object(a_);
    }

    LWC_HD constexpr void absorb_ad(const std::uint8_t* ad, std::size_t n) {
      LWC_REQUIRE(phase_ == phase::ad, "associated data after the message");
      LWC_REQUIRE(n <= ad_left_, "more associated data than announced to the encryptor");
      ad_left_ -= n;
      detail::process<detail::direction::absorb>(s_, a_, ad, n, nullptr);
    }

    // Encrypts n bytes into out (in == out is allowed).
    LWC_HD constexpr void encrypt(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
      LWC_REQUIRE(phase_ != phase::done, "encrypt after finalize");
      start_message();
      detail::process<detail::direction::encrypt>(s_, a_, in, n, out);
    }

    LWC_HD constexpr void finalize(std::uint8_t* tag, std::size_t tag_len) {
      LWC_REQUIRE(tag_len == tag_size, "grain-128aead tags are 8 bytes");
      LWC_REQUIRE(phase_ != phase::done, "finalize called twice");
      start_message();
      detail::finish(a_, tag, tag_len);
      // Nothing may follow the tag: the state (which holds the key) goes now.
      wipe_object(s_);
      wipe_object(a_);
      phase_ = phase::done;
    }

   private:
    enum class phase : std::uint8_t { ad, message, done };
    LWC_HD constexpr void start_message() {
      if (phase_ != phase::ad) return;
      LWC_REQUIRE(ad_left_ == 0, "less associated data than announced to the encryptor");
      phase_ = phase::message;
    }

    detail::state s_{};
    detail::mac a_{};
    std::size_t ad_left_ = 0;
    phase phase_ = phase::ad;
  };

  // ---- one-shot, detached tag (the registry's entry points) --------------------------------

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "grain-128aead tags are 8 bytes");
    LWC_REQUIRE(second_key == nullptr, "grain-128aead takes no second key");
    detail::state s{};
    detail::mac a{};
    detail::start(s, a, key, nonce, ad_len);
    detail::process<detail::direction::absorb>(s, a, ad, ad_len, nullptr);
    detail::process<detail::direction::encrypt>(s, a, pt, pt_len, ct);
    detail::finish(a, tag, tag_len);
    wipe_object(s);
    wipe_object(a);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "grain-128aead tags are 8 bytes");
    LWC_REQUIRE(second_key == nullptr, "grain-128aead takes no second key");
    detail::state s{};
    detail::mac a{};
    detail::start(s, a, key, nonce, ad_len);
    detail::process<detail::direction::absorb>(s, a, ad, ad_len, nullptr);
    detail::process<detail::direction::decrypt>(s, a, ct, ct_len, pt);
    std::uint8_t expected[tag_size]{};
    detail::finish(a, expected, tag_size);
    const bool ok = ct_equal(expected, tag, tag_len);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    wipe_object(s);
    wipe_object(a);
    return ok;
  }

};

}  // namespace lwc::grain
