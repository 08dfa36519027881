// SPDX-License-Identifier: MIT OR Apache-2.0
// Properties every algorithm must have, checked on all registered algorithms:
// incremental == one-shot for every split point of inputs up to three blocks plus one byte;
// any single flipped bit of key, nonce, AD, ciphertext or tag fails decryption and leaves
// zeros; empty inputs; inputs of more than 1 MiB.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <lwc/lwc.hpp>

#include "support/kat_reader.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

bool all_zero(const bytes& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint8_t b) { return b == 0; });
}

std::vector<const lwc::algorithm*> registered(bool aead) {
  std::vector<const lwc::algorithm*> v;
  for (const auto& a : lwc::algorithms())
    if (a.is_aead() == aead) v.push_back(&a);
  return v;
}

std::string param_name(const ::testing::TestParamInfo<const lwc::algorithm*>& param_info) {
  return lwc::test::algorithm_param_name(param_info);
}

// ---- AEAD: typed incremental API against the one-shot call ---------------------------------

template <class A>
class AeadSplits : public ::testing::Test {};
using AeadTypes = ::testing::Types<lwc::ascon::aead128, lwc::ascon::v12::ascon128,
                                   lwc::ascon::v12::ascon128a, lwc::ascon::v12::ascon80pq>;
TYPED_TEST_SUITE(AeadSplits, AeadTypes);

TYPED_TEST(AeadSplits, IncrementalEqualsOneShotForEverySplit) {
  using A = TypeParam;
  std::mt19937_64 rng(42);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, 16);
  const std::size_t max_len = 3 * A::block_size + 1;
  for (std::size_t len = 0; len <= max_len; ++len) {
    const bytes ad = random_bytes(rng, len), pt = random_bytes(rng, len);
    bytes expected(len + 16);
    A::encrypt(typename A::key_view(key.data(), A::key_size), typename A::nonce_view(nonce.data(), 16),
               ad, pt, expected);
    for (std::size_t split = 0; split <= len; ++split) {
      // Split the AD at `split` and the plaintext at len - split, in the same pass.
      typename A::encryptor enc(key.data(), nonce.data(), nullptr);
      enc.update_ad({ad.data(), split});
      enc.update_ad({ad.data() + split, len - split});
      bytes got(len + 16);
      const std::size_t p = len - split;
      enc.update({pt.data(), p}, {got.data(), p});
      enc.update({pt.data() + p, len - p}, {got.data() + p, len - p});
      enc.finalize({got.data() + len, 16});
      ASSERT_EQ(got, expected) << "len " << len << " split " << split;
    }
  }
}

TYPED_TEST(AeadSplits, ByteAtATimeEqualsOneShot) {
  using A = TypeParam;
  std::mt19937_64 rng(7);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, 16);
  const bytes ad = random_bytes(rng, 3 * A::block_size + 1), pt = random_bytes(rng, 3 * A::block_size + 1);
  bytes expected(pt.size() + 16), got(pt.size() + 16);
  A::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), pt.size(),
             expected.data(), expected.data() + pt.size(), 16);
  typename A::encryptor enc(key.data(), nonce.data(), nullptr);
  for (auto b : ad) enc.absorb_ad(&b, 1);
  for (std::size_t i = 0; i < pt.size(); ++i) enc.encrypt(&pt[i], 1, &got[i]);
  enc.finalize(got.data() + pt.size(), 16);
  EXPECT_EQ(got, expected);
}

