// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA engine on a real device, through its public API (<lwc/cuda.hpp>): the KAT files,
// random batches of every shape (device pointers on a stream, host memory pageable and
// pinned), batches of up to 2^20 jobs of mixed lengths up to 16 KiB with tampered jobs, all
// compared byte for byte with the portable core. Without a device every GPU test is skipped
// (ctest reports them as skipped); the argument checks and the no-device errors run anyway.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <lwc/cuda.hpp>

#include "../../src/cuda/emulate.hpp"
#include "../../src/cuda/launch.hpp"
#include "../batch/form_columns.hpp"
#include "checks.hpp"

namespace {

using namespace lwc::cuda::test;
namespace d = lwc::cuda::detail;
namespace lc = lwc::cuda;
namespace lb = lwc::jobs;

#define LWC_REQUIRE_GPU()                                                      \
  do {                                                                         \
    if (!lc::available()) GTEST_SKIP() << "no CUDA device: GPU tests skipped"; \
  } while (0)

// The KAT files: the source tree the test was built in, or LWC_VECTOR_DIR from the environment
// (a test binary built on one machine and run on a GPU machine with the tree elsewhere).
std::string vector_dir() {
  const char* env = std::getenv("LWC_VECTOR_DIR");
  return env != nullptr && *env != 0 ? env : LWC_VECTOR_DIR;
}

void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Device memory holding a copy of host bytes.
class device_mem {
 public:
  device_mem(const void* src, std::size_t n) : n_(n) {
    cuda_ok(cudaMalloc(&p_, std::max<std::size_t>(n, 1)), "cudaMalloc");
    if (n != 0) cuda_ok(cudaMemcpy(p_, src, n, cudaMemcpyHostToDevice), "copy to the device");
  }
  ~device_mem() { (void)cudaFree(p_); }
  device_mem(const device_mem&) = delete;
  device_mem& operator=(const device_mem&) = delete;
  std::uint8_t* bytes() { return static_cast<std::uint8_t*>(p_); }
  void copy_to(void* dst) const {
    if (n_ != 0) cuda_ok(cudaMemcpy(dst, p_, n_, cudaMemcpyDeviceToHost), "copy to the host");
  }

