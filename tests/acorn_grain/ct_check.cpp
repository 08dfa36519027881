// SPDX-License-Identifier: MIT OR Apache-2.0
// Constant-time check in the style of ctgrind: key, nonce, associated data, plaintext and tag
// are marked undefined for valgrind's memcheck, which then reports every branch and every
// memory address that depends on them. Run under valgrind --error-exitcode=1, once per code
// path; memcheck treats pext and pclmulqdq results as undefined when any input bit is.
#include <valgrind/memcheck.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <lwc/acorn/acorn128.hpp>
#include <lwc/grain/grain128aead.hpp>

namespace {

template <class A>
void run(std::size_t ad_len, std::size_t pt_len) {
  std::vector<std::uint8_t> key(A::key_size, 1), nonce(A::nonce_size, 2), ad(ad_len, 3),
      pt(pt_len, 4), ct(pt_len), tag(A::tag_size), back(pt_len);
  for (auto* v : {&key, &nonce, &ad, &pt}) VALGRIND_MAKE_MEM_UNDEFINED(v->data(), v->size());
  A::encrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), pt.data(), pt.size(),
             ct.data(), tag.data(), tag.size());
  VALGRIND_MAKE_MEM_UNDEFINED(tag.data(), tag.size());
  bool ok = A::decrypt(key.data(), nullptr, nonce.data(), ad.data(), ad.size(), ct.data(),
                       ct.size(), tag.data(), tag.size(), back.data());
  // The verdict is public once returned; what led to it must not have been branched on.
  VALGRIND_MAKE_MEM_DEFINED(&ok, sizeof ok);
  if (!ok) {
    std::fprintf(stderr, "%s: round trip failed\n", A::name.data());
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool portable = argc > 1 && std::strcmp(argv[1], "portable") == 0;
  lwc::acorn::force_portable(portable);
  lwc::grain::force_portable(portable);
  // Lengths that reach the word loops, the byte tails and a 2-byte DER length.
  for (auto [ad, pt] : {std::pair<std::size_t, std::size_t>{0, 0}, {3, 5}, {17, 67}, {200, 1029}}) {
    run<lwc::acorn::acorn128>(ad, pt);
    run<lwc::grain::grain128aead>(ad, pt);
  }
  std::printf("%s paths: acorn %d, grain %d\n", portable ? "portable" : "fastest",
              static_cast<int>(lwc::acorn::active_implementation()),
              static_cast<int>(lwc::grain::active_implementation()));
  return 0;
}
