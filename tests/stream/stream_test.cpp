// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc::stream: the documented vectors (docs/stream-format.md), push and pull in random pieces
// against one-shot, every tampering case with the error it must raise and what may have been
// released before it, misuse, and key files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <lwc/stream.hpp>

namespace ls = lwc::stream;
using bytes = std::vector<std::uint8_t>;

namespace {

class vec_sink : public ls::sink {
 public:
  bytes data;
  std::size_t calls = 0;
  void write(std::span<const lwc::bytes_view> pieces) override {
    ++calls;
    for (auto p : pieces) data.insert(data.end(), p.begin(), p.end());
  }
};

// Hands out the input in pieces of random sizes (a short read is not the end).
class vec_source : public ls::source {
 public:
  explicit vec_source(const bytes& d, std::uint32_t seed = 0) : d_(d), rng_(seed) {}
  std::size_t read(lwc::bytes_span buf) override {
    std::size_t n = std::min(buf.size(), d_.size() - pos_);
    if (rng_() % 2 != 0 && n > 1) n = 1 + rng_() % n;
    std::copy_n(d_.begin() + static_cast<std::ptrdiff_t>(pos_), n, buf.begin());
    pos_ += n;
    return n;
  }

 private:
  const bytes& d_;
  std::size_t pos_ = 0;
  std::mt19937 rng_;
};

bytes from_hex(const std::string& h) {
  bytes out;
  for (std::size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

ls::master_key test_key() {
  ls::master_key k;
  for (std::size_t i = 0; i < k.bytes.size(); ++i) k.bytes[i] = static_cast<std::uint8_t>(i);
  return k;
}

bytes random_bytes_of(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

bytes encrypt_whole(const ls::master_key& k, const bytes& pt, ls::options o) {
  vec_sink out;
  vec_source in(pt);
  ls::encrypt(k, in, out, o);
  return out.data;
}

// Push decryption in random pieces; `released` gets what the decryptor handed out.
bytes decrypt_push(const ls::master_key& k, const bytes& ct, std::uint32_t seed, bytes* released = nullptr,
                   unsigned threads = 2) {
  ls::options o;
  o.threads = threads;
  ls::decryptor d(k, o);
  vec_sink out;
  std::mt19937 rng(seed);
  std::size_t pos = 0;
  try {
    while (pos < ct.size()) {
      const std::size_t n = std::min<std::size_t>(ct.size() - pos, 1 + rng() % 3000);
      d.write({ct.data() + pos, n}, out);
      pos += n;
    }
    d.finish(out);
  } catch (...) {
    if (released) *released = out.data;
    throw;
  }
  EXPECT_TRUE(d.finished());
  return out.data;
}

bytes decrypt_pull(const ls::master_key& k, const bytes& ct, std::uint32_t seed) {
  ls::options o;
  o.threads = 2;
  ls::decryptor d(k, o);
  vec_source in(ct, seed);
  std::mt19937 rng(seed + 1);
  bytes out;
  for (;;) {
    bytes buf(1 + rng() % 5000);
    const std::size_t n = d.read(in, buf);
    if (n == 0) break;
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  EXPECT_TRUE(d.finished());
  return out;
}

// The ```text blocks of docs/stream-format.md: "field: hex" lines, continuations indented.
std::vector<std::map<std::string, std::string>> documented_vectors() {
  std::ifstream in(LWC_STREAM_FORMAT_DOC);
  std::vector<std::map<std::string, std::string>> out;
  std::string line, key;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line == "```text") {
      inside = true;
      out.emplace_back();
      continue;
    }
    if (line == "```") {
      inside = false;
      continue;
    }
    if (!inside) continue;
    if (line.empty()) continue;
    if (line[0] != ' ') {
      const auto colon = line.find(':');
      key = line.substr(0, colon);
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(' '));
      out.back()[key] = v;
    } else {
      std::string v = line;
      v.erase(0, v.find_first_not_of(' '));
      if (v[0] != '(') out.back()[key] += v;
    }
  }
  return out;
}

std::string first_word(const std::string& s) { return s.substr(0, s.find(' ')); }

}  // namespace

TEST(Stream, DocumentedVectors) {
  const auto vectors = documented_vectors();
  ASSERT_EQ(vectors.size(), 4u);
  for (const auto& v : vectors) {
    SCOPED_TRACE(v.at("vector"));
    ls::master_key key;
    ls::parse_key(v.at("key file") + "\n", "vector key", key);
    EXPECT_EQ(key.bytes, test_key().bytes);
    const bytes salt = from_hex(v.at("salt"));
    const bytes pt = v.at("plaintext") == "(none)" ? bytes{} : from_hex(v.at("plaintext"));
    const bytes ct = from_hex(v.at("ciphertext"));
    const int shift = std::stoi(v.at("chunk size").substr(v.at("chunk size").find("exponent ") + 9));
    ls::options o;
    static std::vector<std::string> keep;  // options::algorithm is a view
    keep.push_back(first_word(v.at("algorithm")));
    o.algorithm = keep.back();
    o.chunk_shift = static_cast<unsigned>(shift);
    o.fixed_salt_for_tests = salt;
    // The derivation of the header-only part.
    const lwc::algorithm& a = ls::stream_algorithm(o.algorithm);
    const ls::file_keys fk = ls::derive(key, ct.data(), a);
    EXPECT_EQ(bytes(fk.check.begin(), fk.check.end()), from_hex(v.at("key check")));
    EXPECT_EQ(bytes(fk.key().begin(), fk.key().end()), from_hex(v.at("file key")));
    EXPECT_EQ(bytes(fk.nonce_prefix().begin(), fk.nonce_prefix().end()), from_hex(v.at("nonce prefix")));
    std::uint8_t nonce[ls::max_nonce_size];
    ls::chunk_nonce(fk, 0, pt.size() < (1u << shift), nonce);
    EXPECT_EQ(bytes(nonce, nonce + a.nonce_size), from_hex(v.at("nonce 0")));
    // Whole, pushed in pieces, and the reverse.
    EXPECT_EQ(encrypt_whole(key, pt, o), ct);
    for (std::uint32_t seed = 0; seed < 5; ++seed) {
      ls::encryptor e(key, o);
      vec_sink out;
      std::mt19937 rng(seed);
      for (std::size_t pos = 0; pos < pt.size();) {
        const std::size_t n = std::min<std::size_t>(pt.size() - pos, rng() % 70);
        e.write({pt.data() + pos, n}, out);
        pos += n;
      }
      e.finish(out);
      EXPECT_EQ(out.data, ct);
      EXPECT_EQ(decrypt_push(key, ct, seed), pt);
      EXPECT_EQ(decrypt_pull(key, ct, seed), pt);
    }
    bytes bad = ct;
    bad.back() ^= 1;
    try {
      (void)decrypt_push(key, bad, 1);
      ADD_FAILURE() << "accepted a changed vector";
    } catch (const ls::error& e) {
      EXPECT_EQ(e.code(), ls::errc::authentication);
    }
  }
}

TEST(Stream, EveryAdmittedAeadHasAnIdAndRoundTrips) {
  std::size_t admitted = 0;
  for (const lwc::algorithm& a : lwc::algorithms()) {
    if (!a.is_aead()) continue;
    const bool fits = a.nonce_size >= ls::min_nonce_size && a.nonce_size <= ls::max_nonce_size &&
                      a.tag_size >= ls::min_tag_size;
    EXPECT_EQ(fits, ls::unsuitable(a).empty()) << a.name << ": " << ls::unsuitable(a);
    if (!fits) continue;
    ++admitted;
    EXPECT_EQ(ls::algorithm_of(ls::id_of(a.name)), &a);
    SCOPED_TRACE(a.name);
    ls::options o;
    o.algorithm = a;  // the registry entry itself, as lwc encrypt passes it
    o.chunk_shift = 6;
    for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1000u}) {
      const bytes pt = random_bytes_of(n, static_cast<std::uint32_t>(n));
      const bytes ct = encrypt_whole(test_key(), pt, o);
      EXPECT_EQ(ct.size(), ls::ciphertext_size(n, 6, a.tag_size));
      EXPECT_EQ(decrypt_push(test_key(), ct, 3), pt);
      EXPECT_EQ(decrypt_pull(test_key(), ct, 4), pt);
    }
  }
  EXPECT_GE(admitted, 10u);
  for (const auto& e : ls::algorithm_ids) EXPECT_EQ(ls::id_of(e.name), e.id);
}

