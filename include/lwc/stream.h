/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* lwc stream format (docs/stream-format.md) from C: files that `lwc encrypt` writes and
 * `lwc decrypt` reads, built from pieces of any size. The state is an opaque handle; data goes
 * in with lwc_stream_push() and comes out into the caller's buffer, whose size is bounded by
 * lwc_stream_push_bound() / lwc_stream_final_bound() (as in libsodium, nothing is allocated
 * per call and nothing is kept for the caller beyond two batches of about 512 KiB).
 *
 * Release rule: a decrypting stream writes the plaintext of a chunk only after that chunk's
 * tag verified, in order, and lwc_stream_final() returns 0 only after the last chunk verified.
 * When a call fails, the plaintext written by earlier calls is authentic but is a prefix of the
 * original cut at a chunk boundary: hold it as unconfirmed until lwc_stream_final() returned 0
 * (write to a temporary file and rename it then). A failed stream refuses every further call.
 *
 * Functions return 0 on success and -1 on failure, with the reason in lwc_error_message();
 * lwc_stream_error_code() tells the kind of failure. */
#ifndef LWC_STREAM_H
#define LWC_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "../lwc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LWC_STREAM_KEYBYTES 32
#define LWC_STREAM_HEADERBYTES 60
#define LWC_STREAM_CHUNK_SHIFT_MIN 6
#define LWC_STREAM_CHUNK_SHIFT_MAX 20
#define LWC_STREAM_CHUNK_SHIFT_DEFAULT 16

/* lwc_stream_error_code() after a failure. */
#define LWC_STREAM_E_USAGE 1          /* bad argument, call out of order */
#define LWC_STREAM_E_NOT_A_STREAM 2   /* empty, or no lwc magic */
#define LWC_STREAM_E_UNSUPPORTED 3    /* other format version or unknown algorithm id */
#define LWC_STREAM_E_BAD_HEADER 4
#define LWC_STREAM_E_TRUNCATED 5      /* the last chunk (or part of the header) is missing */
#define LWC_STREAM_E_WRONG_KEY 6      /* key check failed: wrong key or changed header */
#define LWC_STREAM_E_AUTHENTICATION 7 /* a chunk failed: modified, reordered, appended data */
#define LWC_STREAM_E_KEY_FILE 8
#define LWC_STREAM_E_IO 9

typedef struct lwc_stream lwc_stream;

/* 1 when the algorithm can seal a stream (an AEAD with a stream id), else 0. */
LWC_API int lwc_stream_algorithm_supported(const char* alg);
/* The on-disk id of the algorithm, 0 if none. */
LWC_API int lwc_stream_algorithm_id(const char* alg);

/* A new encrypting stream: alg (NULL: "ascon-aead128"), chunks of 2^chunk_shift bytes (0:
 * the default, 64 KiB), threads workers (0: one per hardware thread). NULL on failure. */
LWC_API lwc_stream* lwc_stream_encrypt_new(const char* alg, unsigned chunk_shift,
                                           unsigned threads, const uint8_t key[32]);
/* A new decrypting stream; the algorithm and chunk size come from the header. */
LWC_API lwc_stream* lwc_stream_decrypt_new(unsigned threads, const uint8_t key[32]);
/* Wipes and frees; NULL is fine. Handles are checked against the live ones: calling it again,
 * or any call on a freed handle, does nothing but fail with a message. A handle serves one
 * call at a time; a call from another thread meanwhile fails (-1) instead of waiting. */
LWC_API void lwc_stream_free(lwc_stream* s);

/* Most bytes the next lwc_stream_push() of inlen bytes, or lwc_stream_final(), can write. */
LWC_API size_t lwc_stream_push_bound(const lwc_stream* s, size_t inlen);
LWC_API size_t lwc_stream_final_bound(const lwc_stream* s);

/* Feeds inlen bytes (plaintext to an encrypting stream, ciphertext to a decrypting one) and
 * writes the output that became ready to out (outcap >= lwc_stream_push_bound(s, inlen)),
 * its length to *outlen. out must not overlap in at all (not even in place): -1. */
LWC_API int lwc_stream_push(lwc_stream* s, uint8_t* out, size_t outcap, size_t* outlen,
                            const uint8_t* in, size_t inlen);
/* The input ended: writes the rest (the last chunk) to out. For a decrypting stream, 0 means
 * the whole stream verified. */
LWC_API int lwc_stream_final(lwc_stream* s, uint8_t* out, size_t outcap, size_t* outlen);

/* The kind of the last failure of this stream (LWC_STREAM_E_*), 0 if none. */
LWC_API int lwc_stream_error_code(const lwc_stream* s);

/* Whole files, as `lwc encrypt -o` / `lwc decrypt -o` (the decrypted file appears only after
 * the last chunk verified). overwrite: 0 refuses an existing out_path. */
LWC_API int lwc_stream_encrypt_file(const char* alg, unsigned chunk_shift, unsigned threads,
                                    const uint8_t key[32], const char* in_path,
                                    const char* out_path, int overwrite);
LWC_API int lwc_stream_decrypt_file(unsigned threads, const uint8_t key[32], const char* in_path,
                                    const char* out_path, int overwrite);

/* Key files ("lwc-key-v1 <64 hex digits>", mode 0600), with the checks of lwc. */
LWC_API int lwc_stream_load_key(uint8_t key[32], const char* path);
LWC_API int lwc_stream_save_key(const char* path, const uint8_t key[32], int overwrite);
LWC_API int lwc_stream_keygen(uint8_t key[32]);

#ifdef __cplusplus
}
#endif

#endif /* LWC_STREAM_H */
