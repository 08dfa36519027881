// The stream-cipher AEADs of the CUDA engine (Acorn-128, Grain-128AEADv2): one thread per job,
// running the single-message core (its headers are LWC_HD) directly on the job's bytes. Unlike
// the Ascon kernels (warp_engine.hpp) the bytes are not staged through shared memory, so the
// 32 threads of a warp read 32 different messages and global accesses are not coalesced: a
// simple first version whose speed on a GPU is not known yet. Written once for the kernels
// (kernels_stream.cu) and the host emulation that the CPU tests run (emulate.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <lwc/acorn/acorn128.hpp>
#include <lwc/grain/grain128aead.hpp>

#include "warp_engine.hpp"

namespace lwc::cuda::detail {

// Job i of the batch, as the core's one-shot call. A decreasing pair of offsets skips the job
// (and fails it when decrypting), as in the Ascon kernels: device offsets are not checked by
// the host.
template <class Algorithm, bool Decrypt>
LWC_HD void stream_job(const aead_batch& b, std::size_t i) {
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
  const std::uint8_t* ad = b.ad_off != nullptr ? b.ad + (a0 - b.ad_base) : nullptr;
  const std::uint8_t* in = b.in + (m0 - b.in_base);
  std::uint8_t* out = b.out + (m0 - b.in_base);
  std::uint8_t* tag = b.tags + std::size_t{b.tag_len} * i;
  if constexpr (Decrypt) {
    // The core zeroes the output itself when the tag does not verify.
    b.ok[i] = Algorithm::decrypt(key, nullptr, nonce, ad, a1 - a0, in, m1 - m0, tag, b.tag_len, out)
                  ? 1
                  : 0;
  } else {
    Algorithm::encrypt(key, nullptr, nonce, ad, a1 - a0, in, m1 - m0, out, tag, b.tag_len);
  }
}

// The jobs of thread `thread` out of `threads`: thread, thread + threads, ... (a grid-stride
// loop, so that any grid covers the batch and neighbouring threads take neighbouring jobs).
template <class Algorithm, bool Decrypt>
LWC_HD void stream_jobs(const aead_batch& b, std::size_t thread, std::size_t threads) {
  for (std::size_t i = thread; i < b.count; i += threads) stream_job<Algorithm, Decrypt>(b, i);
}

}  // namespace lwc::cuda::detail
