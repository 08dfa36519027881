/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C ABI from plain C99: every registered AEAD round-trips and rejects a forgery with a
 * zeroed output; known answers for ascon-aead128 and ascon-hash256; incremental hashing equals
 * one-shot; bad arguments fail with a message instead of crashing; verifiers take full tags
 * unless the truncated calls are used; hash states and stream handles survive double free,
 * free after a failed init and use after free; error messages stay put; overlapping buffers
 * and sizes that overflow are refused. Run under ASan/UBSan in stage 20. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwc.h"
#include "lwc/stream.h"
#if defined(LWC_TEST_BATCH)
#include "lwc/batch.h"
#endif

static int failures = 0;
static int checks = 0;
#define CHECK(cond)                                                   \
  do {                                                                \
    ++checks;                                                         \
    if (!(cond)) {                                                    \
      ++failures;                                                     \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                 \
  } while (0)

static int all_zero(const uint8_t* p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (p[i]) return 0;
  return 1;
}

static void test_known_answers(void) {
  /* tests/vectors/ascon/ascon-aead128.txt Count = 35 and ascon-hash256.txt Count = 1 */
  static const uint8_t expected_ct[17] = {0x96, 0x2B, 0x80, 0x16, 0x83, 0x6C, 0x75, 0xA7, 0xD8,
                                          0x68, 0x66, 0x58, 0x8C, 0xA2, 0x45, 0xD8, 0x86};
  static const uint8_t expected_md[4] = {0x0B, 0x3B, 0xE5, 0x85};
  uint8_t key[16], nonce[16], pt = 0x20, ad = 0x30, ct[17], back = 0, md[32];
  size_t clen = 0, mlen = 99, i;
  for (i = 0; i < 16; ++i) {
    key[i] = (uint8_t)i;
    nonce[i] = (uint8_t)(0x10 + i);
  }
  CHECK(lwc_aead_encrypt("ascon-aead128", ct, &clen, &pt, 1, &ad, 1, nonce, key) == 0);
  CHECK(clen == 17 && memcmp(ct, expected_ct, 17) == 0);
  CHECK(lwc_aead_decrypt("ascon-aead128", &back, &mlen, ct, clen, &ad, 1, nonce, key) == 0);
  CHECK(mlen == 1 && back == 0x20);
  CHECK(lwc_hash("ascon-hash256", md, 32, NULL, 0) == 0);
  CHECK(memcmp(md, expected_md, 4) == 0);
}

static void test_every_aead(void) {
  size_t i, j;
  for (i = 0; i < lwc_algorithm_count(); ++i) {
    const char* alg = lwc_algorithm_name(i);
    uint8_t key[64], nonce[64], msg[100], ad[20], ct[100 + 64], out[100];
    size_t clen = 0, mlen = 0;
    if (lwc_algorithm_kind(alg) != LWC_KIND_AEAD) continue;
    CHECK(lwc_keybytes(alg) > 0 && lwc_keybytes(alg) <= sizeof key);
    CHECK(lwc_npubbytes(alg) > 0 && lwc_npubbytes(alg) <= sizeof nonce);
    for (j = 0; j < sizeof key; ++j) key[j] = (uint8_t)(j * 7);
    for (j = 0; j < sizeof nonce; ++j) nonce[j] = (uint8_t)(j * 3);
    for (j = 0; j < sizeof msg; ++j) msg[j] = (uint8_t)j;
    for (j = 0; j < sizeof ad; ++j) ad[j] = (uint8_t)(200 - j);
    CHECK(lwc_aead_encrypt(alg, ct, &clen, msg, sizeof msg, ad, sizeof ad, nonce, key) == 0);
    CHECK(clen == sizeof msg + lwc_abytes(alg));
    CHECK(lwc_aead_decrypt(alg, out, &mlen, ct, clen, ad, sizeof ad, nonce, key) == 0);
    CHECK(mlen == sizeof msg && memcmp(out, msg, sizeof msg) == 0);
    ct[clen - 1] ^= 1; /* forge the tag */
    memset(out, 0xA5, sizeof out);
    CHECK(lwc_aead_decrypt(alg, out, &mlen, ct, clen, ad, sizeof ad, nonce, key) == -1);
    CHECK(all_zero(out, sizeof msg));
    CHECK(strstr(lwc_error_message(), "authentication failed") != NULL);
    CHECK(lwc_aead_decrypt(alg, out, &mlen, ct, lwc_abytes(alg) - 1, NULL, 0, nonce, key) == -1);
    CHECK(strstr(lwc_error_message(), "shorter than") != NULL);
  }
}

static void test_truncated_tags_and_nonce_masking(void) {
  uint8_t key[16] = {1}, second[16] = {2}, nonce[16] = {3}, msg[33] = {4}, ct[33], tag[16],
          out[33];
  size_t taglen;
  for (taglen = 4; taglen <= 16; ++taglen) {
    CHECK(lwc_aead_encrypt_detached("ascon-aead128", ct, tag, taglen, msg, 33, NULL, 0, nonce,
                                    key, second) == 0);
    CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", out, ct, 33, tag, taglen, NULL, 0,
                                              nonce, key, second) == 0);
    CHECK(memcmp(out, msg, 33) == 0);
    CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", out, ct, 33, tag, taglen, NULL, 0,
                                              nonce, key, NULL) == -1); /* the second key matters */
    CHECK(all_zero(out, 33));
  }
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", ct, tag, 3, msg, 33, NULL, 0, nonce, key,
                                  NULL) == -1);
  CHECK(strstr(lwc_error_message(), "tag must be 4 to 16 bytes") != NULL);
  CHECK(lwc_aead_encrypt_detached("ascon-128", ct, tag, 16, msg, 33, NULL, 0, nonce, key,
                                  second) == -1);
  CHECK(strstr(lwc_error_message(), "not supported") != NULL);
}

static void test_incremental_hashing(void) {
  size_t i, k;
  uint8_t msg[200], one[64], inc[64];
  for (i = 0; i < sizeof msg; ++i) msg[i] = (uint8_t)(i * 5);
  for (i = 0; i < lwc_algorithm_count(); ++i) {
    const char* alg = lwc_algorithm_name(i);
    const int kind = lwc_algorithm_kind(alg);
    uint8_t key[16] = {9};
    size_t keylen = lwc_keybytes(alg), outlen = lwc_outputbytes(alg), inlen = sizeof msg;
    lwc_hash_state st, copy;
    if (kind == LWC_KIND_AEAD) continue;
    if (strstr(alg, "prfshort")) inlen = 16;
    if (kind == LWC_KIND_MAC || kind == LWC_KIND_PRF)
      CHECK(lwc_mac(alg, one, outlen, msg, inlen, key) == 0);
    else
      CHECK(lwc_hash(alg, one, outlen, msg, inlen) == 0);
    CHECK(lwc_hash_init(&st, alg, keylen ? key : NULL, keylen, NULL, 0) == 0);
    for (k = 0; k < inlen; k += 7) CHECK(lwc_hash_update(&st, msg + k, inlen - k < 7 ? inlen - k : 7) == 0);
    CHECK(lwc_hash_copy(&copy, &st) == 0);
    CHECK(lwc_hash_squeeze(&st, inc, 5) == 0);
    CHECK(lwc_hash_squeeze(&st, inc + 5, outlen - 5) == 0);
    CHECK(memcmp(one, inc, outlen) == 0);
    CHECK(lwc_hash_update(&st, msg, 1) == -1); /* no update after output */
    if (keylen) {
      CHECK(lwc_hash_verify(&copy, one, outlen) == 0);
      CHECK(lwc_mac_verify(alg, one, outlen, msg, inlen, key) == 0);
      one[0] ^= 1;
      CHECK(lwc_mac_verify(alg, one, outlen, msg, inlen, key) == -1);
    }
    lwc_hash_free(&copy);
    lwc_hash_free(&st);
    CHECK(all_zero(st.opaque.bytes, sizeof st.opaque.bytes));
  }
}