// Every listed class with an incremental encryptor, whatever its sizes: the associated data and
// the plaintext cut at every point (whole pieces, and byte by byte up to the cut) equal the
// one-shot call. Modes that encode the AD length first take it at construction.
TEST(AeadSplits, EveryEncryptorEqualsOneShotForEverySplit) {
  std::size_t tested = 0;
  lwc::for_each_listed([&]<std::size_t, class Entry>() {
    using A = typename Entry::type;
    if constexpr (requires { typename A::encryptor; }) {
      using E = typename A::encryptor;
      SCOPED_TRACE(std::string(A::name));
      ++tested;
      std::mt19937_64 rng(11);
      const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
      auto make = [&](std::size_t ad_len) {
        if constexpr (std::is_constructible_v<E, const std::uint8_t*, const std::uint8_t*,
                                              const std::uint8_t*, std::size_t>)
          return E(key.data(), nonce.data(), nullptr, ad_len);
        else
          return E(key.data(), nonce.data(), nullptr);
      };
      for (std::size_t len = 0; len <= 2 * A::block_size + 2; ++len) {
        const bytes ad = random_bytes(rng, len), pt = random_bytes(rng, len);
        bytes want_ct(len), want_tag(A::tag_size);
        A::encrypt(key.data(), nullptr, nonce.data(), ad.data(), len, pt.data(), len,
                   want_ct.data(), want_tag.data(), A::tag_size);
        for (std::size_t split = 0; split <= len; ++split) {
          for (const bool bytewise : {false, true}) {
            E e = make(len);
            bytes ct(len), tag(A::tag_size);
            const std::size_t cut = len - split;  // the AD cut at split, the plaintext at cut
            if (bytewise) {
              for (std::size_t i = 0; i < split; ++i) e.absorb_ad(&ad[i], 1);
            } else {
              e.absorb_ad(ad.data(), split);
            }
            e.absorb_ad(ad.data() + split, len - split);
            if (bytewise) {
              for (std::size_t i = 0; i < cut; ++i) e.encrypt(&pt[i], 1, &ct[i]);
            } else {
              e.encrypt(pt.data(), cut, ct.data());
            }
            e.encrypt(pt.data() + cut, len - cut, ct.data() + cut);
            e.finalize(tag.data(), tag.size());
            ASSERT_EQ(ct, want_ct) << "len " << len << " split " << split << " bytewise " << bytewise;
            ASSERT_EQ(tag, want_tag) << "len " << len << " split " << split << " bytewise " << bytewise;
          }
        }
      }
    }
  });
  EXPECT_GE(tested, 21u);  // all but Romulus and Elephant
}

TEST(AeadSplits, NonceMaskingIncrementalEqualsOneShot) {
  using A = lwc::ascon::aead128;
  std::mt19937_64 rng(3);
  const bytes key = random_bytes(rng, 16), second = random_bytes(rng, 16), nonce = random_bytes(rng, 16);
  const bytes ad = random_bytes(rng, 21), pt = random_bytes(rng, 40);
  bytes expected(pt.size() + 16), got(pt.size() + 16);
  A::encrypt(key.data(), second.data(), nonce.data(), ad.data(), ad.size(), pt.data(), pt.size(),
             expected.data(), expected.data() + pt.size(), 16);
  A::encryptor enc(A::key_view(key.data(), 16), lwc::fixed_bytes_view<16>(second.data(), 16),
                   A::nonce_view(nonce.data(), 16));
  enc.update_ad(ad);
  enc.update(pt, {got.data(), pt.size()});
  enc.finalize({got.data() + pt.size(), 16});
  EXPECT_EQ(got, expected);
}

// ---- AEAD: tampering, via the registry -----------------------------------------------------

class AeadProperties : public ::testing::TestWithParam<const lwc::algorithm*> {};

