// SPDX-License-Identifier: MIT OR Apache-2.0
// Compiles Acorn-128 and Grain-128AEADv2 as device code (the portable path; the x86 one is
// host-only). Built only; it needs no GPU.
#include <lwc/acorn/acorn128.hpp>
#include <lwc/grain/grain128aead.hpp>

__global__ void lwc_acorn_grain_compile_check_kernel(const std::uint8_t* key,
                                                     const std::uint8_t* nonce,
                                                     const std::uint8_t* msg, std::size_t len,
                                                     std::uint8_t* out, bool* ok) {
  lwc::acorn::acorn128::encrypt(key, nullptr, nonce, msg, len, msg, len, out, out + len, 16);
  ok[0] = lwc::acorn::acorn128::decrypt(key, nullptr, nonce, msg, len, out, len, out + len, 16,
                                        out);
  lwc::grain::grain128aead::encrypt(key, nullptr, nonce, msg, len, msg, len, out, out + len, 8);
  ok[1] = lwc::grain::grain128aead::decrypt(key, nullptr, nonce, msg, len, out, len, out + len, 8,
                                            out);
  lwc::grain::grain128aead::encryptor enc(key, nonce, nullptr, len);
  enc.absorb_ad(msg, len);
  enc.encrypt(msg, len, out);
  enc.finalize(out + len, 8);
}