 private:
  void* p_ = nullptr;
  std::size_t n_;
};

// A host buffer on the device with its guard, at the same offset from a 256-byte boundary:
// device jobs see the alignments the case was built with, and writes in front show up.
struct device_buffer {
  buffer* host;
  device_mem mem;
  explicit device_buffer(buffer& b) : host(&b), mem(b.raw(), b.raw_size()) {}
  std::uint8_t* data() { return mem.bytes() + host->shift(); }
  lwc::bytes_span span() { return {data(), host->size()}; }
  void copy_back() { mem.copy_to(host->raw()); }
};

struct device_offsets {
  device_mem mem;
  std::size_t n;
  explicit device_offsets(const std::vector<std::size_t>& v) : mem(v.data(), 8 * v.size()), n(v.size()) {}
  std::span<const std::size_t> span() { return {reinterpret_cast<const std::size_t*>(mem.bytes()), n}; }
};

// Device buffers as columns of the packed job form.
lb::column offsets_column(device_buffer& b, device_offsets& off) {
  return lb::column::with_offsets<std::size_t>(b.span(), off.span());
}
lb::out_column offsets_out_column(device_buffer& b, device_offsets& off) {
  return lb::out_column::with_offsets<std::size_t>(b.span(), off.span());
}

// ---- runners: one batch through one entry point ----------------------------------------------

void run_device(aead_case& c, bool decrypt, std::uint8_t* ok, cudaStream_t stream) {
  const std::size_t n = c.n();
  device_buffer keys(c.keys), nonces(c.nonces), in(c.in), tags(c.tags);
  device_offsets off(c.in_off);
  std::unique_ptr<device_buffer> ad, second, out;
  std::unique_ptr<device_offsets> ad_off;
  if (!c.ad_off.empty()) {
    ad = std::make_unique<device_buffer>(c.ad);
    ad_off = std::make_unique<device_offsets>(c.ad_off);
  }
  if (c.shape.masking) second = std::make_unique<device_buffer>(c.second_keys);
  if (!c.shape.in_place) out = std::make_unique<device_buffer>(c.out);
  std::vector<std::uint8_t> ok_init(n, 0x77);
  device_mem ok_dev(ok_init.data(), n);
  device_buffer& o = out ? *out : in;
  const std::size_t tag_len = c.shape.tag_len;
  lb::packed_aead_jobs f;
  f.count = n;
  f.keys = lb::column::fixed(keys.span(), c.alg->key_size);
  f.nonces = lb::column::fixed(nonces.span(), c.alg->nonce_size);
  f.in = offsets_column(in, off);
  f.out = offsets_out_column(o, off);
  if (ad) f.ad = offsets_column(*ad, *ad_off);
  if (second) f.second_keys = lb::column::fixed(second->span(), c.alg->second_key_size);
  if (decrypt) {
    f.tags_in = lb::column::fixed(tags.span(), tag_len);
    lc::decrypt_async(c.alg->name, f, {ok_dev.bytes(), n}, tag_len, stream);
  } else {
    f.tags_out = lb::out_column::fixed(tags.span(), tag_len);
    lc::encrypt_async(c.alg->name, f, tag_len, stream);
  }
  cuda_ok(cudaStreamSynchronize(stream), "running the batch");
  o.copy_back();
  tags.copy_back();
  if (decrypt) ok_dev.copy_to(ok);
}

lb::packed_aead_inputs host_inputs(aead_case& c) {
  lb::packed_aead_inputs x;
  x.keys = {c.keys.data(), c.keys.size()};
  x.nonces = {c.nonces.data(), c.nonces.size()};
  x.in = {{c.in.data(), c.in.size()}, c.in_off};
  if (!c.ad_off.empty()) x.ad = {{c.ad.data(), c.ad.size()}, c.ad_off};
  if (c.shape.masking) x.second_keys = {c.second_keys.data(), c.second_keys.size()};
  return x;
}

void run_host(aead_case& c, bool decrypt, std::uint8_t* ok, const lc::host_options& opt) {
  const lb::packed_aead_inputs x = host_inputs(c);
  const lwc::bytes_span out{c.out_data(), c.in.size()};
  const lwc::bytes_span tags{c.tags.data(), c.tags.size()};
  if (decrypt) {
    const std::size_t good = lc::decrypt_packed(c.alg->name, x, tags, out, {ok, c.n()}, c.shape.tag_len, opt);
    EXPECT_EQ(good, static_cast<std::size_t>(std::count(ok, ok + c.n(), 1)));
  } else {
    lc::encrypt_packed(c.alg->name, x, out, tags, c.shape.tag_len, opt);
  }
}

void run_device_sponge(sponge_case& c, cudaStream_t stream) {
  device_buffer in(c.in), out(c.out), keys(c.keys), custom(c.custom);
  device_offsets off(c.in_off), custom_off(c.custom_off);
  lb::packed_hash_jobs f;
  f.count = c.n;
  f.in = offsets_column(in, off);
  f.out = lb::out_column::fixed(out.span(), c.out_len);
  if (c.alg->key_size != 0) f.keys = lb::column::fixed(keys.span(), c.alg->key_size);
  if (!c.custom_off.empty()) f.customization = offsets_column(custom, custom_off);
  lc::hash_async(c.alg->name, f, stream);
  cuda_ok(cudaStreamSynchronize(stream), "running the batch");
  out.copy_back();
}

void run_host_sponge(sponge_case& c, const lc::host_options& opt) {
  lwc::jobs::packed_hash_inputs jobs{{{c.in.data(), c.in.size()}, c.in_off}};
  if (c.alg->key_size != 0) jobs.keys = {c.keys.data(), c.keys.size()};
  if (!c.custom_off.empty()) jobs.customization = {{c.custom.data(), c.custom.size()}, c.custom_off};
  lc::hash_packed(c.alg->name, jobs, {c.out.data(), c.out.size()}, c.out_len, opt);
}

class stream_holder {
 public:
  stream_holder() { cuda_ok(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~stream_holder() { (void)cudaStreamDestroy(s_); }
  stream_holder(const stream_holder&) = delete;
  stream_holder& operator=(const stream_holder&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// Small chunks, so that even the test batches go through many chunks and every stream.
lc::host_options small_chunks() {
  lc::host_options o;
  o.chunk_bytes = 64 << 10;
  o.streams = 3;
  return o;
}

// ---- AEADs -----------------------------------------------------------------------------------

class GpuAead : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(GpuAead, KnownAnswerFiles) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  std::size_t batches = 0;
  for (unsigned shift : {0u, 5u}) {
    for (auto& b : kat_aead_batches(vector_dir(), alg, shift)) {
      SCOPED_TRACE(b.label + ", shift " + std::to_string(shift));
      const std::size_t n = b.n();
      buffer out(b.in.size(), shift);
      std::vector<std::uint8_t> ok(n, 0x77);
      // Device pointers.
      {
        device_buffer keys(b.keys), nonces(b.nonces), in(b.in), ad(b.ad), tags(b.tags), dout(out);
        device_offsets off(b.in_off), ad_off(b.ad_off);
        std::unique_ptr<device_buffer> second;
        lb::packed_aead_jobs f;
        f.count = n;
        f.keys = lb::column::fixed(keys.span(), alg.key_size);
        f.nonces = lb::column::fixed(nonces.span(), alg.nonce_size);
        f.in = offsets_column(in, off);
        f.out = offsets_out_column(dout, off);
        f.ad = offsets_column(ad, ad_off);
        if (b.masking) {
          second = std::make_unique<device_buffer>(b.second_keys);
          f.second_keys = lb::column::fixed(second->span(), alg.second_key_size);
        }
        device_mem ok_dev(ok.data(), n);
        if (b.decrypt) {
          f.tags_in = lb::column::fixed(tags.span(), b.tag_len);
          lc::decrypt_async(alg.name, f, {ok_dev.bytes(), n}, b.tag_len, nullptr);
        } else {
          f.tags_out = lb::out_column::fixed(tags.span(), b.tag_len);
          lc::encrypt_async(alg.name, f, b.tag_len, nullptr);
        }
        cuda_ok(cudaDeviceSynchronize(), "running the batch");
        dout.copy_back();
        ok_dev.copy_to(ok.data());
        if (!b.decrypt) tags.copy_back();
      }
      expect_bytes(out.data(), b.expect_out.data(), out.size(), b.in_off, "output (device API)");
      if (b.decrypt) {
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(ok[i], b.expect_ok[i]) << "record at line " << b.lines[i];
      } else {
        expect_bytes(b.tags.data(), b.expect_tags.data(), b.expect_tags.size(), {0}, "tags (device API)");
      }
      // Host memory.
      buffer out2(b.in.size(), shift);
      lb::packed_aead_inputs x;
      x.keys = {b.keys.data(), b.keys.size()};
      x.nonces = {b.nonces.data(), b.nonces.size()};
      x.in = {{b.in.data(), b.in.size()}, b.in_off};
      x.ad = {{b.ad.data(), b.ad.size()}, b.ad_off};
      if (b.masking) x.second_keys = {b.second_keys.data(), b.second_keys.size()};
      if (b.decrypt) {
        std::fill(ok.begin(), ok.end(), 0x77);
        (void)lc::decrypt_packed(alg.name, x, {b.tags.data(), b.tags.size()}, {out2.data(), out2.size()}, ok, b.tag_len);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(ok[i], b.expect_ok[i]) << "record at line " << b.lines[i];
      } else {
        std::memset(b.tags.data(), 0, b.tags.size());
        lc::encrypt_packed(alg.name, x, {out2.data(), out2.size()}, {b.tags.data(), b.tags.size()}, b.tag_len);
        expect_bytes(b.tags.data(), b.expect_tags.data(), b.expect_tags.size(), {0}, "tags (host API)");
      }
      expect_bytes(out2.data(), b.expect_out.data(), out2.size(), b.in_off, "output (host API)");
      ++batches;
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(batches, 0u) << "no KAT file for " << alg.name;
}

TEST_P(GpuAead, RandomBatchesThroughDevicePointers) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  stream_holder stream;
  std::uint64_t seed = 3000;
  for (const aead_shape& s : aead_shapes(alg)) {
    SCOPED_TRACE("n " + std::to_string(s.n) + ", seed " + std::to_string(seed));
    aead_case c = make_aead_case(alg, s, seed);
    check_aead(c, [&](aead_case& x, bool dec, std::uint8_t* ok) { run_device(x, dec, ok, stream.get()); }, seed);
    ++seed;
    if (HasFailure()) return;
  }
}

TEST_P(GpuAead, RandomBatchesFromHostMemory) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  std::uint64_t seed = 4000;
  for (const aead_shape& s : aead_shapes(alg)) {
    SCOPED_TRACE("n " + std::to_string(s.n) + ", seed " + std::to_string(seed));
    aead_case c = make_aead_case(alg, s, seed);
    check_aead(c, [&](aead_case& x, bool dec, std::uint8_t* ok) { run_host(x, dec, ok, small_chunks()); }, seed);
    ++seed;
    if (HasFailure()) return;
  }
}

// Jobs of 0 .. 16 KiB (most short, 1 % long), 1 to 2^20 of them, a job in eight tampered.
TEST_P(GpuAead, LargeMixedBatches) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  const std::size_t top = alg.name == "ascon-aead128" ? std::size_t{1} << 20 : std::size_t{1} << 17;
  std::uint64_t seed = 5000;
  for (std::size_t n = 1; n <= top; n *= 16) {
    aead_shape s;
    s.n = n == 1 ? 1 : n + 3;
    s.max_len = 16384;
    s.long_per_mille = 10;
    s.max_ad = 40;
    s.shift_in = static_cast<unsigned>(seed % 16);
    s.masking = (alg.second_key_size != 0) && n % 2 == 0;
    s.tag_len = alg.max_tag_size;
    SCOPED_TRACE("n " + std::to_string(s.n));
    aead_case c = make_aead_case(alg, s, seed);
    check_aead(c, [&](aead_case& x, bool dec, std::uint8_t* ok) { run_host(x, dec, ok, {}); }, seed);
    if (HasFailure()) return;
    aead_case c2 = make_aead_case(alg, s, seed + 1);
    check_aead(c2, [&](aead_case& x, bool dec, std::uint8_t* ok) { run_device(x, dec, ok, nullptr); }, seed);
    seed += 2;
    if (HasFailure()) return;
  }
}

// Batches in page-locked memory are copied by DMA without staging.
TEST_P(GpuAead, HostMemoryAlreadyPinned) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  aead_shape s;
  s.n = 3000;
  s.max_len = 4000;
  s.shift_in = 3;
  s.shift_out = 9;
  s.tag_len = alg.max_tag_size;
  aead_case c = make_aead_case(alg, s, 6000);
  lc::pinned_buffer in(c.in.size() + 16), out(c.in.size() + 16);
  std::memcpy(in.data() + 3, c.in.data(), c.in.size());
  lb::packed_aead_inputs x = host_inputs(c);
  x.in.data = {in.data() + 3, c.in.size()};
  lc::encrypt_packed(alg.name, x, {out.data() + 9, c.in.size()}, {c.tags.data(), c.tags.size()}, c.shape.tag_len,
                     small_chunks());
  expect_bytes(out.data() + 9, c.expect_ct.data(), c.in.size(), c.in_off, "ciphertext");
  expect_bytes(c.tags.data(), c.expect_tags.data(), c.tags.size(), {0}, "tags");
  std::vector<std::uint8_t> ok(s.n);
  x.in.data = {out.data() + 9, c.in.size()};
  EXPECT_EQ(lc::decrypt_packed(alg.name, x, {c.tags.data(), c.tags.size()}, {in.data() + 3, c.in.size()}, ok,
                               c.shape.tag_len, small_chunks()),
            s.n);
  expect_bytes(in.data() + 3, c.pt.data(), c.in.size(), c.in_off, "plaintext");
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuAead,
                         ::testing::ValuesIn(algorithms_where(true)),
                         algo_param_name);

// ---- hashes and XOFs -------------------------------------------------------------------------

class GpuSponge : public ::testing::TestWithParam<const d::algo_info*> {};

TEST_P(GpuSponge, KnownAnswerFiles) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  std::size_t batches = 0;
  for (unsigned shift : {0u, 9u}) {
    for (auto& b : kat_sponge_batches(vector_dir(), alg, shift)) {
      SCOPED_TRACE(b.label + ", shift " + std::to_string(shift));
      buffer out(b.n() * b.out_len, shift);
      lwc::jobs::packed_hash_inputs host_jobs{{{b.in.data(), b.in.size()}, b.in_off}};
      if (alg.key_size != 0) host_jobs.keys = {b.keys.data(), b.keys.size()};
      if (alg.max_customization != 0) host_jobs.customization = {{b.custom.data(), b.custom.size()}, b.custom_off};
      {
        device_buffer in(b.in), dout(out), keys(b.keys), custom(b.custom);
        device_offsets off(b.in_off), custom_off(b.custom_off);
        lb::packed_hash_jobs f;
        f.count = b.n();
        f.in = offsets_column(in, off);
        f.out = lb::out_column::fixed(dout.span(), b.out_len);
        if (alg.key_size != 0) f.keys = lb::column::fixed(keys.span(), alg.key_size);
        if (alg.max_customization != 0) f.customization = offsets_column(custom, custom_off);
        lc::hash_async(alg.name, f, nullptr);
        cuda_ok(cudaDeviceSynchronize(), "running the batch");
        dout.copy_back();
      }
      std::size_t at = first_mismatch(out.data(), b.expect.data(), out.size());
      ASSERT_EQ(at, out.size()) << "device API, record at line " << b.lines[at / b.out_len];
      std::memset(out.data(), 0, out.size());
      lc::hash_packed(alg.name, host_jobs, {out.data(), out.size()}, b.out_len);
      at = first_mismatch(out.data(), b.expect.data(), out.size());
      ASSERT_EQ(at, out.size()) << "host API, record at line " << b.lines[at / b.out_len];
      ++batches;
    }
  }
  EXPECT_GT(batches, 0u) << "no KAT file for " << alg.name;
}

TEST_P(GpuSponge, RandomAndLargeBatches) {
  LWC_REQUIRE_GPU();
  const d::algo_info& alg = *GetParam();
  const std::vector<std::size_t> lens = alg.fixed_output ? std::vector<std::size_t>{alg.fixed_output}
                                                         : std::vector<std::size_t>{0, 1, 32, 257, 600};
  stream_holder stream;
  std::uint64_t seed = 7000;
  for (std::size_t out_len : lens) {
    for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{1000}}) {
      SCOPED_TRACE("output " + std::to_string(out_len) + ", n " + std::to_string(n));
      sponge_case c = make_sponge_case(alg, n, 3000, out_len, static_cast<unsigned>(seed % 16),
                                       static_cast<unsigned>(seed * 3 % 16), seed % 2, seed);
      check_sponge(c, [&](sponge_case& x) { run_device_sponge(x, stream.get()); });
      std::memset(c.out.data(), 0, c.out.size());
      check_sponge(c, [&](sponge_case& x) { run_host_sponge(x, small_chunks()); });
      ++seed;
      if (HasFailure()) return;
    }
  }
  const std::size_t out_len = alg.fixed_output ? alg.fixed_output : 64;
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 20}) {
    SCOPED_TRACE("large batch, n " + std::to_string(n));
    sponge_case c = make_sponge_case(alg, n, 16384, out_len, 0, 0, 0, seed++, 10);
    check_sponge(c, [&](sponge_case& x) { run_host_sponge(x, {}); });
    std::memset(c.out.data(), 0, c.out.size());
    check_sponge(c, [&](sponge_case& x) { run_device_sponge(x, nullptr); });
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuSponge, ::testing::ValuesIn(algorithms_where(false)),
                         algo_param_name);

