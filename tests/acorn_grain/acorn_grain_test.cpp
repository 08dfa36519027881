// SPDX-License-Identifier: MIT OR Apache-2.0
// Acorn-128 and Grain-128AEADv2, beyond the registry-wide KAT and property suites:
// - the incremental encryptors against the one-shot calls, for every split point;
// - both code paths of each (portable; BMI2, and PCLMULQDQ for Grain) on the KAT files and on
//   random inputs up to 1 MiB;
// - a one-bit-per-clock model of each specification, itself checked on the KAT files, against
//   the word-at-a-time code on lengths the KAT files do not reach (3-byte DER lengths);
// - splitting the same bytes differently between AD and message, and changing lengths, fails;
// - known answers computed at compile time.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <lwc/registry.hpp>

#include "support/kat_reader.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
using lwc::acorn::acorn128;
using lwc::grain::grain128aead;

bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  bytes v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

bool all_zero(const bytes& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint8_t b) { return b == 0; });
}

// ---- the specifications, one bit per clock -------------------------------------------------

int bit(const bytes& v, std::size_t i) { return v[i / 8] >> (i % 8) & 1; }

// ACORN v3, section 2: StateUpdate128 on a 293-element bit array.
struct acorn_model {
  std::array<int, 293> s{};

  int step(int m, int ca, int cb) {
    s[289] ^= s[235] ^ s[230];
    s[230] ^= s[196] ^ s[193];
    s[193] ^= s[160] ^ s[154];
    s[154] ^= s[111] ^ s[107];
    s[107] ^= s[66] ^ s[61];
    s[61] ^= s[23] ^ s[0];
    auto maj = [](int x, int y, int z) { return (x & y) ^ (x & z) ^ (y & z); };
    auto ch = [](int x, int y, int z) { return (x & y) ^ ((x ^ 1) & z); };
    const int ks = s[12] ^ s[154] ^ maj(s[235], s[61], s[193]) ^ ch(s[230], s[111], s[66]);
    const int f = s[0] ^ (s[107] ^ 1) ^ maj(s[244], s[23], s[160]) ^ (ca & s[196]) ^ (cb & ks);
    std::copy(s.begin() + 1, s.end(), s.begin());
    s[292] = f ^ m;
    return ks;
  }

  static bytes seal(const bytes& key, const bytes& nonce, const bytes& ad, const bytes& pt) {
    acorn_model a;
    for (std::size_t i = 0; i < 1792; ++i) {
      int m = i < 128 ? bit(key, i) : i < 256 ? bit(nonce, i - 128) : bit(key, i % 128);
      if (i == 256) m ^= 1;
      a.step(m, 1, 1);
    }
    for (std::size_t i = 0; i < ad.size() * 8; ++i) a.step(bit(ad, i), 1, 1);
    for (int i = 0; i < 256; ++i) a.step(i == 0, i < 128, 1);
    bytes out(pt.size() + 16);
    for (std::size_t i = 0; i < pt.size() * 8; ++i)
      out[i / 8] |= static_cast<std::uint8_t>((a.step(bit(pt, i), 1, 0) ^ bit(pt, i)) << (i % 8));
    for (int i = 0; i < 256; ++i) a.step(i == 0, i < 128, 0);
    for (std::size_t i = 0; i < 768; ++i) {
      const int ks = a.step(0, 1, 1);
      if (i >= 640) out[pt.size() + (i - 640) / 8] |= static_cast<std::uint8_t>(ks << (i % 8));
    }
    return out;
  }
};

// Grain-128AEADv2, section 2: the pre-output function, initialisation and authenticator.
struct grain_model {
  std::array<int, 128> s{}, b{};

