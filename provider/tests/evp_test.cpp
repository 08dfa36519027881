// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.so through EVP only: every registered algorithm against its KAT files and against the lwc
// core on random inputs, the update splits, failed verification (zeroed output), and the
// calls the provider must refuse (wrong sizes, a short tag without configuration, a reused
// nonce, a second message update, ciphertext before the tag).
#include <gtest/gtest.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <lwc/registry.hpp>

#include "support/kat_reader.hpp"

namespace fs = std::filesystem;
using lwc::test::byte_vector;
using lwc::test::hex;
using lwc::test::kat_record;

namespace {

OSSL_LIB_CTX* libctx = nullptr;

// One library context with lwc.so loaded from the build folder, for the whole program.
class provider_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    libctx = OSSL_LIB_CTX_new();
    ASSERT_NE(libctx, nullptr);
    ASSERT_EQ(OSSL_PROVIDER_set_default_search_path(libctx, LWC_PROVIDER_DIR), 1);
    provider_ = OSSL_PROVIDER_load(libctx, "lwc");
    ASSERT_NE(provider_, nullptr) << "cannot load lwc.so from " << LWC_PROVIDER_DIR;
  }
  void TearDown() override {
    OSSL_PROVIDER_unload(provider_);
    OSSL_LIB_CTX_free(libctx);
  }

 private:
  OSSL_PROVIDER* provider_ = nullptr;
};
const auto* const environment = ::testing::AddGlobalTestEnvironment(new provider_environment);

struct cipher_deleter {
  void operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
  void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
  void operator()(EVP_MD* m) const { EVP_MD_free(m); }
  void operator()(EVP_MD_CTX* m) const { EVP_MD_CTX_free(m); }
  void operator()(EVP_MAC* m) const { EVP_MAC_free(m); }
  void operator()(EVP_MAC_CTX* m) const { EVP_MAC_CTX_free(m); }
};
template <class T>
using owned = std::unique_ptr<T, cipher_deleter>;

owned<EVP_CIPHER> fetch_cipher(const lwc::algorithm& a) {
  return owned<EVP_CIPHER>(EVP_CIPHER_fetch(libctx, std::string(a.name).c_str(), "provider=lwc"));
}
owned<EVP_MD> fetch_md(const lwc::algorithm& a) {
  return owned<EVP_MD>(EVP_MD_fetch(libctx, std::string(a.name).c_str(), "provider=lwc"));
}
owned<EVP_MAC> fetch_mac(const lwc::algorithm& a) {
  return owned<EVP_MAC>(EVP_MAC_fetch(libctx, std::string(a.name).c_str(), "provider=lwc"));
}

// The error queue's last message, consumed (for failure messages and checks on the text).
std::string last_error() {
  unsigned long code = 0;
  const char* data = nullptr;
  int flags = 0;
  std::string text;
  while ((code = ERR_get_error_all(nullptr, nullptr, nullptr, &data, &flags)) != 0)
    if (data != nullptr && (flags & ERR_TXT_STRING) != 0) text = data;
    else if (const char* reason = ERR_reason_error_string(code)) text = reason;
  return text;
}

bool all_zero(const byte_vector& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint8_t b) { return b == 0; });
}

std::vector<fs::path> files_for(std::string_view name) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(LWC_VECTOR_DIR)) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    const std::string stem = e.path().stem().string();
    if (stem == name || stem.rfind(std::string(name) + ".", 0) == 0) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The ways a buffer of n bytes is cut into update calls: whole, every two-piece cut for short
// buffers (a few cuts for long ones), and three pieces.
std::vector<std::vector<std::size_t>> splits_of(std::size_t n) {
  std::vector<std::vector<std::size_t>> out{{n}};
  if (n <= 40) {
    for (std::size_t k = 1; k < n; ++k) out.push_back({k, n - k});
  } else {
    for (std::size_t k : {std::size_t{1}, n / 2, n - 1}) out.push_back({k, n - k});
  }
  if (n >= 3) out.push_back({n / 3, n / 3, n - 2 * (n / 3)});
  return out;
}

std::mt19937_64& rng() {
  static std::mt19937_64 r(0x6c77632d6f70656eULL);
  return r;
}
byte_vector random_bytes(std::size_t n) {
  byte_vector v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng()());
  return v;
}
std::size_t random_size(std::size_t max) { return static_cast<std::size_t>(rng()() % (max + 1)); }

std::vector<const lwc::algorithm*> registered(bool (*pick)(const lwc::algorithm&)) {
  std::vector<const lwc::algorithm*> v;
  for (const auto& a : lwc::algorithms())
    if (pick(a)) v.push_back(&a);
  return v;
}
bool is_aead(const lwc::algorithm& a) { return a.is_aead(); }
bool is_digest(const lwc::algorithm& a) {
  return a.kind == lwc::algorithm_kind::hash || a.kind == lwc::algorithm_kind::xof ||
         a.kind == lwc::algorithm_kind::cxof;
}
bool is_mac(const lwc::algorithm& a) {
  return a.kind == lwc::algorithm_kind::mac || a.kind == lwc::algorithm_kind::prf;
}

// ---- the provider's tables ----------------------------------------------------------------

template <class Method, class GetProvider, class GetName>
void collect(std::set<std::string>& names, Method* m, GetProvider provider_of, GetName name_of) {
  if (std::string(OSSL_PROVIDER_get0_name(provider_of(m))) == "lwc") names.insert(name_of(m));
}

TEST(ProviderTables, ListEveryRegisteredAlgorithmUnderItsOperation) {
  std::set<std::string> ciphers, digests, macs;
  EVP_CIPHER_do_all_provided(libctx, [](EVP_CIPHER* c, void* arg) {
    collect(*static_cast<std::set<std::string>*>(arg), c, EVP_CIPHER_get0_provider, EVP_CIPHER_get0_name);
  }, &ciphers);
  EVP_MD_do_all_provided(libctx, [](EVP_MD* m, void* arg) {
    collect(*static_cast<std::set<std::string>*>(arg), m, EVP_MD_get0_provider, EVP_MD_get0_name);
  }, &digests);
  EVP_MAC_do_all_provided(libctx, [](EVP_MAC* m, void* arg) {
    collect(*static_cast<std::set<std::string>*>(arg), m, EVP_MAC_get0_provider, EVP_MAC_get0_name);
  }, &macs);
  std::set<std::string> want_ciphers, want_digests, want_macs;
  for (const auto& a : lwc::algorithms())
    (is_aead(a) ? want_ciphers : is_digest(a) ? want_digests : want_macs).insert(std::string(a.name));
  EXPECT_EQ(ciphers, want_ciphers);
  EXPECT_EQ(digests, want_digests);
  EXPECT_EQ(macs, want_macs);
}