TEST_P(AeadProperties, EverySingleBitFlipFailsAndWipes) {
  const lwc::algorithm& a = *GetParam();
  std::mt19937_64 rng(1);
  const bool masked = a.second_key_size != 0;
  for (std::size_t tag_len : {a.min_tag_size, a.tag_size}) {
    SCOPED_TRACE("tag length " + std::to_string(tag_len));
    bytes key = random_bytes(rng, a.key_size), nonce = random_bytes(rng, a.nonce_size);
    bytes second = masked ? random_bytes(rng, a.second_key_size) : bytes{};
    bytes ad = random_bytes(rng, 2 * a.block_size + 3), pt = random_bytes(rng, 3 * a.block_size + 5);
    bytes ct(pt.size()), tag(tag_len), out(pt.size());
    lwc::aead_encrypt(a, key, nonce, ad, pt, ct, tag, second);
    ASSERT_TRUE(lwc::aead_decrypt_truncated(a, key, nonce, ad, ct, tag, out, second));
    ASSERT_EQ(out, pt);
    auto expect_reject = [&](const char* what, std::size_t bit) {
      std::fill(out.begin(), out.end(), 0xA5);
      EXPECT_FALSE(lwc::aead_decrypt_truncated(a, key, nonce, ad, ct, tag, out, second)) << what << " bit " << bit;
      EXPECT_TRUE(all_zero(out)) << what << " bit " << bit;
    };
    for (auto* field : {&key, &nonce, &ad, &ct, &tag, &second}) {
      const char* what = field == &key ? "key" : field == &nonce ? "nonce" : field == &ad ? "ad"
                       : field == &ct ? "ciphertext" : field == &tag ? "tag" : "second key";
      for (std::size_t bit = 0; bit < field->size() * 8; ++bit) {
        (*field)[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        expect_reject(what, bit);
        (*field)[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      }
    }
    if (masked) {  // decrypting without the second key must fail too
      std::fill(out.begin(), out.end(), 0xA5);
      EXPECT_FALSE(lwc::aead_decrypt_truncated(a, key, nonce, ad, ct, tag, out));
      EXPECT_TRUE(all_zero(out));
    }
  }
}

TEST_P(AeadProperties, EmptyInputsRoundTrip) {
  const lwc::algorithm& a = *GetParam();
  const bytes key(a.key_size, 1), nonce(a.nonce_size, 2);
  bytes tag(a.tag_size), tag_ad(a.tag_size), ct, out;
  lwc::aead_encrypt(a, key, nonce, {}, {}, ct, tag);
  EXPECT_TRUE(lwc::aead_decrypt_truncated(a, key, nonce, {}, {}, tag, out));
  const bytes ad(1, 0);  // one zero byte of AD is not the same as no AD
  lwc::aead_encrypt(a, key, nonce, ad, {}, ct, tag_ad);
  EXPECT_NE(tag, tag_ad);
  EXPECT_FALSE(lwc::aead_decrypt_truncated(a, key, nonce, {}, {}, tag_ad, out));
}

TEST_P(AeadProperties, MoreThanOneMebibyteRoundTripsAndDecryptsInPlace) {
  const lwc::algorithm& a = *GetParam();
  std::mt19937_64 rng(9);
  const bytes key = random_bytes(rng, a.key_size), nonce = random_bytes(rng, a.nonce_size);
  const bytes ad = random_bytes(rng, 1000), pt = random_bytes(rng, (1u << 20) + 7);
  bytes buf(pt.size()), tag(a.tag_size);
  lwc::aead_encrypt(a, key, nonce, ad, pt, buf, tag);
  EXPECT_NE(buf, pt);
  ASSERT_TRUE(a.decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), buf.data(), buf.size(),
                        tag.data(), tag.size(), buf.data()));  // in place
  EXPECT_EQ(buf, pt);
}

INSTANTIATE_TEST_SUITE_P(Registry, AeadProperties, ::testing::ValuesIn(registered(true)), param_name);

TEST(AeadProperties, LongMessageIncrementalEqualsOneShot) {
  using A = lwc::ascon::aead128;
  std::mt19937_64 rng(11);
  const bytes key = random_bytes(rng, 16), nonce = random_bytes(rng, 16);
  const bytes ad = random_bytes(rng, 5000), pt = random_bytes(rng, (1u << 20) + 13);
  bytes expected(pt.size() + 16), got(pt.size() + 16);
  A::encrypt(A::key_view(key.data(), 16), A::nonce_view(nonce.data(), 16), ad, pt, expected);
  A::encryptor enc(key.data(), nonce.data(), nullptr);
  for (std::size_t i = 0; i < ad.size(); i += 999) enc.update_ad({ad.data() + i, std::min<std::size_t>(999, ad.size() - i)});
  for (std::size_t i = 0; i < pt.size(); i += 4099) {
    const std::size_t n = std::min<std::size_t>(4099, pt.size() - i);
    enc.update({pt.data() + i, n}, {got.data() + i, n});
  }
  enc.finalize({got.data() + pt.size(), 16});
  EXPECT_EQ(got, expected);
}

// ---- hashes, XOFs, MACs, PRFs via the registry ---------------------------------------------

class HashProperties : public ::testing::TestWithParam<const lwc::algorithm*> {};