  int pre_output() const {
    const int h = (b[12] & s[8]) ^ (s[13] & s[20]) ^ (b[95] & s[42]) ^ (s[60] & s[79]) ^
                  (b[12] & b[95] & s[94]);
    return h ^ s[93] ^ b[2] ^ b[15] ^ b[36] ^ b[45] ^ b[64] ^ b[73] ^ b[89];
  }
  int clock(int fs = 0, int fb = 0) {
    const int y = pre_output();
    const int l = s[0] ^ s[7] ^ s[38] ^ s[70] ^ s[81] ^ s[96];
    const int n = s[0] ^ b[0] ^ b[26] ^ b[56] ^ b[91] ^ b[96] ^ (b[3] & b[67]) ^
                  (b[11] & b[13]) ^ (b[17] & b[18]) ^ (b[27] & b[59]) ^ (b[40] & b[48]) ^
                  (b[61] & b[65]) ^ (b[68] & b[84]) ^ (b[22] & b[24] & b[25]) ^
                  (b[70] & b[78] & b[82]) ^ (b[88] & b[92] & b[93] & b[95]);
    std::copy(s.begin() + 1, s.end(), s.begin());
    std::copy(b.begin() + 1, b.end(), b.begin());
    s[127] = l ^ fs;
    b[127] = n ^ fb;
    return y;
  }

  static bytes seal(const bytes& key, const bytes& nonce, const bytes& ad, const bytes& pt) {
    grain_model g;
    for (int i = 0; i < 128; ++i) g.b[i] = bit(key, i);
    for (int i = 0; i < 128; ++i) g.s[i] = i < 96 ? bit(nonce, i) : i < 127;
    for (int t = 0; t < 320; ++t) {
      const int y = g.pre_output();
      g.clock(y, y);
    }
    for (int t = 0; t < 64; ++t) {
      const int y = g.pre_output();
      g.clock(y ^ bit(key, 64 + t), y ^ bit(key, t));
    }
    std::array<int, 64> acc{}, reg{};
    for (auto& x : acc) x = g.clock();
    for (auto& x : reg) x = g.clock();
    bytes stream;  // DER length of the AD, the AD, the plaintext
    if (ad.size() < 128) {
      stream.push_back(static_cast<std::uint8_t>(ad.size()));
    } else {
      bytes len;
      for (std::size_t v = ad.size(); v != 0; v >>= 8) len.insert(len.begin(), static_cast<std::uint8_t>(v));
      stream.push_back(static_cast<std::uint8_t>(0x80 | len.size()));
      stream.insert(stream.end(), len.begin(), len.end());
    }
    const std::size_t prefix = stream.size() + ad.size();
    stream.insert(stream.end(), ad.begin(), ad.end());
    stream.insert(stream.end(), pt.begin(), pt.end());
    bytes out(pt.size() + 8);
    for (std::size_t i = 0; i < stream.size() * 8; ++i) {
      const int z = g.clock(), r = g.clock(), m = bit(stream, i);
      if (i >= prefix * 8) {
        const std::size_t j = i - prefix * 8;
        out[j / 8] |= static_cast<std::uint8_t>((m ^ z) << (j % 8));
      }
      if (m)
        for (int j = 0; j < 64; ++j) acc[j] ^= reg[j];
      std::copy(reg.begin() + 1, reg.end(), reg.begin());
      reg[63] = r;
    }
    for (int j = 0; j < 64; ++j)
      out[pt.size() + j / 8] |= static_cast<std::uint8_t>((acc[j] ^ reg[j]) << (j % 8));
    return out;
  }
};

template <class A>
bytes seal(const bytes& key, const bytes& nonce, const bytes& ad, const bytes& pt) {
  bytes out(pt.size() + A::tag_size);
  A::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), pt.size(),
             out.data(), out.data() + pt.size(), A::tag_size);
  return out;
}

template <class A>
bool open(const bytes& key, const bytes& nonce, const bytes& ad, const bytes& sealed, bytes& pt) {
  pt.assign(sealed.size() - A::tag_size, 0xA5);
  return A::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), sealed.data(),
                    pt.size(), sealed.data() + pt.size(), A::tag_size, pt.data());
}

// Runs f on a fresh encryptor of A; Grain's needs the total AD length up front.
template <class A, class F>
void with_encryptor(const bytes& key, const bytes& nonce, std::size_t ad_len, F&& f) {
  if constexpr (std::is_same_v<A, grain128aead>) {
    typename A::encryptor enc(key.data(), nonce.data(), nullptr, ad_len);
    f(enc);
  } else {
    typename A::encryptor enc(key.data(), nonce.data(), nullptr);
    f(enc);
  }
}

