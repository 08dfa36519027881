// SPDX-License-Identifier: MIT OR Apache-2.0
// The checks shared by the emulation tests and the GPU tests: a batch is run by some engine
// (the host emulation, the device-pointer API, the host-memory API) and every output byte,
// tag, verdict and guard is compared with the portable core's results.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

#include "cases.hpp"
#include "kat_cases.hpp"

namespace lwc::cuda::test {

inline std::string algo_param_name(const ::testing::TestParamInfo<const algo_info*>& p) {
  std::string s(p.param->name);
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// Runs case `c` in the given direction: reads c.in (and c.tags when decrypting), writes
// c.out_data() and c.tags (encryption) or `ok` (decryption).
using aead_runner = std::function<void(aead_case& c, bool decrypt, std::uint8_t* ok)>;
using sponge_runner = std::function<void(sponge_case& c)>;

inline std::size_t first_mismatch(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return i;
  return n;
}

// Job holding byte `at` of the packed layout (offsets non-decreasing).
inline std::size_t job_of(const std::vector<std::size_t>& off, std::size_t at) {
  return static_cast<std::size_t>(std::upper_bound(off.begin(), off.end(), at) - off.begin()) - 1;
}

inline void expect_bytes(const std::uint8_t* got, const std::uint8_t* want, std::size_t n,
                         const std::vector<std::size_t>& off, const char* what) {
  const std::size_t at = first_mismatch(got, want, n);
  EXPECT_EQ(at, n) << what << ": first wrong byte at offset " << at + off.front() << " (job "
                   << job_of(off, at + off.front()) << ")";
}

// Encrypts the batch, compares, then decrypts it with about one job in eight tampered (one
// bit of its ciphertext, tag, associated data, nonce, key or second key flipped): exactly
// those must fail, with their output zeroed, and the others must give back the plaintext.
inline void check_aead(aead_case& c, const aead_runner& run, std::uint64_t seed) {
  const std::size_t n = c.n(), tag_len = c.shape.tag_len;
  const std::size_t begin = c.in_off.front(), end = c.in_off.back();
  const bytes out_before = c.shape.in_place ? c.pt : c.out.to_vector();

  run(c, false, nullptr);
  std::uint8_t* out = c.out_data();
  expect_bytes(out + begin, c.expect_ct.data() + begin, end - begin, c.in_off, "ciphertext");
  EXPECT_EQ(first_mismatch(out, out_before.data(), begin), begin) << "bytes before offsets[0] changed";
  expect_bytes(c.tags.data(), c.expect_tags.data(), n * tag_len, {0}, "tags");
  EXPECT_TRUE(c.in.guard_intact() && c.tags.guard_intact() &&
              (c.shape.in_place || c.out.guard_intact()))
      << "a write landed in front of a buffer";
  if (::testing::Test::HasFailure()) return;

  // Decryption input: the expected ciphertexts and tags, then the tampering.
  std::memcpy(c.in.data(), c.expect_ct.data(), c.in.size());
  if (c.in.size() != 0 && begin != 0) std::memcpy(c.in.data(), c.pt.data(), begin);
  std::memcpy(c.tags.data(), c.expect_tags.data(), c.tags.size());
  if (!c.shape.in_place) std::memset(c.out.data(), 0x5C, c.out.size());
  std::mt19937_64 g(seed);
  std::set<std::size_t> bad;
  for (std::size_t i = 0; i < n; ++i) {
    if (g() % 8 != 0) continue;
    const std::size_t ad_len = c.ad_off.empty() ? 0 : c.ad_off[i + 1] - c.ad_off[i];
    const unsigned bit = static_cast<unsigned>(g() % 8);
    const auto flip = [&](std::uint8_t* p, std::size_t len) {
      p[g() % len] ^= static_cast<std::uint8_t>(1u << bit);
    };
    switch (g() % 6) {
      case 0:
        if (c.len(i) == 0) continue;
        flip(c.in.data() + c.in_off[i], c.len(i));
        break;
      case 1:
        flip(c.tags.data() + i * tag_len, tag_len);
        break;
      case 2:
        if (ad_len == 0) continue;
        flip(c.ad.data() + c.ad_off[i], ad_len);
        break;
      case 3:
        flip(c.nonces.data() + c.alg->nonce_size * i, c.alg->nonce_size);
        break;
      case 4:
        flip(c.keys.data() + c.alg->key_size * i, c.alg->key_size);
        break;
      default:
        if (!c.shape.masking) continue;
        flip(c.second_keys.data() + 16 * i, 16);
        break;
    }
    bad.insert(i);
  }
  const bytes dec_before = c.shape.in_place ? c.in.to_vector() : c.out.to_vector();
  std::vector<std::uint8_t> ok(n, 0x77);
  run(c, true, ok.data());
  out = c.out_data();
  bytes want(c.pt);
  for (std::size_t i : bad) std::fill(want.begin() + static_cast<long>(c.in_off[i]),
                                      want.begin() + static_cast<long>(c.in_off[i + 1]), 0);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_EQ(ok[i], bad.count(i) ? 0 : 1) << "verdict of job " << i << " (length " << c.len(i) << ")";
  expect_bytes(out + begin, want.data() + begin, end - begin, c.in_off, "plaintext");
  EXPECT_EQ(first_mismatch(out, dec_before.data(), begin), begin) << "bytes before offsets[0] changed";
  EXPECT_TRUE(c.in.guard_intact() && (c.shape.in_place || c.out.guard_intact()))
      << "a write landed in front of a buffer";
}

inline void check_sponge(sponge_case& c, const sponge_runner& run) {
  run(c);
  const std::size_t total = c.n * c.out_len;
  const std::size_t at = first_mismatch(c.out.data(), c.expect.data(), total);
  EXPECT_EQ(at, total) << c.alg->name << ": first wrong output byte " << at << " (job "
                       << (c.out_len ? at / c.out_len : 0) << ", output length " << c.out_len << ")";
  EXPECT_TRUE(c.out.guard_intact() && c.in.guard_intact()) << "a write landed in front of a buffer";
}

// Shapes of random AEAD batches: job counts around the warp size and the refill boundaries,
// every alignment class of inputs, outputs, associated data and per-job arrays, in-place
// operation, truncated tags and nonce masking where the algorithm has them (tag lengths are
// clamped to the algorithm's range).
inline std::vector<aead_shape> aead_shapes(const algo_info& alg) {
  std::vector<aead_shape> v;
  const std::size_t tags[] = {16, alg.min_tag_size, 13, 8};
  unsigned k = 0;
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33},
                        std::size_t{100}, std::size_t{257}}) {
    for (unsigned variant = 0; variant < 4; ++variant, ++k) {
      aead_shape s;
      s.n = n;
      s.max_len = variant == 3 ? 3000 : 1100;
      s.with_ad = variant != 1;
      s.shift_in = (k * 5) % 16;
      s.shift_out = (k * 3 + variant) % 16;
      s.shift_ad = (k * 7) % 16;
      s.shift_meta = variant == 2 ? 1 + k % 3 : (variant == 3 ? 8 : 0);
      s.first_offset = variant == 2 ? 1 + k % 17 : 0;
      s.in_place = variant == 1;
      s.masking = (alg.second_key_size != 0) && variant >= 2;
      const std::size_t t = tags[(k + variant) % 4];
      s.tag_len = t < alg.min_tag_size ? alg.min_tag_size : t > alg.max_tag_size ? alg.max_tag_size : t;
      v.push_back(s);
    }
  }
  // Lengths at and around the staging size (256 bytes per lane per step) and its multiples.
  aead_shape edge;
  edge.n = 90;
  edge.tag_len = alg.max_tag_size;
  edge.lengths = {0, 1, 7, 8, 9, 15, 16, 17, 255, 256, 257, 511, 512, 513, 767, 768, 1024, 1040};
  edge.ad_lengths = {0, 1, 8, 16, 255, 256, 257, 0, 512, 3, 16, 24};
  edge.shift_in = 3;
  edge.shift_out = 14;
  v.push_back(edge);
  edge.shift_in = 0;
  edge.shift_out = 0;
  edge.shift_ad = 0;
  v.push_back(edge);
  return v;
}

}  // namespace lwc::cuda::test
