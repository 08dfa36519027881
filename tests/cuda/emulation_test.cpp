// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA kernels' bodies run on the host and compared with the portable core, for every
// algorithm of the list: the warp engine (src/cuda/warp_engine.hpp) lane by lane where the
// algorithm has a warp kernel, the one-thread-per-job body (src/cuda/thread_jobs.hpp) thread by
// thread elsewhere. The staging of bytes at every alignment, random batches of every shape the
// packed form allows with tampered jobs, and every KAT file of every algorithm. Needs no GPU,
// so CI checks the kernels' logic on every run.
#include <gtest/gtest.h>

#include <lwc/acorn/acorn128.hpp>
#include <lwc/grain/grain128aead.hpp>

#include "../../src/cuda/emulate.hpp"
#include "checks.hpp"

namespace {

using namespace lwc::cuda::test;
namespace d = lwc::cuda::detail;

// An offset column over `off` (std::size_t entries, the kernels' u64 offsets on the platforms
// CUDA supports).
static_assert(sizeof(std::size_t) == 8);
template <class Byte>
d::job_column<Byte> offset_column(Byte* data, std::size_t size, const std::vector<std::size_t>& off) {
  return {data, size, 0, off.data(), lwc::jobs::offset_type::u64};
}

// Tags detached: the case's tag column, written when encrypting, read when decrypting.
d::aead_batch batch_of(const d::algo_info& alg, std::size_t n, std::size_t tag_len, const std::uint8_t* keys,
                       const std::uint8_t* nonces, const std::uint8_t* second_keys, const buffer& in,
                       const std::vector<std::size_t>& in_off, const buffer& ad,
                       const std::vector<std::size_t>& ad_off, std::uint8_t* out, std::uint8_t* tags,
                       std::uint8_t* ok) {
  d::aead_batch b = d::aead_batch_for(alg, n, tag_len);
  b.keys = d::fixed_column(keys, alg.key_size, n);
  b.nonces = d::fixed_column(nonces, alg.nonce_size, n);
  if (second_keys != nullptr) b.second_keys = d::fixed_column(second_keys, alg.second_key_size, n);
  b.in = offset_column(in.data(), in.size(), in_off);
  b.out = offset_column(out, in.size(), in_off);
  if (!ad_off.empty()) b.ad = offset_column(ad.data(), ad.size(), ad_off);
  b.tags_in = d::fixed_column<const std::uint8_t>(tags, tag_len, n);
  b.tags_out = d::fixed_column(tags, tag_len, n);
  b.ok = ok;
  return b;
}

d::aead_batch batch_of(aead_case& c, std::uint8_t* ok) {
  return batch_of(*c.alg, c.n(), c.shape.tag_len, c.keys.data(), c.nonces.data(),
                  c.shape.masking ? c.second_keys.data() : nullptr, c.in, c.in_off, c.ad, c.ad_off,
                  c.out_data(), c.tags.data(), ok);
}

d::sponge_batch batch_of(const d::algo_info& alg, std::size_t n, std::size_t out_len, const buffer& in,
                         const std::vector<std::size_t>& in_off, std::uint8_t* out, const std::uint8_t* keys,
                         const buffer& custom, const std::vector<std::size_t>& custom_off) {
  d::sponge_batch b = d::sponge_batch_for(alg, n);
  b.in = offset_column(in.data(), in.size(), in_off);
  b.out = d::fixed_column(out, out_len, n);
  if (alg.key_size != 0) b.keys = d::fixed_column(keys, alg.key_size, n);
  if (!custom_off.empty()) b.custom = offset_column(custom.data(), custom.size(), custom_off);
  return b;
}

d::sponge_batch batch_of(sponge_case& c) {
  return batch_of(*c.alg, c.n, c.out_len, c.in, c.in_off, c.out.data(), c.keys.data(), c.custom, c.custom_off);
}

// One warp (every job through lane refills), one job per lane, and more warps than jobs.
std::vector<std::size_t> warp_counts(std::size_t n) {
  std::vector<std::size_t> v{1, (n + 31) / 32, n + 3};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// ---- staging ---------------------------------------------------------------------------------

TEST(EmulatedStaging, LoadPieceReadsEveryAlignmentAndZeroFills) {
  buffer src(400, 0);
  for (std::size_t i = 0; i < src.size(); ++i) src.data()[i] = static_cast<std::uint8_t>(i * 7 + 1);
  for (unsigned shift = 0; shift < 16; ++shift) {
    for (std::uint32_t n = 0; n <= 300; ++n) {
      const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(src.data() + shift);
      for (unsigned u = 0; 16 * u < n; ++u) {
        const d::piece p = d::load_piece(a, n, u);
        for (unsigned b = 0; b < 16; ++b) {
          const unsigned at = 16 * u + b;
          const std::uint8_t want = at < n ? src.data()[shift + at] : 0;
          const auto got = static_cast<std::uint8_t>(p.w[b / 4] >> (8 * (b % 4)));
          ASSERT_EQ(got, want) << "shift " << shift << " n " << n << " byte " << at;
        }
      }
    }
  }
}

TEST(EmulatedStaging, StorePieceWritesExactlyTheRange) {
  alignas(16) std::uint8_t row[d::row_stride];
  for (unsigned i = 0; i < d::row_stride; ++i) row[i] = static_cast<std::uint8_t>(i * 13 + 5);
  for (unsigned shift = 0; shift < 16; ++shift) {
    for (std::uint32_t n = 0; n <= d::stage_bytes; ++n) {
      buffer dst(d::stage_bytes + 40, 0);
      std::memset(dst.data(), 0xEE, dst.size());
      const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(dst.data() + 16 + shift);
      for (unsigned u = 0; u < d::pieces_out; ++u) d::store_piece(a, n, row, u);
      for (unsigned i = 0; i < dst.size(); ++i) {
        const long rel = static_cast<long>(i) - 16 - static_cast<long>(shift);
        const std::uint8_t want = rel >= 0 && rel < static_cast<long>(n) ? row[rel] : 0xEE;
        ASSERT_EQ(dst.data()[i], want) << "shift " << shift << " n " << n << " at " << rel;
      }
    }
  }
}

// ---- AEADs -----------------------------------------------------------------------------------

class EmulatedAead : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(EmulatedAead, RandomBatchesEqualThePortableCore) {
  const d::algo_info& alg = *GetParam();
  std::uint64_t seed = 1;
  for (const aead_shape& s : aead_shapes(alg)) {
    for (std::size_t warps : warp_counts(s.n)) {
      SCOPED_TRACE("n " + std::to_string(s.n) + ", warps " + std::to_string(warps) +
                   ", shifts " + std::to_string(s.shift_in) + "/" + std::to_string(s.shift_out) +
                   "/" + std::to_string(s.shift_ad) + "/" + std::to_string(s.shift_meta) +
                   ", tag " + std::to_string(s.tag_len) + (s.in_place ? ", in place" : "") +
                   (s.masking ? ", masked" : "") + ", seed " + std::to_string(seed));
      aead_case c = make_aead_case(alg, s, seed);
      check_aead(
          c, [&](aead_case& x, bool decrypt, std::uint8_t* ok) {
            d::emulate_aead(alg.id, decrypt, batch_of(x, ok), warps);
          },
          seed * 31);
      ++seed;
      if (HasFailure()) return;
    }
  }
}

// Every KAT batch of the algorithm through the emulated kernels, with one warp and with one
// job per lane; returns the number of batches run.
std::size_t run_kat_files(const d::algo_info& alg) {
  std::size_t batches = 0;
  for (unsigned shift : {0u, 5u}) {
    for (auto& b : kat_aead_batches(LWC_VECTOR_DIR, alg, shift)) {
      for (std::size_t warps : {std::size_t{1}, (b.n() + 31) / 32}) {
        SCOPED_TRACE(b.label + ", shift " + std::to_string(shift) + ", warps " + std::to_string(warps));
        buffer out(b.in.size(), shift);
        std::vector<std::uint8_t> ok(b.n(), 0x77);
        const d::aead_batch x = batch_of(alg, b.n(), b.tag_len, b.keys.data(), b.nonces.data(),
                                         b.masking ? b.second_keys.data() : nullptr, b.in, b.in_off, b.ad,
                                         b.ad_off, out.data(), b.tags.data(), ok.data());
        d::emulate_aead(alg.id, b.decrypt, x, warps);
        expect_bytes(out.data(), b.expect_out.data(), out.size(), b.in_off, "output");
        if (b.decrypt) {
          for (std::size_t i = 0; i < b.n(); ++i)
            EXPECT_EQ(ok[i], b.expect_ok[i]) << "record at line " << b.lines[i];
        } else {
          expect_bytes(b.tags.data(), b.expect_tags.data(), b.expect_tags.size(), {0}, "tags");
        }
        ++batches;
        if (::testing::Test::HasFailure()) return batches;
      }
    }
  }
  return batches;
}

TEST_P(EmulatedAead, KnownAnswerFiles) {
  const d::algo_info& alg = *GetParam();
  EXPECT_GT(run_kat_files(alg), 0u) << "no KAT file for " << alg.name;
}

INSTANTIATE_TEST_SUITE_P(Cuda, EmulatedAead, ::testing::ValuesIn(algorithms_where(true)),
                         algo_param_name);

// The device compiles the core's portable path only (the x86 paths are host code): the KAT
// files again with the host on that path too.
TEST(EmulatedStreamCiphers, KnownAnswerFilesOnThePortablePath) {
  struct restore_default {
    ~restore_default() {
      lwc::acorn::force_portable(false);
      lwc::grain::force_portable(false);
    }
  } restore;
  lwc::acorn::force_portable(true);
  lwc::grain::force_portable(true);
  for (const char* name : {"acorn-128", "grain-128aead"}) {
    SCOPED_TRACE(name);
    EXPECT_GT(run_kat_files(*d::find_algo(name)), 0u);
  }
}

// ---- hashes and XOFs -------------------------------------------------------------------------

class EmulatedSponge : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(EmulatedSponge, RandomBatchesEqualThePortableCore) {
  const d::algo_info& alg = *GetParam();
  const std::vector<std::size_t> lens =
      alg.fixed_output ? std::vector<std::size_t>{alg.fixed_output}
                       : std::vector<std::size_t>{0, 1, 8, 31, 32, 33, 255, 256, 257, 600};
  std::uint64_t seed = 100;
  for (std::size_t out_len : lens) {
    for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{150}}) {
      const unsigned si = static_cast<unsigned>(seed % 16), so = static_cast<unsigned>(seed * 7 % 16);
      for (std::size_t warps : warp_counts(n)) {
        SCOPED_TRACE("output " + std::to_string(out_len) + ", n " + std::to_string(n) +
                     ", warps " + std::to_string(warps) + ", seed " + std::to_string(seed));
        sponge_case c = make_sponge_case(alg, n, 1500, out_len, si, so, seed % 3 == 0 ? 5 : 0, seed);
        check_sponge(c, [&](sponge_case& x) { d::emulate_sponge(alg.id, batch_of(x), warps); });
        ++seed;
        if (HasFailure()) return;
      }
    }
  }
}

