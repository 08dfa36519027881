// SPDX-License-Identifier: MIT OR Apache-2.0
// The Romulus lane kernels (Romulus-N, Romulus-M's two passes, Romulus-T's key stream and tag,
// Romulus-H) against their single-message cores, on every backend this CPU runs, with one to
// three threads: associated data and messages at and around the lengths where the kernels
// change course (the 16-byte block, the 32-byte blocks of Romulus-M's MAC and of the Hirose
// compression in Romulus-T's tag and Romulus-H), every pair of them in one batch in shuffled
// order, plus long messages; decryption of the same batch with some tags flipped (those jobs
// fail and are zeroed, the others verify); both directions in place; and Romulus-H on every
// length up to four blocks and a few long ones, in one batch. On a backend without a kernel the
// same checks run job by job.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace {

using bytes = std::vector<std::uint8_t>;

constexpr const char* aeads[] = {"romulus-n", "romulus-m", "romulus-t"};

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// 0..3 and every multiple of 16 up to 96 with its neighbours, then (with_long) a few long ones.
std::vector<std::size_t> edge_lengths(bool with_long) {
  std::vector<std::size_t> v{0, 1, 2, 3};
  for (std::size_t k = 16; k <= 96; k += 16)
    for (std::size_t n : {k - 1, k, k + 1}) v.push_back(n);
  if (with_long)
    for (std::size_t n : {300, 1024, 4099}) v.push_back(n);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

struct config {
  std::string backend;
  unsigned threads;
};
void PrintTo(const config& c, std::ostream* os) {
  *os << c.backend << " with " << c.threads << " threads";
}

class RomulusLanes : public ::testing::TestWithParam<config> {
 protected:
  lwc::batch::options opt() const { return {GetParam().threads, GetParam().backend}; }
  std::mt19937_64 rng{0x726f6d75u + GetParam().threads * 131u +
                      static_cast<unsigned>(GetParam().backend.size())};
};

// Romulus-N runs in lanes on every backend, Romulus-M, -T and -H on all but the portable one
// (whose four 32-bit lanes lose to the core job by job).
TEST_P(RomulusLanes, BackendsThatRunThemInLanes) {
  const std::string& backend = GetParam().backend;
  EXPECT_TRUE(lwc::batch::has_lanes("romulus-n", backend));
  for (const char* name : {"romulus-m", "romulus-t", "romulus-h"})
    EXPECT_EQ(lwc::batch::has_lanes(name, backend), backend != "portable") << name;
}

// The jobs of one test batch and the core's results for them.
struct batch {
  std::vector<bytes> key, nonce, ad, pt, want_ct, want_tag;
};

batch make_batch(const lwc::algorithm& a, std::mt19937_64& rng) {
  batch b;
  for (std::size_t m : edge_lengths(true)) {
    for (std::size_t d : edge_lengths(false)) {
      // The long messages with a few associated-data lengths only, to keep the run short.
      if (m > 96 && d % 16 > 1) continue;
      b.key.push_back(random_bytes(rng, a.key_size));
      b.nonce.push_back(random_bytes(rng, a.nonce_size));
      b.ad.push_back(random_bytes(rng, d));
      b.pt.push_back(random_bytes(rng, m));
    }
  }
  const std::size_t n = b.key.size();
  for (std::size_t i = n; i > 1; --i) {
    const std::size_t j = rng() % i;
    for (std::vector<bytes>* f : {&b.key, &b.nonce, &b.ad, &b.pt}) std::swap((*f)[i - 1], (*f)[j]);
  }
  b.want_ct.resize(n);
  b.want_tag.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    b.want_ct[i].resize(b.pt[i].size());
    b.want_tag[i].resize(a.tag_size);
    lwc::aead_encrypt(a, b.key[i], b.nonce[i], b.ad[i], b.pt[i], b.want_ct[i], b.want_tag[i], {});
  }
  return b;
}

