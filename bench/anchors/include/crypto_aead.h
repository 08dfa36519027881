/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The SUPERCOP / NIST LWC AEAD interface, for anchor sources that include it without
   shipping it. The anchors' objects rename these symbols (see ../CMakeLists.txt). */
#ifndef LWC_ANCHOR_CRYPTO_AEAD_H
#define LWC_ANCHOR_CRYPTO_AEAD_H
int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen, const unsigned char *m,
                        unsigned long long mlen, const unsigned char *ad,
                        unsigned long long adlen, const unsigned char *nsec,
                        const unsigned char *npub, const unsigned char *k);
int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen, unsigned char *nsec,
                        const unsigned char *c, unsigned long long clen,
                        const unsigned char *ad, unsigned long long adlen,
                        const unsigned char *npub, const unsigned char *k);
#endif
