/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The batch engine from C: 100 messages of different lengths, each with its own key and
 * nonce, sealed and opened in one call each. The documentation's test stage runs it. */
#include <lwc.h>
#include <lwc/batch.h>

#include <stdio.h>
#include <string.h>

enum { N = 100, MAX_LEN = 300, TAG = 16 };

int main(void) {
  static uint8_t keys[N][16], nonces[N][16], msgs[N][MAX_LEN], sealed[N][MAX_LEN],
      opened[N][MAX_LEN], tags[N][TAG], ok[N];
  static lwc_batch_job jobs[N];
  for (int i = 0; i < N; i++) {
    memset(keys[i], i, sizeof keys[i]);       /* in real use: a secret key per device */
    memcpy(nonces[i], &i, sizeof i);          /* unique per (key, message) */
    memset(msgs[i], 'a' + i % 26, MAX_LEN);
    jobs[i] = (lwc_batch_job){.key = keys[i], .nonce = nonces[i], .in = msgs[i],
                              .in_len = (size_t)(i * 3) % MAX_LEN, .out = sealed[i],
                              .tag = tags[i]};
  }
  if (lwc_batch_encrypt("ascon-aead128", N, jobs, TAG, NULL) != 0) return 1;

  for (int i = 0; i < N; i++) {
    jobs[i].in = sealed[i];
    jobs[i].out = opened[i];
  }
  tags[7][0] ^= 1; /* one forged job: its ok flag is 0, its output zeroed, the call fails */
  int rc = lwc_batch_decrypt("ascon-aead128", N, jobs, TAG, ok, NULL);
  int verified = 0;
  for (int i = 0; i < N; i++) verified += ok[i];
  printf("backend %s: %d of %d jobs verified, call returned %d\n", lwc_batch_default_backend(),
         verified, N, rc);
  printf("job 12 intact: %s\n", memcmp(opened[12], msgs[12], jobs[12].in_len) == 0 ? "yes" : "no");
  return verified == N - 1 && rc == -1 ? 0 : 1;
}
