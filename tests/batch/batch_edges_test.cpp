// SPDX-License-Identifier: MIT OR Apache-2.0
// The batch engine's C++ API at its edges: sizes whose products wrap (n * out_len, n * tag_len)
// are refused before anything is read or written; outputs that overlap inputs are refused
// with a message naming the buffers (exactly in place excepted); the default tag is the full
// one. Runs under ASan/UBSan in stage 20: a wrapped product used to size a write crashed there.
// The packed job form on every layout (fixed and offset columns of each offset type, tags
// appended or detached) against the single-message core, and its refusals; the library's
// thread pool under nesting, concurrent callers and fork.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/packed_jobs.hpp>
#include <lwc/registry.hpp>

#include "../threads/pool.hpp"
#include "form_columns.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
namespace batch = lwc::batch;

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr std::size_t sweep[] = {std::size_t{1} << 31,       (std::size_t{1} << 31) + 1,
                                 0xFFFFFFFFu,                std::size_t{1} << 32,
                                 std::size_t{1} << 63,       (std::size_t{1} << 63) + 1,
                                 size_max - 16,              size_max - 1,
                                 size_max};

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

const batch::options one_thread{1, {}};

TEST(BatchSizes, WrappingProductsAreRefused) {
  bytes msgs(64, 1), out(64), tags(64), keys(32, 2), nonces(32, 3);
  std::vector<std::uint8_t> ok(2);
  const std::size_t offsets[] = {0, 16, 32};
  const batch::packed in{msgs, offsets};
  for (const std::size_t n : sweep) {
    SCOPED_TRACE(n);
    // Two digests of n bytes: 2 * n wraps for n >= 2^63 and, before the check, sized the
    // output check to a few bytes while the engine wrote n per job.
    if (n > size_max / 2) {
      EXPECT_THROW(batch::hash_packed("ascon-xof128", in, {out.data(), 2 * n}, n, one_thread),
                   std::invalid_argument);
    }
    EXPECT_THROW(batch::hash_packed("ascon-hash256", in, out, n, one_thread),
                 std::invalid_argument);
    const batch::packed_aead_inputs aead{keys, nonces, in, {}, {}};
    EXPECT_THROW(batch::encrypt_packed("ascon-aead128", aead, out, {tags.data(), 2 * n}, n,
                                       one_thread),
                 std::invalid_argument);
    EXPECT_THROW((void)batch::decrypt_packed("ascon-aead128", aead, {tags.data(), 2 * n}, out, ok,
                                             n, one_thread),
                 std::invalid_argument);
    const batch::aead_job job{{keys.data(), 16}, {nonces.data(), 16}, {}, {}, {},
                              {tags.data(), 16}, {}};
    EXPECT_THROW(batch::encrypt("ascon-aead128", {&job, 1}, n, one_thread), std::invalid_argument);
    EXPECT_THROW((void)batch::decrypt("ascon-aead128", {&job, 1}, {ok.data(), 1}, n, one_thread),
                 std::invalid_argument);
  }
  EXPECT_NE(error_of([&] {
              batch::hash_packed("ascon-xof128", in, {out.data(), 0}, std::size_t{1} << 63,
                                 one_thread);
            }).find("does not fit"),
            std::string::npos);
}

