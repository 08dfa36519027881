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

// AEAD job i of the batch, as the core's one-shot call. A decreasing pair of offsets skips the
// job (and fails it when decrypting), as in the warp kernels: device offsets are not checked
// by the host.
template <class Algorithm, bool Decrypt>
LWC_HD void aead_thread_job(const aead_batch& b, std::size_t i) {
  const std::size_t m0 = b.in_off[i], m1 = b.in_off[i + 1];
  std::size_t a0 = 0, a1 = 0;
  if (b.ad_off != nullptr) {
    a0 = b.ad_off[i];
    a1 = b.ad_off[i + 1];
  }
  if (m1 < m0 || a1 < a0) {
    if constexpr (Decrypt) b.ok[i] = 0;
    return;
  }
  const std::uint8_t* key = b.keys + Algorithm::key_size * i;
  const std::uint8_t* nonce = b.nonces + Algorithm::nonce_size * i;
  const std::uint8_t* second =
      b.second_keys != nullptr ? b.second_keys + Algorithm::second_key_size * i : nullptr;
  const std::uint8_t* ad = b.ad_off != nullptr ? b.ad + (a0 - b.ad_base) : nullptr;
  const std::uint8_t* in = b.in + (m0 - b.in_base);
  std::uint8_t* out = b.out + (m0 - b.in_base);
  std::uint8_t* tag = b.tags + std::size_t{b.tag_len} * i;
  if constexpr (Decrypt) {
    // The core zeroes the output itself when the tag does not verify.
    b.ok[i] = Algorithm::decrypt(key, second, nonce, ad, a1 - a0, in, m1 - m0, tag, b.tag_len, out)
                  ? 1
                  : 0;
  } else {
    Algorithm::encrypt(key, second, nonce, ad, a1 - a0, in, m1 - m0, out, tag, b.tag_len);
  }
}

// Hash, XOF, CXOF, MAC or PRF job i: the core's incremental object, built with the job's key
// or customization string where the algorithm has one.
template <class Hash>
LWC_HD void hash_thread_job(const sponge_batch& b, std::size_t i) {
  const std::size_t m0 = b.in_off[i], m1 = b.in_off[i + 1];
  std::size_t c0 = 0, c1 = 0;
  if (b.custom_off != nullptr) {
    c0 = b.custom_off[i];
    c1 = b.custom_off[i + 1];
  }
  if (m1 < m0 || c1 < c0) return;
  const std::uint8_t* in = b.in + (m0 - b.in_base);
  std::uint8_t* out = b.out + b.out_len * i;
  const auto run = [&](Hash& h) {
    h.absorb(in, m1 - m0);
    h.squeeze(out, b.out_len);
  };
  if constexpr (Hash::keyed) {
    Hash h(b.keys + Hash::key_size * i);
    run(h);
  } else if constexpr (Hash::kind == algorithm_kind::cxof) {
    Hash h(b.custom_off != nullptr ? b.custom + (c0 - b.custom_base) : nullptr, c1 - c0);
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
