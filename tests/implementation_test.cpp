// SPDX-License-Identifier: MIT OR Apache-2.0
// The two host code paths of the Ascon modes (portable loops, and the same loops compiled for
// BMI1/BMI2, chosen at run time) give the same bytes: every registered Ascon algorithm, random
// keys and inputs of random lengths, one-shot and incremental (the one-shot calls switch path
// once per call, the incremental ones once per update or squeeze). The KAT files run on whichever
// path is active; ctest runs them once more with LWC_FORCE_PORTABLE=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <lwc/lwc.hpp>

#include "support/kat_reader.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

bool fast_path_available() {
  lwc::ascon::force_portable(false);
  return lwc::ascon::default_implementation() == lwc::ascon::implementation::bmi2;
}

// Restores the default path when a test ends, whatever happened in it.
struct restore_default_path {
  ~restore_default_path() { lwc::ascon::force_portable(false); }
};

std::vector<const lwc::algorithm*> ascon_algorithms() {
  std::vector<const lwc::algorithm*> v;
  for (const auto& a : lwc::algorithms())
    if (a.family == "ascon") v.push_back(&a);
  return v;
}

std::string param_name(const ::testing::TestParamInfo<const lwc::algorithm*>& param_info) {
  return lwc::test::algorithm_param_name(param_info);
}

class AsconPaths : public ::testing::TestWithParam<const lwc::algorithm*> {};

struct aead_result {
  bytes ct, tag, pt;
  bool ok;
};

aead_result run_aead(const lwc::algorithm& a, const bytes& key, const bytes& nonce, const bytes& ad,
                     const bytes& pt, std::size_t tag_len) {
  aead_result r{bytes(pt.size()), bytes(tag_len), bytes(pt.size()), false};
  lwc::aead_encrypt(a, key, nonce, ad, pt, r.ct, r.tag);
  r.ok = lwc::aead_decrypt_truncated(a, key, nonce, ad, r.ct, r.tag, r.pt);
  return r;
}

// The output of a hash/XOF/MAC with the input fed in two pieces split at `split`, and the
// output read in two pieces split at out_len / 3.
bytes run_hash(const lwc::algorithm& a, const bytes& key, const bytes& msg, std::size_t split,
               std::size_t out_len) {
  lwc::hasher h(a, key);
  h.update({msg.data(), split});
  h.update({msg.data() + split, msg.size() - split});
  bytes out(out_len);
  h.squeeze({out.data(), out_len / 3});
  h.squeeze({out.data() + out_len / 3, out_len - out_len / 3});
  return out;
}

// The one-shot entry point (lwc::digest) on the active path.
bytes run_digest(const lwc::algorithm& a, const bytes& key, const bytes& msg,
                 std::size_t out_len) {
  bytes out(out_len);
  lwc::digest(a, msg, out, key);
  return out;
}

TEST_P(AsconPaths, FastPathEqualsPortable) {
  if (!fast_path_available()) GTEST_SKIP() << "no BMI1/BMI2 on this CPU (or LWC_FORCE_PORTABLE=1)";
  const restore_default_path restore;
  const lwc::algorithm& a = *GetParam();
  std::mt19937_64 rng(std::hash<std::string_view>{}(a.name));
  for (int trial = 0; trial < 200; ++trial) {
    const bytes key = random_bytes(rng, a.key_size);
    const std::size_t len = std::min<std::size_t>(rng() % 700, a.max_input_size);
    const bytes msg = random_bytes(rng, len);
    if (a.is_aead()) {
      const bytes nonce = random_bytes(rng, a.nonce_size), ad = random_bytes(rng, rng() % 300);
      const std::size_t tag_len = a.min_tag_size + rng() % (a.tag_size - a.min_tag_size + 1);
      lwc::ascon::force_portable(true);
      const aead_result portable = run_aead(a, key, nonce, ad, msg, tag_len);
      lwc::ascon::force_portable(false);
      const aead_result fast = run_aead(a, key, nonce, ad, msg, tag_len);
      ASSERT_TRUE(portable.ok && fast.ok);
      ASSERT_EQ(fast.ct, portable.ct) << "length " << len;
      ASSERT_EQ(fast.tag, portable.tag) << "length " << len;
      ASSERT_EQ(fast.pt, msg);
    } else {
      const std::size_t split = len == 0 ? 0 : rng() % (len + 1);
      const std::size_t out_len =
          a.max_output_size != 0 ? a.output_size : 1 + rng() % 100;  // XOFs: any length
      lwc::ascon::force_portable(true);
      const bytes portable = run_hash(a, key, msg, split, out_len);
      ASSERT_EQ(run_digest(a, key, msg, out_len), portable) << "length " << len;
      lwc::ascon::force_portable(false);
      const bytes fast = run_hash(a, key, msg, split, out_len);
      ASSERT_EQ(fast, portable) << "length " << len << ", split " << split;
      ASSERT_EQ(run_digest(a, key, msg, out_len), portable) << "length " << len;
    }
  }
}