// Forces the portable (or the fastest) code path of both ciphers for the lifetime of the
// object, then goes back to the default choice.
struct code_path {
  explicit code_path(bool portable) {
    lwc::acorn::force_portable(portable);
    lwc::grain::force_portable(portable);
  }
  ~code_path() {
    lwc::acorn::force_portable(false);
    lwc::grain::force_portable(false);
  }
  code_path(const code_path&) = delete;
  code_path& operator=(const code_path&) = delete;
};

// True when the fast paths of both ciphers are available (and not disabled by the environment).
bool cpu_has_fast_paths() {
  lwc::acorn::force_portable(false);
  lwc::grain::force_portable(false);
  return lwc::acorn::active_implementation() == lwc::acorn::implementation::bmi2 &&
         lwc::grain::active_implementation() == lwc::grain::implementation::bmi2_pclmul;
}

std::vector<lwc::test::kat_record> records(const std::string& file) {
  return lwc::test::read_kat_file(std::string(LWC_VECTOR_DIR) + "/" + file);
}

// ---- incremental encryptors ----------------------------------------------------------------

template <class A>
class EncryptorSplits : public ::testing::Test {};
using AeadTypes = ::testing::Types<acorn128, grain128aead>;
TYPED_TEST_SUITE(EncryptorSplits, AeadTypes);

TYPED_TEST(EncryptorSplits, IncrementalEqualsOneShotForEverySplit) {
  using A = TypeParam;
  std::mt19937_64 rng(42);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
  for (std::size_t len = 0; len <= 5 * A::block_size + 1; ++len) {
    const bytes ad = random_bytes(rng, len), pt = random_bytes(rng, len);
    const bytes expected = seal<A>(key, nonce, ad, pt);
    for (std::size_t split = 0; split <= len; ++split) {
      // The AD split at `split` and the plaintext at len - split, in the same pass.
      bytes got(len + A::tag_size);
      with_encryptor<A>(key, nonce, len, [&](auto& enc) {
        enc.update_ad({ad.data(), split});
        enc.update_ad({ad.data() + split, len - split});
        const std::size_t p = len - split;
        enc.update({pt.data(), p}, {got.data(), p});
        enc.update({pt.data() + p, len - p}, {got.data() + p, len - p});
        enc.finalize({got.data() + len, A::tag_size});
      });
      ASSERT_EQ(got, expected) << "len " << len << " split " << split;
    }
  }
}

TYPED_TEST(EncryptorSplits, ByteAtATimeEqualsOneShot) {
  using A = TypeParam;
  std::mt19937_64 rng(7);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
  const bytes ad = random_bytes(rng, 77), pt = random_bytes(rng, 131);
  bytes got(pt.size() + A::tag_size);
  with_encryptor<A>(key, nonce, ad.size(), [&](auto& enc) {
    for (auto b : ad) enc.absorb_ad(&b, 1);
    for (std::size_t i = 0; i < pt.size(); ++i) enc.encrypt(&pt[i], 1, &got[i]);
    enc.finalize(got.data() + pt.size(), A::tag_size);
  });
  EXPECT_EQ(got, seal<A>(key, nonce, ad, pt));
}

TYPED_TEST(EncryptorSplits, LongMessageInOddPiecesEqualsOneShot) {
  using A = TypeParam;
  std::mt19937_64 rng(11);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
  const bytes ad = random_bytes(rng, 5000), pt = random_bytes(rng, (1u << 20) + 13);
  bytes got(pt.size() + A::tag_size);
  with_encryptor<A>(key, nonce, ad.size(), [&](auto& enc) {
    for (std::size_t i = 0; i < ad.size(); i += 999)
      enc.update_ad({ad.data() + i, std::min<std::size_t>(999, ad.size() - i)});
    for (std::size_t i = 0; i < pt.size(); i += 4099) {
      const std::size_t n = std::min<std::size_t>(4099, pt.size() - i);
      enc.update({pt.data() + i, n}, {got.data() + i, n});
    }
    const auto tag = enc.finalize();
    std::copy(tag.begin(), tag.end(), got.begin() + static_cast<long>(pt.size()));
  });
  EXPECT_EQ(got, seal<A>(key, nonce, ad, pt));
}

