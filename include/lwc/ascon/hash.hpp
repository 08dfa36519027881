// SPDX-License-Identifier: MIT OR Apache-2.0
// Ascon hashing: Ascon-Hash256, Ascon-XOF128 and Ascon-CXOF128 (NIST SP 800-232, section 5),
// the ones to use, and the legacy (Ascon v1.2) Hash, HashA, Xof, XofA (big-endian byte order,
// other IVs), kept for existing data.
// Not keyed: use the MAC/PRF family (mac.hpp) or an AEAD for authentication.
#pragma once

#include <string_view>

#include "sponge_function.hpp"

namespace lwc::ascon {

namespace detail {

template <class Lanes, std::uint64_t IV, int AbsorbRounds>
struct unkeyed_params {
  using lanes = Lanes;
  static constexpr std::uint64_t iv = IV;
  static constexpr std::size_t in_rate = 8;
  static constexpr std::size_t out_rate = 8;
  static constexpr int absorb_rounds = AbsorbRounds;
  static constexpr int squeeze_rounds = AbsorbRounds;
  static constexpr bool keyed = false;
};

template <class Params, algorithm_kind Kind, std::size_t Output, std::size_t MaxOutput>
struct sponge_traits_base {
  using params = Params;
  static constexpr algorithm_kind kind = Kind;
  static constexpr std::size_t output_size = Output;
  static constexpr std::size_t max_output_size = MaxOutput;
};

// SP 800-232 IVs (little-endian words): variant, rounds, output bits and rate packed in one word.
using hash256_params = unkeyed_params<little_endian_lanes, 0x0000080100cc0002, 12>;
using xof128_params = unkeyed_params<little_endian_lanes, 0x0000080000cc0003, 12>;
using cxof128_params = unkeyed_params<little_endian_lanes, 0x0000080000cc0004, 12>;
// Ascon v1.2 IVs (big-endian words).
using v12_hash_params = unkeyed_params<big_endian_lanes, 0x00400c0000000100, 12>;
using v12_hasha_params = unkeyed_params<big_endian_lanes, 0x00400c0400000100, 8>;
using v12_xof_params = unkeyed_params<big_endian_lanes, 0x00400c0000000000, 12>;
using v12_xofa_params = unkeyed_params<big_endian_lanes, 0x00400c0400000000, 8>;

struct hash256_traits : sponge_traits_base<hash256_params, algorithm_kind::hash, 32, 32> {
  static constexpr std::string_view name = "ascon-hash256";
};
struct xof128_traits : sponge_traits_base<xof128_params, algorithm_kind::xof, 32, 0> {
  static constexpr std::string_view name = "ascon-xof128";
};
struct cxof128_traits : sponge_traits_base<cxof128_params, algorithm_kind::cxof, 32, 0> {
  static constexpr std::string_view name = "ascon-cxof128";
};
struct v12_hash_traits : sponge_traits_base<v12_hash_params, algorithm_kind::hash, 32, 32> {
  static constexpr std::string_view name = "ascon-hash";
};
struct v12_hasha_traits : sponge_traits_base<v12_hasha_params, algorithm_kind::hash, 32, 32> {
  static constexpr std::string_view name = "ascon-hasha";
};
struct v12_xof_traits : sponge_traits_base<v12_xof_params, algorithm_kind::xof, 32, 0> {
  static constexpr std::string_view name = "ascon-xof";
};
struct v12_xofa_traits : sponge_traits_base<v12_xofa_params, algorithm_kind::xof, 32, 0> {
  static constexpr std::string_view name = "ascon-xofa";
};

}  // namespace detail

// SP 800-232: Ascon-Hash256 (32-byte digest), Ascon-XOF128 (any output length) and
// Ascon-CXOF128 (an XOF with a customization string of at most 256 bytes).
using hash256 = sponge_function<detail::hash256_traits>;
using xof128 = sponge_function<detail::xof128_traits>;
using cxof128 = sponge_function<detail::cxof128_traits>;
// Legacy (Ascon v1.2), superseded by SP 800-232's hash256 and xof128: for existing data only.
namespace v12 {
using hash = sponge_function<detail::v12_hash_traits>;
using hasha = sponge_function<detail::v12_hasha_traits>;
using xof = sponge_function<detail::v12_xof_traits>;
using xofa = sponge_function<detail::v12_xofa_traits>;
}  // namespace v12

// The initial state of Ascon-Hash256 as published in SP 800-232, derived by the compiler.
static_assert(detail::sponge<detail::hash256_params>::initial_state().x[0] == 0x9b1e5494e934d681);
static_assert(detail::sponge<detail::hash256_params>::initial_state().x[4] == 0x1a5c464906c5976d);

}  // namespace lwc::ascon