TEST(BatchOverlaps, OutputsMustNotShareMemoryWithInputs) {
  bytes pool(1024, 7), tags(64), out(256);
  std::vector<std::uint8_t> ok(4);
  const std::size_t offsets[] = {0, 32, 64, 96, 128};
  // keys [0, 64), nonces [64, 128), messages [256, 384), associated data [512, 640)
  batch::packed_aead_inputs in{{pool.data(), 64},
                               {pool.data() + 64, 64},
                               {{pool.data() + 256, 128}, offsets},
                               {{pool.data() + 512, 128}, offsets},
                               {}};
  batch::encrypt_packed("ascon-aead128", in, {out.data(), 128}, tags, batch::full_tag, one_thread);
  // exactly in place
  batch::encrypt_packed("ascon-aead128", in, {pool.data() + 256, 128}, tags, batch::full_tag,
                        one_thread);
  const struct {
    std::size_t out_at;
    const char* input;
  } shifted[] = {{257, "message"}, {200, "message"}, {60, "key"}, {64, "nonce"}, {540, "associated data"}};
  for (const auto& c : shifted) {
    SCOPED_TRACE(c.out_at);
    const std::string e = error_of([&] {
      batch::encrypt_packed("ascon-aead128", in, {pool.data() + c.out_at, 128}, tags,
                            batch::full_tag, one_thread);
    });
    EXPECT_NE(e.find(std::string("overlaps the ") + c.input), std::string::npos) << e;
    EXPECT_NE(e.find("ascon-aead128"), std::string::npos) << e;
  }
  EXPECT_NE(error_of([&] {
              batch::encrypt_packed("ascon-aead128", in, {out.data(), 128},
                                    {pool.data() + 520, 64}, batch::full_tag, one_thread);
            }).find("tag buffer overlaps the associated data"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              (void)batch::decrypt_packed("ascon-aead128", in, {out.data() + 120, 64},
                                          {out.data(), 128}, ok, batch::full_tag, one_thread);
            }).find("overlaps the tag"),
            std::string::npos);

  // a job's output against its own key, nonce, associated data, tag
  bytes key(16, 1), nonce(16, 2), msg(48, 3), job_out(48), tag(16);
  batch::aead_job job{key,  nonce, {msg.data(), 8}, {msg.data() + 16, 32}, {msg.data() + 16, 32},
                      tag, {}};
  batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread);  // in place
  job.out = {msg.data() + 12, 32};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("job 0: output overlaps the input"),
            std::string::npos);
  job.out = {msg.data(), 32};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("overlaps"),
            std::string::npos);
  job.out = {job_out.data(), 32};
  job.tag = {msg.data() + 4, 16};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("tag overlaps"),
            std::string::npos);

  // hashes: no sharing at all
  bytes digest_pool(256, 5);
  const std::size_t hash_offsets[] = {0, 32, 64};
  const batch::packed hin{{digest_pool.data(), 64}, hash_offsets};
  EXPECT_NE(error_of([&] {
              batch::hash_packed("ascon-hash256", hin, {digest_pool.data() + 32, 64}, 32,
                                 one_thread);
            }).find("output buffer overlaps the message"),
            std::string::npos);
  batch::hash_job hj{{digest_pool.data(), 64}, {digest_pool.data() + 63, 32}};
  EXPECT_NE(error_of([&] { batch::hash("ascon-hash256", {&hj, 1}, one_thread); }).find("job 0"),
            std::string::npos);
}

// ---- the packed job form ----------------------------------------------------------------------

namespace jobs = lwc::jobs;

using namespace lwc::test::form;