TYPED_TEST(EncryptorSplits, MisuseIsRejected) {
  using A = TypeParam;
  const bytes key(A::key_size, 1), nonce(A::nonce_size, 2), one(1, 3);
  bytes out(1), tag(A::tag_size), short_tag(A::tag_size - 1);
  with_encryptor<A>(key, nonce, 1, [&](auto& enc) {
    enc.update_ad(one);
    enc.update(one, out);
    EXPECT_THROW(enc.update_ad(one), std::invalid_argument);  // AD after the message
    EXPECT_THROW(enc.finalize(short_tag), std::invalid_argument);
    enc.finalize(tag);
    EXPECT_THROW(enc.finalize(tag), std::invalid_argument);
  });
  // No truncated tags through the registry either.
  const auto& a = lwc::get_algorithm(A::name);
  EXPECT_EQ(a.min_tag_size, a.tag_size);
  EXPECT_THROW(lwc::aead_encrypt(a, key, nonce, {}, one, out, short_tag), std::invalid_argument);
}

TEST(GrainEncryptor, AssociatedDataMustMatchTheAnnouncedLength) {
  const bytes key(16, 1), nonce(12, 2), ad(5, 3);
  bytes out(1), tag(8);
  {
    grain128aead::encryptor enc(key.data(), nonce.data(), nullptr, 4);
    EXPECT_THROW(enc.update_ad(ad), std::invalid_argument);  // more than announced
  }
  {
    grain128aead::encryptor enc(key.data(), nonce.data(), nullptr, 6);
    enc.update_ad(ad);
    EXPECT_THROW(enc.update(ad, {out.data(), 5}), std::invalid_argument);  // less
    EXPECT_THROW(enc.finalize(tag), std::invalid_argument);
  }
  {
    grain128aead::encryptor enc(grain128aead::key_view(key.data(), 16),
                                grain128aead::nonce_view(nonce.data(), 12), 5);
    enc.update_ad(ad);
    const auto got = enc.finalize();
    EXPECT_EQ(bytes(got.begin(), got.end()), seal<grain128aead>(key, nonce, ad, {}));
  }
}

// ---- both code paths ----------------------------------------------------------------------

template <class A>
std::size_t kat_files_pass(std::initializer_list<const char*> files) {
  std::size_t n = 0;
  for (const char* file : files) {
    for (const auto& r : records(file)) {
      const bytes key = r.bytes("Key"), nonce = r.bytes("Nonce"), ad = r.bytes("AD"),
                  pt = r.bytes("PT"), ct = r.bytes("CT");
      EXPECT_EQ(lwc::test::hex(seal<A>(key, nonce, ad, pt)), r.text("CT"))
          << file << " line " << r.line;
      bytes back;
      EXPECT_TRUE(open<A>(key, nonce, ad, ct, back)) << file << " line " << r.line;
      EXPECT_EQ(back, pt) << file << " line " << r.line;
      ++n;
    }
  }
  return n;
}

TEST(CodePaths, KatFilesPassOnBothPaths) {
  const bool fast = cpu_has_fast_paths();
  for (bool portable : {true, false}) {
    if (!portable && !fast) continue;
    SCOPED_TRACE(portable ? "portable" : "bmi2 (+pclmul)");
    code_path path(portable);
    ASSERT_EQ(lwc::acorn::active_implementation(),
              portable ? lwc::acorn::implementation::portable : lwc::acorn::implementation::bmi2);
    ASSERT_EQ(lwc::grain::active_implementation(),
              portable ? lwc::grain::implementation::portable
                       : lwc::grain::implementation::bmi2_pclmul);
    EXPECT_EQ(kat_files_pass<acorn128>(
                  {"acorn/acorn-128.txt", "acorn/acorn-128.ext.txt", "acorn/acorn-128.spec.txt"}),
              1089u + 49u + 6u);
    EXPECT_EQ(kat_files_pass<grain128aead>({"grain/grain-128aead.txt", "grain/grain-128aead.ext.txt"}),
              1089u + 49u);
  }
  if (!fast) GTEST_SKIP() << "no BMI2 or PCLMULQDQ here (or LWC_FORCE_PORTABLE=1): only the portable paths ran";
}

template <class A>
class BothPaths : public ::testing::Test {};
using AeadTypesForPaths = ::testing::Types<acorn128, grain128aead>;
TYPED_TEST_SUITE(BothPaths, AeadTypesForPaths);