TEST(Stream, RandomPiecesEqualOneShot) {
  const ls::master_key key = test_key();
  const bytes salt(32, 7);
  for (unsigned shift : {6u, 10u, 16u}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1} << shift, (std::size_t{3} << shift) + 5,
                          std::size_t{3} << 20, (std::size_t{5} << 20) + 17}) {
      SCOPED_TRACE("shift " + std::to_string(shift) + " size " + std::to_string(n));
      const bytes pt = random_bytes_of(n, static_cast<std::uint32_t>(n + shift));
      ls::options o;
      o.chunk_shift = shift;
      o.fixed_salt_for_tests = salt;
      o.threads = 1 + static_cast<unsigned>(n % 3);
      const bytes whole = encrypt_whole(key, pt, o);
      ls::encryptor e(key, o);
      vec_sink out;
      std::mt19937 rng(static_cast<std::uint32_t>(n));
      for (std::size_t pos = 0; pos < pt.size();) {
        const std::size_t m = std::min<std::size_t>(pt.size() - pos, rng() % 200000);
        const std::size_t before = out.data.size();
        const std::uint64_t bound = e.write_bound(m);
        e.write({pt.data() + pos, m}, out);
        EXPECT_LE(out.data.size() - before, bound);
        pos += m;
      }
      const std::uint64_t fb = e.finish_bound();
      const std::size_t before = out.data.size();
      e.finish(out);
      EXPECT_LE(out.data.size() - before, fb);
      EXPECT_EQ(out.data, whole);
      EXPECT_EQ(decrypt_push(key, whole, 9), pt);
      EXPECT_EQ(decrypt_pull(key, whole, 10), pt);
    }
  }
}

