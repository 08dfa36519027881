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

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "lanes_test_support.hpp"

namespace {

using namespace lanes_test;

constexpr const char* aeads[] = {"romulus-n", "romulus-m", "romulus-t"};

// 0..3 and every multiple of 16 up to 96 with its neighbours, then (with_long) a few long ones.
std::vector<std::size_t> edge_lengths(bool with_long) {
  std::vector<std::size_t> v{0, 1, 2, 3};
  for (std::size_t k = 16; k <= 96; k += 16)
    for (std::size_t n : {k - 1, k, k + 1}) v.push_back(n);
  if (with_long)
    for (std::size_t n : {300, 1024, 4099}) v.push_back(n);
  return sorted_unique(v);
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

aead_batch make_batch(const lwc::algorithm& a, std::mt19937_64& rng) {
  // The long messages with a few associated-data lengths only, to keep the run short.
  return make_aead_batch(a, rng, edge_lengths(true), edge_lengths(false),
                         [](std::size_t m, std::size_t d) { return m <= 96 || d % 16 <= 1; });
}

TEST_P(RomulusLanes, AeadEqualsCoreAtEveryEdge) {
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    check_aead_batch(a, make_batch(a, rng), opt());
  }
}

// Output over input: Romulus-M's encryption reads the plaintext for its MAC before the lanes
// overwrite it, and its decryption reads the plaintext back for the MAC after they wrote it;
// Romulus-T's decryption hashes the ciphertext for its tag before the lanes overwrite it.
TEST_P(RomulusLanes, InPlaceBothWays) {
  for (const char* name : aeads) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    check_aead_in_place(a, make_batch(a, rng), opt());
  }
}

// Every length from 0 to 129 bytes (each edge of the 32-byte block, and the last block full,
// partial or empty) and a few long ones.
TEST_P(RomulusLanes, HashEqualsCoreAtEveryLength) {
  check_hash_every_length(lwc::get_algorithm("romulus-h"), rng, 129, {255, 1024, 4099, 16384},
                          opt());
}

INSTANTIATE_TEST_SUITE_P(Backends, RomulusLanes, ::testing::ValuesIn(configs()), config_name);

}  // namespace