TEST(ProviderTables, OpenSslFourNamesFetchTheSameAlgorithms) {
  owned<EVP_CIPHER> c(EVP_CIPHER_fetch(libctx, "ASCON-AEAD128", nullptr));
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c.get())), "lwc");
  owned<EVP_MD> m(EVP_MD_fetch(libctx, "ASCON-HASH256", nullptr));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(EVP_MD_get_size(m.get()), 32);
}

TEST(ProviderTables, ParamsDescribeTheProviderAndClaimNoFips) {
  OSSL_PROVIDER* p = OSSL_PROVIDER_load(libctx, "lwc");  // a second reference, released below
  ASSERT_NE(p, nullptr);
  const char *name = nullptr, *version = nullptr, *buildinfo = nullptr, *names = nullptr;
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, const_cast<char**>(&name), 0),
      OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_VERSION, const_cast<char**>(&version), 0),
      OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, const_cast<char**>(&buildinfo), 0),
      OSSL_PARAM_construct_utf8_ptr("algorithms", const_cast<char**>(&names), 0),
      OSSL_PARAM_construct_end()};
  ASSERT_EQ(OSSL_PROVIDER_get_params(p, params), 1);
  EXPECT_NE(std::string(name).find("lwc"), std::string::npos);
  EXPECT_FALSE(std::string(version).empty());
  EXPECT_NE(std::string(buildinfo).find("not FIPS"), std::string::npos);
  std::string listed(" ");
  listed.append(names).append(" ");
  for (const auto& a : lwc::algorithms()) {
    // Built with append rather than "literal" + string: GCC 12 at -O3 reports a false
    // -Wrestrict inside that operator+.
    std::string word(" ");
    word.append(a.name).append(" ");
    EXPECT_NE(listed.find(word), std::string::npos) << a.name;
  }
  OSSL_PROVIDER_unload(p);
}

// OpenSSL's rule: a fetched algorithm may be shared between threads, a context may not. Threads
// sharing one fetched cipher and digest, each with contexts of its own, get the core's results.
TEST(ProviderThreads, SharedAlgorithmsOwnContexts) {
  const lwc::algorithm& aead = lwc::get_algorithm("ascon-aead128");
  const lwc::algorithm& hash = lwc::get_algorithm("ascon-hash256");
  auto cipher = fetch_cipher(aead);
  auto md = fetch_md(hash);
  ASSERT_TRUE(cipher && md);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 r(t);
      for (int i = 0; i < 100; ++i) {
        byte_vector key(16), nonce(16), msg(r() % 300);
        for (auto* v : {&key, &nonce, &msg})
          for (auto& b : *v) b = static_cast<std::uint8_t>(r());
        byte_vector want_ct(msg.size()), want_tag(16), want_md(32), ct(msg.size()), tag(16), md_out(32);
        lwc::aead_encrypt(aead, key, nonce, {}, msg, want_ct, want_tag);
        lwc::digest(hash, msg, want_md);
        owned<EVP_CIPHER_CTX> c(EVP_CIPHER_CTX_new());
        owned<EVP_MD_CTX> m(EVP_MD_CTX_new());
        int outl = 0;
        unsigned int len = 0;
        const bool ok =
            EVP_EncryptInit_ex2(c.get(), cipher.get(), key.data(), nonce.data(), nullptr) == 1 &&
            (msg.empty() || EVP_EncryptUpdate(c.get(), ct.data(), &outl, msg.data(), static_cast<int>(msg.size())) == 1) &&
            EVP_EncryptFinal_ex(c.get(), nullptr, &outl) == 1 &&
            EVP_CIPHER_CTX_ctrl(c.get(), EVP_CTRL_AEAD_GET_TAG, 16, tag.data()) == 1 &&
            EVP_DigestInit_ex2(m.get(), md.get(), nullptr) == 1 &&
            EVP_DigestUpdate(m.get(), msg.data(), msg.size()) == 1 &&
            EVP_DigestFinal_ex(m.get(), md_out.data(), &len) == 1;
        if (!ok || ct != want_ct || tag != want_tag || md_out != want_md) ++mismatches;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

// ---- AEADs ----------------------------------------------------------------------------------

struct aead_case {
  byte_vector key, nonce, second_key, ad, msg;
  std::size_t tag_len = 0;  // 0: the full tag, no configuration
};

// Parameters for an init: a configured tag length and the nonce-masking key, when given.
struct init_params {
  std::size_t tag_len;
  OSSL_PARAM list[3];
  init_params(const aead_case& c) : tag_len(c.tag_len) {
    std::size_t i = 0;
    if (c.tag_len != 0) list[i++] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &tag_len);
    if (!c.second_key.empty())
      list[i++] = OSSL_PARAM_construct_octet_string(
          "nonce-masking-key", const_cast<std::uint8_t*>(c.second_key.data()), c.second_key.size());
    list[i] = OSSL_PARAM_construct_end();
  }
};

bool update_ad(EVP_CIPHER_CTX* ctx, const byte_vector& ad, const std::vector<std::size_t>& cuts) {
  std::size_t at = 0;
  for (std::size_t n : cuts) {
    int outl = -1;
    if (n != 0 && EVP_CipherUpdate(ctx, nullptr, &outl, ad.data() + at, static_cast<int>(n)) != 1)
      return false;
    at += n;
  }
  return true;
}

// Whether the provider takes this algorithm's plaintext in several updates.
bool encrypts_incrementally(const lwc::algorithm& a) {
  auto cipher = fetch_cipher(a);
  int incremental = -1;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_int("incremental-encrypt", &incremental), OSSL_PARAM_construct_end()};
  EXPECT_EQ(EVP_CIPHER_get_params(cipher.get(), params), 1);
  EXPECT_TRUE(incremental == 0 || incremental == 1);
  return incremental == 1;
}

