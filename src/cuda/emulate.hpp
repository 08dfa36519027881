// Runs the kernels' warp engine on the host, warp after warp: the CPU tests use it to check
// the engine (staging, alignment, refills, tails, tags) against the portable core without a
// GPU, and the host pipeline's tests use it in place of a device. The stream-cipher kernels'
// body (stream_jobs.hpp) runs here thread after thread.
#pragma once

#include <memory>
#include <stdexcept>

#include "algorithms.hpp"
#include "stream_jobs.hpp"
#include "warp_engine.hpp"

namespace lwc::cuda::detail {

template <class Lane, class Batch>
void emulate_batch(const Batch& b, std::size_t warps) {
  if (b.count == 0) return;
  if (warps == 0) throw std::invalid_argument("emulate: at least one warp is needed");
  auto sh = std::make_unique<warp_shared>();
  auto w = std::make_unique<host_warp<Lane>>();
  for (std::size_t i = 0; i < warps; ++i) {
    *w = host_warp<Lane>{};
    w->sh = sh.get();
    run_warp(*w, b, warp_jobs(b.count, warps, i));
  }
}

// The stream-cipher kernels' threads (32 per warp) one after the other.
template <class Algorithm, bool Decrypt>
void emulate_stream(const aead_batch& b, std::size_t warps) {
  if (warps == 0) throw std::invalid_argument("emulate: at least one warp is needed");
  const std::size_t threads = warp_lanes * warps;
  for (std::size_t t = 0; t < threads && t < b.count; ++t) stream_jobs<Algorithm, Decrypt>(b, t, threads);
}

template <bool Decrypt>
void emulate_aead_dir(algo id, const aead_batch& b, std::size_t warps) {
  namespace a = lwc::ascon::detail;
  switch (id) {
    case algo::aead128:
      return emulate_batch<aead_lane<a::aead128_traits, Decrypt>>(b, warps);
    case algo::ascon128:
      return emulate_batch<aead_lane<a::v12_128_traits, Decrypt>>(b, warps);
    case algo::ascon128a:
      return emulate_batch<aead_lane<a::v12_128a_traits, Decrypt>>(b, warps);
    case algo::acorn128:
      return emulate_stream<lwc::acorn::acorn128, Decrypt>(b, warps);
    case algo::grain128aead:
      return emulate_stream<lwc::grain::grain128aead, Decrypt>(b, warps);
    default:
      throw std::invalid_argument("emulate: not an AEAD");
  }
}

inline void emulate_aead(algo id, bool decrypt, const aead_batch& b, std::size_t warps) {
  if (decrypt) emulate_aead_dir<true>(id, b, warps);
  else emulate_aead_dir<false>(id, b, warps);
}

inline void emulate_sponge(algo id, const sponge_batch& b, std::size_t warps) {
  namespace a = lwc::ascon::detail;
  switch (id) {
    case algo::hash256:
      return emulate_batch<sponge_lane<a::hash256_params>>(b, warps);
    case algo::xof128:
      return emulate_batch<sponge_lane<a::xof128_params>>(b, warps);
    default:
      throw std::invalid_argument("emulate: not a hash or XOF");
  }
}

}  // namespace lwc::cuda::detail
