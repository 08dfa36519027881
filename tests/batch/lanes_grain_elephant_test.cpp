// SPDX-License-Identifier: MIT OR Apache-2.0
// The lane kernels of Grain-128AEAD and Elephant (Dumbo, Jumbo, Delirium) against their
// single-message cores, on the lengths where those kernels change course: a Grain lane walks
// the DER length prefix, the associated data and the message in 4-byte words and stages the
// words where they meet, so every associated-data length around the 1-, 2- and 3-byte prefixes
// and every short message length is crossed with the others; then tampering fails one job only
// and leaves its output zeroed. Every backend this CPU runs, with one and three threads, in
// lanes or job by job (the generic harness in batch_test.cpp covers the random mixes).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/elephant/elephant.hpp>
#include <lwc/grain/grain128aead.hpp>

#include "lanes_test_support.hpp"

namespace {

using lanes_test::bytes;
using lanes_test::random_bytes;

struct jobs_of {
  std::vector<bytes> key, nonce, ad, pt, ct, tag, out;
  std::vector<lwc::batch::aead_job> view;
};

// Associated-data lengths: empty, around every word edge of a 1-byte prefix, the switch to a
// 2-byte prefix (128) and to a 3-byte one (256), and one with a 4-byte prefix (65536 and up).
const std::size_t ad_lengths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 31, 33,
                                  126, 127, 128, 129, 130, 131, 255, 256, 257, 258, 259};
constexpr std::size_t long_ad = 65539;

template <class A>
jobs_of make_jobs(std::mt19937_64& rng) {
  jobs_of j;
  const auto add = [&](std::size_t ad_len, std::size_t len) {
    j.key.push_back(random_bytes(rng, A::key_size));
    j.nonce.push_back(random_bytes(rng, A::nonce_size));
    j.ad.push_back(random_bytes(rng, ad_len));
    j.pt.push_back(random_bytes(rng, len));
  };
  for (std::size_t ad_len : ad_lengths)
    for (std::size_t len = 0; len <= 13; ++len) add(ad_len, len);
  for (std::size_t len = 14; len <= 300; len += 1 + rng() % 7) add(rng() % 40, len);
  add(long_ad, 5);
  add(3, 20000);
  add(0, 4097);
  j.view.resize(j.key.size());
  j.ct.resize(j.key.size());
  j.tag.resize(j.key.size());
  j.out.resize(j.key.size());
  return j;
}

