// SPDX-License-Identifier: MIT OR Apache-2.0
// The driver of matrix.py: one family's lwc algorithms built by several compilers and flag
// sets, timed in one process against the anchors (the designers' code, rweather/lwc-finalists).
// The generated matrix_sides.inc declares the entry points and fills two tables:
//   algorithms[]       name, AEAD or hash, key / nonce / tag bytes or digest bytes
//   implementations[]  label, anchor or lwc, which algorithm, its entry points
// The lwc builds come first; the first one of an algorithm is its reference.
//
// Every implementation is first run against the reference on random inputs (one that gives
// different bytes is reported and the program fails). Then every repetition visits every
// operation and size and times all implementations of the algorithm there once, in a fresh
// random order, each for about --min-ms of CPU time of this thread (robust to other processes
// taking the core away, not to a busy sibling thread slowing it).
// Output: one JSON object on stdout, every repetition's rate of every implementation.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using u8 = unsigned char;
using ull = unsigned long long;
using encrypt_fn = int (*)(u8*, ull*, const u8*, ull, const u8*, ull, const u8*, const u8*,
                           const u8*);
using decrypt_fn = int (*)(u8*, ull*, u8*, const u8*, ull, const u8*, ull, const u8*, const u8*);
using hash_fn = int (*)(u8*, const u8*, ull);

namespace {

struct algorithm {
  const char* name;
  bool is_aead;
  std::size_t key_size, nonce_size, tag_size;  // AEAD
  std::size_t digest_size;                     // hash: the bytes crypto_hash writes
};

struct implementation {
  const char* label;
  bool is_anchor;
  std::size_t algorithm;  // index into algorithms[]
  encrypt_fn encrypt;
  decrypt_fn decrypt;
  hash_fn hash;
};

}  // namespace

#include "matrix_sides.inc"

namespace {

constexpr std::size_t ad_size = 32;
std::vector<std::size_t> sizes = {64, 256, 1024, 4096, 16384, 65536};

std::vector<u8> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<u8> v(n);
  for (auto& b : v) b = static_cast<u8>(rng());
  return v;
}

// Empty when b computes what ref computes on random inputs of every length up to 200 bytes
// (AD 0..40) and at 1000 and 5000 bytes.
std::string disagreement(const implementation& b, const implementation& ref,
                         const algorithm& alg) {
  std::mt19937_64 rng(0x6173636f6e6d6174);
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n <= 200; ++n) lens.push_back(n);
  lens.push_back(1000);
  lens.push_back(5000);
  for (std::size_t n : lens) {
    const std::string at = " at " + std::to_string(n) + " bytes";
    const auto msg = random_bytes(rng, n);
    if (!alg.is_aead) {
      std::vector<u8> want(alg.digest_size), got(alg.digest_size);
      ref.hash(want.data(), msg.data(), n);
      b.hash(got.data(), msg.data(), n);
      if (got != want) return "hash differs" + at;
      continue;
    }
    const auto key = random_bytes(rng, alg.key_size), nonce = random_bytes(rng, alg.nonce_size),
               ad = random_bytes(rng, n % 41);
    std::vector<u8> want(n + alg.tag_size), got(n + alg.tag_size), back(n + 1);
    ull len = 0;
    ref.encrypt(want.data(), &len, msg.data(), n, ad.data(), ad.size(), nullptr, nonce.data(),
                key.data());
    b.encrypt(got.data(), &len, msg.data(), n, ad.data(), ad.size(), nullptr, nonce.data(),
              key.data());
    if (len != n + alg.tag_size || got != want) return "encrypt differs" + at;
    if (b.decrypt(back.data(), &len, nullptr, want.data(), want.size(), ad.data(), ad.size(),
                  nonce.data(), key.data()) != 0 ||
        len != n || std::memcmp(back.data(), msg.data(), n) != 0)
      return "decrypt fails" + at;
    want[n % want.size()] ^= 1;
    if (b.decrypt(back.data(), &len, nullptr, want.data(), want.size(), ad.data(), ad.size(),
                  nonce.data(), key.data()) == 0)
      return "decrypt accepts a forgery" + at;
  }
  return {};
}

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct inputs {
  std::vector<u8> key, nonce, ad, msg, ct, out;
};

