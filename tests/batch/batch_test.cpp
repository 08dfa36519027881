// SPDX-License-Identifier: MIT OR Apache-2.0
// The generic batch harness: every backend this CPU runs, with one and several threads,
// against the single-message core (the KAT-verified reference), on random batches of mixed
// lengths; tampering with one job fails that job only; the packed layout equals the span
// layout; the C ABI equals the C++ API; bad arguments are rejected before anything is written.
// Every algorithm of the registry goes through the same checks, whether the backend runs it in
// lanes or job by job: the algorithms are taken from lwc::algorithms(), never named here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <ostream>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <lwc/ascon.hpp>
#include <lwc/batch.h>
#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace {

using bytes = std::vector<std::uint8_t>;

std::vector<const char*> names_where(bool aead) {
  std::vector<const char*> v;
  for (const lwc::algorithm& a : lwc::algorithms())
    if (a.is_aead() == aead) v.push_back(a.name.data());  // registry names are literals
  return v;
}
const std::vector<const char*> aead_algs = names_where(true);
const std::vector<const char*> hash_algs = names_where(false);

// Batch sizes around every lane count (2, 8, 16) and their multiples, and one large batch.
constexpr std::size_t lane_batch_sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 2500};
// Job by job, the lane refills are not in play: fewer sizes keep the run short.
constexpr std::size_t job_batch_sizes[] = {1, 3, 17, 100};

std::span<const std::size_t> batch_sizes(const char* name, const std::string& backend) {
  if (lwc::batch::has_lanes(name, backend)) return lane_batch_sizes;
  return job_batch_sizes;
}

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// Lengths 0..4096 mixed in one batch, weighted towards the short ones and the block edges
// where padding and lane refills happen.
std::size_t random_length(std::mt19937_64& rng, std::size_t max = 4096) {
  switch (rng() % 5) {
    case 0: return rng() % (max + 1);
    case 1: return rng() % 65;
    case 2: return rng() % 17;
    case 3: {
      const std::size_t blocks = rng() % 40;
      const std::size_t n = blocks * 8 + rng() % 3;
      return n > 0 && rng() % 2 ? n - 1 : n;
    }
    default: return 256 + rng() % 1024;
  }
}

struct aead_batch {
  std::vector<bytes> key, nonce, second_key, ad, pt, ct, tag;
  std::size_t tag_len = 16;
};

aead_batch make_aead_batch(std::mt19937_64& rng, const lwc::algorithm& a, std::size_t n,
                           bool masking) {
  aead_batch b;
  b.tag_len = a.min_tag_size + rng() % (a.tag_size - a.min_tag_size + 1);
  for (std::size_t i = 0; i < n; ++i) {
    b.key.push_back(random_bytes(rng, a.key_size));
    b.nonce.push_back(random_bytes(rng, a.nonce_size));
    b.second_key.push_back(masking && rng() % 2 ? random_bytes(rng, a.second_key_size) : bytes{});
    const std::size_t ad_len = rng() % 3 == 0 ? 0 : random_length(rng, 300);
    b.ad.push_back(random_bytes(rng, ad_len));
    b.pt.push_back(random_bytes(rng, random_length(rng)));
  }
  return b;
}

// The single-message core's ciphertexts and tags.
void reference_encrypt(const lwc::algorithm& a, aead_batch& b) {
  const std::size_t n = b.key.size();
  b.ct.assign(n, {});
  b.tag.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) {
    b.ct[i].resize(b.pt[i].size());
    b.tag[i].resize(b.tag_len);
    lwc::aead_encrypt(a, b.key[i], b.nonce[i], b.ad[i], b.pt[i], b.ct[i], b.tag[i],
                      b.second_key[i]);
  }
}

std::vector<lwc::batch::aead_job> jobs_for(aead_batch& b, std::vector<bytes>& in,
                                           std::vector<bytes>& out, std::vector<bytes>& tags) {
  std::vector<lwc::batch::aead_job> jobs;
  for (std::size_t i = 0; i < b.key.size(); ++i)
    jobs.push_back({b.key[i], b.nonce[i], b.ad[i], in[i], out[i], tags[i], b.second_key[i]});
  return jobs;
}

std::vector<bytes> sized_like(const std::vector<bytes>& v) {
  std::vector<bytes> r;
  for (const bytes& x : v) r.emplace_back(x.size(), 0xee);
  return r;
}

std::string job_name(std::size_t i, const aead_batch& b) {
  return "job " + std::to_string(i) + " (ad " + std::to_string(b.ad[i].size()) + ", msg " +
         std::to_string(b.pt[i].size()) + ")";
}

struct config {
  std::string backend;
  unsigned threads;
};
void PrintTo(const config& c, std::ostream* os) {
  *os << c.backend << " with " << c.threads << " threads";
}

class BatchTest : public ::testing::TestWithParam<config> {
 protected:
  lwc::batch::options opt() const { return {GetParam().threads, GetParam().backend}; }
  std::mt19937_64 rng{0x1a5c4649u + GetParam().threads * 977u +
                      static_cast<unsigned>(GetParam().backend.size())};
};