static void test_bad_arguments(void) {
  uint8_t buf[64] = {0};
  size_t n = 0;
  CHECK(lwc_algorithm_kind("no-such-algorithm") == -1);
  CHECK(lwc_keybytes("no-such-algorithm") == 0);
  CHECK(lwc_aead_encrypt("no-such-algorithm", buf, &n, buf, 1, NULL, 0, buf, buf) == -1);
  CHECK(strstr(lwc_error_message(), "unknown algorithm") != NULL);
  CHECK(lwc_aead_encrypt(NULL, buf, &n, buf, 1, NULL, 0, buf, buf) == -1);
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &n, buf, 1, NULL, 0, buf, NULL) == -1);
  CHECK(strstr(lwc_error_message(), "key is NULL") != NULL);
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &n, NULL, 5, NULL, 0, buf, buf) == -1);
  CHECK(lwc_aead_encrypt("ascon-hash256", buf, &n, buf, 1, NULL, 0, buf, buf) == -1);
  CHECK(lwc_hash("ascon-hash256", buf, 33, buf, 1) == -1);
  CHECK(lwc_hash("ascon-aead128", buf, 16, buf, 1) == -1);
  CHECK(lwc_cxof("ascon-cxof128", buf, 32, buf, 1, buf, 300) == -1);
  CHECK(lwc_memcmp("abc", "abd", 3) == -1 && lwc_memcmp("abc", "abc", 3) == 0);
  CHECK(strcmp(lwc_version_string(), LWC_VERSION_STRING) == 0);
}

static int message_has(const char* needle) { return strstr(lwc_error_message(), needle) != NULL; }

/* A verifier takes the full tag by default: a prefix of the right tag, which the old calls
 * accepted (taking the length from the tag given), fails and the message names the length. */
static void test_full_tags_by_default(void) {
  uint8_t key[16] = {7}, nonce[16] = {8}, msg[40] = {9}, ct[40], tag[16], out[40], mac[16];
  lwc_hash_state st;
  size_t t;
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", ct, tag, 16, msg, 40, NULL, 0, nonce, key,
                                  NULL) == 0);
  CHECK(lwc_aead_decrypt_detached("ascon-aead128", out, ct, 40, tag, 16, NULL, 0, nonce, key,
                                  NULL) == 0);
  CHECK(memcmp(out, msg, 40) == 0);
  for (t = 0; t < 16; ++t) {
    memset(out, 0xA5, sizeof out);
    CHECK(lwc_aead_decrypt_detached("ascon-aead128", out, ct, 40, tag, t, NULL, 0, nonce, key,
                                    NULL) == -1);
    CHECK(message_has("must be the full 16 bytes"));
    CHECK(message_has("lwc_aead_decrypt_detached_truncated"));
    CHECK(all_zero(out, sizeof out));
  }
  /* The opt-in takes a prefix within [min, full], and nothing outside it. */
  CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", out, ct, 40, tag, 4, NULL, 0, nonce,
                                            key, NULL) == 0);
  CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", out, ct, 40, tag, 3, NULL, 0, nonce,
                                            key, NULL) == -1);
  CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", out, ct, 40, tag, 17, NULL, 0,
                                            nonce, key, NULL) == -1);
  CHECK(lwc_aead_decrypt_detached_truncated("ascon-128", out, ct, 40, tag, 8, NULL, 0, nonce,
                                            key, NULL) == -1); /* v1.2: full tags only */

  CHECK(lwc_mac("ascon-mac-v13", mac, 16, msg, 40, key) == 0);
  CHECK(lwc_mac_verify("ascon-mac-v13", mac, 16, msg, 40, key) == 0);
  for (t = 0; t < 16; ++t) {
    CHECK(lwc_mac_verify("ascon-mac-v13", mac, t, msg, 40, key) == -1);
    CHECK(message_has("must be the full 16 bytes"));
  }
  CHECK(lwc_mac_verify_truncated("ascon-mac-v13", mac, 4, msg, 40, key) == 0);
  CHECK(lwc_mac_verify_truncated("ascon-mac-v13", mac, 3, msg, 40, key) == -1);
  CHECK(lwc_mac_verify_truncated("ascon-mac-v13", mac, 17, msg, 40, key) == -1);
  {
    /* A PRF's output has no fixed length: its named-length verifier also takes longer tags. */
    uint8_t prf[65];
    CHECK(lwc_mac("ascon-prf-v13", prf, sizeof prf, msg, 40, key) == 0);
    CHECK(lwc_mac_verify_truncated("ascon-prf-v13", prf, 24, msg, 40, key) == 0);
    CHECK(lwc_mac_verify_truncated("ascon-prf-v13", prf, 64, msg, 40, key) == 0);
    CHECK(lwc_mac_verify_truncated("ascon-prf-v13", prf, 65, msg, 40, key) == -1);
    CHECK(lwc_mac_verify("ascon-prf-v13", prf, 24, msg, 40, key) == -1);
  }
  CHECK(lwc_mac_verify("ascon-hash256", mac, 16, msg, 40, key) == -1);

  CHECK(lwc_hash_init(&st, "ascon-mac-v13", key, 16, NULL, 0) == 0);
  CHECK(lwc_hash_update(&st, msg, 40) == 0);
  CHECK(lwc_hash_verify(&st, mac, 4) == -1);
  CHECK(message_has("must be the full 16 bytes"));
  CHECK(lwc_hash_verify(&st, mac, 16) == 0);
  lwc_hash_free(&st);
  CHECK(lwc_hash_init(&st, "ascon-mac-v13", key, 16, NULL, 0) == 0);
  CHECK(lwc_hash_update(&st, msg, 40) == 0);
  CHECK(lwc_hash_verify_truncated(&st, mac, 4) == 0);
  lwc_hash_free(&st);
}

/* Hash states: init marks valid; anything on a state that is not valid is -1 with a message. */
static void test_hash_state_lifecycle(void) {
  lwc_hash_state st, other;
  uint8_t buf[32] = {0}, key[16] = {1};
  memset(&st, 0, sizeof st);
  /* never initialised (zeroed memory) */
  CHECK(lwc_hash_update(&st, buf, 1) == -1);
  CHECK(message_has("not initialised"));
  CHECK(lwc_hash_squeeze(&st, buf, 32) == -1);
  CHECK(lwc_hash_verify(&st, buf, 16) == -1);
  CHECK(lwc_hash_copy(&other, &st) == -1);
  lwc_hash_free(&st);

  /* free after a failed init, twice */
  memset(&st, 0xA5, sizeof st);
  CHECK(lwc_hash_init(&st, "no-such-algorithm", NULL, 0, NULL, 0) == -1);
  CHECK(lwc_hash_update(&st, buf, 1) == -1);
  CHECK(message_has("not initialised"));
  lwc_hash_free(&st);
  lwc_hash_free(&st);
  CHECK(lwc_hash_init(&st, "ascon-mac", key, 3, NULL, 0) == -1); /* wrong key size */
  lwc_hash_free(&st);

  /* use after free and double free */
  CHECK(lwc_hash_init(&st, "ascon-hash256", NULL, 0, NULL, 0) == 0);
  CHECK(lwc_hash_update(&st, buf, 3) == 0);
  lwc_hash_free(&st);
  CHECK(all_zero(st.opaque.bytes, sizeof st.opaque.bytes));
  lwc_hash_free(&st);
  CHECK(lwc_hash_update(&st, buf, 1) == -1);
  CHECK(lwc_hash_squeeze(&st, buf, 32) == -1);
  CHECK(message_has("lwc_hash_squeeze") && message_has("not initialised"));

  /* copy: into a live state is refused (it would be lost without a wipe); into a freed one
   * works, and both are independent afterwards */
  CHECK(lwc_hash_init(&st, "ascon-hash256", NULL, 0, NULL, 0) == 0);
  CHECK(lwc_hash_init(&other, "ascon-xof128", NULL, 0, NULL, 0) == 0);
  CHECK(lwc_hash_copy(&other, &st) == -1);
  CHECK(message_has("live state"));
  CHECK(lwc_hash_copy(&st, &st) == -1);
  lwc_hash_free(&other);
  CHECK(lwc_hash_copy(&other, &st) == 0);
  lwc_hash_free(&st);
  CHECK(lwc_hash_squeeze(&other, buf, 32) == 0);
  lwc_hash_free(&other);
  lwc_hash_free(NULL);
}

