// Ascon-Hash256 and Ascon-XOF128 (SP 800-232) kernels.
#include "kernel.cuh"

namespace lwc::cuda::detail {

int launch_sponge(algo id, const sponge_batch& b, CUstream_st* stream) {
  namespace a = lwc::ascon::detail;
  switch (id) {
    case algo::hash256:
      return launch_engine<sponge_lane<a::hash256_params>>(b, stream);
    case algo::xof128:
      return launch_engine<sponge_lane<a::xof128_params>>(b, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace lwc::cuda::detail
