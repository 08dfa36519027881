// SPDX-License-Identifier: MIT OR Apache-2.0
// The one KAT driver: for every registered algorithm, every vector file named after it under
// tests/vectors/ is run through the registry's generic entry points (the same ones the C ABI,
// Python package and CLI use). AEAD records are checked both ways; records marked
// `TestPassed = False` must fail verification and leave a zeroed output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <lwc/registry.hpp>

#include "support/kat_reader.hpp"

namespace fs = std::filesystem;
using lwc::test::byte_vector;
using lwc::test::hex;
using lwc::test::kat_record;

namespace {

// Files under the vector directory whose name is `<algorithm>.txt` or `<algorithm>.<set>.txt`.
std::vector<fs::path> files_for(std::string_view name) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(LWC_VECTOR_DIR)) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    const std::string stem = e.path().stem().string();  // drops the last ".txt"
    if (stem == name || stem.rfind(std::string(name) + ".", 0) == 0) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void run_aead(const lwc::algorithm& a, const kat_record& r) {
  const byte_vector key = r.bytes("Key"), nonce = r.bytes("Nonce"), ad = r.bytes("AD");
  const byte_vector second = r.has("SecondKey") ? r.bytes("SecondKey") : byte_vector{};
  byte_vector ct = r.bytes("CT"), tag;
  if (r.has("Tag")) {
    tag = r.bytes("Tag");
    if (r.has("TagLen")) {
      ASSERT_EQ(std::stoul(r.text("TagLen")), tag.size() * 8);
    }
  } else {  // CT holds ciphertext || full tag
    ASSERT_GE(ct.size(), a.tag_size);
    tag.assign(ct.end() - static_cast<long>(a.tag_size), ct.end());
    ct.resize(ct.size() - a.tag_size);
  }
  const bool must_fail = r.has("TestPassed") && r.text("TestPassed") == "False";
  // Decryption records carry TestPassed (the older ACVP file has no Direction field).
  const bool decrypt_only = (r.has("Direction") && r.text("Direction") == "decrypt") || r.has("TestPassed");

  if (!decrypt_only) {
    const byte_vector pt = r.bytes("PT");
    byte_vector got_ct(pt.size()), got_tag(tag.size());
    lwc::aead_encrypt(a, key, nonce, ad, pt, got_ct, got_tag, second);
    EXPECT_EQ(hex(got_ct), hex(ct)) << "ciphertext, record at line " << r.line;
    EXPECT_EQ(hex(got_tag), hex(tag)) << "tag, record at line " << r.line;
  }
  byte_vector got_pt(ct.size(), 0xAA);
  const bool ok = lwc::aead_decrypt_truncated(a, key, nonce, ad, ct, tag, got_pt, second);
  if (must_fail) {
    EXPECT_FALSE(ok) << "forged record accepted, line " << r.line;
    EXPECT_TRUE(std::all_of(got_pt.begin(), got_pt.end(), [](auto b) { return b == 0; }))
        << "output not wiped after a failed verification, line " << r.line;
  } else {
    EXPECT_TRUE(ok) << "valid record rejected, line " << r.line;
    EXPECT_EQ(hex(got_pt), r.text("PT")) << "plaintext, record at line " << r.line;
  }
}

void run_hash(const lwc::algorithm& a, const kat_record& r) {
  const byte_vector msg = r.bytes("Msg");
  const bool keyed = a.is_keyed();
  const byte_vector expected = r.bytes(keyed ? "Tag" : "MD");
  const byte_vector key = keyed ? r.bytes("Key") : byte_vector{};
  const byte_vector z = r.has("Z") ? r.bytes("Z") : byte_vector{};
  if (r.has("OutLen")) {
    ASSERT_EQ(std::stoul(r.text("OutLen")), expected.size() * 8);
  }
  byte_vector out(expected.size());
  lwc::digest(a, msg, out, key, z);
  EXPECT_EQ(hex(out), hex(expected)) << "record at line " << r.line;
  if (keyed && expected.size() <= (a.max_output_size ? a.max_output_size : 64)) {
    lwc::hasher good(a, key);
    good.update(msg);
    EXPECT_TRUE(good.verify_truncated(expected)) << "record at line " << r.line;
    byte_vector forged = expected;
    forged.back() ^= 0x01;
    lwc::hasher bad(a, key);
    bad.update(msg);
    EXPECT_FALSE(bad.verify_truncated(forged)) << "record at line " << r.line;
  }
}

class Kat : public ::testing::TestWithParam<const lwc::algorithm*> {};

TEST_P(Kat, EveryVectorFilePasses) {
  const lwc::algorithm& a = *GetParam();
  const auto files = files_for(a.name);
  ASSERT_FALSE(files.empty()) << "no KAT file for " << a.name;
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    const auto records = lwc::test::read_kat_file(f.string());
    ASSERT_FALSE(records.empty());
    for (const auto& r : records) {
      if (a.is_aead()) run_aead(a, r);
      else run_hash(a, r);
      if (HasFatalFailure()) return;
    }
    RecordProperty(f.filename().string(), static_cast<int>(records.size()));
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, Kat, ::testing::ValuesIn([] {
                           std::vector<const lwc::algorithm*> v;
                           for (const auto& a : lwc::algorithms()) v.push_back(&a);
                           return v;
                         }()),
                         lwc::test::algorithm_param_name<::testing::TestParamInfo<const lwc::algorithm*>>);

// Every vector file must belong to a registered algorithm, so none is silently skipped.
TEST(KatFiles, EveryFileBelongsToAnAlgorithm) {
  for (const auto& e : fs::recursive_directory_iterator(LWC_VECTOR_DIR)) {
    if (!e.is_regular_file() || e.path().extension() != ".txt") continue;
    const std::string stem = e.path().stem().string();
    const std::string algo = stem.substr(0, stem.find('.'));
    EXPECT_NE(lwc::find_algorithm(algo), nullptr) << e.path() << " matches no algorithm";
  }
}

}  // namespace
