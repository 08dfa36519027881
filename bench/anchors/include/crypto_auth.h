/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SUPERCOP MAC interface, for anchor sources that include it without shipping it. */
#ifndef LWC_ANCHOR_CRYPTO_AUTH_H
#define LWC_ANCHOR_CRYPTO_AUTH_H
int crypto_auth(unsigned char *out, const unsigned char *in, unsigned long long inlen,
                const unsigned char *k);
int crypto_auth_verify(const unsigned char *h, const unsigned char *in,
                       unsigned long long inlen, const unsigned char *k);
#endif
