// SPDX-License-Identifier: MIT OR Apache-2.0
// Elephant v2 (NIST lightweight cryptography, final round; "Elephant v2", Beyne, Chen,
// Dobraunig, Mennink, 2021, section 2): Dumbo (Spongent-pi[160], 64-bit tag), Jumbo
// (Spongent-pi[176], 64-bit tag) and Delirium (Keccak-f[200], 128-bit tag); 128-bit key,
// 96-bit nonce.
//
// Never encrypt two messages under one key with the same nonce: the keystream depends only on
// the key, the nonce and the block index, so a repeated nonce leaks the XOR of the plaintexts.
// Decryption is one-shot: the tag is checked in constant time before anything is returned, and
// on failure the output is all zeros.
//
// Every block is encrypted and authenticated with a mask of its own (the mask LFSR run to
// that block), so the permutation calls inside one message are independent of each other;
// long messages run them 64 at a time in a bitsliced form (one 64-bit word per state bit), or
// 256 at a time in AVX2 registers. The BMI2 and AVX2 paths are picked at run time (see
// spongent.hpp); LWC_FORCE_PORTABLE=1 turns them off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "../common/aead_span_forms.hpp"
#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/kind.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "bitsliced.hpp"
#include "block.hpp"
#include "keccak200.hpp"
#include "spongent.hpp"

namespace lwc::elephant {

namespace detail {

inline constexpr std::size_t key_bytes = 16;
inline constexpr std::size_t nonce_bytes = 12;

// The three instances: permutation, tag length and the mask LFSR's new byte, a function of
// the current mask's bytes.
struct dumbo_traits {
  using perm = spongent<160>;
  static constexpr std::size_t tag_bytes = 8;
  LWC_HD static constexpr std::uint8_t feedback(const block& m) {
    return static_cast<std::uint8_t>(rotl8(byte_of(m, 0), 3) ^ (byte_of(m, 3) << 7) ^
                                     (byte_of(m, 13) >> 7));
  }
};
struct jumbo_traits {
  using perm = spongent<176>;
  static constexpr std::size_t tag_bytes = 8;
  LWC_HD static constexpr std::uint8_t feedback(const block& m) {
    return static_cast<std::uint8_t>(rotl8(byte_of(m, 0), 1) ^ (byte_of(m, 3) << 7) ^
                                     (byte_of(m, 19) >> 7));
  }
};
struct delirium_traits {
  using perm = keccak200;
  static constexpr std::size_t tag_bytes = 16;
  LWC_HD static constexpr std::uint8_t feedback(const block& m) {
    return static_cast<std::uint8_t>(rotl8(byte_of(m, 0), 1) ^ rotl8(byte_of(m, 2), 1) ^
                                     (byte_of(m, 13) << 1));
  }
};

template <class V>
struct mode {
  using perm = typename V::perm;
  static constexpr std::size_t B = perm::state_bytes;

  LWC_HD static constexpr block next_mask(const block& m) {
    block r = m;
    shift_in<B>(r, V::feedback(m));
    return r;
  }

  // Block i of the padded stream nonce || ad || 0x01 || 0*.
  LWC_HD static constexpr block ad_block(const std::uint8_t* nonce, const std::uint8_t* ad,
                                         std::size_t ad_len, std::size_t i) {
    if (i != 0) {
      const std::size_t start = i * B - nonce_bytes;
      if (start + B <= ad_len) return load_full<B>(ad + start);
      const std::size_t r = ad_len - start;
      block b = load_block<B>(ad + start, r);
      b.w[r / 8] |= std::uint64_t{1} << (8 * (r % 8));
      return b;
    }
    std::uint8_t buf[B]{};
    for (std::size_t k = 0; k < nonce_bytes; ++k) buf[k] = nonce[k];
    const std::size_t r = ad_len < B - nonce_bytes ? ad_len : B - nonce_bytes;
    for (std::size_t k = 0; k < r; ++k) buf[nonce_bytes + k] = ad[k];
    if (r < B - nonce_bytes) buf[nonce_bytes + r] = 1;
    const block b = load_full<B>(buf);
    wipe_object(buf);
    return b;
  }

