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
int launch_stream_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream);
int launch_sponge(algo id, const sponge_batch& b, CUstream_st* stream);

inline int launch_aead(algo id, bool decrypt, const aead_batch& b, CUstream_st* stream) {
  switch (id) {
    case algo::aead128:
      return launch_aead128(decrypt, b, stream);
    case algo::acorn128:
    case algo::grain128aead:
      return launch_stream_aead(id, decrypt, b, stream);
    default:
      return launch_v12_aead(id, decrypt, b, stream);
  }
}

}  // namespace lwc::cuda::detail
