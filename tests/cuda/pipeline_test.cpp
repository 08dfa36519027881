// The host-memory path (chunking, staging layout, offsets rebased per chunk, alignment kept,
// scatter of results) run on the emulated backend: results must equal the portable core for
// every chunk size, stream count and memory kind, with several chunks in flight.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "checks.hpp"
#include "emulated_backend.hpp"

namespace {

using namespace lwc::cuda::test;
namespace d = lwc::cuda::detail;

struct pipeline_setup {
  unsigned streams;
  std::size_t chunk_bytes;
  unsigned copy_threads;
  bool pinned;
};

const pipeline_setup setups[] = {
    {1, 4096, 1, false}, {3, 4096, 3, false}, {2, 4096, 2, true}, {3, 1u << 20, 1, true}, {4, 9000, 4, false}};

// The staging layout depends on an algorithm's sizes only (key, nonce, tag, second key; key
// and customization for hashes), not on its rounds: one algorithm of the list for each
// combination the list has.
std::vector<const d::algo_info*> one_per_layout(bool aead) {
  std::vector<const d::algo_info*> v;
  std::set<std::tuple<std::size_t, std::size_t, std::size_t, std::size_t, std::size_t, bool>> seen;
  for (const d::algo_info& a : d::algo_table) {
    if (a.aead != aead) continue;
    if (seen.insert({a.key_size, a.nonce_size, a.max_tag_size, a.second_key_size, a.max_customization,
                     a.fixed_output != 0})
            .second)
      v.push_back(&a);
  }
  return v;
}

std::string describe(const pipeline_setup& p) {
  return std::to_string(p.streams) + " streams, chunks of " + std::to_string(p.chunk_bytes) +
         " bytes, " + std::to_string(p.copy_threads) + " copy threads" + (p.pinned ? ", pinned" : "");
}

class PipelineAead : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(PipelineAead, ChunkedBatchesEqualThePortableCore) {
  const d::algo_info& alg = *GetParam();
  std::uint64_t seed = 500;
  for (const pipeline_setup& p : setups) {
    emulated_backend be;
    be.callers_memory_pinned = p.pinned;
    d::pipeline<emulated_backend> pipe(be, {p.streams, p.chunk_bytes, p.copy_threads});
    for (aead_shape s : aead_shapes(alg)) {
      if (s.n < 100) continue;
      s.max_len = 5000;  // several jobs per chunk, and jobs larger than a 4 KiB chunk
      SCOPED_TRACE(describe(p) + ", n " + std::to_string(s.n) + ", seed " + std::to_string(seed));
      aead_case c = make_aead_case(alg, s, seed);
      const std::size_t kernels_before = be.kernels;
      check_aead(
          c, [&](aead_case& x, bool decrypt, std::uint8_t* ok) {
            const d::host_aead_job_set j{&alg, decrypt, x.n(), x.shape.tag_len, x.keys.data(),
                                         x.nonces.data(), x.shape.masking ? x.second_keys.data() : nullptr,
                                         x.in.data(), x.in_off.data(),
                                         x.ad_off.empty() ? nullptr : x.ad.data(),
                                         x.ad_off.empty() ? nullptr : x.ad_off.data(), x.out_data(),
                                         x.tags.data(), ok};
            pipe.run(j);
          },
          seed * 7);
      if (p.chunk_bytes < 10000) {
        EXPECT_GT(be.kernels - kernels_before, 4u) << "expected many chunks";
      }
      ++seed;
      if (HasFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, PipelineAead, ::testing::ValuesIn(one_per_layout(true)),
                         algo_param_name);

class PipelineSponge : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(PipelineSponge, ChunkedBatchesEqualThePortableCore) {
  const d::algo_info& alg = *GetParam();
  std::uint64_t seed = 900;
  for (const pipeline_setup& p : setups) {
    emulated_backend be;
    be.callers_memory_pinned = p.pinned;
    d::pipeline<emulated_backend> pipe(be, {p.streams, p.chunk_bytes, p.copy_threads});
    for (std::size_t out_len : {std::size_t{32}, std::size_t{0}, std::size_t{300}}) {
      if (alg.fixed_output && out_len != alg.fixed_output) continue;
      SCOPED_TRACE(describe(p) + ", output " + std::to_string(out_len));
      sponge_case c = make_sponge_case(alg, 300, 5000, out_len, static_cast<unsigned>(seed % 16),
                                       static_cast<unsigned>(seed % 5), seed % 2 ? 3 : 0, seed);
      check_sponge(c, [&](sponge_case& x) {
        const bool custom = !x.custom_off.empty();
        pipe.run(d::host_sponge_job_set{&alg, x.n, x.out_len, x.in.data(), x.in_off.data(), x.out.data(),
                                        alg.key_size != 0 ? x.keys.data() : nullptr,
                                        custom ? x.custom.data() : nullptr,
                                        custom ? x.custom_off.data() : nullptr});
      });
      ++seed;
      if (HasFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, PipelineSponge, ::testing::ValuesIn(one_per_layout(false)),
                         algo_param_name);

TEST(CopyPool, CopiesEveryByteOnAnyThreadCount) {
  for (unsigned threads : {1u, 2u, 5u}) {
    d::copy_pool pool(threads);
    for (std::size_t n : {std::size_t{0}, std::size_t{10}, std::size_t{3} << 20, (std::size_t{5} << 20) + 3}) {
      std::vector<std::uint8_t> a(n + 7), b(n + 7, 0);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(i * 31 + 7);
      pool.run({{b.data() + 7, a.data(), n}, {b.data(), a.data() + n, 7}});
      EXPECT_TRUE(std::equal(b.begin() + 7, b.end(), a.begin())) << threads << " threads, " << n;
      EXPECT_TRUE(std::equal(b.begin(), b.begin() + 7, a.begin() + static_cast<long>(n)));
    }
  }
}

}  // namespace
