// SPDX-License-Identifier: MIT OR Apache-2.0
// Each backend's lane-parallel permutation against the core's p^12, p^8, p^6, on random
// states, including counts that leave lanes of the last group empty.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <lwc/ascon/permutation.hpp>

#include "dispatch.hpp"

namespace {

template <int R>
lwc::ascon::state core(lwc::ascon::state s) {
  lwc::ascon::permute<R>(s);
  return s;
}

TEST(LanePermutation, EveryBackendEqualsCore) {
  std::mt19937_64 rng(12);
  for (const lwc::batch::detail::backend_ops* b : lwc::batch::detail::runnable_backends()) {
    for (std::size_t count : {1, 7, 8, 9, 33}) {
      for (int rounds : {12, 8, 6}) {
        std::vector<std::uint64_t> st(5 * count);
        for (auto& w : st) w = rng();
        const std::vector<std::uint64_t> before = st;
        b->permute(st.data(), count, rounds);
        for (std::size_t i = 0; i < count; ++i) {
          lwc::ascon::state s{{before[5 * i], before[5 * i + 1], before[5 * i + 2],
                               before[5 * i + 3], before[5 * i + 4]}};
          s = rounds == 12 ? core<12>(s) : rounds == 8 ? core<8>(s) : core<6>(s);
          for (int w = 0; w < 5; ++w)
            ASSERT_EQ(st[5 * i + w], s.x[w])
                << b->name << ", p^" << rounds << ", state " << i << " of " << count;
        }
      }
    }
  }
}

}  // namespace