// Every AEAD, every backend, 1 and 2 threads: random layouts of every column, tags appended or
// detached, against the registry's single-message functions; then decryption from another
// random layout, with one tampered job that must fail and come out zeroed.
TEST(PackedForm, EveryLayoutEqualsTheSingleMessageCore) {
  std::mt19937 rng(20261128);
  for (const lwc::algorithm& a : lwc::algorithms()) {
    if (!a.is_aead()) continue;
    for (const std::string_view backend : batch::available_backends()) {
      for (const unsigned threads : {1u, 2u}) {
        for (int round = 0; round < 4; ++round) {
          SCOPED_TRACE(std::string(a.name) + " " + std::string(backend) + " threads " +
                       std::to_string(threads) + " round " + std::to_string(round));
          const batch::options opt{threads, backend};
          const std::size_t n = 1 + rng() % 70;
          const bool same_length = rng() % 3 == 0;
          const std::size_t common = rng() % 80;
          const bool appended = rng() % 2 == 0;
          const bool masked = a.second_key_size != 0 && rng() % 2 == 0;
          const bool with_ad = rng() % 3 != 0;
          const std::size_t tag_len = a.tag_size;
          std::vector<bytes> keys, nonces, seconds, ads, msgs, cts, tags;
          for (std::size_t i = 0; i < n; ++i) {
            keys.push_back(random_bytes(a.key_size, rng));
            nonces.push_back(random_bytes(a.nonce_size, rng));
            seconds.push_back(random_bytes(a.second_key_size, rng));
            ads.push_back(random_bytes(with_ad ? rng() % 40 : 0, rng));
            msgs.push_back(random_bytes(same_length ? common : rng() % 200, rng));
            bytes ct(msgs[i].size()), tag(tag_len);
            a.encrypt(keys[i].data(), masked ? seconds[i].data() : nullptr, nonces[i].data(),
                      ads[i].data(), ads[i].size(), msgs[i].data(), msgs[i].size(), ct.data(),
                      tag.data(), tag_len);
            cts.push_back(ct);
            tags.push_back(tag);
          }
          std::vector<bytes> out_shape, tag_shape(n, bytes(tag_len));
          for (std::size_t i = 0; i < n; ++i) out_shape.emplace_back(msgs[i].size() + (appended ? tag_len : 0));
          stored_column k = store(keys, pick(rng, true), rng);
          stored_column no = store(nonces, pick(rng, true), rng);
          stored_column sk = store(seconds, pick(rng, true), rng);
          stored_column ad = store(ads, pick(rng, !with_ad), rng);
          stored_column in = store(msgs, pick(rng, same_length), rng);
          stored_column out = store(out_shape, pick(rng, same_length), rng);
          stored_column tg = store(tag_shape, pick(rng, true), rng);
          jobs::packed_aead_jobs f;
          f.count = n;
          f.keys = k.in();
          f.nonces = no.in();
          if (masked) f.second_keys = sk.in();
          if (with_ad) f.ad = ad.in();
          f.in = in.in();
          f.out = out.out();
          f.tags = appended ? jobs::tag_place::appended : jobs::tag_place::detached;
          if (!appended) f.tags_out = tg.out();
          batch::encrypt(a, f, batch::full_tag, opt);
          std::vector<bytes> sealed;
          for (std::size_t i = 0; i < n; ++i) {
            bytes want = cts[i];
            if (appended) want.insert(want.end(), tags[i].begin(), tags[i].end());
            ASSERT_EQ(out.element(i), want) << "job " << i;
            if (!appended) {
              ASSERT_EQ(tg.element(i), tags[i]) << "job " << i;
            }
            bytes both = cts[i];
            both.insert(both.end(), tags[i].begin(), tags[i].end());
            sealed.push_back(both);
          }

          // Decrypt from fresh layouts; job `bad` has one bit of its ciphertext or tag flipped.
          const bool dec_appended = rng() % 2 == 0;
          const std::size_t bad = rng() % n;
          std::vector<bytes> dec_in, dec_tags, plain_shape;
          for (std::size_t i = 0; i < n; ++i) {
            dec_in.push_back(dec_appended ? sealed[i] : cts[i]);
            dec_tags.push_back(tags[i]);
            plain_shape.emplace_back(msgs[i].size(), 0xAA);
          }
          if (dec_appended) dec_in[bad].back() ^= 1;
          else dec_tags[bad][0] ^= 1;
          stored_column din = store(dec_in, pick(rng, same_length), rng);
          stored_column dout = store(plain_shape, pick(rng, same_length), rng);
          stored_column dtg = store(dec_tags, pick(rng, true), rng);
          f.in = din.in();
          f.out = dout.out();
          f.tags = dec_appended ? jobs::tag_place::appended : jobs::tag_place::detached;
          f.tags_out = {};
          if (!dec_appended) f.tags_in = dtg.in();
          std::vector<std::uint8_t> ok(n, 7);
          EXPECT_EQ(batch::decrypt(a, f, ok, batch::full_tag, opt), n - 1);
          for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(ok[i], i == bad ? 0 : 1) << "job " << i;
            EXPECT_EQ(dout.element(i), i == bad ? bytes(msgs[i].size(), 0) : msgs[i]) << "job " << i;
          }
        }
      }
    }
  }
}

