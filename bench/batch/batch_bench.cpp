// SPDX-License-Identifier: MIT OR Apache-2.0
// Batch engine throughput: names batch/<algorithm>/<operation>/<bytes>/<backend>/<threads>.
// Each iteration processes a whole batch of 2^14 messages of <bytes> bytes, or fewer where
// those would exceed 64 MiB (4096 messages of 16 KiB), AEADs with 32 bytes of associated data,
// as in lwc_bench; hashes with one digest, XOFs with 32 bytes of output, MACs and PRFs likewise
// with a key per message; every message with its own key and nonce. Bytes per second count
// message bytes.
//
// bytes "mixed": lengths drawn uniformly from 0..4096 in one batch, to show that refilling
// lanes as messages finish keeps them busy; compare with "scalar" on the same batch.
//
// The backend "scalar" is the single-message core run over the same batch, one message after
// the other on one thread: the baseline the batch speed-ups are quoted against, measured in
// the same process and conditions. Time is wall-clock time. Where an algorithm has no lane kernel
// on a backend (lwc::batch::has_lanes), that backend runs it job by job and differs from the
// others only in the engine's overhead.
//
// LWC_BATCH_BENCH_MESSAGES overrides the batch size (a power of two is not required; the 64 MiB
// bound does not apply then).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace {

constexpr std::size_t sizes[] = {64, 256, 1024, 4096, 16384, 0};  // 0: mixed lengths
constexpr std::size_t mixed_max = 4096;
constexpr std::size_t ad_len = 32;

// Fixed-size outputs at their size, extendable ones at 32 bytes.
std::size_t output_length(const lwc::algorithm& a) {
  return a.max_output_size != 0 ? a.output_size : 32;
}

std::size_t batch_messages(std::size_t bytes) {
  if (const char* s = std::getenv("LWC_BATCH_BENCH_MESSAGES")) {
    const long v = std::atol(s);
    if (v > 0) return static_cast<std::size_t>(v);
  }
  constexpr std::size_t most = std::size_t{1} << 14, most_bytes = std::size_t{64} << 20;
  return bytes != 0 && bytes * most > most_bytes ? most_bytes / bytes : most;
}

// One batch of n messages of one size (or of mixed sizes), built once per (algorithm, size).
struct workload {
  std::vector<std::uint8_t> keys, nonces, ad, in, out, tags, back;
  std::vector<std::size_t> len, off;
  std::vector<lwc::batch::aead_job> enc, dec;
  std::vector<lwc::batch::hash_job> hash;
  std::vector<std::uint8_t> ok;
};

workload& get(const lwc::algorithm& a, std::size_t bytes) {
  static std::map<std::pair<std::string_view, std::size_t>, std::unique_ptr<workload>> cache;
  auto& slot = cache[{a.name, bytes}];
  if (slot) return *slot;
  slot = std::make_unique<workload>();
  workload& w = *slot;
  const std::size_t n = batch_messages(bytes);
  std::uint32_t x = 0x9e3779b9u;
  const auto next = [&] {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    return x;
  };
  const auto fill = [&](std::vector<std::uint8_t>& v, std::size_t size) {
    v.resize(size);
    for (auto& b : v) b = static_cast<std::uint8_t>(next());
  };
  w.off.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    w.len.push_back(bytes != 0 ? bytes : next() % (mixed_max + 1));
    w.off.push_back(w.off.back() + w.len.back());
  }
  const std::size_t total = w.off.back();
  fill(w.in, total);
  w.out.resize(total);
  w.back.resize(total);
  if (a.is_aead()) {
    fill(w.keys, n * a.key_size);
    fill(w.nonces, n * a.nonce_size);
    fill(w.ad, n * ad_len);
    w.tags.resize(n * a.tag_size);
    w.ok.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const lwc::bytes_view key{w.keys.data() + i * a.key_size, a.key_size};
      const lwc::bytes_view nonce{w.nonces.data() + i * a.nonce_size, a.nonce_size};
      const lwc::bytes_view ad{w.ad.data() + i * ad_len, ad_len};
      const lwc::bytes_span tag{w.tags.data() + i * a.tag_size, a.tag_size};
      w.enc.push_back({key, nonce, ad, {w.in.data() + w.off[i], w.len[i]},
                       {w.out.data() + w.off[i], w.len[i]}, tag, {}});
      w.dec.push_back({key, nonce, ad, {w.out.data() + w.off[i], w.len[i]},
                       {w.back.data() + w.off[i], w.len[i]}, tag, {}});
    }
    lwc::batch::encrypt(a.name, w.enc, a.tag_size);
  } else {
    const std::size_t out = output_length(a);
    w.tags.resize(n * out);
    fill(w.keys, n * a.key_size);
    for (std::size_t i = 0; i < n; ++i)
      w.hash.push_back({{w.in.data() + w.off[i], w.len[i]},
                        {w.tags.data() + i * out, out},
                        {w.keys.data() + i * a.key_size, a.key_size}});
  }
  return w;
}