enum class operation { encrypt, decrypt, hash };

void run_once(const implementation& b, operation op, std::size_t n, std::size_t tag_size,
              inputs& in) {
  ull len = 0;
  switch (op) {
    case operation::encrypt:
      b.encrypt(in.out.data(), &len, in.msg.data(), n, in.ad.data(), ad_size, nullptr,
                in.nonce.data(), in.key.data());
      break;
    case operation::decrypt:
      b.decrypt(in.out.data(), &len, nullptr, in.ct.data(), n + tag_size, in.ad.data(), ad_size,
                in.nonce.data(), in.key.data());
      break;
    case operation::hash: b.hash(in.out.data(), in.msg.data(), n); break;
  }
  asm volatile("" : : "r"(in.out.data()) : "memory");
}

// Bytes per second of CPU time over `iterations` calls.
double rate(const implementation& b, operation op, std::size_t n, std::size_t tag_size,
            inputs& in, std::size_t iterations) {
  const double t0 = thread_seconds();
  for (std::size_t i = 0; i < iterations; ++i) run_once(b, op, n, tag_size, in);
  const double t = thread_seconds() - t0;
  return static_cast<double>(n) * static_cast<double>(iterations) / t;
}

bool selected(const std::vector<std::string>& only, const std::string& op_name,
              const char* alg_name) {
  if (only.empty()) return true;
  return std::find_if(only.begin(), only.end(), [&](const std::string& o) {
           return o == op_name || o == alg_name;
         }) != only.end();
}

std::vector<std::string> split(std::string_view list) {
  std::vector<std::string> items;
  while (!list.empty()) {
    const auto comma = list.find(',');
    items.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return items;
}

}  // namespace