// Hashes, XOFs (one output length per job through an offset column), CXOFs (customization
// column), MACs and PRFs (key column) against the single-message core.
TEST(PackedForm, HashColumnsEqualTheSingleMessageCore) {
  std::mt19937 rng(7);
  for (const lwc::algorithm& a : lwc::algorithms()) {
    if (a.is_aead()) continue;
    for (const unsigned threads : {1u, 2u}) {
      SCOPED_TRACE(std::string(a.name) + " threads " + std::to_string(threads));
      const std::size_t n = 1 + rng() % 50;
      const bool fixed_out = a.max_output_size != 0 || rng() % 2 == 0;
      const std::size_t common_out = a.max_output_size != 0 ? a.output_size : 1 + rng() % 64;
      const bool custom = a.max_customization_size != 0 && rng() % 4 != 0;
      std::vector<bytes> ins, keys, customs, outs;
      for (std::size_t i = 0; i < n; ++i) {
        ins.push_back(random_bytes(std::min<std::size_t>(rng() % 150, a.max_input_size), rng));
        keys.push_back(random_bytes(a.is_keyed() ? a.key_size : 0, rng));
        customs.push_back(random_bytes(custom ? std::min<std::size_t>(rng() % 30, a.max_customization_size) : 0, rng));
        outs.emplace_back(fixed_out ? common_out : rng() % 90);
      }
      stored_column in = store(ins, pick(rng, false), rng);
      stored_column out = store(outs, fixed_out ? pick(rng, true) : pick(rng, false), rng);
      stored_column k = store(keys, pick(rng, true), rng);
      stored_column c = store(customs, pick(rng, false), rng);
      jobs::packed_hash_jobs f;
      f.count = n;
      f.in = in.in();
      f.out = out.out();
      if (a.is_keyed()) f.keys = k.in();
      if (custom) f.customization = c.in();
      batch::hash(a, f, {threads, {}});
      alignas(8) std::uint8_t st[lwc::max_hash_state_size];
      for (std::size_t i = 0; i < n; ++i) {
        bytes want(outs[i].size());
        a.init(st, a.is_keyed() ? keys[i].data() : nullptr, customs[i].data(), customs[i].size());
        a.absorb(st, ins[i].data(), ins[i].size());
        a.squeeze(st, want.data(), want.size());
        a.destroy(st);
        ASSERT_EQ(out.element(i), want) << "job " << i;
      }
    }
  }
}

// A form of two ascon-aead128 jobs whose columns the refusal cases below bend one at a time.
struct two_jobs {
  bytes keys = bytes(32, 1), nonces = bytes(32, 2), msgs = bytes(40, 3), out = bytes(40),
        tags = bytes(32);
  std::uint32_t off[3] = {0, 10, 40};
  jobs::packed_aead_jobs form() {
    jobs::packed_aead_jobs f;
    f.count = 2;
    f.keys = jobs::column::fixed(keys, 16);
    f.nonces = jobs::column::fixed(nonces, 16);
    f.in = jobs::column::with_offsets<std::uint32_t>(msgs, off);
    f.out = jobs::out_column::with_offsets<std::uint32_t>(out, off);
    f.tags_out = jobs::out_column::fixed(tags, 16);
    return f;
  }
};

std::string form_error(jobs::packed_aead_jobs f, bool decrypt = false) {
  return error_of([&] {
    if (!decrypt) {
      batch::encrypt("ascon-aead128", f, batch::full_tag, one_thread);
    } else {
      std::vector<std::uint8_t> ok(f.count);
      f.tags_in = jobs::column::fixed(f.tags_out.data, f.tags_out.stride);
      f.tags_out = {};
      (void)batch::decrypt("ascon-aead128", f, ok, batch::full_tag, one_thread);
    }
  });
}

