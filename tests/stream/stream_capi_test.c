/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The stream format's C ABI (lwc/stream.h): the documented vectors decrypt in pieces of every
 * size, a stream written by pushing pieces equals the vector's plaintext on the way back,
 * tampering is refused with its error code, and the file and key helpers work. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <lwc/stream.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;
#define CHECK(c)                                                        \
  do {                                                                  \
    if (!(c)) {                                                         \
      fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #c, \
              lwc_error_message());                                     \
      ++failures;                                                       \
    }                                                                   \
  } while (0)

/* docs/stream-format.md, vector aead128-exact-chunk: 64 bytes 00..3f, chunk size 64. */
static const char* exact_ct =
    "896c77630d0a1a0a01010600404142434445464748494a4b4c4d4e4f50515253"
    "5455565758595a5b5c5d5e5f21a22fb698b5b6366209c033b0db9c0400ab612f"
    "4a4eeed79720ccb5a2ae4ed60aba17fd98fc6acb0ec6e20e586dac8bca56c785"
    "d7e71dcc9b456998ee329bdb0967b55e6992752b3af7fa3ce05acea4d4f57c4d"
    "7afa7989243c7b60063249dc4eb33410e26bdd36e1b9818d4b706646";
/* vector aead128-empty */
static const char* empty_ct =
    "896c77630d0a1a0a01011000606162636465666768696a6b6c6d6e6f70717273"
    "7475767778797a7b7c7d7e7f85cd8e28ff14efe01a761661fdcb84b4068863c5"
    "43b62d41d25bc60647d2df18";

