// SPDX-License-Identifier: MIT OR Apache-2.0
// The host-memory path (chunking, staging layout, offsets rebased per chunk, alignment kept,
// scatter of results) run on the emulated backend: results must equal the portable core for
// every chunk size, stream count and memory kind, with several chunks in flight.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <tuple>

#include "../batch/form_columns.hpp"
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
            const d::host_aead_job_set j = d::packed_job_set(&alg, decrypt, x.n(), x.shape.tag_len, x.keys.data(),
                                         x.nonces.data(), x.shape.masking ? x.second_keys.data() : nullptr,
                                         x.in.data(), x.in_off.data(),
                                         x.ad_off.empty() ? nullptr : x.ad.data(),
                                         x.ad_off.empty() ? nullptr : x.ad_off.data(), x.out_data(),
                                         x.tags.data(), ok);
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
        pipe.run(d::packed_job_set(&alg, x.n, x.out_len, x.in.data(), x.in_off.data(), x.out.data(),
                                        alg.key_size != 0 ? x.keys.data() : nullptr,
                                        custom ? x.custom.data() : nullptr,
                                        custom ? x.custom_off.data() : nullptr));
      });
      ++seed;
      if (HasFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, PipelineSponge, ::testing::ValuesIn(one_per_layout(false)),
                         algo_param_name);

