// SPDX-License-Identifier: MIT OR Apache-2.0
// Romulus' host paths of SKINNY-128-384+ give the same bytes: the portable code, the vector
// rounds compiled for AVX2, and the same compiled for AVX-512VL with GFNI (tweakey schedules
// and the counter word stepped with gf2p8affineqb), each selected in turn where the CPU runs
// it (on such a machine the KAT files only reach the AVX-512 path and, under
// LWC_FORCE_PORTABLE=1, the portable one). Every Romulus algorithm of the registry, random
// keys and inputs of random lengths with associated data across the two-blocks-per-call edges,
// one-shot and incremental hashing, and a tampered ciphertext.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <lwc/lwc.hpp>
#include <lwc/romulus/common.hpp>

#include "support/code_paths.hpp"
#include "support/kat_reader.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
namespace ro = lwc::romulus;

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

using use_path = lwc::test::use_path<ro::detail::path>;

std::vector<ro::implementation> runnable_paths() {
  ro::force_portable(false);
  const ro::implementation best = ro::default_implementation();
  std::vector<ro::implementation> v{ro::implementation::portable};
  if (best == ro::implementation::avx2 || best == ro::implementation::avx512)
    v.push_back(ro::implementation::avx2);
  if (best == ro::implementation::avx512) v.push_back(ro::implementation::avx512);
  return v;
}

std::vector<const lwc::algorithm*> romulus_algorithms() {
  std::vector<const lwc::algorithm*> v;
  for (const auto& a : lwc::algorithms())
    if (a.name.substr(0, 8) == "romulus-") v.push_back(&a);
  return v;
}

std::string param_name(const ::testing::TestParamInfo<const lwc::algorithm*>& param_info) {
  return lwc::test::algorithm_param_name(param_info);
}

class RomulusPaths : public ::testing::TestWithParam<const lwc::algorithm*> {};

TEST(RomulusPathsList, RegistryHasTheFourVariants) { EXPECT_EQ(romulus_algorithms().size(), 4u); }

TEST_P(RomulusPaths, EveryPathGivesTheSameBytes) {
  const lwc::algorithm& a = *GetParam();
  const std::vector<ro::implementation> paths = runnable_paths();
  std::mt19937_64 rng(std::hash<std::string_view>{}(a.name));
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t len = trial < 4 ? std::size_t(trial) * 16 : rng() % 300;
    const bytes key = random_bytes(rng, a.key_size), msg = random_bytes(rng, len);
    if (a.is_aead()) {
      const bytes nonce = random_bytes(rng, a.nonce_size);
      const bytes ad = random_bytes(rng, trial % 5 == 0 ? 32 * (rng() % 4) : rng() % 100);
      bytes ct_ref, tag_ref;
      for (const ro::implementation path : paths) {
        const use_path use(path);
        ASSERT_EQ(ro::active_implementation(), path);
        bytes ct(len), tag(a.tag_size), back(len, 0xaa);
        lwc::aead_encrypt(a, key, nonce, ad, msg, ct, tag);
        ASSERT_TRUE(lwc::aead_decrypt(a, key, nonce, ad, ct, tag, back));
        ASSERT_EQ(back, msg);
        if (path == ro::implementation::portable) {
          ct_ref = ct, tag_ref = tag;
          continue;
        }
        ASSERT_EQ(ct, ct_ref) << "path " << int(path) << ", " << len << " bytes, ad " << ad.size();
        ASSERT_EQ(tag, tag_ref) << "path " << int(path) << ", " << len << " bytes";
        if (len != 0) {
          ct[rng() % len] ^= 0x01;
          ASSERT_FALSE(lwc::aead_decrypt(a, key, nonce, ad, ct, tag, back));
          ASSERT_EQ(back, bytes(len, 0));
        }
      }
    } else {
      const std::size_t split = rng() % (len + 1);
      bytes ref;
      for (const ro::implementation path : paths) {
        const use_path use(path);
        bytes one_shot(a.output_size), pieces(a.output_size);
        lwc::digest(a, msg, one_shot, key);
        lwc::hasher h(a, key);
        h.update({msg.data(), split});
        h.update({msg.data() + split, len - split});
        h.squeeze(pieces);
        ASSERT_EQ(pieces, one_shot) << "path " << int(path) << ", split " << split;
        if (path == ro::implementation::portable) ref = one_shot;
        else ASSERT_EQ(one_shot, ref) << "path " << int(path) << ", " << len << " bytes";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, RomulusPaths, ::testing::ValuesIn(romulus_algorithms()),
                         param_name);

}  // namespace
