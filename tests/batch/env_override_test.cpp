// SPDX-License-Identifier: MIT OR Apache-2.0
// Run by ctest once per backend with LWC_BACKEND set: the variable picks the default backend
// when this CPU runs that backend (and is ignored otherwise, since forcing a backend the CPU
// lacks would fault), and a batch through the default backend equals the core.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <lwc/batch.h>
#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace {

TEST(BackendOverride, EnvironmentPicksTheDefault) {
  const char* env = std::getenv("LWC_BACKEND");
  ASSERT_NE(env, nullptr) << "run through ctest, which sets LWC_BACKEND";
  const auto avail = lwc::batch::available_backends();
  const bool runnable = std::find(avail.begin(), avail.end(), env) != avail.end();
  if (runnable) {
    EXPECT_EQ(lwc::batch::default_backend(), env);
  } else {
    EXPECT_EQ(lwc::batch::default_backend(), avail.front());
    GTEST_SKIP() << "this CPU does not run " << env;
  }
  EXPECT_STREQ(lwc_batch_default_backend(), env);
}

TEST(BackendOverride, DefaultBackendEqualsCore) {
  std::mt19937_64 rng(5);
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  const std::size_t n = 301;
  std::vector<std::vector<std::uint8_t>> key(n), nonce(n), ad(n), pt(n), ct(n), tag(n);
  std::vector<lwc::batch::aead_job> jobs;
  for (std::size_t i = 0; i < n; ++i) {
    key[i].resize(16);
    nonce[i].resize(16);
    ad[i].resize(rng() % 40);
    pt[i].resize(rng() % 2000);
    for (auto* v : {&key[i], &nonce[i], &ad[i], &pt[i]})
      for (auto& x : *v) x = static_cast<std::uint8_t>(rng());
    ct[i].resize(pt[i].size());
    tag[i].resize(16);
    jobs.push_back({key[i], nonce[i], ad[i], pt[i], ct[i], tag[i], {}});
  }
  lwc::batch::encrypt("ascon-aead128", jobs, 16, {2, {}});
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::uint8_t> c(pt[i].size()), t(16);
    lwc::aead_encrypt(a, key[i], nonce[i], ad[i], pt[i], c, t);
    ASSERT_EQ(ct[i], c) << "job " << i;
    ASSERT_EQ(tag[i], t) << "job " << i;
  }
}

}  // namespace
