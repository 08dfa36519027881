// SPDX-License-Identifier: MIT OR Apache-2.0
// Elephant's host paths give the same bytes as its one-block-at-a-time form (run_blockwise, the
// form of constant evaluation and device code): the batched calls 256 at a time in AVX2 words
// (avx2), 64 at a time in 64-bit words with single calls through pext (bmi2), and the portable
// code, for messages and associated data long enough to fill several batches of each width
// and partial ones. The KAT files (32-byte messages at most) never reach a full batch.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include <lwc/elephant/elephant.hpp>

#include "support/code_paths.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
namespace el = lwc::elephant;

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

using use_path = lwc::test::use_path<el::detail::path>;

std::vector<el::implementation> runnable_paths() {
  el::force_portable(false);
  const el::implementation best = el::default_implementation();
  std::vector<el::implementation> v{el::implementation::portable};
  if (best == el::implementation::bmi2 || best == el::implementation::avx2)
    v.push_back(el::implementation::bmi2);
  if (best == el::implementation::avx2) v.push_back(el::implementation::avx2);
  return v;
}

template <class Traits>
void check_paths(std::uint64_t seed) {
  using mode = el::detail::mode<Traits>;
  constexpr std::size_t B = mode::B, T = Traits::tag_bytes;
  std::mt19937_64 rng(seed);
  // Batch edges of both widths, counted in blocks (each block is two calls: key stream and
  // authentication), and random lengths.
  std::vector<std::size_t> lengths{0, 1, B - 1, B, 11 * B + 3, 63 * B, 64 * B, 64 * B + 1,
                                   128 * B - 1, 255 * B, 256 * B, 256 * B + 5, 300 * B + 7};
  for (int i = 0; i < 8; ++i) lengths.push_back(rng() % (700 * B));
  for (const std::size_t len : lengths) {
    const bytes key = random_bytes(rng, 16), nonce = random_bytes(rng, 12);
    const bytes ad = random_bytes(rng, rng() % 3 ? rng() % (80 * B) : 300 * B + 1);
    const bytes pt = random_bytes(rng, len);
    bytes ct_ref(len), tag_ref(T);
    mode::template run_blockwise<false>(key.data(), nonce.data(), ad.data(), ad.size(), pt.data(),
                                        len, ct_ref.data(), tag_ref.data());
    for (const el::implementation path : runnable_paths()) {
      const use_path use(path);
      ASSERT_EQ(el::active_implementation(), path);
      bytes ct(len), tag(T), back(len), tag_back(T);
      mode::template run<false>(key.data(), nonce.data(), ad.data(), ad.size(), pt.data(), len,
                                ct.data(), tag.data());
      EXPECT_EQ(ct, ct_ref) << "path " << static_cast<int>(path) << ", " << len << " bytes";
      EXPECT_EQ(tag, tag_ref) << "path " << static_cast<int>(path) << ", " << len << " bytes";
      mode::template run<true>(key.data(), nonce.data(), ad.data(), ad.size(), ct.data(), len,
                               back.data(), tag_back.data());
      EXPECT_EQ(back, pt) << "path " << static_cast<int>(path) << ", " << len << " bytes";
      EXPECT_EQ(tag_back, tag_ref) << "path " << static_cast<int>(path) << ", " << len << " bytes";
    }
  }
}

TEST(ElephantPaths, DumboAllPathsEqualBlockwise) { check_paths<el::detail::dumbo_traits>(1); }
TEST(ElephantPaths, JumboAllPathsEqualBlockwise) { check_paths<el::detail::jumbo_traits>(2); }
TEST(ElephantPaths, DeliriumAllPathsEqualBlockwise) { check_paths<el::detail::delirium_traits>(3); }

// The path this CPU should get, and that the test above really switched between paths.
TEST(ElephantPaths, DefaultIsTheFastestRunnable) {
  el::force_portable(false);
  const auto paths = runnable_paths();
  const char* env = std::getenv("LWC_FORCE_PORTABLE");
  if (env != nullptr && env[0] == '1')
    EXPECT_EQ(el::default_implementation(), el::implementation::portable);
  else
    EXPECT_EQ(el::default_implementation(), paths.back());
}

}  // namespace