// ---- the API without a device, and argument checks -------------------------------------------

// The engine's list is the registry's, in order: every algorithm runs on the GPU.
// ---- the packed job form in device memory -----------------------------------------------------

namespace form = lwc::test::form;

// A stored column of form_columns.hpp copied to the device, data and offsets.
struct device_form_column {
  form::stored_column* host;
  device_mem data;
  std::unique_ptr<device_mem> offsets;
  lb::offset_type kind = lb::offset_type::none;
  std::size_t entries = 0;

  explicit device_form_column(form::stored_column& c) : host(&c), data(c.data.data(), c.data.size()) {
    const auto copy = [&](const auto& v, lb::offset_type k) {
      offsets = std::make_unique<device_mem>(v.data(), v.size() * sizeof(v[0]));
      kind = k;
      entries = v.size();
    };
    switch (c.kind) {
      case form::layout::u32: copy(c.u32, lb::offset_type::u32); break;
      case form::layout::u64: copy(c.u64, lb::offset_type::u64); break;
      case form::layout::i32: copy(c.i32, lb::offset_type::i32); break;
      case form::layout::i64: copy(c.i64, lb::offset_type::i64); break;
      case form::layout::fixed: break;
    }
  }
  template <class Byte>
  lb::basic_column<Byte> view() {
    return {{data.bytes(), host->data.size()}, host->stride, offsets ? offsets->bytes() : nullptr, entries, kind};
  }
  lb::column in() { return view<const std::uint8_t>(); }
  lb::out_column out() { return view<std::uint8_t>(); }
  void copy_back() { data.copy_to(host->data.data()); }
};