// Encrypts through EVP with the associated data and the message cut as given (the message
// whole when no cuts are given); false on any failed call.
bool evp_encrypt(const lwc::algorithm& a, const aead_case& c, const std::vector<std::size_t>& ad_cuts,
                 byte_vector& ct, byte_vector& tag, std::vector<std::size_t> msg_cuts = {}) {
  auto cipher = fetch_cipher(a);
  owned<EVP_CIPHER_CTX> ctx(EVP_CIPHER_CTX_new());
  init_params p(c);
  if (!cipher || !ctx ||
      EVP_EncryptInit_ex2(ctx.get(), cipher.get(), c.key.data(), c.nonce.data(), p.list) != 1)
    return false;
  if (!update_ad(ctx.get(), c.ad, ad_cuts)) return false;
  ct.assign(c.msg.size(), 0);
  if (msg_cuts.empty()) msg_cuts = {c.msg.size()};
  std::size_t at = 0;
  for (std::size_t n : msg_cuts) {
    int outl = -1;
    if (n != 0 && (EVP_EncryptUpdate(ctx.get(), ct.data() + at, &outl, c.msg.data() + at,
                                     static_cast<int>(n)) != 1 ||
                   static_cast<std::size_t>(outl) != n))
      return false;
    at += n;
  }
  int finl = -1;
  if (EVP_EncryptFinal_ex(ctx.get(), nullptr, &finl) != 1 || finl != 0) return false;
  tag.assign(c.tag_len != 0 ? c.tag_len : a.tag_size, 0);
  return EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size()),
                             tag.data()) == 1;
}

// Decrypts; `pt` comes back as the output buffer after the calls, whatever they returned.
bool evp_decrypt(const lwc::algorithm& a, const aead_case& c, const byte_vector& tag,
                 const std::vector<std::size_t>& ad_cuts, byte_vector& pt) {
  auto cipher = fetch_cipher(a);
  owned<EVP_CIPHER_CTX> ctx(EVP_CIPHER_CTX_new());
  init_params p(c);
  pt.assign(c.msg.size(), 0xAA);
  if (!cipher || !ctx ||
      EVP_DecryptInit_ex2(ctx.get(), cipher.get(), c.key.data(), c.nonce.data(), p.list) != 1)
    return false;
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()),
                          const_cast<std::uint8_t*>(tag.data())) != 1)
    return false;
  if (!update_ad(ctx.get(), c.ad, ad_cuts)) return false;
  int outl = 0, finl = -1;
  if (!c.msg.empty() && EVP_DecryptUpdate(ctx.get(), pt.data(), &outl, c.msg.data(),
                                          static_cast<int>(c.msg.size())) != 1)
    return false;
  if (static_cast<std::size_t>(outl) != c.msg.size()) return false;
  return EVP_DecryptFinal_ex(ctx.get(), nullptr, &finl) == 1 && finl == 0;
}

class Aead : public ::testing::TestWithParam<const lwc::algorithm*> {};

void check_kat_record(const lwc::algorithm& a, const kat_record& r, bool incremental) {
  aead_case c;
  c.key = r.bytes("Key");
  c.nonce = r.bytes("Nonce");
  c.ad = r.bytes("AD");
  if (r.has("SecondKey")) c.second_key = r.bytes("SecondKey");
  byte_vector ct = r.bytes("CT"), tag;
  if (r.has("Tag")) {
    tag = r.bytes("Tag");
  } else {
    tag.assign(ct.end() - static_cast<long>(a.tag_size), ct.end());
    ct.resize(ct.size() - a.tag_size);
  }
  if (tag.size() != a.tag_size) c.tag_len = tag.size();  // the explicit opt-in
  const bool must_fail = r.has("TestPassed") && r.text("TestPassed") == "False";
  const bool decrypt_only = (r.has("Direction") && r.text("Direction") == "decrypt") || r.has("TestPassed");
  const auto ad_splits = splits_of(c.ad.size());

  if (!decrypt_only) {
    c.msg = r.bytes("PT");
    for (const auto& cuts : ad_splits) {
      byte_vector got_ct, got_tag;
      ASSERT_TRUE(evp_encrypt(a, c, cuts, got_ct, got_tag)) << last_error() << ", line " << r.line;
      ASSERT_EQ(hex(got_ct), hex(ct)) << "ciphertext, line " << r.line;
      ASSERT_EQ(hex(got_tag), hex(tag)) << "tag, line " << r.line;
    }
    if (incremental) {
      for (const auto& cuts : splits_of(c.msg.size())) {
        byte_vector got_ct, got_tag;
        ASSERT_TRUE(evp_encrypt(a, c, {c.ad.size()}, got_ct, got_tag, cuts)) << last_error() << ", line " << r.line;
        ASSERT_EQ(hex(got_ct), hex(ct)) << "ciphertext in pieces, line " << r.line;
        ASSERT_EQ(hex(got_tag), hex(tag)) << "tag in pieces, line " << r.line;
      }
    }
  }
  c.msg = ct;
  for (const auto& cuts : ad_splits) {
    byte_vector pt;
    const bool ok = evp_decrypt(a, c, tag, cuts, pt);
    if (must_fail) {
      ASSERT_FALSE(ok) << "forged record accepted, line " << r.line;
      ASSERT_TRUE(all_zero(pt)) << "output not zeroed, line " << r.line;
      last_error();
    } else {
      ASSERT_TRUE(ok) << last_error() << ", line " << r.line;
      ASSERT_EQ(hex(pt), r.text("PT")) << "line " << r.line;
    }
  }
  if (must_fail) return;
  // Tampering with the tag, the ciphertext or the associated data: failure and zeros.
  byte_vector bad_tag = tag;
  bad_tag[rng()() % bad_tag.size()] ^= static_cast<std::uint8_t>(1u << (rng()() % 8));
  byte_vector pt;
  ASSERT_FALSE(evp_decrypt(a, c, bad_tag, {c.ad.size()}, pt)) << "line " << r.line;
  ASSERT_TRUE(all_zero(pt)) << "line " << r.line;
  last_error();
  if (!ct.empty()) {
    aead_case bad = c;
    bad.msg[rng()() % bad.msg.size()] ^= 0x80;
    ASSERT_FALSE(evp_decrypt(a, bad, tag, {bad.ad.size()}, pt)) << "line " << r.line;
    ASSERT_TRUE(all_zero(pt)) << "line " << r.line;
    last_error();
  }
}

