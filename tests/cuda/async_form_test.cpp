// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA engine's asynchronous entry points without a GPU: the packed job form as
// lwc::cuda::encrypt_async / decrypt_async / hash_async take it (the host checks of
// checks::aead_form and hash_form in device mode, then the form handed to the kernels as it is
// by form_batch), with the kernels' bodies run on the host. Every layout of every column
// (fixed, 32- and 64-bit offsets, signed or not), tags appended or detached, in place,
// per-job XOF lengths, MACs and CXOFs with keys and customization strings, tampered jobs, and
// the offsets the host cannot read: wrong ones cost only their own job.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../src/cuda/emulate.hpp"
#include "../../src/jobs/checks.hpp"
#include "../batch/form_columns.hpp"
#include "checks.hpp"

namespace {

using namespace lwc::cuda::test;
namespace d = lwc::cuda::detail;
namespace f = lwc::test::form;
namespace checks = lwc::jobs::checks;
using lwc::jobs::tag_place;

// What encrypt_async and decrypt_async do between their argument and the launch.
void run_aead_async(const d::algo_info& alg, const lwc::jobs::packed_aead_jobs& form, std::size_t tag_len,
                    bool decrypt, std::vector<std::uint8_t>* ok, std::size_t warps) {
  const lwc::algorithm& a = *alg.entry;
  tag_len = checks::tag_length(a, tag_len);
  checks::aead_form(a, form, tag_len, decrypt, ok != nullptr ? ok->data() : nullptr,
                    ok != nullptr ? ok->size() : 0, checks::memory::device);
  d::emulate_aead(alg.id, decrypt, d::form_batch(alg, form, tag_len, ok != nullptr ? ok->data() : nullptr),
                  warps);
}

void run_hash_async(const d::algo_info& alg, const lwc::jobs::packed_hash_jobs& form, std::size_t warps) {
  checks::hash_form(*alg.entry, form, checks::memory::device);
  d::emulate_sponge(alg.id, d::form_batch(alg, form), warps);
}

// One AEAD batch in the form's columns, with the portable core's ciphertexts and tags.
struct aead_jobs {
  std::size_t n = 0, tag_len = 0;
  std::vector<f::bytes> keys, seconds, nonces, ads, msgs, cts, tags;
};

aead_jobs make_aead_jobs(const lwc::algorithm& a, std::mt19937& rng, bool masking, bool with_ad,
                         bool same_length) {
  aead_jobs j;
  j.n = rng() % 70;
  j.tag_len = a.tag_size;
  if (a.min_tag_size < a.tag_size && rng() % 2 == 0)
    j.tag_len = a.min_tag_size + rng() % (a.tag_size - a.min_tag_size + 1);
  const std::size_t common = rng() % 400;
  for (std::size_t i = 0; i < j.n; ++i) {
    j.keys.push_back(f::random_bytes(a.key_size, rng));
    j.seconds.push_back(f::random_bytes(masking ? a.second_key_size : 0, rng));
    j.nonces.push_back(f::random_bytes(a.nonce_size, rng));
    j.ads.push_back(f::random_bytes(with_ad && rng() % 4 != 0 ? rng() % 60 : 0, rng));
    // Short, medium and a few past the warp engine's 256-byte staging row.
    const std::size_t len = same_length ? common : rng() % 4 == 0 ? rng() % 700 : rng() % 80;
    j.msgs.push_back(f::random_bytes(len, rng));
    f::bytes ct(len), tag(j.tag_len);
    a.encrypt(j.keys[i].data(), masking ? j.seconds[i].data() : nullptr, j.nonces[i].data(),
              j.ads[i].data(), j.ads[i].size(), j.msgs[i].data(), len, ct.data(), tag.data(), j.tag_len);
    j.cts.push_back(ct);
    j.tags.push_back(tag);
  }
  return j;
}

f::bytes joined(const f::bytes& a, const f::bytes& b) {
  f::bytes r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

std::vector<f::bytes> sized(std::size_t n, const std::function<std::size_t(std::size_t)>& size, std::uint8_t fill) {
  std::vector<f::bytes> v;
  for (std::size_t i = 0; i < n; ++i) v.emplace_back(size(i), fill);
  return v;
}

class AsyncForm : public ::testing::TestWithParam<const d::algo_info*> {};

// Random batches in random layouts: encrypt, compare with the core, then decrypt the sealed
// results from other layouts (sometimes in place) with one job tampered: that job alone
// fails, its plaintext zeroed.
TEST_P(AsyncForm, AeadEveryLayoutEqualsTheCore) {
  const d::algo_info& alg = *GetParam();
  const lwc::algorithm& a = *alg.entry;
  std::mt19937 rng(static_cast<unsigned>(9000 + alg.id));
  for (int round = 0; round < 16; ++round) {
    const bool masking = a.second_key_size != 0 && rng() % 2 == 0, with_ad = rng() % 3 != 0;
    const bool same = rng() % 3 == 0, appended = rng() % 2 == 0;
    const aead_jobs j = make_aead_jobs(a, rng, masking, with_ad, same);
    const std::size_t n = j.n, t = j.tag_len, warps = 1 + rng() % 3;
    SCOPED_TRACE("round " + std::to_string(round) + ", n " + std::to_string(n) + ", tag " + std::to_string(t) +
                 (appended ? ", appended" : ", detached") + (masking ? ", masked" : "") +
                 ", warps " + std::to_string(warps));
    f::stored_column k = f::store(j.keys, f::pick(rng, true), rng);
    f::stored_column sk = f::store(j.seconds, f::pick(rng, true), rng);
    f::stored_column no = f::store(j.nonces, f::pick(rng, true), rng);
    f::stored_column ad = f::store(j.ads, f::pick(rng, false), rng);
    f::stored_column in = f::store(j.msgs, f::pick(rng, same), rng);
    f::stored_column out =
        f::store(sized(n, [&](std::size_t i) { return j.msgs[i].size() + (appended ? t : 0); }, 0x5C),
                 f::pick(rng, same), rng);
    f::stored_column tags = f::store(sized(n, [&](std::size_t) { return t; }, 0x5C), f::pick(rng, true), rng);
    lwc::jobs::packed_aead_jobs form;
    form.count = n;
    form.keys = k.in();
    form.nonces = no.in();
    if (masking) form.second_keys = sk.in();
    if (with_ad) form.ad = ad.in();
    form.in = in.in();
    form.out = out.out();
    form.tags = appended ? tag_place::appended : tag_place::detached;
    if (!appended) form.tags_out = tags.out();
    run_aead_async(alg, form, t, false, nullptr, warps);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out.element(i), appended ? joined(j.cts[i], j.tags[i]) : j.cts[i]) << "job " << i;
      if (!appended) {
        ASSERT_EQ(tags.element(i), j.tags[i]) << "job " << i;
      }
    }

    const bool dec_appended = rng() % 2 == 0, in_place = !dec_appended && rng() % 2 == 0;
    const std::size_t bad = n != 0 ? rng() % n : 0;
    std::vector<f::bytes> sealed, dec_tags = j.tags;
    for (std::size_t i = 0; i < n; ++i) sealed.push_back(dec_appended ? joined(j.cts[i], j.tags[i]) : j.cts[i]);
    if (n != 0) {
      if (dec_appended) sealed[bad].back() ^= 0x10;
      else dec_tags[bad][0] ^= 0x01;
    }
    f::stored_column din = f::store(sealed, f::pick(rng, same), rng);
    f::stored_column dout =
        f::store(sized(n, [&](std::size_t i) { return j.msgs[i].size(); }, 0xAA), f::pick(rng, same), rng);
    f::stored_column dtags = f::store(dec_tags, f::pick(rng, true), rng);
    f::stored_column& plain = in_place ? din : dout;
    std::vector<std::uint8_t> ok(n, 7);
    form.in = din.in();
    form.out = plain.out();
    form.tags = dec_appended ? tag_place::appended : tag_place::detached;
    form.tags_out = {};
    if (!dec_appended) form.tags_in = dtags.in();
    run_aead_async(alg, form, t, true, &ok, warps);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(ok[i], i == bad ? 0 : 1) << "job " << i;
      EXPECT_EQ(plain.element(i), i == bad ? f::bytes(j.msgs[i].size(), 0) : j.msgs[i]) << "job " << i;
    }
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Cuda, AsyncForm, ::testing::ValuesIn(algorithms_where(true)), algo_param_name);