/* Stream handles: free may be called twice; a freed handle is refused, not dereferenced. */
static void test_stream_lifecycle_and_overlap(void) {
  uint8_t key[32] = {5}, *buf, *out;
  size_t outlen = 0, bound;
  lwc_stream* s = lwc_stream_encrypt_new(NULL, 0, 1, key);
  lwc_stream* freed;
  CHECK(s != NULL);
  bound = lwc_stream_push_bound(s, 1000);
  CHECK(bound >= LWC_STREAM_HEADERBYTES);
  bound += 2000; /* room for the shifted overlaps below */
  buf = (uint8_t*)calloc(1, bound);
  out = (uint8_t*)calloc(1, bound);
  if (buf == NULL || out == NULL) {
    CHECK(0);
    return;
  }
  memset(buf, 0x11, bound);
  /* in == out, and partial overlaps either way, are refused before anything is sealed */
  CHECK(lwc_stream_push(s, buf, bound, &outlen, buf, 1000) == -1);
  CHECK(message_has("overlaps"));
  CHECK(lwc_stream_push(s, buf + 10, bound - 10, &outlen, buf, 1000) == -1);
  CHECK(lwc_stream_push(s, buf, bound - 1100, &outlen, buf + 100, 1000) == -1);
  CHECK(lwc_stream_push(s, out, bound, &outlen, buf, 1000) == 0);
  lwc_stream_free(s);
  freed = s;
  lwc_stream_free(freed); /* second free: nothing happens */
  CHECK(message_has("not a live stream"));
  CHECK(lwc_stream_push(freed, out, bound, &outlen, buf, 10) == -1);
  CHECK(message_has("not a live stream"));
  CHECK(lwc_stream_final(freed, out, bound, &outlen) == -1);
  CHECK(lwc_stream_push_bound(freed, 10) == 0);
  CHECK(lwc_stream_final_bound(freed) == 0);
  CHECK(lwc_stream_error_code(freed) == LWC_STREAM_E_USAGE);
  /* a pointer that never was a handle */
  CHECK(lwc_stream_push((lwc_stream*)(void*)key, out, bound, &outlen, buf, 10) == -1);
  lwc_stream_free(NULL);
  free(buf);
  free(out);
}

/* A pointer from lwc_error_message() keeps its text across later failures. */
static void test_error_message_pointers_stay_valid(void) {
  const char *first, *second;
  char saved[256];
  uint8_t buf[64] = {0};
  CHECK(lwc_hash("ascon-hash256", buf, 33, buf + 40, 1) == -1);
  first = lwc_error_message();
  strncpy(saved, first, sizeof saved - 1);
  saved[sizeof saved - 1] = '\0';
  CHECK(lwc_aead_encrypt("no-such-algorithm-with-a-long-name-to-force-a-new-allocation-of-text",
                         buf, NULL, buf, 1, NULL, 0, buf, buf) == -1);
  second = lwc_error_message();
  CHECK(second != first && strstr(second, "no-such-algorithm") != NULL);
  CHECK(strcmp(first, saved) == 0);
  {
    int i;
    char name[64];
    for (i = 0; i < 50; ++i) {
      snprintf(name, sizeof name, "unknown-%d", i);
      CHECK(lwc_hash(name, buf, 1, NULL, 0) == -1);
    }
  }
  CHECK(strcmp(first, saved) == 0);
  CHECK(strstr(second, "no-such-algorithm") != NULL);
}

static void test_legacy_flag(void) {
  size_t i, legacy = 0;
  CHECK(lwc_algorithm_is_legacy("ascon-128") == 1);
  CHECK(lwc_algorithm_is_legacy("ascon-hasha") == 1);
  CHECK(lwc_algorithm_is_legacy("ascon-aead128") == 0);
  CHECK(lwc_algorithm_is_legacy("ascon-hash256") == 0);
  CHECK(lwc_algorithm_is_legacy("no-such-algorithm") == -1);
  CHECK(lwc_algorithm_is_legacy(NULL) == -1);
  for (i = 0; i < lwc_algorithm_count(); ++i)
    legacy += (size_t)(lwc_algorithm_is_legacy(lwc_algorithm_name(i)) == 1);
  CHECK(legacy >= 7);
}

/* Single-message calls with an output overlapping an input (other than exactly in place). */
static void test_overlapping_buffers(void) {
  uint8_t key[16] = {1}, nonce[16] = {2}, buf[256], tag[16];
  size_t clen = 0, mlen = 0;
  memset(buf, 3, sizeof buf);
  /* exactly in place works (combined and detached) */
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, buf, 64, NULL, 0, nonce, key) == 0);
  CHECK(lwc_aead_decrypt("ascon-aead128", buf, &mlen, buf, clen, NULL, 0, nonce, key) == 0);
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", buf, tag, 16, buf, 64, NULL, 0, nonce, key,
                                  NULL) == 0);
  CHECK(lwc_aead_decrypt_detached("ascon-aead128", buf, buf, 64, tag, 16, NULL, 0, nonce, key,
                                  NULL) == 0);
  /* shifted by one byte: refused */
  CHECK(lwc_aead_encrypt("ascon-aead128", buf + 1, &clen, buf, 64, NULL, 0, nonce, key) == -1);
  CHECK(message_has("overlaps the message"));
  CHECK(lwc_aead_decrypt("ascon-aead128", buf + 1, &mlen, buf, 80, NULL, 0, nonce, key) == -1);
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", buf + 8, tag, 16, buf, 64, NULL, 0, nonce,
                                  key, NULL) == -1);
  CHECK(lwc_aead_decrypt_detached("ascon-aead128", buf, buf + 8, 64, tag, 16, NULL, 0, nonce,
                                  key, NULL) == -1);
  /* output over the key, nonce, associated data or tag */
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, buf + 100, 20, NULL, 0, nonce, buf + 10) == -1);
  CHECK(message_has("overlaps the key"));
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, buf + 100, 20, NULL, 0, buf + 30, key) == -1);
  CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, buf + 100, 20, buf + 20, 5, nonce, key) == -1);
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", buf + 100, buf + 110, 16, buf, 20, NULL, 0,
                                  nonce, key, NULL) == -1); /* tag over the output */
  CHECK(lwc_aead_encrypt_detached("ascon-aead128", buf + 100, buf + 10, 16, buf, 20, NULL, 0,
                                  nonce, key, NULL) == -1); /* tag over the message */
  CHECK(lwc_aead_decrypt_detached("ascon-aead128", buf, buf + 100, 20, buf + 10, 16, NULL, 0,
                                  nonce, key, NULL) == -1); /* output over the tag */
  CHECK(lwc_hash("ascon-hash256", buf, 32, buf + 16, 32) == -1);
  CHECK(lwc_mac("ascon-mac", buf, 16, buf + 100, 10, buf + 8) == -1);
}

/* Sizes near 2^31, 2^32, 2^63 and SIZE_MAX, in every length argument of the C ABI, with no
 * buffer behind them (NULL) or a bound the call knows: each is a clean -1 with a message,
 * never a crash (stage 20 runs this under ASan and UBSan). */
