// Kernel launchers, one per algorithm family and translation unit, callable from host code
// compiled by any C++ compiler. They return the CUDA runtime's error code of the launch
// (0 on success) and never synchronise.
#pragma once

#include "algorithms.hpp"
#include "warp_engine.hpp"

struct CUstream_st;

namespace lwc::cuda::detail {

int launch_aead128(bool decrypt, const aead_batch& b, CUstream_st* stream);
int launch_v12_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream);
int launch_sponge(algo id, const sponge_batch& b, CUstream_st* stream);

inline int launch_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream) {
  return id == algo::aead128 ? launch_aead128(decrypt, b, stream)
                             : launch_v12_aead(id, decrypt, b, stream);
}

}  // namespace lwc::cuda::detail
