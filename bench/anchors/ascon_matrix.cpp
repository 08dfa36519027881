// SPDX-License-Identifier: MIT OR Apache-2.0
// The driver of ascon_matrix.py: lwc's Ascon core built by several compilers and flag sets,
// timed in one process against ascon-c's opt64 and avx512 code. The builds it links are listed
// in the generated matrix_sides.inc:
//   LWC_BUILD(symbol, "label")   lwc_<symbol>_encrypt/_decrypt/_hash256/_xof128
//   ANCHOR_BUILD(symbol, "label") ascon-c, anchor_<symbol>_{aead128,hash256,xof128}_<entry>
//
// Every build is first run against the first lwc build on random inputs (a build that gives
// different bytes is reported and the program fails). Then, for each operation and size, every
// repetition times all builds once in a fresh random order, each for about --min-ms of CPU
// time of this thread (robust to other processes taking the core away); a cell is the median
// over the repetitions. Output: one JSON object on stdout.
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

extern "C" {
#define LWC_BUILD(sym, label)                                                               \
  int lwc_##sym##_encrypt(u8*, ull*, const u8*, ull, const u8*, ull, const u8*, const u8*,  \
                          const u8*);                                                       \
  int lwc_##sym##_decrypt(u8*, ull*, u8*, const u8*, ull, const u8*, ull, const u8*,        \
                          const u8*);                                                       \
  int lwc_##sym##_hash256(u8*, const u8*, ull);                                             \
  int lwc_##sym##_xof128(u8*, const u8*, ull);
#define ANCHOR_BUILD(sym, label)                                                              \
  int anchor_##sym##_aead128_encrypt(u8*, ull*, const u8*, ull, const u8*, ull, const u8*,    \
                                     const u8*, const u8*);                                   \
  int anchor_##sym##_aead128_decrypt(u8*, ull*, u8*, const u8*, ull, const u8*, ull,          \
                                     const u8*, const u8*);                                   \
  int anchor_##sym##_hash256_hash(u8*, const u8*, ull);                                       \
  int anchor_##sym##_xof128_hash(u8*, const u8*, ull);
#include "matrix_sides.inc"
#undef LWC_BUILD
#undef ANCHOR_BUILD
}

