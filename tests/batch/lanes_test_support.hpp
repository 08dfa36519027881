// SPDX-License-Identifier: MIT OR Apache-2.0
// What the lane kernel tests share: random inputs, the backend-and-threads parameters, a batch
// of AEAD jobs over every pair of edge lengths checked against the single-message core (then
// decrypted with every third job forged, and both ways in place), and a hash batch over every
// short length.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace lanes_test {

using bytes = std::vector<std::uint8_t>;

inline bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

// Lengths sorted, each once.
inline std::vector<std::size_t> sorted_unique(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

struct config {
  std::string backend;
  unsigned threads;
};
inline void PrintTo(const config& c, std::ostream* os) {
  *os << c.backend << " with " << c.threads << " threads";
}
// Every backend this CPU runs, with one to three threads.
inline std::vector<config> configs() {
  std::vector<config> c;
  for (std::string_view b : lwc::batch::available_backends())
    for (unsigned t : {1u, 2u, 3u}) c.push_back({std::string(b), t});
  return c;
}
inline std::string config_name(const ::testing::TestParamInfo<config>& p) {
  return p.param.backend + "_" + std::to_string(p.param.threads) + "threads";
}

// The jobs of one test batch, shuffled, and the core's results for them.
struct aead_batch {
  std::vector<bytes> key, nonce, ad, pt, want_ct, want_tag;
};

// One job for every message length in msg_lens crossed with every associated-data length in
// ad_lens that keep(message, ad) accepts.
inline aead_batch make_aead_batch(const lwc::algorithm& a, std::mt19937_64& rng,
                                  const std::vector<std::size_t>& msg_lens,
                                  const std::vector<std::size_t>& ad_lens,
                                  const std::function<bool(std::size_t, std::size_t)>& keep) {
  aead_batch b;
  for (std::size_t m : msg_lens) {
    for (std::size_t d : ad_lens) {
      if (!keep(m, d)) continue;
      b.key.push_back(random_bytes(rng, a.key_size));
      b.nonce.push_back(random_bytes(rng, a.nonce_size));
      b.ad.push_back(random_bytes(rng, d));
      b.pt.push_back(random_bytes(rng, m));
    }
  }
  const std::size_t n = b.key.size();
  for (std::size_t i = n; i > 1; --i) {
    const std::size_t j = rng() % i;
    for (std::vector<bytes>* f : {&b.key, &b.nonce, &b.ad, &b.pt}) std::swap((*f)[i - 1], (*f)[j]);
  }
  b.want_ct.resize(n);
  b.want_tag.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    b.want_ct[i].resize(b.pt[i].size());
    b.want_tag[i].resize(a.tag_size);
    lwc::aead_encrypt(a, b.key[i], b.nonce[i], b.ad[i], b.pt[i], b.want_ct[i], b.want_tag[i], {});
  }
  return b;
}

// The batch encrypted equals the core; decrypted with every third job forged (a bit of its
// tag, ciphertext or associated data flipped, in turn), those jobs fail and are zeroed and the
// others verify.
inline void check_aead_batch(const lwc::algorithm& a, const aead_batch& b,
                             const lwc::batch::options& opt) {
  const std::size_t n = b.key.size();
  std::vector<bytes> ct(n), tag(n);
  std::vector<lwc::batch::aead_job> jobs;
  for (std::size_t i = 0; i < n; ++i) {
    ct[i].assign(b.pt[i].size(), 0xee);
    tag[i].assign(a.tag_size, 0xee);
    jobs.push_back({b.key[i], b.nonce[i], b.ad[i], b.pt[i], ct[i], tag[i], {}});
  }
  lwc::batch::encrypt(a, jobs, a.tag_size, opt);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(ct[i], b.want_ct[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    ASSERT_EQ(tag[i], b.want_tag[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
  }

  std::vector<bytes> ad = b.ad;
  for (std::size_t i = 0; i < n; i += 3) {
    bytes* field = &tag[i];
    if (i / 3 % 3 == 1 && !ct[i].empty()) field = &ct[i];
    if (i / 3 % 3 == 2 && !ad[i].empty()) field = &ad[i];
    (*field)[i % field->size()] ^= 0x01;
  }
  std::vector<bytes> back(n);
  std::vector<lwc::batch::aead_job> djobs;
  for (std::size_t i = 0; i < n; ++i) {
    back[i].assign(b.pt[i].size(), 0xee);
    djobs.push_back({b.key[i], b.nonce[i], ad[i], ct[i], back[i], tag[i], {}});
  }
  std::vector<std::uint8_t> ok(n, 7);
  EXPECT_EQ(lwc::batch::decrypt(a, djobs, ok, a.tag_size, opt), n - (n + 2) / 3);
  for (std::size_t i = 0; i < n; ++i) {
    const bool forged = i % 3 == 0;
    ASSERT_EQ(ok[i], forged ? 0 : 1) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    ASSERT_EQ(back[i], forged ? bytes(b.pt[i].size(), 0) : b.pt[i])
        << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
  }
}

// Output over input, both ways: a kernel that reads its input after writing the output (a MAC
// over the plaintext or ciphertext, say) fails here.
inline void check_aead_in_place(const lwc::algorithm& a, const aead_batch& b,
                                const lwc::batch::options& opt) {
  const std::size_t n = b.key.size();
  std::vector<bytes> buf = b.pt, tag(n, bytes(a.tag_size));
  std::vector<lwc::batch::aead_job> jobs;
  for (std::size_t i = 0; i < n; ++i)
    jobs.push_back({b.key[i], b.nonce[i], b.ad[i], buf[i], buf[i], tag[i], {}});
  lwc::batch::encrypt(a, jobs, a.tag_size, opt);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(buf[i], b.want_ct[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
    ASSERT_EQ(tag[i], b.want_tag[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
  }
  std::vector<std::uint8_t> ok(n, 7);
  EXPECT_EQ(lwc::batch::decrypt(a, jobs, ok, a.tag_size, opt), n);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(buf[i], b.pt[i]) << "ad " << b.ad[i].size() << ", msg " << b.pt[i].size();
}

// Every length from 0 to max_short and the long ones, shuffled into one batch, so that groups
// mix lengths and lanes refill while others still run; each digest equals the core's.
inline void check_hash_every_length(const lwc::algorithm& a, std::mt19937_64& rng,
                                    std::size_t max_short, const std::vector<std::size_t>& longs,
                                    const lwc::batch::options& opt) {
  std::vector<bytes> msg;
  for (std::size_t len = 0; len <= max_short; ++len) msg.push_back(random_bytes(rng, len));
  for (std::size_t len : longs) msg.push_back(random_bytes(rng, len));
  for (std::size_t i = msg.size(); i > 1; --i) std::swap(msg[i - 1], msg[rng() % i]);
  std::vector<bytes> out(msg.size(), bytes(a.output_size, 0xee));
  std::vector<lwc::batch::hash_job> jobs;
  for (std::size_t i = 0; i < msg.size(); ++i) jobs.push_back({msg[i], out[i]});
  lwc::batch::hash(a, jobs, opt);
  for (std::size_t i = 0; i < msg.size(); ++i) {
    bytes want(a.output_size);
    lwc::digest(a, msg[i], want, {}, {});
    ASSERT_EQ(out[i], want) << msg[i].size() << " bytes";
  }
}

}  // namespace lanes_test
