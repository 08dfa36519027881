/* The C ABI from plain C99: every registered AEAD round-trips and rejects a forgery with a
 * zeroed output; known answers for ascon-aead128 and ascon-hash256; incremental hashing equals
 * one-shot; bad arguments fail with a message instead of crashing. */
#include <stdio.h>
#include <string.h>

#include "lwc.h"
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
    CHECK(lwc_aead_decrypt_detached("ascon-aead128", out, ct, 33, tag, taglen, NULL, 0, nonce,
                                    key, second) == 0);
    CHECK(memcmp(out, msg, 33) == 0);
    CHECK(lwc_aead_decrypt_detached("ascon-aead128", out, ct, 33, tag, taglen, NULL, 0, nonce,
                                    key, NULL) == -1); /* the second key matters */
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
#endif

int main(void) {
  test_known_answers();
  test_every_aead();
  test_truncated_tags_and_nonce_masking();
  test_incremental_hashing();
  test_bad_arguments();
#if defined(LWC_TEST_BATCH)
  test_batch_through_the_shared_library();
#endif
  printf("%d passed, %d failed\n", checks - failures, failures);
  return failures != 0;
}
