// SPDX-License-Identifier: MIT OR Apache-2.0
// The lwc side of ascon_matrix.py: Ascon-AEAD128, Ascon-Hash256 and Ascon-XOF128 behind
// SUPERCOP-shaped entry points, compiled once per compiler and flag set. LWC_SIDE names the
// build; the entry points are lwc_<LWC_SIDE>_<operation>, and ascon_matrix.py makes every
// other symbol of the object local, so builds by different compilers never share the
// headers' inline functions at link time.
#include <cstddef>
#include <cstdint>

#include <lwc/ascon/aead.hpp>
#include <lwc/ascon/hash.hpp>

#ifndef LWC_SIDE
#error "LWC_SIDE must name the build (ascon_matrix.py defines it)"
#endif
#define LWC_SIDE_CAT2(a, b, c) a##b##c
#define LWC_SIDE_CAT(a, b, c) LWC_SIDE_CAT2(a, b, c)
#define LWC_SIDE_ENTRY(op) LWC_SIDE_CAT(lwc_, LWC_SIDE, _##op)

using u8 = std::uint8_t;
using ull = unsigned long long;
using aead = lwc::ascon::aead128;

// Same signatures as crypto_aead_encrypt / crypto_aead_decrypt / crypto_hash, so the driver
// calls both sides through one pointer type.
extern "C" {

int LWC_SIDE_ENTRY(encrypt)(u8* c, ull* clen, const u8* m, ull mlen, const u8* ad, ull adlen,
                            const u8*, const u8* npub, const u8* k) {
  const auto n = static_cast<std::size_t>(mlen);
  aead::encrypt(k, nullptr, npub, ad, static_cast<std::size_t>(adlen), m, n, c, c + n,
                aead::tag_size);
  *clen = mlen + aead::tag_size;
  return 0;
}

int LWC_SIDE_ENTRY(decrypt)(u8* m, ull* mlen, u8*, const u8* c, ull clen, const u8* ad,
                            ull adlen, const u8* npub, const u8* k) {
  if (clen < aead::tag_size) return -1;
  const auto n = static_cast<std::size_t>(clen) - aead::tag_size;
  *mlen = n;
  return aead::decrypt(k, nullptr, npub, ad, static_cast<std::size_t>(adlen), c, n, c + n,
                       aead::tag_size, m)
             ? 0
             : -1;
}

int LWC_SIDE_ENTRY(hash256)(u8* out, const u8* in, ull inlen) {
  lwc::ascon::hash256::digest({in, static_cast<std::size_t>(inlen)}, {out, 32});
  return 0;
}

// ascon-c's XOF128 crypto_hash writes 64 bytes.
int LWC_SIDE_ENTRY(xof128)(u8* out, const u8* in, ull inlen) {
  lwc::ascon::xof128::digest({in, static_cast<std::size_t>(inlen)}, {out, 64});
  return 0;
}

}  // extern "C"
