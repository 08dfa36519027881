// SPDX-License-Identifier: MIT OR Apache-2.0
// Esch256 and Esch384 (SPARKLE final-round specification v1.2, section 2.2): sponge hashes on
// SPARKLE384 and SPARKLE512 (section 2.1) with 16-byte blocks, each injected through a linear
// Feistel map, and 32- and 48-byte digests. Words are read and written little endian.
// Unkeyed: nothing here is secret beyond the message itself, which is wiped with the state.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "sparkle.hpp"

namespace lwc::sparkle {

namespace detail {

template <std::size_t NB, std::size_t Slim, std::size_t Big, std::size_t Digest>
struct esch_params {
  static constexpr std::size_t branches = NB, slim = Slim, big = Big, digest = Digest;
};

// The hash object; the last block, full or not, is only injected when the output is asked for,
// because it is marked (and padded if short) as the last one.
template <class Traits>
class esch {
  using P = typename Traits::params;
  static constexpr std::size_t nb = P::branches;
  static constexpr std::size_t rate = 16;

 public:
  static constexpr std::string_view name = Traits::name;
  static constexpr algorithm_kind kind = algorithm_kind::hash;
  static constexpr bool keyed = false;
  static constexpr std::size_t key_size = 0;
  static constexpr std::size_t output_size = P::digest;
  static constexpr std::size_t max_output_size = P::digest;
  static constexpr std::size_t max_input_size = SIZE_MAX;
  static constexpr std::size_t max_customization_size = 0;
  static constexpr std::size_t block_size = rate;
  using output_type = std::array<std::uint8_t, output_size>;

  LWC_HD constexpr esch() {}
  constexpr esch(const esch&) = default;
  constexpr esch& operator=(const esch&) = default;
  LWC_HD constexpr ~esch() {
    wipe_object(s_);
    wipe_object(buf_);
  }

  LWC_HD constexpr esch& update(bytes_view data) {
    absorb(data.data(), data.size());
    return *this;
  }
  LWC_HD constexpr void absorb(const std::uint8_t* in, std::size_t n) {
    LWC_REQUIRE(!squeezing_, "absorb after squeeze");
    if (n == 0) return;
    if (len_ != 0) {
      while (len_ < rate && n != 0) {
        buf_[len_++] = *in++;
        --n;
      }
      if (n == 0) return;
      std::uint32_t m[4];
      load_words<4>(m, buf_);
      inject(s_.w, m);
      permute<nb, P::slim>(s_);
      len_ = 0;
    }
    // Whole blocks that more input follows, straight from the input.
    state<nb> s = s_;
    for (; n > rate; n -= rate, in += rate) {
      std::uint32_t m[4];
      load_words<4>(m, in);
      inject(s.w, m);
      permute<nb, P::slim>(s);
    }
    s_ = s;
    wipe_object(s);
    for (std::size_t i = 0; i < n; ++i) buf_[i] = in[i];
    len_ = static_cast<std::uint8_t>(n);
  }

  // Writes the next n output bytes. After the first call, absorb() is an error.
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    LWC_REQUIRE(n <= max_output_size - squeezed_, "output longer than the algorithm defines");
    squeezed_ = static_cast<std::uint8_t>(squeezed_ + n);
    if (!squeezing_) {
      // The constant M1 (padded block) or M2 (full block), in the last word of the left half.
      s_.w[nb - 1] ^= (len_ < rate ? 1u : 2u) << 24;
      if (len_ < rate) {
        buf_[len_] = 0x80;
        for (std::size_t i = len_ + 1u; i < rate; ++i) buf_[i] = 0;
      }
      std::uint32_t m[4];
      load_words<4>(m, buf_);
      inject(s_.w, m);
      permute<nb, P::big>(s_);
      squeezing_ = true;
      len_ = 0;  // from here: bytes of the current output block already given
    }
    while (n != 0) {
      if (len_ == rate) {
        permute<nb, P::slim>(s_);
        len_ = 0;
      }
      // Whole words where the output is word-aligned in the block (a whole digest always is).
      if (len_ % 4 == 0 && n >= 4) {
        store_le32(out, s_.w[len_ / 4]);
        out += 4;
        len_ = static_cast<std::uint8_t>(len_ + 4);
        n -= 4;
        continue;
      }
      *out++ = static_cast<std::uint8_t>(s_.w[len_ / 4] >> (8 * (len_ % 4)));
      ++len_;
      --n;
    }
  }

  // The digest. Call once, instead of squeeze().
  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), out.size());
    return out;
  }

  LWC_HD static constexpr output_type digest(bytes_view data) {
    esch h;
    h.update(data);
    return h.finalize();
  }

 private:
  // The block m0..m3 (zero-extended to the left half) goes through the linear Feistel map and is
  // XORed into the left half of the state.
  LWC_HD LWC_ALWAYS_INLINE static constexpr void inject(std::uint32_t* w, const std::uint32_t* m) {
    const std::uint32_t tx = ell(m[0] ^ m[2]), ty = ell(m[1] ^ m[3]);
    w[0] ^= m[0] ^ ty;
    w[1] ^= m[1] ^ tx;
    w[2] ^= m[2] ^ ty;
    w[3] ^= m[3] ^ tx;
    LWC_UNROLL for (std::size_t i = 2; i < nb / 2; ++i) {
      w[2 * i] ^= ty;
      w[2 * i + 1] ^= tx;
    }
  }

  state<nb> s_{};
  std::uint8_t buf_[rate]{};
  std::uint8_t len_ = 0;       // absorbing: bytes in buf_; squeezing: bytes of the block given
  std::uint8_t squeezed_ = 0;  // output bytes given so far
  bool squeezing_ = false;
};

struct esch256_traits {
  static constexpr std::string_view name = "esch256";
  using params = esch_params<6, 7, 11, 32>;  // SPARKLE384
};
struct esch384_traits {
  static constexpr std::string_view name = "esch384";
  using params = esch_params<8, 8, 12, 48>;  // SPARKLE512
};

}  // namespace detail

// Esch256 and Esch384: incremental hashes with 32- and 48-byte digests.
using esch256 = detail::esch<detail::esch256_traits>;
using esch384 = detail::esch<detail::esch384_traits>;

}  // namespace lwc::sparkle
