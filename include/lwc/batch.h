/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The CPU batch engine of lwc, C declarations: many independent messages at once, in SIMD
 * lanes (portable, AVX2, AVX-512, picked at run time) and across threads. Each job has its
 * own key, nonce, associated data and length; the results equal the single-message
 * functions byte for byte. Algorithms without a lane kernel on the chosen backend run job by
 * job, still spread over the threads; lwc_batch_has_lanes (or `lwc list`) tells which path runs.
 *
 * Never use a nonce twice under one key. A decrypted job's plaintext is valid only when its
 * ok flag is 1; the plaintext of a failed job is zeroed.
 *
 * Every function returns 0 on success and -1 on failure (unknown algorithm or backend,
 * a size out of range or whose product or sum does not fit in size_t, a null pointer where
 * bytes are needed, overlapping buffers, or, when decrypting, any job that did not verify),
 * with the cause (algorithm, job index, size) in lwc_error_message(). No state is kept
 * between calls; concurrent calls are safe.
 *
 * Buffers: every output (out, tags when encrypting, digests, ok flags) must be disjoint from
 * every input of every job (keys, nonces, associated data, messages, tags when decrypting)
 * and from the other outputs, except a job's out exactly equal to its own in (in place).
 * Checked, with -1: each job's buffers against its own, and in the packed calls the out and
 * tags buffers against every input buffer; overlaps between different jobs of an array of
 * jobs are not detected. */
#ifndef LWC_BATCH_H
#define LWC_BATCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define LWC_BATCH_API
#else
#define LWC_BATCH_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Pass NULL for the defaults: all hardware threads, the default backend. */
typedef struct lwc_batch_options {
  unsigned threads;    /* 0: all hardware threads; 1: the calling thread only */
  const char* backend; /* NULL: lwc_batch_default_backend(); else "portable", "avx2", "avx512", "neon" */
} lwc_batch_options;

/* One AEAD job. `in` is the plaintext (encrypt) or ciphertext (decrypt), `out` receives
 * in_len bytes of the other; `tag` (tag_len bytes) is written by encrypt and read by decrypt.
 * out may equal in; it must not overlap it otherwise, nor any other buffer of any job.
 * tag_len is the caller's setting (the full tag, lwc_abytes(alg), unless truncation was
 * chosen by configuration); never take it from received data. */
typedef struct lwc_batch_job {
  const uint8_t* key;        /* the algorithm's key size: 16, or 20 for ascon-80pq */
  const uint8_t* nonce;      /* the algorithm's nonce size: 16, or 12 for grain-128aead */
  const uint8_t* ad;         /* may be NULL when ad_len is 0 */
  size_t ad_len;
  const uint8_t* in;         /* may be NULL when in_len is 0 */
  size_t in_len;
  uint8_t* out;
  uint8_t* tag;
  const uint8_t* second_key; /* ascon-aead128 nonce masking: 16 bytes, or NULL */
} lwc_batch_job;

/* Packed jobs: n keys, nonces (and optional second keys) back to back; message i is
 * in[offsets[i] .. offsets[i + 1]) (n + 1 non-decreasing offsets) and its output goes to
 * out[offsets[i] .. offsets[i + 1]); tag i to tags[i * tag_len ..]. ad_offsets NULL: no
 * associated data. */
typedef struct lwc_batch_packed_jobs {
  const uint8_t* keys;
  const uint8_t* nonces;
  const uint8_t* second_keys; /* NULL, or n * 16 bytes */
  const uint8_t* in;
  const size_t* offsets;
  const uint8_t* ad;
  const size_t* ad_offsets;
} lwc_batch_packed_jobs;

/* One hash job. Zero it first (= {0} or memset) so that the fields it does not use are NULL
 * and 0. Hashes and XOFs take no key and no customization string. MACs and PRFs need a key:
 * key_len must be the algorithm's key size (lwc_keybytes). CXOFs take a customization string
 * of up to the algorithm's limit (customization NULL and customization_len 0: none). */
typedef struct lwc_batch_hash_job {
  const uint8_t* in;
  size_t in_len;
  uint8_t* out;   /* out_len bytes: the output size (lwc_outputbytes) of a hash or MAC, any
                     length for XOFs, CXOFs and PRFs */
  size_t out_len;
  const uint8_t* key; /* MACs and PRFs */
  size_t key_len;
  const uint8_t* customization; /* CXOFs; may be NULL when customization_len is 0 */
  size_t customization_len;
} lwc_batch_hash_job;

