// Ascon-AEAD128 (SP 800-232) encryption and decryption kernels.
#include "kernel.cuh"

namespace lwc::cuda::detail {

int launch_aead128(bool decrypt, const aead_batch& b, CUstream_st* stream) {
  using traits = lwc::ascon::detail::aead128_traits;
  return decrypt ? launch_engine<aead_lane<traits, true>>(b, stream)
                 : launch_engine<aead_lane<traits, false>>(b, stream);
}

}  // namespace lwc::cuda::detail
