// SPDX-License-Identifier: MIT OR Apache-2.0
// The one list of lwc's algorithms, as C++ types. Everything else is generated from it: the
// run-time registry (registry.hpp) that the C ABI, Python, the CLI, the KAT driver and the
// benchmarks iterate; the batch engine's job-by-job path and the CUDA engine's kernels, which
// are instantiated for every entry; the tests that check that no surface lists fewer.
//
// Adding an algorithm: its header folder include/lwc/<family>/, one `listed<...>` line below
// (with a provenance, new or shared), its KAT files in tests/vectors/<family>/. CONTRIBUTING.md
// has the whole recipe, and the optional fast paths (SIMD lanes, GPU warp kernels).
//
// Order is the order users see in listings.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "acorn/acorn128.hpp"
#include "ascon.hpp"
#include "elephant/elephant.hpp"
#include "gift_cofb/gift_cofb.hpp"
#include "grain/grain128aead.hpp"
#include "isap/aead.hpp"
#include "photon_beetle/aead.hpp"
#include "photon_beetle/hash.hpp"
#include "romulus/romulus.hpp"
#include "sparkle/esch.hpp"
#include "sparkle/schwaemm.hpp"
#include "tinyjambu/tinyjambu.hpp"
#include "xoodyak/xoodyak.hpp"