// n AEAD jobs over device columns; the tag column is the caller's to add when detached.
lb::packed_aead_jobs aead_form_of(std::size_t n, device_form_column& keys, device_form_column& nonces,
                                  device_form_column& ad, device_form_column& in, device_form_column& out,
                                  bool appended) {
  lb::packed_aead_jobs f;
  f.count = n;
  f.keys = keys.in();
  f.nonces = nonces.in();
  f.ad = ad.in();
  f.in = in.in();
  f.out = out.out();
  f.tags = appended ? lb::tag_place::appended : lb::tag_place::detached;
  return f;
}

// The asynchronous entry points on every layout of the form (fixed and offset columns of each
// width and sign, tags appended or detached): the same results as the single-message core, and
// a tampered job fails alone with its output zeroed.
TEST(GpuForm, AsyncEveryLayoutEqualsTheCore) {
  LWC_REQUIRE_GPU();
  std::mt19937 rng(2024);
  for (const char* name : {"ascon-aead128", "ascon-128a", "grain-128aead", "xoodyak"}) {
    const lwc::algorithm& a = *lwc::find_algorithm(name);
    for (int round = 0; round < 6; ++round) {
      const std::size_t n = 1 + rng() % 300, t = a.tag_size;
      const bool appended = rng() % 2 == 0, same = rng() % 3 == 0;
      SCOPED_TRACE(std::string(name) + " round " + std::to_string(round) + (appended ? " appended" : " detached"));
      std::vector<form::bytes> keys, nonces, ads, msgs, sealed, tags, out_shape, plain_shape;
      const std::size_t common = rng() % 500;
      for (std::size_t i = 0; i < n; ++i) {
        keys.push_back(form::random_bytes(a.key_size, rng));
        nonces.push_back(form::random_bytes(a.nonce_size, rng));
        ads.push_back(form::random_bytes(rng() % 40, rng));
        msgs.push_back(form::random_bytes(same ? common : rng() % 500, rng));
        form::bytes ct(msgs[i].size()), tag(t);
        a.encrypt(keys[i].data(), nullptr, nonces[i].data(), ads[i].data(), ads[i].size(), msgs[i].data(),
                  msgs[i].size(), ct.data(), tag.data(), t);
        if (appended) ct.insert(ct.end(), tag.begin(), tag.end());
        sealed.push_back(ct);
        tags.push_back(tag);
        out_shape.emplace_back(ct.size(), 0x5C);
        plain_shape.emplace_back(msgs[i].size(), 0xAA);
      }
      form::stored_column k = form::store(keys, form::pick(rng, true), rng);
      form::stored_column no = form::store(nonces, form::pick(rng, true), rng);
      form::stored_column ad = form::store(ads, form::pick(rng, false), rng);
      form::stored_column in = form::store(msgs, form::pick(rng, same), rng);
      form::stored_column out = form::store(out_shape, form::pick(rng, same), rng);
      form::stored_column tg = form::store(std::vector<form::bytes>(n, form::bytes(t)), form::pick(rng, true), rng);
      {
        device_form_column dk(k), dno(no), dad(ad), din(in), dout(out), dtg(tg);
        lb::packed_aead_jobs f = aead_form_of(n, dk, dno, dad, din, dout, appended);
        if (!appended) f.tags_out = dtg.out();
        lc::encrypt_async(name, f, t, nullptr);
        cuda_ok(cudaDeviceSynchronize(), "running the batch");
        dout.copy_back();
        dtg.copy_back();
      }
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(out.element(i), sealed[i]) << "job " << i;
        if (!appended) {
          ASSERT_EQ(tg.element(i), tags[i]) << "job " << i;
        }
      }
      const std::size_t bad = rng() % n;
      if (appended) sealed[bad].back() ^= 1;
      else tags[bad][0] ^= 1;
      form::stored_column cin = form::store(sealed, form::pick(rng, same), rng);
      form::stored_column pout = form::store(plain_shape, form::pick(rng, same), rng);
      form::stored_column ctg = form::store(tags, form::pick(rng, true), rng);
      std::vector<std::uint8_t> ok(n, 7);
      {
        device_form_column dk(k), dno(no), dad(ad), din(cin), dout(pout), dtg(ctg);
        device_mem dok(ok.data(), n);
        lb::packed_aead_jobs f = aead_form_of(n, dk, dno, dad, din, dout, appended);
        if (!appended) f.tags_in = dtg.in();
        lc::decrypt_async(name, f, {dok.bytes(), n}, t, nullptr);
        cuda_ok(cudaDeviceSynchronize(), "running the batch");
        dout.copy_back();
        dok.copy_to(ok.data());
      }
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(ok[i], i == bad ? 0 : 1) << "job " << i;
        EXPECT_EQ(pout.element(i), i == bad ? form::bytes(msgs[i].size(), 0) : msgs[i]) << "job " << i;
      }
      if (HasFailure()) return;
    }
  }
}