// Hashes, XOFs, CXOFs, MACs and PRFs: keys and customization strings as columns of every
// layout; XOFs and PRFs with one output length per job through an offset output column.
TEST(AsyncFormHash, EveryLayoutEqualsTheCore) {
  std::mt19937 rng(31337);
  for (const d::algo_info* alg : algorithms_where(false)) {
    const lwc::algorithm& a = *alg->entry;
    for (int round = 0; round < 8; ++round) {
      const std::size_t n = rng() % 90, warps = 1 + rng() % 3;
      const bool custom = alg->max_customization != 0 && rng() % 4 != 0;
      const bool per_job = alg->fixed_output == 0 && rng() % 2 == 0;
      const std::size_t common = alg->fixed_output != 0 ? a.output_size : rng() % 100;
      SCOPED_TRACE(std::string(a.name) + " round " + std::to_string(round) + ", n " + std::to_string(n) +
                   (per_job ? ", output length per job" : ""));
      std::vector<f::bytes> ins, keys, customs, want;
      for (std::size_t i = 0; i < n; ++i) {
        ins.push_back(f::random_bytes(std::min<std::size_t>(rng() % 4 == 0 ? rng() % 900 : rng() % 70,
                                                            a.max_input_size),
                                      rng));
        keys.push_back(f::random_bytes(a.is_keyed() ? a.key_size : 0, rng));
        customs.push_back(
            f::random_bytes(custom ? std::min<std::size_t>(rng() % 40, a.max_customization_size) : 0, rng));
        f::bytes digest(per_job ? rng() % 300 : common);
        ref_hash(*alg, keys[i].data(), customs[i].data(), customs[i].size(), ins[i].data(), ins[i].size(),
                 digest.data(), digest.size());
        want.push_back(digest);
      }
      f::stored_column in = f::store(ins, f::pick(rng, false), rng);
      f::stored_column out = f::store(sized(n, [&](std::size_t i) { return want[i].size(); }, 0x5C),
                                      f::pick(rng, !per_job), rng);
      f::stored_column k = f::store(keys, f::pick(rng, true), rng);
      f::stored_column c = f::store(customs, f::pick(rng, false), rng);
      lwc::jobs::packed_hash_jobs form;
      form.count = n;
      form.in = in.in();
      form.out = out.out();
      if (a.is_keyed()) form.keys = k.in();
      if (custom) form.customization = c.in();
      run_hash_async(*alg, form, warps);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out.element(i), want[i]) << "job " << i;
    }
  }
}

