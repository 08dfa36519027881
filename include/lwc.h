/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* lwc C ABI: every algorithm of the lwc registry behind generic entry points that take the
 * algorithm's name ("ascon-aead128", "ascon-hash256", ...; see lwc_algorithm_name()).
 *
 * Conventions (as in libsodium): functions return 0 on success and -1 on failure; the reason
 * of the last failure on the calling thread is in lwc_error_message(). Sizes are available as
 * functions for every algorithm and as macros for the Ascon ones.
 *
 * Choose the SP 800-232 algorithms (ascon-aead128, ascon-hash256, ascon-xof128, ascon-cxof128)
 * for new designs: ascon-128, ascon-128a, ascon-80pq, ascon-hash, ascon-hasha, ascon-xof,
 * ascon-xofa, ascon-mac, ascon-maca, ascon-prf, ascon-prfa and ascon-prfshort are legacy (Ascon
 * v1.2), kept for existing data (lwc_algorithm_is_legacy()).
 *
 * Misuse warnings: never encrypt two messages with the same key and nonce. Decryption checks
 * the tag in constant time before anything is released; on failure the output is all zeros.
 * Compare MAC tags with lwc_mac_verify(), never with memcmp(). The verifiers take the full tag
 * only; a truncated tag is verified only by the calls named *_truncated, whose caller fixes the
 * length (never take it from the received data).
 *
 * Buffers: an output must not overlap any input, except exactly in place where a call says so
 * (the call fails with -1 otherwise). Sizes whose sum or product would not fit in size_t are
 * refused.
 *
 * The batch engine's C ABI (many messages at once) is in <lwc/batch.h>, exported by the same
 * library when it was built with the engine. */
#ifndef LWC_H
#define LWC_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define LWC_API __declspec(dllimport)
#elif defined(LWC_BUILDING_LIBRARY)
#define LWC_API __attribute__((visibility("default")))
#else
#define LWC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define LWC_VERSION_STRING "0.1.0"

#define LWC_ASCON_AEAD128_KEYBYTES 16
#define LWC_ASCON_AEAD128_NPUBBYTES 16
#define LWC_ASCON_AEAD128_ABYTES 16
#define LWC_ASCON_AEAD128_ABYTES_MIN 4
#define LWC_ASCON_AEAD128_SECONDKEYBYTES 16
/* Legacy (Ascon v1.2): ascon-128, ascon-128a, ascon-80pq. */
#define LWC_ASCON_128_KEYBYTES 16
#define LWC_ASCON_128A_KEYBYTES 16
#define LWC_ASCON_80PQ_KEYBYTES 20
#define LWC_ASCON_NPUBBYTES 16
#define LWC_ASCON_ABYTES 16
#define LWC_ASCON_HASH256_BYTES 32
#define LWC_ASCON_CXOF128_CUSTOMBYTES_MAX 256
#define LWC_ASCON_MAC_KEYBYTES 16
#define LWC_ASCON_MAC_BYTES 16

typedef enum lwc_kind {
  LWC_KIND_AEAD = 0,
  LWC_KIND_HASH = 1,
  LWC_KIND_XOF = 2,
  LWC_KIND_CXOF = 3,
  LWC_KIND_MAC = 4,
  LWC_KIND_PRF = 5
} lwc_kind;

/* The library's version, "MAJOR.MINOR.PATCH"; a static string, never NULL. */
LWC_API const char* lwc_version_string(void);
/* Why the last failed call on this thread failed; never NULL. The text behind a returned
 * pointer never changes and is not freed by later calls (distinct messages are interned; past
 * 4096 of them, a message stays intact for at least the next 15 failures on the thread). */
LWC_API const char* lwc_error_message(void);

/* ---- the registry ---------------------------------------------------------------------- */
LWC_API size_t lwc_algorithm_count(void);
/* Name of the index-th registered algorithm, or NULL past the end. */
LWC_API const char* lwc_algorithm_name(size_t index);
/* The kind (lwc_kind) of the named algorithm, or -1 if the name is unknown. */
LWC_API int lwc_algorithm_kind(const char* alg);
/* 1 for a legacy algorithm (Ascon v1.2, superseded by SP 800-232), 0 for a current one, -1 if
 * the name is unknown. */
LWC_API int lwc_algorithm_is_legacy(const char* alg);
/* Sizes in bytes; 0 when the algorithm has no such parameter or the name is unknown. */
LWC_API size_t lwc_keybytes(const char* alg);
LWC_API size_t lwc_secondkeybytes(const char* alg); /* nonce-masking key (ascon-aead128) */
LWC_API size_t lwc_npubbytes(const char* alg);
LWC_API size_t lwc_abytes(const char* alg);     /* full tag */
LWC_API size_t lwc_abytes_min(const char* alg); /* shortest truncated tag accepted */
LWC_API size_t lwc_outputbytes(const char* alg); /* digest / MAC tag / default XOF length */
LWC_API size_t lwc_outputbytes_max(const char* alg); /* 0 = unbounded (XOF, PRF) */

/* ---- AEAD, combined mode: c = ciphertext || tag (mlen + lwc_abytes(alg) bytes); c may be m
 *      (in place) or must not overlap it. ------------------------------------------------ */
LWC_API int lwc_aead_encrypt(const char* alg, uint8_t* c, size_t* clen, const uint8_t* m,
                             size_t mlen, const uint8_t* ad, size_t adlen, const uint8_t* npub,
                             const uint8_t* k);
