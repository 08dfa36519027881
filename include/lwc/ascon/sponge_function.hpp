// SPDX-License-Identifier: MIT OR Apache-2.0
// Public face of the Ascon sponge: one class template that becomes Ascon-Hash256, -XOF128,
// -CXOF128, the v1.2 hashes and the MAC/PRF family once given a traits struct. Absorb any
// number of pieces with update(), then squeeze any number of pieces; output bounded by
// max_output_size where the algorithm fixes its length (hashes, MACs).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "sponge.hpp"

namespace lwc::ascon {

// Traits provides: params (see detail::sponge), name, kind, output_size (digest or tag size,
// or the default output of an XOF/PRF) and max_output_size (0 when unbounded).
template <class Traits>
class sponge_function {
 public:
  using traits = Traits;
  static constexpr std::string_view name = Traits::name;
  static constexpr algorithm_kind kind = Traits::kind;
  static constexpr bool keyed = kind == algorithm_kind::mac || kind == algorithm_kind::prf;
  static constexpr std::size_t key_size = keyed ? 16 : 0;
  static constexpr std::size_t output_size = Traits::output_size;
  static constexpr std::size_t max_output_size = Traits::max_output_size;
  static constexpr std::size_t block_size = Traits::params::in_rate;
  static constexpr std::size_t max_customization_size = kind == algorithm_kind::cxof ? 256 : 0;
  static constexpr std::size_t max_input_size = SIZE_MAX;
  using output_type = std::array<std::uint8_t, output_size>;

  LWC_HD constexpr sponge_function()
    requires(kind == algorithm_kind::hash || kind == algorithm_kind::xof)
  {}

  // Ascon-CXOF128: the customization string (at most 256 bytes) is absorbed after its
  // length in bits, as a 64-bit little-endian word, and padded to a block of its own.
  LWC_HD constexpr explicit sponge_function(bytes_view customization)
    requires(kind == algorithm_kind::cxof)
      : sponge_function(customization.data(), customization.size()) {}
  LWC_HD constexpr sponge_function(const std::uint8_t* z, std::size_t zlen)
    requires(kind == algorithm_kind::cxof)
  {
    LWC_REQUIRE(zlen <= max_customization_size, "customization string longer than 256 bytes");
    std::uint8_t bits[8]{};
    Traits::params::lanes::store(bits, static_cast<std::uint64_t>(zlen) * 8);
    sponge_.absorb(bits, 8);
    sponge_.absorb(z, zlen);
    sponge_.pad_and_permute();
  }

  LWC_HD constexpr explicit sponge_function(fixed_bytes_view<16> key)
    requires keyed
      : sponge_(key.data()) {}
  LWC_HD constexpr explicit sponge_function(const std::uint8_t* key16)
    requires keyed
      : sponge_(key16) {}

  LWC_HD constexpr sponge_function& update(bytes_view data) {
    sponge_.absorb(data.data(), data.size());
    return *this;
  }
  LWC_HD constexpr void absorb(const std::uint8_t* data, std::size_t n) { sponge_.absorb(data, n); }

  // Writes the next out.size() output bytes. After the first call, update() is an error.
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    count_output(n);
    sponge_.squeeze(out, n);
  }

  // update(data) followed by squeeze(out), in one call to the sponge (the one-shot forms).
  LWC_HD constexpr void absorb_and_squeeze(const std::uint8_t* data, std::size_t n,
                                           std::uint8_t* out, std::size_t m) {
    count_output(m);
    sponge_.absorb_and_squeeze(data, n, out, m);
  }

  // The first output_size bytes (the digest or tag). Call once, instead of squeeze().
  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), out.size());
    return out;
  }

  // MAC/PRF: true when `tag` equals the next tag.size() output bytes; constant time.
  [[nodiscard]] LWC_HD constexpr bool verify(bytes_view tag)
    requires keyed
  {
    LWC_REQUIRE(tag.size() <= (max_output_size ? max_output_size : 64) && tag.size() >= 4,
                "tag length out of range");
    std::uint8_t expected[64]{};
    squeeze(expected, tag.size());
    const bool ok = ct_equal(expected, tag.data(), tag.size());
    wipe_object(expected);
    return ok;
  }

  // One-shot forms.
  LWC_HD static constexpr output_type digest(bytes_view data)
    requires(kind == algorithm_kind::hash || kind == algorithm_kind::xof)
  {
    output_type out{};
    sponge_function h;
    h.absorb_and_squeeze(data.data(), data.size(), out.data(), out.size());
    return out;
  }
  LWC_HD static constexpr void digest(bytes_view data, bytes_span out)
    requires(kind == algorithm_kind::hash || kind == algorithm_kind::xof)
  {
    sponge_function h;
    h.absorb_and_squeeze(data.data(), data.size(), out.data(), out.size());
  }
  LWC_HD static constexpr void digest(bytes_view data, bytes_view customization, bytes_span out)
    requires(kind == algorithm_kind::cxof)
  {
    sponge_function h(customization);
    h.absorb_and_squeeze(data.data(), data.size(), out.data(), out.size());
  }
  LWC_HD static constexpr output_type compute(fixed_bytes_view<16> key, bytes_view data)
    requires keyed
  {
    output_type out{};
    sponge_function m(key);
    m.absorb_and_squeeze(data.data(), data.size(), out.data(), out.size());
    return out;
  }
  LWC_HD static constexpr void compute(fixed_bytes_view<16> key, bytes_view data, bytes_span out)
    requires keyed
  {
    sponge_function m(key);
    m.absorb_and_squeeze(data.data(), data.size(), out.data(), out.size());
  }
  [[nodiscard]] LWC_HD static constexpr bool verify(fixed_bytes_view<16> key, bytes_view data,
                                                    bytes_view tag)
    requires keyed
  {
    sponge_function m(key);
    m.update(data);
    return m.verify(tag);
  }

 private:
  // Where the algorithm fixes its output length (hashes, MACs), no more than that is read.
  LWC_HD constexpr void count_output(std::size_t n) {
    if constexpr (max_output_size != 0) {
      LWC_REQUIRE(n <= max_output_size - squeezed_, "output longer than the algorithm defines");
      squeezed_ += n;
    }
  }

  detail::sponge<typename Traits::params> sponge_{};
  std::size_t squeezed_ = 0;
};