// The host checks every shape that needs no offset value, before anything would be queued.
TEST(AsyncFormChecks, ShapesAreCheckedOnTheHost) {
  const d::algo_info& alg = *d::find_algo("ascon-aead128");
  const lwc::algorithm& a = *alg.entry;
  std::mt19937 rng(5);
  aead_jobs j;
  do j = make_aead_jobs(a, rng, false, true, true);
  while (j.n < 2);
  const std::size_t n = j.n;
  f::stored_column k = f::store(j.keys, f::layout::fixed, rng);
  f::stored_column no = f::store(j.nonces, f::layout::fixed, rng);
  f::stored_column in = f::store(j.msgs, f::layout::u64, rng);
  f::stored_column out = f::store(sized(n, [&](std::size_t i) { return j.msgs[i].size(); }, 0), f::layout::u64, rng);
  f::stored_column tags = f::store(sized(n, [](std::size_t) { return 16; }, 0), f::layout::fixed, rng);
  const auto base = [&] {
    lwc::jobs::packed_aead_jobs form;
    form.count = n;
    form.keys = k.in();
    form.nonces = no.in();
    form.in = in.in();
    form.out = out.out();
    form.tags_out = tags.out();
    return form;
  };
  const auto refused = [&](const lwc::jobs::packed_aead_jobs& form) {
    EXPECT_THROW(checks::aead_form(a, form, 16, false, nullptr, 0, checks::memory::device), std::invalid_argument);
  };
  EXPECT_NO_THROW(checks::aead_form(a, base(), 16, false, nullptr, 0, checks::memory::device));
  auto form = base();
  form.keys.stride = 0;  // one key for every job
  form.keys.data = form.keys.data.first(16);
  refused(form);
  form = base();
  form.nonces.data = form.nonces.data.first(form.nonces.data.size() - 1);
  refused(form);
  form = base();
  form.in.offsets = static_cast<const std::uint8_t*>(form.in.offsets) + 4;  // misaligned for u64
  refused(form);
  form = base();
  form.in.offset_count = n;  // one entry short
  refused(form);
  form = base();
  form.tags_out = lwc::jobs::out_column::fixed({k.data.data(), k.data.size()}, 16);  // tags over the keys
  refused(form);
  std::vector<std::uint8_t> ok(n - 1);
  lwc::jobs::packed_aead_jobs dec = base();
  dec.tags_out = {};
  dec.tags_in = tags.in();
  EXPECT_THROW(checks::aead_form(a, dec, 16, true, ok.data(), ok.size(), checks::memory::device),
               std::invalid_argument);
}