static void test_size_sweep(void) {
  static const size_t big[] = {(size_t)1 << 31,       ((size_t)1 << 31) + 1, (size_t)0xFFFFFFFFu,
                               (size_t)1 << 32 | 1,   (size_t)1 << 63,       ((size_t)1 << 63) - 1,
                               SIZE_MAX - 16,         SIZE_MAX - 1,          SIZE_MAX};
  uint8_t buf[256] = {0}, key[32] = {1}, nonce[16] = {2};
  size_t i, clen = 0;
  lwc_hash_state st;
  lwc_stream* s = lwc_stream_encrypt_new(NULL, 0, 1, key);
  for (i = 0; i < sizeof big / sizeof big[0]; ++i) {
    const size_t n = big[i];
    size_t outlen = 0;
    CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, NULL, n, NULL, 0, nonce, key) == -1);
    CHECK(lwc_aead_encrypt("ascon-aead128", buf, &clen, buf, 1, NULL, n, nonce, key) == -1);
    CHECK(lwc_aead_decrypt("ascon-aead128", buf, &clen, NULL, n, NULL, 0, nonce, key) == -1);
    CHECK(lwc_aead_decrypt("ascon-aead128", NULL, &clen, buf, n, NULL, 0, nonce, key) == -1);
    CHECK(lwc_aead_encrypt_detached("ascon-aead128", NULL, buf, 16, NULL, n, NULL, 0, nonce, key,
                                    NULL) == -1);
    CHECK(lwc_aead_encrypt_detached("ascon-aead128", buf, buf + 64, n, buf + 128, 16, NULL, 0,
                                    nonce, key, NULL) == -1);
    CHECK(lwc_aead_decrypt_detached("ascon-aead128", buf, buf + 64, 16, buf + 128, n, NULL, 0,
                                    nonce, key, NULL) == -1);
    CHECK(lwc_aead_decrypt_detached_truncated("ascon-aead128", buf, buf + 64, 16, buf + 128, n,
                                              NULL, 0, nonce, key, NULL) == -1);
    CHECK(lwc_aead_decrypt_detached("ascon-aead128", NULL, NULL, n, buf, 16, NULL, 0, nonce, key,
                                    NULL) == -1);
    CHECK(lwc_hash("ascon-hash256", buf, n, buf + 128, 1) == -1);
    CHECK(lwc_hash("ascon-xof128", NULL, n, buf, 1) == -1);
    CHECK(lwc_hash("ascon-hash256", buf, 32, NULL, n) == -1);
    CHECK(lwc_cxof("ascon-cxof128", buf, 32, buf + 64, 1, buf + 128, n) == -1);
    CHECK(lwc_mac("ascon-prfshort", buf, 16, buf + 64, n, key) == -1);
    CHECK(lwc_mac_verify("ascon-mac", buf, n, buf + 64, 1, key) == -1);
    CHECK(lwc_mac_verify_truncated("ascon-mac", buf, n, buf + 64, 1, key) == -1);
    CHECK(lwc_hash_init(&st, "ascon-mac", key, n, NULL, 0) == -1);
    CHECK(lwc_hash_init(&st, "ascon-cxof128", NULL, 0, buf, n) == -1);
    CHECK(lwc_hash_init(&st, "ascon-hash256", NULL, 0, NULL, 0) == 0);
    CHECK(lwc_hash_update(&st, NULL, n) == -1);
    CHECK(lwc_hash_squeeze(&st, buf, n) == -1);
    CHECK(lwc_hash_verify(&st, buf, n) == -1);
    lwc_hash_free(&st);
    CHECK(lwc_stream_push(s, buf, sizeof buf, &outlen, NULL, n) == -1);
    CHECK(lwc_stream_push(s, NULL, n, &outlen, buf, 1) == -1);
    CHECK(lwc_stream_push(s, buf, sizeof buf, &outlen, key, n) == -1); /* bound exceeds outcap */
    CHECK(strlen(lwc_error_message()) > 0);
  }
  lwc_stream_free(s);
}

#if defined(LWC_TEST_BATCH)
/* The batch engine through liblwc.so equals one-shot calls; one tampered job fails alone. */
static void test_batch_through_the_shared_library(void) {
  enum { N = 11 };
  uint8_t keys[N][16], nonces[N][16], msgs[N][40], ct[N][40], tags[N][16], out[N][40], ok[N];
  uint8_t expect[40 + 16];
  lwc_batch_job jobs[N];
  lwc_batch_options one_thread = {1, NULL};
  size_t i, j, clen;
  for (i = 0; i < N; ++i) {
    for (j = 0; j < 16; ++j) keys[i][j] = (uint8_t)(i * 16 + j), nonces[i][j] = (uint8_t)(i + j);
    for (j = 0; j < 40; ++j) msgs[i][j] = (uint8_t)(i ^ j);
    jobs[i].key = keys[i];
    jobs[i].nonce = nonces[i];
    jobs[i].ad = msgs[i];
    jobs[i].ad_len = i;
    jobs[i].in = msgs[i];
    jobs[i].in_len = 3 * i + 1; /* mixed lengths */
    jobs[i].out = ct[i];
    jobs[i].tag = tags[i];
    jobs[i].second_key = NULL;
  }
  CHECK(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, &one_thread) == 0);
  for (i = 0; i < N; ++i) {
    CHECK(lwc_aead_encrypt("ascon-aead128", expect, &clen, msgs[i], 3 * i + 1, msgs[i], i, nonces[i], keys[i]) == 0);
    CHECK(memcmp(expect, ct[i], 3 * i + 1) == 0 && memcmp(expect + 3 * i + 1, tags[i], 16) == 0);
    jobs[i].in = ct[i];
    jobs[i].out = out[i];
  }
  tags[4][0] ^= 1;
  memset(out, 0xA5, sizeof out);
  CHECK(lwc_batch_decrypt("ascon-aead128", N, jobs, 16, ok, NULL) == -1); /* one job failed */
  for (i = 0; i < N; ++i) {
    CHECK(ok[i] == (i != 4));
    CHECK(i == 4 ? all_zero(out[i], 3 * i + 1) : memcmp(out[i], msgs[i], 3 * i + 1) == 0);
  }
}

/* Every error path of the batch C ABI leaves a message naming its cause, not a stale one. */
static void expect_batch_error(int rc, const char* a, const char* b) {
  CHECK(rc == -1);
  CHECK(strstr(lwc_error_message(), "lwc_batch") != NULL);
  if (a != NULL) CHECK(strstr(lwc_error_message(), a) != NULL);
  if (b != NULL) CHECK(strstr(lwc_error_message(), b) != NULL);
  if (rc != -1 || (a && !strstr(lwc_error_message(), a)) || (b && !strstr(lwc_error_message(), b)))
    fprintf(stderr, "  message: %s\n", lwc_error_message());
}

/* A small deterministic generator: random inputs of random lengths, reproducible. */
static uint32_t batch_random_state = 12345;
static uint32_t batch_random(void) {
  batch_random_state = batch_random_state * 1103515245u + 12345u;
  return batch_random_state >> 8;
}

/* Every MAC, PRF and CXOF of the registry batched from C (jobs and packed) equals the
 * single-message call on random inputs of random lengths; missing keys, wrong key sizes and
 * customization strings that are too long fail with a message naming the job. */