namespace lwc {

// A list of types, known at compile time; size is how many.
template <class... T>
struct type_list {
  static constexpr std::size_t size = sizeof...(T);
};

// Where an algorithm's definition comes from, and the family (its folder under include/lwc/)
// it belongs to. `legacy` marks a definition that a standard has superseded (Ascon v1.2,
// replaced by NIST SP 800-232): kept for interoperability, and labelled so in every listing.
struct provenance {
  std::string_view family;
  std::string_view standard;
  bool legacy = false;
};

// One entry of the list: the algorithm's class (the single-message core) and its provenance.
template <class Algorithm, const provenance& Source>
struct listed {
  using type = Algorithm;  // the algorithm's class
  static constexpr const provenance& source = Source;  // where its definition comes from
};

namespace provenances {
// The provenance of each family's definitions, as the list names them.
inline constexpr provenance ascon_sp800_232{"ascon", "NIST SP 800-232"};
inline constexpr provenance ascon_v12{"ascon", "Ascon v1.2", true};
inline constexpr provenance ascon_v13{"ascon", "Ascon v1.3 (ascon-c)"};
inline constexpr provenance acorn_v3{"acorn", "ACORN v3 (CAESAR)"};
inline constexpr provenance grain_v2{"grain", "Grain-128AEADv2 (NIST LWC final round)"};
inline constexpr provenance xoodyak_final{"xoodyak", "Xoodyak (NIST LWC final round)"};
inline constexpr provenance sparkle_v12{"sparkle", "SPARKLE v1.2 (NIST LWC final round)"};
inline constexpr provenance tinyjambu_v2{"tinyjambu", "TinyJAMBU v2 (NIST LWC final round)"};
inline constexpr provenance elephant_v2{"elephant", "Elephant v2 (NIST LWC final round)"};
inline constexpr provenance gift_cofb_final{"gift-cofb", "GIFT-COFB (NIST LWC final round)"};
inline constexpr provenance romulus_v13{"romulus", "Romulus v1.3 (NIST LWC final round)"};
inline constexpr provenance photon_beetle_v11{"photon-beetle", "PHOTON-Beetle v1.1 (NIST LWC final round)"};
inline constexpr provenance isap_v20{"isap", "ISAP v2.0 (NIST LWC final round)"};
}  // namespace provenances

// A short name for the list below.
namespace pv = provenances;

// Every algorithm, as listed<Class, provenance>, in the order users see in listings.
using algorithm_list = type_list<
    listed<ascon::aead128, pv::ascon_sp800_232>,
    listed<ascon::hash256, pv::ascon_sp800_232>,
    listed<ascon::xof128, pv::ascon_sp800_232>,
    listed<ascon::cxof128, pv::ascon_sp800_232>,
    listed<ascon::v12::ascon128, pv::ascon_v12>,
    listed<ascon::v12::ascon128a, pv::ascon_v12>,
    listed<ascon::v12::ascon80pq, pv::ascon_v12>,
    listed<ascon::v12::hash, pv::ascon_v12>,
    listed<ascon::v12::hasha, pv::ascon_v12>,
    listed<ascon::v12::xof, pv::ascon_v12>,
    listed<ascon::v12::xofa, pv::ascon_v12>,
    listed<ascon::v12::mac, pv::ascon_v12>,
    listed<ascon::v12::prf, pv::ascon_v12>,
    listed<ascon::v12::prfshort, pv::ascon_v12>,
    listed<ascon::v12::maca, pv::ascon_v12>,
    listed<ascon::v12::prfa, pv::ascon_v12>,
    listed<ascon::v13::mac, pv::ascon_v13>,
    listed<ascon::v13::prf, pv::ascon_v13>,
    listed<ascon::v13::prfshort, pv::ascon_v13>,
    listed<acorn::acorn128, pv::acorn_v3>,
    listed<grain::grain128aead, pv::grain_v2>,
    listed<xoodyak::aead, pv::xoodyak_final>,
    listed<xoodyak::hash, pv::xoodyak_final>,
    listed<sparkle::schwaemm256_128, pv::sparkle_v12>,
    listed<sparkle::schwaemm192_192, pv::sparkle_v12>,
    listed<sparkle::schwaemm128_128, pv::sparkle_v12>,
    listed<sparkle::schwaemm256_256, pv::sparkle_v12>,
    listed<sparkle::esch256, pv::sparkle_v12>,
    listed<sparkle::esch384, pv::sparkle_v12>,
    listed<tinyjambu::tinyjambu128, pv::tinyjambu_v2>,
    listed<tinyjambu::tinyjambu192, pv::tinyjambu_v2>,
    listed<tinyjambu::tinyjambu256, pv::tinyjambu_v2>,
    listed<elephant::elephant_dumbo, pv::elephant_v2>,
    listed<elephant::elephant_jumbo, pv::elephant_v2>,
    listed<elephant::elephant_delirium, pv::elephant_v2>,
    listed<gift_cofb::gift_cofb, pv::gift_cofb_final>,
    listed<romulus::romulus_n, pv::romulus_v13>,
    listed<romulus::romulus_m, pv::romulus_v13>,
    listed<romulus::romulus_t, pv::romulus_v13>,
    listed<romulus::romulus_h, pv::romulus_v13>,
    listed<photon_beetle::aead128, pv::photon_beetle_v11>,
    listed<photon_beetle::aead32, pv::photon_beetle_v11>,
    listed<photon_beetle::hash, pv::photon_beetle_v11>,
    listed<isap::isap_a_128a, pv::isap_v20>,
    listed<isap::isap_k_128a, pv::isap_v20>,
    listed<isap::isap_a_128, pv::isap_v20>,
    listed<isap::isap_k_128, pv::isap_v20>>;

// ---- walking the list at compile time ------------------------------------------------------

// The I-th entry's algorithm type.
template <std::size_t I, class List = algorithm_list>
struct list_element;
template <std::size_t I, class First, class... Rest>
struct list_element<I, type_list<First, Rest...>> : list_element<I - 1, type_list<Rest...>> {};
template <class First, class... Rest>
struct list_element<0, type_list<First, Rest...>> {
  using entry = First;
  using type = typename First::type;
};
template <std::size_t I>
using list_algorithm = typename list_element<I>::type;

// How many algorithms the list has.
inline constexpr std::size_t algorithm_count = algorithm_list::size;

// Calls f.template operator()<I, Entry>() for every entry, in list order.
template <class F, class... E>
constexpr void for_each_listed(type_list<E...>, F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<I, E>(), ...);
  }(std::make_index_sequence<sizeof...(E)>{});
}
template <class F>
constexpr void for_each_listed(F&& f) {
  for_each_listed(algorithm_list{}, static_cast<F&&>(f));
}

// AEADs expose encrypt/decrypt; the other kinds are incremental hash objects.
template <class A>
inline constexpr bool is_aead_v = A::kind == algorithm_kind::aead;

}  // namespace lwc
