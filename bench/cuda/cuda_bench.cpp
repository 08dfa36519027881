// SPDX-License-Identifier: MIT OR Apache-2.0
// Throughput of the CUDA engine (docs/cuda.md): kernel-only (device buffers, CUDA events
// around the kernels of one call) and end to end from host memory (pageable and pinned, wall
// clock around the host API call), for every algorithm, message sizes 64 .. 16384 bytes and
// 2^16 .. 2^22 messages (capped at --max-bytes of messages per batch), next to the host-to-
// device copy bandwidth measured in the same run. Writes bench.json and bench.md to --out and
// prints a short table with the targets. --algorithms, --sizes and --counts narrow the grid
// (tools/gpu-check.sh runs it in three passes that fit its time limit). Exits 2 without a GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <lwc/cuda.hpp>
#include <lwc/registry.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace lc = lwc::cuda;
namespace lb = lwc::jobs;

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct dev_buf {
  void* p = nullptr;
  explicit dev_buf(std::size_t n) { ok(cudaMalloc(&p, std::max<std::size_t>(n, 1)), "cudaMalloc"); }
  ~dev_buf() { (void)cudaFree(p); }
  dev_buf(const dev_buf&) = delete;
  dev_buf& operator=(const dev_buf&) = delete;
  std::uint8_t* b() const { return static_cast<std::uint8_t*>(p); }
};

