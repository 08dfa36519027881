/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Consumer smoke test of liblwc.so from C. */
#include <stdio.h>

#include "lwc.h"

int main(void) {
  unsigned char d[32];
  const int ok = lwc_hash("ascon-hash256", d, sizeof d, NULL, 0) == 0 && d[0] == 0x0B && d[31] == 0xB2;
  puts(ok ? "consumer_c: ok" : "consumer_c: WRONG");
  return ok ? 0 : 1;
}
