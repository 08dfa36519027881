// SPDX-License-Identifier: MIT OR Apache-2.0
// The engine's own figure for the batches of front_ends.py: Ascon-AEAD128 encryption of n
// messages of `bytes` bytes, a key and a nonce per message, no associated data, tags appended,
// through lwc::batch::encrypt on the packed job form (fixed-stride columns), with `threads`
// threads. Prints the median wall time of `rounds` runs in seconds.
//
//   engine_packed N BYTES THREADS ROUNDS
//
// front_ends.py compiles it against the batch engine of the build it is given.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: engine_packed N BYTES THREADS ROUNDS\n");
    return 2;
  }
  const std::size_t n = std::strtoull(argv[1], nullptr, 10), bytes = std::strtoull(argv[2], nullptr, 10);
  const unsigned threads = static_cast<unsigned>(std::strtoul(argv[3], nullptr, 10));
  const int rounds = std::atoi(argv[4]);
  const lwc::algorithm& a = *lwc::find_algorithm("ascon-aead128");
  std::vector<std::uint8_t> keys(n * a.key_size, 1), nonces(n * a.nonce_size, 2), in(n * bytes, 4),
      out(n * (bytes + a.tag_size));
  lwc::batch::packed_aead_jobs jobs;
  jobs.count = n;
  jobs.keys = lwc::jobs::column::fixed(keys, a.key_size);
  jobs.nonces = lwc::jobs::column::fixed(nonces, a.nonce_size);
  jobs.in = lwc::jobs::column::fixed(in, bytes);
  jobs.out = lwc::jobs::out_column::fixed(out, bytes + a.tag_size);
  jobs.tags = lwc::jobs::tag_place::appended;
  const lwc::batch::options opt{threads, {}};
  std::vector<double> times;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    lwc::batch::encrypt(a, jobs, a.tag_size, opt);
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("%.9f\n", times[times.size() / 2]);
  return 0;
}