/* Packed hash jobs: message i is in[offsets[i] .. offsets[i + 1]) (n + 1 non-decreasing
 * offsets); MACs and PRFs: key i is keys[i * lwc_keybytes(alg) ..], keys_len (the bytes at
 * keys) must be n * lwc_keybytes(alg), and other algorithms take keys NULL, keys_len 0; CXOFs:
 * customization string i is customization[customization_offsets[i] ..
 * customization_offsets[i + 1]), or customization_offsets NULL for none. */
typedef struct lwc_batch_packed_hash_jobs {
  const uint8_t* in;
  const size_t* offsets;
  const uint8_t* keys;
  size_t keys_len;
  const uint8_t* customization;
  const size_t* customization_offsets;
} lwc_batch_packed_hash_jobs;

/* The packed job form (the C side of <lwc/packed_jobs.hpp>): every per-job field is a column
 * of n byte strings, read and written in place.
 *   fixed column: offset_type LWC_BATCH_OFFSETS_NONE, element i is
 *     data[i * stride .. (i + 1) * stride), size == n * stride;
 *   offset column: offsets holds n + 1 non-decreasing entries of offset_type (uint32, uint64,
 *     int32 or int64, as Arrow's binary and large_binary columns), element i is
 *     data[offsets[i] .. offsets[i + 1]), offsets[n] <= size;
 *   absent column (no associated data, ...): all fields zero.
 * Key, nonce, second-key and detached tag columns give every job exactly the algorithm's size
 * (a fixed column's stride is that size: one key or nonce is never shared by jobs). Outputs
 * share no byte with inputs, offset arrays or other outputs, except out == in exactly (same
 * bytes and layout, detached tags). */
enum {
  LWC_BATCH_OFFSETS_NONE = 0,
  LWC_BATCH_OFFSETS_U32 = 1,
  LWC_BATCH_OFFSETS_U64 = 2,
  LWC_BATCH_OFFSETS_I32 = 3,
  LWC_BATCH_OFFSETS_I64 = 4
};
typedef struct lwc_batch_column {
  const uint8_t* data;
  size_t size;         /* bytes at data */
  size_t stride;       /* fixed columns */
  const void* offsets; /* offset columns: n + 1 entries */
  int offset_type;     /* LWC_BATCH_OFFSETS_* */
} lwc_batch_column;
typedef struct lwc_batch_out_column {
  uint8_t* data;
  size_t size;
  size_t stride;
  const void* offsets;
  int offset_type;
} lwc_batch_out_column;

/* Tags appended to each ciphertext element (out when encrypting, in when decrypting), or
 * detached in their own column (tags_out when encrypting, tags_in when decrypting). */
enum { LWC_BATCH_TAGS_DETACHED = 0, LWC_BATCH_TAGS_APPENDED = 1 };

typedef struct lwc_batch_aead_form {
  size_t count;
  lwc_batch_column keys;
  lwc_batch_column nonces;
  lwc_batch_column ad;          /* absent: no associated data */
  lwc_batch_column second_keys; /* absent: no nonce masking */
  lwc_batch_column in;          /* plaintexts, or ciphertexts (+ tag when appended) */
  lwc_batch_out_column out;     /* ciphertexts (+ tag when appended), or plaintexts */
  int tags;                     /* LWC_BATCH_TAGS_* */
  lwc_batch_out_column tags_out; /* encrypt, detached */
  lwc_batch_column tags_in;      /* decrypt, detached */
} lwc_batch_aead_form;

typedef struct lwc_batch_hash_form {
  size_t count;
  lwc_batch_column in;
  lwc_batch_out_column out;          /* fixed: one output length; offsets: one per job */
  lwc_batch_column keys;             /* MACs and PRFs; else absent */
  lwc_batch_column customization;    /* CXOFs: absent or one string per job */
} lwc_batch_hash_form;

/* Algorithms: every registered one (lwc_algorithm_count / lwc_algorithm_name), AEADs with
 * their own key, nonce and tag sizes (tag_len: the full tag, or a truncation the algorithm
 * allows), second keys only where the algorithm has nonce masking; hashes, XOFs, CXOFs (with a
 * customization string per job), MACs and PRFs (with a key per job). */
LWC_BATCH_API int lwc_batch_encrypt(const char* alg, size_t n, const lwc_batch_job* jobs,
                                    size_t tag_len, const lwc_batch_options* opt);
