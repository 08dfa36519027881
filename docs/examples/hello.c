/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* The C getting-started example: seal and open one message, see a forgery refused, hash.
 * The documentation's test stage compiles it against <lwc.h> and runs it. */
#include <lwc.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  const char* alg = "ascon-aead128";
  uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  uint8_t nonce[16] = {0}; /* never reuse a nonce with the same key */
  const uint8_t msg[] = "attack at dawn";
  const uint8_t ad[] = "header"; /* authenticated, not encrypted */

  uint8_t sealed[sizeof msg + LWC_ASCON_AEAD128_ABYTES]; /* ciphertext || tag */
  size_t sealed_len;
  if (lwc_aead_encrypt(alg, sealed, &sealed_len, msg, sizeof msg, ad, sizeof ad, nonce, key) != 0)
    return 1;

  uint8_t opened[sizeof msg];
  size_t opened_len;
  if (lwc_aead_decrypt(alg, opened, &opened_len, sealed, sealed_len, ad, sizeof ad, nonce, key) != 0)
    return 1;
  printf("decrypted: %s\n", (const char*)opened);

  sealed[0] ^= 1; /* any change is refused, and the output is zeroed */
  int rc = lwc_aead_decrypt(alg, opened, &opened_len, sealed, sealed_len, ad, sizeof ad, nonce, key);
  printf("forgery: %s (%s)\n", rc == 0 ? "accepted" : "refused", lwc_error_message());

  uint8_t digest[32];
  if (lwc_hash("ascon-hash256", digest, sizeof digest, msg, sizeof msg - 1) != 0) return 1;
  printf("ascon-hash256: ");
  for (size_t i = 0; i < sizeof digest; i++) printf("%02x", digest[i]);
  printf("\n");
  return rc == 0;
}