TEST_P(BatchTest, AeadEqualsSingleMessageCode) {
  for (const char* name : aead_algs) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    for (std::size_t n : batch_sizes(name, GetParam().backend)) {
      SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n));
      aead_batch b = make_aead_batch(rng, a, n, a.second_key_size != 0);
      reference_encrypt(a, b);

      std::vector<bytes> ct = sized_like(b.pt), tags(n, bytes(b.tag_len, 0xee));
      auto jobs = jobs_for(b, b.pt, ct, tags);
      lwc::batch::encrypt(name, jobs, b.tag_len, opt());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(ct[i], b.ct[i]) << job_name(i, b);
        ASSERT_EQ(tags[i], b.tag[i]) << job_name(i, b);
      }

      std::vector<bytes> pt = sized_like(b.pt);
      std::vector<std::uint8_t> ok(n, 7);
      auto djobs = jobs_for(b, b.ct, pt, b.tag);
      EXPECT_EQ(lwc::batch::decrypt(name, djobs, ok, b.tag_len, opt()), n);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(ok[i], 1) << job_name(i, b);
        ASSERT_EQ(pt[i], b.pt[i]) << job_name(i, b);
      }
    }
  }
}

// Changing one bit of one job's key, nonce, AD, ciphertext or tag fails that job only and
// zeroes its plaintext; every other job still verifies and decrypts.
TEST_P(BatchTest, TamperingFailsOnlyThatJob) {
  for (const char* name : aead_algs) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    for (std::size_t n : {std::size_t{1}, std::size_t{9}, std::size_t{40}}) {
      for (int what = 0; what < 5; ++what) {
        SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n) + ", field " +
                     std::to_string(what));
        aead_batch b = make_aead_batch(rng, a, n, false);
        const std::size_t victim = rng() % n;
        if (what == 2 && b.ad[victim].empty()) b.ad[victim] = random_bytes(rng, 1 + rng() % 40);
        if (what == 3 && b.pt[victim].empty()) b.pt[victim] = random_bytes(rng, 1 + rng() % 40);
        reference_encrypt(a, b);
        bytes* field[] = {&b.key[victim], &b.nonce[victim], &b.ad[victim], &b.ct[victim],
                          &b.tag[victim]};
        bytes& f = *field[what];
        f[rng() % f.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));

        std::vector<bytes> pt = sized_like(b.pt);
        std::vector<std::uint8_t> ok(n, 7);
        auto jobs = jobs_for(b, b.ct, pt, b.tag);
        EXPECT_EQ(lwc::batch::decrypt(name, jobs, ok, b.tag_len, opt()), n - 1);
        for (std::size_t i = 0; i < n; ++i) {
          if (i == victim) {
            EXPECT_EQ(ok[i], 0) << job_name(i, b);
            EXPECT_EQ(pt[i], bytes(pt[i].size(), 0)) << job_name(i, b);
          } else {
            EXPECT_EQ(ok[i], 1) << job_name(i, b);
            EXPECT_EQ(pt[i], b.pt[i]) << job_name(i, b);
          }
        }
      }
    }
  }
}

// The lane kernels at their edges, in one batch per algorithm: message lengths at and around
// one, two and three blocks (the algorithm's block_size), and every length up to 34 bytes (a
// short block ends in each of its partial lengths, and the lanes that move several short
// blocks per load, TinyJAMBU's four 4-byte words, leave a run at each of them); associated
// data at every length up to 17 bytes, at and around multiples of 8 up to 96, and at and
// around 44 and 88 (Xoodyak absorbs associated data in 44-byte blocks, TinyJAMBU in 4-byte
// words, the others in their rate). Every message length meets every associated-data length,
// in shuffled order, so the jobs that start together take different numbers of
// associated-data blocks and leave the lanes at different steps. Then every fifth job is
// decrypted with one tag bit flipped, in each byte of the tag in turn: those fail and are
// zeroed, the others verify.
TEST_P(BatchTest, LaneKernelsAtBlockEdges) {
  const auto sorted_unique = [](std::vector<std::size_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  for (const char* name : aead_algs) {
    if (!lwc::batch::has_lanes(name, GetParam().backend)) continue;
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const std::size_t b = a.block_size;
    std::vector<std::size_t> msg_lens;
    for (std::size_t n = 0; n <= 34; ++n) msg_lens.push_back(n);
    for (std::size_t k = 1; k <= 3; ++k)
      for (std::size_t n : {k * b - 1, k * b, k * b + 1}) msg_lens.push_back(n);
    sorted_unique(msg_lens);
    std::vector<std::size_t> ad_lens{43, 44, 45, 87, 88, 89};
    for (std::size_t n = 0; n <= 17; ++n) ad_lens.push_back(n);
    for (std::size_t k = 1; k <= 12; ++k)
      for (std::size_t n : {8 * k - 1, 8 * k, 8 * k + 1}) ad_lens.push_back(n);
    sorted_unique(ad_lens);
    aead_batch batch;
    batch.tag_len = a.tag_size;
    for (std::size_t m : msg_lens) {
      for (std::size_t d : ad_lens) {
        batch.key.push_back(random_bytes(rng, a.key_size));
        batch.nonce.push_back(random_bytes(rng, a.nonce_size));
        batch.second_key.emplace_back();
        batch.ad.push_back(random_bytes(rng, d));
        batch.pt.push_back(random_bytes(rng, m));
      }
    }
    const std::size_t n = batch.key.size();
    for (std::size_t i = n; i > 1; --i) {
      const std::size_t j = rng() % i;
      for (std::vector<bytes>* f : {&batch.key, &batch.nonce, &batch.ad, &batch.pt})
        std::swap((*f)[i - 1], (*f)[j]);
    }
    reference_encrypt(a, batch);

    std::vector<bytes> ct = sized_like(batch.pt), tags(n, bytes(batch.tag_len, 0xee));
    auto jobs = jobs_for(batch, batch.pt, ct, tags);
    lwc::batch::encrypt(name, jobs, batch.tag_len, opt());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ct[i], batch.ct[i]) << job_name(i, batch);
      ASSERT_EQ(tags[i], batch.tag[i]) << job_name(i, batch);
    }

    for (std::size_t i = 0; i < n; i += 5) tags[i][i % batch.tag_len] ^= 0x10;
    std::vector<bytes> pt = sized_like(batch.pt);
    std::vector<std::uint8_t> ok(n, 7);
    auto djobs = jobs_for(batch, batch.ct, pt, tags);
    EXPECT_EQ(lwc::batch::decrypt(name, djobs, ok, batch.tag_len, opt()), n - (n + 4) / 5);
    for (std::size_t i = 0; i < n; ++i) {
      const bool forged = i % 5 == 0;
      ASSERT_EQ(ok[i], forged ? 0 : 1) << job_name(i, batch);
      ASSERT_EQ(pt[i], forged ? bytes(pt[i].size(), 0) : batch.pt[i]) << job_name(i, batch);
    }
  }
}