TYPED_TEST(BothPaths, AgreeOnRandomInputs) {
  using A = TypeParam;
  if (!cpu_has_fast_paths()) GTEST_SKIP() << "no BMI2 or PCLMULQDQ here (or LWC_FORCE_PORTABLE=1)";
  std::mt19937_64 rng(13);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 70; ++n) lengths.push_back(n);
  for (std::size_t n : {127, 128, 129, 255, 256, 257, 4095, 4096, 4097, (1 << 20) + 3})
    lengths.push_back(n);
  for (std::size_t len : lengths) {
    const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
    const bytes ad = random_bytes(rng, len % 300), pt = random_bytes(rng, len);
    bytes fast, portable, back;
    {
      code_path p(false);
      fast = seal<A>(key, nonce, ad, pt);
    }
    {
      code_path p(true);
      portable = seal<A>(key, nonce, ad, pt);
      ASSERT_TRUE(open<A>(key, nonce, ad, fast, back)) << "len " << len;
      ASSERT_EQ(back, pt);
    }
    ASSERT_EQ(fast, portable) << "len " << len;
    fast.back() ^= 1;
    ASSERT_FALSE(open<A>(key, nonce, ad, fast, back));
    ASSERT_TRUE(all_zero(back));
  }
}

// With LWC_FORCE_PORTABLE=1 (the ctest entry acorn_grain_forced_portable sets it) the portable
// paths must be in use, also after force_portable(false).
TEST(CodePaths, EnvironmentForcesPortable) {
  const char* env = std::getenv("LWC_FORCE_PORTABLE");
  if (env == nullptr || env[0] != '1') GTEST_SKIP() << "LWC_FORCE_PORTABLE is not set";
  EXPECT_EQ(lwc::acorn::active_implementation(), lwc::acorn::implementation::portable);
  EXPECT_EQ(lwc::grain::active_implementation(), lwc::grain::implementation::portable);
  lwc::acorn::force_portable(false);
  lwc::grain::force_portable(false);
  EXPECT_EQ(lwc::acorn::active_implementation(), lwc::acorn::implementation::portable);
  EXPECT_EQ(lwc::grain::active_implementation(), lwc::grain::implementation::portable);
}

// ---- the bit-serial models -----------------------------------------------------------------

template <class Model>
void model_passes_kat_file(const std::string& file, std::size_t every) {
  const auto recs = records(file);
  ASSERT_FALSE(recs.empty());
  for (std::size_t i = 0; i < recs.size(); i += every) {
    const auto& r = recs[i];
    EXPECT_EQ(lwc::test::hex(Model::seal(r.bytes("Key"), r.bytes("Nonce"), r.bytes("AD"),
                                         r.bytes("PT"))),
              r.text("CT"))
        << file << " line " << r.line;
  }
}

TEST(Models, MatchTheKatFiles) {
  model_passes_kat_file<acorn_model>("acorn/acorn-128.spec.txt", 1);
  model_passes_kat_file<acorn_model>("acorn/acorn-128.txt", 17);
  model_passes_kat_file<acorn_model>("acorn/acorn-128.ext.txt", 6);
  model_passes_kat_file<grain_model>("grain/grain-128aead.txt", 17);
  model_passes_kat_file<grain_model>("grain/grain-128aead.ext.txt", 6);
}

template <class A, class Model>
void matches_model(std::size_t ad_len, std::size_t pt_len, std::mt19937_64& rng) {
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
  const bytes ad = random_bytes(rng, ad_len), pt = random_bytes(rng, pt_len);
  EXPECT_EQ(seal<A>(key, nonce, ad, pt), Model::seal(key, nonce, ad, pt))
      << "ad " << ad_len << " pt " << pt_len;
}

TEST(Models, AgreeWithTheWordCodeBeyondTheKatFiles) {
  std::mt19937_64 rng(17);
  // 65536 bytes of AD: a 3-byte DER length for Grain; odd lengths on both sides.
  for (auto [ad, pt] :
       {std::pair<std::size_t, std::size_t>{65536, 3}, {255, 5003}, {256, 1021}, {1, 1}}) {
    for (bool portable : {true, false}) {
      code_path p(portable);
      matches_model<acorn128, acorn_model>(ad, pt, rng);
      matches_model<grain128aead, grain_model>(ad, pt, rng);
    }
  }
}

