// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ quick start of README.md: encrypt, decrypt, hash, XOF. Built and run by the tests.
#include <lwc/ascon.hpp>

#include <array>
#include <cstdio>
#include <string_view>
#include <vector>

int main() {
  using lwc::ascon::aead128;
  const std::array<std::uint8_t, 16> key{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const std::array<std::uint8_t, 16> nonce{};  // never reuse a nonce with the same key
  const std::string_view text = "attack at dawn";
  const lwc::bytes_view msg(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  const lwc::bytes_view ad;  // associated data: authenticated, not encrypted

  std::vector<std::uint8_t> sealed(msg.size() + aead128::tag_size);  // ciphertext || tag
  aead128::encrypt(key, nonce, ad, msg, sealed);

  std::vector<std::uint8_t> opened(msg.size());
  if (!aead128::decrypt(key, nonce, ad, sealed, opened)) {
    std::puts("tag mismatch: message rejected");  // `opened` is all zeros here
    return 1;
  }

  sealed[0] ^= 1;  // any change is detected
  const bool forged_ok = aead128::decrypt(key, nonce, ad, sealed, opened);

  const auto digest = lwc::ascon::hash256::digest(msg);  // 32 bytes
  lwc::ascon::xof128 xof;
  xof.update(msg);
  std::array<std::uint8_t, 64> stream{};
  xof.squeeze(stream);  // any length, in any number of pieces

  std::printf("decrypted: %.*s\nforgery accepted: %s\nhash256: ", static_cast<int>(text.size()),
              reinterpret_cast<const char*>(msg.data()), forged_ok ? "yes" : "no");
  for (auto b : digest) std::printf("%02x", b);
  std::printf("\nxof128[0..8): ");
  for (int i = 0; i < 8; ++i) std::printf("%02x", stream[i]);
  std::printf("\n");
  return forged_ok ? 1 : 0;
}