TEST_P(Aead, EveryKatRecordWithEverySplitOfTheAssociatedData) {
  const lwc::algorithm& a = *GetParam();
  const auto files = files_for(a.name);
  ASSERT_FALSE(files.empty());
  const bool incremental = encrypts_incrementally(a);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    for (const auto& r : lwc::test::read_kat_file(f.string())) {
      check_kat_record(a, r, incremental);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(Aead, RandomInputsEqualTheCore) {
  const lwc::algorithm& a = *GetParam();
  const bool incremental = encrypts_incrementally(a);
  for (int i = 0; i < 40; ++i) {
    aead_case c;
    c.key = random_bytes(a.key_size);
    c.nonce = random_bytes(a.nonce_size);
    c.ad = random_bytes(random_size(i < 20 ? 70 : 700));
    c.msg = random_bytes(random_size(i < 20 ? 70 : 3000));
    if (a.min_tag_size < a.tag_size && i % 3 == 0)
      c.tag_len = a.min_tag_size + random_size(a.tag_size - a.min_tag_size);
    if (a.second_key_size != 0 && i % 4 == 1) c.second_key = random_bytes(a.second_key_size);
    const std::size_t tag_len = c.tag_len != 0 ? c.tag_len : a.tag_size;
    byte_vector want_ct(c.msg.size()), want_tag(tag_len);
    lwc::aead_encrypt(a, c.key, c.nonce, c.ad, c.msg, want_ct, want_tag, c.second_key);
    const auto cuts = splits_of(c.ad.size());
    const auto msg_cuts = splits_of(c.msg.size());
    byte_vector ct, tag;
    ASSERT_TRUE(evp_encrypt(a, c, cuts[rng()() % cuts.size()], ct, tag,
                            incremental ? msg_cuts[rng()() % msg_cuts.size()] : std::vector<std::size_t>{}))
        << last_error();
    ASSERT_EQ(hex(ct), hex(want_ct)) << "message of " << c.msg.size() << " bytes";
    ASSERT_EQ(hex(tag), hex(want_tag));
    aead_case back = c;
    back.msg = ct;
    byte_vector pt;
    ASSERT_TRUE(evp_decrypt(a, back, tag, cuts[rng()() % cuts.size()], pt)) << last_error();
    ASSERT_EQ(pt, c.msg);
  }
}

// Everything but the message: key, nonce and (for decryption) the tag in place.
struct aead_context {
  owned<EVP_CIPHER> cipher;
  owned<EVP_CIPHER_CTX> ctx{EVP_CIPHER_CTX_new()};
  byte_vector key, nonce;
  explicit aead_context(const lwc::algorithm& a)
      : cipher(fetch_cipher(a)), key(random_bytes(a.key_size)), nonce(random_bytes(a.nonce_size)) {}
};

TEST_P(Aead, WrongKeyNonceAndTagLengthsAreRefused) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  ASSERT_TRUE(t.cipher);
  EXPECT_EQ(EVP_CIPHER_get_key_length(t.cipher.get()), static_cast<int>(a.key_size));
  EXPECT_EQ(EVP_CIPHER_get_iv_length(t.cipher.get()), static_cast<int>(a.nonce_size));
  EXPECT_NE(EVP_CIPHER_get_flags(t.cipher.get()) & EVP_CIPH_FLAG_AEAD_CIPHER, 0u);
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), t.cipher.get(), nullptr, nullptr, nullptr), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_set_key_length(t.ctx.get(), static_cast<int>(a.key_size + 1)), 0);
  EXPECT_NE(last_error().find("key"), std::string::npos);
  EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(a.nonce_size - 1), nullptr), 0);
  EXPECT_NE(last_error().find("nonce"), std::string::npos);
  // The tag length: only within the algorithm's range, and a given tag only of that length.
  std::size_t too_short = a.min_tag_size - 1;
  OSSL_PARAM taglen[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &too_short),
                         OSSL_PARAM_construct_end()};
  EXPECT_EQ(EVP_CIPHER_CTX_set_params(t.ctx.get(), taglen), 0);
  last_error();
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, t.key.data(), t.nonce.data(), nullptr), 1);
  byte_vector short_tag(a.tag_size - 1, 0);
  EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(short_tag.size()),
                                short_tag.data()), 0)
      << "a tag shorter than the configured length must not set the length";
  EXPECT_NE(last_error().find("configured"), std::string::npos);
  byte_vector long_tag(a.tag_size + 1, 0);
  EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(long_tag.size()),
                                long_tag.data()), 0);
  last_error();
}

TEST_P(Aead, DecryptionNeedsTheTagBeforeTheCiphertextAndReleasesNothingWithoutIt) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const byte_vector msg = random_bytes(100);
  byte_vector ct(msg.size()), tag(a.tag_size);
  lwc::aead_encrypt(a, t.key, t.nonce, {}, msg, ct, tag);
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  byte_vector out(ct.size(), 0xAA);
  int outl = -1;
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), static_cast<int>(ct.size())), 0);
  EXPECT_NE(last_error().find("before the ciphertext"), std::string::npos);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0xAA; }));
  // With the tag first, the same context decrypts.
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, nullptr, nullptr, nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  ASSERT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), static_cast<int>(ct.size())), 1);
  EXPECT_EQ(out, msg);
  int finl = -1;
  EXPECT_EQ(EVP_DecryptFinal_ex(t.ctx.get(), nullptr, &finl), 1);
}

TEST_P(Aead, FailedVerificationZeroesTheOutputAndFinalFails) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const byte_vector msg = random_bytes(77);
  byte_vector ct(msg.size()), tag(a.tag_size);
  lwc::aead_encrypt(a, t.key, t.nonce, {}, msg, ct, tag);
  tag[0] ^= 1;
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  byte_vector out(ct.size(), 0xAA);
  int outl = -1, finl = -1;
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), static_cast<int>(ct.size())), 0);
  EXPECT_TRUE(all_zero(out));
  EXPECT_NE(last_error().find("verification failed"), std::string::npos);
  EXPECT_EQ(EVP_DecryptFinal_ex(t.ctx.get(), nullptr, &finl), 0);
  last_error();
  // In place, too: the ciphertext buffer becomes zeros.
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, nullptr, nullptr, nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  byte_vector inplace = ct;
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), inplace.data(), &outl, inplace.data(), static_cast<int>(inplace.size())), 0);
  EXPECT_TRUE(all_zero(inplace));
  last_error();
}

