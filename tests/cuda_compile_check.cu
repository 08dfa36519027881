// SPDX-License-Identifier: MIT OR Apache-2.0
// Compiles the core headers as device code: one definition of each primitive and mode must
// serve the CPU and CUDA kernels alike. Built only; it needs no GPU.
#include <lwc/ascon.hpp>

__global__ void lwc_compile_check_kernel(const std::uint8_t* key, const std::uint8_t* nonce,
                                         const std::uint8_t* msg, std::size_t len,
                                         std::uint8_t* out, std::uint8_t* digest) {
  lwc::ascon::aead128::encrypt(key, nullptr, nonce, nullptr, 0, msg, len, out, out + len, 16);
  lwc::ascon::hash256 h;
  h.absorb(msg, len);
  h.squeeze(digest, 32);
  lwc::ascon::v12::ascon128a::encrypt(key, nullptr, nonce, msg, len, msg, len, out, out + len, 16);
  lwc::ascon::xof128 x;
  x.absorb(msg, len);
  x.squeeze(digest, 32);
}