// The packed job form through the pipeline: fixed and offset columns of every offset type,
// tags appended or detached, on pageable and pinned memory, against the single-message core;
// decryption from other layouts with one tampered job.
TEST(PipelineForm, EveryLayoutEqualsTheSingleMessageCore) {
  namespace f = lwc::test::form;
  std::mt19937 rng(404);
  for (const d::algo_info* alg : one_per_layout(true)) {
    const lwc::algorithm& a = *alg->entry;
    for (const bool pinned : {false, true}) {
      emulated_backend be;
      be.callers_memory_pinned = pinned;
      d::pipeline<emulated_backend> pipe(be, {3, 4096, 2});
      for (int round = 0; round < 6; ++round) {
        SCOPED_TRACE(std::string(a.name) + (pinned ? " pinned" : "") + " round " + std::to_string(round));
        const std::size_t n = 1 + rng() % 120, tag_len = a.tag_size;
        const bool same = rng() % 3 == 0, appended = rng() % 2 == 0, with_ad = rng() % 2 == 0;
        const std::size_t common = rng() % 700;
        std::vector<f::bytes> keys, nonces, ads, msgs, cts, tags, out_shape, tag_shape(n, f::bytes(tag_len));
        for (std::size_t i = 0; i < n; ++i) {
          keys.push_back(f::random_bytes(a.key_size, rng));
          nonces.push_back(f::random_bytes(a.nonce_size, rng));
          ads.push_back(f::random_bytes(with_ad ? rng() % 50 : 0, rng));
          msgs.push_back(f::random_bytes(same ? common : rng() % 700, rng));
          f::bytes ct(msgs[i].size()), tag(tag_len);
          a.encrypt(keys[i].data(), nullptr, nonces[i].data(), ads[i].data(), ads[i].size(),
                    msgs[i].data(), msgs[i].size(), ct.data(), tag.data(), tag_len);
          cts.push_back(ct);
          tags.push_back(tag);
          out_shape.emplace_back(msgs[i].size() + (appended ? tag_len : 0));
        }
        f::stored_column k = f::store(keys, f::pick(rng, true), rng);
        f::stored_column no = f::store(nonces, f::pick(rng, true), rng);
        f::stored_column ad = f::store(ads, f::pick(rng, false), rng);
        f::stored_column in = f::store(msgs, f::pick(rng, same), rng);
        f::stored_column out = f::store(out_shape, f::pick(rng, same), rng);
        f::stored_column tg = f::store(tag_shape, f::pick(rng, true), rng);
        d::host_aead_job_set j{alg, false, tag_len, {}, nullptr};
        j.form.count = n;
        j.form.keys = k.in();
        j.form.nonces = no.in();
        if (with_ad) j.form.ad = ad.in();
        j.form.in = in.in();
        j.form.out = out.out();
        j.form.tags = appended ? lwc::jobs::tag_place::appended : lwc::jobs::tag_place::detached;
        if (!appended) j.form.tags_out = tg.out();
        pipe.run(j);
        std::vector<f::bytes> sealed;
        for (std::size_t i = 0; i < n; ++i) {
          f::bytes want = cts[i], both = cts[i];
          both.insert(both.end(), tags[i].begin(), tags[i].end());
          if (appended) want = both;
          ASSERT_EQ(out.element(i), want) << "job " << i;
          if (!appended) {
            ASSERT_EQ(tg.element(i), tags[i]) << "job " << i;
          }
          sealed.push_back(both);
        }
        const bool dec_appended = rng() % 2 == 0;
        const std::size_t bad = rng() % n;
        std::vector<f::bytes> dec_in, dec_tags = tags, plain_shape;
        for (std::size_t i = 0; i < n; ++i) {
          dec_in.push_back(dec_appended ? sealed[i] : cts[i]);
          plain_shape.emplace_back(msgs[i].size(), 0xAA);
        }
        if (dec_appended) dec_in[bad].back() ^= 1;
        else dec_tags[bad][0] ^= 1;
        f::stored_column din = f::store(dec_in, f::pick(rng, same), rng);
        f::stored_column dout = f::store(plain_shape, f::pick(rng, same), rng);
        f::stored_column dtg = f::store(dec_tags, f::pick(rng, true), rng);
        std::vector<std::uint8_t> ok(n, 7);
        j.decrypt = true;
        j.ok = ok.data();
        j.form.in = din.in();
        j.form.out = dout.out();
        j.form.tags = dec_appended ? lwc::jobs::tag_place::appended : lwc::jobs::tag_place::detached;
        j.form.tags_out = {};
        if (!dec_appended) j.form.tags_in = dtg.in();
        pipe.run(j);
        for (std::size_t i = 0; i < n; ++i) {
          EXPECT_EQ(ok[i], i == bad ? 0 : 1) << "job " << i;
          EXPECT_EQ(dout.element(i), i == bad ? f::bytes(msgs[i].size(), 0) : msgs[i]) << "job " << i;
        }
        EXPECT_TRUE(be.all_buffers_zero());
        if (HasFailure()) return;
      }
    }
  }
  // Hashes: columns of every layout, one output length per batch.
  for (const d::algo_info* alg : one_per_layout(false)) {
    const lwc::algorithm& a = *alg->entry;
    emulated_backend be;
    d::pipeline<emulated_backend> pipe(be, {2, 4096, 2});
    SCOPED_TRACE(a.name);
    const std::size_t n = 1 + rng() % 150, out_len = alg->fixed_output ? alg->fixed_output : 1 + rng() % 80;
    const bool custom = alg->max_customization != 0;
    std::vector<f::bytes> ins, keys, customs, outs(n, f::bytes(out_len));
    for (std::size_t i = 0; i < n; ++i) {
      ins.push_back(f::random_bytes(std::min<std::size_t>(rng() % 900, a.max_input_size), rng));
      keys.push_back(f::random_bytes(a.is_keyed() ? a.key_size : 0, rng));
      customs.push_back(f::random_bytes(custom ? std::min<std::size_t>(rng() % 40, a.max_customization_size) : 0, rng));
    }
    f::stored_column in = f::store(ins, f::pick(rng, false), rng);
    f::stored_column out = f::store(outs, f::pick(rng, true), rng);
    f::stored_column k = f::store(keys, f::pick(rng, true), rng);
    f::stored_column c = f::store(customs, f::pick(rng, false), rng);
    d::host_sponge_job_set j{alg, out_len, {}};
    j.form.count = n;
    j.form.in = in.in();
    j.form.out = out.out();
    if (a.is_keyed()) j.form.keys = k.in();
    if (custom) j.form.customization = c.in();
    pipe.run(j);
    alignas(8) std::uint8_t st[lwc::max_hash_state_size];
    for (std::size_t i = 0; i < n; ++i) {
      f::bytes want(out_len);
      a.init(st, a.is_keyed() ? keys[i].data() : nullptr, customs[i].data(), customs[i].size());
      a.absorb(st, ins[i].data(), ins[i].size());
      a.squeeze(st, want.data(), want.size());
      a.destroy(st);
      ASSERT_EQ(out.element(i), want) << "job " << i;
    }
  }
}

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