/* ok (n bytes, or NULL) receives 1 for each job that verified, else 0. */
LWC_BATCH_API int lwc_batch_decrypt(const char* alg, size_t n, const lwc_batch_job* jobs,
                                    size_t tag_len, uint8_t* ok,
                                    const lwc_batch_options* opt);

/* Packed jobs (lwc_batch_packed_jobs): ciphertext i goes to out[offsets[i] .. offsets[i + 1])
 * and tag i (tag_len bytes) to tags[i * tag_len ..]. */
LWC_BATCH_API int lwc_batch_encrypt_packed(const char* alg, size_t n,
                                           const lwc_batch_packed_jobs* jobs, uint8_t* out,
                                           uint8_t* tags, size_t tag_len,
                                           const lwc_batch_options* opt);
/* Packed jobs: ciphertext i with tag tags[i * tag_len ..]; plaintext i goes to
 * out[offsets[i] .. offsets[i + 1]), zeroed when it did not verify; ok as in lwc_batch_decrypt. */
LWC_BATCH_API int lwc_batch_decrypt_packed(const char* alg, size_t n,
                                           const lwc_batch_packed_jobs* jobs,
                                           const uint8_t* tags, uint8_t* out, size_t tag_len,
                                           uint8_t* ok, const lwc_batch_options* opt);

/* Hashes, XOFs, CXOFs, MACs and PRFs: digest i (jobs[i].out_len bytes) to jobs[i].out, with
 * the job's key and customization string where the algorithm takes them. */
LWC_BATCH_API int lwc_batch_hash(const char* alg, size_t n, const lwc_batch_hash_job* jobs,
                                 const lwc_batch_options* opt);
/* Message i is in[offsets[i] .. offsets[i + 1]); digest i goes to out[i * out_len ..]. No keys
 * and no customization strings (a CXOF's are empty): for MACs and PRFs use
 * lwc_batch_hash_packed_jobs. */
LWC_BATCH_API int lwc_batch_hash_packed(const char* alg, size_t n, const uint8_t* in,
                                        const size_t* offsets, uint8_t* out, size_t out_len,
                                        const lwc_batch_options* opt);
/* Every hash, XOF, CXOF, MAC and PRF, packed with per-job keys and customization strings;
 * digest i goes to out[i * out_len ..]. */
LWC_BATCH_API int lwc_batch_hash_packed_jobs(const char* alg, size_t n,
                                             const lwc_batch_packed_hash_jobs* jobs, uint8_t* out,
                                             size_t out_len, const lwc_batch_options* opt);

/* The packed job form; ok (count bytes, or NULL) as in lwc_batch_decrypt. */
LWC_BATCH_API int lwc_batch_form_encrypt(const char* alg, const lwc_batch_aead_form* jobs,
                                         size_t tag_len, const lwc_batch_options* opt);
LWC_BATCH_API int lwc_batch_form_decrypt(const char* alg, const lwc_batch_aead_form* jobs,
                                         size_t tag_len, uint8_t* ok,
                                         const lwc_batch_options* opt);
LWC_BATCH_API int lwc_batch_form_hash(const char* alg, const lwc_batch_hash_form* jobs,
                                      const lwc_batch_options* opt);

/* The backend used when none is named: the fastest the CPU runs, or the lower one named by
 * the environment variable LWC_BACKEND (portable|avx2|avx512), read once per process. */
LWC_BATCH_API const char* lwc_batch_default_backend(void);
/* 1 when this build has the backend and this CPU runs it, else 0. */
LWC_BATCH_API int lwc_batch_backend_available(const char* backend);
/* Messages a backend processes side by side per thread (16 for avx512, 8 for avx2, 2 for
 * portable, whose kernels of 32-bit lanes, Xoodyak and SPARKLE, run 4); 0 for an unavailable
 * backend. */
LWC_BATCH_API size_t lwc_batch_lanes(const char* backend);
/* 1 when the batch engine runs the algorithm, else 0. */
LWC_BATCH_API int lwc_batch_supports(const char* alg);
/* 1 when the backend runs the algorithm in SIMD lanes, 0 when it runs it job by job (one
 * message after the other per thread, with the single-message code: same results, slower);
 * -1, with the cause in lwc_error_message(), for an unknown algorithm or a backend this build
 * and CPU do not run (lwc_batch_backend_available). */
LWC_BATCH_API int lwc_batch_has_lanes(const char* alg, const char* backend);

#ifdef __cplusplus
}
#endif

#endif /* LWC_BATCH_H */