// Hashes on the form in device memory: a MAC with a key column, a CXOF with customization
// strings, an XOF with one output length per job.
TEST(GpuForm, AsyncHashesWithKeysCustomizationAndLengths) {
  LWC_REQUIRE_GPU();
  std::mt19937 rng(77);
  for (const char* name : {"ascon-mac", "ascon-cxof128", "ascon-xof128", "ascon-hash256"}) {
    const lwc::algorithm& a = *lwc::find_algorithm(name);
    SCOPED_TRACE(name);
    const std::size_t n = 1 + rng() % 400;
    const bool any_length = a.max_output_size == 0;
    std::vector<form::bytes> ins, keys, customs, want, out_shape;
    for (std::size_t i = 0; i < n; ++i) {
      ins.push_back(form::random_bytes(std::min<std::size_t>(rng() % 700, a.max_input_size), rng));
      keys.push_back(form::random_bytes(a.is_keyed() ? a.key_size : 0, rng));
      customs.push_back(form::random_bytes(
          a.max_customization_size != 0 ? std::min<std::size_t>(rng() % 40, a.max_customization_size) : 0, rng));
      form::bytes digest(any_length ? rng() % 200 : a.output_size);
      ref_hash(*d::find_algo(name), keys[i].data(), customs[i].data(), customs[i].size(), ins[i].data(),
               ins[i].size(), digest.data(), digest.size());
      want.push_back(digest);
      out_shape.emplace_back(digest.size(), 0x5C);
    }
    form::stored_column in = form::store(ins, form::pick(rng, false), rng);
    form::stored_column out = form::store(out_shape, form::pick(rng, !any_length), rng);
    form::stored_column k = form::store(keys, form::pick(rng, true), rng);
    form::stored_column c = form::store(customs, form::pick(rng, false), rng);
    {
      device_form_column din(in), dout(out), dk(k), dc(c);
      lb::packed_hash_jobs f;
      f.count = n;
      f.in = din.in();
      f.out = dout.out();
      if (a.is_keyed()) f.keys = dk.in();
      if (a.max_customization_size != 0) f.customization = dc.in();
      lc::hash_async(name, f, nullptr);
      cuda_ok(cudaDeviceSynchronize(), "running the batch");
      dout.copy_back();
    }
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out.element(i), want[i]) << "job " << i;
  }
}

