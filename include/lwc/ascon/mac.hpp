// SPDX-License-Identifier: MIT OR Apache-2.0
// The Ascon MAC/PRF family (Dobraunig, Eichlseder, Mendel, Schlaeffer: "Ascon PRF, MAC, and
// Short-Input MAC", ia.cr/2021/1574). Not part of SP 800-232, so two incompatible flavours are
// in use and both are here under visible names: legacy (Ascon v1.2) (big endian: ascon-mac,
// -prf, -prfshort, -maca, -prfa) and v1.3 as in the designers' reference code today (little endian, new IVs:
// ascon-mac-v13, -prf-v13, -prfshort-v13). Compare tags with verify(), never with ==.
#pragma once

#include <string_view>

#include "hash.hpp"
#include "sponge_function.hpp"

namespace lwc::ascon {

namespace detail {

template <class Lanes, std::uint64_t IV, std::size_t InRate, int Rounds>
struct keyed_params {
  using lanes = Lanes;
  static constexpr std::uint64_t iv = IV;
  static constexpr std::size_t in_rate = InRate;
  static constexpr std::size_t out_rate = 16;
  static constexpr int absorb_rounds = Rounds;
  static constexpr int squeeze_rounds = Rounds;
  static constexpr bool keyed = true;
};

// v1.2 IVs: key bits, output rate bits, 0x80 | a, a - b, tag bits (MAC only), big endian.
using v12_mac_params = keyed_params<big_endian_lanes, 0x80808c0000000080, 32, 12>;
using v12_maca_params = keyed_params<big_endian_lanes, 0x80808c0400000080, 40, 8>;
using v12_prf_params = keyed_params<big_endian_lanes, 0x80808c0000000000, 32, 12>;
using v12_prfa_params = keyed_params<big_endian_lanes, 0x80808c0400000000, 40, 8>;

// v1.3 IVs: variant | a << 16 | b << 20 | tag bits << 24 | input rate << 40 | output rate << 48.
constexpr std::uint64_t v13_iv(std::uint64_t variant, std::uint64_t tag_bits) {
  return variant | 12ull << 16 | 12ull << 20 | tag_bits << 24 | 32ull << 40 | 16ull << 48;
}
using v13_mac_params = keyed_params<little_endian_lanes, v13_iv(5, 128), 32, 12>;
using v13_prf_params = keyed_params<little_endian_lanes, v13_iv(6, 0), 32, 12>;

struct v12_mac_traits : sponge_traits_base<v12_mac_params, algorithm_kind::mac, 16, 16> {
  static constexpr std::string_view name = "ascon-mac";
};
struct v12_maca_traits : sponge_traits_base<v12_maca_params, algorithm_kind::mac, 16, 16> {
  static constexpr std::string_view name = "ascon-maca";
};
struct v12_prf_traits : sponge_traits_base<v12_prf_params, algorithm_kind::prf, 16, 0> {
  static constexpr std::string_view name = "ascon-prf";
};
struct v12_prfa_traits : sponge_traits_base<v12_prfa_params, algorithm_kind::prf, 16, 0> {
  static constexpr std::string_view name = "ascon-prfa";
};
struct v13_mac_traits : sponge_traits_base<v13_mac_params, algorithm_kind::mac, 16, 16> {
  static constexpr std::string_view name = "ascon-mac-v13";
};
struct v13_prf_traits : sponge_traits_base<v13_prf_params, algorithm_kind::prf, 16, 0> {
  static constexpr std::string_view name = "ascon-prf-v13";
};

struct v12_prfshort_traits {
  using lanes = big_endian_lanes;
  static constexpr std::uint64_t iv = 0x80004c8000000000;
  static constexpr std::string_view name = "ascon-prfshort";
};
struct v13_prfshort_traits {
  using lanes = little_endian_lanes;
  static constexpr std::uint64_t iv = 7 | 12ull << 16 | 128ull << 24;
  static constexpr std::string_view name = "ascon-prfshort-v13";
};

}  // namespace detail

// Legacy (Ascon v1.2): the registry marks these legacy; the v1.3 definitions are current.
namespace v12 {
using mac = sponge_function<detail::v12_mac_traits>;
using maca = sponge_function<detail::v12_maca_traits>;
using prf = sponge_function<detail::v12_prf_traits>;
using prfa = sponge_function<detail::v12_prfa_traits>;
using prfshort = short_prf<detail::v12_prfshort_traits>;
}  // namespace v12
// Ascon-MAC, -PRF and -PRFShort as the reference code ascon-c defines them since v1.3.
namespace v13 {
using mac = sponge_function<detail::v13_mac_traits>;
using prf = sponge_function<detail::v13_prf_traits>;
using prfshort = short_prf<detail::v13_prfshort_traits>;
}  // namespace v13

}  // namespace lwc::ascon
