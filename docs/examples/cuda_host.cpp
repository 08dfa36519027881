// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA engine on the packed job form: 4096 messages of 1 KiB as fixed-stride columns,
// sealed on the GPU with each tag appended to its ciphertext, compared with the CPU batch
// engine, then opened again. The same form goes to lwc::cuda::encrypt_async when the columns
// are in device memory. The documentation stage compiles it (the header needs no CUDA
// header); it runs where lwc::cuda is built and a GPU is present.
#include <lwc/batch.hpp>
#include <lwc/cuda.hpp>
#include <lwc/registry.hpp>

#include <cstdio>
#include <vector>

int main() {
  if (!lwc::cuda::available()) {
    std::puts("no usable GPU");
    return 0;
  }
  namespace jobs = lwc::jobs;
  const lwc::algorithm& aead = lwc::get_algorithm("ascon-aead128");  // looked up once
  const std::size_t n = 4096, len = 1024, tag = 16;
  std::vector<std::uint8_t> keys(n * 16, 7), nonces(n * 16), msgs(n * len, 'x');
  for (std::size_t i = 0; i < n; ++i) nonces[i * 16] = static_cast<std::uint8_t>(i), nonces[i * 16 + 1] = static_cast<std::uint8_t>(i >> 8);

  std::vector<std::uint8_t> sealed(n * (len + tag)), cpu_sealed(n * (len + tag));
  jobs::packed_aead_jobs form;
  form.count = n;
  form.keys = jobs::column::fixed(keys, 16);
  form.nonces = jobs::column::fixed(nonces, 16);
  form.in = jobs::column::fixed(msgs, len);
  form.out = jobs::out_column::fixed(sealed, len + tag);
  form.tags = jobs::tag_place::appended;  // each row: ciphertext, then its tag
  lwc::cuda::encrypt(aead, form);         // full 16-byte tags
  form.out = jobs::out_column::fixed(cpu_sealed, len + tag);
  lwc::batch::encrypt(aead, form);

  std::vector<std::uint8_t> opened(n * len), ok(n);
  form.in = jobs::column::fixed(sealed, len + tag);
  form.out = jobs::out_column::fixed(opened, len);
  const std::size_t good = lwc::cuda::decrypt(aead, form, ok);
  std::printf("%s: %zu of %zu verified, GPU == CPU: %s\n",
              lwc::cuda::device_description().c_str(), good, n, sealed == cpu_sealed ? "yes" : "no");
  return good == n && opened == msgs && sealed == cpu_sealed ? 0 : 1;
}