// A decryption that fails on the fast path zeroes its output as on the portable one.
TEST_P(AsconPaths, FastPathRejectsTamperingAndZeroes) {
  const lwc::algorithm& a = *GetParam();
  if (!a.is_aead()) GTEST_SKIP() << "not an AEAD";
  if (!fast_path_available()) GTEST_SKIP() << "no BMI1/BMI2 on this CPU (or LWC_FORCE_PORTABLE=1)";
  std::mt19937_64 rng(7);
  const bytes key = random_bytes(rng, a.key_size), nonce = random_bytes(rng, a.nonce_size),
              ad = random_bytes(rng, 40), pt = random_bytes(rng, 333);
  aead_result r = run_aead(a, key, nonce, ad, pt, a.tag_size);
  r.ct[100] ^= 0x20;
  bytes out(pt.size(), 0xaa);
  EXPECT_FALSE(lwc::aead_decrypt_truncated(a, key, nonce, ad, r.ct, r.tag, out));
  EXPECT_EQ(out, bytes(pt.size(), 0));
}

// Every tag length, with every length of the last message block (the one-shot calls compare
// and write the tag as words, whole or in part): a truncated tag is the start of the full
// one, it verifies, and a flipped bit in any of its bytes is rejected with the output zeroed.
TEST_P(AsconPaths, EveryTagAndLastBlockLength) {
  const lwc::algorithm& a = *GetParam();
  if (!a.is_aead()) GTEST_SKIP() << "not an AEAD";
  std::mt19937_64 rng(11);
  const bytes key = random_bytes(rng, a.key_size), nonce = random_bytes(rng, a.nonce_size);
  for (std::size_t len = 0; len <= 2 * a.block_size + 1; ++len) {
    const bytes ad = random_bytes(rng, (len * 7) % (2 * a.block_size + 2)),
                pt = random_bytes(rng, len);
    const aead_result full = run_aead(a, key, nonce, ad, pt, a.tag_size);
    ASSERT_TRUE(full.ok);
    ASSERT_EQ(full.pt, pt) << "length " << len;
    for (std::size_t tag_len = a.min_tag_size; tag_len <= a.tag_size; ++tag_len) {
      aead_result r = run_aead(a, key, nonce, ad, pt, tag_len);
      ASSERT_TRUE(r.ok) << "length " << len << ", tag " << tag_len;
      ASSERT_EQ(r.ct, full.ct);
      ASSERT_EQ(r.tag, bytes(full.tag.begin(), full.tag.begin() + tag_len));
      for (std::size_t i = 0; i < tag_len; ++i) {
        r.tag[i] ^= 0x80;
        bytes out(len, 0xaa);
        EXPECT_FALSE(lwc::aead_decrypt_truncated(a, key, nonce, ad, r.ct, r.tag, out))
            << "length " << len << ", tag " << tag_len << ", byte " << i;
        EXPECT_EQ(out, bytes(len, 0));
        r.tag[i] ^= 0x80;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, AsconPaths, ::testing::ValuesIn(ascon_algorithms()), param_name);

// With LWC_FORCE_PORTABLE=1 (ctest's core_forced_portable entry) the portable path is in use,
// also after force_portable(false).
TEST(AsconCodePaths, EnvironmentForcesPortable) {
  const char* env = std::getenv("LWC_FORCE_PORTABLE");
  if (env == nullptr || env[0] != '1') GTEST_SKIP() << "LWC_FORCE_PORTABLE is not set";
  lwc::ascon::force_portable(false);
  EXPECT_EQ(lwc::ascon::active_implementation(), lwc::ascon::implementation::portable);
}

TEST(AsconCodePaths, ForcePortableSwitchesAndRestores) {
  const restore_default_path restore;
  lwc::ascon::force_portable(true);
  EXPECT_EQ(lwc::ascon::active_implementation(), lwc::ascon::implementation::portable);
  lwc::ascon::force_portable(false);
  EXPECT_EQ(lwc::ascon::active_implementation(), lwc::ascon::default_implementation());
}

}  // namespace
