// SPDX-License-Identifier: MIT OR Apache-2.0
// The registry's own invariants, and the error reporting of its generic entry points.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/registry.hpp>

namespace {

TEST(Registry, NamesAreUniqueKebabCase) {
  std::set<std::string_view> seen;
  for (const auto& a : lwc::algorithms()) {
    EXPECT_TRUE(seen.insert(a.name).second) << a.name;
    for (char c : a.name) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << a.name;
    EXPECT_EQ(lwc::find_algorithm(a.name), &a);
  }
  EXPECT_GE(seen.size(), 19u);
}

TEST(Registry, DescriptorsAreConsistent) {
  for (const auto& a : lwc::algorithms()) {
    SCOPED_TRACE(std::string(a.name));
    EXPECT_GT(a.block_size, 0u);
    if (a.is_aead()) {
      EXPECT_NE(a.encrypt, nullptr);
      EXPECT_NE(a.decrypt, nullptr);
      EXPECT_GT(a.key_size, 0u);
      EXPECT_GT(a.nonce_size, 0u);
      EXPECT_LE(a.min_tag_size, a.tag_size);
      EXPECT_GE(a.min_tag_size, 4u);
    } else {
      EXPECT_NE(a.init, nullptr);
      EXPECT_LE(a.state_size, lwc::max_hash_state_size);
      EXPECT_GT(a.output_size, 0u);
    }
  }
}

TEST(Registry, UnknownNameIsAClearError) {
  EXPECT_EQ(lwc::find_algorithm("ascon-aead129"), nullptr);
  try {
    (void)lwc::get_algorithm("ascon-aead129");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown algorithm 'ascon-aead129'"), std::string::npos);
  }
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(Registry, WrongSizesNameTheExpectedSize) {
  const auto& a = lwc::get_algorithm("ascon-aead128");
  std::vector<std::uint8_t> key(15), nonce(16), pt(3), ct(3), tag(16), second(16);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(a, key, nonce, {}, pt, ct, tag); }),
            "ascon-aead128: key must be 16 bytes, got 15");
  key.resize(16);
  nonce.resize(12);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(a, key, nonce, {}, pt, ct, tag); }),
            "ascon-aead128: nonce must be 16 bytes, got 12");
  nonce.resize(16);
  tag.resize(3);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(a, key, nonce, {}, pt, ct, tag); }),
            "ascon-aead128: tag must be 4 to 16 bytes, got 3");
  tag.resize(16);
  ct.resize(4);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(a, key, nonce, {}, pt, ct, tag); }),
            "ascon-aead128: ciphertext buffer must be 3 bytes, got 4");
  const auto& legacy = lwc::get_algorithm("ascon-128");
  ct.resize(3);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(legacy, key, nonce, {}, pt, ct, tag, second); }),
            "ascon-128: nonce masking (a second key) is not supported");
  tag.resize(8);
  EXPECT_EQ(error_of([&] { lwc::aead_encrypt(legacy, key, nonce, {}, pt, ct, tag); }),
            "ascon-128: tag must be 16 bytes, got 8");
  EXPECT_EQ(error_of([&] { lwc::hasher h("ascon-mac", lwc::bytes_view(key).first(8)); }),
            "ascon-mac: key must be 16 bytes, got 8");
  EXPECT_EQ(error_of([&] { lwc::hasher h("ascon-hash256", key); }), "ascon-hash256: takes no key");
  std::vector<std::uint8_t> z(257);
  EXPECT_EQ(error_of([&] { lwc::hasher h("ascon-cxof128", {}, z); }),
            "ascon-cxof128: customization string must be at most 256 bytes");
  std::vector<std::uint8_t> out(33);
  EXPECT_EQ(error_of([&] { lwc::digest(lwc::get_algorithm("ascon-hash256"), {}, out); }),
            "ascon-hash256: output is at most 32 bytes");
  std::vector<std::uint8_t> msg(17);
  EXPECT_EQ(error_of([&] { lwc::digest(lwc::get_algorithm("ascon-prfshort"), msg, out, key); }),
            "ascon-prfshort: input must be at most 16 bytes");
}

TEST(Registry, TypedApiRejectsBadSizes) {
  std::array<std::uint8_t, 16> key{}, nonce{};
  std::vector<std::uint8_t> pt(10), out(12);  // too short for a 4-byte tag? 12 - 10 = 2
  EXPECT_THROW(lwc::ascon::aead128::encrypt(key, nonce, {}, pt, out), std::invalid_argument);
  std::vector<std::uint8_t> ct(3);
  std::vector<std::uint8_t> p(0);
  EXPECT_THROW((void)lwc::ascon::aead128::decrypt(key, nonce, {}, ct, p), std::invalid_argument);
  lwc::ascon::hash256 h;
  std::array<std::uint8_t, 33> big{};
  EXPECT_THROW(h.squeeze(big), std::invalid_argument);
}

// The README's algorithm table names every registered algorithm and nothing else, so the docs
// cannot fall behind the list.
TEST(Registry, ReadmeTableListsEveryAlgorithm) {
  std::ifstream f(LWC_README_PATH);
  ASSERT_TRUE(f) << "cannot read " << LWC_README_PATH;
  std::stringstream text;
  text << f.rdbuf();
  const std::string readme = text.str();
  const std::size_t begin = readme.find("<!-- algorithms:begin -->");
  const std::size_t end = readme.find("<!-- algorithms:end -->");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  std::set<std::string> documented;
  std::istringstream rows(readme.substr(begin, end - begin));
  for (std::string row; std::getline(rows, row);) {
    if (row.rfind("| `", 0) != 0) continue;
    // The names are the `quoted` words of the first cell.
    const std::string first_cell = row.substr(1, row.find('|', 1) - 1);
    for (std::size_t open = first_cell.find('`'); open != std::string::npos;) {
      const std::size_t close = first_cell.find('`', open + 1);
      if (close == std::string::npos) break;
      const std::string name = first_cell.substr(open + 1, close - open - 1);
      EXPECT_TRUE(documented.insert(name).second) << name << " listed twice";
      open = first_cell.find('`', close + 1);
    }
  }
  std::set<std::string> registered;
  for (const auto& a : lwc::algorithms()) registered.insert(std::string(a.name));
  for (const std::string& n : registered) EXPECT_TRUE(documented.count(n)) << n << " missing from README.md";
  for (const std::string& n : documented) EXPECT_TRUE(registered.count(n)) << n << " in README.md is not registered";
}

}  // namespace
