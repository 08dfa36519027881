// SPDX-License-Identifier: MIT OR Apache-2.0
// The PHOTON-Beetle and ISAP-K lane kernels against their single-message cores, on every
// backend this CPU runs, with one to three threads: associated data and messages at and around
// the lengths where the kernels change course (multiples of the rates 4, 16 and 18, PHOTON-
// Beetle-Hash's 16-byte first block), every pair of them in one batch in shuffled order, plus
// long messages; decryption of the same batch with some tags flipped (those jobs fail and are
// zeroed, the others verify). On a backend without the kernel the same checks run job by job.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "lanes_test_support.hpp"

namespace {

using namespace lanes_test;

constexpr const char* aeads[] = {"photon-beetle-aead128", "photon-beetle-aead32", "isap-k-128a",
                                 "isap-k-128"};

// 0..5 and every multiple of the rates 4, 16 and 18 up to 72 with its neighbours, then a few
// long ones.
std::vector<std::size_t> edge_lengths(bool with_long) {
  std::vector<std::size_t> v{0, 1, 2, 3, 4, 5};
  for (std::size_t rate : {4, 16, 18})
    for (std::size_t k = rate; k <= 72; k += rate)
      for (std::size_t n : {k - 1, k, k + 1}) v.push_back(n);
  if (with_long)
    for (std::size_t n : {300, 1024, 4099}) v.push_back(n);
  return sorted_unique(v);
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
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    // The long messages with a few associated-data lengths only, to keep the run short.
    const auto keep = [](std::size_t m, std::size_t d) { return m <= 300 || d % 16 <= 2; };
    check_aead_batch(a, make_aead_batch(a, rng, edge_lengths(true), edge_lengths(false), keep),
                     opt());
  }
}

TEST_P(PhotonIsapLanes, HashEqualsCoreAtEveryLength) {
  check_hash_every_length(lwc::get_algorithm("photon-beetle-hash"), rng, 80, {255, 1024, 4099},
                          opt());
}

INSTANTIATE_TEST_SUITE_P(Backends, PhotonIsapLanes, ::testing::ValuesIn(configs()), config_name);

}  // namespace