/* On failure (bad tag or clen < tag), the clen - abytes bytes at m are zero. m may be c. */
LWC_API int lwc_aead_decrypt(const char* alg, uint8_t* m, size_t* mlen, const uint8_t* c,
                             size_t clen, const uint8_t* ad, size_t adlen, const uint8_t* npub,
                             const uint8_t* k);

/* ---- AEAD, detached tag, with the options: tag length (truncation, when encrypting) and the
 *      nonce-masking second key (NULL when not used). c and m may be the same buffer. ------ */
LWC_API int lwc_aead_encrypt_detached(const char* alg, uint8_t* c, uint8_t* tag, size_t taglen,
                                      const uint8_t* m, size_t mlen, const uint8_t* ad,
                                      size_t adlen, const uint8_t* npub, const uint8_t* k,
                                      const uint8_t* second_key);
/* taglen must be the full tag, lwc_abytes(alg); any other length fails like a wrong tag (-1,
 * the clen bytes at m zeroed), with a message naming the expected length. */
LWC_API int lwc_aead_decrypt_detached(const char* alg, uint8_t* m, const uint8_t* c, size_t clen,
                                      const uint8_t* tag, size_t taglen, const uint8_t* ad,
                                      size_t adlen, const uint8_t* npub, const uint8_t* k,
                                      const uint8_t* second_key);
/* Truncated tags (opt-in): taglen from lwc_abytes_min(alg) to lwc_abytes(alg). The caller
 * fixes taglen by configuration; a length taken from received data lets an attacker choose a
 * 4-byte tag (forged in 2^32 tries). */
LWC_API int lwc_aead_decrypt_detached_truncated(const char* alg, uint8_t* m, const uint8_t* c,
                                                size_t clen, const uint8_t* tag, size_t taglen,
                                                const uint8_t* ad, size_t adlen,
                                                const uint8_t* npub, const uint8_t* k,
                                                const uint8_t* second_key);

/* ---- hashing: hash, XOF, CXOF, MAC, PRF -------------------------------------------------- */
/* Hash or XOF of in; outlen bytes (at most the digest size for a hash). */
LWC_API int lwc_hash(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in,
                     size_t inlen);
LWC_API int lwc_cxof(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in,
                     size_t inlen, const uint8_t* custom, size_t customlen);
LWC_API int lwc_mac(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen,
                    const uint8_t* k);
/* 0 when tag is the MAC/PRF output of in under k; constant time. taglen must be the full
 * tag, lwc_abytes(alg). */
LWC_API int lwc_mac_verify(const char* alg, const uint8_t* tag, size_t taglen, const uint8_t* in,
                           size_t inlen, const uint8_t* k);
/* Truncated tags (opt-in): taglen from lwc_abytes_min(alg) to lwc_abytes(alg) (a PRF: to 64),
 * fixed by the caller. */
LWC_API int lwc_mac_verify_truncated(const char* alg, const uint8_t* tag, size_t taglen,
                                     const uint8_t* in, size_t inlen, const uint8_t* k);

/* Incremental hashing. The state is plain memory owned by the caller (stack is fine).
 * lwc_hash_init() must come first: it marks the state valid only when it succeeds. Every
 * other call on a state that is not valid (init failed or never ran, or freed) returns -1
 * with a message. lwc_hash_free() wipes the state; calling it again, or after a failed init,
 * does nothing. A state is used by one thread at a time: a call that finds it in use by
 * another fails with -1 instead of waiting. (Memory that never went through lwc_hash_init()
 * holds arbitrary bytes and cannot be recognised with certainty: initialise first.) */
#define LWC_HASH_STATE_BYTES 256
typedef struct lwc_hash_state {
  union {
    uint64_t align;
    unsigned char bytes[LWC_HASH_STATE_BYTES];
  } opaque;
} lwc_hash_state;

/* key: for MAC/PRF (keylen = lwc_keybytes), else NULL/0; custom: CXOF only, else NULL/0. */
LWC_API int lwc_hash_init(lwc_hash_state* st, const char* alg, const uint8_t* key, size_t keylen,
                          const uint8_t* custom, size_t customlen);
LWC_API int lwc_hash_update(lwc_hash_state* st, const uint8_t* in, size_t inlen);
/* The next outlen bytes of output; after the first call, update fails. */
LWC_API int lwc_hash_squeeze(lwc_hash_state* st, uint8_t* out, size_t outlen);
/* MAC/PRF: 0 when the next taglen output bytes equal tag (constant time); taglen must be the
 * full tag, lwc_abytes(alg). */
LWC_API int lwc_hash_verify(lwc_hash_state* st, const uint8_t* tag, size_t taglen);
/* Truncated tags (opt-in): taglen from lwc_abytes_min(alg) to lwc_abytes(alg) (a PRF: to 64). */
LWC_API int lwc_hash_verify_truncated(lwc_hash_state* st, const uint8_t* tag, size_t taglen);
/* dst must not hold a live state (never initialised, or freed); it is refused otherwise. */
LWC_API int lwc_hash_copy(lwc_hash_state* dst, const lwc_hash_state* src);
LWC_API void lwc_hash_free(lwc_hash_state* st);

/* ---- helpers ------------------------------------------------------------------------------ */
/* 0 when the len bytes at a and b are equal; time depends only on len. */
LWC_API int lwc_memcmp(const void* a, const void* b, size_t len);
/* Zeroes len bytes in a way the compiler cannot remove. */
LWC_API void lwc_memzero(void* p, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LWC_H */