TEST_P(BatchTest, PackedLayoutEqualsJobs) {
  for (const char* name : aead_algs) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{13}, std::size_t{300}}) {
      for (bool with_ad : {false, true}) {
        SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n));
        aead_batch b = make_aead_batch(rng, a, n, a.second_key_size != 0);
        if (!with_ad)
          for (bytes& ad : b.ad) ad.clear();
        const bool masking = a.second_key_size != 0 && n % 2 == 1;
        for (bytes& k : b.second_key) k = masking ? random_bytes(rng, a.second_key_size) : bytes{};
        reference_encrypt(a, b);

        // Start the offsets away from 0 to check that they are honoured as given.
        bytes keys, nonces, second, data(5), ad_data(3);
        std::vector<std::size_t> off{5}, ad_off{3};
        for (std::size_t i = 0; i < n; ++i) {
          keys.insert(keys.end(), b.key[i].begin(), b.key[i].end());
          nonces.insert(nonces.end(), b.nonce[i].begin(), b.nonce[i].end());
          second.insert(second.end(), b.second_key[i].begin(), b.second_key[i].end());
          data.insert(data.end(), b.pt[i].begin(), b.pt[i].end());
          off.push_back(data.size());
          ad_data.insert(ad_data.end(), b.ad[i].begin(), b.ad[i].end());
          ad_off.push_back(ad_data.size());
        }
        lwc::batch::packed_aead_inputs in{keys, nonces, {data, off}, {}, second};
        if (with_ad) in.ad = {ad_data, ad_off};
        bytes out(data.size(), 0xee), tags(n * b.tag_len, 0xee);
        lwc::batch::encrypt_packed(name, in, out, tags, b.tag_len, opt());
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(std::equal(b.ct[i].begin(), b.ct[i].end(), out.begin() + off[i]))
              << job_name(i, b);
          ASSERT_TRUE(std::equal(b.tag[i].begin(), b.tag[i].end(),
                                 tags.begin() + i * b.tag_len))
              << job_name(i, b);
        }
        // Decrypt in place, with one job tampered.
        if (n != 0) tags[(n / 2) * b.tag_len] ^= 1;
        in.in.data = out;
        std::vector<std::uint8_t> ok(n, 7);
        EXPECT_EQ(lwc::batch::decrypt_packed(name, in, tags, out, ok, b.tag_len, opt()),
                  n == 0 ? 0 : n - 1);
        for (std::size_t i = 0; i < n; ++i) {
          const bool good = i != n / 2;
          EXPECT_EQ(ok[i], good ? 1 : 0) << job_name(i, b);
          const bytes want = good ? b.pt[i] : bytes(b.pt[i].size(), 0);
          ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin() + off[i]))
              << job_name(i, b);
        }
      }
    }
  }
}

// A hash job of algorithm a: random input (within its limit), its key and customization
// string where it has them, an output length it accepts (random where any is allowed).
struct hash_case {
  bytes msg, key, custom, out;
};
hash_case make_hash_case(std::mt19937_64& rng, const lwc::algorithm& a) {
  hash_case c;
  c.msg = random_bytes(rng, std::min(random_length(rng), a.max_input_size));
  if (a.is_keyed()) c.key = random_bytes(rng, a.key_size);
  if (a.max_customization_size != 0 && rng() % 3 != 0)
    c.custom = random_bytes(rng, rng() % (a.max_customization_size + 1));
  // Output lengths of XOFs and PRFs differ per job: none, partial words, several blocks.
  const std::size_t len =
      a.max_output_size != 0 ? a.output_size : (rng() % 4 == 0 ? rng() % 9 : rng() % 100);
  c.out.assign(len, 0xee);
  return c;
}
bytes reference_digest(const lwc::algorithm& a, const hash_case& c) {
  bytes want(c.out.size());
  lwc::digest(a, c.msg, want, c.key, c.custom);
  return want;
}