static size_t unhex(const char* h, uint8_t* out) {
  size_t n = strlen(h) / 2, i;
  for (i = 0; i < n; ++i) {
    unsigned v;
    sscanf(h + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
  return n;
}

/* Decrypts ct in pieces of `piece` bytes; returns lwc_stream_final's result, the plaintext in
 * out and *code the error code on failure. */
static int decrypt(const uint8_t* key, const uint8_t* ct, size_t n, size_t piece, uint8_t* out,
                   size_t* outlen, int* code) {
  lwc_stream* s = lwc_stream_decrypt_new(1, key);
  size_t pos = 0, total = 0, got = 0;
  int rc = 0;
  uint8_t* buf;
  if (s == NULL) return -2;
  while (pos < n && rc == 0) {
    size_t m = n - pos < piece ? n - pos : piece;
    size_t bound = lwc_stream_push_bound(s, m);
    buf = malloc(bound + 1);
    rc = lwc_stream_push(s, buf, bound, &got, ct + pos, m);
    memcpy(out + total, buf, got);
    total += got;
    free(buf);
    pos += m;
  }
  if (rc == 0) {
    size_t bound = lwc_stream_final_bound(s);
    buf = malloc(bound + 1);
    rc = lwc_stream_final(s, buf, bound, &got);
    memcpy(out + total, buf, got);
    total += got;
    free(buf);
  }
  *code = lwc_stream_error_code(s);
  *outlen = total;
  lwc_stream_free(s);
  return rc;
}

int main(void) {
  uint8_t key[32], ct[4096], pt[4096], pt2[4096];
  size_t i, n, m, piece, len = 0;
  int code = 0;
  for (i = 0; i < 32; ++i) key[i] = (uint8_t)i;

  CHECK(lwc_stream_algorithm_supported("ascon-aead128") == 1);
  CHECK(lwc_stream_algorithm_id("ascon-80pq") == 4);
  CHECK(lwc_stream_algorithm_supported("grain-128aead") == 0);
  CHECK(lwc_stream_algorithm_supported("ascon-hash256") == 0);

  n = unhex(exact_ct, ct);
  for (piece = 1; piece <= n; ++piece) {
    CHECK(decrypt(key, ct, n, piece, pt, &len, &code) == 0);
    CHECK(len == 64);
    for (i = 0; i < 64 && i < len; ++i) CHECK(pt[i] == i);
  }
  m = unhex(empty_ct, pt2);
  CHECK(decrypt(key, pt2, m, 7, pt, &len, &code) == 0 && len == 0);

  /* Tampering: a flipped tag byte, truncation at the chunk boundary, a wrong key, not a stream. */
  ct[n - 1] ^= 1;
  CHECK(decrypt(key, ct, n, 10, pt, &len, &code) == -1 && code == LWC_STREAM_E_AUTHENTICATION);
  CHECK(strstr(lwc_error_message(), "failed authentication") != NULL);
  ct[n - 1] ^= 1;
  CHECK(decrypt(key, ct, 60 + 80, 10, pt, &len, &code) == -1 && code == LWC_STREAM_E_TRUNCATED);
  CHECK(len == 0); /* the batch that ends truncated is withheld whole */
  CHECK(decrypt(key, ct, 30, 10, pt, &len, &code) == -1 && code == LWC_STREAM_E_TRUNCATED);
  CHECK(decrypt(key, (const uint8_t*)"hello", 5, 10, pt, &len, &code) == -1 &&
        code == LWC_STREAM_E_NOT_A_STREAM);
  key[0] ^= 1;
  CHECK(decrypt(key, ct, n, 10, pt, &len, &code) == -1 && code == LWC_STREAM_E_WRONG_KEY);
  key[0] ^= 1;

  /* Encrypting in pieces of every size round trips; a buffer below the bound is refused. */
  for (piece = 1; piece < 300; piece += 37) {
    lwc_stream* s = lwc_stream_encrypt_new("ascon-128a", 6, 2, key);
    uint8_t msg[1000];
    size_t pos = 0, total = 0, got = 0;
    CHECK(s != NULL);
    for (i = 0; i < sizeof msg; ++i) msg[i] = (uint8_t)(i * 7);
    while (pos < sizeof msg) {
      size_t k = sizeof msg - pos < piece ? sizeof msg - pos : piece;
      CHECK(lwc_stream_push(s, ct + total, sizeof ct - total, &got, msg + pos, k) == 0);
      total += got;
      pos += k;
    }
    CHECK(lwc_stream_final(s, ct + total, sizeof ct - total, &got) == 0);
    total += got;
    CHECK(total == 60 + 1000 + 16 * (1000 / 64 + 1));
    CHECK(lwc_stream_push(s, ct, sizeof ct, &got, msg, 1) == -1 &&
          lwc_stream_error_code(s) == LWC_STREAM_E_USAGE);
    lwc_stream_free(s);
    CHECK(decrypt(key, ct, total, piece + 3, pt, &len, &code) == 0 && len == 1000 &&
          memcmp(pt, msg, 1000) == 0);
  }
  {
    lwc_stream* s = lwc_stream_encrypt_new(NULL, 0, 1, key);
    size_t got;
    CHECK(lwc_stream_push(s, ct, 10, &got, pt, 100) == -1); /* 10 < 60-byte header */
    lwc_stream_free(s);
    CHECK(lwc_stream_encrypt_new("grain-128aead", 0, 1, key) == NULL);
    CHECK(strstr(lwc_error_message(), "nonce") != NULL);
  }

  /* Files and key files. */
  {
    char dir[] = "/tmp/lwc-stream-capi-XXXXXX", p1[256], p2[256], p3[256], kp[256];
    uint8_t k2[32];
    FILE* f;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(p1, sizeof p1, "%s/a", dir);
    snprintf(p2, sizeof p2, "%s/a.lwc", dir);
    snprintf(p3, sizeof p3, "%s/a.out", dir);
    snprintf(kp, sizeof kp, "%s/key", dir);
    f = fopen(p1, "wb");
    fwrite("file contents", 1, 13, f);
    fclose(f);
    CHECK(lwc_stream_keygen(k2) == 0);
    CHECK(lwc_stream_save_key(kp, k2, 0) == 0);
    CHECK(lwc_stream_save_key(kp, k2, 0) == -1);
    memset(key, 0, sizeof key);
    CHECK(lwc_stream_load_key(key, kp) == 0 && memcmp(key, k2, 32) == 0);
    CHECK(lwc_stream_encrypt_file("xoodyak", 0, 0, key, p1, p2, 0) == 0);
    CHECK(lwc_stream_decrypt_file(0, key, p2, p3, 0) == 0);
    f = fopen(p3, "rb");
    CHECK(f != NULL && fread(pt, 1, 100, f) == 13 && memcmp(pt, "file contents", 13) == 0);
    if (f) fclose(f);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    unlink(kp);
    rmdir(dir);
  }
  if (failures == 0) printf("stream C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
