// SPDX-License-Identifier: MIT OR Apache-2.0
// Instructions per message through EVP and through the core, for a machine too loaded to time
// the difference: run it under callgrind and read each loop's inclusive count (docs/openssl.md).
// The loops make the same calls as lwc_provider_bench (Ascon-AEAD128 with 32 bytes of AD, a
// new nonce per message, the tag read after final; Ascon-Hash256), `messages` times each.
//   valgrind --tool=callgrind --callgrind-out-file=cg.out lwc_provider_instructions 64
//   callgrind_annotate --inclusive=yes cg.out | grep -E '(evp|core)_(encrypt|decrypt|hash)\('
// and divide by the message count (2000).
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <lwc/registry.hpp>

namespace {

constexpr int messages = 2000;
using bytes = std::vector<std::uint8_t>;

void next_nonce(bytes& nonce) {
  for (auto& b : nonce)
    if (++b != 0) break;
}
void check(bool ok) {
  if (!ok) {
    std::fprintf(stderr, "call failed\n");
    std::exit(1);
  }
}

// noinline: each loop is one function in callgrind's report.
[[gnu::noinline]] void evp_encrypt(EVP_CIPHER_CTX* ctx, std::size_t n) {
  bytes nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16);
  int outl = 0;
  for (int i = 0; i < messages; ++i) {
    next_nonce(nonce);
    check(EVP_EncryptInit_ex2(ctx, nullptr, nullptr, nonce.data(), nullptr) == 1 &&
          EVP_EncryptUpdate(ctx, nullptr, &outl, ad.data(), static_cast<int>(ad.size())) == 1 &&
          EVP_EncryptUpdate(ctx, ct.data(), &outl, pt.data(), static_cast<int>(n)) == 1 &&
          EVP_EncryptFinal_ex(ctx, nullptr, &outl) == 1 &&
          EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag.data()) == 1);
  }
}
[[gnu::noinline]] void core_encrypt(const lwc::algorithm& a, std::size_t n) {
  bytes key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16);
  for (int i = 0; i < messages; ++i) {
    next_nonce(nonce);
    a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
              tag.data(), tag.size());
  }
}
[[gnu::noinline]] void evp_decrypt(EVP_CIPHER_CTX* ctx, const lwc::algorithm& a, std::size_t n) {
  bytes key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16), out(n);
  a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
            tag.data(), tag.size());
  check(EVP_DecryptInit_ex2(ctx, nullptr, key.data(), nonce.data(), nullptr) == 1);
  int outl = 0;
  for (int i = 0; i < messages; ++i)
    check(EVP_DecryptInit_ex2(ctx, nullptr, nullptr, nullptr, nullptr) == 1 &&
          EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag.data()) == 1 &&
          EVP_DecryptUpdate(ctx, nullptr, &outl, ad.data(), static_cast<int>(ad.size())) == 1 &&
          EVP_DecryptUpdate(ctx, out.data(), &outl, ct.data(), static_cast<int>(n)) == 1 &&
          EVP_DecryptFinal_ex(ctx, nullptr, &outl) == 1);
}
[[gnu::noinline]] void core_decrypt(const lwc::algorithm& a, std::size_t n) {
  bytes key(16, 1), nonce(16, 2), ad(32, 3), pt(n, 4), ct(n), tag(16), out(n);
  a.encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), n, ct.data(),
            tag.data(), tag.size());
  for (int i = 0; i < messages; ++i)
    check(a.decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(), n,
                    tag.data(), tag.size(), out.data()));
}
[[gnu::noinline]] void evp_hash(EVP_MD_CTX* ctx, EVP_MD* md, std::size_t n) {
  bytes msg(n, 5), out(32);
  unsigned int len = 0;
  for (int i = 0; i < messages; ++i)
    check(EVP_DigestInit_ex2(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, msg.data(), n) == 1 &&
          EVP_DigestFinal_ex(ctx, out.data(), &len) == 1);
}
[[gnu::noinline]] void core_hash(const lwc::algorithm& a, std::size_t n) {
  bytes msg(n, 5), out(32);
  for (int i = 0; i < messages; ++i) {
    alignas(8) std::uint8_t st[lwc::max_hash_state_size];
    a.init(st, nullptr, nullptr, 0);
    a.absorb(st, msg.data(), n);
    a.squeeze(st, out.data(), out.size());
    a.destroy(st);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s BYTES (LWC_PROVIDER_DIR names the folder of lwc.so)\n", argv[0]);
    return 2;
  }
  const std::size_t n = std::strtoul(argv[1], nullptr, 10);
  OSSL_LIB_CTX* lib = OSSL_LIB_CTX_new();
  const char* dir = std::getenv("LWC_PROVIDER_DIR");
  OSSL_PROVIDER_set_default_search_path(lib, dir != nullptr ? dir : LWC_PROVIDER_DIR);
  check(OSSL_PROVIDER_load(lib, "lwc") != nullptr);
  const lwc::algorithm& aead = lwc::get_algorithm("ascon-aead128");
  const lwc::algorithm& hash = lwc::get_algorithm("ascon-hash256");
  EVP_CIPHER* cipher = EVP_CIPHER_fetch(lib, "ascon-aead128", "provider=lwc");
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  EVP_MD* md = EVP_MD_fetch(lib, "ascon-hash256", "provider=lwc");
  EVP_MD_CTX* md_ctx = EVP_MD_CTX_new();
  const bytes key(16, 1);
  check(cipher != nullptr && md != nullptr &&
        EVP_EncryptInit_ex2(ctx, cipher, key.data(), nullptr, nullptr) == 1);
  evp_encrypt(ctx, n);
  core_encrypt(aead, n);
  evp_decrypt(ctx, aead, n);
  core_decrypt(aead, n);
  evp_hash(md_ctx, md, n);
  core_hash(hash, n);
  EVP_MD_CTX_free(md_ctx);
  EVP_MD_free(md);
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(cipher);
  OSSL_LIB_CTX_free(lib);
  return 0;
}
