// SPDX-License-Identifier: MIT OR Apache-2.0
// The one sponge behind every Ascon hash, XOF, CXOF, MAC and PRF in lwc: absorb any number of
// pieces, then squeeze any number of pieces. A parameter struct fixes the byte order, IV,
// rates and round counts of each named algorithm (see hash.hpp and mac.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <type_traits>

#include "../common/secure.hpp"
#include "implementation.hpp"
#include "permutation.hpp"

namespace lwc::ascon::detail {

// Params provides:
//   using lanes = little_endian_lanes | big_endian_lanes;
//   static constexpr std::uint64_t iv;
//   static constexpr std::size_t in_rate, out_rate;   // bytes: 8, 16, 32 or 40
//   static constexpr int absorb_rounds, squeeze_rounds;
//   static constexpr bool keyed;                      // MAC/PRF: key in x1, x2 and a final dsep
template <class Params>
class sponge {
  using lanes = typename Params::lanes;
  static constexpr std::size_t in_rate = Params::in_rate;
  static constexpr std::size_t out_rate = Params::out_rate;
  static_assert(in_rate % 8 == 0 && in_rate <= 40 && out_rate % 8 == 0 && out_rate <= 40);

 public:
  // The state after p^12 of the IV, computed once by the compiler for unkeyed sponges.
  static constexpr state initial_state() {
    state s{{Params::iv, 0, 0, 0, 0}};
    permute<12>(s);
    return s;
  }

  LWC_HD constexpr sponge() {
    static_assert(!Params::keyed);
    constexpr state initial = initial_state();  // a constant: never permuted at run time
    s_ = initial;
  }

  LWC_HD constexpr explicit sponge(const std::uint8_t* key16) {
    static_assert(Params::keyed);
    s_ = state{{Params::iv, lanes::load(key16), lanes::load(key16 + 8), 0, 0}};
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && use_bmi2()) {
      permute12_bmi2(s_);
      return;
    }
#endif
    permute<12>(s_);
  }

  constexpr sponge(const sponge&) = default;
  constexpr sponge& operator=(const sponge&) = default;
  LWC_HD constexpr ~sponge() { wipe_object(s_); }

  // absorb() and squeeze() run, on x86-64 hosts with BMI1/BMI2, in a copy compiled for
  // those extensions as a whole (partial bytes, full blocks, padding and every permutation),
  // chosen once per call.
  LWC_HD constexpr void absorb(const std::uint8_t* in, std::size_t n) {
    LWC_REQUIRE(!squeezing_, "absorb after squeeze");
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && use_bmi2()) return absorb_bmi2(in, n);
#endif
    absorb_here(in, n);
  }

  // Pads the absorbed input and permutes, without switching to squeezing: the CXOF uses it
  // to close the customization string before the message starts.
  LWC_HD constexpr void pad_and_permute() {
    s_.x[pos_ / 8] ^= lanes::pad(pos_ % 8);
    permute<Params::absorb_rounds>(s_);
    pos_ = 0;
  }

  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && use_bmi2()) return squeeze_bmi2(out, n);