// Ascon-PRFShort: one permutation call over a message of at most 16 bytes, placed in x3, x4
// with its bit length in the IV; the tag is x3, x4 XOR the key. Buffered here so that it has
// the same update/squeeze interface as the other MACs.
template <class Traits>
class short_prf {
  using lanes = typename Traits::lanes;

 public:
  using traits = Traits;
  static constexpr std::string_view name = Traits::name;
  static constexpr algorithm_kind kind = algorithm_kind::mac;
  static constexpr bool keyed = true;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t output_size = 16;
  static constexpr std::size_t max_output_size = 16;
  static constexpr std::size_t block_size = 16;
  static constexpr std::size_t max_customization_size = 0;
  static constexpr std::size_t max_input_size = 16;
  using output_type = std::array<std::uint8_t, 16>;

  LWC_HD constexpr explicit short_prf(fixed_bytes_view<16> key) : short_prf(key.data()) {}
  LWC_HD constexpr explicit short_prf(const std::uint8_t* key16) {
    for (int i = 0; i < 16; ++i) key_[i] = key16[i];
  }
  constexpr short_prf(const short_prf&) = default;
  constexpr short_prf& operator=(const short_prf&) = default;
  LWC_HD constexpr ~short_prf() {
    wipe_object(key_);
    wipe_object(msg_);
    wipe_object(tag_);
  }

  LWC_HD constexpr short_prf& update(bytes_view data) {
    absorb(data.data(), data.size());
    return *this;
  }
  LWC_HD constexpr void absorb(const std::uint8_t* data, std::size_t n) {
    LWC_REQUIRE(!done_, "absorb after squeeze");
    LWC_REQUIRE(n <= 16 - len_, "Ascon-PRFShort takes at most 16 bytes of input");
    for (std::size_t i = 0; i < n; ++i) msg_[len_++] = data[i];
  }
  LWC_HD constexpr void squeeze(bytes_span out) { squeeze(out.data(), out.size()); }
  LWC_HD constexpr void squeeze(std::uint8_t* out, std::size_t n) {
    if (!done_) compute_tag();
    LWC_REQUIRE(n <= 16 - squeezed_, "output longer than the algorithm defines");
    for (std::size_t i = 0; i < n; ++i) out[i] = tag_[squeezed_++];
  }
  LWC_HD constexpr output_type finalize() {
    output_type out{};
    squeeze(out.data(), 16);
    return out;
  }
  [[nodiscard]] LWC_HD constexpr bool verify(bytes_view tag) {
    LWC_REQUIRE(tag.size() >= 4 && tag.size() <= 16, "tag length out of range");
    std::uint8_t expected[16]{};
    squeeze(expected, tag.size());
    const bool ok = ct_equal(expected, tag.data(), tag.size());
    wipe_object(expected);
    return ok;
  }
  LWC_HD static constexpr output_type compute(fixed_bytes_view<16> key, bytes_view data) {
    short_prf m(key);
    m.update(data);
    return m.finalize();
  }
  LWC_HD static constexpr void compute(fixed_bytes_view<16> key, bytes_view data, bytes_span out) {
    short_prf m(key);
    m.update(data);
    m.squeeze(out);
  }
  [[nodiscard]] LWC_HD static constexpr bool verify(fixed_bytes_view<16> key, bytes_view data,
                                                    bytes_view tag) {
    short_prf m(key);
    m.update(data);
    return m.verify(tag);
  }

 private:
  LWC_HD constexpr void compute_tag() {
    const std::uint64_t k0 = lanes::load(key_), k1 = lanes::load(key_ + 8);
    state s{{Traits::iv | (static_cast<std::uint64_t>(len_ * 8) << 48), k0, k1,
             lanes::load(msg_), lanes::load(msg_ + 8)}};
    permute<12>(s);
    lanes::store(tag_, s.x[3] ^ k0);
    lanes::store(tag_ + 8, s.x[4] ^ k1);
    wipe_object(s);
    done_ = true;
  }

  std::uint8_t key_[16]{};
  std::uint8_t msg_[16]{};  // zero beyond len_: the message is zero-padded, not 0x80/0x01-padded
  std::uint8_t tag_[16]{};
  std::size_t len_ = 0;
  std::size_t squeezed_ = 0;
  bool done_ = false;
};

}  // namespace lwc::ascon