TEST_P(EmulatedSponge, KnownAnswerFiles) {
  const d::algo_info& alg = *GetParam();
  const std::vector<std::size_t> no_offsets;
  std::size_t batches = 0;
  for (unsigned shift : {0u, 9u}) {
    for (auto& b : kat_sponge_batches(LWC_VECTOR_DIR, alg, shift)) {
      for (std::size_t warps : {std::size_t{1}, (b.n() + 31) / 32}) {
        SCOPED_TRACE(b.label + ", shift " + std::to_string(shift) + ", warps " + std::to_string(warps));
        buffer out(b.n() * b.out_len, shift);
        const d::sponge_batch x = batch_of(alg, b.n(), b.out_len, b.in, b.in_off, out.data(), b.keys.data(),
                                           b.custom, alg.max_customization != 0 ? b.custom_off : no_offsets);
        d::emulate_sponge(alg.id, x, warps);
        const std::size_t at = first_mismatch(out.data(), b.expect.data(), out.size());
        ASSERT_EQ(at, out.size()) << "record at line " << b.lines[at / b.out_len];
        ++batches;
      }
    }
  }
  EXPECT_GT(batches, 0u) << "no KAT file for " << alg.name;
}

INSTANTIATE_TEST_SUITE_P(Cuda, EmulatedSponge, ::testing::ValuesIn(algorithms_where(false)),
                         algo_param_name);

