// SPDX-License-Identifier: MIT OR Apache-2.0
// Constant-time check: keys, nonces, plaintexts, ciphertexts and tags are marked secret, so
// the checker (valgrind memcheck, or MemorySanitizer in the LWC_CT_MSAN build: see
// secret_marking.hpp) reports any branch or memory index that depends on them. Every
// registered algorithm runs through the registry, on the code paths this CPU picks. Only the
// verification result is declassified (it is public by design) before the program looks at it.
// Run: valgrind --error-exitcode=1 lwc_ct_check, or the MSan build's lwc_ct_check directly.

#include <cstdio>
#include <string_view>
#include <vector>

#include <lwc/registry.hpp>

#include "secret_marking.hpp"

namespace {

void secret(std::vector<std::uint8_t>& v) { lwc_ct::mark_secret(v.data(), v.size()); }
template <class T>
void declassify(T& x) {
  lwc_ct::declassify(&x, sizeof x);
}

std::vector<std::uint8_t> filled(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + 31 * i);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "--leak") {
    // Negative control: a branch on a secret byte, which memcheck must report.
    auto key = filled(16, 1);
    secret(key);
    volatile int sink = 0;
    if (key[3] & 1) sink = 1;
    return sink * 0;
  }
  int runs = 0;
  for (const auto& a : lwc::algorithms()) {
    // Lengths around block boundaries, so partial-block and padding code runs on secrets too,
    // and one of 70 blocks: Elephant runs the calls of such a message bitsliced, more than 64
    // at once (in AVX2 words where the CPU has them).
    for (std::size_t len : {std::size_t{0}, std::size_t{1}, a.block_size - 1, a.block_size,
                            2 * a.block_size + 3, 70 * a.block_size}) {
      if (len > a.max_input_size) continue;
      auto key = filled(a.key_size, 1), msg = filled(len, 2);
      secret(key);
      secret(msg);
      if (a.is_aead()) {
        auto nonce = filled(a.nonce_size, 3), ad = filled(len, 4);
        auto second = filled(a.second_key_size, 5);
        secret(nonce);
        secret(ad);
        secret(second);
        std::vector<std::uint8_t> ct(len), tag(a.tag_size), out(len);
        a.encrypt(key.data(), a.second_key_size ? second.data() : nullptr, nonce.data(), ad.data(),
                  len, msg.data(), len, ct.data(), tag.data(), tag.size());
        bool ok = a.decrypt(key.data(), a.second_key_size ? second.data() : nullptr, nonce.data(),
                            ad.data(), len, ct.data(), len, tag.data(), tag.size(), out.data());
        declassify(ok);
        if (!ok) {
          std::printf("%s: round trip failed\n", a.name.data());
          return 1;
        }
        tag[0] ^= 1;  // a forgery: the rejection path must be constant time too
        bool forged = a.decrypt(key.data(), a.second_key_size ? second.data() : nullptr,
                                nonce.data(), ad.data(), len, ct.data(), len, tag.data(),
                                tag.size(), out.data());
        declassify(forged);
        if (forged) return 1;
      } else {
        std::vector<std::uint8_t> out(a.output_size);
        alignas(8) std::uint8_t st[lwc::max_hash_state_size];
        a.init(st, key.data(), nullptr, 0);
        a.absorb(st, msg.data(), len);
        a.squeeze(st, out.data(), out.size());
        a.destroy(st);
        if (a.is_keyed()) {
          lwc::hasher h(a, key);
          h.update(msg);
          bool ok = h.verify(out);
          declassify(ok);
          if (!ok) return 1;
        }
      }
      ++runs;
    }
  }
  std::printf("constant-time check (%s): %d runs over %zu algorithms\n", lwc_ct::checker(), runs,
              lwc::algorithms().size());
  return 0;
}