void bench_batch(benchmark::State& state, const lwc::algorithm* a, std::string op,
                 std::size_t bytes, std::string backend, unsigned threads) {
  workload& w = get(*a, bytes);
  const lwc::batch::options opt{threads, backend};
  for (auto _ : state) {
    if (op == "encrypt") {
      lwc::batch::encrypt(a->name, w.enc, a->tag_size, opt);
    } else if (op == "decrypt") {
      if (lwc::batch::decrypt(a->name, w.dec, w.ok, a->tag_size, opt) != w.dec.size())
        state.SkipWithError("verification failed");
    } else {
      lwc::batch::hash(a->name, w.hash, opt);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * w.in.size()));
  state.counters["messages"] = static_cast<double>(w.len.size());
  state.counters["lanes"] = lwc::batch::has_lanes(*a, backend) ? 1 : 0;  // else job by job
}

// The single-message core over the same batch, through the registry like lwc_bench.
void bench_scalar(benchmark::State& state, const lwc::algorithm* a, std::string op,
                  std::size_t bytes) {
  workload& w = get(*a, bytes);
  const std::size_t n = w.len.size();
  alignas(8) std::uint8_t st[lwc::max_hash_state_size];
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) {
      if (op == "encrypt") {
        const auto& j = w.enc[i];
        a->encrypt(j.key.data(), nullptr, j.nonce.data(), j.ad.data(), j.ad.size(), j.in.data(),
                   j.in.size(), j.out.data(), j.tag.data(), j.tag.size());
      } else if (op == "decrypt") {
        const auto& j = w.dec[i];
        if (!a->decrypt(j.key.data(), nullptr, j.nonce.data(), j.ad.data(), j.ad.size(),
                        j.in.data(), j.in.size(), j.tag.data(), j.tag.size(), j.out.data()))
          state.SkipWithError("verification failed");
      } else {
        const auto& j = w.hash[i];
        a->init(st, j.key.data(), nullptr, 0);
        a->absorb(st, j.in.data(), j.in.size());
        a->squeeze(st, j.out.data(), j.out.size());
        a->destroy(st);
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * w.in.size()));
  state.counters["messages"] = static_cast<double>(n);
}

void configure(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

int register_all() {
  std::vector<unsigned> thread_counts{1, 2};
  const unsigned hw = std::thread::hardware_concurrency();
  if (hw > 2) thread_counts.push_back(hw);
  for (std::string_view name : lwc::batch::algorithms()) {
    const lwc::algorithm* a = lwc::find_algorithm(name);
    // PRFShort takes at most 16 bytes: it is measured at its limit only.
    const bool bounded = a->max_input_size != SIZE_MAX;
    const std::vector<std::size_t> lengths =
        bounded ? std::vector<std::size_t>{a->max_input_size}
                : std::vector<std::size_t>(std::begin(sizes), std::end(sizes));
    std::vector<std::string> ops;
    if (a->is_aead()) ops = {"encrypt", "decrypt"};
    else ops = {a->kind == lwc::algorithm_kind::hash ? "hash"
                : a->is_keyed()                       ? "mac"
                                                      : "xof"};
    for (const std::string& op : ops) {
      for (std::size_t bytes : lengths) {
        const std::string base = "batch/" + std::string(name) + "/" + op + "/" +
                                 (bytes != 0 ? std::to_string(bytes) : "mixed") + "/";
        configure(benchmark::RegisterBenchmark((base + "scalar/1").c_str(), bench_scalar, a, op,
                                              bytes));
        for (std::string_view backend : lwc::batch::available_backends())
          for (unsigned t : thread_counts)
            configure(benchmark::RegisterBenchmark(
                (base + std::string(backend) + "/" + std::to_string(t)).c_str(), bench_batch, a,
                op, bytes, std::string(backend), t));
      }
    }
  }
  return 0;
}

const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