TEST_P(BatchTest, HashesEqualSingleMessageCode) {
  for (const char* name : hash_algs) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    for (std::size_t n : batch_sizes(name, GetParam().backend)) {
      SCOPED_TRACE(std::string(name) + ", n = " + std::to_string(n));
      std::vector<hash_case> cases;
      std::vector<lwc::batch::hash_job> jobs;
      for (std::size_t i = 0; i < n; ++i) cases.push_back(make_hash_case(rng, a));
      for (hash_case& c : cases) jobs.push_back({c.msg, c.out, c.key, c.custom});
      lwc::batch::hash(a, jobs, opt());
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(cases[i].out, reference_digest(a, cases[i]))
            << name << " job " << i << " (" << cases[i].msg.size() << " bytes)";
    }
  }
}

// Every input length from 0 to four blocks and one byte (the algorithm's block_size; at most its
// input limit) of each hash, XOF, CXOF, MAC and PRF with lane kernels, in one batch in shuffled
// order; a CXOF's customization strings around the lengths where the lanes stage them whole or in
// pieces.
TEST_P(BatchTest, LaneHashesAtBlockEdges) {
  constexpr std::size_t custom_lengths[] = {0, 1, 7, 8, 9, 47, 48, 54, 55, 56, 57, 63, 64, 65, 255, 256};
  for (const char* name : hash_algs) {
    if (!lwc::batch::has_lanes(name, GetParam().backend)) continue;
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const std::size_t b = a.block_size != 0 ? a.block_size : 8;
    std::vector<hash_case> cases;
    for (std::size_t len = 0; len <= std::min(4 * b + 1, a.max_input_size); ++len) {
      hash_case c;
      c.msg = random_bytes(rng, len);
      if (a.is_keyed()) c.key = random_bytes(rng, a.key_size);
      if (a.max_customization_size != 0) {
        const std::size_t z = custom_lengths[len % std::size(custom_lengths)];
        c.custom = random_bytes(rng, std::min(z, a.max_customization_size));
      }
      c.out.assign(a.max_output_size != 0 ? a.output_size : len % 41, 0xee);
      cases.push_back(std::move(c));
    }
    for (std::size_t i = cases.size(); i > 1; --i) std::swap(cases[i - 1], cases[rng() % i]);
    std::vector<lwc::batch::hash_job> jobs;
    for (hash_case& c : cases) jobs.push_back({c.msg, c.out, c.key, c.custom});
    lwc::batch::hash(a, jobs, opt());
    for (const hash_case& c : cases)
      ASSERT_EQ(c.out, reference_digest(a, c)) << c.msg.size() << " bytes";
  }
}

TEST_P(BatchTest, PackedHash) {
  for (const char* name : hash_algs) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const std::size_t n = 1 + rng() % 200;
    const std::size_t out_len = a.max_output_size != 0 ? a.output_size : 1 + rng() % 70;
    bytes data, keys, custom;
    std::vector<std::size_t> off{0}, custom_off{0};
    std::vector<hash_case> cases;
    for (std::size_t i = 0; i < n; ++i) {
      hash_case c = make_hash_case(rng, a);
      c.out.assign(out_len, 0);
      data.insert(data.end(), c.msg.begin(), c.msg.end());
      off.push_back(data.size());
      keys.insert(keys.end(), c.key.begin(), c.key.end());
      custom.insert(custom.end(), c.custom.begin(), c.custom.end());
      custom_off.push_back(custom.size());
      cases.push_back(std::move(c));
    }
    lwc::batch::packed_hash_inputs in{{data, off}, keys};
    if (a.max_customization_size != 0) in.customization = {custom, custom_off};
    bytes out(n * out_len, 0xee);
    lwc::batch::hash_packed(name, in, out, out_len, opt());
    for (std::size_t i = 0; i < n; ++i) {
      const bytes want = reference_digest(a, cases[i]);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin() + i * out_len))
          << name << " job " << i;
    }
  }
}