TEST_P(RomulusLanes, AeadEqualsCoreAtEveryEdge) {
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const batch b = make_batch(a, rng);
    const std::size_t n = b.key.size();
    std::vector<bytes> ct(n), tag(n);
    std::vector<lwc::batch::aead_job> jobs;
    for (std::size_t i = 0; i < n; ++i) {
      ct[i].assign(b.pt[i].size(), 0xee);
      tag[i].assign(a.tag_size, 0xee);
      jobs.push_back({b.key[i], b.nonce[i], b.ad[i], b.pt[i], ct[i], tag[i], {}});
    }
    lwc::batch::encrypt(name, jobs, a.tag_size, opt());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ct[i], b.want_ct[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
      ASSERT_EQ(tag[i], b.want_tag[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    }

    for (std::size_t i = 0; i < n; i += 3) tag[i][i % a.tag_size] ^= 0x01;
    std::vector<bytes> back(n);
    std::vector<lwc::batch::aead_job> djobs;
    for (std::size_t i = 0; i < n; ++i) {
      back[i].assign(b.pt[i].size(), 0xee);
      djobs.push_back({b.key[i], b.nonce[i], b.ad[i], ct[i], back[i], tag[i], {}});
    }
    std::vector<std::uint8_t> ok(n, 7);
    EXPECT_EQ(lwc::batch::decrypt(name, djobs, ok, a.tag_size, opt()), n - (n + 2) / 3);
    for (std::size_t i = 0; i < n; ++i) {
      const bool forged = i % 3 == 0;
      ASSERT_EQ(ok[i], forged ? 0 : 1) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
      ASSERT_EQ(back[i], forged ? bytes(b.pt[i].size(), 0) : b.pt[i])
          << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    }
  }
}

// Output over input: Romulus-M's encryption reads the plaintext for its MAC before the lanes
// overwrite it, and its decryption reads the plaintext back for the MAC after they wrote it;
// Romulus-T's decryption hashes the ciphertext for its tag before the lanes overwrite it.
TEST_P(RomulusLanes, InPlaceBothWays) {
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const batch b = make_batch(a, rng);
    const std::size_t n = b.key.size();
    std::vector<bytes> buf = b.pt, tag(n, bytes(a.tag_size));
    std::vector<lwc::batch::aead_job> jobs;
    for (std::size_t i = 0; i < n; ++i)
      jobs.push_back({b.key[i], b.nonce[i], b.ad[i], buf[i], buf[i], tag[i], {}});
    lwc::batch::encrypt(name, jobs, a.tag_size, opt());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(buf[i], b.want_ct[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
      ASSERT_EQ(tag[i], b.want_tag[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    }
    std::vector<std::uint8_t> ok(n, 7);
    EXPECT_EQ(lwc::batch::decrypt(name, jobs, ok, a.tag_size, opt()), n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(buf[i], b.pt[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
  }
}

// Every length from 0 to 129 bytes (each edge of the 32-byte block, and the last block full,
// partial or empty) and a few long ones, shuffled into one batch, so that groups mix lengths
// and lanes refill while others still run.
TEST_P(RomulusLanes, HashEqualsCoreAtEveryLength) {
  const lwc::algorithm& a = lwc::get_algorithm("romulus-h");
  std::vector<bytes> msg;
  for (std::size_t len = 0; len <= 129; ++len) msg.push_back(random_bytes(rng, len));
  for (std::size_t len : {255, 1024, 4099, 16384}) msg.push_back(random_bytes(rng, len));
  for (std::size_t i = msg.size(); i > 1; --i) std::swap(msg[i - 1], msg[rng() % i]);
  std::vector<bytes> out(msg.size(), bytes(a.output_size, 0xee));
  std::vector<lwc::batch::hash_job> jobs;
  for (std::size_t i = 0; i < msg.size(); ++i) jobs.push_back({msg[i], out[i]});
  lwc::batch::hash(a, jobs, opt());
  for (std::size_t i = 0; i < msg.size(); ++i) {
    bytes want(a.output_size);
    lwc::digest(a, msg[i], want, {}, {});
    ASSERT_EQ(out[i], want) << msg[i].size() << " bytes";
  }
}

std::vector<config> configs() {
  std::vector<config> c;
  for (std::string_view b : lwc::batch::available_backends())
    for (unsigned t : {1u, 2u, 3u}) c.push_back({std::string(b), t});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Backends, RomulusLanes, ::testing::ValuesIn(configs()),
                         [](const ::testing::TestParamInfo<config>& p) {
                           return p.param.backend + "_" + std::to_string(p.param.threads) +
                                  "threads";
                         });

}  // namespace
