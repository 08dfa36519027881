// SPDX-License-Identifier: MIT OR Apache-2.0
// The registry's entry points (lwc::detail::entry_points<A>, see registry.hpp), compiled once
// for every algorithm of the list. Every other translation unit of this build sees only their
// declarations (LWC_REGISTRY_COMPILED) and links them from here: a unit that iterates the
// registry then no longer compiles all the algorithms itself, which was most of the build.
//
// The list is walked by position: explicit instantiations must be written out one by one, so
// they are written for positions 0 .. max_slots - 1, and a position past the end of the list
// instantiates an empty placeholder. Adding an algorithm needs no edit here.
//
// This file is compiled LWC_REGISTRY_PARTS times (src/registry/CMakeLists.txt), each unit
// taking the positions p with p % LWC_REGISTRY_PARTS == LWC_REGISTRY_PART: the entry points are
// most of a build's compile time, and in several units they keep every core busy. Neighbours
// in the list are often one family, so alternate positions share the work evenly.
#define LWC_REGISTRY_DEFINE_ENTRY_POINTS
#include <lwc/registry.hpp>

#include <type_traits>

namespace lwc::detail {

#ifndef LWC_REGISTRY_PARTS
#define LWC_REGISTRY_PARTS 1
#define LWC_REGISTRY_PART 0
#endif
inline constexpr std::size_t parts = LWC_REGISTRY_PARTS;
inline constexpr std::size_t this_part = LWC_REGISTRY_PART;
static_assert(this_part < parts);

inline constexpr std::size_t max_slots = 128;
static_assert(algorithm_count <= max_slots, "raise max_slots (and the LWC_SLOTS rows below)");

template <std::size_t I>
struct unused_slot {};
template <std::size_t I>
struct entry_points<unused_slot<I>> {};

template <std::size_t I, bool Listed = (I < algorithm_count && I % parts == this_part)>
struct slot_type {
  using type = list_algorithm<I>;
};
template <std::size_t I>
struct slot_type<I, false> {
  using type = unused_slot<I>;
};
template <std::size_t I>
using slot = typename slot_type<I>::type;

#define LWC_SLOT(I) template struct entry_points<slot<I>>;
#define LWC_SLOTS8(I)                                                                        \
  LWC_SLOT(I) LWC_SLOT(I + 1) LWC_SLOT(I + 2) LWC_SLOT(I + 3) LWC_SLOT(I + 4) LWC_SLOT(I + 5) \
  LWC_SLOT(I + 6) LWC_SLOT(I + 7)
LWC_SLOTS8(0) LWC_SLOTS8(8) LWC_SLOTS8(16) LWC_SLOTS8(24) LWC_SLOTS8(32) LWC_SLOTS8(40)
LWC_SLOTS8(48) LWC_SLOTS8(56) LWC_SLOTS8(64) LWC_SLOTS8(72) LWC_SLOTS8(80) LWC_SLOTS8(88)
LWC_SLOTS8(96) LWC_SLOTS8(104) LWC_SLOTS8(112) LWC_SLOTS8(120)
#undef LWC_SLOTS8
#undef LWC_SLOT

}  // namespace lwc::detail