// The C ABI reaches the same engine: same bytes, 0 / -1 results, per-job flags.
TEST_P(BatchTest, CInterface) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  const std::size_t n = 37;
  aead_batch b = make_aead_batch(rng, a, n, true);
  reference_encrypt(a, b);
  const lwc_batch_options o{GetParam().threads, GetParam().backend.c_str()};
  std::vector<bytes> ct = sized_like(b.pt), tags(n, bytes(b.tag_len));
  std::vector<lwc_batch_job> jobs(n);
  for (std::size_t i = 0; i < n; ++i)
    jobs[i] = {b.key[i].data(), b.nonce[i].data(), b.ad[i].data(), b.ad[i].size(),
               b.pt[i].data(), b.pt[i].size(), ct[i].data(), tags[i].data(),
               b.second_key[i].empty() ? nullptr : b.second_key[i].data()};
  ASSERT_EQ(lwc_batch_encrypt("ascon-aead128", n, jobs.data(), b.tag_len, &o), 0);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(ct[i], b.ct[i]);
    ASSERT_EQ(tags[i], b.tag[i]);
  }
  std::vector<bytes> pt = sized_like(b.pt);
  for (std::size_t i = 0; i < n; ++i) {
    jobs[i].in = ct[i].data();
    jobs[i].out = pt[i].data();
  }
  std::vector<std::uint8_t> ok(n);
  ASSERT_EQ(lwc_batch_decrypt("ascon-aead128", n, jobs.data(), b.tag_len, ok.data(), &o), 0);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(pt[i], b.pt[i]);
  tags[5][0] ^= 0x80;
  EXPECT_EQ(lwc_batch_decrypt("ascon-aead128", n, jobs.data(), b.tag_len, ok.data(), &o), -1);
  EXPECT_EQ(std::count(ok.begin(), ok.end(), 1), static_cast<long>(n - 1));
  EXPECT_EQ(ok[5], 0);
  EXPECT_EQ(lwc_batch_decrypt("ascon-aead128", n, jobs.data(), b.tag_len, nullptr, &o), -1);

  std::vector<lwc_batch_hash_job> hj(n);
  std::vector<bytes> digests(n, bytes(32));
  for (std::size_t i = 0; i < n; ++i)
    hj[i] = {b.pt[i].data(), b.pt[i].size(), digests[i].data(), 32, nullptr, 0, nullptr, 0};
  ASSERT_EQ(lwc_batch_hash("ascon-hash256", n, hj.data(), &o), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto want = lwc::ascon::hash256::digest(b.pt[i]);
    ASSERT_EQ(digests[i], bytes(want.begin(), want.end())) << "job " << i;
  }
}

// Every AEAD through the C ABI: per-job and packed calls, its own key, nonce and tag sizes, -1
// and a zeroed job when one tag is wrong.
TEST_P(BatchTest, EveryAeadThroughTheCInterface) {
  const lwc_batch_options o{GetParam().threads, GetParam().backend.c_str()};
  for (const char* name : aead_algs) {
    SCOPED_TRACE(name);
    const lwc::algorithm& a = lwc::get_algorithm(name);
    const std::size_t n = 41;
    aead_batch b = make_aead_batch(rng, a, n, false);
    b.tag_len = a.tag_size;  // the C calls below take the full tag
    reference_encrypt(a, b);
    std::vector<bytes> ct = sized_like(b.pt), tags(n, bytes(b.tag_len));
    std::vector<lwc_batch_job> jobs(n);
    for (std::size_t i = 0; i < n; ++i)
      jobs[i] = {b.key[i].data(), b.nonce[i].data(), b.ad[i].data(), b.ad[i].size(),
                 b.pt[i].data(), b.pt[i].size(), ct[i].data(), tags[i].data(), nullptr};
    ASSERT_EQ(lwc_batch_encrypt(name, n, jobs.data(), a.tag_size, &o), 0);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(ct[i], b.ct[i]) << job_name(i, b);
      ASSERT_EQ(tags[i], b.tag[i]) << job_name(i, b);
    }
    std::vector<bytes> pt = sized_like(b.pt);
    for (std::size_t i = 0; i < n; ++i) {
      jobs[i].in = ct[i].data();
      jobs[i].out = pt[i].data();
    }
    std::vector<std::uint8_t> ok(n);
    ASSERT_EQ(lwc_batch_decrypt(name, n, jobs.data(), a.tag_size, ok.data(), &o), 0);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(pt[i], b.pt[i]) << job_name(i, b);
    std::size_t victim = rng() % n;
    while (b.pt[victim].empty()) victim = (victim + 1) % n;
    tags[victim][a.tag_size - 1] ^= 0x01;
    EXPECT_EQ(lwc_batch_decrypt(name, n, jobs.data(), a.tag_size, ok.data(), &o), -1);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(ok[i], i == victim ? 0 : 1) << job_name(i, b);
      EXPECT_EQ(pt[i], i == victim ? bytes(pt[i].size(), 0) : b.pt[i]) << job_name(i, b);
    }
    tags[victim][a.tag_size - 1] ^= 0x01;

    // Packed: keys, nonces and tags back to back at the algorithm's sizes.
    bytes keys, nonces, data, ad_data, packed_tags;
    std::vector<std::size_t> off{0}, ad_off{0};
    for (std::size_t i = 0; i < n; ++i) {
      keys.insert(keys.end(), b.key[i].begin(), b.key[i].end());
      nonces.insert(nonces.end(), b.nonce[i].begin(), b.nonce[i].end());
      data.insert(data.end(), b.pt[i].begin(), b.pt[i].end());
      off.push_back(data.size());
      ad_data.insert(ad_data.end(), b.ad[i].begin(), b.ad[i].end());
      ad_off.push_back(ad_data.size());
    }
    const lwc_batch_packed_jobs pj{keys.data(), nonces.data(), nullptr,      data.data(),
                                   off.data(),  ad_data.data(), ad_off.data()};
    bytes out(data.size(), 0xee);
    packed_tags.assign(n * a.tag_size, 0xee);
    ASSERT_EQ(lwc_batch_encrypt_packed(name, n, &pj, out.data(), packed_tags.data(), a.tag_size, &o),
              0);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(std::equal(b.ct[i].begin(), b.ct[i].end(), out.begin() + off[i])) << job_name(i, b);
      ASSERT_TRUE(std::equal(b.tag[i].begin(), b.tag[i].end(),
                             packed_tags.begin() + i * a.tag_size))
          << job_name(i, b);
    }
    const lwc_batch_packed_jobs dj{keys.data(), nonces.data(), nullptr,      out.data(),
                                   off.data(),  ad_data.data(), ad_off.data()};
    bytes back(data.size(), 0xee);
    ASSERT_EQ(lwc_batch_decrypt_packed(name, n, &dj, packed_tags.data(), back.data(), a.tag_size,
                                       ok.data(), &o),
              0);
    EXPECT_EQ(back, data);
  }
}