  // P(x ^ mask) ^ mask.
  LWC_HD static constexpr block masked(block x, const block& mask) {
    xor_into(x, mask);
    perm::permute(x);
    xor_into(x, mask);
    return x;
  }

  // Encrypts (or decrypts) len bytes of in into out and writes the full tag;
  // in == out is allowed: the ciphertext of a block is read before its output is written.
  template <bool Decrypt>
  LWC_HD static constexpr void run(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                                   std::uint8_t* tag) {
#if !defined(__CUDA_ARCH__)
    if (!std::is_constant_evaluated()) {
      run_batched<Decrypt, LWC_X86_DISPATCH != 0>(key, nonce, ad, ad_len, in, len, out, tag);
      return;
    }
#endif
    run_blockwise<Decrypt>(key, nonce, ad, ad_len, in, len, out, tag);
  }

#if !defined(__CUDA_ARCH__)
  // The batched path comes in two forms, so that translation units compiled with and without
  // the x86-64 dispatch (CUDA host code, for one) never share a function whose array sizes
  // differ: Wide (x86-64 dispatch) takes batches of up to 256 calls, else 64.
  static constexpr std::size_t max_batch(bool wide) { return wide ? avx2_lanes : lanes; }

  // How many calls one batch takes on this CPU's path: 256 with AVX2, else 64.
  template <bool Wide>
  static std::size_t batch_lanes() {
#if LWC_X86_DISPATCH
    if constexpr (Wide)
      if (active_implementation() == implementation::avx2) return avx2_lanes;
#endif
    return lanes;
  }

  // Runs the calls in x[0 .. n) (n <= batch_lanes()), whichever way is faster for n: one at a
  // time, 64 in 64-bit words, or (more than 64, only on the avx2 path) in AVX2 words.
  template <bool Wide>
  static void permute_all(block* x, std::size_t n) {
#if LWC_X86_DISPATCH
    if constexpr (Wide) {
      if (n > lanes) {
        permute_many_avx2<perm>(x, n);
        return;
      }
    }
#endif
    if (n >= perm::min_batch()) permute_many<perm>(x, n);
    else
      for (std::size_t l = 0; l < n; ++l) perm::permute(x[l]);
  }

  // The authentication calls all add into one accumulator, in any order: they are queued and
  // run a batch at a time. `used` is how far the arrays were written, for the wipe.
  template <bool Wide>
  struct auth_queue {
    block x[max_batch(Wide)];
    block mask[max_batch(Wide)];
    std::size_t n;
    std::size_t limit;
    std::size_t used;
    block acc;

    void push(const block& in, const block& m) {
      x[n] = xor_of(in, m);
      mask[n] = m;
      if (++n > used) used = n;
      if (n == limit) flush();
    }
    void flush() {
      permute_all<Wide>(x, n);
      for (std::size_t l = 0; l < n; ++l) {
        xor_into(acc, x[l]);
        xor_into(acc, mask[l]);
      }
      n = 0;
    }
    void wipe() {
      secure_wipe(x, used * sizeof(block));
      secure_wipe(mask, used * sizeof(block));
      wipe_object(acc);
    }
  };