// Offsets in device memory reach the kernels unread: a pair that decreases, runs past its
// buffer or is negative, or gives a key, nonce, tag or output the wrong size, fails that job
// (decryption: verdict 0, its own output zeroed) and leaves every other job's result intact.
TEST(AsyncFormChecks, WrongDeviceOffsetsCostOnlyTheirJob) {
  for (const char* name : {"ascon-aead128", "grain-128aead"}) {  // a warp kernel and a thread kernel
    const d::algo_info& alg = *d::find_algo(name);
    const lwc::algorithm& a = *alg.entry;
    std::mt19937 rng(77);
    aead_jobs j;
    do j = make_aead_jobs(a, rng, false, true, false);
    while (j.n < 20);
    const std::size_t n = j.n, t = j.tag_len;
    struct breakage {
      const char* what;
      std::size_t job;
    };
    for (const breakage& br : {breakage{"message past its buffer", 3}, breakage{"message offsets decrease", 7},
                               breakage{"negative associated-data offset", 9}, breakage{"short key", 11},
                               breakage{"output of the wrong size", 13}}) {
      SCOPED_TRACE(std::string(name) + ": " + br.what);
      std::vector<f::bytes> keys = j.keys;
      if (std::string(br.what) == "short key") keys[br.job].pop_back();
      f::stored_column k = f::store(keys, f::layout::u32, rng);
      f::stored_column no = f::store(j.nonces, f::layout::fixed, rng);
      f::stored_column ad = f::store(j.ads, f::layout::i32, rng);
      f::stored_column din = f::store(j.cts, f::layout::u64, rng);
      std::vector<f::bytes> plain_shape = sized(n, [&](std::size_t i) { return j.msgs[i].size(); }, 0xAA);
      if (std::string(br.what) == "output of the wrong size") plain_shape[br.job].push_back(0xAA);
      f::stored_column dout = f::store(plain_shape, f::layout::i64, rng);
      f::stored_column dtags = f::store(j.tags, f::layout::fixed, rng);
      if (std::string(br.what) == "message past its buffer") {
        din.u64[br.job + 1] = din.data.size() + 1;
      } else if (std::string(br.what) == "message offsets decrease") {
        din.u64[br.job + 1] = din.u64[br.job] - 1;
      } else if (std::string(br.what) == "negative associated-data offset") {
        ad.i32[br.job] = -1;
      }
      lwc::jobs::packed_aead_jobs form;
      form.count = n;
      form.keys = k.in();
      form.nonces = no.in();
      form.ad = ad.in();
      form.in = din.in();
      form.out = dout.out();
      form.tags_in = dtags.in();
      std::vector<std::uint8_t> ok(n, 7);
      checks::aead_form(a, form, t, true, ok.data(), ok.size(), checks::memory::device);
      d::emulate_aead(alg.id, true, d::form_batch(alg, form, t, ok.data()), 2);
      // Decreasing offsets move the next job's start too: it then holds other bytes.
      const bool moves_next = std::string(br.what) == "message offsets decrease" ||
                              std::string(br.what) == "message past its buffer";
      // An offset is the end of the previous job's element as well.
      const bool ends_previous = std::string(br.what) == "negative associated-data offset";
      for (std::size_t i = 0; i < n; ++i) {
        if ((moves_next && i == br.job + 1) || (ends_previous && i + 1 == br.job)) continue;
        EXPECT_EQ(ok[i], i == br.job ? 0 : 1) << "job " << i;
        if (i != br.job) {
          EXPECT_EQ(dout.element(i), j.msgs[i]) << "job " << i;
        }
      }
      EXPECT_EQ(dout.element(br.job), f::bytes(plain_shape[br.job].size(), 0)) << "the failed job's output";
    }
  }
}

}  // namespace
