// SPDX-License-Identifier: MIT OR Apache-2.0
// The PHOTON-Beetle and ISAP-K lane kernels against their single-message cores, on every
// backend this CPU runs, with one to three threads: associated data and messages at and around
// the lengths where the kernels change course (multiples of the rates 4, 16 and 18, PHOTON-
// Beetle-Hash's 16-byte first block), every pair of them in one batch in shuffled order, plus
// long messages; decryption of the same batch with some tags flipped (those jobs fail and are
// zeroed, the others verify). On a backend without the kernel the same checks run job by job.
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

constexpr const char* aeads[] = {"photon-beetle-aead128", "photon-beetle-aead32", "isap-k-128a",
                                 "isap-k-128"};
constexpr const char* hashes[] = {"photon-beetle-hash"};

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// 0..5 and every multiple of the rates 4, 16 and 18 up to 72 with its neighbours, then a few
// long ones.
std::vector<std::size_t> edge_lengths(bool with_long) {
  std::vector<std::size_t> v{0, 1, 2, 3, 4, 5};
  for (std::size_t rate : {4, 16, 18})
    for (std::size_t k = rate; k <= 72; k += rate)
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

class PhotonIsapLanes : public ::testing::TestWithParam<config> {
 protected:
  lwc::batch::options opt() const { return {GetParam().threads, GetParam().backend}; }
  std::mt19937_64 rng{0x70686f74u + GetParam().threads * 131u +
                      static_cast<unsigned>(GetParam().backend.size())};
};

// ISAP-K runs in lanes on every backend; PHOTON-Beetle on AVX-512 only (on AVX2 and portable
// its lanes were slower than job by job over the core's GFNI code, so those have no kernel).
TEST_P(PhotonIsapLanes, BackendsThatRunThemInLanes) {
  const std::string& backend = GetParam().backend;
  for (const char* name : {"isap-k-128a", "isap-k-128"})
    EXPECT_TRUE(lwc::batch::has_lanes(name, backend)) << name;
  for (const char* name : {"photon-beetle-aead128", "photon-beetle-aead32", "photon-beetle-hash"}) {
    if (backend == "avx512") {
      EXPECT_TRUE(lwc::batch::has_lanes(name, backend)) << name;
    } else if (backend == "avx2" || backend == "portable") {
      EXPECT_FALSE(lwc::batch::has_lanes(name, backend)) << name;
    }
  }
}

TEST_P(PhotonIsapLanes, AeadEqualsCoreAtEveryEdge) {
  const std::vector<std::size_t> ad_lens = edge_lengths(false), msg_lens = edge_lengths(true);
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    std::vector<bytes> key, nonce, ad, pt;
    for (std::size_t m : msg_lens) {
      for (std::size_t d : ad_lens) {
        // The long messages with a few associated-data lengths only, to keep the run short.
        if (m > 300 && d % 16 > 2) continue;
        key.push_back(random_bytes(rng, a.key_size));
        nonce.push_back(random_bytes(rng, a.nonce_size));
        ad.push_back(random_bytes(rng, d));
        pt.push_back(random_bytes(rng, m));
      }
    }
    const std::size_t n = key.size();
    for (std::size_t i = n; i > 1; --i) {
      const std::size_t j = rng() % i;
      for (std::vector<bytes>* f : {&key, &nonce, &ad, &pt}) std::swap((*f)[i - 1], (*f)[j]);
    }
    std::vector<bytes> want_ct(n), want_tag(n), ct(n), tag(n);
    for (std::size_t i = 0; i < n; ++i) {
      want_ct[i].resize(pt[i].size());
      want_tag[i].resize(a.tag_size);
      lwc::aead_encrypt(a, key[i], nonce[i], ad[i], pt[i], want_ct[i], want_tag[i], {});
      ct[i].assign(pt[i].size(), 0xee);
      tag[i].assign(a.tag_size, 0xee);
    }
    std::vector<lwc::batch::aead_job> jobs;
    for (std::size_t i = 0; i < n; ++i)
      jobs.push_back({key[i], nonce[i], ad[i], pt[i], ct[i], tag[i], {}});
    lwc::batch::encrypt(name, jobs, a.tag_size, opt());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ct[i], want_ct[i]) << "ad " << ad[i].size() << ", msg " << pt[i].size();
      ASSERT_EQ(tag[i], want_tag[i]) << "ad " << ad[i].size() << ", msg " << pt[i].size();
    }

    for (std::size_t i = 0; i < n; i += 3) tag[i][i % a.tag_size] ^= 0x01;
    std::vector<bytes> back(n);
    for (std::size_t i = 0; i < n; ++i) back[i].assign(pt[i].size(), 0xee);
    std::vector<lwc::batch::aead_job> djobs;
    for (std::size_t i = 0; i < n; ++i)
      djobs.push_back({key[i], nonce[i], ad[i], ct[i], back[i], tag[i], {}});
    std::vector<std::uint8_t> ok(n, 7);
    EXPECT_EQ(lwc::batch::decrypt(name, djobs, ok, a.tag_size, opt()), n - (n + 2) / 3);
    for (std::size_t i = 0; i < n; ++i) {
      const bool forged = i % 3 == 0;
      ASSERT_EQ(ok[i], forged ? 0 : 1) << "ad " << ad[i].size() << ", msg " << pt[i].size();
      ASSERT_EQ(back[i], forged ? bytes(pt[i].size(), 0) : pt[i])
          << "ad " << ad[i].size() << ", msg " << pt[i].size();
    }
  }
}

TEST_P(PhotonIsapLanes, HashEqualsCoreAtEveryLength) {
  for (const char* name : hashes) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    std::vector<bytes> msg;
    for (std::size_t len = 0; len <= 80; ++len) msg.push_back(random_bytes(rng, len));
    for (std::size_t len : {255, 1024, 4099}) msg.push_back(random_bytes(rng, len));
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
}

std::vector<config> configs() {
  std::vector<config> c;
  for (std::string_view b : lwc::batch::available_backends())
    for (unsigned t : {1u, 2u, 3u}) c.push_back({std::string(b), t});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Backends, PhotonIsapLanes, ::testing::ValuesIn(configs()),
                         [](const ::testing::TestParamInfo<config>& p) {
                           return p.param.backend + "_" + std::to_string(p.param.threads) +
                                  "threads";
                         });

}  // namespace