TEST_P(Aead, DecryptionTakesTheWholeMessageInOneUpdate) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const byte_vector msg = random_bytes(64);
  byte_vector ct(msg.size()), tag(a.tag_size), out(msg.size());
  lwc::aead_encrypt(a, t.key, t.nonce, {}, msg, ct, tag);
  int outl = -1;
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), 32), 0) << "half a message";
  EXPECT_TRUE(all_zero(out)) << "no plaintext of a message whose tag did not verify";
  last_error();
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, nullptr, nullptr, nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  ASSERT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), static_cast<int>(ct.size())), 1);
  EXPECT_EQ(out, msg);
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), 1), 0);
  EXPECT_NE(last_error().find("one update"), std::string::npos);
  EXPECT_EQ(EVP_DecryptUpdate(t.ctx.get(), nullptr, &outl, msg.data(), 4), 0);
  EXPECT_NE(last_error().find("associated data after the message"), std::string::npos);
}

TEST_P(Aead, EncryptionTakesTheMessageInPiecesWhereTheCoreStreamsElseInOneUpdate) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const bool incremental = encrypts_incrementally(a);
  // Two-pass modes (Romulus-M), and those whose cores have no incremental encryptor yet
  // (docs/openssl.md says which and why), take the message in one update.
  const bool single_update = a.name.starts_with("romulus-") || a.name.starts_with("elephant-");
  EXPECT_EQ(incremental, !single_update) << "docs/openssl.md lists the single-update AEADs";
  const byte_vector msg = random_bytes(64);
  byte_vector out(msg.size());
  int outl = -1;
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), 32), 1);
  {
    // A copy taken after the first update may not continue the message (nor end it, where
    // more could follow): it would encrypt a second message under the nonce.
    owned<EVP_CIPHER_CTX> copy(EVP_CIPHER_CTX_new());
    ASSERT_EQ(EVP_CIPHER_CTX_copy(copy.get(), t.ctx.get()), 1);
    byte_vector other(32);
    EXPECT_EQ(EVP_EncryptUpdate(copy.get(), other.data(), &outl, msg.data(), 32), 0);
    last_error();
    if (incremental) {
      int finl = -1;
      EXPECT_EQ(EVP_EncryptFinal_ex(copy.get(), nullptr, &finl), 0);
      EXPECT_NE(last_error().find("copy"), std::string::npos);
    }
  }
  if (incremental) {
    ASSERT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data() + 32, &outl, msg.data() + 32, 32), 1);
    ASSERT_EQ(outl, 32);
    // Mid-message: no more associated data, and a copy may not continue the message.
    EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), nullptr, &outl, msg.data(), 4), 0);
    EXPECT_NE(last_error().find("associated data after the message"), std::string::npos);
    owned<EVP_CIPHER_CTX> copy(EVP_CIPHER_CTX_new());
    ASSERT_EQ(EVP_CIPHER_CTX_copy(copy.get(), t.ctx.get()), 1);
    EXPECT_EQ(EVP_EncryptUpdate(copy.get(), out.data(), &outl, msg.data(), 1), 0);
    EXPECT_NE(last_error().find("copy"), std::string::npos);
    int finl = -1;
    EXPECT_EQ(EVP_EncryptFinal_ex(copy.get(), nullptr, &finl), 0);
    last_error();
    ASSERT_EQ(EVP_EncryptFinal_ex(t.ctx.get(), nullptr, &finl), 1);
    byte_vector tag(a.tag_size), want_ct(msg.size()), want_tag(a.tag_size);
    ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
    lwc::aead_encrypt(a, t.key, t.nonce, {}, msg, want_ct, want_tag);
    EXPECT_EQ(out, want_ct);
    EXPECT_EQ(tag, want_tag);
  } else {
    EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data() + 32, &outl, msg.data() + 32, 32), 0);
    EXPECT_NE(last_error().find("one update"), std::string::npos);
    EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), nullptr, &outl, msg.data(), 4), 0);
    EXPECT_NE(last_error().find("associated data after the message"), std::string::npos);
  }
  // Partly overlapping buffers are refused; exactly in place is fine.
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, random_bytes(a.nonce_size).data(), nullptr), 1);
  byte_vector buf = msg;
  buf.resize(msg.size() + 1);
  EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), buf.data() + 1, &outl, buf.data(), static_cast<int>(msg.size())), 0);
  EXPECT_NE(last_error().find("overlap"), std::string::npos);
  EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), buf.data(), &outl, buf.data(), static_cast<int>(msg.size())), 1);
}

// Encryption in pieces through EVP equals the core's one-shot call for every way of cutting
// short messages in two and byte by byte (the provider encrypts a short first update in one
// shot and replays it into the encryptor when more comes), and for long first updates that
// go to the encryptor directly.
TEST_P(Aead, EveryCutOfTheMessageEqualsTheCore) {
  const lwc::algorithm& a = *GetParam();
  if (!encrypts_incrementally(a)) GTEST_SKIP() << "one update only";
  auto expect_equal = [&](const aead_case& c, const std::vector<std::size_t>& cuts) {
    byte_vector want_ct(c.msg.size()), want_tag(a.tag_size), ct, tag;
    lwc::aead_encrypt(a, c.key, c.nonce, c.ad, c.msg, want_ct, want_tag);
    ASSERT_TRUE(evp_encrypt(a, c, {c.ad.size()}, ct, tag, cuts)) << last_error();
    ASSERT_EQ(hex(ct), hex(want_ct)) << c.msg.size() << " bytes, first piece " << cuts[0];
    ASSERT_EQ(hex(tag), hex(want_tag)) << c.msg.size() << " bytes, first piece " << cuts[0];
  };
  aead_case c;
  c.key = random_bytes(a.key_size);
  c.nonce = random_bytes(a.nonce_size);
  for (std::size_t n = 0; n <= 2 * a.block_size + 2; ++n) {
    c.ad = random_bytes(n % (a.block_size + 3));
    c.msg = random_bytes(n);
    for (std::size_t k = 0; k <= n; ++k) {
      expect_equal(c, {k, n - k});
      if (HasFatalFailure()) return;
    }
    expect_equal(c, std::vector<std::size_t>(n, 1));
    if (HasFatalFailure()) return;
  }
  constexpr std::size_t replay_limit = 4096;  // the provider's, in cipher.cpp
  for (std::size_t n : {replay_limit, replay_limit + 1, 3 * replay_limit + 5}) {
    c.msg = random_bytes(n);
    for (std::size_t k : {std::size_t{1}, replay_limit - 1, replay_limit, replay_limit + 1, n}) {
      if (k > n) continue;
      expect_equal(c, {k, n - k});
      if (HasFatalFailure()) return;
    }
    expect_equal(c, {n / 3, n / 3, n - 2 * (n / 3)});
    if (HasFatalFailure()) return;
  }
}