std::vector<config> configs() {
  std::vector<config> c;
  for (std::string_view b : lwc::batch::available_backends())
    for (unsigned t : {1u, 2u, 3u}) c.push_back({std::string(b), t});
  return c;
}

INSTANTIATE_TEST_SUITE_P(Backends, BatchTest, ::testing::ValuesIn(configs()),
                         [](const ::testing::TestParamInfo<config>& p) {
                           return p.param.backend + "_" + std::to_string(p.param.threads) +
                                  "threads";
                         });

// ---- not parameterized ----------------------------------------------------------------------

TEST(BatchApi, ReportsBackendsAndAlgorithms) {
  const auto backends = lwc::batch::available_backends();
  ASSERT_FALSE(backends.empty());
  EXPECT_EQ(backends.back(), "portable");
  EXPECT_NE(std::find(backends.begin(), backends.end(), lwc::batch::default_backend()),
            backends.end());
  EXPECT_EQ(lwc::batch::lanes("portable") != 0, true);
  EXPECT_EQ(lwc::batch::lanes("no-such-backend"), 0u);
  for (std::string_view b : backends) EXPECT_EQ(lwc_batch_backend_available(std::string(b).c_str()), 1);
  EXPECT_EQ(lwc_batch_backend_available("no-such-backend"), 0);
  EXPECT_STREQ(lwc_batch_default_backend(), std::string(lwc::batch::default_backend()).c_str());
  for (std::string_view alg : lwc::batch::algorithms()) {
    EXPECT_NE(lwc::find_algorithm(alg), nullptr) << alg;
    EXPECT_TRUE(lwc::batch::supports(alg));
  }
  EXPECT_FALSE(lwc::batch::supports("no-such-algorithm"));
  EXPECT_EQ(lwc_batch_supports("no-such-algorithm"), 0);
}

#if defined(__aarch64__) && !defined(__AARCH64EB__)
// NEON is baseline on little-endian AArch64: its backend is always there, first (the default
// unless LWC_BACKEND names another), with two registers of two 64-bit lanes per state word.
TEST(BatchApi, NeonLeadsOnAarch64) {
  const auto backends = lwc::batch::available_backends();
  ASSERT_EQ(backends.size(), 2u);
  EXPECT_EQ(backends.front(), "neon");
  EXPECT_EQ(lwc::batch::lanes("neon"), 4u);
}
#endif

// The engine runs every registered algorithm: its list is the registry's, in order.
TEST(BatchApi, RunsEveryRegisteredAlgorithm) {
  const auto listed = lwc::batch::algorithms();
  ASSERT_EQ(listed.size(), lwc::algorithms().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    EXPECT_EQ(listed[i], lwc::algorithms()[i].name);
    EXPECT_EQ(lwc_batch_supports(std::string(listed[i]).c_str()), 1) << listed[i];
  }
}

TEST(BatchApi, RejectsBadArgumentsBeforeWriting) {
  std::uint8_t key[16]{}, nonce[16]{}, pt[10]{}, ct[10], tag[16];
  std::memset(ct, 0xee, sizeof ct);
  std::memset(tag, 0xee, sizeof tag);
  const auto untouched = [&] {
    return std::all_of(std::begin(ct), std::end(ct), [](std::uint8_t x) { return x == 0xee; }) &&
           std::all_of(std::begin(tag), std::end(tag), [](std::uint8_t x) { return x == 0xee; });
  };
  using lwc::batch::aead_job;
  const aead_job good{key, nonce, {}, pt, ct, tag, {}};
  const aead_job bad_key{{key, 15}, nonce, {}, pt, ct, tag, {}};
  const aead_job bad_out{key, nonce, {}, pt, {ct, 9}, tag, {}};
  const aead_job jobs[] = {good, bad_key};
  EXPECT_THROW(lwc::batch::encrypt("ascon-aead128", jobs), std::invalid_argument);
  const aead_job jobs2[] = {good, bad_out};
  EXPECT_THROW(lwc::batch::encrypt("ascon-aead128", jobs2), std::invalid_argument);
  const aead_job one[] = {good};
  EXPECT_THROW(lwc::batch::encrypt("ascon-aead128", one, 3), std::invalid_argument);
  EXPECT_THROW(lwc::batch::encrypt("ascon-128", std::span(one), 8), std::invalid_argument);
  EXPECT_THROW(lwc::batch::encrypt("ascon-hash256", one), std::invalid_argument);
  EXPECT_THROW(lwc::batch::encrypt("no-such-alg", one), std::invalid_argument);
  EXPECT_THROW(lwc::batch::encrypt("ascon-aead128", one, 16, {1, "no-such-backend"}),
               std::invalid_argument);
  const aead_job masked_v12{key, nonce, {}, pt, ct, tag, {key, 16}};
  const aead_job masked[] = {masked_v12};
  EXPECT_THROW(lwc::batch::encrypt("ascon-128", masked), std::invalid_argument);
  std::uint8_t ok[2];
  EXPECT_THROW((void)lwc::batch::decrypt("ascon-aead128", one, std::span(ok, 2)),
               std::invalid_argument);
  EXPECT_TRUE(untouched());

  std::uint8_t digest[31];
  const lwc::batch::hash_job h[] = {{pt, digest}};
  EXPECT_THROW(lwc::batch::hash("ascon-hash256", h), std::invalid_argument);
  EXPECT_THROW(lwc::batch::hash("ascon-aead128", h), std::invalid_argument);

  const std::size_t off[] = {0, 10, 5};  // decreasing
  EXPECT_THROW(lwc::batch::hash_packed("ascon-xof128", {{pt, 10}, off}, {ct, 4}, 2),
               std::invalid_argument);
  const std::size_t off_long[] = {0, 11};
  EXPECT_THROW(lwc::batch::hash_packed("ascon-xof128", {{pt, 10}, off_long}, {ct, 2}, 2),
               std::invalid_argument);
  EXPECT_TRUE(untouched());

  lwc_batch_job c{key, nonce, nullptr, 0, pt, 10, ct, tag, nullptr};
  EXPECT_EQ(lwc_batch_encrypt(nullptr, 1, &c, 16, nullptr), -1);
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 1, &c, 17, nullptr), -1);
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 1, nullptr, 16, nullptr), -1);
  const lwc_batch_options no_backend{1, "no-such-backend"};
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 1, &c, 16, &no_backend), -1);
  c.in = nullptr;
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 1, &c, 16, nullptr), -1);
  EXPECT_TRUE(untouched());
  c.in = pt;
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 1, &c, 16, nullptr), 0);
  EXPECT_FALSE(untouched());
  EXPECT_EQ(lwc_batch_encrypt("ascon-aead128", 0, nullptr, 16, nullptr), 0);
}