TEST(CudaApi, ListsEveryRegisteredAlgorithm) {
  ASSERT_EQ(lc::algorithms().size(), lwc::algorithms().size());
  for (std::size_t i = 0; i < lc::algorithms().size(); ++i) {
    EXPECT_EQ(lc::algorithms()[i], lwc::algorithms()[i].name);
    EXPECT_TRUE(lc::supports(lc::algorithms()[i]));
  }
  EXPECT_FALSE(lc::supports("no-such-algorithm"));
}

// The kernel an entry launches is chosen in nvcc's host pass, the kernel compiled for it in
// its device pass; the host compiler's choice (the emulation's) is the reference. A host pass
// that disagrees launches a kernel the device never compiled (invalid device function).
TEST(CudaApi, HostPassPicksTheKernelsTheDeviceCompiled) {
  const d::launch_table& t = d::launchers();
  std::size_t warp = 0;
  for (std::size_t i = 0; i < lwc::algorithms().size(); ++i) {
    const lwc::algorithm& a = lwc::algorithms()[i];
    SCOPED_TRACE(std::string(a.name));
    EXPECT_EQ(t.warp[i], d::uses_warp_engine(lwc::index_of(a)));
    EXPECT_EQ(t.aead[i] != nullptr, a.is_aead());
    EXPECT_EQ(t.sponge[i] != nullptr, !a.is_aead());
    warp += t.warp[i] ? 1 : 0;
  }
  EXPECT_GT(warp, 0u) << "no algorithm runs the warp engine";
}