  template <bool Decrypt, bool Wide>
  static void run_batched(const std::uint8_t* key, const std::uint8_t* nonce,
                          const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* in,
                          std::size_t len, std::uint8_t* out, std::uint8_t* tag) {
    const std::size_t blocks_m = (len + B - 1) / B;
    const std::size_t blocks_c = len / B + 1;
    const std::size_t blocks_a = (nonce_bytes + ad_len) / B + 1;
    const std::uint8_t* ct = Decrypt ? in : out;

    block expanded = load_block<B>(key, key_bytes);
    perm::permute(expanded);
    const block nonce_block = load_block<B>(nonce, nonce_bytes);
    const std::size_t chunk = batch_lanes<Wide>();
    auth_queue<Wide> q;
    q.n = 0;
    q.limit = chunk;
    q.used = 0;
    q.acc = ad_block(nonce, ad, ad_len, 0);
    // masks[l] is mask j0 + l for the chunk of blocks starting at j0.
    block masks[max_batch(Wide) + 2];
    block ks[max_batch(Wide)];
    const std::size_t used = blocks_c < chunk ? blocks_c : chunk;
    masks[0] = expanded;
    for (std::size_t j0 = 0; j0 < blocks_c; j0 += chunk) {
      const std::size_t nc = blocks_c - j0 < chunk ? blocks_c - j0 : chunk;
      const std::size_t nm = blocks_m - j0 < nc ? blocks_m - j0 : nc;
      for (std::size_t l = 0; l < nc + 1; ++l) masks[l + 1] = next_mask(masks[l]);
      // Decryption authenticates the ciphertext (copied into the queue) before it is
      // overwritten, so that in == out works.
      if (Decrypt)
        for (std::size_t l = 0; l < nc; ++l)
          q.push(stream_block<B>(ct, len, j0 + l), xor_of(masks[l], masks[l + 2]));
      for (std::size_t l = 0; l < nm; ++l) ks[l] = xor_of(nonce_block, xor_of(masks[l], masks[l + 1]));
      permute_all<Wide>(ks, nm);
      for (std::size_t l = 0; l < nm; ++l) {
        const std::size_t j = j0 + l;
        xor_into(ks[l], xor_of(masks[l], masks[l + 1]));
        if (len - j * B >= B) {
          xor_into(ks[l], load_full<B>(in + j * B));
          store_full<B>(out + j * B, ks[l]);
        } else {
          const std::size_t r = len - j * B;
          xor_into(ks[l], load_block<B>(in + j * B, r));
          store_block(out + j * B, ks[l], r);
        }
      }
      if (!Decrypt)
        for (std::size_t l = 0; l < nc; ++l)
          q.push(stream_block<B>(ct, len, j0 + l), xor_of(masks[l], masks[l + 2]));
      masks[0] = masks[nc];
    }
    // Associated data block j (j >= 1) is masked with mask j.
    block m = expanded;
    for (std::size_t j = 1; j < blocks_a; ++j) {
      m = next_mask(m);
      q.push(ad_block(nonce, ad, ad_len, j), m);
    }
    q.flush();
    block acc = masked(q.acc, expanded);
    store_block(tag, acc, V::tag_bytes);
    q.wipe();
    secure_wipe(masks, (used + 2) * sizeof(block));
    secure_wipe(ks, used * sizeof(block));
    wipe_object(acc);
    wipe_object(m);
    wipe_object(expanded);
  }
#endif