bytes one_shot(const lwc::algorithm& a, const bytes& key, const bytes& msg, std::size_t out_len,
               const bytes& z = {}) {
  bytes out(out_len);
  lwc::digest(a, msg, out, key, z);
  return out;
}

TEST_P(HashProperties, IncrementalEqualsOneShotForEverySplit) {
  const lwc::algorithm& a = *GetParam();
  std::mt19937_64 rng(5);
  const bytes key = random_bytes(rng, a.key_size);
  const bytes z = a.max_customization_size ? random_bytes(rng, 5) : bytes{};
  const std::size_t max_len = std::min(3 * a.block_size + 1, a.max_input_size);
  for (std::size_t len = 0; len <= max_len; ++len) {
    const bytes msg = random_bytes(rng, len);
    const bytes expected = one_shot(a, key, msg, a.output_size, z);
    for (std::size_t split = 0; split <= len; ++split) {
      lwc::hasher h(a, key, z);
      h.update({msg.data(), split});
      h.update({msg.data() + split, len - split});
      bytes got(a.output_size);
      h.squeeze(got);
      ASSERT_EQ(got, expected) << "len " << len << " split " << split;
    }
  }
}

TEST_P(HashProperties, SqueezingInPiecesEqualsOneShot) {
  const lwc::algorithm& a = *GetParam();
  std::mt19937_64 rng(6);
  const bytes key = random_bytes(rng, a.key_size), msg = random_bytes(rng, std::min<std::size_t>(13, a.max_input_size));
  const std::size_t total = a.max_output_size ? a.max_output_size : 3 * 16 + 1;
  const bytes expected = one_shot(a, key, msg, total);
  for (std::size_t split = 0; split <= total; ++split) {
    lwc::hasher h(a, key);
    h.update(msg);
    bytes got(total);
    h.squeeze({got.data(), split});
    h.squeeze({got.data() + split, total - split});
    ASSERT_EQ(got, expected) << "split " << split;
  }
}

TEST_P(HashProperties, CopyForksTheState) {
  const lwc::algorithm& a = *GetParam();
  const bytes key(a.key_size, 3), part1(5, 1), part2(6, 2);
  lwc::hasher h(a, key);
  h.update(part1);
  lwc::hasher fork(h);
  fork.update(part2);
  bytes joined = part1;
  joined.insert(joined.end(), part2.begin(), part2.end());
  bytes got(a.output_size), a_only(a.output_size);
  fork.squeeze(got);
  h.squeeze(a_only);
  EXPECT_EQ(got, one_shot(a, key, joined, a.output_size));
  EXPECT_EQ(a_only, one_shot(a, key, part1, a.output_size));
}

TEST_P(HashProperties, MoreThanOneMebibyteInPiecesEqualsOneShot) {
  const lwc::algorithm& a = *GetParam();
  if (a.max_input_size < (1u << 20)) GTEST_SKIP() << "input limited to " << a.max_input_size << " bytes";
  std::mt19937_64 rng(8);
  const bytes key = random_bytes(rng, a.key_size), msg = random_bytes(rng, (1u << 20) + 3);
  lwc::hasher h(a, key);
  for (std::size_t i = 0; i < msg.size(); i += 65537)
    h.update({msg.data() + i, std::min<std::size_t>(65537, msg.size() - i)});
  bytes got(a.output_size);
  h.squeeze(got);
  EXPECT_EQ(got, one_shot(a, key, msg, a.output_size));
}

TEST_P(HashProperties, KeyedTagsDependOnEveryKeyBit) {
  const lwc::algorithm& a = *GetParam();
  if (!a.is_keyed()) GTEST_SKIP() << "not keyed";
  std::mt19937_64 rng(10);
  bytes key = random_bytes(rng, a.key_size);
  const bytes msg = random_bytes(rng, std::min<std::size_t>(16, a.max_input_size));
  const bytes tag = one_shot(a, key, msg, a.output_size);
  for (std::size_t bit = 0; bit < key.size() * 8; ++bit) {
    key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    lwc::hasher h(a, key);
    h.update(msg);
    EXPECT_FALSE(h.verify(tag)) << "key bit " << bit;
    key[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, HashProperties, ::testing::ValuesIn(registered(false)), param_name);

}  // namespace
