/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The same calls as Bench.cs through the C ABI directly, for comparison.
 *   cc -O2 bench_c.c -I include -L build/src/capi -llwc -o bench_c */
#include <lwc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint8_t key[16], nonce[16];
static uint8_t* m;
static uint8_t* c;
static uint8_t out[32];
static size_t size;

static void enc(void) { size_t clen; lwc_aead_encrypt("ascon-aead128", c, &clen, m, size, NULL, 0, nonce, key); }
static void dec(void) { size_t mlen; lwc_aead_decrypt("ascon-aead128", m, &mlen, c, size + 16, NULL, 0, nonce, key); }
static void hash(void) { lwc_hash("ascon-hash256", out, 32, m, size); }

static double best_ns(void (*f)(void)) {
  long iters = 1;
  for (;;) {
    double t0 = now();
    for (long i = 0; i < iters; i++) f();
    if (now() - t0 > 0.05) break;
    iters *= 4;
  }
  long n = iters * 4;
  double best = 1e30;
  for (int run = 0; run < 5; run++) {
    double t0 = now();
    for (long i = 0; i < n; i++) f();
    double ns = (now() - t0) * 1e9 / n;
    if (ns < best) best = ns;
  }
  return best;
}

static void report(const char* what, size_t bytes, double ns) {
  if (bytes)
    printf("%-36s %8zu B %12.1f ns/call %9.1f MB/s\n", what, bytes, ns, bytes * 1e3 / ns);
  else
    printf("%-36s %8zu B %12.1f ns/call\n", what, bytes, ns);
}

int main(void) {
  printf("liblwc %s through the C ABI\n", lwc_version_string());
  m = calloc(1 << 20, 1);
  c = calloc((1 << 20) + 16, 1);
  size = 0;
  report("C lwc_hash ascon-hash256", 0, best_ns(hash));
  report("C lwc_aead_encrypt ascon-aead128", 0, best_ns(enc));
  static const size_t sizes[] = {64, 1024, 64 * 1024, 1024 * 1024};
  for (int i = 0; i < 4; i++) {
    size = sizes[i];
    report("C lwc_aead_encrypt ascon-aead128", size, best_ns(enc));
    enc();
    report("C lwc_aead_decrypt ascon-aead128", size, best_ns(dec));
    report("C lwc_hash ascon-hash256", size, best_ns(hash));
  }
  free(m);
  free(c);
  return 0;
}