  // The same, one block at a time (constant evaluation and device code).
  template <bool Decrypt>
  LWC_HD static constexpr void run_blockwise(const std::uint8_t* key, const std::uint8_t* nonce,
                                   const std::uint8_t* ad, std::size_t ad_len,
                                   const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                                   std::uint8_t* tag) {
    const std::size_t blocks_m = (len + B - 1) / B;             // message blocks
    const std::size_t blocks_c = len / B + 1;                   // padded ciphertext blocks
    const std::size_t blocks_a = (nonce_bytes + ad_len) / B + 1;  // padded nonce || ad blocks
    const std::size_t blocks = blocks_c > blocks_a ? blocks_c : blocks_a;
    const std::uint8_t* ct = Decrypt ? in : out;

    block expanded = load_block<B>(key, key_bytes);
    perm::permute(expanded);
    const block nonce_block = load_block<B>(nonce, nonce_bytes);
    block acc = ad_block(nonce, ad, ad_len, 0);
    // mask j, j+1, j+2 for block j.
    block m0 = expanded, m1 = next_mask(m0), m2 = next_mask(m1);
    for (std::size_t j = 0; j < blocks; ++j) {
      if (Decrypt && j < blocks_c)
        xor_into(acc, masked(stream_block<B>(ct, len, j), xor_of(m0, m2)));
      if (j < blocks_m) {
        const block mask = xor_of(m0, m1);
        block ks = masked(nonce_block, mask);
        const std::size_t r = len - j * B < B ? len - j * B : B;
        xor_into(ks, load_block<B>(in + j * B, r));
        store_block(out + j * B, ks, r);
        wipe_object(ks);
      }
      if (!Decrypt && j < blocks_c)
        xor_into(acc, masked(stream_block<B>(ct, len, j), xor_of(m0, m2)));
      if (j != 0 && j < blocks_a) xor_into(acc, masked(ad_block(nonce, ad, ad_len, j), m0));
      m0 = m1;
      m1 = m2;
      m2 = next_mask(m2);
    }
    acc = masked(acc, expanded);
    store_block(tag, acc, V::tag_bytes);
    wipe_object(acc);
    wipe_object(expanded);
    wipe_object(m0);
    wipe_object(m1);
    wipe_object(m2);
  }
};

}  // namespace detail

template <class V, class Self>
struct elephant_aead : ::lwc::detail::aead_span_forms<Self, 16, 12, V::tag_bytes> {
  using span_forms = ::lwc::detail::aead_span_forms<Self, 16, 12, V::tag_bytes>;
  using span_forms::decrypt;
  using span_forms::decrypt_detached;
  using span_forms::encrypt;
  using span_forms::encrypt_detached;
  using span_forms::decrypt_detached_truncated;
  using span_forms::decrypt_truncated;
  using span_forms::encrypt_detached_truncated;
  using span_forms::encrypt_truncated;
  static constexpr algorithm_kind kind = algorithm_kind::aead;
  static constexpr std::size_t key_size = 16;
  static constexpr std::size_t second_key_size = 0;
  static constexpr std::size_t nonce_size = 12;
  static constexpr std::size_t tag_size = V::tag_bytes;
  static constexpr std::size_t min_tag_size = V::tag_bytes;  // no truncation is defined
  static constexpr std::size_t block_size = V::perm::state_bytes;

  using typename span_forms::key_view;
  using typename span_forms::nonce_view;

  LWC_HD static constexpr void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                                       const std::uint8_t* nonce, const std::uint8_t* ad,
                                       std::size_t ad_len, const std::uint8_t* pt,
                                       std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                                       std::size_t tag_len) {
    LWC_REQUIRE(tag_len == tag_size, "wrong elephant tag length");
    LWC_REQUIRE(second_key == nullptr, "elephant takes no second key");
    detail::mode<V>::template run<false>(key, nonce, ad, ad_len, pt, pt_len, ct, tag);
  }

  // Returns true when the tag verifies. On false, all ct_len bytes of pt are zero.
  [[nodiscard]] LWC_HD static constexpr bool decrypt(
      const std::uint8_t* key, const std::uint8_t* second_key, const std::uint8_t* nonce,
      const std::uint8_t* ad, std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
      const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
    LWC_REQUIRE(tag_len == tag_size, "wrong elephant tag length");
    LWC_REQUIRE(second_key == nullptr, "elephant takes no second key");
    std::uint8_t expected[tag_size]{};
    detail::mode<V>::template run<true>(key, nonce, ad, ad_len, ct, ct_len, pt, expected);
    const bool ok = ct_equal(expected, tag, tag_len);
    const std::uint8_t keep = ct_mask(ok);
    for (std::size_t i = 0; i < ct_len; ++i) pt[i] &= keep;
    wipe_object(expected);
    return ok;
  }
};

// Elephant v2: Dumbo (Spongent-pi[160]), Jumbo (Spongent-pi[176]) and Delirium
// (Keccak-f[200]); 16-byte key, 12-byte nonce.
struct elephant_dumbo : elephant_aead<detail::dumbo_traits, elephant_dumbo> {
  static constexpr std::string_view name = "elephant-dumbo";
};
struct elephant_jumbo : elephant_aead<detail::jumbo_traits, elephant_jumbo> {
  static constexpr std::string_view name = "elephant-jumbo";
};
struct elephant_delirium : elephant_aead<detail::delirium_traits, elephant_delirium> {
  static constexpr std::string_view name = "elephant-delirium";
};

}  // namespace lwc::elephant