static void test_batch_keyed_and_customized_hashes(void) {
  enum { N = 9, MAX_IN = 200, MAX_CUSTOM = 300, MAX_OUT = 64 };
  static uint8_t in[N * MAX_IN], custom[N * MAX_CUSTOM], keys[N * 64], out[N * MAX_OUT],
      packed_out[N * MAX_OUT], expect[MAX_OUT];
  size_t offsets[N + 1], custom_offsets[N + 1], a, i, b;
  lwc_batch_hash_job jobs[N];
  lwc_batch_packed_hash_jobs packed;
  lwc_batch_options opt = {2, NULL};
  static const char* const backends[] = {"portable", "avx2", "avx512"};
  int tested = 0;
  for (i = 0; i < sizeof in; ++i) in[i] = (uint8_t)batch_random();
  for (i = 0; i < sizeof custom; ++i) custom[i] = (uint8_t)batch_random();
  for (i = 0; i < sizeof keys; ++i) keys[i] = (uint8_t)batch_random();
  for (a = 0; a < lwc_algorithm_count(); ++a) {
    const char* alg = lwc_algorithm_name(a);
    const int kind = lwc_algorithm_kind(alg);
    const int keyed = kind == LWC_KIND_MAC || kind == LWC_KIND_PRF;
    const size_t key_size = lwc_keybytes(alg);
    size_t out_len = lwc_outputbytes(alg);
    if (!keyed && kind != LWC_KIND_CXOF) continue;
    ++tested;
    size_t max_in = MAX_IN;
    if (lwc_outputbytes_max(alg) == 0) out_len = 1 + batch_random() % MAX_OUT;
    /* the short-input PRFs (ascon-prfshort) take at most 16 bytes */
    if (keyed && lwc_mac(alg, expect, out_len, in, MAX_IN - 1, keys) != 0) max_in = 17;
    for (b = 0; b < 3; ++b) {
      if (!lwc_batch_backend_available(backends[b])) continue;
      opt.backend = backends[b];
      memset(jobs, 0, sizeof jobs);
      offsets[0] = custom_offsets[0] = 0;
      for (i = 0; i < N; ++i) {
        const size_t len = i == 0 ? 0 : batch_random() % max_in;
        const size_t custom_len = kind != LWC_KIND_CXOF ? 0 : i == 1 ? 256 : batch_random() % 257;
        offsets[i + 1] = offsets[i] + len;
        custom_offsets[i + 1] = custom_offsets[i] + custom_len;
        jobs[i].in = in + offsets[i];
        jobs[i].in_len = len;
        jobs[i].out = out + i * out_len;
        jobs[i].out_len = out_len;
        if (keyed) {
          jobs[i].key = keys + i * key_size;
          jobs[i].key_len = key_size;
        } else {
          jobs[i].customization = custom + custom_offsets[i];
          jobs[i].customization_len = custom_len;
        }
      }
      memset(&packed, 0, sizeof packed);
      packed.in = in;
      packed.offsets = offsets;
      if (keyed) {
        packed.keys = keys;
        packed.keys_len = N * key_size;
      } else {
        packed.customization = custom;
        packed.customization_offsets = custom_offsets;
      }
      memset(out, 0, sizeof out);
      memset(packed_out, 0, sizeof packed_out);
      CHECK(lwc_batch_hash(alg, N, jobs, &opt) == 0);
      CHECK(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, &opt) == 0);
      for (i = 0; i < N; ++i) {
        const int rc = keyed ? lwc_mac(alg, expect, out_len, jobs[i].in, jobs[i].in_len, jobs[i].key)
                             : lwc_cxof(alg, expect, out_len, jobs[i].in, jobs[i].in_len,
                                        jobs[i].customization, jobs[i].customization_len);
        CHECK(rc == 0);
        CHECK(memcmp(out + i * out_len, expect, out_len) == 0);
        CHECK(memcmp(packed_out + i * out_len, expect, out_len) == 0);
        if (memcmp(out + i * out_len, expect, out_len) != 0 ||
            memcmp(packed_out + i * out_len, expect, out_len) != 0)
          fprintf(stderr, "  %s on %s, job %u\n", alg, backends[b], (unsigned)i);
      }
    }
    opt.backend = NULL;
    if (keyed) {
      /* a missing key, a wrong key size, a key for only some jobs, a customization string */
      jobs[3].key = NULL;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 3", "key is NULL");
      jobs[3].key = keys;
      jobs[3].key_len = key_size - 1;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 3", "key must be");
      jobs[3].key_len = key_size + 1;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 3", "key must be");
      jobs[3].key_len = key_size;
      jobs[2].customization = custom;
      jobs[2].customization_len = 1;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 2", "customization");
      jobs[2].customization = NULL;
      jobs[2].customization_len = 0;
      jobs[4].out = keys + 4 * key_size; /* the output over its own key */
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 4", "overlaps the key");
      jobs[4].out = out + 4 * out_len;
      packed.keys = NULL;
      expect_batch_error(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL), alg,
                         "keys are NULL");
      expect_batch_error(lwc_batch_hash_packed(alg, N, in, offsets, packed_out, out_len, NULL), alg,
                         "keys");
      packed.keys = keys;
      packed.keys_len = N * key_size - 1;
      expect_batch_error(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL), alg,
                         "keys");
      packed.keys_len = N * key_size;
      packed.customization = custom;
      packed.customization_offsets = offsets;
      expect_batch_error(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL), alg,
                         "customization");
      packed.customization = NULL;
      packed.customization_offsets = NULL;
      CHECK(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL) == 0);
    } else {
      /* too long a customization string, a key given to a CXOF */
      jobs[5].customization_len = 257;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 5", "customization string");
      jobs[5].customization_len = 0;
      jobs[6].key = keys;
      jobs[6].key_len = 16;
      expect_batch_error(lwc_batch_hash(alg, N, jobs, NULL), "job 6", "takes no key");
      jobs[6].key = NULL;
      jobs[6].key_len = 0;
      custom_offsets[4] = custom_offsets[3] + 257;
      for (i = 4; i < N; ++i) custom_offsets[i + 1] = custom_offsets[i];
      expect_batch_error(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL),
                         "job 3", "customization string");
      packed.keys = keys;
      packed.keys_len = N * 16;
      expect_batch_error(lwc_batch_hash_packed_jobs(alg, N, &packed, packed_out, out_len, NULL), alg,
                         "takes no key");
    }
  }
  CHECK(tested >= 3);
  /* an empty batch needs no buffers */
  memset(&packed, 0, sizeof packed);
  packed.offsets = offsets;
  CHECK(lwc_batch_hash_packed_jobs("ascon-mac", 0, &packed, NULL, 16, NULL) == 0);
  CHECK(lwc_batch_hash("ascon-mac", 0, NULL, NULL) == 0);
  expect_batch_error(lwc_batch_hash_packed_jobs("ascon-mac", 1, NULL, out, 16, NULL), "ascon-mac",
                     "NULL");
}

/* Which path runs: 1 in lanes, 0 job by job, -1 with a message for a name it does not know. */
static void test_batch_has_lanes(void) {
  static const char* const backends[] = {"portable", "avx2", "avx512"};
  size_t i, b;
  for (b = 0; b < 3; ++b) {
    if (!lwc_batch_backend_available(backends[b])) {
      expect_batch_error(lwc_batch_has_lanes("ascon-aead128", backends[b]), backends[b],
                         "not available");
      continue;
    }
    for (i = 0; i < lwc_algorithm_count(); ++i) {
      const int r = lwc_batch_has_lanes(lwc_algorithm_name(i), backends[b]);
      CHECK(r == 0 || r == 1);
    }
    /* Ascon has lane kernels on every backend, Acorn-128 on the 256-bit and 512-bit ones,
     * Grain-128AEAD not on the portable one */
    CHECK(lwc_batch_has_lanes("ascon-aead128", backends[b]) == 1);
    CHECK(lwc_batch_has_lanes("ascon-xof128", backends[b]) == 1);
    if (b == 0) CHECK(lwc_batch_has_lanes("grain-128aead", backends[b]) == 0);
    CHECK(lwc_batch_has_lanes("acorn-128", backends[b]) == (b == 0 ? 0 : 1));
  }
  expect_batch_error(lwc_batch_has_lanes("no-such-algorithm", "portable"), "no-such-algorithm",
                     "unknown algorithm");
  expect_batch_error(lwc_batch_has_lanes("ascon-aead128", "no-such-backend"), "no-such-backend",
                     "not available");
  expect_batch_error(lwc_batch_has_lanes(NULL, "portable"), "NULL", NULL);
  expect_batch_error(lwc_batch_has_lanes("ascon-aead128", NULL), "NULL", NULL);
}