// The CUDA engine lists every registered algorithm, in registry order, and has a launcher of
// the right kind for each (checked here without a device: the table is built at link time).
TEST(CudaEngine, RunsEveryRegisteredAlgorithm) {
  ASSERT_EQ(d::algo_table.size(), lwc::algorithms().size());
  for (std::size_t i = 0; i < d::algo_table.size(); ++i) {
    EXPECT_EQ(d::algo_table[i].name, lwc::algorithms()[i].name);
    EXPECT_EQ(d::algo_table[i].key_size, lwc::algorithms()[i].key_size);
  }
}

// ---- engine edge cases -----------------------------------------------------------------------

// Offsets in device memory are not checked by the host: a decreasing pair must cost only its
// own job (skipped, verdict 0), never memory outside the batch or the other jobs' results.
TEST(EmulatedEngine, DecreasingOffsetsSkipOnlyThatJob) {
  for (const d::algo_info* a : algorithms_where(true)) {
    const d::algo_info& alg = *a;
    SCOPED_TRACE(std::string(alg.name));
    aead_shape s;
    s.n = 40;
    s.max_len = 300;
    s.first_offset = 1;
    s.tag_len = alg.max_tag_size;
    aead_case c = make_aead_case(alg, s, 77);
    std::memcpy(c.in.data(), c.expect_ct.data(), c.in.size());
    std::memcpy(c.tags.data(), c.expect_tags.data(), c.tags.size());
    std::vector<std::size_t> off = c.in_off;
    const std::size_t broken = 17;
    off[broken + 1] = off[broken] - 1;  // offsets[0] == 1, so off[broken] > 0
    std::vector<std::uint8_t> ok(s.n, 0x77);
    d::aead_batch b = batch_of(c, ok.data());
    b.in.offsets = off.data();
    b.out.offsets = off.data();
    d::emulate_aead(alg.id, true, b, 2);
    for (std::size_t i = 0; i < s.n; ++i) {
      if (i == broken || i == broken + 1) continue;  // job 18 starts at the broken offset
      EXPECT_EQ(ok[i], 1) << "job " << i;
      // Job 18 now starts one byte before job 17, inside an earlier job: that byte is its own.
      const std::size_t end = i < broken ? std::min(c.in_off[i + 1], off[broken + 1]) : c.in_off[i + 1];
      const std::size_t len = end > c.in_off[i] ? end - c.in_off[i] : 0;
      EXPECT_EQ(first_mismatch(c.out.data() + c.in_off[i], c.pt.data() + c.in_off[i], len), len) << "job " << i;
    }
    EXPECT_EQ(ok[broken], 0);
  }
}

// Jobs are split over warps by count and refilled lane by lane; every split must give the
// same bytes as the portable core, including a job per warp and many idle warps.
TEST(EmulatedEngine, WarpRangesPartitionTheJobs) {
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{1000}}) {
    for (std::size_t warps : {std::size_t{1}, std::size_t{3}, std::size_t{32}, std::size_t{5000}}) {
      std::size_t expect_first = 0;
      for (std::size_t w = 0; w < warps; ++w) {
        const d::job_range r = d::warp_jobs(count, warps, w);
        ASSERT_EQ(r.first, expect_first);
        ASSERT_LE(r.first, r.last);
        ASSERT_LE(r.last - r.first, count / warps + 1);
        expect_first = r.last;
      }
      ASSERT_EQ(expect_first, count);
    }
  }
}

}  // namespace
