// Ascon-128 and Ascon-128a (Ascon v1.2) encryption and decryption kernels.
#include "kernel.cuh"

namespace lwc::cuda::detail {

int launch_v12_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream) {
  namespace a = lwc::ascon::detail;
  switch (id) {
    case algo::ascon128:
      return decrypt ? launch_engine<aead_lane<a::v12_128_traits, true>>(b, stream)
                     : launch_engine<aead_lane<a::v12_128_traits, false>>(b, stream);
    case algo::ascon128a:
      return decrypt ? launch_engine<aead_lane<a::v12_128a_traits, true>>(b, stream)
                     : launch_engine<aead_lane<a::v12_128a_traits, false>>(b, stream);
    default:
      return cudaErrorInvalidValue;
  }
}

}  // namespace lwc::cuda::detail