namespace {

// Decrypts `ct` by push and by pull; expects failure `code`, and checks that what was handed
// out before the failure is a chunk-aligned prefix of `pt` (only verified chunks).
void expect_refused(const bytes& ct, const bytes& pt, ls::errc code, std::size_t chunk,
                    const ls::master_key& key = test_key()) {
  bytes released;
  try {
    (void)decrypt_push(key, ct, 5, &released);
    ADD_FAILURE() << "push accepted a changed stream";
  } catch (const ls::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_LE(released.size(), pt.size());
    EXPECT_EQ(released.size() % chunk, 0u);
    EXPECT_TRUE(std::equal(released.begin(), released.end(), pt.begin()));
  }
  ls::options o;
  ls::decryptor d(key, o);
  vec_source in(ct, 6);
  bytes got;
  try {
    bytes buf(777);
    for (std::size_t n; (n = d.read(in, buf)) != 0;) got.insert(got.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
    ADD_FAILURE() << "pull accepted a changed stream";
  } catch (const ls::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_TRUE(std::equal(got.begin(), got.end(), pt.begin()));
    EXPECT_FALSE(d.finished());
    bytes buf(10);
    EXPECT_THROW((void)d.read(in, buf), ls::error);  // a failed stream stays failed
  }
}

}  // namespace

TEST(Stream, Tampering) {
  const unsigned shift = 6;
  const std::size_t C = 64, T = 16, S = C + T, H = ls::header_size;
  const bytes pt = random_bytes_of(3 * C + 20, 42);
  ls::options o;
  o.chunk_shift = shift;
  const bytes ct = encrypt_whole(test_key(), pt, o);
  ASSERT_EQ(ct.size(), H + 3 * S + 20 + T);
  // Truncation at every length.
  for (std::size_t n = 0; n < ct.size(); ++n) {
    SCOPED_TRACE("truncated to " + std::to_string(n));
    ls::errc want;
    if (n < 8) want = ls::errc::not_a_stream;
    else if (n <= H) want = ls::errc::truncated;
    else if ((n - H) % S == 0) want = ls::errc::truncated;
    else if ((n - H) % S < T) want = ls::errc::truncated;
    else want = ls::errc::authentication;
    expect_refused(bytes(ct.begin(), ct.begin() + static_cast<std::ptrdiff_t>(n)), pt, want, C);
  }
  // A bit flip anywhere.
  for (std::size_t i = 0; i < ct.size(); ++i) {
    SCOPED_TRACE("flip " + std::to_string(i));
    bytes bad = ct;
    bad[i] ^= 0x10;
    // Byte 9: id 1 ^ 0x10 = 17 is another admitted algorithm, so the key check fails.
    const ls::errc want = i < 8                 ? ls::errc::not_a_stream
                          : i == 8              ? ls::errc::unsupported
                          : i == 10 || i == 11  ? ls::errc::bad_header
                          : i < H               ? ls::errc::wrong_key
                                                : ls::errc::authentication;
    expect_refused(bad, pt, want, C);
  }
  // Reordering, duplication, removal, appended data.
  const auto chunk = [&](std::size_t i) {
    return bytes(ct.begin() + static_cast<std::ptrdiff_t>(H + i * S),
                 ct.begin() + static_cast<std::ptrdiff_t>(std::min(ct.size(), H + (i + 1) * S)));
  };
  const bytes h(ct.begin(), ct.begin() + H);
  const auto join = [&](std::initializer_list<bytes> parts) {
    bytes r = h;
    for (const auto& p : parts) r.insert(r.end(), p.begin(), p.end());
    return r;
  };
  expect_refused(join({chunk(1), chunk(0), chunk(2), chunk(3)}), pt, ls::errc::authentication, C);
  expect_refused(join({chunk(0), chunk(1), chunk(3), chunk(2)}), pt, ls::errc::authentication, C);
  expect_refused(join({chunk(0), chunk(0), chunk(1), chunk(2), chunk(3)}), pt, ls::errc::authentication, C);
  expect_refused(join({chunk(0), chunk(2), chunk(3)}), pt, ls::errc::authentication, C);
  expect_refused(join({chunk(0), chunk(1), chunk(2)}), pt, ls::errc::truncated, C);
  for (const bytes& extra : {bytes{0}, bytes(16, 0), chunk(0), chunk(3), ct}) {
    bytes bad = ct;
    bad.insert(bad.end(), extra.begin(), extra.end());
    expect_refused(bad, pt, ls::errc::authentication, C);
  }
  // Another file's header; a wrong key.
  const bytes other = encrypt_whole(test_key(), pt, o);
  bytes mixed(other.begin(), other.begin() + H);
  mixed.insert(mixed.end(), ct.begin() + H, ct.end());
  expect_refused(mixed, pt, ls::errc::authentication, C);
  ls::master_key wrong = test_key();
  wrong.bytes[0] ^= 1;
  expect_refused(ct, pt, ls::errc::wrong_key, C, wrong);
}

TEST(Stream, LaterFailuresReleaseOnlyVerifiedBatches) {
  // A large stream whose last chunk is changed: earlier batches are released (authentic), the
  // end is never reported.
  const bytes pt = random_bytes_of((4 << 20) + 1000, 1);
  const bytes ct = encrypt_whole(test_key(), pt, {});
  bytes bad = ct;
  bad[bad.size() - 1] ^= 1;
  bytes released;
  EXPECT_THROW((void)decrypt_push(test_key(), bad, 2, &released), ls::error);
  EXPECT_GT(released.size(), 0u);
  EXPECT_LT(released.size(), pt.size());
  EXPECT_TRUE(std::equal(released.begin(), released.end(), pt.begin()));
}

TEST(Stream, Misuse) {
  vec_sink out;
  ls::encryptor e(test_key());
  e.write(bytes(10, 1), out);
  e.finish(out);
  EXPECT_TRUE(e.finished());
  try {
    e.write(bytes(1, 1), out);
    ADD_FAILURE();
  } catch (const ls::error& x) {
    EXPECT_EQ(x.code(), ls::errc::usage);
    EXPECT_NE(std::string(x.what()).find("write after the end"), std::string::npos) << x.what();
  }
  ls::options bad;
  bad.algorithm = "grain-128aead";
  EXPECT_THROW(ls::encryptor(test_key(), bad), ls::error);
  bad.algorithm = lwc::get_algorithm("grain-128aead");  // an entry the format does not admit
  EXPECT_THROW(ls::encryptor(test_key(), bad), ls::error);
  bad.algorithm = "ascon-hash256";
  EXPECT_THROW(ls::encryptor(test_key(), bad), ls::error);
  bad.algorithm = "no-such";
  EXPECT_THROW(ls::encryptor(test_key(), bad), ls::error);
  bad.algorithm = "ascon-aead128";
  bad.chunk_shift = 21;
  EXPECT_THROW(ls::encryptor(test_key(), bad), ls::error);
  EXPECT_THROW(ls::master_key(lwc::bytes_view(out.data.data(), 31)), ls::error);
  // An encryptor dropped without finish() leaves a stream that is refused.
  vec_sink partial;
  {
    ls::encryptor d(test_key());
    d.write(bytes(100000, 3), partial);
  }
  EXPECT_THROW((void)decrypt_push(test_key(), partial.data, 1), ls::error);
}

TEST(Stream, KeyFiles) {
  char dir[] = "/tmp/lwc-stream-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/key";
  const ls::master_key k = ls::generate_key();
  ls::save_key(path, k);
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(ls::load_key(path).bytes, k.bytes);
  EXPECT_THROW(ls::save_key(path, k), ls::error);  // never replaced without overwrite
  ls::save_key(path, test_key(), true);
  EXPECT_EQ(ls::load_key(path).bytes, test_key().bytes);
  chmod(path.c_str(), 0644);
  try {
    (void)ls::load_key(path);
    ADD_FAILURE();
  } catch (const ls::error& e) {
    EXPECT_EQ(e.code(), ls::errc::key_file);
    EXPECT_NE(std::string(e.what()).find("chmod 600"), std::string::npos);
  }
  for (const char* text : {"", "lwc-key-v1 00\n", "lwc-key-v1 " /* 64 x 'g' */
                           "gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg\n",
                           "# only a comment\n"}) {
    ls::master_key out;
    EXPECT_THROW(ls::parse_key(text, "key", out), ls::error) << text;
  }
  // Whole files: decrypt_file's output appears only when the stream verified.
  const std::string plain = std::string(dir) + "/plain", enc = plain + ".lwc", dec = plain + ".out";
  const bytes pt = random_bytes_of(300000, 5);
  std::ofstream(plain, std::ios::binary).write(reinterpret_cast<const char*>(pt.data()), static_cast<std::streamsize>(pt.size()));
  ls::encrypt_file(k, plain, enc);
  ls::decrypt_file(k, enc, dec);
  std::ifstream f(dec, std::ios::binary);
  const bytes back((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(back, pt);
  EXPECT_THROW(ls::decrypt_file(k, enc, dec), ls::error);  // exists
  ::truncate(enc.c_str(), 1000);
  const std::string dec2 = plain + ".out2";
  EXPECT_THROW(ls::decrypt_file(k, enc, dec2), ls::error);
  EXPECT_NE(access(dec2.c_str(), F_OK), 0);
  std::string cmd = std::string("rm -rf ") + dir;
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

// Files written by the library open in the lwc tool and the reverse (LWC_BIN: the tool, set
// by tests/stream/CMakeLists.txt when it is built).
TEST(Stream, InteroperatesWithTheCli) {
  const char* bin = std::getenv("LWC_BIN");
  if (bin == nullptr || *bin == '\0') GTEST_SKIP() << "LWC_BIN not set";
  char dir[] = "/tmp/lwc-stream-cli-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string d = dir, keyf = d + "/key";
  const ls::master_key k = ls::generate_key();
  ls::save_key(keyf, k);
  for (const char* alg : {"ascon-aead128", "ascon-80pq", "xoodyak", "schwaemm256-256"}) {
    SCOPED_TRACE(alg);
    const bytes pt = random_bytes_of(200000 + std::strlen(alg), 9);
    const std::string plain = d + "/p", a = d + "/a.lwc", b = d + "/b.lwc", out = d + "/out";
    std::ofstream(plain, std::ios::binary).write(reinterpret_cast<const char*>(pt.data()), static_cast<std::streamsize>(pt.size()));
    ls::options o;
    o.algorithm = alg;
    o.chunk_shift = 12;
    ls::encrypt_file(k, plain, a, o, true);
    const std::string q = "'" + std::string(bin) + "'";
    ASSERT_EQ(std::system((q + " decrypt -k " + keyf + " -o " + out + " -f " + a).c_str()), 0);
    std::ifstream f(out, std::ios::binary);
    EXPECT_EQ(bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>()), pt);
    ASSERT_EQ(std::system((q + " encrypt -k " + keyf + " -a " + alg + " --chunk-size 1K -o " + b +
                           " -f " + plain).c_str()), 0);
    std::ifstream g(b, std::ios::binary);
    const bytes ct((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
    EXPECT_EQ(decrypt_push(k, ct, 1), pt);
    EXPECT_EQ(decrypt_pull(k, ct, 2), pt);
  }
  EXPECT_EQ(std::system(("rm -rf " + d).c_str()), 0);
}
