// SPDX-License-Identifier: MIT OR Apache-2.0
// The permutation and the modes are constexpr: these known answers are computed by the
// compiler, so a wrong constant or round breaks the build, not just a test run.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include <lwc/ascon.hpp>

namespace {

constexpr std::array<std::uint8_t, 16> iota(std::uint8_t first) {
  std::array<std::uint8_t, 16> a{};
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(first + i);
  return a;
}

// ascon-aead128.txt, Count = 35: PT = 20, AD = 30 -> CT = 96 || 2B8016836C75A7D86866588CA245D886
constexpr auto kat35 = [] {
  const auto key = iota(0x00), nonce = iota(0x10);
  const std::uint8_t pt[1] = {0x20}, ad[1] = {0x30};
  std::array<std::uint8_t, 17> out{};
  lwc::ascon::aead128::encrypt(key.data(), nullptr, nonce.data(), ad, 1, pt, 1, out.data(),
                               out.data() + 1, 16);
  return out;
}();
static_assert(kat35[0] == 0x96 && kat35[1] == 0x2B && kat35[16] == 0x86);

// The same record through the incremental encryptor.
constexpr auto kat35_incremental = [] {
  const auto key = iota(0x00), nonce = iota(0x10);
  const std::uint8_t pt[1] = {0x20}, ad[1] = {0x30};
  std::array<std::uint8_t, 17> out{};
  lwc::ascon::aead128::encryptor enc(key.data(), nonce.data(), nullptr);
  enc.absorb_ad(ad, 1);
  enc.encrypt(pt, 1, out.data());
  enc.finalize(out.data() + 1, 16);
  return out;
}();
static_assert(kat35_incremental == kat35);

// ascon-hash256.txt, Count = 1 (empty message).
constexpr auto empty_hash = lwc::ascon::hash256::digest({});
static_assert(empty_hash[0] == 0x0B && empty_hash[1] == 0x3B && empty_hash[31] == 0xB2);

// ascon-mac.txt (v1.2), Count = 1: empty message under key 00..0F.
constexpr auto empty_mac = [] {
  const auto key = iota(0x00);
  return lwc::ascon::v12::mac::compute(key, {});
}();
static_assert(empty_mac[0] == 0xEB && empty_mac[15] == 0x15);

TEST(Constexpr, KnownAnswersWereCheckedAtCompileTime) {
  // Run-time twin of the static_asserts, so the check shows up in the test report too.
  const auto key = iota(0x00), nonce = iota(0x10);
  const std::uint8_t pt[1] = {0x20}, ad[1] = {0x30};
  std::array<std::uint8_t, 17> out{};
  lwc::ascon::aead128::encrypt(key, nonce, {ad, 1}, {pt, 1}, out);
  EXPECT_EQ(out, kat35);
}

}  // namespace
