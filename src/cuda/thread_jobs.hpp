// SPDX-License-Identifier: MIT OR Apache-2.0
// The generic kernels' body: one thread per job, running the single-message core (its headers
// are LWC_HD) directly on the job's bytes. Every algorithm of the list has it, so every
// algorithm runs on the GPU; those with a warp kernel (warp_engine.hpp, which stages the bytes
// of a warp's 32 jobs through shared memory so that global accesses are coalesced) use that
// instead. Here the 32 threads of a warp read 32 different messages and global accesses are
// not coalesced: a simple path whose speed on a GPU is not known yet. Written once for the
// kernels (kernel.cuh) and the host emulation that the CPU tests run (emulate.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <lwc/algorithm_list.hpp>

#include "warp_engine.hpp"

namespace lwc::cuda::detail {

// AEAD job i of the batch, as the core's one-shot call. A job whose elements do not fit
// (offsets in device memory are not checked by the host) is skipped, and fails with its own
// output bytes zeroed when decrypting, as in the warp kernels.
template <class Algorithm, bool Decrypt>
LWC_HD void aead_thread_job(const aead_batch& b, std::size_t i) {
  const aead_job j = aead_job_of<Decrypt>(b, i);
  if (!j.valid) {
    if constexpr (Decrypt) {
      b.ok[i] = 0;
      zero_range(j.out, j.out_size);
    }
    return;
  }
  const auto bytes = [](std::uintptr_t a) { return reinterpret_cast<const std::uint8_t*>(a); };
  const std::uint8_t* second = j.second_key != 0 ? bytes(j.second_key) : nullptr;
  const std::uint8_t* ad = j.ad_len != 0 ? bytes(j.ad) : nullptr;
  auto* out = reinterpret_cast<std::uint8_t*>(j.out);
  if constexpr (Decrypt) {
    // The core zeroes the output itself when the tag does not verify.
    b.ok[i] = Algorithm::decrypt(bytes(j.key), second, bytes(j.nonce), ad, j.ad_len, bytes(j.in),
                                 j.len, bytes(j.tag), b.tag_len, out)
                  ? 1
                  : 0;
  } else {
    Algorithm::encrypt(bytes(j.key), second, bytes(j.nonce), ad, j.ad_len, bytes(j.in), j.len,
                       out, reinterpret_cast<std::uint8_t*>(j.tag), b.tag_len);
  }
}

// Hash, XOF, CXOF, MAC or PRF job i: the core's incremental object, built with the job's key
// or customization string where the algorithm has one. A job that does not fit is skipped.
template <class Hash>
LWC_HD void hash_thread_job(const sponge_batch& b, std::size_t i) {
  const sponge_job j = sponge_job_of(b, i);
  if (!j.valid) return;
  const auto bytes = [](std::uintptr_t a) { return reinterpret_cast<const std::uint8_t*>(a); };
  const auto run = [&](Hash& h) {
    h.absorb(bytes(j.in), j.len);
    h.squeeze(reinterpret_cast<std::uint8_t*>(j.out), j.out_len);
  };
  if constexpr (Hash::keyed) {
    Hash h(bytes(j.key));
    run(h);
  } else if constexpr (Hash::kind == algorithm_kind::cxof) {
    Hash h(j.custom_len != 0 ? bytes(j.custom) : nullptr, j.custom_len);
    run(h);
  } else {
    Hash h;
    run(h);
  }
}

// The jobs of thread `thread` out of `threads`: thread, thread + threads, ... (a grid-stride
// loop, so that any grid covers the batch and neighbouring threads take neighbouring jobs).
template <class Algorithm, bool Decrypt>
LWC_HD void aead_thread_jobs(const aead_batch& b, std::size_t thread, std::size_t threads) {
  for (std::size_t i = thread; i < b.count; i += threads) aead_thread_job<Algorithm, Decrypt>(b, i);
}
template <class Hash>
LWC_HD void hash_thread_jobs(const sponge_batch& b, std::size_t thread, std::size_t threads) {
  for (std::size_t i = thread; i < b.count; i += threads) hash_thread_job<Hash>(b, i);
}

}  // namespace lwc::cuda::detail
