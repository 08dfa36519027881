// SPDX-License-Identifier: MIT OR Apache-2.0
// Runs the CUDA engine's kernel bodies on the host: the warp engine warp after warp for the
// algorithms with the warp trait, the one-thread-per-job body thread after thread for all
// others, chosen exactly as the launchers choose (kernel.cuh). The CPU tests use it to check
// every algorithm's kernel body against the portable core without a GPU, and the host
// pipeline's tests use it in place of a device.
#pragma once

#include <memory>
#include <stdexcept>

#include <lwc/algorithm_list.hpp>

#include "algorithms.hpp"
#include "thread_jobs.hpp"
#include "warp_engine.hpp"

namespace lwc::cuda::detail {

template <class Lane, class Batch>
void emulate_batch(const Batch& b, std::size_t warps) {
  if (b.count == 0) return;
  auto sh = std::make_unique<warp_shared>();
  auto w = std::make_unique<host_warp<Lane>>();
  for (std::size_t i = 0; i < warps; ++i) {
    *w = host_warp<Lane>{};
    w->sh = sh.get();
    run_warp(*w, b, warp_jobs(b.count, warps, i));
  }
}

// The one-thread-per-job kernels' threads (32 per warp) one after the other.
template <class Algorithm, bool Decrypt>
void emulate_aead_threads(const aead_batch& b, std::size_t warps) {
  const std::size_t threads = warp_lanes * warps;
  for (std::size_t t = 0; t < threads && t < b.count; ++t)
    aead_thread_jobs<Algorithm, Decrypt>(b, t, threads);
}
template <class Hash>
void emulate_hash_threads(const sponge_batch& b, std::size_t warps) {
  const std::size_t threads = warp_lanes * warps;
  for (std::size_t t = 0; t < threads && t < b.count; ++t) hash_thread_jobs<Hash>(b, t, threads);
}

// Calls f.template operator()<A>() with A the class of list entry `id`.
template <class F>
void with_algorithm(algo id, F&& f) {
  bool found = false;
  lwc::for_each_listed([&]<std::size_t I, class Entry>() {
    if (I == id) {
      found = true;
      f.template operator()<typename Entry::type>();
    }
  });
  if (!found) throw std::invalid_argument("emulate: no such algorithm");
}

// Whether the launchers use the warp engine (else one thread per job) for this algorithm.
inline bool uses_warp_engine(algo id) {
  bool warp = false;
  with_algorithm(id, [&]<class A>() { warp = has_warp_aead<A> || has_warp_sponge<A>; });
  return warp;
}

// Runs a batch the way the launchers would, with `warps` emulated warps: the warp kernel of
// algorithms with the trait, the one-thread-per-job kernel of every other. Defined in one
// translation unit (tests/cuda/emulation.cpp defines LWC_CUDA_EMULATION_DEFINITIONS), since
// each definition instantiates the emulation of every algorithm of the list.
void emulate_aead(algo id, bool decrypt, const aead_batch& b, std::size_t warps);
void emulate_sponge(algo id, const sponge_batch& b, std::size_t warps);

#if defined(LWC_CUDA_EMULATION_DEFINITIONS)
void emulate_aead(algo id, bool decrypt, const aead_batch& b, std::size_t warps) {
  if (warps == 0) throw std::invalid_argument("emulate: at least one warp is needed");
  with_algorithm(id, [&]<class A>() {
    if constexpr (!lwc::is_aead_v<A>) {
      throw std::invalid_argument("emulate: not an AEAD");
    } else if constexpr (has_warp_aead<A>) {
      if (decrypt) emulate_batch<typename warp_kernel<A>::decrypt_lane>(b, warps);
      else emulate_batch<typename warp_kernel<A>::encrypt_lane>(b, warps);
    } else {
      if (decrypt) emulate_aead_threads<A, true>(b, warps);
      else emulate_aead_threads<A, false>(b, warps);
    }
  });
}

void emulate_sponge(algo id, const sponge_batch& b, std::size_t warps) {
  if (warps == 0) throw std::invalid_argument("emulate: at least one warp is needed");
  with_algorithm(id, [&]<class A>() {
    if constexpr (lwc::is_aead_v<A>) {
      throw std::invalid_argument("emulate: not a hash, XOF, MAC or PRF");
    } else if constexpr (has_warp_sponge<A>) {
      emulate_batch<typename warp_kernel<A>::hash_lane>(b, warps);
    } else {
      emulate_hash_threads<A>(b, warps);
    }
  });
}

#endif

}  // namespace lwc::cuda::detail