TEST_P(Aead, ANonceEncryptsOneMessage) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const byte_vector msg = random_bytes(20);
  byte_vector out(msg.size());
  int outl = -1, finl = -1;
  // No nonce yet: refused.
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), nullptr, nullptr), 1);
  EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 0);
  EXPECT_NE(last_error().find("nonce"), std::string::npos);
  // The nonce set by a second init (the usual two-step form) encrypts once.
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 1);
  ASSERT_EQ(EVP_EncryptFinal_ex(t.ctx.get(), nullptr, &finl), 1);
  EXPECT_EQ(EVP_EncryptFinal_ex(t.ctx.get(), nullptr, &finl), 0);
  last_error();
  // Re-init without a nonce: the old one is spent.
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, nullptr, nullptr), 1);
  EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 0);
  EXPECT_NE(last_error().find("already encrypted"), std::string::npos);
  int ignored = -1;
  EXPECT_EQ(EVP_EncryptFinal_ex(t.ctx.get(), nullptr, &ignored), 0) << "an empty message is a message too";
  last_error();
  // The same nonce again under the same key: refused at init, with or without the key.
  EXPECT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, t.nonce.data(), nullptr), 0);
  EXPECT_NE(last_error().find("already encrypted"), std::string::npos);
  EXPECT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, t.key.data(), t.nonce.data(), nullptr), 0);
  last_error();
  // A new nonce (or the same nonce under a new key) works.
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, random_bytes(a.key_size).data(), t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 1);
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, random_bytes(a.nonce_size).data(), nullptr), 1);
  ASSERT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 1);
  // Decryption with the spent nonce is fine.
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, t.key.data(), t.nonce.data(), nullptr), 1);
}

TEST_P(Aead, ACopiedContextDecryptsAlikeButEncryptsOnlyWithItsOwnNonce) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  const byte_vector ad = random_bytes(33), msg = random_bytes(50);
  byte_vector ct(msg.size()), tag(a.tag_size);
  lwc::aead_encrypt(a, t.key, t.nonce, ad, msg, ct, tag);
  ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  int outl = -1, finl = -1;
  ASSERT_EQ(EVP_DecryptUpdate(t.ctx.get(), nullptr, &outl, ad.data(), 10), 1);
  owned<EVP_CIPHER_CTX> copy(EVP_CIPHER_CTX_new());
  ASSERT_EQ(EVP_CIPHER_CTX_copy(copy.get(), t.ctx.get()), 1);
  for (EVP_CIPHER_CTX* c : {t.ctx.get(), copy.get()}) {
    byte_vector pt(msg.size());
    ASSERT_EQ(EVP_DecryptUpdate(c, nullptr, &outl, ad.data() + 10, static_cast<int>(ad.size() - 10)), 1);
    ASSERT_EQ(EVP_DecryptUpdate(c, pt.data(), &outl, ct.data(), static_cast<int>(ct.size())), 1) << last_error();
    ASSERT_EQ(EVP_DecryptFinal_ex(c, nullptr, &finl), 1);
    EXPECT_EQ(pt, msg);
  }
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), nullptr, nullptr, random_bytes(a.nonce_size).data(), nullptr), 1);
  ASSERT_EQ(EVP_CIPHER_CTX_copy(copy.get(), t.ctx.get()), 1);
  byte_vector out(msg.size());
  EXPECT_EQ(EVP_EncryptUpdate(copy.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 0);
  EXPECT_NE(last_error().find("copy"), std::string::npos);
  EXPECT_EQ(EVP_EncryptUpdate(t.ctx.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 1);
  ASSERT_EQ(EVP_EncryptInit_ex2(copy.get(), nullptr, nullptr, random_bytes(a.nonce_size).data(), nullptr), 1);
  EXPECT_EQ(EVP_EncryptUpdate(copy.get(), out.data(), &outl, msg.data(), static_cast<int>(msg.size())), 1);
}

TEST_P(Aead, TheTagIsReadOnlyAfterFinalAndAtTheConfiguredLength) {
  const lwc::algorithm& a = *GetParam();
  aead_context t(a);
  byte_vector tag(a.tag_size);
  int finl = -1;
  ASSERT_EQ(EVP_EncryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
  EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size()), tag.data()), 0);
  last_error();
  ASSERT_EQ(EVP_EncryptFinal_ex(t.ctx.get(), nullptr, &finl), 1);
  EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size() - 1), tag.data()), 0);
  last_error();
  ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
  byte_vector want(a.tag_size);
  lwc::aead_encrypt(a, t.key, t.nonce, {}, {}, {}, want);
  EXPECT_EQ(tag, want);
  EXPECT_EQ(EVP_CIPHER_CTX_get_tag_length(t.ctx.get()), static_cast<int>(a.tag_size));
}

INSTANTIATE_TEST_SUITE_P(Registry, Aead, ::testing::ValuesIn(registered(is_aead)),
                         lwc::test::algorithm_param_name<::testing::TestParamInfo<const lwc::algorithm*>>);

// Truncated tags: only with the length named first (taglen, or the tag parameter without data).
TEST(AeadTruncatedTag, VerifiedOnlyAtAConfiguredLength) {
  for (const auto& a : lwc::algorithms()) {
    if (!a.is_aead() || a.min_tag_size == a.tag_size) continue;
    SCOPED_TRACE(std::string(a.name));
    aead_context t(a);
    const byte_vector msg = random_bytes(40);
    byte_vector ct(msg.size()), tag(a.min_tag_size);
    lwc::aead_encrypt(a, t.key, t.nonce, {}, msg, ct, tag);
    byte_vector out(msg.size());
    int outl = -1, finl = -1;
    // Without configuration the short tag is refused (it would set a length).
    ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), t.cipher.get(), t.key.data(), t.nonce.data(), nullptr), 1);
    EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 0);
    last_error();
    // EVP_CTRL_AEAD_SET_TAG without data names the length, then the tag verifies.
    ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), nullptr), 1);
    ASSERT_EQ(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(tag.size()), tag.data()), 1);
    ASSERT_EQ(EVP_DecryptUpdate(t.ctx.get(), out.data(), &outl, ct.data(), static_cast<int>(ct.size())), 1);
    ASSERT_EQ(EVP_DecryptFinal_ex(t.ctx.get(), nullptr, &finl), 1);
    EXPECT_EQ(out, msg);
    // A full-length tag after the short configuration is refused too.
    byte_vector full(a.tag_size);
    ASSERT_EQ(EVP_DecryptInit_ex2(t.ctx.get(), nullptr, nullptr, nullptr, nullptr), 1);
    EXPECT_LE(EVP_CIPHER_CTX_ctrl(t.ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(full.size()), full.data()), 0);
    last_error();
  }
}

