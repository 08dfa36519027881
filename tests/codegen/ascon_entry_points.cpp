// SPDX-License-Identifier: MIT OR Apache-2.0
// The one-shot Ascon calls whose generated code ascon_bmi_copies.py inspects: compiled, never
// run.
#include <cstddef>
#include <cstdint>

#include <lwc/ascon/aead.hpp>
#include <lwc/ascon/hash.hpp>

using aead = lwc::ascon::aead128;

void seal(const std::uint8_t* key, const std::uint8_t* nonce, const std::uint8_t* ad,
          std::size_t ad_len, const std::uint8_t* pt, std::size_t n, std::uint8_t* ct) {
  aead::encrypt(key, nullptr, nonce, ad, ad_len, pt, n, ct, ct + n, aead::tag_size);
}

bool open(const std::uint8_t* key, const std::uint8_t* nonce, const std::uint8_t* ad,
          std::size_t ad_len, const std::uint8_t* ct, std::size_t n, std::uint8_t* pt) {
  return aead::decrypt(key, nullptr, nonce, ad, ad_len, ct, n, ct + n, aead::tag_size, pt);
}

void hash(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  lwc::ascon::hash256::digest({in, n}, {out, 32});
}

void xof(const std::uint8_t* in, std::size_t n, std::uint8_t* out, std::size_t m) {
  lwc::ascon::xof128::digest({in, n}, {out, m});
}
