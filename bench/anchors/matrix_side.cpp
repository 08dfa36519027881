// SPDX-License-Identifier: MIT OR Apache-2.0
// The lwc side of matrix.py: one family's algorithms behind SUPERCOP-shaped entry points,
// compiled once per compiler and flag set. LWC_SIDE names the build and LWC_FAMILY_<NAME> picks
// the family; the entry points are lwc_<LWC_SIDE>_<algorithm>_<encrypt|decrypt|hash>, and
// matrix.py makes every other symbol of the object local, so builds by different compilers
// never share the headers' inline functions at link time.
#include <cstddef>
#include <cstdint>

#ifndef LWC_SIDE
#error "LWC_SIDE must name the build (matrix.py defines it)"
#endif
#define LWC_SIDE_CAT2(a, b, c) a##b##c
#define LWC_SIDE_CAT(a, b, c) LWC_SIDE_CAT2(a, b, c)
#define LWC_SIDE_ENTRY(alg, op) LWC_SIDE_CAT(lwc_, LWC_SIDE, _##alg##_##op)

using u8 = std::uint8_t;
using ull = unsigned long long;

namespace {

template <class Aead>
int encrypt(u8* c, ull* clen, const u8* m, ull mlen, const u8* ad, ull adlen, const u8* npub,
            const u8* k) {
  const auto n = static_cast<std::size_t>(mlen);
  Aead::encrypt(k, nullptr, npub, ad, static_cast<std::size_t>(adlen), m, n, c, c + n,
                Aead::tag_size);
  *clen = mlen + Aead::tag_size;
  return 0;
}

template <class Aead>
int decrypt(u8* m, ull* mlen, const u8* c, ull clen, const u8* ad, ull adlen, const u8* npub,
            const u8* k) {
  if (clen < Aead::tag_size) return -1;
  const auto n = static_cast<std::size_t>(clen) - Aead::tag_size;
  *mlen = n;
  return Aead::decrypt(k, nullptr, npub, ad, static_cast<std::size_t>(adlen), c, n, c + n,
                       Aead::tag_size, m)
             ? 0
             : -1;
}

// A hash with a fixed-size digest() (Esch, Xoodyak-Hash).
template <class Hash>
int fixed_digest(u8* out, const u8* in, ull inlen) {
  const auto d = Hash::digest({in, static_cast<std::size_t>(inlen)});
  for (std::size_t i = 0; i < d.size(); ++i) out[i] = d[i];
  return 0;
}

}  // namespace

// Same signatures as crypto_aead_encrypt / crypto_aead_decrypt / crypto_hash, so the driver
// calls both sides through one pointer type.
#define LWC_SIDE_AEAD(alg, type)                                                           \
  int LWC_SIDE_ENTRY(alg, encrypt)(u8 * c, ull * clen, const u8* m, ull mlen, const u8* ad, \
                                   ull adlen, const u8*, const u8* npub, const u8* k) {     \
    return encrypt<type>(c, clen, m, mlen, ad, adlen, npub, k);                           \
  }                                                                                        \
  int LWC_SIDE_ENTRY(alg, decrypt)(u8 * m, ull * mlen, u8*, const u8* c, ull clen,         \
                                   const u8* ad, ull adlen, const u8* npub, const u8* k) {  \
    return decrypt<type>(m, mlen, c, clen, ad, adlen, npub, k);                           \
  }
#define LWC_SIDE_HASH(alg, type) \
  int LWC_SIDE_ENTRY(alg, hash)(u8 * out, const u8* in, ull inlen) { \
    return fixed_digest<type>(out, in, inlen);                         \
  }

#if defined(LWC_FAMILY_ASCON)
#include <lwc/ascon/aead.hpp>
#include <lwc/ascon/hash.hpp>
extern "C" {
LWC_SIDE_AEAD(ascon_aead128, lwc::ascon::aead128)
int LWC_SIDE_ENTRY(ascon_hash256, hash)(u8* out, const u8* in, ull inlen) {
  lwc::ascon::hash256::digest({in, static_cast<std::size_t>(inlen)}, {out, 32});
  return 0;
}
// ascon-c's XOF128 crypto_hash writes 64 bytes.
int LWC_SIDE_ENTRY(ascon_xof128, hash)(u8* out, const u8* in, ull inlen) {
  lwc::ascon::xof128::digest({in, static_cast<std::size_t>(inlen)}, {out, 64});
  return 0;
}
}
#elif defined(LWC_FAMILY_SPARKLE)
#include <lwc/sparkle/esch.hpp>
#include <lwc/sparkle/schwaemm.hpp>
extern "C" {
LWC_SIDE_AEAD(schwaemm256_128, lwc::sparkle::schwaemm256_128)
LWC_SIDE_AEAD(schwaemm192_192, lwc::sparkle::schwaemm192_192)
LWC_SIDE_AEAD(schwaemm128_128, lwc::sparkle::schwaemm128_128)
LWC_SIDE_AEAD(schwaemm256_256, lwc::sparkle::schwaemm256_256)
LWC_SIDE_HASH(esch256, lwc::sparkle::esch256)
LWC_SIDE_HASH(esch384, lwc::sparkle::esch384)
}
#elif defined(LWC_FAMILY_XOODYAK)
#include <lwc/xoodyak/xoodyak.hpp>
extern "C" {
LWC_SIDE_AEAD(xoodyak, lwc::xoodyak::aead)
LWC_SIDE_HASH(xoodyak_hash, lwc::xoodyak::hash)
}
#elif defined(LWC_FAMILY_TINYJAMBU)
#include <lwc/tinyjambu/tinyjambu.hpp>
extern "C" {
LWC_SIDE_AEAD(tinyjambu_128, lwc::tinyjambu::tinyjambu128)
LWC_SIDE_AEAD(tinyjambu_192, lwc::tinyjambu::tinyjambu192)
LWC_SIDE_AEAD(tinyjambu_256, lwc::tinyjambu::tinyjambu256)
}
#else
#error "LWC_FAMILY_<NAME> must pick the family (matrix.py defines it)"
#endif