// ---- digests ---------------------------------------------------------------------------------

// The digest of msg through EVP, cut as given; an XOF squeezes out_len bytes.
bool evp_digest(const lwc::algorithm& a, const byte_vector& msg, const byte_vector& custom,
                const std::vector<std::size_t>& cuts, std::size_t out_len, byte_vector& out) {
  auto md = fetch_md(a);
  owned<EVP_MD_CTX> ctx(EVP_MD_CTX_new());
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string("custom", const_cast<std::uint8_t*>(custom.data()),
                                                           custom.size()),
                         OSSL_PARAM_construct_end()};
  if (!md || !ctx || EVP_DigestInit_ex2(ctx.get(), md.get(), custom.empty() ? nullptr : params) != 1)
    return false;
  std::size_t at = 0;
  for (std::size_t n : cuts) {
    if (EVP_DigestUpdate(ctx.get(), msg.data() + at, n) != 1) return false;
    at += n;
  }
  out.assign(out_len, 0);
  if (a.max_output_size == 0) return EVP_DigestFinalXOF(ctx.get(), out.data(), out_len) == 1;
  unsigned int len = 0;
  return EVP_DigestFinal_ex(ctx.get(), out.data(), &len) == 1 && len == out_len;
}

class Digest : public ::testing::TestWithParam<const lwc::algorithm*> {};

TEST_P(Digest, EveryKatRecordWithUpdateSplits) {
  const lwc::algorithm& a = *GetParam();
  const auto files = files_for(a.name);
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    for (const auto& r : lwc::test::read_kat_file(f.string())) {
      const byte_vector msg = r.bytes("Msg"), want = r.bytes("MD");
      const byte_vector custom = r.has("Z") ? r.bytes("Z") : byte_vector{};
      for (const auto& cuts : splits_of(msg.size())) {
        byte_vector got;
        ASSERT_TRUE(evp_digest(a, msg, custom, cuts, want.size(), got)) << last_error();
        ASSERT_EQ(hex(got), hex(want)) << "line " << r.line;
      }
    }
  }
}

TEST_P(Digest, RandomInputsAndCopiesEqualTheCore) {
  const lwc::algorithm& a = *GetParam();
  auto md = fetch_md(a);
  ASSERT_TRUE(md);
  EXPECT_EQ(EVP_MD_get_size(md.get()), static_cast<int>(a.output_size));
  EXPECT_EQ(EVP_MD_get_block_size(md.get()), static_cast<int>(a.block_size));
  EXPECT_EQ((EVP_MD_get_flags(md.get()) & EVP_MD_FLAG_XOF) != 0, a.max_output_size == 0);
  for (int i = 0; i < 40; ++i) {
    const byte_vector msg = random_bytes(random_size(i < 20 ? 100 : 5000));
    const byte_vector custom = a.max_customization_size ? random_bytes(random_size(40)) : byte_vector{};
    const std::size_t out_len = a.max_output_size == 0 ? 1 + random_size(200) : a.output_size;
    byte_vector want(out_len);
    lwc::digest(a, msg, want, {}, custom);
    const auto cuts = splits_of(msg.size());
    byte_vector got;
    ASSERT_TRUE(evp_digest(a, msg, custom, cuts[rng()() % cuts.size()], out_len, got)) << last_error();
    ASSERT_EQ(hex(got), hex(want)) << "message of " << msg.size() << " bytes";
    // A copy taken halfway finishes alike; the original does too.
    owned<EVP_MD_CTX> ctx(EVP_MD_CTX_new()), copy(EVP_MD_CTX_new());
    OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string("custom", const_cast<std::uint8_t*>(custom.data()),
                                                             custom.size()),
                           OSSL_PARAM_construct_end()};
    ASSERT_EQ(EVP_DigestInit_ex2(ctx.get(), md.get(), custom.empty() ? nullptr : params), 1);
    ASSERT_EQ(EVP_DigestUpdate(ctx.get(), msg.data(), msg.size() / 2), 1);
    ASSERT_EQ(EVP_MD_CTX_copy_ex(copy.get(), ctx.get()), 1);
    for (EVP_MD_CTX* c : {ctx.get(), copy.get()}) {
      ASSERT_EQ(EVP_DigestUpdate(c, msg.data() + msg.size() / 2, msg.size() - msg.size() / 2), 1);
      byte_vector out(out_len);
      unsigned int len = 0;
      ASSERT_EQ(a.max_output_size == 0 ? EVP_DigestFinalXOF(c, out.data(), out_len)
                                       : EVP_DigestFinal_ex(c, out.data(), &len), 1);
      EXPECT_EQ(out, want);
    }
  }
}

TEST_P(Digest, NoUpdateOrSecondOutputAfterFinal) {
  const lwc::algorithm& a = *GetParam();
  auto md = fetch_md(a);
  owned<EVP_MD_CTX> ctx(EVP_MD_CTX_new());
  ASSERT_EQ(EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr), 1);
  byte_vector out(a.output_size);
  unsigned int len = 0;
  ASSERT_EQ(EVP_DigestFinal_ex(ctx.get(), out.data(), &len), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx.get(), out.data(), 1), 0);
  EXPECT_NE(last_error().find("after final"), std::string::npos);
  EXPECT_EQ(EVP_DigestFinal_ex(ctx.get(), out.data(), &len), 0);
  last_error();
  ASSERT_EQ(EVP_DigestInit_ex2(ctx.get(), nullptr, nullptr), 1);  // init starts over
  ASSERT_EQ(EVP_DigestFinal_ex(ctx.get(), out.data(), &len), 1);
  byte_vector want(a.output_size);
  lwc::digest(a, {}, want);
  EXPECT_EQ(out, want);
  if (a.max_output_size != 0) {
    ASSERT_EQ(EVP_DigestInit_ex2(ctx.get(), nullptr, nullptr), 1);
    EXPECT_EQ(EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()), 0) << "not an XOF";
    last_error();
  }
}