static void test_batch_errors_and_overlaps(void) {
  enum { N = 4 };
  uint8_t keys[N][16], nonces[N][16], msgs[N][32], out[N][32], tags[N][16], ok[N];
  uint8_t pool[512], ptags[N * 16], pout[N * 32];
  size_t offsets[N + 1], i;
  lwc_batch_job jobs[N];
  lwc_batch_hash_job hjobs[N];
  lwc_batch_packed_jobs packed;
  lwc_batch_options bad_backend = {1, "no-such-backend"};
  memset(hjobs, 0, sizeof hjobs);
  memset(keys, 1, sizeof keys);
  memset(nonces, 2, sizeof nonces);
  memset(msgs, 3, sizeof msgs);
  memset(pool, 4, sizeof pool);
  for (i = 0; i < N; ++i) {
    jobs[i].key = keys[i];
    jobs[i].nonce = nonces[i];
    jobs[i].ad = NULL;
    jobs[i].ad_len = 0;
    jobs[i].in = msgs[i];
    jobs[i].in_len = 32;
    jobs[i].out = out[i];
    jobs[i].tag = tags[i];
    jobs[i].second_key = NULL;
    hjobs[i].in = msgs[i];
    hjobs[i].in_len = 32;
    hjobs[i].out = out[i];
    hjobs[i].out_len = 32;
    offsets[i] = i * 32;
  }
  offsets[N] = N * 32;
  CHECK(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL) == 0);

  /* a stale message from an earlier single-message failure must not survive */
  CHECK(lwc_hash("no-such-algorithm", out[0], 1, NULL, 0) == -1);
  expect_batch_error(lwc_batch_encrypt("no-such-aead", N, jobs, 16, NULL), "no-such-aead", NULL);
  expect_batch_error(lwc_batch_encrypt(NULL, N, jobs, 16, NULL), "NULL", NULL);
  expect_batch_error(lwc_batch_encrypt("ascon-hash256", N, jobs, 16, NULL), "ascon-hash256",
                     "not an AEAD");
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, &bad_backend),
                     "no-such-backend", NULL);
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 3, NULL), "ascon-aead128",
                     "tag length must be 4 to 16 bytes, got 3");
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, NULL, 16, NULL), "ascon-aead128",
                     "NULL");
  jobs[2].key = NULL;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 2", "key");
  jobs[2].key = keys[2];
  jobs[3].nonce = NULL;
  expect_batch_error(lwc_batch_decrypt("ascon-aead128", N, jobs, 16, ok, NULL), "job 3", "nonce");
  jobs[3].nonce = nonces[3];
  jobs[1].tag = NULL;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 1", "tag");
  jobs[1].tag = tags[1];
  jobs[1].in = NULL;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 1", "input");
  jobs[1].in = msgs[1];
  jobs[0].second_key = keys[0];
  expect_batch_error(lwc_batch_encrypt("ascon-128", N, jobs, 16, NULL), "ascon-128",
                     "not supported");
  jobs[0].second_key = NULL;
  /* a forged job: the message names how many failed and the first */
  for (i = 0; i < N; ++i) jobs[i].in = out[i], jobs[i].out = msgs[i];
  tags[2][0] ^= 1;
  expect_batch_error(lwc_batch_decrypt("ascon-aead128", N, jobs, 16, ok, NULL), "1 of 4",
                     "job 2");
  tags[2][0] ^= 1;
  CHECK(lwc_batch_decrypt("ascon-aead128", N, jobs, 16, ok, NULL) == 0);
  for (i = 0; i < N; ++i) jobs[i].in = msgs[i], jobs[i].out = out[i];

  /* overlaps of a job's output with its own inputs (exactly in place is fine) */
  jobs[1].out = msgs[1];
  CHECK(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL) == 0);
  jobs[1].out = msgs[1] + 1;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 1", "overlaps");
  jobs[1].out = out[1];
  jobs[2].out = keys[2] - 8;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 2",
                     "overlaps the key");
  jobs[2].out = out[2];
  jobs[3].tag = msgs[3] + 4;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 3",
                     "tag overlaps the input");
  jobs[3].tag = tags[3];
  jobs[0].out = tags[0];
  expect_batch_error(lwc_batch_decrypt("ascon-aead128", N, jobs, 16, ok, NULL), "job 0",
                     "overlaps the tag");
  jobs[0].out = out[0];
  jobs[0].ad = out[0] + 8;
  jobs[0].ad_len = 4;
  expect_batch_error(lwc_batch_encrypt("ascon-aead128", N, jobs, 16, NULL), "job 0",
                     "associated data");
  jobs[0].ad = NULL;
  jobs[0].ad_len = 0;

  /* hashing */
  expect_batch_error(lwc_batch_hash("ascon-mac", N, hjobs, NULL), "job 0", "key is NULL");
  expect_batch_error(lwc_batch_hash("ascon-aead128", N, hjobs, NULL), "ascon-aead128", NULL);
  hjobs[2].out_len = 31;
  expect_batch_error(lwc_batch_hash("ascon-hash256", N, hjobs, NULL), "job 2", "32 bytes");
  hjobs[2].out_len = 32;
  hjobs[1].out = msgs[1] + 16;
  expect_batch_error(lwc_batch_hash("ascon-hash256", N, hjobs, NULL), "job 1", "overlaps");
  hjobs[1].out = out[1];
  hjobs[3].in = NULL;
  expect_batch_error(lwc_batch_hash("ascon-hash256", N, hjobs, NULL), "job 3", "NULL");
  hjobs[3].in = msgs[3];
  CHECK(lwc_batch_hash("ascon-hash256", N, hjobs, NULL) == 0);

  /* packed: the output and tag buffers against every input buffer */
  packed.keys = pool;
  packed.nonces = pool + 64;
  packed.second_keys = NULL;
  packed.in = pool + 256;
  packed.offsets = offsets;
  packed.ad = NULL;
  packed.ad_offsets = NULL;
  CHECK(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pout, ptags, 16, NULL) == 0);
  CHECK(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pool + 256, ptags, 16, NULL) == 0);
  expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pool + 257, ptags, 16,
                                              NULL), "output buffer overlaps the message", NULL);
  expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pool + 64, ptags, 16,
                                              NULL), "overlaps the nonce", NULL);
  expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pout, pool + 8, 16,
                                              NULL), "tag buffer overlaps the key", NULL);
  expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", N, &packed, pout, pout + 8, 16,
                                              NULL), "overlaps the tag", NULL);
  expect_batch_error(lwc_batch_decrypt_packed("ascon-aead128", N, &packed, pout, pout + 8, 16,
                                              ok, NULL), "overlaps the tag", NULL);
  expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", N, NULL, pout, ptags, 16, NULL),
                     "NULL", NULL);
  expect_batch_error(lwc_batch_hash_packed("ascon-hash256", N, pool + 256, offsets, pool + 268,
                                           32, NULL), "overlaps the message", NULL);
  expect_batch_error(lwc_batch_hash_packed("ascon-hash256", N, pool + 256, NULL, pout, 32, NULL),
                     "offsets", NULL);
  expect_batch_error(lwc_batch_hash_packed("ascon-hash256", N, pool + 256, offsets, pout, 31,
                                           NULL), "ascon-hash256", "32 bytes");
}