// ---- staging buffers hold secrets: wiped after each batch, bounded in number, sane options ----

namespace wiping {

using namespace lwc::cuda::test;
namespace d = lwc::cuda::detail;

// One AEAD batch (keys, nonces, plaintext) through `pipe`, encrypting.
void run_aead_batch(d::pipeline<emulated_backend>& pipe, aead_case& c) {
  const d::algo_info& alg = *c.alg;
  pipe.run(d::packed_job_set(&alg, false, c.n(), c.shape.tag_len, c.keys.data(), c.nonces.data(),
                                nullptr, c.in.data(), c.in_off.data(),
                                c.ad_off.empty() ? nullptr : c.ad.data(),
                                c.ad_off.empty() ? nullptr : c.ad_off.data(), c.out_data(),
                                c.tags.data(), nullptr));
}

aead_case small_case(std::size_t n, std::size_t max_len, std::uint64_t seed) {
  aead_shape s;
  s.n = n;
  s.max_len = max_len;
  return make_aead_case(*d::find_algo("ascon-aead128"), s, seed);
}

TEST(PipelineWipe, StagingBuffersAreZeroAfterEveryBatch) {
  for (const bool pinned : {false, true}) {
    SCOPED_TRACE(pinned ? "caller's memory pinned" : "pageable");
    emulated_backend be;
    be.callers_memory_pinned = pinned;
    d::pipeline<emulated_backend> pipe(be, {2, 4096, 2});
    // A small batch, then larger ones: the buffers grow, and the outgrown ones are freed.
    std::uint64_t seed = 1;
    for (std::size_t max_len : {100, 3000, 20000}) {
      aead_case c = small_case(60, max_len, seed++);
      run_aead_batch(pipe, c);
      EXPECT_FALSE(be.live.empty());
      EXPECT_TRUE(be.all_buffers_zero()) << "a staging buffer kept data after a batch of up to "
                                         << max_len << " bytes";
    }
    const d::algo_info& hash = *d::find_algo("ascon-hash256");
    sponge_case h = make_sponge_case(hash, 50, 3000, 32, 0, 0, 0, seed);
    pipe.run(d::packed_job_set(&hash, h.n, h.out_len, h.in.data(), h.in_off.data(), h.out.data()));
    EXPECT_TRUE(be.all_buffers_zero()) << "a staging buffer kept data after a hash batch";
    EXPECT_EQ(be.freed_unwiped, 0u) << "a buffer was freed with data in it";
  }
}

TEST(PipelineWipe, BuffersAreZeroAfterAFailedBatch) {
  emulated_backend be;
  d::pipeline<emulated_backend> pipe(be, {3, 4096, 1});
  aead_case c = small_case(100, 3000, 7);
  be.fail_at_kernel = 4;  // some chunks are staged and in flight when the launch fails
  EXPECT_THROW(run_aead_batch(pipe, c), std::runtime_error);
  EXPECT_TRUE(be.all_buffers_zero()) << "a failed batch left data in a staging buffer";
  be.fail_at_kernel = SIZE_MAX;
  aead_case again = small_case(100, 3000, 7);
  run_aead_batch(pipe, again);  // the pipeline is still usable
  EXPECT_EQ(again.tags.to_vector(), again.expect_tags);
}

TEST(PipelinePool, StaysBoundedAcrossManySettings) {
  const std::size_t before = emulated_backend::allocations_alive.load();
  {
    d::pipeline_pool<emulated_backend> pool(3);
    std::uint64_t seed = 10;
    for (std::size_t k = 0; k < 40; ++k) {
      aead_case c = small_case(20, 500, seed++);
      const d::pipeline_options o{1 + static_cast<unsigned>(k % 3), 4096 + 512 * k, 1};
      const d::algo_info& alg = *c.alg;
      pool.run(0, o, d::packed_job_set(&alg, false, c.n(), c.shape.tag_len, c.keys.data(),
                                          c.nonces.data(), nullptr, c.in.data(), c.in_off.data(),
                                          c.ad_off.empty() ? nullptr : c.ad.data(),
                                          c.ad_off.empty() ? nullptr : c.ad_off.data(), c.out_data(),
                                          c.tags.data(), nullptr));
      EXPECT_EQ(c.tags.to_vector(), c.expect_tags);
      ASSERT_LE(pool.size(), 3u) << "after " << k + 1 << " settings";
    }
    // Three pipelines of at most 3 streams, four buffers per stream.
    EXPECT_LE(emulated_backend::allocations_alive.load() - before, 3u * 3u * 4u);
  }
  EXPECT_EQ(emulated_backend::allocations_alive.load(), before) << "the pool leaked buffers";
}

TEST(PipelinePool, BoundIsPerDevice) {
  d::pipeline_pool<emulated_backend> pool(2);
  const auto run_on = [&](int device, std::size_t chunk, std::uint64_t seed) {
    aead_case c = small_case(10, 300, seed);
    const d::algo_info& alg = *c.alg;
    pool.run(device, {1, chunk, 1},
             d::packed_job_set(&alg, false, c.n(), c.shape.tag_len, c.keys.data(), c.nonces.data(),
                                  nullptr, c.in.data(), c.in_off.data(),
                                  c.ad_off.empty() ? nullptr : c.ad.data(),
                                  c.ad_off.empty() ? nullptr : c.ad_off.data(), c.out_data(),
                                  c.tags.data(), nullptr));
  };
  run_on(1, 4096, 1);
  run_on(1, 8192, 2);
  for (std::size_t k = 0; k < 10; ++k) run_on(0, 4096 * (k + 1), 3 + k);
  EXPECT_EQ(pool.size(), 4u) << "two pipelines per device";
}

TEST(PipelinePool, ReusesAPipelineForTheSameSettings) {
  d::pipeline_pool<emulated_backend> pool(4);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    aead_case c = small_case(20, 500, seed);
    const d::algo_info& alg = *c.alg;
    // Out-of-range values are clamped first, so they share the clamped setting's pipeline.
    const d::pipeline_options o{seed % 2 ? 100u : d::max_streams, 4096, 1};
    pool.run(0, o, d::packed_job_set(&alg, false, c.n(), c.shape.tag_len, c.keys.data(),
                                        c.nonces.data(), nullptr, c.in.data(), c.in_off.data(),
                                        c.ad_off.empty() ? nullptr : c.ad.data(),
                                        c.ad_off.empty() ? nullptr : c.ad_off.data(), c.out_data(),
                                        c.tags.data(), nullptr));
  }
  EXPECT_EQ(pool.size(), 1u);
}