struct event_pair {
  cudaEvent_t a = nullptr, b = nullptr;
  event_pair() {
    ok(cudaEventCreate(&a), "cudaEventCreate");
    ok(cudaEventCreate(&b), "cudaEventCreate");
  }
  ~event_pair() {
    (void)cudaEventDestroy(a);
    (void)cudaEventDestroy(b);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  double seconds() const {
    float ms = 0;
    ok(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    return ms / 1e3;
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The compute ceilings for an H100/H200 (about 52 integer instructions per round,
// 132 SMs): AEAD128 and 128a 630 GB/s (8 rounds per 16 bytes), Ascon-128 420 GB/s (6 rounds
// per 8 bytes), Hash256 and XOF128 214 GB/s (12 rounds per 8 bytes). None is set for Acorn-128
// and Grain-128AEADv2 (0: the percentage is left out).
double ceiling_gbps(std::string_view alg) {
  if (alg == "ascon-aead128" || alg == "ascon-128a") return 630;
  if (alg == "ascon-128") return 420;
  if (alg == "ascon-hash256" || alg == "ascon-xof128") return 214;
  return 0;
}

double ceiling_percent(std::string_view alg, double gbps) {
  const double c = ceiling_gbps(alg);
  return c > 0 ? 100 * gbps / c : 0;
}

struct record {
  std::string alg, op;
  std::size_t size = 0, n = 0;
  double kernel_s = 0, e2e_pageable_s = 0, e2e_pinned_s = 0;
  double bytes() const { return static_cast<double>(size) * static_cast<double>(n); }
  double kernel_gbps() const { return bytes() / kernel_s / 1e9; }
  double msgs_per_s() const { return static_cast<double>(n) / kernel_s; }
  double pageable_gbps() const { return e2e_pageable_s > 0 ? bytes() / e2e_pageable_s / 1e9 : 0; }
  double pinned_gbps() const { return e2e_pinned_s > 0 ? bytes() / e2e_pinned_s / 1e9 : 0; }
};

struct config {
  std::string out_dir = ".";
  std::size_t max_bytes = std::size_t{1} << 30;
  bool quick = false;
  bool e2e = true;
  int reps = 5;
  std::vector<std::string> algorithms;  // empty: every algorithm of the engine
  std::vector<std::size_t> sizes{64, 256, 1024, 4096, 16384};
  std::vector<std::size_t> counts;  // empty: 2^16 .. 2^22 (--quick: 2^16 and 2^20)
  lc::host_options host;             // the end-to-end runs' pipeline (--chunk-mib, --streams, --copy-threads)
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> v;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at) v.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return v;
}

// Each figure as soon as it is measured (stderr), so that a run cut short still shows them.
void report(const record& r) {
  std::fprintf(stderr, "    %-8s kernel %8.2f GB/s %9.4f Gmsg/s", r.op.c_str(), r.kernel_gbps(), r.msgs_per_s() / 1e9);
  if (r.e2e_pageable_s > 0) std::fprintf(stderr, "  e2e pageable %7.2f GB/s pinned %7.2f GB/s", r.pageable_gbps(), r.pinned_gbps());
  std::fprintf(stderr, "\n");
}

double copy_bandwidth(std::size_t bytes, bool to_device) {
  lc::pinned_buffer host(bytes);
  std::memset(host.data(), 1, bytes);
  dev_buf dev(bytes);
  event_pair ev;
  std::vector<double> t;
  for (int r = 0; r < 6; ++r) {
    ok(cudaEventRecord(ev.a), "cudaEventRecord");
    ok(to_device ? cudaMemcpyAsync(dev.p, host.data(), bytes, cudaMemcpyHostToDevice)
                 : cudaMemcpyAsync(host.data(), dev.p, bytes, cudaMemcpyDeviceToHost),
       "cudaMemcpyAsync");
    ok(cudaEventRecord(ev.b), "cudaEventRecord");
    ok(cudaEventSynchronize(ev.b), "cudaEventSynchronize");
    if (r > 0) t.push_back(ev.seconds());
  }
  return static_cast<double>(bytes) / median(t) / 1e9;
}

template <class F>
double time_kernel(int reps, F launch) {
  event_pair ev;
  launch();  // warm-up: first launch computes occupancy, loads the module
  ok(cudaDeviceSynchronize(), "warm-up");
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    ok(cudaEventRecord(ev.a), "cudaEventRecord");
    launch();
    ok(cudaEventRecord(ev.b), "cudaEventRecord");
    ok(cudaEventSynchronize(ev.b), "running the batch");
    t.push_back(ev.seconds());
  }
  return median(t);
}

template <class F>
double time_wall(int reps, F call) {
  call();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto a = std::chrono::steady_clock::now();
    call();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
  }
  return median(t);
}

std::vector<record> run_all(const config& cfg) {
  const std::vector<std::size_t>& sizes = cfg.sizes;
  std::vector<std::string_view> algorithms;
  for (std::string_view alg : lc::algorithms())
    if (cfg.algorithms.empty() || std::find(cfg.algorithms.begin(), cfg.algorithms.end(), alg) != cfg.algorithms.end())
      algorithms.push_back(alg);
  std::vector<std::size_t> counts{std::size_t{1} << 16, std::size_t{1} << 18, std::size_t{1} << 20,
                                  std::size_t{1} << 22};
  if (cfg.quick) counts = {std::size_t{1} << 16, std::size_t{1} << 20};
  if (!cfg.counts.empty()) counts = cfg.counts;
  std::sort(counts.begin(), counts.end());
  const std::size_t max_n = counts.back();
  const std::size_t max_bytes = cfg.max_bytes;

  // Per-job fields (keys, nonces, tags, digests) at the largest size any listed algorithm uses.
  std::size_t field = 16;
  for (std::string_view alg : algorithms) {
    const lwc::algorithm& info = lwc::get_algorithm(alg);
    field = std::max({field, info.key_size, info.nonce_size, info.tag_size, info.output_size});
  }
  // Device buffers for the largest batch; contents do not change the timing (constant time).
  dev_buf d_in(max_bytes), d_out(std::max(max_bytes, field * max_n)), d_keys(field * max_n),
      d_nonces(field * max_n), d_tags(field * max_n), d_ok(max_n), d_off(8 * (max_n + 1));
  ok(cudaMemset(d_in.p, 0x3c, max_bytes), "cudaMemset");
  ok(cudaMemset(d_keys.p, 0x11, field * max_n), "cudaMemset");
  ok(cudaMemset(d_nonces.p, 0x22, field * max_n), "cudaMemset");

  // Host buffers for the end-to-end runs: pageable and pinned.
  std::vector<std::uint8_t> h_in, h_out, h_keys(field * max_n, 0x11), h_nonces(field * max_n, 0x22),
      h_tags(field * max_n), h_ok(max_n);
  std::unique_ptr<lc::pinned_buffer> p_in, p_out;
  if (cfg.e2e) {
    h_in.assign(max_bytes, 0x3c);
    h_out.assign(std::max(max_bytes, field * max_n), 0);
    p_in = std::make_unique<lc::pinned_buffer>(max_bytes);
    p_out = std::make_unique<lc::pinned_buffer>(std::max(max_bytes, field * max_n));
    std::memset(p_in->data(), 0x3c, max_bytes);
    std::memset(p_out->data(), 0, max_bytes);
  }

  std::vector<record> out;
  std::vector<std::size_t> off(max_n + 1);
  for (std::size_t size : sizes) {
    for (std::size_t i = 0; i <= max_n; ++i) off[i] = i * size;
    ok(cudaMemcpy(d_off.p, off.data(), 8 * (max_n + 1), cudaMemcpyHostToDevice), "offsets");
    for (std::size_t n : counts) {
      if (n * size > max_bytes) continue;
      const std::size_t bytes = n * size;
      const std::span<const std::size_t> d_offsets{reinterpret_cast<const std::size_t*>(d_off.p), n + 1};
      const std::span<const std::size_t> h_offsets{off.data(), n + 1};
      for (std::string_view alg : algorithms) {
        const lwc::algorithm& info = lwc::get_algorithm(alg);
        const bool aead = info.is_aead();
        if (size > info.max_input_size) continue;  // PRFShort: inputs of at most 16 bytes
        // Keys, nonces, full tags and digests at the algorithm's own sizes.
        const std::size_t key_size = info.key_size, nonce_size = info.nonce_size, tag = info.tag_size;
        const std::size_t digest = info.output_size;
        std::fprintf(stderr, "  %-14s %6zu bytes x %8zu\n", std::string(alg).c_str(), size, n);
        if (aead) {
          // The packed job form in device memory: messages and outputs at the offsets made
          // above (as Arrow columns are), fixed key, nonce and tag columns.
          lb::packed_aead_jobs dx;
          dx.count = n;
          dx.keys = lb::column::fixed({d_keys.b(), key_size * n}, key_size);
          dx.nonces = lb::column::fixed({d_nonces.b(), nonce_size * n}, nonce_size);
          dx.in = lb::column::with_offsets<std::size_t>({d_in.b(), bytes}, d_offsets);
          dx.out = lb::out_column::with_offsets<std::size_t>({d_out.b(), bytes}, d_offsets);
          dx.tags_out = lb::out_column::fixed({d_tags.b(), tag * n}, tag);
          record enc{std::string(alg), "encrypt", size, n};
          enc.kernel_s = time_kernel(cfg.reps, [&] { lc::encrypt_async(info, dx, tag, nullptr); });
          // Decryption of valid ciphertexts (a failed tag would add the zeroing pass).
          lb::packed_aead_jobs dy = dx;
          dy.in = lb::column::with_offsets<std::size_t>({d_out.b(), bytes}, d_offsets);
          dy.out = lb::out_column::with_offsets<std::size_t>({d_in.b(), bytes}, d_offsets);
          dy.tags_out = {};
          dy.tags_in = lb::column::fixed({d_tags.b(), tag * n}, tag);
          record dec{std::string(alg), "decrypt", size, n};
          dec.kernel_s = time_kernel(cfg.reps, [&] { lc::decrypt_async(info, dy, {d_ok.b(), n}, tag, nullptr); });
          if (cfg.e2e) {
            const lb::packed_aead_inputs hx{{h_keys.data(), key_size * n}, {h_nonces.data(), nonce_size * n},
                                            {{h_in.data(), bytes}, h_offsets}, {}, {}};
            enc.e2e_pageable_s = time_wall(cfg.reps, [&] {
              lc::encrypt_packed(alg, hx, {h_out.data(), bytes}, {h_tags.data(), tag * n}, tag, cfg.host);
            });
            lb::packed_aead_inputs hy = hx;
            hy.in = {{h_out.data(), bytes}, h_offsets};
            dec.e2e_pageable_s = time_wall(cfg.reps, [&] {
              if (lc::decrypt_packed(alg, hy, {h_tags.data(), tag * n}, {h_in.data(), bytes}, {h_ok.data(), n}, tag, cfg.host) != n)
                throw std::runtime_error("decryption of valid ciphertexts failed");
            });
            lb::packed_aead_inputs px = hx;
            px.in = {{p_in->data(), bytes}, h_offsets};
            enc.e2e_pinned_s = time_wall(cfg.reps, [&] {
              lc::encrypt_packed(alg, px, {p_out->data(), bytes}, {h_tags.data(), tag * n}, tag, cfg.host);
            });
            lb::packed_aead_inputs py = hx;
            py.in = {{p_out->data(), bytes}, h_offsets};
            dec.e2e_pinned_s = time_wall(cfg.reps, [&] {
              if (lc::decrypt_packed(alg, py, {h_tags.data(), tag * n}, {p_in->data(), bytes}, {h_ok.data(), n}, tag, cfg.host) != n)
                throw std::runtime_error("decryption of valid ciphertexts failed");
            });
          }
          report(enc);
          report(dec);
          out.push_back(enc);
          out.push_back(dec);
        } else {
          // MACs and PRFs get a key per job; CXOFs run without a customization string.
          record h{std::string(alg), "hash", size, n};
          lb::packed_hash_jobs dj;
          dj.count = n;
          dj.in = lb::column::with_offsets<std::size_t>({d_in.b(), bytes}, d_offsets);
          dj.out = lb::out_column::fixed({d_out.b(), digest * n}, digest);
          if (key_size != 0) dj.keys = lb::column::fixed({d_keys.b(), key_size * n}, key_size);
          h.kernel_s = time_kernel(cfg.reps, [&] { lc::hash_async(info, dj, nullptr); });
          if (cfg.e2e) {
            lb::packed_hash_inputs hj{{{h_in.data(), bytes}, h_offsets}};
            if (key_size != 0) hj.keys = {h_keys.data(), key_size * n};
            h.e2e_pageable_s = time_wall(cfg.reps, [&] {
              lc::hash_packed(alg, hj, {h_out.data(), digest * n}, digest, cfg.host);
            });
            lb::packed_hash_inputs pj = hj;
            pj.in = {{p_in->data(), bytes}, h_offsets};
            h.e2e_pinned_s = time_wall(cfg.reps, [&] {
              lc::hash_packed(alg, pj, {p_out->data(), digest * n}, digest, cfg.host);
            });
          }
          report(h);
          out.push_back(h);
        }
      }
    }
  }
  return out;
}

std::string fmt(double x, int prec = 1) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, x);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) cfg.out_dir = argv[++i];
    else if (a == "--max-bytes" && i + 1 < argc) cfg.max_bytes = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--quick") cfg.quick = true;
    else if (a == "--no-e2e") cfg.e2e = false;
    else if (a == "--reps" && i + 1 < argc) cfg.reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--algorithms" && i + 1 < argc) cfg.algorithms = split_commas(argv[++i]);
    else if (a == "--chunk-mib" && i + 1 < argc) cfg.host.chunk_bytes = std::strtoull(argv[++i], nullptr, 10) << 20;
    else if (a == "--streams" && i + 1 < argc) cfg.host.streams = static_cast<unsigned>(std::atoi(argv[++i]));
    else if (a == "--copy-threads" && i + 1 < argc) cfg.host.copy_threads = static_cast<unsigned>(std::atoi(argv[++i]));
    else if ((a == "--sizes" || a == "--counts") && i + 1 < argc) {
      std::vector<std::size_t>& v = a == "--sizes" ? cfg.sizes : cfg.counts;
      v.clear();
      for (const std::string& x : split_commas(argv[++i])) v.push_back(std::strtoull(x.c_str(), nullptr, 10));
      if (std::find(v.begin(), v.end(), std::size_t{0}) != v.end() || v.empty()) {
        std::fprintf(stderr, "lwc_cuda_bench: %s takes positive numbers\n", a.c_str());
        return 64;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--out DIR] [--max-bytes N] [--quick] [--no-e2e] [--reps N] [--algorithms A,B,..]"
                   " [--sizes S,T,..] [--counts N,M,..] [--chunk-mib N] [--streams N] [--copy-threads N]\n",
                   argv[0]);
      return 64;
    }
  }
  for (const std::string& alg : cfg.algorithms) {
    if (!lc::supports(alg)) {
      std::fprintf(stderr, "lwc_cuda_bench: the CUDA engine does not run '%s'\n", alg.c_str());
      return 64;
    }
  }
  if (!lc::available()) {
    std::printf("no CUDA device: benchmark skipped\n");
    return 2;
  }
  try {
    const std::string device = lc::device_description();
    std::fprintf(stderr, "device: %s\n", device.c_str());
    const double h2d = copy_bandwidth(std::size_t{256} << 20, true);
    const double d2h = copy_bandwidth(std::size_t{256} << 20, false);
    const std::vector<record> recs = run_all(cfg);

    std::ostringstream js;
    js << "{\n  \"device\": \"" << device << "\",\n  \"h2d_pinned_gbps\": " << fmt(h2d, 2)
       << ",\n  \"d2h_pinned_gbps\": " << fmt(d2h, 2) << ",\n  \"results\": [\n";
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const record& r = recs[i];
      js << "    {\"algorithm\": \"" << r.alg << "\", \"operation\": \"" << r.op << "\", \"bytes\": " << r.size
         << ", \"messages\": " << r.n << ", \"kernel_seconds\": " << r.kernel_s
         << ", \"kernel_gbps\": " << fmt(r.kernel_gbps(), 2) << ", \"kernel_messages_per_s\": " << fmt(r.msgs_per_s(), 0)
         << ", \"ceiling_percent\": " << fmt(ceiling_percent(r.alg, r.kernel_gbps()), 1)
         << ", \"e2e_pageable_gbps\": " << fmt(r.pageable_gbps(), 2) << ", \"e2e_pinned_gbps\": " << fmt(r.pinned_gbps(), 2)
         << "}" << (i + 1 < recs.size() ? "," : "") << "\n";
    }
    js << "  ]\n}\n";

    std::ostringstream md;
    md << "Device: " << device << "  \nH2D (pinned, cudaMemcpyAsync): " << fmt(h2d) << " GB/s; D2H: " << fmt(d2h)
       << " GB/s\n\n| algorithm | op | bytes | messages | kernel GB/s | % ceiling | Gmsg/s | e2e pageable GB/s | e2e pinned GB/s | % of H2D (pinned e2e) |\n"
       << "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const record& r : recs)
      md << "| " << r.alg << " | " << r.op << " | " << r.size << " | " << r.n << " | " << fmt(r.kernel_gbps()) << " | "
         << fmt(ceiling_percent(r.alg, r.kernel_gbps())) << " | " << fmt(r.msgs_per_s() / 1e9, 3) << " | "
         << fmt(r.pageable_gbps()) << " | " << fmt(r.pinned_gbps()) << " | " << fmt(100 * r.pinned_gbps() / h2d) << " |\n";

    std::ofstream(cfg.out_dir + "/bench.json") << js.str();
    std::ofstream(cfg.out_dir + "/bench.md") << md.str();

    // Summary: best over batch sizes, against the targets.
    const auto best = [&](std::string_view alg, std::string_view op, std::size_t min_size, std::size_t max_size,
                          double (record::*f)() const) {
      double b = 0;
      for (const record& r : recs)
        if (r.alg == alg && r.op == op && r.size >= min_size && r.size <= max_size) b = std::max(b, (r.*f)());
      return b;
    };
    // Worst message size of those >= min_size, each at its best batch size.
    const auto worst_size = [&](std::string_view alg, std::string_view op, std::size_t min_size) {
      double w = 1e300;
      for (std::size_t s : cfg.sizes)
        if (s >= min_size) w = std::min(w, best(alg, op, s, s, &record::kernel_gbps));
      return w;
    };
    std::printf("\nlwc CUDA engine on %s\nH2D copy (pinned): %.1f GB/s, D2H: %.1f GB/s\n\n", device.c_str(), h2d, d2h);
    std::printf("%-14s %-8s %14s %10s %14s %14s %14s\n", "algorithm", "op", "kernel GB/s", "% ceiling", "Gmsg/s @64B",
                "e2e pageable", "e2e pinned");
    for (std::string_view alg : lc::algorithms()) {
      for (std::string_view op : {"encrypt", "decrypt", "hash"}) {
        const double k = worst_size(alg, op, 1024);
        if (k == 0 || k > 1e299) continue;
        std::printf("%-14s %-8s %14.1f %10.1f %14.3f %14.1f %14.1f\n", std::string(alg).c_str(), std::string(op).c_str(),
                    k, ceiling_percent(alg, k), best(alg, op, 64, 64, &record::msgs_per_s) / 1e9,
                    best(alg, op, 1024, 16384, &record::pageable_gbps), best(alg, op, 1024, 16384, &record::pinned_gbps));
      }
    }
    const double aead = worst_size("ascon-aead128", "encrypt", 1024);
    const double hash = worst_size("ascon-hash256", "hash", 1024);
    const double small = best("ascon-aead128", "encrypt", 64, 64, &record::msgs_per_s);
    const double e2e_pin = best("ascon-aead128", "encrypt", 1024, 16384, &record::pinned_gbps);
    const double e2e_page = best("ascon-aead128", "encrypt", 1024, 16384, &record::pageable_gbps);
    const auto mark = [](bool ok_) { return ok_ ? "met" : "NOT met"; };
    std::printf("\n(kernel GB/s: the slowest of 1, 4 and 16 KiB messages, each at its best batch size)\n");
    std::printf("targets: AEAD128 >= 380 GB/s: %.1f (%s); Hash256 >= 130 GB/s: %.1f (%s);\n", aead, mark(aead >= 380),
                hash, mark(hash >= 130));
    std::printf("         64-byte AEAD128 >= 2 Gmsg/s: %.3f (%s);\n", small / 1e9, mark(small >= 2e9));
    if (cfg.e2e)
      std::printf("         end to end >= 80%% of H2D: pinned %.0f%% (%s), pageable %.0f%% (%s)\n", 100 * e2e_pin / h2d,
                  mark(e2e_pin >= 0.8 * h2d), 100 * e2e_page / h2d, mark(e2e_page >= 0.8 * h2d));
    std::printf("results: %s/bench.json, %s/bench.md\n", cfg.out_dir.c_str(), cfg.out_dir.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lwc_cuda_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
