// The one kernel template: a grid of warps, each running the warp engine of warp_engine.hpp on
// its range of jobs with one thread per lane. Included by the .cu files, which instantiate it
// for their algorithms.
#pragma once

#include <cuda_runtime.h>

#include <atomic>

#include "launch.hpp"
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

}  // namespace lwc::cuda::detail
