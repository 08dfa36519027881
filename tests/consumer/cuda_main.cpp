// SPDX-License-Identifier: MIT OR Apache-2.0
// Consumer smoke test of the installed CUDA engine: it links, and reports whether a GPU can be
// used (no GPU is needed for this program to pass).
#include <lwc/cuda.hpp>

#include <cstdio>

int main() {
  if (!lwc::cuda::supports("ascon-aead128")) {
    std::puts("consumer_cuda: WRONG (ascon-aead128 not supported)");
    return 1;
  }
  std::printf("consumer_cuda: ok (%d usable device(s))\n", lwc::cuda::device_count());
  return 0;
}
