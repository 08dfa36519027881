// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA engine from host memory: 4096 messages of 1 KiB sealed and opened on the GPU, then
// compared with the CPU batch engine. The documentation stage compiles it (the header needs no
// CUDA header); it runs where lwc::cuda is built and a GPU is present.
#include <lwc/batch.hpp>
#include <lwc/cuda.hpp>

#include <cstdio>
#include <vector>

int main() {
  if (!lwc::cuda::available()) {
    std::puts("no usable GPU");
    return 0;
  }
  const std::size_t n = 4096, len = 1024;
  std::vector<std::uint8_t> keys(n * 16, 7), nonces(n * 16), msgs(n * len, 'x');
  std::vector<std::size_t> offsets(n + 1);
  for (std::size_t i = 0; i <= n; ++i) offsets[i] = i * len;
  for (std::size_t i = 0; i < n; ++i) nonces[i * 16] = static_cast<std::uint8_t>(i), nonces[i * 16 + 1] = static_cast<std::uint8_t>(i >> 8);

  const lwc::batch::packed_aead_inputs in{keys, nonces, {msgs, offsets}, {}, {}};
  std::vector<std::uint8_t> sealed(n * len), tags(n * 16);
  lwc::cuda::encrypt_packed("ascon-aead128", in, sealed, tags);  // full 16-byte tags

  std::vector<std::uint8_t> cpu_sealed(n * len), cpu_tags(n * 16);
  lwc::batch::encrypt_packed("ascon-aead128", in, cpu_sealed, cpu_tags);

  const lwc::batch::packed_aead_inputs back{keys, nonces, {sealed, offsets}, {}, {}};
  std::vector<std::uint8_t> opened(n * len), ok(n);
  const std::size_t good = lwc::cuda::decrypt_packed("ascon-aead128", back, tags, opened, ok);
  std::printf("%s: %zu of %zu verified, GPU == CPU: %s\n",
              lwc::cuda::device_description().c_str(), good, n,
              sealed == cpu_sealed && tags == cpu_tags ? "yes" : "no");
  return good == n && opened == msgs && sealed == cpu_sealed ? 0 : 1;
}