TEST(CudaApi, WrongSizesThrowBeforeTouchingTheDevice) {
  std::vector<std::uint8_t> keys(32), nonces(32), data(10), out(10), tags(32), ok(2);
  std::vector<std::size_t> off{0, 4, 10};
  lb::packed_aead_inputs x;
  x.keys = keys;
  x.nonces = nonces;
  x.in = {data, off};
  EXPECT_THROW(lc::encrypt_packed("ascon-aead128", x, out, tags, 17), std::invalid_argument);
  EXPECT_THROW(lc::encrypt_packed("ascon-128", x, out, {tags.data(), 8}, 4), std::invalid_argument);
  EXPECT_THROW(lc::encrypt_packed("ascon-aead64", x, out, tags), std::invalid_argument);
  EXPECT_THROW(lc::encrypt_packed("ascon-hash256", x, out, tags), std::invalid_argument);
  EXPECT_THROW(lc::encrypt_packed("ascon-aead128", x, {out.data(), 9}, tags), std::invalid_argument);
  x.second_keys = {keys.data(), 16};
  EXPECT_THROW(lc::encrypt_packed("ascon-aead128", x, out, tags), std::invalid_argument);
  x.second_keys = keys;
  EXPECT_THROW(lc::encrypt_packed("ascon-128a", x, out, tags), std::invalid_argument);
  x.second_keys = {};
  std::vector<std::size_t> bad{0, 5, 4};
  x.in.offsets = bad;
  EXPECT_THROW(lc::encrypt_packed("ascon-aead128", x, out, tags), std::invalid_argument);
  x.in.offsets = off;
  EXPECT_THROW((void)lc::decrypt_packed("ascon-aead128", x, tags, out, {ok.data(), 1}), std::invalid_argument);
  lb::packed_aead_jobs f;
  f.count = 2;
  f.keys = lb::column::fixed(keys, 16);
  f.nonces = lb::column::fixed(nonces, 16);
  f.in = lb::column::with_offsets<std::size_t>(data, off);
  f.out = lb::out_column::with_offsets<std::size_t>(out, off);
  f.tags_out = lb::out_column::fixed(tags, 16);
  EXPECT_THROW(lc::encrypt_async("ascon-aead128", f, 17, nullptr), std::invalid_argument);
  f.keys = lb::column::fixed(keys, 8);
  EXPECT_THROW(lc::encrypt_async("ascon-aead128", f, 16, nullptr), std::invalid_argument);
  std::vector<std::uint8_t> digest(64);
  EXPECT_THROW(lc::hash_packed("ascon-hash256", {data, off}, {digest.data(), 63}, 32), std::invalid_argument);
  EXPECT_THROW(lc::hash_packed("ascon-hash256", {data, off}, digest, 16), std::invalid_argument);
  EXPECT_THROW(lc::hash_packed("ascon-aead128", {data, off}, {digest.data(), 64}, 32), std::invalid_argument);

  // Grain-128AEADv2: 12-byte nonces and 8-byte tags only; Acorn-128: 16-byte tags; no second keys.
  lb::packed_aead_inputs g;
  g.keys = keys;
  g.nonces = nonces;
  g.in = {data, off};
  EXPECT_THROW(lc::encrypt_packed("grain-128aead", g, out, {tags.data(), 16}, 8), std::invalid_argument);
  g.nonces = {nonces.data(), 24};
  EXPECT_THROW(lc::encrypt_packed("grain-128aead", g, out, tags, 16), std::invalid_argument);
  EXPECT_THROW(lc::encrypt_packed("acorn-128", x, out, {tags.data(), 16}, 8), std::invalid_argument);
  x.second_keys = keys;
  EXPECT_THROW(lc::encrypt_packed("acorn-128", x, out, tags, 16), std::invalid_argument);
}