// --spin: integer work that never ends, for matrix.py --busy-cpu to run on another CPU (on a
// virtual machine, often the sibling thread of the timed one) while the timings run.
[[noreturn]] void spin() {
  std::uint64_t a = 1, b = 2, c = 3, d = 4;
  for (;;) {
    a ^= b << 3;
    b += c >> 5;
    c ^= d * 7;
    d += a;
    a = a << 1 | a >> 63;
    asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  }
}

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--spin") spin();
  int repetitions = 11;
  double min_seconds = 0.02;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--repetitions=")) repetitions = std::atoi(argv[i] + 14);
    else if (a.starts_with("--min-ms=")) min_seconds = std::atof(argv[i] + 9) / 1000;
    else if (a.starts_with("--only=")) only = split(a.substr(7));
    else if (a.starts_with("--sizes=")) {
      sizes.clear();
      for (const auto& s : split(a.substr(8))) sizes.push_back(std::strtoull(s.c_str(), nullptr, 10));
    } else {
      std::fprintf(stderr,
                   "usage: %s [--repetitions=N] [--min-ms=MS] [--sizes=N,...] "
                   "[--only=OPERATION-OR-ALGORITHM,...]\n",
                   argv[0]);
      return 2;
    }
  }
  constexpr std::size_t count = sizeof implementations / sizeof implementations[0];
  int failures = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto& b = implementations[i];
    const implementation* ref = nullptr;
    for (const auto& r : implementations)
      if (r.algorithm == b.algorithm) { ref = &r; break; }
    if (ref == &b) continue;
    const std::string why = disagreement(b, *ref, algorithms[b.algorithm]);
    std::fprintf(stderr, "check: %-16s %-32s %s\n", algorithms[b.algorithm].name, b.label,
                 why.empty() ? "agrees" : why.c_str());
    failures += !why.empty();
  }
  if (failures) return 1;

  // Every cell (operation and size) first, with its inputs and iteration counts; then each
  // repetition visits every cell. A stretch of time in which the core runs slower (another
  // thread on its sibling, on the host, takes execution ports from some implementations more
  // than from others) then touches every cell a little instead of all rounds of a few cells,
  // which had made single cells look slow for one size and not the next.
  struct cell {
    std::size_t alg;
    operation op;
    std::string op_name;
    std::size_t n;
    inputs in;
    std::vector<const implementation*> timed;
    std::vector<std::size_t> iterations;
    std::vector<std::vector<double>> rates;
  };
  std::mt19937_64 rng(0x6f72646572);
  std::vector<cell> cells;
  for (std::size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; ++a) {
    const algorithm& alg = algorithms[a];
    std::vector<const implementation*> timed;
    for (const auto& b : implementations)
      if (b.algorithm == a) timed.push_back(&b);
    const std::vector<operation> ops =
        alg.is_aead ? std::vector{operation::encrypt, operation::decrypt}
                    : std::vector{operation::hash};
    for (const operation op : ops) {
      const std::string op_name = std::string(alg.name) + (op == operation::encrypt   ? "-encrypt"
                                                           : op == operation::decrypt ? "-decrypt"
                                                                                      : "");
      if (!selected(only, op_name, alg.name)) continue;
      for (std::size_t n : sizes) {
        cell c{a, op, op_name, n,
               inputs{random_bytes(rng, alg.key_size), random_bytes(rng, alg.nonce_size),
                      random_bytes(rng, ad_size), random_bytes(rng, n), {},
                      std::vector<u8>(n + 64)},
               timed, std::vector<std::size_t>(timed.size()),
               std::vector<std::vector<double>>(timed.size())};
        c.in.ct.resize(n + alg.tag_size);
        ull len = 0;
        if (alg.is_aead)
          timed[0]->encrypt(c.in.ct.data(), &len, c.in.msg.data(), n, c.in.ad.data(), ad_size,
                            nullptr, c.in.nonce.data(), c.in.key.data());
        // Iterations per timing, from a calibration run of each implementation.
        for (std::size_t b = 0; b < timed.size(); ++b) {
          std::size_t k = 1;
          while (static_cast<double>(n) * static_cast<double>(k) /
                     rate(*timed[b], op, n, alg.tag_size, c.in, k) <
                 min_seconds / 4)
            k *= 2;
          c.iterations[b] = k * 4;
        }
        cells.push_back(std::move(c));
      }
    }
  }
  for (int r = 0; r < repetitions; ++r) {
    for (cell& c : cells) {
      std::vector<std::size_t> order(c.timed.size());
      for (std::size_t b = 0; b < order.size(); ++b) order[b] = b;
      std::shuffle(order.begin(), order.end(), rng);
      for (std::size_t b : order)
        c.rates[b].push_back(rate(*c.timed[b], c.op, c.n, algorithms[c.alg].tag_size, c.in,
                                  c.iterations[b]));
    }
  }
  std::printf("{\"repetitions\": %d, \"min_ms\": %g, \"results\": [\n", repetitions,
              min_seconds * 1000);
  bool first = true;
  for (const cell& c : cells) {
    for (std::size_t b = 0; b < c.timed.size(); ++b) {
      std::printf("%s {\"operation\": \"%s\", \"bytes\": %zu, \"build\": \"%s\", "
                  "\"anchor\": %s, \"bytes_per_second\": [",
                  first ? "" : ",\n", c.op_name.c_str(), c.n, c.timed[b]->label,
                  c.timed[b]->is_anchor ? "true" : "false");
      first = false;
      for (std::size_t r = 0; r < c.rates[b].size(); ++r)
        std::printf("%s%.0f", r ? ", " : "", c.rates[b][r]);
      std::printf("]}");
    }
  }
  std::printf("\n]}\n");
  return 0;
}
