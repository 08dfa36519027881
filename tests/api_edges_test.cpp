// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ core at its edges, over every algorithm of the list: incremental encryptors refuse
// use after finalize and have wiped their state and key by then; the span forms take exact
// sizes (the full tag) unless a *_truncated form names the tag length; the registry's
// verifiers take full tags unless the truncated opt-in is called; checked size arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <lwc/common/checked.hpp>
#include <lwc/common/overlap.hpp>
#include <lwc/lwc.hpp>
#include <lwc/registry.hpp>

namespace {

using bytes = std::vector<std::uint8_t>;

// Calls f.template operator()<A>() for every algorithm A of the list.
template <class F, std::size_t... I>
void for_each_listed(F&& f, std::index_sequence<I...>) {
  (f.template operator()<lwc::list_algorithm<I>>(), ...);
}
template <class F>
void for_each_listed(F&& f) {
  for_each_listed(f, std::make_index_sequence<lwc::algorithm_count>{});
}

template <class T>
std::size_t nonzero_bytes(const T& object) {
  unsigned char repr[sizeof(T)];
  std::memcpy(repr, static_cast<const void*>(&object), sizeof(T));
  std::size_t n = 0;
  for (const unsigned char b : repr) n += b != 0;
  return n;
}

bytes pattern(std::size_t n, std::uint8_t seed) {
  bytes v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(seed + 31 * i);
  return v;
}

// ---- incremental encryptors ----------------------------------------------------------------

TEST(Encryptors, RefuseUseAfterFinalizeAndWipeAtFinalize) {
  std::size_t tested = 0;
  for_each_listed([&]<class A>() {
    if constexpr (requires { typename A::encryptor; }) {
      SCOPED_TRACE(std::string(A::name));
      ++tested;
      const bytes key = pattern(A::key_size, 0x51), nonce = pattern(A::nonce_size, 0x17);
      const bytes pt = pattern(40, 0x99);
      bytes ct(pt.size()), tag(A::tag_size);
      bytes ct_one(pt.size()), tag_one(A::tag_size);
      A::encrypt(key.data(), nullptr, nonce.data(), nullptr, 0, pt.data(), pt.size(),
                 ct_one.data(), tag_one.data(), tag_one.size());

      typename A::encryptor e(key.data(), nonce.data(), nullptr);
      e.encrypt(pt.data(), pt.size(), ct.data());
      // Before finalize the object holds a key-dependent state: far more than a few non-zero
      // bytes (the check below could not pass by accident).
      EXPECT_GT(nonzero_bytes(e), 16u);
      e.finalize(tag.data(), tag.size());
      EXPECT_EQ(ct, ct_one);
      EXPECT_EQ(tag, tag_one);
      // Wiped at finalize: what is left is bookkeeping (positions, phase, flags).
      EXPECT_LE(nonzero_bytes(e), 8u);

      std::uint8_t more[4] = {1, 2, 3, 4}, out[4] = {};
      EXPECT_THROW(e.encrypt(more, sizeof more, out), std::invalid_argument);
      EXPECT_THROW(e.encrypt(more, 0, out), std::invalid_argument);
      EXPECT_THROW(e.update(lwc::bytes_view(more), lwc::bytes_span(out)), std::invalid_argument);
      EXPECT_THROW(e.absorb_ad(more, sizeof more), std::invalid_argument);
      EXPECT_THROW(e.finalize(tag.data(), tag.size()), std::invalid_argument);
      EXPECT_EQ(out[0], 0) << "ciphertext written after the tag";
    }
  });
  EXPECT_GE(tested, 5u);  // Ascon (four), Acorn, Grain, PHOTON-Beetle, ISAP at least
}

// ---- span forms: exact sizes, truncation only by name --------------------------------------

TEST(SpanForms, SizesAreExactAndTruncationIsNamed) {
  std::size_t tested = 0;
  for_each_listed([&]<class A>() {
    if constexpr (lwc::is_aead_v<A> && requires { &A::encrypt_truncated; }) {
      SCOPED_TRACE(std::string(A::name));
      ++tested;
      std::array<std::uint8_t, A::key_size> key{};
      std::array<std::uint8_t, A::nonce_size> nonce{};
      key.fill(0x42);
      nonce.fill(0x24);
      const bytes pt = pattern(33, 7), ad = pattern(5, 9);
      constexpr std::size_t full = A::tag_size;

      // The combined form: exactly pt + full tag. Shorter (a silent truncation before) and
      // longer outputs are errors.
      bytes sealed(pt.size() + full);
      A::encrypt(key, nonce, ad, pt, sealed);
      for (const std::size_t wrong : {pt.size() + full - 12, pt.size() + full - 1,
                                      pt.size() + full + 1, pt.size()}) {
        bytes out(wrong, 0xEE);
        EXPECT_THROW(A::encrypt(key, nonce, ad, pt, out), std::invalid_argument) << wrong;
      }
      bytes back(pt.size());
      EXPECT_TRUE(A::decrypt(key, nonce, ad, sealed, back));
      EXPECT_EQ(back, pt);

      bytes ct(pt.size()), tag(full);
      A::encrypt_detached(key, nonce, ad, pt, ct, tag);
      EXPECT_TRUE(A::decrypt_detached(key, nonce, ad, ct, tag, back));
      EXPECT_EQ(bytes(sealed.begin(), sealed.begin() + static_cast<std::ptrdiff_t>(pt.size())), ct);

      if constexpr (A::min_tag_size < full) {
        constexpr std::size_t t = A::min_tag_size;
        bytes short_sealed(pt.size() + t);
        A::encrypt_truncated(key, nonce, ad, pt, short_sealed, t);
        EXPECT_TRUE(A::decrypt_truncated(key, nonce, ad, short_sealed, back, t));
        EXPECT_EQ(back, pt);
        // The plain decrypt reads a full tag: the truncated message does not fit its sizes.
        bytes short_back(pt.size() + t - full);
        EXPECT_FALSE(A::decrypt(key, nonce, ad, short_sealed, short_back));

        bytes short_tag(t);
        EXPECT_THROW(A::encrypt_detached(key, nonce, ad, pt, ct, short_tag), std::invalid_argument);
        A::encrypt_detached_truncated(key, nonce, ad, pt, ct, short_tag);
        EXPECT_THROW((void)A::decrypt_detached(key, nonce, ad, ct, short_tag, back),
                     std::invalid_argument);
        EXPECT_TRUE(A::decrypt_detached_truncated(key, nonce, ad, ct, short_tag, back));
        // The prefix of the full tag is not accepted by the full-tag form either, and fails
        // as a wrong tag does.
        EXPECT_THROW((void)A::decrypt_detached(key, nonce, ad, ct, lwc::bytes_view(tag).first(t),
                                               back),
                     std::invalid_argument);
        EXPECT_EQ(back, bytes(pt.size(), 0));
      }
    }
  });
  EXPECT_GE(tested, 10u);
}

// ---- the registry's verifiers ----------------------------------------------------------------

TEST(RegistryVerifiers, FullTagByDefaultTruncationByName) {
  for (const lwc::algorithm& a : lwc::algorithms()) {
    SCOPED_TRACE(std::string(a.name));
    const bytes key = pattern(a.key_size, 3);
    const bytes msg = pattern(std::min<std::size_t>(50, a.max_input_size), 4);
    if (a.is_aead()) {
      const bytes nonce = pattern(a.nonce_size, 5);
      bytes ct(msg.size()), tag(a.tag_size), back(msg.size());
      lwc::aead_encrypt(a, key, nonce, {}, msg, ct, tag);
      EXPECT_TRUE(lwc::aead_decrypt(a, key, nonce, {}, ct, tag, back));
      EXPECT_THROW((void)lwc::aead_decrypt(a, key, nonce, {}, ct,
                                           lwc::bytes_view(tag).first(a.tag_size - 1), back),
                   std::invalid_argument);
      EXPECT_EQ(back, bytes(msg.size(), 0)) << "a tag of the wrong length leaves plaintext";
      EXPECT_TRUE(lwc::aead_decrypt_truncated(a, key, nonce, {}, ct,
                                              lwc::bytes_view(tag).first(a.min_tag_size), back));
    } else if (a.is_keyed()) {
      bytes tag(a.tag_size);
      lwc::digest(a, msg, tag, key);
      lwc::hasher full(a, key);
      full.update(msg);
      EXPECT_TRUE(full.verify(tag));
      lwc::hasher prefix(a, key);
      prefix.update(msg);
      EXPECT_THROW((void)prefix.verify(lwc::bytes_view(tag).first(a.min_tag_size)),
                   std::invalid_argument);
      lwc::hasher opt_in(a, key);
      opt_in.update(msg);
      EXPECT_TRUE(opt_in.verify_truncated(lwc::bytes_view(tag).first(a.min_tag_size)));
      lwc::hasher too_long(a, key);
      bytes longer(a.max_output_size != 0 ? a.tag_size + 1 : 65);
      EXPECT_THROW((void)too_long.verify_truncated(longer), std::invalid_argument);
    }
  }
}

// ---- checked arithmetic and overlap ----------------------------------------------------------

TEST(CheckedSizes, ProductsAndSumsThatWrapAreRefused) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  std::size_t r = 0;
  EXPECT_TRUE(lwc::mul_fits(3, 5, r));
  EXPECT_EQ(r, 15u);
  EXPECT_FALSE(lwc::mul_fits(2, std::size_t{1} << (sizeof(std::size_t) * 8 - 1), r));
  EXPECT_TRUE(lwc::mul_fits(0, max, r));
  EXPECT_FALSE(lwc::mul_fits(max, 2, r));
  EXPECT_TRUE(lwc::add_fits(max - 1, 1, r));
  EXPECT_FALSE(lwc::add_fits(max, 1, r));
  EXPECT_THROW((void)lwc::checked_mul(max / 2 + 1, 2, "n * out_len"), std::invalid_argument);
  EXPECT_THROW((void)lwc::checked_add(max, 16, "message + tag"), std::invalid_argument);
  try {
    (void)lwc::checked_mul(max, 16, "tags");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tags"), std::string::npos);
  }
  lwc::checked_total total("batch");
  total.add(max - 5).add(5);
  EXPECT_EQ(total.value(), max);
  EXPECT_THROW(total.add(1), std::invalid_argument);
}

TEST(Overlap, RangesAndInPlace) {
  std::uint8_t buf[64] = {};
  EXPECT_TRUE(lwc::ranges_overlap(buf, 10, buf + 9, 10));
  EXPECT_FALSE(lwc::ranges_overlap(buf, 10, buf + 10, 10));
  EXPECT_TRUE(lwc::ranges_overlap(buf + 9, 10, buf, 10));
  EXPECT_FALSE(lwc::ranges_overlap(buf, 0, buf, 10));
  EXPECT_FALSE(lwc::ranges_overlap(nullptr, 10, buf, 10));
  EXPECT_TRUE(lwc::ranges_overlap(buf + 1, std::numeric_limits<std::size_t>::max(), buf + 60, 1));
  EXPECT_FALSE(lwc::bad_in_place(buf, 16, buf, 16));
  EXPECT_TRUE(lwc::bad_in_place(buf + 1, 16, buf, 16));
}

}  // namespace