// The offsets check reads long columns in blocks: a decrease is found at its entry wherever
// it falls (the first entry, a block's first or last entry, the middle, the last entry), in
// the input or the output column.
TEST(PackedForm, FindsADecreaseAnywhereInALongColumn) {
  constexpr std::size_t n = 3000;
  bytes keys(16 * n, 1), nonces(16 * n, 2), msgs(n, 3), out(n), tags(16 * n);
  std::vector<std::uint64_t> rising(n + 1);
  for (std::size_t k = 0; k <= n; ++k) rising[k] = k;
  jobs::packed_aead_jobs f;
  f.count = n;
  f.keys = jobs::column::fixed(keys, 16);
  f.nonces = jobs::column::fixed(nonces, 16);
  f.in = jobs::column::with_offsets<std::uint64_t>(msgs, rising);
  f.out = jobs::out_column::with_offsets<std::uint64_t>(out, rising);
  f.tags_out = jobs::out_column::fixed(tags, 16);
  EXPECT_EQ(form_error(f), "(no error)");
  for (const std::size_t at : {std::size_t{1}, std::size_t{1024}, std::size_t{1025},
                               std::size_t{2500}, n}) {
    SCOPED_TRACE(at);
    std::vector<std::int32_t> dip(n + 1);
    for (std::size_t k = 0; k <= n; ++k) dip[k] = static_cast<std::int32_t>(k);
    dip[at] = static_cast<std::int32_t>(at) - 2;  // below entry at - 1 (negative at 1)
    auto g = f;
    g.in = jobs::column::with_offsets<std::int32_t>(msgs, dip);
    EXPECT_NE(form_error(g).find("input column: offsets decrease at entry " + std::to_string(at)),
              std::string::npos)
        << form_error(g);
    if (at < 2) continue;  // unsigned offsets from 0 cannot dip at entry 1
    std::vector<std::uint64_t> out_dip(rising);
    out_dip[at] = at - 2;
    g = f;
    g.out = jobs::out_column::with_offsets<std::uint64_t>(out, out_dip);
    EXPECT_NE(form_error(g).find("output column: offsets decrease at entry " + std::to_string(at)),
              std::string::npos)
        << form_error(g);
  }
}