/* Sizes whose products or sums do not fit in size_t: clean -1 before anything is read. */
static void test_batch_size_sweep(void) {
  static const size_t big[] = {(size_t)1 << 31,       (size_t)0xFFFFFFFFu, (size_t)1 << 32,
                               (size_t)1 << 62,       (size_t)1 << 63,     ((size_t)1 << 63) + 1,
                               SIZE_MAX - 16,         SIZE_MAX - 1,        SIZE_MAX};
  uint8_t in[64] = {0}, out[64], tags[64], ok[2];
  size_t offsets[3] = {0, 16, 32}, i;
  lwc_batch_packed_jobs packed;
  lwc_batch_job job;
  packed.keys = in;
  packed.nonces = in + 16;
  packed.second_keys = NULL;
  packed.in = in + 32;
  packed.offsets = offsets;
  packed.ad = NULL;
  packed.ad_offsets = NULL;
  job.key = in;
  job.nonce = in;
  job.ad = NULL;
  job.ad_len = 0;
  job.in = NULL;
  job.in_len = 0;
  job.out = out;
  job.tag = tags;
  job.second_key = NULL;
  for (i = 0; i < sizeof big / sizeof big[0]; ++i) {
    const size_t n = big[i];
    /* 2 messages of n output bytes each: 2 * n wraps for n >= 2^63 (the segfault of old) */
    if (n > SIZE_MAX / 2)
      expect_batch_error(lwc_batch_hash_packed("ascon-xof128", 2, in, offsets, out, n, NULL),
                         "does not fit", NULL);
    expect_batch_error(lwc_batch_hash_packed("ascon-hash256", 2, in, offsets, out, n, NULL), NULL,
                       NULL);
    expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", 2, &packed, out, tags, n, NULL),
                       NULL, NULL);
    expect_batch_error(lwc_batch_decrypt_packed("ascon-aead128", 2, &packed, tags, out, n, ok,
                                                NULL), NULL, NULL);
    expect_batch_error(lwc_batch_encrypt("ascon-aead128", 1, &job, n, NULL), NULL, NULL);
    expect_batch_error(lwc_batch_decrypt("ascon-aead128", 1, &job, n, ok, NULL), NULL, NULL);
    job.ad_len = n; /* no associated data behind it */
    expect_batch_error(lwc_batch_encrypt("ascon-aead128", 1, &job, 16, NULL), "job 0", NULL);
    job.ad_len = 0;
    job.in_len = n;
    expect_batch_error(lwc_batch_encrypt("ascon-aead128", 1, &job, 16, NULL), "job 0", NULL);
    job.in_len = 0;
    if (n >= (size_t)1 << 62) {
      /* job counts whose key, nonce or offset totals wrap: refused before offsets[n] is read */
      expect_batch_error(lwc_batch_encrypt_packed("ascon-aead128", n, &packed, out, tags, 16,
                                                  NULL), NULL, NULL);
      expect_batch_error(lwc_batch_hash_packed("ascon-hash256", n, in, offsets, out, 32, NULL),
                         NULL, NULL);
    }
  }
  expect_batch_error(lwc_batch_hash_packed("ascon-xof128", SIZE_MAX, in, offsets, out, 0, NULL),
                     "offsets", NULL);
}

/* ---- the packed job form from C ---------------------------------------------------------- */

enum { FORM_N = 17, FORM_MAX_MSG = 48, FORM_MAX_TAG = 32, FORM_MAX_KEY = 32 };

/* Lays out `n` elements (element i: len[i] bytes of src + i * src_stride) as a column of
 * layout `kind` (LWC_BATCH_OFFSETS_NONE: fixed, all of len[0] bytes) in buf, offsets in off. */
static void form_column(lwc_batch_column* c, int kind, uint8_t* buf, void* off, const uint8_t* src,
                        size_t src_stride, const size_t* len, size_t n) {
  size_t i, at = kind == LWC_BATCH_OFFSETS_NONE ? 0 : 3; /* offsets start past 0 */
  memset(c, 0, sizeof *c);
  for (i = 0; i <= n; ++i) {
    if (kind == LWC_BATCH_OFFSETS_U32) ((uint32_t*)off)[i] = (uint32_t)at;
    if (kind == LWC_BATCH_OFFSETS_U64) ((uint64_t*)off)[i] = at;
    if (kind == LWC_BATCH_OFFSETS_I32) ((int32_t*)off)[i] = (int32_t)at;
    if (kind == LWC_BATCH_OFFSETS_I64) ((int64_t*)off)[i] = (int64_t)at;
    if (i == n) break;
    if (src != NULL) memcpy(buf + at, src + i * src_stride, len[i]);
    at += len[i];
  }
  c->data = buf;
  c->size = at;
  c->stride = kind == LWC_BATCH_OFFSETS_NONE ? len[0] : 0;
  c->offsets = kind == LWC_BATCH_OFFSETS_NONE ? NULL : off;
  c->offset_type = kind;
}

static void form_out_column(lwc_batch_out_column* o, int kind, uint8_t* buf, void* off,
                            const size_t* len, size_t n) {
  lwc_batch_column c;
  form_column(&c, kind, buf, off, NULL, 0, len, n);
  o->data = buf;
  o->size = c.size;
  o->stride = c.stride;
  o->offsets = c.offsets;
  o->offset_type = c.offset_type;
}

/* Element i of a column built by form_column (data, stride and offsets of either kind). */
static const uint8_t* form_element(const uint8_t* data, size_t stride, const void* offsets,
                                   int kind, size_t i) {
  switch (kind) {
    case LWC_BATCH_OFFSETS_U32: return data + ((const uint32_t*)offsets)[i];
    case LWC_BATCH_OFFSETS_U64: return data + ((const uint64_t*)offsets)[i];
    case LWC_BATCH_OFFSETS_I32: return data + ((const int32_t*)offsets)[i];
    case LWC_BATCH_OFFSETS_I64: return data + ((const int64_t*)offsets)[i];
    default: return data + i * stride;
  }
}
#define OUT_ELEMENT(c, i) form_element((c).data, (c).stride, (c).offsets, (c).offset_type, (i))

/* Every AEAD through lwc_batch_form_encrypt / _decrypt, each round another layout (fixed and
 * every offset type, tags appended and detached), against lwc_aead_encrypt_detached; one
 * tampered job per decryption fails and is zeroed. */