namespace {

struct build {
  std::string_view label;
  bool is_anchor;
  encrypt_fn encrypt;
  decrypt_fn decrypt;
  hash_fn hash256, xof128;
};

const build builds[] = {
#define LWC_BUILD(sym, label_)                                                          \
  {label_, false, lwc_##sym##_encrypt, lwc_##sym##_decrypt, lwc_##sym##_hash256, \
   lwc_##sym##_xof128},
#define ANCHOR_BUILD(sym, label_)                                                      \
  {label_, true, anchor_##sym##_aead128_encrypt, anchor_##sym##_aead128_decrypt,       \
   anchor_##sym##_hash256_hash, anchor_##sym##_xof128_hash},
#include "matrix_sides.inc"
#undef LWC_BUILD
#undef ANCHOR_BUILD
};
constexpr std::size_t build_count = sizeof builds / sizeof builds[0];

constexpr std::size_t ad_size = 32, tag_size = 16, key_size = 16, nonce_size = 16;
constexpr std::size_t sizes[] = {64, 256, 1024, 4096, 16384, 65536};
const char* const operations[] = {"aead128-encrypt", "aead128-decrypt", "hash256", "xof128"};

std::vector<u8> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<u8> v(n);
  for (auto& b : v) b = static_cast<u8>(rng());
  return v;
}

// Empty when b computes what the reference build computes on random inputs of every length
// up to 200 bytes (AD 0..40) and at 1000 bytes.
std::string disagreement(const build& b, const build& ref) {
  std::mt19937_64 rng(0x6173636f6e6d6174);
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n <= 200; ++n) lens.push_back(n);
  lens.push_back(1000);
  for (std::size_t n : lens) {
    const auto key = random_bytes(rng, key_size), nonce = random_bytes(rng, nonce_size),
               ad = random_bytes(rng, n % 41), msg = random_bytes(rng, n);
    std::vector<u8> want(n + tag_size), got(n + tag_size), back(n + 1);
    ull len = 0;
    ref.encrypt(want.data(), &len, msg.data(), n, ad.data(), ad.size(), nullptr, nonce.data(),
                key.data());
    b.encrypt(got.data(), &len, msg.data(), n, ad.data(), ad.size(), nullptr, nonce.data(),
              key.data());
    const std::string at = " at " + std::to_string(n) + " bytes";
    if (len != n + tag_size || got != want) return "encrypt differs" + at;
    if (b.decrypt(back.data(), &len, nullptr, want.data(), want.size(), ad.data(), ad.size(),
                  nonce.data(), key.data()) != 0 ||
        len != n || std::memcmp(back.data(), msg.data(), n) != 0)
      return "decrypt fails" + at;
    want[n % want.size()] ^= 1;
    if (b.decrypt(back.data(), &len, nullptr, want.data(), want.size(), ad.data(), ad.size(),
                  nonce.data(), key.data()) == 0)
      return "decrypt accepts a forgery" + at;
    u8 h_want[64], h_got[64];
    ref.hash256(h_want, msg.data(), n);
    b.hash256(h_got, msg.data(), n);
    if (std::memcmp(h_want, h_got, 32) != 0) return "hash256 differs" + at;
    ref.xof128(h_want, msg.data(), n);
    b.xof128(h_got, msg.data(), n);
    if (std::memcmp(h_want, h_got, 64) != 0) return "xof128 differs" + at;
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

void run_once(const build& b, int op, std::size_t n, inputs& in) {
  ull len = 0;
  switch (op) {
    case 0:
      b.encrypt(in.out.data(), &len, in.msg.data(), n, in.ad.data(), ad_size, nullptr,
                in.nonce.data(), in.key.data());
      break;
    case 1:
      b.decrypt(in.out.data(), &len, nullptr, in.ct.data(), n + tag_size, in.ad.data(), ad_size,
                in.nonce.data(), in.key.data());
      break;
    case 2: b.hash256(in.out.data(), in.msg.data(), n); break;
    default: b.xof128(in.out.data(), in.msg.data(), n); break;
  }
  asm volatile("" : : "r"(in.out.data()) : "memory");
}

// Bytes per second of CPU time over `iterations` calls.
double rate(const build& b, int op, std::size_t n, inputs& in, std::size_t iterations) {
  const double t0 = thread_seconds();
  for (std::size_t i = 0; i < iterations; ++i) run_once(b, op, n, in);
  const double t = thread_seconds() - t0;
  return static_cast<double>(n) * static_cast<double>(iterations) / t;
}

}  // namespace

int main(int argc, char** argv) {
  int repetitions = 11;
  double min_seconds = 0.02;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--repetitions=")) repetitions = std::atoi(argv[i] + 14);
    else if (a.starts_with("--min-ms=")) min_seconds = std::atof(argv[i] + 9) / 1000;
    else if (a.starts_with("--only=")) only = argv[i] + 7;
    else {
      std::fprintf(stderr, "usage: %s [--repetitions=N] [--min-ms=MS] [--only=OPERATION]\n",
                   argv[0]);
      return 2;
    }
  }
  int failures = 0;
  for (std::size_t i = 1; i < build_count; ++i) {
    const std::string why = disagreement(builds[i], builds[0]);
    std::fprintf(stderr, "check: %-28s %s\n", std::string(builds[i].label).c_str(),
                 why.empty() ? "agrees" : why.c_str());
    failures += !why.empty();
  }
  if (failures) return 1;

  std::mt19937_64 rng(0x6f72646572);
  std::printf("{\"repetitions\": %d, \"min_ms\": %g, \"results\": [\n", repetitions,
              min_seconds * 1000);
  bool first = true;
  for (int op = 0; op < 4; ++op) {
    if (!only.empty() && only != operations[op]) continue;
    for (std::size_t n : sizes) {
      inputs in{random_bytes(rng, key_size), random_bytes(rng, nonce_size),
                random_bytes(rng, ad_size), random_bytes(rng, n), {}, std::vector<u8>(n + 64)};
      in.ct.resize(n + tag_size);
      ull len = 0;
      builds[0].encrypt(in.ct.data(), &len, in.msg.data(), n, in.ad.data(), ad_size, nullptr,
                        in.nonce.data(), in.key.data());
      // Iterations per timing, from a calibration run of each build.
      std::vector<std::size_t> iterations(build_count);
      for (std::size_t b = 0; b < build_count; ++b) {
        std::size_t k = 1;
        while (static_cast<double>(n) * static_cast<double>(k) / rate(builds[b], op, n, in, k) <
               min_seconds / 4)
          k *= 2;
        iterations[b] = k * 4;
      }
      std::vector<std::vector<double>> rates(build_count);
      std::vector<std::size_t> order(build_count);
      for (int r = 0; r < repetitions; ++r) {
        for (std::size_t b = 0; b < build_count; ++b) order[b] = b;
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t b : order) rates[b].push_back(rate(builds[b], op, n, in, iterations[b]));
      }
      for (std::size_t b = 0; b < build_count; ++b) {
        std::printf("%s {\"operation\": \"%s\", \"bytes\": %zu, \"build\": \"%s\", "
                    "\"anchor\": %s, \"bytes_per_second\": [",
                    first ? "" : ",\n", operations[op], n, std::string(builds[b].label).c_str(),
                    builds[b].is_anchor ? "true" : "false");
        first = false;
        for (std::size_t r = 0; r < rates[b].size(); ++r)
          std::printf("%s%.0f", r ? ", " : "", rates[b][r]);
        std::printf("]}");
      }
      std::fflush(stdout);
    }
  }
  std::printf("\n]}\n");
  return 0;
}
