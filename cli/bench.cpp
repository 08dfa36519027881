// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc bench: throughput of the registered algorithms on this machine, per backend, as a table
// and optionally as JSON for tools/plot_bench.py. The operations and their inputs are those of
// bench/algorithms_bench.cpp (32 bytes of associated data, 32-byte digests), so the figures
// compare with the google-benchmark programs.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <lwc/registry.hpp>

#include "bench.hpp"
#include "commands.hpp"
#include "util.hpp"

#ifndef LWC_VERSION
#define LWC_VERSION "unknown"
#endif

namespace lwc::cli {

namespace {

using bench::backend;
using bench::keep;
using bench::operation;
using bench::prepared;

std::string_view name_of(operation op) {
  switch (op) {
    case operation::encrypt: return "encrypt";
    case operation::decrypt: return "decrypt";
    case operation::hash: return "hash";
    case operation::xof: return "xof";
    case operation::mac: return "mac";
  }
  return "?";
}

std::vector<operation> operations_of(const algorithm& a) {
  switch (a.kind) {
    case algorithm_kind::aead: return {operation::encrypt, operation::decrypt};
    case algorithm_kind::hash: return {operation::hash};
    case algorithm_kind::xof:
    case algorithm_kind::cxof: return {operation::xof};
    default: return {operation::mac};
  }
}

prepared single_prepare(const algorithm& a, operation op, std::size_t n) {
  struct buffers {
    std::vector<std::uint8_t> key, nonce, ad, in, out, tag;
    alignas(8) std::uint8_t state[max_hash_state_size];
  };
  auto b = std::make_shared<buffers>();
  b->key.assign(a.key_size, 1);
  b->nonce.assign(a.nonce_size, 2);
  b->ad.assign(32, 3);
  b->in.assign(n, 4);
  b->out.assign(n, 0);
  b->tag.assign(a.is_aead() ? a.tag_size : a.output_size, 0);
  prepared p;
  p.bytes_per_op = n;
  switch (op) {
    case operation::encrypt:
      p.run = [&a, b, n](std::uint64_t iters) {
        for (std::uint64_t i = 0; i < iters; ++i) {
          a.encrypt(b->key.data(), nullptr, b->nonce.data(), b->ad.data(), b->ad.size(),
                    b->in.data(), n, b->out.data(), b->tag.data(), b->tag.size());
          keep(b->out.data());
        }
      };
      break;
    case operation::decrypt:
      a.encrypt(b->key.data(), nullptr, b->nonce.data(), b->ad.data(), b->ad.size(), b->in.data(),
                n, b->in.data(), b->tag.data(), b->tag.size());
      p.run = [&a, b, n](std::uint64_t iters) {
        for (std::uint64_t i = 0; i < iters; ++i) {
          const bool ok = a.decrypt(b->key.data(), nullptr, b->nonce.data(), b->ad.data(),
                                    b->ad.size(), b->in.data(), n, b->tag.data(), b->tag.size(),
                                    b->out.data());
          if (!ok) throw failure("bench: " + std::string(a.name) + " failed to verify its own output");
          keep(b->out.data());
        }
      };
      break;
    default:
      p.run = [&a, b, n](std::uint64_t iters) {
        for (std::uint64_t i = 0; i < iters; ++i) {
          a.init(b->state, b->key.data(), nullptr, 0);
          a.absorb(b->state, b->in.data(), n);
          a.squeeze(b->state, b->tag.data(), b->tag.size());
          a.destroy(b->state);
          keep(b->tag.data());
        }
      };
  }
  return p;
}

struct measurement {
  std::string algorithm, operation, backend;
  unsigned threads;
  std::size_t bytes;
  std::uint64_t iterations;
  double seconds, cpu_seconds;
  double mb_per_s;      // per second of wall-clock time
  double mb_per_cpu_s;  // per second of CPU time of the whole process (all its threads)
};

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs one case long enough to take at least min_seconds in a single timed run. CPU time is
// recorded too: on a shared machine it still shows what one core does (google-benchmark's
// bytes_per_second is per CPU second as well).
measurement measure(const backend& be, const algorithm& a, operation op, std::size_t bytes,
                    double min_seconds) {
  prepared p = be.prepare(a, op, bytes);
  p.run(1);
  std::uint64_t iters = 1;
  double elapsed = 0, cpu = 0;
  for (;;) {
    const double c0 = process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    p.run(iters);
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu = process_cpu_seconds() - c0;
    if (elapsed >= min_seconds) break;
    const double scale = elapsed > 0 ? 1.25 * min_seconds / elapsed : 100.0;
    iters = std::max<std::uint64_t>(iters + 1, static_cast<std::uint64_t>(
                                                   static_cast<double>(iters) * std::min(scale, 100.0)));
  }
  const double total = static_cast<double>(iters) * static_cast<double>(p.bytes_per_op);
  return {std::string(a.name), std::string(name_of(op)), be.name, be.threads, bytes, iters,
          elapsed, cpu, total / elapsed / 1e6, cpu > 0 ? total / cpu / 1e6 : 0.0};
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(std::min(colon + 2, line.size()));
    }
  return "unknown";
}

void write_json(const std::string& path, const std::vector<measurement>& rows, double seconds) {
  std::ostringstream js;
  js << "{\n  \"tool\": \"lwc bench\",\n  \"lwc_version\": " << json_string(LWC_VERSION)
     << ",\n  \"cpu\": " << json_string(cpu_model())
     << ",\n  \"compiler\": " << json_string(__VERSION__) << ",\n  \"min_time_s\": " << seconds
     << ",\n  \"unit\": \"MB = 1e6 message bytes; mb_per_s per wall-clock second (all threads "
        "of a row together), mb_per_cpu_s per CPU second of the process\",\n  \"results\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    char mbps[32], mbpc[32], secs[32], cpus[32];
    std::snprintf(mbps, sizeof mbps, "%.3f", r.mb_per_s);
    std::snprintf(mbpc, sizeof mbpc, "%.3f", r.mb_per_cpu_s);
    std::snprintf(secs, sizeof secs, "%.6f", r.seconds);
    std::snprintf(cpus, sizeof cpus, "%.6f", r.cpu_seconds);
    js << (i ? "," : "") << "\n    {\"algorithm\": " << json_string(r.algorithm)
       << ", \"operation\": " << json_string(r.operation) << ", \"bytes\": " << r.bytes
       << ", \"backend\": " << json_string(r.backend) << ", \"threads\": " << r.threads
       << ", \"iterations\": " << r.iterations
       << ", \"seconds\": " << secs << ", \"cpu_seconds\": " << cpus
       << ", \"mb_per_s\": " << mbps << ", \"mb_per_cpu_s\": " << mbpc << "}";
  }
  js << "\n  ]\n}\n";
  const std::string text = js.str();
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  output_file out(path, true, default_file_mode());
  write_all(out.fd(), reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
            describe(path));
  out.commit();
}

}  // namespace

