// SPDX-License-Identifier: MIT OR Apache-2.0
// The kernels: a grid of warps, each running the warp engine of warp_engine.hpp on its range of
// jobs with one thread per lane, for algorithms with the warp trait; a grid of threads, one job
// each, for all others (thread_jobs.hpp). Included by the shard translation units
// (kernels_shard.cu.in), which instantiate them for their share of the list.
#pragma once

#include <cuda_runtime.h>

#include <atomic>

#include "launch.hpp"
#include "thread_jobs.hpp"
#include "warp_engine.hpp"

namespace lwc::cuda::detail {

inline constexpr unsigned warps_per_block = 4;

template <class Lane>
struct device_warp {
  Lane& state;
  warp_shared& sh;
  unsigned lane;

  template <class F>
  __device__ std::uint32_t ballot(F f) const {
    return __ballot_sync(0xffffffffu, f(state));
  }
  template <class F>
  __device__ void each(F f) {
    f(state, lane);
  }
  __device__ void sync() { __syncwarp(); }
  __device__ warp_shared& shared() { return sh; }
};

// Whole warps leave together (w >= warps), so every ballot and __syncwarp has all 32 lanes.
template <class Lane, class Batch>
__global__ void __launch_bounds__(32 * warps_per_block) engine_kernel(Batch b, std::size_t warps) {
  __shared__ warp_shared sh[warps_per_block];
  const unsigned wib = threadIdx.x / 32;
  const std::size_t w = std::size_t{blockIdx.x} * warps_per_block + wib;
  if (w >= warps) return;
  Lane state{};
  device_warp<Lane> dw{state, sh[wib], threadIdx.x % 32};
  run_warp(dw, b, warp_jobs(b.count, warps, w));
}

// As many warps as the device holds at once (each then refills its lanes from a share of the
// jobs), or fewer when there are fewer than 32 jobs per warp.
template <class Lane, class Batch>
int launch_engine(const Batch& b, cudaStream_t stream) {
  if (b.count == 0) return cudaSuccess;
  int dev = 0;
  if (cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) return e;
  constexpr int max_devices = 64;
  static std::atomic<int> resident[max_devices];  // warps per device, 0 until computed
  int cap = dev < max_devices ? resident[dev].load(std::memory_order_relaxed) : 0;
  if (cap == 0) {
    int sms = 0, blocks = 0;
    if (cudaError_t e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev); e != cudaSuccess)
      return e;
    // Shared memory, not L1, bounds the resident warps: ask for the largest carveout.
    if (cudaError_t e = cudaFuncSetAttribute(engine_kernel<Lane, Batch>,
                                             cudaFuncAttributePreferredSharedMemoryCarveout,
                                             cudaSharedmemCarveoutMaxShared);
        e != cudaSuccess)
      return e;
    if (cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, engine_kernel<Lane, Batch>, 32 * warps_per_block, 0);
        e != cudaSuccess)
      return e;
    cap = sms * (blocks > 0 ? blocks : 1) * static_cast<int>(warps_per_block);
    if (dev < max_devices) resident[dev].store(cap, std::memory_order_relaxed);
  }
  const std::size_t wanted = (b.count + 31) / 32;
  const std::size_t warps = wanted < static_cast<std::size_t>(cap) ? wanted : static_cast<std::size_t>(cap);
  const unsigned grid = static_cast<unsigned>((warps + warps_per_block - 1) / warps_per_block);
  engine_kernel<Lane, Batch><<<grid, 32 * warps_per_block, 0, stream>>>(b, warps);
  return cudaGetLastError();
}

// ---- one thread per job ----------------------------------------------------------------------

inline constexpr unsigned thread_block_threads = 128;
// More blocks than any device holds at once; the grid-stride loop covers larger batches.
inline constexpr std::size_t thread_max_blocks = std::size_t{1} << 16;

template <class Algorithm, bool Decrypt>
__global__ void __launch_bounds__(thread_block_threads) aead_thread_kernel(aead_batch b) {
  const std::size_t thread = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  aead_thread_jobs<Algorithm, Decrypt>(b, thread, std::size_t{gridDim.x} * blockDim.x);
}
template <class Hash>
__global__ void __launch_bounds__(thread_block_threads) hash_thread_kernel(sponge_batch b) {
  const std::size_t thread = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  hash_thread_jobs<Hash>(b, thread, std::size_t{gridDim.x} * blockDim.x);
}

inline unsigned thread_grid(std::size_t count) {
  const std::size_t blocks = (count + thread_block_threads - 1) / thread_block_threads;
  return static_cast<unsigned>(blocks < thread_max_blocks ? blocks : thread_max_blocks);
}

// ---- the launchers of one algorithm -----------------------------------------------------------

template <class A>
int launch_aead(bool decrypt, const aead_batch& b, CUstream_st* stream) {
  if (b.count == 0) return cudaSuccess;
  if constexpr (has_warp_aead<A>) {
    return decrypt ? launch_engine<typename warp_kernel<A>::decrypt_lane>(b, stream)
                   : launch_engine<typename warp_kernel<A>::encrypt_lane>(b, stream);
  } else {
    if (decrypt) aead_thread_kernel<A, true><<<thread_grid(b.count), thread_block_threads, 0, stream>>>(b);
    else aead_thread_kernel<A, false><<<thread_grid(b.count), thread_block_threads, 0, stream>>>(b);
    return cudaGetLastError();
  }
}

template <class A>
int launch_sponge(const sponge_batch& b, CUstream_st* stream) {
  if (b.count == 0) return cudaSuccess;
  if constexpr (has_warp_sponge<A>) {
    return launch_engine<typename warp_kernel<A>::hash_lane>(b, stream);
  } else {
    hash_thread_kernel<A><<<thread_grid(b.count), thread_block_threads, 0, stream>>>(b);
    return cudaGetLastError();
  }
}

// The launchers of the list entries I with I % kernel_shards == Shard.
template <std::size_t Shard>
void add_shard(launch_table& t) {
  lwc::for_each_listed([&]<std::size_t I, class Entry>() {
    if constexpr (I % kernel_shards == Shard) {
      using A = typename Entry::type;
      if constexpr (lwc::is_aead_v<A>) t.aead[I] = &launch_aead<A>;
      else t.sponge[I] = &launch_sponge<A>;
      // What this (host) pass of nvcc chose, for the test that compares it with the host compiler.
      t.warp[I] = has_warp_aead<A> || has_warp_sponge<A>;
    }
  });
}

}  // namespace lwc::cuda::detail