TEST(PackedForm, RefusesWhatItCannotRunSafely) {
  two_jobs t;
  EXPECT_EQ(form_error(t.form()), "(no error)");
  EXPECT_EQ(form_error(t.form(), true), "(no error)");  // runs (and fails to verify)

  // An empty batch needs no buffers at all.
  std::vector<std::uint8_t> no_flags;
  EXPECT_EQ(form_error(jobs::packed_aead_jobs{}), "(no error)");
  EXPECT_EQ(batch::decrypt("ascon-aead128", jobs::packed_aead_jobs{}, no_flags), 0u);
  batch::hash("ascon-mac", jobs::packed_hash_jobs{}, one_thread);

  auto f = t.form();
  f.keys = jobs::column::fixed({t.keys.data(), 16}, 8);  // 2 keys of 8 bytes
  EXPECT_NE(form_error(f).find("key column: stride must be 16 bytes"), std::string::npos)
      << form_error(f);
  f = t.form();
  f.nonces = jobs::column::fixed({t.nonces.data(), 0}, 0);  // "one nonce for all": no such form
  EXPECT_NE(form_error(f).find("nonce column: stride must be 16"), std::string::npos);
  f = t.form();
  f.nonces = jobs::column::fixed({t.nonces.data(), 16}, 16);  // one nonce, two jobs
  EXPECT_NE(form_error(f).find("nonce column: 2 elements of 16 bytes need 32 bytes, got 16"),
            std::string::npos);

  std::uint32_t down[3] = {0, 20, 10};
  f = t.form();
  f.in = jobs::column::with_offsets<std::uint32_t>(t.msgs, down);
  EXPECT_NE(form_error(f).find("input column: offsets decrease at entry 2"), std::string::npos);
  std::uint64_t past[3] = {0, 10, 41};
  f = t.form();
  f.in = jobs::column::with_offsets<std::uint64_t>(t.msgs, past);
  EXPECT_NE(form_error(f).find("input column: offsets run past the end of the data (41 > 40)"),
            std::string::npos);
  std::int64_t negative[3] = {-8, 2, 32};
  f = t.form();
  f.in = jobs::column::with_offsets<std::int64_t>(t.msgs, negative);
  EXPECT_NE(form_error(f).find("offset 0 is negative"), std::string::npos);
  std::int32_t dips[3] = {0, -1, 32};
  f = t.form();
  f.in = jobs::column::with_offsets<std::int32_t>(t.msgs, dips);
  EXPECT_NE(form_error(f).find("offsets decrease at entry 1"), std::string::npos);
  f = t.form();
  f.in.offset_count = 2;  // n + 1 = 3 needed
  EXPECT_NE(form_error(f).find("3 offsets needed, got 2"), std::string::npos);

  // huge counts: refused at the first column, whether count * 16 wraps or not
  for (const std::size_t n : sweep) {
    SCOPED_TRACE(n);
    f = t.form();
    f.count = n;
    const std::string e = form_error(f);
    const bool wraps = n > size_max / 16;
    EXPECT_NE(e.find(wraps ? "does not fit" : "key column: " + std::to_string(n) + " elements"),
              std::string::npos)
        << e;
  }
  f = t.form();
  f.in = jobs::column::fixed({t.msgs.data(), 40}, 20);
  f.out = jobs::out_column::fixed({t.out.data(), 40}, size_max - 7);  // 20 + 16 appended?
  f.tags = jobs::tag_place::appended;
  f.tags_out = {};
  EXPECT_NE(form_error(f).find("does not fit"), std::string::npos) << form_error(f);

  // element sizes and tag placement
  f = t.form();
  f.out = jobs::out_column::fixed({t.out.data(), 40}, 20);
  EXPECT_NE(form_error(f).find("job 0: output must be 10 bytes, got 20"), std::string::npos);
  std::int64_t short_out[3] = {0, 10, 39};  // offsets on both sides, of different types
  f = t.form();
  f.out = jobs::out_column::with_offsets<std::int64_t>({t.out.data(), 40}, short_out);
  EXPECT_NE(form_error(f).find("job 1: output must be 30 bytes, got 29"), std::string::npos)
      << form_error(f);
  std::uint32_t tagged_out[3] = {0, 26, 72};
  bytes tagged(72);
  f = t.form();
  f.tags = jobs::tag_place::appended;
  f.tags_out = {};
  f.out = jobs::out_column::with_offsets<std::uint32_t>(tagged, tagged_out);
  EXPECT_EQ(form_error(f), "(no error)");
  f.in = jobs::column::with_offsets<std::uint32_t>(tagged, tagged_out);
  f.out = jobs::out_column::with_offsets<std::uint32_t>(t.msgs, t.off);
  EXPECT_EQ(form_error(f, true), "(no error)");  // runs (and fails to verify)
  std::uint32_t short_ct[3] = {0, 26, 41};  // job 1: 15 bytes, no room for the tag
  f.in = jobs::column::with_offsets<std::uint32_t>(tagged, short_ct);
  EXPECT_NE(form_error(f, true).find("job 1: ciphertext of 15 bytes cannot hold a 16-byte tag"),
            std::string::npos)
      << form_error(f, true);
  f = t.form();
  f.tags = jobs::tag_place::appended;
  EXPECT_NE(form_error(f).find("tag columns given with tags appended"), std::string::npos);
  f = t.form();
  f.tags = jobs::tag_place::appended;
  f.tags_out = {};
  f.in = jobs::column::fixed({t.msgs.data(), 20}, 10);
  f.out = jobs::out_column::fixed({t.out.data(), 20}, 10);
  EXPECT_NE(form_error(f, false).find("output column: stride must be 26 bytes, got 10"),
            std::string::npos);
  EXPECT_NE(form_error(f, true).find("cannot hold a 16-byte tag"), std::string::npos)
      << form_error(f, true);
  f = t.form();
  f.tags_out = jobs::out_column::fixed({t.tags.data(), 16}, 8);
  EXPECT_NE(form_error(f).find("tag column: stride must be 16 bytes (the tag length)"),
            std::string::npos);

  // overlapping outputs
  bytes pool(512, 9);
  std::uint32_t pool_off[3] = {0, 10, 40};
  f = t.form();
  f.keys = jobs::column::fixed({pool.data(), 32}, 16);
  f.out = jobs::out_column::with_offsets<std::uint32_t>({pool.data() + 20, 40}, pool_off);
  EXPECT_NE(form_error(f).find("output column overlaps the key column"), std::string::npos)
      << form_error(f);
  f = t.form();
  f.tags_out = jobs::out_column::fixed({t.out.data() + 8, 32}, 16);
  EXPECT_NE(form_error(f).find("overlaps"), std::string::npos) << form_error(f);
  f = t.form();
  f.in = jobs::column::with_offsets<std::uint32_t>({pool.data() + 200, 40}, pool_off);
  f.out = jobs::out_column::with_offsets<std::uint32_t>({pool.data() + 201, 40}, pool_off);
  EXPECT_NE(form_error(f).find("output column overlaps the input column"), std::string::npos)
      << form_error(f);
  // the output over the offsets that place it (or the input)
  std::memcpy(pool.data() + 100, pool_off, sizeof pool_off);
  const std::uint32_t* pooled_off = reinterpret_cast<const std::uint32_t*>(pool.data() + 100);
  f = t.form();
  f.in = jobs::column::with_offsets<std::uint32_t>(t.msgs, {pooled_off, 3});
  f.out = jobs::out_column::with_offsets<std::uint32_t>({pool.data() + 90, 40}, {pooled_off, 3});
  EXPECT_NE(form_error(f).find("overlaps the input offsets"), std::string::npos) << form_error(f);
  f.in = jobs::column::with_offsets<std::uint32_t>(t.msgs, t.off);
  EXPECT_NE(form_error(f).find("overlaps the output offsets"), std::string::npos) << form_error(f);
  // ok flags over the output
  f = t.form();
  f.tags_in = jobs::column::fixed(t.tags, 16);
  f.tags_out = {};
  EXPECT_NE(error_of([&] {
              (void)batch::decrypt("ascon-aead128", f, {t.out.data() + 4, 2}, batch::full_tag,
                                   one_thread);
            }).find("ok flags"),
            std::string::npos);

  // exactly in place (detached tags) is the one exception, and gives the right ciphertext
  bytes copy = t.msgs;
  f = t.form();
  f.out = jobs::out_column::with_offsets<std::uint32_t>(t.msgs, t.off);
  EXPECT_EQ(form_error(f), "(no error)");
  bytes separate(40);
  f = t.form();
  f.in = jobs::column::with_offsets<std::uint32_t>(copy, t.off);
  f.out = jobs::out_column::with_offsets<std::uint32_t>(separate, t.off);
  bytes separate_tags(32);
  f.tags_out = jobs::out_column::fixed(separate_tags, 16);
  EXPECT_EQ(form_error(f), "(no error)");
  EXPECT_EQ(separate, t.msgs);
  EXPECT_EQ(separate_tags, t.tags);
  f = t.form();
  f.tags = jobs::tag_place::appended;
  f.tags_out = {};
  f.in = jobs::column::fixed({t.out.data(), 0}, 0);
  f.out = jobs::out_column::fixed({t.out.data(), 32}, 16);
  f.in = jobs::column::fixed({t.out.data(), 0}, 0);
  EXPECT_EQ(form_error(f), "(no error)");  // empty messages: the output is just the tags

  // hashes
  bytes hin(64, 4), hout(64);
  jobs::packed_hash_jobs h;
  h.count = 2;
  h.in = jobs::column::fixed(hin, 32);
  h.out = jobs::out_column::fixed(hout, 32);
  batch::hash("ascon-hash256", h, one_thread);
  h.out = jobs::out_column::fixed(hout, 16);
  h.out.data = {hout.data(), 32};
  EXPECT_NE(error_of([&] { batch::hash("ascon-hash256", h, one_thread); })
                .find("output column: stride must be 32 bytes (the output size)"),
            std::string::npos);
  h.out = jobs::out_column::fixed({hin.data() + 16, 64 - 16}, 24);
  EXPECT_NE(error_of([&] { batch::hash("ascon-xof128", h, one_thread); })
                .find("output column overlaps the input column"),
            std::string::npos);
  h.out = jobs::out_column::fixed(hout, 32);
  h.keys = jobs::column::fixed(hin, 32);
  EXPECT_NE(error_of([&] { batch::hash("ascon-hash256", h, one_thread); }).find("takes no key"),
            std::string::npos);
  h.keys = jobs::column::fixed({hin.data(), 16}, 8);
  h.out = jobs::out_column::fixed({hout.data(), 32}, 16);  // two 16-byte tags
  EXPECT_NE(error_of([&] { batch::hash("ascon-mac", h, one_thread); })
                .find("key column: stride must be 16"),
            std::string::npos);
}