// Acorn-128 (16-byte nonce and tag) and Grain-128AEADv2 (12-byte nonce, 8-byte tag) take only
// their own sizes and no second key; each wrong size is an error that names it, before anything
// is written.
TEST(BatchApi, StreamCipherSizesAreChecked) {
  std::uint8_t key[16]{}, nonce[16]{}, second[16]{}, pt[10]{}, ct[10], tag[16];
  std::memset(ct, 0xee, sizeof ct);
  std::memset(tag, 0xee, sizeof tag);
  const auto untouched = [&] {
    return std::all_of(std::begin(ct), std::end(ct), [](std::uint8_t x) { return x == 0xee; }) &&
           std::all_of(std::begin(tag), std::end(tag), [](std::uint8_t x) { return x == 0xee; });
  };
  const auto message_of = [](auto&& call) -> std::string {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  using lwc::batch::aead_job;
  const aead_job grain_nonce16[] = {{key, {nonce, 16}, {}, pt, ct, {tag, 8}, {}}};
  EXPECT_NE(message_of([&] { lwc::batch::encrypt("grain-128aead", grain_nonce16, 8); })
                .find("nonce must be 12 bytes, got 16"),
            std::string::npos);
  const aead_job grain_tag16[] = {{key, {nonce, 12}, {}, pt, ct, {tag, 16}, {}}};
  EXPECT_NE(message_of([&] { lwc::batch::encrypt("grain-128aead", grain_tag16, 16); })
                .find("tag length must be 8 bytes, got 16"),
            std::string::npos);
  const aead_job acorn_nonce12[] = {{key, {nonce, 12}, {}, pt, ct, {tag, 16}, {}}};
  EXPECT_NE(message_of([&] { lwc::batch::encrypt("acorn-128", acorn_nonce12, 16); })
                .find("nonce must be 16 bytes, got 12"),
            std::string::npos);
  const aead_job acorn_tag8[] = {{key, nonce, {}, pt, ct, {tag, 8}, {}}};
  EXPECT_NE(message_of([&] { lwc::batch::encrypt("acorn-128", acorn_tag8, 8); })
                .find("tag length must be 16 bytes, got 8"),
            std::string::npos);
  const aead_job acorn_key15[] = {{{key, 15}, nonce, {}, pt, ct, tag, {}}};
  EXPECT_THROW(lwc::batch::encrypt("acorn-128", acorn_key15), std::invalid_argument);
  const aead_job acorn_masked[] = {{key, nonce, {}, pt, ct, tag, second}};
  EXPECT_NE(message_of([&] { lwc::batch::encrypt("acorn-128", acorn_masked); })
                .find("nonce masking is not supported"),
            std::string::npos);
  std::uint8_t ok[1];
  EXPECT_THROW((void)lwc::batch::decrypt("grain-128aead", grain_tag16, ok, 16),
               std::invalid_argument);

  // Packed: the nonces must be n * 12 bytes for Grain; second keys are refused.
  const std::size_t off[] = {0, 10};
  const lwc::batch::packed_aead_inputs grain_packed{key, {nonce, 16}, {pt, off}, {}, {}};
  EXPECT_NE(message_of([&] {
              lwc::batch::encrypt_packed("grain-128aead", grain_packed, ct, {tag, 8}, 8);
            }).find("nonces must be 12 bytes, got 16"),
            std::string::npos);
  const lwc::batch::packed_aead_inputs acorn_packed{key, nonce, {pt, off}, {}, second};
  EXPECT_THROW(lwc::batch::encrypt_packed("acorn-128", acorn_packed, ct, tag, 16),
               std::invalid_argument);
  EXPECT_TRUE(untouched());

  lwc_batch_job c{key, nonce, nullptr, 0, pt, 10, ct, tag, nullptr};
  EXPECT_EQ(lwc_batch_encrypt("grain-128aead", 1, &c, 16, nullptr), -1);
  EXPECT_EQ(lwc_batch_encrypt("grain-128aead", 1, &c, 4, nullptr), -1);
  EXPECT_EQ(lwc_batch_encrypt("acorn-128", 1, &c, 8, nullptr), -1);
  c.second_key = second;
  EXPECT_EQ(lwc_batch_encrypt("acorn-128", 1, &c, 16, nullptr), -1);
  const lwc_batch_packed_jobs pj{key, nonce, second, pt, off, nullptr, nullptr};
  EXPECT_EQ(lwc_batch_encrypt_packed("acorn-128", 1, &pj, ct, tag, 16, nullptr), -1);
  EXPECT_EQ(lwc_batch_encrypt_packed("grain-128aead", 1, &pj, ct, tag, 8, nullptr), -1);
  EXPECT_TRUE(untouched());
  c.second_key = nullptr;
  EXPECT_EQ(lwc_batch_encrypt("grain-128aead", 1, &c, 8, nullptr), 0);
  EXPECT_FALSE(untouched());
}

// Without a tag length the engine uses the algorithm's full tag: 8 bytes for Grain, 16 for the
// others.
TEST(BatchApi, DefaultTagLengthIsTheFullTag) {
  std::mt19937_64 rng(11);
  for (const char* name : {"grain-128aead", "acorn-128", "ascon-aead128"}) {
    const lwc::algorithm& a = lwc::get_algorithm(name);
    aead_batch b = make_aead_batch(rng, a, 20, false);
    b.tag_len = a.tag_size;
    reference_encrypt(a, b);
    std::vector<bytes> ct = sized_like(b.pt), tags(20, bytes(a.tag_size));
    auto jobs = jobs_for(b, b.pt, ct, tags);
    lwc::batch::encrypt(name, jobs);
    EXPECT_EQ(ct, b.ct) << name;
    EXPECT_EQ(tags, b.tag) << name;
    std::vector<bytes> pt = sized_like(b.pt);
    std::vector<std::uint8_t> ok(20);
    auto djobs = jobs_for(b, b.ct, pt, b.tag);
    EXPECT_EQ(lwc::batch::decrypt(name, djobs, ok), 20u) << name;
    EXPECT_EQ(pt, b.pt) << name;
  }
}

// Several callers at once, each splitting its own batch over threads: no shared state
// between calls may mix their jobs up.
TEST(BatchApi, ConcurrentCallers) {
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  constexpr int callers = 4;
  std::vector<aead_batch> batches;
  std::mt19937_64 rng(7);
  for (int c = 0; c < callers; ++c) {
    batches.push_back(make_aead_batch(rng, a, 150, false));
    reference_encrypt(a, batches.back());
  }
  std::vector<std::vector<bytes>> ct(callers), tags(callers);
  std::vector<std::thread> threads;
  for (int c = 0; c < callers; ++c) {
    ct[c] = sized_like(batches[c].pt);
    tags[c].assign(150, bytes(batches[c].tag_len));
    threads.emplace_back([&, c] {
      const auto backends = lwc::batch::available_backends();
      auto jobs = jobs_for(batches[c], batches[c].pt, ct[c], tags[c]);
      lwc::batch::encrypt("ascon-aead128", jobs, batches[c].tag_len,
                          {2, backends[static_cast<std::size_t>(c) % backends.size()]});
    });
  }
  for (auto& t : threads) t.join();
  for (int c = 0; c < callers; ++c) {
    EXPECT_EQ(ct[c], batches[c].ct) << "caller " << c;
    EXPECT_EQ(tags[c], batches[c].tag) << "caller " << c;
  }
}

// Tag lengths 4..16 of Ascon-AEAD128 with the lane count's worth of jobs each, on every backend.
TEST(BatchApi, EveryTagLength) {
  std::mt19937_64 rng(99);
  const lwc::algorithm& a = lwc::get_algorithm("ascon-aead128");
  for (std::string_view backend : lwc::batch::available_backends()) {
    for (std::size_t tag_len = 4; tag_len <= 16; ++tag_len) {
      aead_batch b = make_aead_batch(rng, a, 11, true);
      b.tag_len = tag_len;
      reference_encrypt(a, b);
      std::vector<bytes> ct = sized_like(b.pt), tags(11, bytes(tag_len));
      auto jobs = jobs_for(b, b.pt, ct, tags);
      lwc::batch::encrypt("ascon-aead128", jobs, tag_len, {1, backend});
      for (std::size_t i = 0; i < 11; ++i) {
        ASSERT_EQ(tags[i], b.tag[i]) << backend << " tag length " << tag_len;
        ASSERT_EQ(ct[i], b.ct[i]) << backend << " tag length " << tag_len;
      }
    }
  }
}

}  // namespace