TEST(CudaApi, NoDeviceIsReportedAsSuch) {
  if (lc::available()) GTEST_SKIP() << "a CUDA device is present: " << lc::device_description();
  EXPECT_EQ(lc::device_count(), 0);
  std::vector<std::uint8_t> keys(16), nonces(16), data(4), out(4), tags(16);
  std::vector<std::size_t> off{0, 4};
  lb::packed_aead_inputs x;
  x.keys = keys;
  x.nonces = nonces;
  x.in = {data, off};
  EXPECT_THROW(lc::encrypt_packed("ascon-aead128", x, out, tags), lc::no_device);
  lb::packed_aead_jobs f;
  f.count = 1;
  f.keys = lb::column::fixed(keys, 16);
  f.nonces = lb::column::fixed(nonces, 16);
  f.in = lb::column::fixed(data, 4);
  f.out = lb::out_column::fixed(out, 4);
  f.tags_out = lb::out_column::fixed(tags, 16);
  EXPECT_THROW(lc::encrypt_async("ascon-aead128", f, 16, nullptr), lc::no_device);
  EXPECT_THROW(lc::pinned_buffer(64), lc::no_device);
  try {
    lc::hash_packed("ascon-hash256", {data, off}, {out.data(), 0}, 32);
    ADD_FAILURE() << "expected an exception";
  } catch (const std::invalid_argument&) {  // the output size is checked first
  }
  std::vector<std::uint8_t> digest(32);
  EXPECT_THROW(lc::hash_packed("ascon-hash256", {data, off}, digest, 32), lc::no_device);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (lwc::cuda::available()) {
    std::printf("CUDA device: %s\n", lwc::cuda::device_description().c_str());
  } else {
    std::printf("no CUDA device: GPU tests skipped\n");
  }
  return RUN_ALL_TESTS();
}
