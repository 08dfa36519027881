// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc against other implementations of the same algorithms ("anchors", listed in anchors.def),
// in one process: names <algorithm>/<operation>/<bytes>/<implementation>, where the
// implementation is "lwc" or an anchor's id, operation encrypt (32 bytes of AD), hash, xof or
// mac; bytes per second count the message bytes. compare.py runs it and prints the ratios.
//
// Before anything is timed, every anchor is run on random inputs next to lwc; one that gives
// different bytes is reported and not timed. This trusts neither side: lwc is checked against
// the KAT files by its tests, and an anchor that disagrees with it is wrong or implements
// another version of the algorithm. Anchors of algorithms lwc does not register are skipped.
//
// lwc is called through the registry's type-erased entry points, as in lwc_bench; the
// anchors through their SUPERCOP entry points (or rweather's descriptors): one indirect call
// per message on both sides.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/registry.hpp>

using u8 = unsigned char;
using ull = unsigned long long;

// The anchors' entry points, renamed anchor_<symbol>_<entry> by CMakeLists.txt. They are weak:
// an anchor that was not built (its source tree not given, or an instruction set this host
// lacks) is a null pointer.
namespace rweather {
// The leading members of aead_cipher_t and aead_hash_algorithm_t in rweather/lwc-finalists'
// src/combined/aead-metadata.h; only these are read.
struct cipher {
  const char* name;
  unsigned key_len, nonce_len, tag_len, flags;
  int (*encrypt)(u8* c, std::size_t* clen, const u8* m, std::size_t mlen, const u8* ad,
                 std::size_t adlen, const u8* npub, const u8* k);
  int (*decrypt)(u8* m, std::size_t* mlen, const u8* c, std::size_t clen, const u8* ad,
                 std::size_t adlen, const u8* npub, const u8* k);
};
struct hash {
  const char* name;
  std::size_t state_size;
  unsigned hash_len, flags;
  int (*hash)(u8* out, const u8* in, std::size_t inlen);
};
}  // namespace rweather

#define LWC_WEAK __attribute__((weak))
#define ANCHOR_DECLARE_aead(sym)                                                              \
  int anchor_##sym##_encrypt(u8*, ull*, const u8*, ull, const u8*, ull, const u8*, const u8*, \
                             const u8*) LWC_WEAK;                                             \
  int anchor_##sym##_decrypt(u8*, ull*, u8*, const u8*, ull, const u8*, ull, const u8*,       \
                             const u8*) LWC_WEAK;
#define ANCHOR_DECLARE_hash(sym) int anchor_##sym##_hash(u8*, const u8*, ull) LWC_WEAK;
#define ANCHOR_DECLARE_auth(sym) int anchor_##sym##_auth(u8*, const u8*, ull, const u8*) LWC_WEAK;
#define RWEATHER_TYPE_aead rweather::cipher
#define RWEATHER_TYPE_hash rweather::hash
extern "C" {
#define ANCHOR(sym, tree, path, api, name, id, out, isa) ANCHOR_DECLARE_##api(sym)
#define RWEATHER(sym, api, name) extern const RWEATHER_TYPE_##api anchor_rweather_##sym LWC_WEAK;
#include "anchors.def"
#undef ANCHOR
#undef RWEATHER
}

namespace {

using supercop_encrypt = int (*)(u8*, ull*, const u8*, ull, const u8*, ull, const u8*, const u8*,
                                 const u8*);
using supercop_decrypt = int (*)(u8*, ull*, u8*, const u8*, ull, const u8*, ull, const u8*,
                                 const u8*);
using supercop_hash = int (*)(u8*, const u8*, ull);
using supercop_auth = int (*)(u8*, const u8*, ull, const u8*);

enum class api { aead, hash, auth };

// One row of anchors.def; exactly one group of pointers is set when the anchor was built.
struct anchor {
  std::string_view lwc_name, id, tree, path, isa;
  api kind;
  std::size_t output_size;  // hash and auth: bytes of digest or tag
  supercop_encrypt encrypt = nullptr;
  supercop_decrypt decrypt = nullptr;
  supercop_hash hash = nullptr;
  supercop_auth auth = nullptr;
  const rweather::cipher* rw_cipher = nullptr;
  const rweather::hash* rw_hash = nullptr;

