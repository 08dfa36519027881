// SPDX-License-Identifier: MIT OR Apache-2.0
// Project Wycheproof's Ascon AEAD vectors (tests/vectors/wycheproof, 828 vectors: rate
// boundaries, byte order, modified tags, ciphertexts and inputs) through the registry's
// checked entry points and through the batch engine on every backend this CPU runs.
// A valid vector must encrypt to its ciphertext and tag and decrypt back; an invalid one must
// be refused: by decryption (false, output zeroed) or, for sizes lwc does not take, by the
// size checks (std::invalid_argument) before any byte is processed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/registry.hpp>
#if LWC_TEST_BATCH
#include <lwc/batch.hpp>
#endif

#include "support/json_reader.hpp"

namespace {

using lwc::test::json_value;
using lwc::test::unhex;
using bytes = std::vector<std::uint8_t>;

struct file_case {
  const char* file;
  const char* json_algorithm;  // the file's "algorithm" field
  const char* lwc_name;
  std::size_t vectors;         // numberOfTests as published
};

constexpr file_case files[] = {
    {"ascon128_test.json", "ASCON128", "ascon-128", 192},
    {"ascon128a_test.json", "ASCON128A", "ascon-128a", 192},
    {"ascon80pq_test.json", "ASCON80PQ", "ascon-80pq", 192},
    {"ascon_sp800_232_aead128_test.json", "ASCON-AEAD128", "ascon-aead128", 252},
};

struct vector_case {
  long long id;
  bytes key, nonce, ad, msg, ct, tag;
  bool valid;
  bool sizes_supported;
};

std::vector<vector_case> load(const file_case& f, const lwc::algorithm& a) {
  const json_value doc = lwc::test::read_json_file(std::string(LWC_VECTOR_DIR) + "/wycheproof/" + f.file);
  EXPECT_EQ(doc["algorithm"].text(), f.json_algorithm);
  EXPECT_EQ(doc["schema"].text(), "aead_test_schema_v1.json");
  std::vector<vector_case> out;
  for (const json_value& g : doc["testGroups"].items()) {
    EXPECT_EQ(g["type"].text(), "AeadTest");
    const auto key_bits = g["keySize"].integer(), iv_bits = g["ivSize"].integer(),
               tag_bits = g["tagSize"].integer();
    const bool supported = key_bits == static_cast<long long>(8 * a.key_size) &&
                           iv_bits == static_cast<long long>(8 * a.nonce_size) &&
                           tag_bits % 8 == 0 && tag_bits / 8 >= static_cast<long long>(a.min_tag_size) &&
                           tag_bits / 8 <= static_cast<long long>(a.tag_size);
    for (const json_value& t : g["tests"].items()) {
      vector_case v{t["tcId"].integer(), unhex(t["key"].text()), unhex(t["iv"].text()),
                    unhex(t["aad"].text()), unhex(t["msg"].text()), unhex(t["ct"].text()),
                    unhex(t["tag"].text()), false, supported};
      const std::string& result = t["result"].text();
      if (result != "valid" && result != "invalid")
        ADD_FAILURE() << f.file << " tcId " << v.id << ": result '" << result
                      << "' (lwc has no 'acceptable' cases for AEADs)";
      v.valid = result == "valid";
      out.push_back(std::move(v));
    }
  }
  EXPECT_EQ(out.size(), f.vectors) << f.file;
  EXPECT_EQ(static_cast<std::size_t>(doc["numberOfTests"].integer()), out.size()) << f.file;
  return out;
}

class Wycheproof : public ::testing::TestWithParam<file_case> {};

TEST_P(Wycheproof, RegistryEntryPoints) {
  const file_case& f = GetParam();
  const lwc::algorithm& a = lwc::get_algorithm(f.lwc_name);
  const auto vectors = load(f, a);
  std::size_t valid = 0, refused = 0;
  for (const auto& v : vectors) {
    SCOPED_TRACE(std::string(f.file) + " tcId " + std::to_string(v.id));
    bytes pt(v.ct.size(), 0xA5);
    if (!v.sizes_supported) {
      // Sizes lwc does not implement are only acceptable in must-fail vectors.
      EXPECT_FALSE(v.valid);
      bytes ct(v.msg.size()), tag(v.tag.size());
      EXPECT_THROW(lwc::aead_encrypt(a, v.key, v.nonce, v.ad, v.msg, ct, tag), std::invalid_argument);
      EXPECT_THROW((void)lwc::aead_decrypt(a, v.key, v.nonce, v.ad, v.ct, v.tag, pt),
                   std::invalid_argument);
      ++refused;
      continue;
    }
    bytes ct(v.msg.size()), tag(v.tag.size());
    lwc::aead_encrypt(a, v.key, v.nonce, v.ad, v.msg, ct, tag);
    const bool ok = lwc::aead_decrypt(a, v.key, v.nonce, v.ad, v.ct, v.tag, pt);
    if (v.valid) {
      EXPECT_EQ(ct, v.ct);
      EXPECT_EQ(tag, v.tag);
      EXPECT_TRUE(ok);
      EXPECT_EQ(pt, v.msg);
      ++valid;
    } else {
      // The pair was manipulated, so our own encryption of msg must differ from it ...
      EXPECT_FALSE(ct == v.ct && tag == v.tag);
      // ... and decryption must refuse it and release nothing.
      EXPECT_FALSE(ok);
      EXPECT_TRUE(std::all_of(pt.begin(), pt.end(), [](std::uint8_t b) { return b == 0; }));
      ++refused;
    }
  }
  EXPECT_EQ(valid + refused, vectors.size());
}

#if LWC_TEST_BATCH
// All vectors of a file as one batch, decrypted (and the valid ones encrypted) on every
// backend: the lanes see must-fail jobs next to valid ones.
TEST_P(Wycheproof, BatchEngineEveryBackend) {
  const file_case& f = GetParam();
  const lwc::algorithm& a = lwc::get_algorithm(f.lwc_name);
  auto vectors = load(f, a);
  std::erase_if(vectors, [](const vector_case& v) { return !v.sizes_supported; });
  // The batch engine takes one tag length per call; group by it.
  std::vector<std::size_t> tag_lens;
  for (const auto& v : vectors)
    if (std::find(tag_lens.begin(), tag_lens.end(), v.tag.size()) == tag_lens.end())
      tag_lens.push_back(v.tag.size());
  for (std::string_view backend : lwc::batch::available_backends()) {
    for (std::size_t tag_len : tag_lens) {
      SCOPED_TRACE(std::string(f.file) + " on " + std::string(backend));
      std::vector<const vector_case*> sel;
      for (const auto& v : vectors)
        if (v.tag.size() == tag_len) sel.push_back(&v);
      std::vector<bytes> pts(sel.size()), cts(sel.size()), tags(sel.size());
      std::vector<lwc::batch::aead_job> dec, enc;
      for (std::size_t i = 0; i < sel.size(); ++i) {
        const auto& v = *sel[i];
        pts[i].assign(v.ct.size(), 0xA5);
        cts[i].assign(v.msg.size(), 0);
        tags[i].assign(tag_len, 0);
        dec.push_back({v.key, v.nonce, v.ad, v.ct,
                       pts[i], std::span<std::uint8_t>(const_cast<std::uint8_t*>(v.tag.data()), tag_len), {}});
        enc.push_back({v.key, v.nonce, v.ad, v.msg, cts[i], tags[i], {}});
      }
      const lwc::batch::options opt{2, backend};
      std::vector<std::uint8_t> ok(sel.size(), 7);
      const std::size_t passed = lwc::batch::decrypt(a, dec, ok, tag_len, opt);
      lwc::batch::encrypt(a, enc, tag_len, opt);
      std::size_t expected_valid = 0;
      for (std::size_t i = 0; i < sel.size(); ++i) {
        const auto& v = *sel[i];
        SCOPED_TRACE("tcId " + std::to_string(v.id));
        expected_valid += v.valid;
        EXPECT_EQ(ok[i], v.valid ? 1 : 0);
        if (v.valid) {
          EXPECT_EQ(pts[i], v.msg);
          EXPECT_EQ(cts[i], v.ct);
          EXPECT_EQ(tags[i], v.tag);
        } else {
          EXPECT_TRUE(std::all_of(pts[i].begin(), pts[i].end(), [](std::uint8_t b) { return b == 0; }));
          EXPECT_FALSE(cts[i] == v.ct && tags[i] == v.tag);
        }
      }
      EXPECT_EQ(passed, expected_valid);
    }
  }
}
#endif

INSTANTIATE_TEST_SUITE_P(Ascon, Wycheproof, ::testing::ValuesIn(files),
                         [](const ::testing::TestParamInfo<file_case>& i) {
                           std::string n = i.param.lwc_name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// The files hold 828 vectors; a file dropped from the list above would shrink the coverage.
TEST(WycheproofFiles, EveryFileIsListed) {
  std::size_t total = 0, listed = 0;
  for (const auto& f : files) total += f.vectors;
  EXPECT_EQ(total, 828u);
  for (const auto& e : std::filesystem::directory_iterator(std::string(LWC_VECTOR_DIR) + "/wycheproof")) {
    if (e.path().extension() != ".json") continue;
    ++listed;
    EXPECT_TRUE(std::any_of(std::begin(files), std::end(files),
                            [&](const file_case& f) { return e.path().filename() == f.file; }))
        << e.path() << " is not run";
  }
  EXPECT_EQ(listed, std::size(files));
}

}  // namespace
