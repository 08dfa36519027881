/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SUPERCOP / NIST LWC hash interface, for anchor sources that include it without
   shipping it. */
#ifndef LWC_ANCHOR_CRYPTO_HASH_H
#define LWC_ANCHOR_CRYPTO_HASH_H
int crypto_hash(unsigned char *out, const unsigned char *in, unsigned long long inlen);
#endif