constexpr unsigned max_bench_threads = 1024;

int run_bench(const bench_options& opt) {
  if (!(opt.seconds > 0 && opt.seconds <= 60))
    throw failure("--time must be between 0 and 60 seconds", exit_usage);
  // Each batch row holds a few messages per lane and thread in memory.
  if (opt.threads > max_bench_threads)
    throw failure("--threads must be from 1 to " + std::to_string(max_bench_threads), exit_usage);
  std::vector<const algorithm*> algs;
  if (opt.algorithms.empty()) {
    for (const algorithm& a : algorithms()) algs.push_back(&a);
  } else {
    for (const auto& name : opt.algorithms) {
      const algorithm* a = find_algorithm(name);
      if (a == nullptr) throw failure("unknown algorithm '" + name + "' (see 'lwc list')", exit_usage);
      algs.push_back(a);
    }
  }
  std::vector<std::size_t> sizes;
  for (const auto& s : opt.sizes) {
    const std::uint64_t n = parse_size(s, "--sizes");
    if (n == 0 || n > (256u << 20)) throw failure("--sizes: each size must be 1 byte to 256M", exit_usage);
    sizes.push_back(static_cast<std::size_t>(n));
  }
  if (sizes.empty()) sizes = {64, 1024, 4096, 65536};
  for (const auto& o : opt.operations)
    if (o != "encrypt" && o != "decrypt" && o != "hash" && o != "xof" && o != "mac")
      throw failure("--operation must be encrypt, decrypt, hash, xof or mac, not '" + o + "'",
                    exit_usage);

  std::vector<backend> backends;
  backends.push_back({"single", 1, [](const algorithm&, operation) { return true; }, single_prepare});
  if (opt.batch) {
    std::string why_not;
    auto more = bench::batch_backends(opt.threads == 0 ? 1 : opt.threads, why_not);
    if (more.empty())
      std::fprintf(stderr, "lwc bench: %s; showing the single-message core only\n", why_not.c_str());
    for (auto& b : more) backends.push_back(std::move(b));
  }

  const bool json_to_stdout = opt.json == "-";
  FILE* table = json_to_stdout ? stderr : stdout;
  std::fprintf(table, "%-20s %-9s %9s  %-15s %10s %12s\n", "algorithm", "operation", "bytes",
               "backend", "MB/s", "MB/cpu-s");
  std::fflush(table);
  std::vector<measurement> rows;
  for (const algorithm* a : algs) {
    for (operation op : operations_of(*a)) {
      if (!opt.operations.empty() &&
          std::find(opt.operations.begin(), opt.operations.end(), name_of(op)) == opt.operations.end())
        continue;
      std::vector<std::size_t> these;
      for (std::size_t n : sizes)
        if (n <= a->max_input_size) these.push_back(n);
      if (these.empty()) these.push_back(a->max_input_size);  // PRFShort: its only size
      for (std::size_t n : these)
        for (const backend& be : backends) {
          if (!be.supports(*a, op)) continue;
          const measurement m = measure(be, *a, op, n, opt.seconds);
          std::fprintf(table, "%-20s %-9s %9zu  %-15s %10.1f %12.1f\n", m.algorithm.c_str(),
                       m.operation.c_str(), m.bytes, m.backend.c_str(), m.mb_per_s,
                       m.mb_per_cpu_s);
          std::fflush(table);
          rows.push_back(m);
        }
    }
  }
  if (rows.empty()) throw failure("nothing to measure: no algorithm has the chosen operation");
  if (!opt.json.empty()) write_json(opt.json, rows, opt.seconds);
  return 0;
}

}  // namespace lwc::cli
