// SPDX-License-Identifier: MIT OR Apache-2.0
// The lane kernels of one backend, and its entry table. Included once by each backend
// translation unit (backend_*.cpp) after it has defined LWC_SIMD_NS and its lane-vector types,
// so that everything here is compiled with that unit's instruction set and stays inside its
// namespace.
//
// A lane kernel is an optional trait of an algorithm: a specialization of lane_kernel<A> (A the
// algorithm's class in algorithm_list.hpp) with a static member template aead<V>(const
// aead_task&) or sponge<V>(const sponge_task&), V constrained to lane_vector (64-bit lanes:
// Ascon, ISAP-A, Acorn, PHOTON-Beetle, Grain) or lane_vector32 (32-bit lanes: Xoodyak,
// SPARKLE, TinyJAMBU, GIFT-COFB, Romulus-N, -M, -T and -H, ISAP-K), kept in the family's file
// under lanes/; Elephant batches permutation calls of many jobs instead (lanes/elephant.hpp). The
// table below is filled from the list: an algorithm with a kernel runs in lanes on this
// backend, every other one is left null and runs job by job (job_by_job.cpp), with no edit
// here.
#pragma once

#include <array>
#include <cstddef>

#include <lwc/algorithm_list.hpp>

#include "../simd/vec_common.hpp"
#include "backend.hpp"

#ifndef LWC_SIMD_NS
#error "define LWC_SIMD_NS (the backend namespace) before including lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS {

using lwc::batch::detail::aead_desc;
using lwc::batch::detail::aead_task;
using lwc::batch::detail::backend_ops;
using lwc::batch::detail::sponge_desc;
using lwc::batch::detail::sponge_task;

namespace eng {
// No lanes unless a family file says otherwise.
template <class Algorithm>
struct lane_kernel {};
}  // namespace eng

}  // namespace lwc::simd::LWC_SIMD_NS

// The pieces every lane kernel shares, the scheduler they run under, and the families with
// lane kernels.
#include "lanes/common.hpp"
#include "lanes/scheduler.hpp"
#include "lanes/ascon.hpp"
#include "lanes/isap.hpp"
#include "lanes/acorn.hpp"
#include "lanes/xoodyak.hpp"
#include "lanes/sparkle.hpp"
#include "lanes/tinyjambu.hpp"
#include "lanes/gift_cofb.hpp"
#include "lanes/romulus.hpp"
#include "lanes/romulus_th.hpp"
#include "lanes/photon_beetle.hpp"
#include "lanes/isap_k.hpp"
#include "lanes/grain.hpp"
#include "lanes/elephant.hpp"

namespace lwc::simd::LWC_SIMD_NS {

namespace eng {

template <class A, class V>
concept has_aead_lanes = requires(const aead_task& t) { lane_kernel<A>::template aead<V>(t); };
template <class A, class V>
concept has_sponge_lanes = requires(const sponge_task& t) { lane_kernel<A>::template sponge<V>(t); };

}  // namespace eng

// Constant-initialized (no dynamic initializer runs this unit's code at program start). V is
// the backend's vector of 64-bit lanes, V32 its vector of 32-bit lanes; each kernel names the
// form it is written for by constraining its template parameter.
template <lane_vector V, lane_vector32 V32>
constexpr backend_ops make_ops(const char* name) {
  backend_ops table{name, V::lanes, {}, {}, &eng::permute_entry<V>};
  lwc::for_each_listed([&]<std::size_t I, class Entry>() {
    using A = typename Entry::type;
    if constexpr (eng::has_aead_lanes<A, V>) table.aead[I] = &eng::lane_kernel<A>::template aead<V>;
    else if constexpr (eng::has_aead_lanes<A, V32>)
      table.aead[I] = &eng::lane_kernel<A>::template aead<V32>;
    if constexpr (eng::has_sponge_lanes<A, V>)
      table.sponge[I] = &eng::lane_kernel<A>::template sponge<V>;
    else if constexpr (eng::has_sponge_lanes<A, V32>)
      table.sponge[I] = &eng::lane_kernel<A>::template sponge<V32>;
  });
  return table;
}

}  // namespace lwc::simd::LWC_SIMD_NS
