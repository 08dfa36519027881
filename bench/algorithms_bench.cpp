// SPDX-License-Identifier: MIT OR Apache-2.0
// Single-message throughput of every registered algorithm, through the registry's entry
// points: names <algorithm>/<operation>/<bytes>, operation encrypt|decrypt (32 bytes of AD),
// hash|xof (32 bytes of output) or mac. Bytes per second count the message bytes.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <lwc/registry.hpp>

namespace {

// 1 MiB is there for comparisons with the Python package (bench/python/bench.py).
constexpr std::size_t sizes[] = {64, 1024, 4096, 65536, 1 << 20};

void bench_encrypt(benchmark::State& state, const lwc::algorithm* a, std::size_t n) {
  std::vector<std::uint8_t> key(a->key_size, 1), nonce(a->nonce_size, 2), ad(32, 3), pt(n, 4),
      ct(n), tag(a->tag_size);
  for (auto _ : state) {
    a->encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
               tag.data(), tag.size());
    benchmark::DoNotOptimize(ct.data());
    benchmark::DoNotOptimize(tag.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void bench_decrypt(benchmark::State& state, const lwc::algorithm* a, std::size_t n) {
  std::vector<std::uint8_t> key(a->key_size, 1), nonce(a->nonce_size, 2), ad(32, 3), pt(n, 4),
      ct(n), tag(a->tag_size), out(n);
  a->encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
             tag.data(), tag.size());
  for (auto _ : state) {
    const bool ok = a->decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(),
                               n, tag.data(), tag.size(), out.data());
    if (!ok) state.SkipWithError("verification failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void bench_hash(benchmark::State& state, const lwc::algorithm* a, std::size_t n) {
  std::vector<std::uint8_t> key(a->key_size, 1), msg(n, 5), out(a->output_size);
  for (auto _ : state) {
    a->digest(key.data(), nullptr, 0, msg.data(), n, out.data(), out.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

std::string operation_of(const lwc::algorithm& a) {
  switch (a.kind) {
    case lwc::algorithm_kind::hash: return "hash";
    case lwc::algorithm_kind::xof:
    case lwc::algorithm_kind::cxof: return "xof";
    default: return "mac";
  }
}

int register_all() {
  for (const auto& a : lwc::algorithms()) {
    for (std::size_t n : sizes) {
      if (n > a.max_input_size) continue;
      const std::string base = std::string(a.name) + "/";
      const std::string size = "/" + std::to_string(n);
      if (a.is_aead()) {
        benchmark::RegisterBenchmark((base + "encrypt" + size).c_str(), bench_encrypt, &a, n);
        benchmark::RegisterBenchmark((base + "decrypt" + size).c_str(), bench_decrypt, &a, n);
      } else {
        benchmark::RegisterBenchmark((base + operation_of(a) + size).c_str(), bench_hash, &a, n);
      }
    }
    if (a.max_input_size < sizes[0]) {  // PRFShort: its only size
      const std::string name = std::string(a.name) + "/mac/" + std::to_string(a.max_input_size);
      benchmark::RegisterBenchmark(name.c_str(), bench_hash, &a, a.max_input_size);
    }
  }
  return 0;
}

const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