// ---- tampering with lengths ----------------------------------------------------------------

template <class A>
class LengthTamper : public ::testing::Test {};
TYPED_TEST_SUITE(LengthTamper, AeadTypes);

// The same bytes split differently between AD and message, or one byte more or less of
// either, must not verify: the AD length is bound by padding (Acorn) or its DER encoding (Grain).
TYPED_TEST(LengthTamper, MovingOrDroppingBytesFails) {
  using A = TypeParam;
  std::mt19937_64 rng(19);
  const bytes key = random_bytes(rng, A::key_size), nonce = random_bytes(rng, A::nonce_size);
  const bytes ad = random_bytes(rng, 20), pt = random_bytes(rng, 20);
  const bytes sealed = seal<A>(key, nonce, ad, pt);
  bytes out;
  ASSERT_TRUE(open<A>(key, nonce, ad, sealed, out));
  auto expect_reject = [&](const bytes& a, const bytes& s, const char* what) {
    EXPECT_FALSE(open<A>(key, nonce, a, s, out)) << what;
    EXPECT_TRUE(all_zero(out)) << what;
  };
  bytes shorter_ad(ad.begin(), ad.end() - 1), longer_ad = ad;
  longer_ad.push_back(0);
  expect_reject(shorter_ad, sealed, "AD one byte shorter");
  expect_reject(longer_ad, sealed, "AD one byte longer");
  bytes ct_short = sealed;
  ct_short.erase(ct_short.begin() + static_cast<long>(pt.size()) - 1);
  expect_reject(ad, ct_short, "ciphertext one byte shorter");
  bytes ct_long = sealed;
  ct_long.insert(ct_long.begin() + static_cast<long>(pt.size()), 0);
  expect_reject(ad, ct_long, "ciphertext one byte longer");
  // Move the first plaintext byte to the end of the AD and re-encrypt the rest honestly: the
  // same byte stream, split elsewhere, must give a different tag.
  bytes ad2 = ad, pt2(pt.begin() + 1, pt.end());
  ad2.push_back(pt[0]);
  const bytes sealed2 = seal<A>(key, nonce, ad2, pt2);
  EXPECT_FALSE(std::equal(sealed2.end() - static_cast<long>(A::tag_size), sealed2.end(),
                          sealed.end() - static_cast<long>(A::tag_size)));
}

// ---- compile-time known answers ------------------------------------------------------------

// acorn-128.spec.txt #1: all-zero key and nonce, nothing else.
constexpr auto acorn_empty = [] {
  const std::array<std::uint8_t, 16> zero{};
  std::array<std::uint8_t, 16> tag{};
  acorn128::encrypt(zero.data(), nullptr, zero.data(), nullptr, 0, nullptr, 0, nullptr, tag.data(),
                    16);
  return tag;
}();
static_assert(acorn_empty[0] == 0x83 && acorn_empty[1] == 0x5E && acorn_empty[15] == 0x1E);

constexpr std::array<std::uint8_t, 16> iota16 = [] {
  std::array<std::uint8_t, 16> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(i);
  return a;
}();
// grain-128aead.txt Count = 1: key and nonce 00 01 02 ..., nothing else -> tag D51FD5D16177B434.
constexpr auto grain_empty = [] {
  std::array<std::uint8_t, 8> tag{};
  grain128aead::encrypt(iota16.data(), nullptr, iota16.data(), nullptr, 0, nullptr, 0, nullptr,
                        tag.data(), 8);
  return tag;
}();
static_assert(grain_empty[0] == 0xD5 && grain_empty[1] == 0x1F && grain_empty[7] == 0x34);

TEST(Constexpr, KnownAnswersWereCheckedAtCompileTime) {
  // Run-time twins of the static_asserts, so that they show up in the test report too.
  const bytes zero(16, 0), iota(iota16.begin(), iota16.end());
  EXPECT_EQ(seal<acorn128>(zero, zero, {}, {}), bytes(acorn_empty.begin(), acorn_empty.end()));
  EXPECT_EQ(seal<grain128aead>(iota, bytes(iota.begin(), iota.begin() + 12), {}, {}),
            bytes(grain_empty.begin(), grain_empty.end()));
}

}  // namespace