// ---- the library's thread pool -----------------------------------------------------------------

// Parallel calls inside parallel calls (a stream chunk sealed by the engine on a worker) and
// many callers at once: every participant that starts is waited for, none is needed.
TEST(ThreadPool, NestedAndConcurrentCallsFinish) {
  std::atomic<std::size_t> done{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int r = 0; r < 50; ++r) {
        std::atomic<std::size_t> next{0};
        lwc::threads::parallel(4, [&] {
          for (std::size_t i; (i = next.fetch_add(1)) < 8;) {
            std::atomic<std::size_t> inner{0};
            lwc::threads::parallel(3, [&] {
              while (inner.fetch_add(1) < 16) done.fetch_add(1);
            });
          }
        });
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(done.load(), 4u * 50 * 8 * 16);
}

TEST(ThreadPool, ExceptionsReachTheJoiningThread) {
  std::atomic<int> calls{0};
  EXPECT_THROW(lwc::threads::parallel(3,
                                      [&] {
                                        if (calls.fetch_add(1) == 0) throw std::runtime_error("x");
                                      }),
               std::runtime_error);
}

// A forked child has none of its parent's workers; its first batch builds a pool of its own.
TEST(ThreadPool, ForkedChildRunsBatches) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "ThreadSanitizer stops a child that starts threads after a multithreaded fork";
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
  GTEST_SKIP() << "ThreadSanitizer stops a child that starts threads after a multithreaded fork";
#endif
#endif
  bytes in(1 << 16, 1), out(32 * 64);
  jobs::packed_hash_jobs h;
  h.count = 64;
  h.in = jobs::column::fixed(in, 1024);
  h.out = jobs::out_column::fixed(out, 32);
  batch::hash("ascon-hash256", h, {2, {}});  // the parent's pool has workers now
  ASSERT_GT(lwc::threads::pool_workers(), 0u);
  const bytes parent = out;
  const pid_t pid = fork();
  ASSERT_NE(pid, -1);
  if (pid == 0) {
    std::fill(out.begin(), out.end(), 0);
    batch::hash("ascon-hash256", h, {2, {}});
    _exit(out == parent ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