  bool built() const { return encrypt || hash || auth || rw_cipher || rw_hash; }
};

#define ANCHOR_POINTERS_aead(sym) .encrypt = anchor_##sym##_encrypt, .decrypt = anchor_##sym##_decrypt
#define ANCHOR_POINTERS_hash(sym) .hash = anchor_##sym##_hash
#define ANCHOR_POINTERS_auth(sym) .auth = anchor_##sym##_auth
#define RWEATHER_POINTER_aead(sym) .rw_cipher = &anchor_rweather_##sym
#define RWEATHER_POINTER_hash(sym) .rw_hash = &anchor_rweather_##sym
const anchor anchors[] = {
#define ANCHOR(sym, tree_, path_, api_, name, id_, out, isa_)                                \
  {.lwc_name = name, .id = id_, .tree = #tree_, .path = path_, .isa = isa_, .kind = api::api_, \
   .output_size = out, ANCHOR_POINTERS_##api_(sym)},
#define RWEATHER(sym, api_, name)                                                         \
  {.lwc_name = name, .id = "rweather", .tree = "RWEATHER", .path = "src/combined", .isa = "", \
   .kind = api::api_, .output_size = 0, RWEATHER_POINTER_##api_(sym)},
#include "anchors.def"
#undef ANCHOR
#undef RWEATHER
};

std::string_view operation_of(const lwc::algorithm& a) {
  switch (a.kind) {
    case lwc::algorithm_kind::aead: return "encrypt";
    case lwc::algorithm_kind::hash: return "hash";
    case lwc::algorithm_kind::xof:
    case lwc::algorithm_kind::cxof: return "xof";
    default: return "mac";
  }
}

// Digest or tag length an anchor produces (rweather's descriptors carry theirs).
std::size_t output_size(const anchor& an) {
  return an.rw_hash ? an.rw_hash->hash_len : an.output_size;
}

// The anchor's API must match the kind of the lwc algorithm it is listed under.
bool same_kind(const anchor& an, const lwc::algorithm& a) {
  switch (an.kind) {
    case api::aead: return a.is_aead();
    case api::hash: return !a.is_aead() && !a.is_keyed();
    case api::auth: return !a.is_aead() && a.is_keyed();
  }
  return false;
}

// ---- the same operation on either side ------------------------------------------------------

void lwc_encrypt(const lwc::algorithm& a, const u8* k, const u8* n, const u8* ad, std::size_t adlen,
                 const u8* m, std::size_t mlen, u8* c) {
  a.encrypt(k, nullptr, n, ad, adlen, m, mlen, c, c + mlen, a.tag_size);
}

void lwc_digest(const lwc::algorithm& a, const u8* key, const u8* m, std::size_t mlen, u8* out,
                std::size_t out_len) {
  a.digest(key, nullptr, 0, m, mlen, out, out_len);
}

// Returns the ciphertext length the anchor reports.
std::size_t anchor_encrypt(const anchor& an, const u8* k, const u8* n, const u8* ad,
                           std::size_t adlen, const u8* m, std::size_t mlen, u8* c) {
  if (an.rw_cipher) {
    std::size_t clen = 0;
    an.rw_cipher->encrypt(c, &clen, m, mlen, ad, adlen, n, k);
    return clen;
  }
  ull clen = 0;
  an.encrypt(c, &clen, m, mlen, ad, adlen, nullptr, n, k);
  return static_cast<std::size_t>(clen);
}

// True when the anchor accepts (c, clen) and writes mlen bytes.
bool anchor_decrypt(const anchor& an, const u8* k, const u8* n, const u8* ad, std::size_t adlen,
                    const u8* c, std::size_t clen, u8* m, std::size_t mlen) {
  if (an.rw_cipher) {
    std::size_t out = 0;
    return an.rw_cipher->decrypt(m, &out, c, clen, ad, adlen, n, k) == 0 && out == mlen;
  }
  ull out = 0;
  return an.decrypt(m, &out, nullptr, c, clen, ad, adlen, n, k) == 0 && out == mlen;
}

void anchor_digest(const anchor& an, const u8* key, const u8* m, std::size_t mlen, u8* out) {
  if (an.rw_hash) an.rw_hash->hash(out, m, mlen);
  else if (an.hash) an.hash(out, m, mlen);
  else an.auth(out, m, mlen, key);
}

// ---- correctness gate ------------------------------------------------------------------------

constexpr std::uint64_t gate_seed = 0x6c77632d616e6368;  // fixed: a failure can be replayed

std::vector<std::size_t> gate_lengths(const lwc::algorithm& a) {
  const std::size_t rate = a.block_size ? a.block_size : 1;
  std::vector<std::size_t> lens{0, 1, rate - 1, rate, rate + 1, 2 * rate + 3, 1000};
  std::sort(lens.begin(), lens.end());
  lens.erase(std::unique(lens.begin(), lens.end()), lens.end());
  return lens;
}

// Empty when the anchor agrees with lwc on every input tried; otherwise what differed.
std::string check(const anchor& an, const lwc::algorithm& a) {
  if (!same_kind(an, a)) return "its API does not match the kind of " + std::string(a.name);
  std::mt19937_64 rng(gate_seed);
  auto random_bytes = [&rng](std::size_t n) {
    std::vector<u8> v(n);
    for (auto& b : v) b = static_cast<u8>(rng());
    return v;
  };
  const auto lens = gate_lengths(a);
  if (an.kind == api::aead) {
    if (an.rw_cipher && (an.rw_cipher->key_len != a.key_size ||
                         an.rw_cipher->nonce_len != a.nonce_size ||
                         an.rw_cipher->tag_len != a.tag_size))
      return "key, nonce or tag size differs";
    for (std::size_t mlen : lens) {
      for (std::size_t adlen : lens) {
        const auto key = random_bytes(a.key_size), nonce = random_bytes(a.nonce_size),
                   ad = random_bytes(adlen), pt = random_bytes(mlen);
        std::vector<u8> want(mlen + a.tag_size), got(mlen + a.tag_size + 64), back(mlen + 64);
        lwc_encrypt(a, key.data(), nonce.data(), ad.data(), adlen, pt.data(), mlen, want.data());
        const std::size_t clen = anchor_encrypt(an, key.data(), nonce.data(), ad.data(), adlen,
                                                pt.data(), mlen, got.data());
        const std::string at =
            " (message " + std::to_string(mlen) + " B, AD " + std::to_string(adlen) + " B)";
        if (clen != want.size() || std::memcmp(got.data(), want.data(), clen) != 0)
          return "ciphertext+tag differ" + at;
        if (!anchor_decrypt(an, key.data(), nonce.data(), ad.data(), adlen, want.data(),
                            want.size(), back.data(), mlen) ||
            std::memcmp(back.data(), pt.data(), mlen) != 0)
          return "does not decrypt lwc's ciphertext" + at;
      }
    }
    return {};
  }
  const std::size_t out_len = output_size(an);
  if (out_len == 0 || (a.max_output_size && out_len > a.max_output_size))
    return "output length " + std::to_string(out_len) + " B is not one lwc produces";
  for (std::size_t mlen : lens) {
    const auto key = random_bytes(a.key_size), msg = random_bytes(mlen);
    std::vector<u8> want(out_len), got(out_len + 64);
    lwc_digest(a, key.data(), msg.data(), mlen, want.data(), out_len);
    anchor_digest(an, key.data(), msg.data(), mlen, got.data());
    if (std::memcmp(got.data(), want.data(), out_len) != 0)
      return "output differs (message " + std::to_string(mlen) + " B)";
  }
  return {};
}

// ---- timing ----------------------------------------------------------------------------------

constexpr std::size_t sizes[] = {64, 256, 1024, 4096, 16384, 65536};
constexpr std::size_t ad_size = 32;

// Fixed pseudo-random inputs, the same for every implementation of an algorithm.
std::vector<u8> filler(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<u8> v(n);
  for (auto& b : v) b = static_cast<u8>(rng());
  return v;
}

template <class Op>
void timed(benchmark::State& state, std::size_t n, Op op) {
  for (auto _ : state) {
    op();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void register_aead(const std::string& name, const lwc::algorithm* a, const anchor* an,
                   std::size_t n) {
  benchmark::RegisterBenchmark(name.c_str(), [a, an, n](benchmark::State& state) {
    const auto key = filler(a->key_size, 1), nonce = filler(a->nonce_size, 2),
               ad = filler(ad_size, 3), pt = filler(n, 4);
    std::vector<u8> ct(n + a->tag_size + 64);
    if (!an) {
      timed(state, n, [&] {
        lwc_encrypt(*a, key.data(), nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data());
      });
    } else if (an->rw_cipher) {
      const auto enc = an->rw_cipher->encrypt;
      timed(state, n, [&] {
        std::size_t clen;
        enc(ct.data(), &clen, pt.data(), n, ad.data(), ad.size(), nonce.data(), key.data());
      });
    } else {
      const auto enc = an->encrypt;
      timed(state, n, [&] {
        ull clen;
        enc(ct.data(), &clen, pt.data(), n, ad.data(), ad.size(), nullptr, nonce.data(),
            key.data());
      });
    }
  });
}

void register_digest(const std::string& name, const lwc::algorithm* a, const anchor* an,
                     std::size_t n, std::size_t out_len) {
  benchmark::RegisterBenchmark(name.c_str(), [a, an, n, out_len](benchmark::State& state) {
    const auto key = filler(a->key_size, 1), msg = filler(n, 5);
    std::vector<u8> out(out_len + 64);
    if (!an) {
      timed(state, n, [&] { lwc_digest(*a, key.data(), msg.data(), n, out.data(), out_len); });
    } else if (an->rw_hash) {
      const auto h = an->rw_hash->hash;
      timed(state, n, [&] { h(out.data(), msg.data(), n); });
    } else if (an->hash) {
      const auto h = an->hash;
      timed(state, n, [&] { h(out.data(), msg.data(), n); });
    } else {
      const auto mac = an->auth;
      timed(state, n, [&] { mac(out.data(), msg.data(), n, key.data()); });
    }
  });
}

// Runs the gate, prints its report on stderr and registers lwc next to every anchor that
// agrees. Returns the number of anchors that disagree.
int check_and_register() {
  std::fprintf(stderr, "anchor check: random inputs (seed %#llx), message and AD lengths 0, 1, "
                       "rate-1, rate, rate+1, 2*rate+3, 1000\n",
               static_cast<ull>(gate_seed));
  int disagreeing = 0;
  std::string not_registered, not_built, disagree_list;
  struct timed_pair {
    const lwc::algorithm* alg;
    std::vector<const anchor*> anchors;
  };
  std::vector<timed_pair> pairs;
  for (const anchor& an : anchors) {
    const lwc::algorithm* a = lwc::find_algorithm(an.lwc_name);
    const std::string who = std::string(an.lwc_name) + " " + std::string(an.id);
    if (!a) {
      // Listed once per algorithm: the finalists' anchors precede their lwc code.
      const std::string name(an.lwc_name);
      if (not_registered.find(" " + name + ",") == std::string::npos)
        not_registered += " " + name + ",";
      continue;
    }
    if (!an.built()) {
      not_built += (not_built.empty() ? "" : ", ") + who + " (LWC_ANCHOR_" + std::string(an.tree) +
                   "_DIR" + (an.isa.empty() ? "" : "; " + std::string(an.isa)) + ")";
      continue;
    }
    const std::string why = check(an, *a);
    std::fprintf(stderr, "  %-22s %-16s %-52s %s\n", std::string(an.lwc_name).c_str(),
                 std::string(an.id).c_str(), std::string(an.path).c_str(),
                 why.empty() ? "agrees" : ("DISAGREES, not timed: " + why).c_str());
    if (!why.empty()) {
      ++disagreeing;
      disagree_list += (disagree_list.empty() ? "" : ", ") + who;
      continue;
    }
    auto it = std::find_if(pairs.begin(), pairs.end(),
                           [a](const timed_pair& p) { return p.alg == a; });
    if (it == pairs.end()) it = pairs.insert(pairs.end(), {a, {}});
    // lwc is timed once per algorithm, with the output length of its first anchor.
    if (!a->is_aead() && !it->anchors.empty() &&
        output_size(*it->anchors.front()) != output_size(an)) {
      std::fprintf(stderr, "  %-22s %-16s not timed: output length differs from %s's\n",
                   std::string(an.lwc_name).c_str(), std::string(an.id).c_str(),
                   std::string(it->anchors.front()->id).c_str());
      continue;
    }
    it->anchors.push_back(&an);
  }
  if (!not_registered.empty()) {
    not_registered.pop_back();
    std::fprintf(stderr, "  skipped, not registered in lwc:%s\n", not_registered.c_str());
  }
  if (!not_built.empty())
    std::fprintf(stderr, "  not built (no source tree, or -march=native lacks the ISA): %s\n",
                 not_built.c_str());
  benchmark::AddCustomContext("anchors_disagreeing", disagree_list.empty() ? "none" : disagree_list);

  for (const auto& [a, list] : pairs) {
    const std::string base = std::string(a->name) + "/" + std::string(operation_of(*a)) + "/";
    for (std::size_t n : sizes) {
      const std::string prefix = base + std::to_string(n) + "/";
      if (a->is_aead()) {
        register_aead(prefix + "lwc", a, nullptr, n);
        for (const anchor* an : list) register_aead(prefix + std::string(an->id), a, an, n);
      } else {
        const std::size_t out_len = output_size(*list.front());
        register_digest(prefix + "lwc", a, nullptr, n, out_len);
        for (const anchor* an : list) register_digest(prefix + std::string(an->id), a, an, n, out_len);
      }
    }
  }
  return disagreeing;
}

}  // namespace

int main(int argc, char** argv) {
  // --anchor_check_only: run the correctness gate, exit 1 if an anchor disagrees.
  bool check_only = false;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--anchor_check_only") check_only = true;
    else argv[kept++] = argv[i];
  }
  argc = kept;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::pair<const char*, const char*> context[] = {
#include "anchor_context.inc"
  };
  for (const auto& [key, value] : context) benchmark::AddCustomContext(key, value);
  const int disagreeing = check_and_register();
  if (check_only) return disagreeing ? 1 : 0;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