template <class A>
void check_algorithm(std::string_view backend, unsigned threads) {
  std::mt19937_64 rng(0x6c616e6573 + threads);
  jobs_of j = make_jobs<A>(rng);
  const std::size_t n = j.key.size();
  // The reference: the single-message core.
  std::vector<bytes> want_ct(n), want_tag(n);
  for (std::size_t i = 0; i < n; ++i) {
    want_ct[i].resize(j.pt[i].size());
    want_tag[i].resize(A::tag_size);
    A::encrypt(j.key[i].data(), nullptr, j.nonce[i].data(), j.ad[i].data(), j.ad[i].size(),
               j.pt[i].data(), j.pt[i].size(), want_ct[i].data(), want_tag[i].data(),
               A::tag_size);
  }
  const lwc::batch::options opt{threads, backend};
  for (std::size_t i = 0; i < n; ++i) {
    j.ct[i].assign(j.pt[i].size(), 0);
    j.tag[i].assign(A::tag_size, 0);
    j.view[i] = {j.key[i], j.nonce[i], j.ad[i], j.pt[i], j.ct[i], j.tag[i], {}};
  }
  lwc::batch::encrypt(A::name, j.view, A::tag_size, opt);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(j.ct[i], want_ct[i]) << "job " << i << " ad " << j.ad[i].size() << " len "
                                   << j.pt[i].size();
    ASSERT_EQ(j.tag[i], want_tag[i]) << "job " << i << " ad " << j.ad[i].size() << " len "
                                     << j.pt[i].size();
  }

  // Decryption, with every fifth job tampered with (tag, ciphertext or associated data).
  std::vector<bool> tampered(n, false);
  for (std::size_t i = 0; i < n; i += 5) {
    tampered[i] = true;
    switch (i / 5 % 3) {
      case 0: j.tag[i][i % j.tag[i].size()] ^= 0x10; break;
      case 1:
        if (!j.ct[i].empty()) j.ct[i][i % j.ct[i].size()] ^= 1;
        else j.tag[i][0] ^= 1;
        break;
      default:
        if (!j.ad[i].empty()) j.ad[i][j.ad[i].size() - 1] ^= 0x80;
        else j.tag[i][A::tag_size - 1] ^= 0x80;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    j.out[i].assign(j.ct[i].size(), 0xee);
    j.view[i] = {j.key[i], j.nonce[i], j.ad[i], j.ct[i], j.out[i], j.tag[i], {}};
  }
  std::vector<std::uint8_t> ok(n, 7);
  const std::size_t verified = lwc::batch::decrypt(A::name, j.view, ok, A::tag_size, opt);
  std::size_t want_verified = 0;
  for (std::size_t i = 0; i < n; ++i) {
    want_verified += !tampered[i];
    ASSERT_EQ(ok[i], tampered[i] ? 0 : 1) << "job " << i;
    if (tampered[i]) ASSERT_EQ(j.out[i], bytes(j.out[i].size(), 0)) << "job " << i;
    else ASSERT_EQ(j.out[i], j.pt[i]) << "job " << i;
  }
  EXPECT_EQ(verified, want_verified);

  // In place: each job's output is its own input.
  for (std::size_t i = 0; i < n; ++i) {
    if (tampered[i]) continue;
    j.out[i] = j.ct[i];
    j.view[i] = {j.key[i], j.nonce[i], j.ad[i], j.out[i], j.out[i], j.tag[i], {}};
  }
  std::vector<lwc::batch::aead_job> kept;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < n; ++i)
    if (!tampered[i]) {
      kept.push_back(j.view[i]);
      index.push_back(i);
    }
  std::vector<std::uint8_t> ok_kept(kept.size(), 7);
  EXPECT_EQ(lwc::batch::decrypt(A::name, kept, ok_kept, A::tag_size, opt), kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k)
    ASSERT_EQ(j.out[index[k]], j.pt[index[k]]) << "in place, job " << index[k];
}

class LanesGrainElephant : public ::testing::TestWithParam<std::string> {};

TEST_P(LanesGrainElephant, GrainMatchesCoreAcrossPrefixAndWordEdges) {
  for (unsigned threads : {1u, 3u}) check_algorithm<lwc::grain::grain128aead>(GetParam(), threads);
}
TEST_P(LanesGrainElephant, DumboMatchesCore) {
  for (unsigned threads : {1u, 3u}) check_algorithm<lwc::elephant::elephant_dumbo>(GetParam(), threads);
}
TEST_P(LanesGrainElephant, JumboMatchesCore) {
  for (unsigned threads : {1u, 3u}) check_algorithm<lwc::elephant::elephant_jumbo>(GetParam(), threads);
}
TEST_P(LanesGrainElephant, DeliriumMatchesCore) {
  for (unsigned threads : {1u, 3u})
    check_algorithm<lwc::elephant::elephant_delirium>(GetParam(), threads);
}

std::vector<std::string> backends() {
  std::vector<std::string> v;
  for (std::string_view b : lwc::batch::available_backends()) v.emplace_back(b);
  return v;
}
INSTANTIATE_TEST_SUITE_P(Backends, LanesGrainElephant, ::testing::ValuesIn(backends()),
                         [](const auto& param_info) { return param_info.param; });

// The wide backends run these algorithms in lanes (Grain on avx512 only); a lost kernel (a
// concept that stopped matching the backend's vector type) would silently fall back to job by
// job and still pass every equality test above.
TEST(LanesGrainElephantPaths, WideBackendsRunThemInLanes) {
  for (std::string_view b : lwc::batch::available_backends()) {
    if (b != "avx2" && b != "avx512") continue;
    for (const char* name : {"elephant-dumbo", "elephant-jumbo", "elephant-delirium"})
      EXPECT_TRUE(lwc::batch::has_lanes(name, b)) << name << " on " << b;
    EXPECT_EQ(lwc::batch::has_lanes("grain-128aead", b), b == "avx512") << b;
  }
}

}  // namespace
