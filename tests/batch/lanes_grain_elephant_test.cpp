// SPDX-License-Identifier: MIT OR Apache-2.0
// The lane kernels of Grain-128AEAD and Elephant (Dumbo, Jumbo, Delirium) against their
// single-message cores, on every backend this CPU runs, with one to three threads, in lanes or
// job by job, on the lengths where those kernels change course. A Grain lane walks the DER
// length prefix, the associated data and the message in 4-byte words and stages the words
// where they meet, so every associated-data length around the 1-, 2- and 3-byte prefixes is
// crossed with every short message length. An Elephant job's calls come in waves whose sizes
// are its blocks of message, of ciphertext and of nonce || associated data (20, 22 or 25
// bytes), so lengths sit around those multiples too. Then decryption with forged jobs, and both
// ways in place (the generic harness in batch_test.cpp covers the random mixes).
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "lanes_test_support.hpp"

namespace {

using namespace lanes_test;

constexpr std::size_t long_ad = 65539;  // a 4-byte DER prefix

// Associated data: empty, around every word edge of a 1-byte prefix, the switch to a 2-byte
// prefix (128) and to a 3-byte one (256), around the Elephant blocks the 12-byte nonce leaves
// room for, and one with a 4-byte prefix.
std::vector<std::size_t> ad_lengths() {
  std::vector<std::size_t> v{0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,  11,  12, 13,
                             14,  27,  28,  29,  31,  32,  33,  37,  38,  39,  126, 127, 128,
                             129, 130, 131, 255, 256, 257, 258, 259, long_ad};
  return sorted_unique(v);
}

// Messages: every length to 13, around each multiple of the Elephant blocks to 100, and long.
std::vector<std::size_t> message_lengths() {
  std::vector<std::size_t> v;
  for (std::size_t n = 0; n <= 13; ++n) v.push_back(n);
  for (std::size_t block : {20, 22, 25})
    for (std::size_t k = block; k <= 100; k += block)
      for (std::size_t n : {k - 1, k, k + 1}) v.push_back(n);
  for (std::size_t n : {300, 4097, 20000}) v.push_back(n);
  return sorted_unique(v);
}

// Every associated-data length with the short messages; the rest with short associated data
// only, the long ones with two lengths, to keep the run short.
bool keep(std::size_t msg, std::size_t ad) {
  if (ad == long_ad) return msg == 5;
  if (msg <= 13) return true;
  if (msg <= 101) return ad <= 39;
  return ad == 0 || ad == 3;
}

class LanesGrainElephant : public ::testing::TestWithParam<config> {
 protected:
  lwc::batch::options opt() const { return {GetParam().threads, GetParam().backend}; }
  std::mt19937_64 rng{0x6c616e6573u + GetParam().threads * 131u +
                      static_cast<unsigned>(GetParam().backend.size())};

  void check(const char* name) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const aead_batch b = make_aead_batch(a, rng, message_lengths(), ad_lengths(), keep);
    check_aead_batch(a, b, opt());
    check_aead_in_place(a, b, opt());
  }
};

TEST_P(LanesGrainElephant, GrainMatchesCoreAcrossPrefixAndWordEdges) { check("grain-128aead"); }
TEST_P(LanesGrainElephant, DumboMatchesCore) { check("elephant-dumbo"); }
TEST_P(LanesGrainElephant, JumboMatchesCore) { check("elephant-jumbo"); }
TEST_P(LanesGrainElephant, DeliriumMatchesCore) { check("elephant-delirium"); }

INSTANTIATE_TEST_SUITE_P(Backends, LanesGrainElephant, ::testing::ValuesIn(configs()),
                         config_name);

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