#endif
    squeeze_here(out, n);
  }

  // absorb(in, n) then squeeze(out, m) in one call: one choice of code path, made in the
  // caller, and the state stays in registers from the input to the output (one-shot hashing
  // and MACs).
  LWC_HD LWC_ALWAYS_INLINE constexpr void absorb_and_squeeze(const std::uint8_t* in,
                                                             std::size_t n, std::uint8_t* out,
                                                             std::size_t m) {
    LWC_REQUIRE(!squeezing_, "absorb after squeeze");
#if LWC_ASCON_BMI_COPIES
    if (!std::is_constant_evaluated() && use_bmi2()) return absorb_and_squeeze_bmi2(in, n, out, m);
#endif
    absorb_and_squeeze_portable(in, n, out, m);
  }

 private:
  // The bodies of absorb() and squeeze() on the code path already chosen.
  LWC_HD LWC_ALWAYS_INLINE constexpr void absorb_here(const std::uint8_t* in, std::size_t n) {
    while (pos_ != 0 && n != 0) {  // finish a partial block byte by byte
      xor_byte<lanes>(s_, pos_, *in++);
      --n;
      if (++pos_ == in_rate) {
        permute<Params::absorb_rounds>(s_);
        pos_ = 0;
      }
    }
    if (n >= in_rate) {
      const std::size_t full = n - n % in_rate;
      absorb_blocks(s_, in, full);
      in += full;
      n -= full;
    }
    for (; n != 0; --n) xor_byte<lanes>(s_, pos_++, *in++);
  }

  // absorb_here(in, n) then squeeze_here(out, m). From a fresh block (the one-shot forms),
  // the state is a local from the first input block to the last output block, and the last
  // input block and the last output block address their words with constant indices (a
  // branch on the public lengths picks what each word gets), so the state never goes through
  // memory.
  LWC_HD LWC_ALWAYS_INLINE constexpr void absorb_and_squeeze_here(const std::uint8_t* in,
                                                                  std::size_t n,
                                                                  std::uint8_t* out,
                                                                  std::size_t m) {
    if (pos_ != 0) {
      absorb_here(in, n);
      squeeze_here(out, m);
      return;
    }
    state s = s_;
    const std::size_t full = n - n % in_rate;
    absorb_blocks(s, in, full);
    in += full;
    n -= full;
    LWC_UNROLL for (std::size_t w = 0; w < in_rate / 8; ++w) {
      if (n >= 8 * w + 8) {
        s.x[w] ^= lanes::load(in + 8 * w);
      } else if (n >= 8 * w) {
        s.x[w] ^= lanes::load_partial(in + 8 * w, n - 8 * w) ^ lanes::pad(n - 8 * w);
      }
    }
    if constexpr (Params::keyed) s.x[4] ^= lanes::dsep;
    permute<12>(s);
    for (; m > out_rate; m -= out_rate, out += out_rate) {
      LWC_UNROLL for (std::size_t w = 0; w < out_rate / 8; ++w) lanes::store(out + 8 * w, s.x[w]);
      permute<Params::squeeze_rounds>(s);
    }
    LWC_UNROLL for (std::size_t w = 0; w < out_rate / 8; ++w) {
      if (m >= 8 * w + 8) {
        lanes::store(out + 8 * w, s.x[w]);
      } else if (m > 8 * w) {
        lanes::store_partial(out + 8 * w, s.x[w], m - 8 * w);
      }
    }
    s_ = s;
    pos_ = m;  // bytes of the current output block already read (out_rate: a whole block)
    squeezing_ = true;
  }

  LWC_HD LWC_ALWAYS_INLINE constexpr void squeeze_here(std::uint8_t* out, std::size_t n) {
    if (!squeezing_) finish_absorbing();
    state s = s_;  // in locals across the permutations of a long output
    std::size_t pos = pos_;
    while (n != 0) {
      if (pos == out_rate) {
        permute<Params::squeeze_rounds>(s);
        pos = 0;
      }
      if (pos % 8 == 0 && n >= 8) {
        lanes::store(out, s.x[pos / 8]);
        out += 8;
        n -= 8;
        pos += 8;
      } else {
        *out++ = get_byte<lanes>(s, pos++);
        --n;
      }
    }
    s_ = s;
    pos_ = pos;
  }

  LWC_HD constexpr void absorb_and_squeeze_portable(const std::uint8_t* in, std::size_t n,
                                                    std::uint8_t* out, std::size_t m) {
    absorb_and_squeeze_here(in, n, out, m);
  }

  // Whole blocks (n a multiple of the rate), with the state held in locals.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void absorb_blocks(state& st, const std::uint8_t* in,
                                                               std::size_t n) {
    state s = st;
    for (; n != 0; n -= in_rate, in += in_rate) {
      LWC_UNROLL for (std::size_t w = 0; w < in_rate / 8; ++w) s.x[w] ^= lanes::load(in + 8 * w);
      permute<Params::absorb_rounds>(s);
    }
    st = s;
  }
#if LWC_ASCON_BMI_COPIES
  LWC_TARGET_BMI1_BMI2 void absorb_bmi2(const std::uint8_t* in, std::size_t n) {
    absorb_here(in, n);
  }
  LWC_TARGET_BMI1_BMI2 void squeeze_bmi2(std::uint8_t* out, std::size_t n) {
    squeeze_here(out, n);
  }
  LWC_TARGET_BMI1_BMI2 void absorb_and_squeeze_bmi2(const std::uint8_t* in, std::size_t n,
                                                   std::uint8_t* out, std::size_t m) {
    absorb_and_squeeze_here(in, n, out, m);
  }
  LWC_TARGET_BMI1_BMI2 static void permute12_bmi2(state& s) { permute<12>(s); }
#endif

  // always_inline: called out of line, the BMI copy would run the baseline p^12 (Clang).
  LWC_HD LWC_ALWAYS_INLINE constexpr void finish_absorbing() {
    s_.x[pos_ / 8] ^= lanes::pad(pos_ % 8);
    if constexpr (Params::keyed) s_.x[4] ^= lanes::dsep;
    permute<12>(s_);
    pos_ = 0;
    squeezing_ = true;
  }

  state s_{};
  std::size_t pos_ = 0;  // byte offset within the current rate block
  bool squeezing_ = false;
};

}  // namespace lwc::ascon::detail