TEST(PipelineOptions, OutOfRangeValuesAreClamped) {
  emulated_backend be;
  d::pipeline<emulated_backend> huge(be, {1000, SIZE_MAX, UINT_MAX});
  EXPECT_EQ(huge.options().streams, d::max_streams);
  EXPECT_EQ(huge.options().chunk_bytes, d::max_chunk_bytes);
  EXPECT_EQ(huge.options().copy_threads, d::max_copy_threads);
  EXPECT_EQ(be.streams_made, static_cast<int>(d::max_streams));
  d::pipeline<emulated_backend> tiny(be, {0, 0, 0});
  EXPECT_EQ(tiny.options().streams, 1u);
  EXPECT_EQ(tiny.options().chunk_bytes, d::min_chunk_bytes);
  EXPECT_EQ(tiny.options().copy_threads, 1u);

  // host_options values: copy_threads 0 is automatic (half the hardware threads, 1 to 8).
  const d::pipeline_options a = d::pipeline_options_for(3, 32u << 20, 0, 64);
  EXPECT_EQ(a.copy_threads, 8u);
  EXPECT_EQ(d::pipeline_options_for(3, 32u << 20, 0, 0).copy_threads, 1u);
  const d::pipeline_options b = d::pipeline_options_for(UINT_MAX, SIZE_MAX, UINT_MAX, 4);
  EXPECT_EQ(b.streams, d::max_streams);
  EXPECT_EQ(b.chunk_bytes, d::max_chunk_bytes);
  EXPECT_EQ(b.copy_threads, d::max_copy_threads);
}

}  // namespace wiping