TEST_P(Digest, CustomizationOnlyWhereTakenAndBeforeTheData) {
  const lwc::algorithm& a = *GetParam();
  auto md = fetch_md(a);
  owned<EVP_MD_CTX> ctx(EVP_MD_CTX_new());
  byte_vector custom(a.max_customization_size + 1, 0x41);
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string("custom", custom.data(), custom.size()),
                         OSSL_PARAM_construct_end()};
  EXPECT_EQ(EVP_DigestInit_ex2(ctx.get(), md.get(), params), 0) << "one byte too long";
  last_error();
  if (a.max_customization_size == 0) return;
  params[0].data_size = 5;
  ASSERT_EQ(EVP_DigestInit_ex2(ctx.get(), md.get(), nullptr), 1);
  ASSERT_EQ(EVP_DigestUpdate(ctx.get(), custom.data(), 3), 1);
  EXPECT_EQ(EVP_MD_CTX_set_params(ctx.get(), params), 0);
  EXPECT_NE(last_error().find("before the data"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Registry, Digest, ::testing::ValuesIn(registered(is_digest)),
                         lwc::test::algorithm_param_name<::testing::TestParamInfo<const lwc::algorithm*>>);

// ---- MACs and PRFs ----------------------------------------------------------------------------

bool evp_mac(const lwc::algorithm& a, const byte_vector& key, const byte_vector& msg,
             const std::vector<std::size_t>& cuts, std::size_t out_len, byte_vector& out) {
  auto mac = fetch_mac(a);
  if (!mac) return false;
  owned<EVP_MAC_CTX> ctx(EVP_MAC_CTX_new(mac.get()));
  std::size_t size = out_len;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
  if (!ctx || EVP_MAC_init(ctx.get(), key.data(), key.size(), params) != 1) return false;
  std::size_t at = 0;
  for (std::size_t n : cuts) {
    if (EVP_MAC_update(ctx.get(), msg.data() + at, n) != 1) return false;
    at += n;
  }
  out.assign(out_len, 0);
  std::size_t len = 0;
  return EVP_MAC_final(ctx.get(), out.data(), &len, out.size()) == 1 && len == out_len;
}

class Mac : public ::testing::TestWithParam<const lwc::algorithm*> {};

TEST_P(Mac, EveryKatRecordWithUpdateSplits) {
  const lwc::algorithm& a = *GetParam();
  const auto files = files_for(a.name);
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    for (const auto& r : lwc::test::read_kat_file(f.string())) {
      const byte_vector key = r.bytes("Key"), msg = r.bytes("Msg"), want = r.bytes("Tag");
      for (const auto& cuts : splits_of(msg.size())) {
        byte_vector got;
        ASSERT_TRUE(evp_mac(a, key, msg, cuts, want.size(), got)) << last_error() << " line " << r.line;
        ASSERT_EQ(hex(got), hex(want)) << "line " << r.line;
      }
    }
  }
}

TEST_P(Mac, RandomInputsAndCopiesEqualTheCore) {
  const lwc::algorithm& a = *GetParam();
  auto mac = fetch_mac(a);
  ASSERT_TRUE(mac);
  for (int i = 0; i < 30; ++i) {
    const byte_vector key = random_bytes(a.key_size);
    const byte_vector msg = random_bytes(random_size(std::min<std::size_t>(a.max_input_size, i < 15 ? 100 : 3000)));
    const std::size_t out_len = a.kind == lwc::algorithm_kind::prf
                                    ? 1 + random_size((a.max_output_size ? a.max_output_size : 100) - 1)
                                    : a.output_size;
    byte_vector want(out_len);
    lwc::digest(a, msg, want, key);
    byte_vector got;
    const auto cuts = splits_of(msg.size());
    ASSERT_TRUE(evp_mac(a, key, msg, cuts[rng()() % cuts.size()], out_len, got)) << last_error();
    ASSERT_EQ(hex(got), hex(want));
    owned<EVP_MAC_CTX> ctx(EVP_MAC_CTX_new(mac.get()));
    std::size_t size = out_len;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
    ASSERT_EQ(EVP_MAC_init(ctx.get(), key.data(), key.size(), params), 1);
    ASSERT_EQ(EVP_MAC_update(ctx.get(), msg.data(), msg.size() / 2), 1);
    owned<EVP_MAC_CTX> copy(EVP_MAC_CTX_dup(ctx.get()));
    ASSERT_TRUE(copy);
    for (EVP_MAC_CTX* c : {ctx.get(), copy.get()}) {
      ASSERT_EQ(EVP_MAC_update(c, msg.data() + msg.size() / 2, msg.size() - msg.size() / 2), 1);
      byte_vector out(out_len);
      std::size_t len = 0;
      ASSERT_EQ(EVP_MAC_final(c, out.data(), &len, out.size()), 1);
      EXPECT_EQ(out, want);
    }
  }
}

TEST_P(Mac, WrongKeyLengthAndOverlongInputAreRefused) {
  const lwc::algorithm& a = *GetParam();
  auto mac = fetch_mac(a);
  owned<EVP_MAC_CTX> ctx(EVP_MAC_CTX_new(mac.get()));
  const byte_vector key = random_bytes(a.key_size + 1);
  EXPECT_EQ(EVP_MAC_init(ctx.get(), key.data(), key.size() - 2, nullptr), 0);
  EXPECT_NE(last_error().find("key"), std::string::npos);
  EXPECT_EQ(EVP_MAC_init(ctx.get(), nullptr, 0, nullptr), 0) << "no key yet";
  last_error();
  ASSERT_EQ(EVP_MAC_init(ctx.get(), key.data(), a.key_size, nullptr), 1);
  if (a.max_input_size != SIZE_MAX) {
    const byte_vector big(a.max_input_size + 1);
    EXPECT_EQ(EVP_MAC_update(ctx.get(), big.data(), big.size()), 0);
    last_error();
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Mac, ::testing::ValuesIn(registered(is_mac)),
                         lwc::test::algorithm_param_name<::testing::TestParamInfo<const lwc::algorithm*>>);

}  // namespace
