// SPDX-License-Identifier: MIT OR Apache-2.0
// What EVP through lwc.so costs over the core: Ascon-AEAD128 and Ascon-Hash256, one message per
// iteration, each size timed through the core's registry entry point (the call the provider
// makes) and through EVP with the calls a program makes per message. Names
// <algorithm>/<operation>-<core|evp>/<bytes>; the pairs are registered next to each other, and
// --benchmark_enable_random_interleaving with repetitions alternates them (docs/openssl.md).
//  - encrypt: 32 bytes of AD; EVP re-initialises the context with the next nonce (the key
//    stays), passes the AD, the message, final, and reads the tag. The provider encrypts a
//    first update of up to 4 KiB with the one-shot entry point (keeping a copy of the
//    plaintext in case more updates follow), a longer one with the core's incremental
//    encryptor, which encrypt-incremental times directly: at 64 KiB, EVP's own cost is
//    evp - incremental.
//  - decrypt: the same with the tag set first; the output is released in the message's update.
//  - hash: EVP_DigestInit_ex2, update, final on one context.
#include <benchmark/benchmark.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <lwc/ascon.hpp>
#include <lwc/registry.hpp>

namespace {

constexpr std::size_t sizes[] = {64, 1024, 65536};

OSSL_LIB_CTX* libctx() {
  static OSSL_LIB_CTX* ctx = [] {
    OSSL_LIB_CTX* c = OSSL_LIB_CTX_new();
    const char* dir = std::getenv("LWC_PROVIDER_DIR");
    OSSL_PROVIDER_set_default_search_path(c, dir != nullptr ? dir : LWC_PROVIDER_DIR);
    if (OSSL_PROVIDER_load(c, "lwc") == nullptr) {
      std::fprintf(stderr, "cannot load lwc.so\n");
      std::exit(1);
    }
    return c;
  }();
  return ctx;
}

// A fresh nonce per message, as the provider requires: a counter in the first bytes.
void next_nonce(std::vector<std::uint8_t>& nonce) {
  for (auto& b : nonce)
    if (++b != 0) break;
}

void encrypt_core(benchmark::State& state, std::size_t n) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  std::vector<std::uint8_t> key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16);
  for (auto _ : state) {
    next_nonce(nonce);
    a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
              tag.data(), tag.size());
    benchmark::DoNotOptimize(ct.data());
    benchmark::DoNotOptimize(tag.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void encrypt_incremental(benchmark::State& state, std::size_t n) {
  std::vector<std::uint8_t> key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16);
  for (auto _ : state) {
    next_nonce(nonce);
    lwc::ascon::aead128::encryptor e(key.data(), nonce.data(), nullptr);
    e.absorb_ad(ad.data(), ad.size());
    e.encrypt(pt.data(), n, ct.data());
    e.finalize(tag.data(), tag.size());
    benchmark::DoNotOptimize(ct.data());
    benchmark::DoNotOptimize(tag.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void encrypt_evp(benchmark::State& state, std::size_t n) {
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(libctx(), "ascon-aead128", "provider=lwc");
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  std::vector<std::uint8_t> key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16);
  if (EVP_EncryptInit_ex2(ctx, cipher, key.data(), nullptr, nullptr) != 1)
    state.SkipWithError("init failed");
  int outl = 0;
  for (auto _ : state) {
    next_nonce(nonce);
    const bool ok = EVP_EncryptInit_ex2(ctx, nullptr, nullptr, nonce.data(), nullptr) == 1 &&
                    EVP_EncryptUpdate(ctx, nullptr, &outl, ad.data(), static_cast<int>(ad.size())) == 1 &&
                    EVP_EncryptUpdate(ctx, ct.data(), &outl, pt.data(), static_cast<int>(n)) == 1 &&
                    EVP_EncryptFinal_ex(ctx, nullptr, &outl) == 1 &&
                    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag.data()) == 1;
    if (!ok) {
      state.SkipWithError("EVP call failed");
      break;
    }
    benchmark::DoNotOptimize(ct.data());
    benchmark::DoNotOptimize(tag.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
}

void decrypt_core(benchmark::State& state, std::size_t n) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  std::vector<std::uint8_t> key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16), out(n);
  a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
            tag.data(), tag.size());
  for (auto _ : state) {
    if (!a.decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(), n,
                   tag.data(), tag.size(), out.data()))
      state.SkipWithError("verification failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void decrypt_evp(benchmark::State& state, std::size_t n) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(libctx(), "ascon-aead128", "provider=lwc");
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  std::vector<std::uint8_t> key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16), out(n);
  a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
            tag.data(), tag.size());
  if (EVP_DecryptInit_ex2(ctx, cipher, key.data(), nonce.data(), nullptr) != 1)
    state.SkipWithError("init failed");
  int outl = 0;
  for (auto _ : state) {
    const bool ok = EVP_DecryptInit_ex2(ctx, nullptr, nullptr, nullptr, nullptr) == 1 &&
                    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag.data()) == 1 &&
                    EVP_DecryptUpdate(ctx, nullptr, &outl, ad.data(), static_cast<int>(ad.size())) == 1 &&
                    EVP_DecryptUpdate(ctx, out.data(), &outl, ct.data(), static_cast<int>(n)) == 1 &&
                    EVP_DecryptFinal_ex(ctx, nullptr, &outl) == 1;
    if (!ok) {
      state.SkipWithError("EVP call failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
}

void hash_core(benchmark::State& state, std::size_t n) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-hash256");
  std::vector<std::uint8_t> msg(n, 5), out(32);
  for (auto _ : state) {
    // The provider's path: incremental state, one absorb, one squeeze.
    alignas(8) std::uint8_t st[lwc::max_hash_state_size];
    a.init(st, nullptr, nullptr, 0);
    a.absorb(st, msg.data(), n);
    a.squeeze(st, out.data(), out.size());
    a.destroy(st);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

void hash_evp(benchmark::State& state, std::size_t n) {
  EVP_MD* md = EVP_MD_fetch(libctx(), "ascon-hash256", "provider=lwc");
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::vector<std::uint8_t> msg(n, 5), out(32);
  unsigned int len = 0;
  for (auto _ : state) {
    if (EVP_DigestInit_ex2(ctx, md, nullptr) != 1 || EVP_DigestUpdate(ctx, msg.data(), n) != 1 ||
        EVP_DigestFinal_ex(ctx, out.data(), &len) != 1) {
      state.SkipWithError("EVP call failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
}

const bool registered = [] {
  struct pair {
    const char* name;
    void (*core)(benchmark::State&, std::size_t);
    void (*evp)(benchmark::State&, std::size_t);
  };
  const pair pairs[] = {{"ascon-aead128/encrypt", encrypt_core, encrypt_evp},
                        {"ascon-aead128/decrypt", decrypt_core, decrypt_evp},
                        {"ascon-hash256/hash", hash_core, hash_evp}};
  for (const pair& p : pairs)
    for (std::size_t n : sizes) {
      const std::string bytes = "/" + std::to_string(n);
      benchmark::RegisterBenchmark((std::string(p.name) + "-core" + bytes).c_str(), p.core, n);
      benchmark::RegisterBenchmark((std::string(p.name) + "-evp" + bytes).c_str(), p.evp, n);
      if (p.core == encrypt_core)
        benchmark::RegisterBenchmark(("ascon-aead128/encrypt-incremental" + bytes).c_str(),
                                     encrypt_incremental, n);
    }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
