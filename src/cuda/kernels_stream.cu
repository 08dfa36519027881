// Acorn-128 and Grain-128AEADv2 encryption and decryption kernels: one thread per job
// (stream_jobs.hpp).
#include <cuda_runtime.h>

#include "launch.hpp"
#include "stream_jobs.hpp"

namespace lwc::cuda::detail {

namespace {

inline constexpr unsigned stream_block_threads = 128;
// More blocks than any device holds at once; the grid-stride loop covers larger batches.
inline constexpr std::size_t stream_max_blocks = std::size_t{1} << 16;

template <class Algorithm, bool Decrypt>
__global__ void __launch_bounds__(stream_block_threads) stream_kernel(aead_batch b) {
  const std::size_t thread = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
  stream_jobs<Algorithm, Decrypt>(b, thread, std::size_t{gridDim.x} * blockDim.x);
}

template <class Algorithm, bool Decrypt>
int launch_stream(const aead_batch& b, cudaStream_t stream) {
  if (b.count == 0) return cudaSuccess;
  const std::size_t blocks = (b.count + stream_block_threads - 1) / stream_block_threads;
  const unsigned grid = static_cast<unsigned>(blocks < stream_max_blocks ? blocks : stream_max_blocks);
  stream_kernel<Algorithm, Decrypt><<<grid, stream_block_threads, 0, stream>>>(b);
  return cudaGetLastError();
}

}  // namespace

int launch_stream_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream) {
  switch (id) {
    case algo::acorn128:
      return decrypt ? launch_stream<lwc::acorn::acorn128, true>(b, stream)
                     : launch_stream<lwc::acorn::acorn128, false>(b, stream);
    case algo::grain128aead:
      return decrypt ? launch_stream<lwc::grain::grain128aead, true>(b, stream)
                     : launch_stream<lwc::grain::grain128aead, false>(b, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace lwc::cuda::detail