static void test_batch_form_layouts(void) {
  static uint8_t keys[FORM_N][FORM_MAX_KEY], nonces[FORM_N][FORM_MAX_KEY], msgs[FORM_N][FORM_MAX_MSG],
      ads[FORM_N][FORM_MAX_MSG], cts[FORM_N][FORM_MAX_MSG], tags[FORM_N][FORM_MAX_TAG],
      plain[FORM_N][FORM_MAX_MSG];
  static uint8_t kbuf[1024], nbuf[1024], abuf[1024], ibuf[2048], obuf[2048], tbuf[1024];
  uint64_t koff[FORM_N + 1], noff[FORM_N + 1], aoff[FORM_N + 1], ioff[FORM_N + 1],
      ooff[FORM_N + 1], toff[FORM_N + 1];
  size_t klen[FORM_N], nlen[FORM_N], alen[FORM_N], mlen[FORM_N], olen[FORM_N], tlen[FORM_N];
  const lwc_batch_options one_thread = {1, NULL};
  uint8_t ok[FORM_N];
  size_t a, i, j, round = 0;
  for (a = 0; a < lwc_algorithm_count(); ++a) {
    const char* alg = lwc_algorithm_name(a);
    size_t ks, ns, ts;
    int r;
    if (lwc_algorithm_kind(alg) != LWC_KIND_AEAD) continue;
    ks = lwc_keybytes(alg), ns = lwc_npubbytes(alg), ts = lwc_abytes(alg);
    for (r = 0; r < 4; ++r, ++round) {
      const int kinds[5] = {LWC_BATCH_OFFSETS_NONE, LWC_BATCH_OFFSETS_U32, LWC_BATCH_OFFSETS_U64,
                            LWC_BATCH_OFFSETS_I32, LWC_BATCH_OFFSETS_I64};
      const int msg_kind = kinds[round % 5], key_kind = kinds[(round / 5) % 5];
      const int appended = (int)(round % 2), dec_appended = (int)((round / 2) % 2);
      const size_t n = 1 + batch_random() % FORM_N, bad = batch_random() % n;
      const size_t common = batch_random() % (FORM_MAX_MSG - FORM_MAX_TAG);
      lwc_batch_aead_form f;
      for (i = 0; i < n; ++i) {
        klen[i] = ks, nlen[i] = ns, tlen[i] = ts;
        alen[i] = batch_random() % 20;
        mlen[i] = msg_kind == LWC_BATCH_OFFSETS_NONE ? common : batch_random() % (FORM_MAX_MSG - FORM_MAX_TAG);
        for (j = 0; j < FORM_MAX_KEY; ++j)
          keys[i][j] = (uint8_t)batch_random(), nonces[i][j] = (uint8_t)batch_random();
        for (j = 0; j < FORM_MAX_MSG; ++j) msgs[i][j] = (uint8_t)batch_random(), ads[i][j] = (uint8_t)batch_random();
        CHECK(lwc_aead_encrypt_detached(alg, cts[i], tags[i], ts, msgs[i], mlen[i], ads[i], alen[i],
                                        nonces[i], keys[i], NULL) == 0);
        olen[i] = mlen[i] + (appended ? ts : 0);
      }
      memset(&f, 0, sizeof f);
      f.count = n;
      form_column(&f.keys, key_kind, kbuf, koff, &keys[0][0], FORM_MAX_KEY, klen, n);
      form_column(&f.nonces, kinds[(round + 2) % 5], nbuf, noff, &nonces[0][0], FORM_MAX_KEY, nlen, n);
      form_column(&f.ad, kinds[1 + round % 4], abuf, aoff, &ads[0][0], FORM_MAX_MSG, alen, n);
      form_column(&f.in, msg_kind, ibuf, ioff, &msgs[0][0], FORM_MAX_MSG, mlen, n);
      form_out_column(&f.out, msg_kind, obuf, ooff, olen, n);
      f.tags = appended ? LWC_BATCH_TAGS_APPENDED : LWC_BATCH_TAGS_DETACHED;
      if (!appended) form_out_column(&f.tags_out, kinds[(round + 3) % 5], tbuf, toff, tlen, n);
      CHECK(lwc_batch_form_encrypt(alg, &f, ts, &one_thread) == 0);
      for (i = 0; i < n; ++i) {
        const uint8_t* got = OUT_ELEMENT(f.out, i);
        const uint8_t* got_tag = appended ? got + mlen[i] : OUT_ELEMENT(f.tags_out, i);
        CHECK(memcmp(got, cts[i], mlen[i]) == 0 && memcmp(got_tag, tags[i], ts) == 0);
      }
      /* decrypt from another layout, job `bad` tampered */
      for (i = 0; i < n; ++i) {
        memcpy(plain[i], msgs[i], mlen[i]);
        memcpy(msgs[i], cts[i], mlen[i]);
        if (dec_appended) memcpy(msgs[i] + mlen[i], tags[i], ts);
        olen[i] = mlen[i] + (dec_appended ? ts : 0);
      }
      /* the tampered job: the last byte of its tag, appended or detached */
      if (dec_appended) msgs[bad][olen[bad] - 1] ^= 1;
      else tags[bad][ts - 1] ^= 1;
      memset(&f.tags_out, 0, sizeof f.tags_out);
      form_column(&f.in, msg_kind, ibuf, ioff, &msgs[0][0], FORM_MAX_MSG, olen, n);
      form_out_column(&f.out, kinds[(round + 4) % 5] == LWC_BATCH_OFFSETS_NONE && msg_kind != LWC_BATCH_OFFSETS_NONE
                                  ? LWC_BATCH_OFFSETS_U64 : kinds[(round + 4) % 5],
                      obuf, ooff, mlen, n);
      f.tags = dec_appended ? LWC_BATCH_TAGS_APPENDED : LWC_BATCH_TAGS_DETACHED;
      if (!dec_appended) form_column(&f.tags_in, LWC_BATCH_OFFSETS_NONE, tbuf, toff, &tags[0][0], FORM_MAX_TAG, tlen, n);
      else memset(&f.tags_in, 0, sizeof f.tags_in);
      memset(obuf, 0xA5, sizeof obuf);
      CHECK(lwc_batch_form_decrypt(alg, &f, ts, ok, NULL) == -1);
      for (i = 0; i < n; ++i) {
        const uint8_t* got = OUT_ELEMENT(f.out, i);
        CHECK(ok[i] == (i != bad));
        CHECK(i == bad ? all_zero(got, mlen[i]) : memcmp(got, plain[i], mlen[i]) == 0);
      }
    }
  }
}

/* Refusals from C: a stride that is not the key size, offsets that decrease or run past their
 * data, an unknown offset type, NULL data, outputs over inputs. */
static void test_batch_form_refusals(void) {
  uint8_t keys[32] = {0}, nonces[32] = {0}, msgs[40] = {0}, out[40], tags[32];
  uint32_t off[3] = {0, 10, 40}, down[3] = {0, 20, 10};
  uint64_t past[3] = {0, 10, 41};
  lwc_batch_aead_form f, g;
  lwc_batch_hash_form h;
  uint8_t digests[64];
  memset(&f, 0, sizeof f);
  f.count = 2;
  f.keys.data = keys, f.keys.size = 32, f.keys.stride = 16;
  f.nonces.data = nonces, f.nonces.size = 32, f.nonces.stride = 16;
  f.in.data = msgs, f.in.size = 40, f.in.offsets = off, f.in.offset_type = LWC_BATCH_OFFSETS_U32;
  f.out.data = out, f.out.size = 40, f.out.offsets = off, f.out.offset_type = LWC_BATCH_OFFSETS_U32;
  f.tags_out.data = tags, f.tags_out.size = 32, f.tags_out.stride = 16;
  CHECK(lwc_batch_form_encrypt("ascon-aead128", &f, 16, NULL) == 0);
  g = f, g.keys.stride = 8, g.keys.size = 16;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "key column: stride must be 16", NULL);
  g = f, g.nonces.stride = 0, g.nonces.size = 0;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "nonce column: stride must be 16", NULL);
  g = f, g.in.offsets = down;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "offsets decrease", NULL);
  g = f, g.in.offsets = past, g.in.offset_type = LWC_BATCH_OFFSETS_U64;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "run past the end", NULL);
  g = f, g.in.offset_type = 9;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "unknown offset_type", NULL);
  g = f, g.in.data = NULL;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "input column: data is NULL", NULL);
  g = f, g.in.offsets = NULL;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "offsets are NULL", NULL);
  g = f, g.out.data = keys + 8, g.out.size = 24, g.count = 1, g.tags_out.size = 16;
  g.keys.size = 16, g.nonces.size = 16;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "overlaps the key column", NULL);
  g = f, g.tags = LWC_BATCH_TAGS_APPENDED;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "tags appended", NULL);
  g = f, g.count = (size_t)-1;
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", &g, 16, NULL), "does not fit", NULL);
  expect_batch_error(lwc_batch_form_encrypt("ascon-aead128", NULL, 16, NULL), "jobs are NULL", NULL);
  memset(&h, 0, sizeof h);
  h.count = 2;
  h.in.data = msgs, h.in.size = 40, h.in.offsets = off, h.in.offset_type = LWC_BATCH_OFFSETS_U32;
  h.out.data = digests, h.out.size = 64, h.out.stride = 32;
  CHECK(lwc_batch_form_hash("ascon-hash256", &h, NULL) == 0);
  {
    uint8_t one[32];
    CHECK(lwc_hash("ascon-hash256", one, 32, msgs + 10, 30) == 0);
    CHECK(memcmp(one, digests + 32, 32) == 0);
  }
  h.out.stride = 16, h.out.size = 32;
  expect_batch_error(lwc_batch_form_hash("ascon-hash256", &h, NULL), "output column: stride must be 32", NULL);
}
#endif

int main(void) {
  test_known_answers();
  test_every_aead();
  test_truncated_tags_and_nonce_masking();
  test_incremental_hashing();
  test_bad_arguments();
  test_full_tags_by_default();
  test_hash_state_lifecycle();
  test_stream_lifecycle_and_overlap();
  test_error_message_pointers_stay_valid();
  test_legacy_flag();
  test_overlapping_buffers();
  test_size_sweep();
#if defined(LWC_TEST_BATCH)
  test_batch_through_the_shared_library();
  test_batch_errors_and_overlaps();
  test_batch_has_lanes();
  test_batch_keyed_and_customized_hashes();
  test_batch_size_sweep();
  test_batch_form_layouts();
  test_batch_form_refusals();
#endif
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
