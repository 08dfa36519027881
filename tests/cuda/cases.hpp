// SPDX-License-Identifier: MIT OR Apache-2.0
// Random and known-answer batches for the CUDA engine's tests, with the results the portable
// core gives for every job. Buffers start at a chosen offset from a 16-byte boundary so that
// every alignment the packed form allows is exercised; the bytes in front of each buffer
// are a guard that no job may write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <lwc/registry.hpp>

#include "../../src/cuda/algorithms.hpp"

namespace lwc::cuda::test {

using detail::algo;
using detail::algo_info;
using bytes = std::vector<std::uint8_t>;

inline constexpr std::uint8_t guard_byte = 0xA5;

// `size` bytes at `shift` bytes past a 16-byte-aligned allocation (operator new[] aligns to
// 16 on the platforms lwc supports); the allocation ends where the data ends, so that the
// sanitizers see any read past it.
class buffer {
 public:
  buffer() = default;
  buffer(std::size_t size, unsigned shift)
      : mem_(new std::uint8_t[shift + size]), shift_(shift), size_(size) {
    std::memset(mem_.get(), guard_byte, shift);
    std::memset(mem_.get() + shift, 0, size);
  }
  std::uint8_t* data() { return mem_ ? mem_.get() + shift_ : nullptr; }
  const std::uint8_t* data() const { return mem_ ? mem_.get() + shift_ : nullptr; }
  std::size_t size() const { return size_; }
  unsigned shift() const { return shift_; }
  // The whole allocation, guard included: device copies carry the guard along.
  std::uint8_t* raw() { return mem_.get(); }
  std::size_t raw_size() const { return shift_ + size_; }
  bool guard_intact() const {
    for (unsigned i = 0; i < shift_; ++i)
      if (mem_[i] != guard_byte) return false;
    return true;
  }
  bytes to_vector() const { return bytes(data(), data() + size_); }

 private:
  std::unique_ptr<std::uint8_t[]> mem_;
  unsigned shift_ = 0;
  std::size_t size_ = 0;
};

inline void fill_random(std::mt19937_64& g, std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(g() >> 56);
}

// Every algorithm of the list of the wanted kind (AEADs, or the others): the tests are
// instantiated over the list.
inline std::vector<const algo_info*> algorithms_where(bool aead) {
  std::vector<const algo_info*> v;
  for (const algo_info& a : detail::algo_table)
    if (a.aead == aead) v.push_back(&a);
  return v;
}

// ---- reference results (the portable core, through the registry entry) ----------------------

inline void ref_encrypt(const algo_info& alg, const std::uint8_t* key, const std::uint8_t* second,
                        const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                        const std::uint8_t* pt, std::size_t len, std::uint8_t* ct,
                        std::uint8_t* tag, std::size_t tag_len) {
  if (!alg.aead) throw std::invalid_argument("not an AEAD");
  alg.entry->encrypt(key, second, nonce, ad, ad_len, pt, len, ct, tag, tag_len);
}

inline void ref_hash(const algo_info& alg, const std::uint8_t* key, const std::uint8_t* custom,
                     std::size_t custom_len, const std::uint8_t* in, std::size_t len,
                     std::uint8_t* out, std::size_t out_len) {
  if (alg.aead) throw std::invalid_argument("not a hash");
  const lwc::algorithm& a = *alg.entry;
  alignas(8) std::uint8_t state[lwc::max_hash_state_size];
  a.init(state, key, custom, custom_len);
  a.absorb(state, in, len);
  a.squeeze(state, out, out_len);
  a.destroy(state);
}

// ---- AEAD batches ----------------------------------------------------------------------------

struct aead_shape {
  std::size_t n = 100;
  std::size_t max_len = 2000;  // message lengths: a mix of short, medium and up to max_len
  std::size_t max_ad = 80;
  bool with_ad = true;
  bool masking = false;        // nonce masking (second keys), where the algorithm has it
  std::size_t tag_len = 16;
  std::size_t first_offset = 0;  // offsets[0]
  unsigned shift_in = 0, shift_out = 0, shift_ad = 0, shift_meta = 0;
  bool in_place = false;       // output written over the input
  std::vector<std::size_t> lengths, ad_lengths;  // when not empty: job i takes entry i % size
  unsigned long_per_mille = 200;  // share of jobs drawn up to max_len
};

struct aead_case {
  const algo_info* alg = nullptr;
  aead_shape shape;
  buffer keys, nonces, second_keys, in, ad, out, tags;
  std::vector<std::size_t> in_off, ad_off;  // ad_off empty: no associated data
  bytes pt;                                  // the plaintexts, laid out like `in`
  bytes expect_ct, expect_tags;

  std::size_t n() const { return shape.n; }
  std::size_t len(std::size_t i) const { return in_off[i + 1] - in_off[i]; }
  std::uint8_t* out_data() { return shape.in_place ? in.data() : out.data(); }
};

// Half the jobs up to 64 bytes, 30 % up to 600, the rest (`long_per_mille`) up to max_len.
inline std::size_t random_length(std::mt19937_64& g, std::size_t max_len, unsigned long_per_mille = 200) {
  const unsigned pick = static_cast<unsigned>(g() % 1000);
  std::size_t cap = pick < 500 ? 64 : pick < 1000 - long_per_mille ? 600 : max_len;
  if (cap > max_len) cap = max_len;
  return static_cast<std::size_t>(g() % (cap + 1));
}

// Builds the batch with the plaintexts in `in` and computes the expected ciphertexts and tags.
inline aead_case make_aead_case(const algo_info& alg, const aead_shape& s, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  aead_case c;
  c.alg = &alg;
  c.shape = s;
  const std::size_t n = s.n;
  c.in_off.resize(n + 1);
  c.in_off[0] = s.first_offset;
  for (std::size_t i = 0; i < n; ++i)
    c.in_off[i + 1] = c.in_off[i] + (s.lengths.empty() ? random_length(g, s.max_len, s.long_per_mille)
                                                       : s.lengths[i % s.lengths.size()]);
  if (s.with_ad) {
    c.ad_off.resize(n + 1);
    c.ad_off[0] = s.first_offset;
    for (std::size_t i = 0; i < n; ++i)
      c.ad_off[i + 1] = c.ad_off[i] + (!s.ad_lengths.empty() ? s.ad_lengths[i % s.ad_lengths.size()]
                                       : g() % 4 == 0 ? 0 : g() % (s.max_ad + 1));
    c.ad = buffer(c.ad_off[n], s.shift_ad);
    fill_random(g, c.ad.data(), c.ad.size());
  }
  c.keys = buffer(alg.key_size * n, s.shift_meta);
  c.nonces = buffer(alg.nonce_size * n, s.shift_meta);
  fill_random(g, c.keys.data(), c.keys.size());
  fill_random(g, c.nonces.data(), c.nonces.size());
  if (s.masking) {
    c.second_keys = buffer(alg.second_key_size * n, s.shift_meta);
    fill_random(g, c.second_keys.data(), c.second_keys.size());
  }
  c.in = buffer(c.in_off[n], s.shift_in);
  fill_random(g, c.in.data(), c.in.size());
  c.pt = c.in.to_vector();
  if (!s.in_place) {
    c.out = buffer(c.in_off[n], s.shift_out);
    std::memset(c.out.data(), 0x5C, c.out.size());
  }
  c.tags = buffer(n * s.tag_len, s.shift_meta);
  c.expect_ct.assign(c.in_off[n], 0);
  c.expect_tags.assign(n * s.tag_len, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* ad = s.with_ad ? c.ad.data() + c.ad_off[i] : nullptr;
    const std::size_t ad_len = s.with_ad ? c.ad_off[i + 1] - c.ad_off[i] : 0;
    ref_encrypt(alg, c.keys.data() + alg.key_size * i,
                s.masking ? c.second_keys.data() + alg.second_key_size * i : nullptr,
                c.nonces.data() + alg.nonce_size * i, ad, ad_len, c.pt.data() + c.in_off[i], c.len(i),
                c.expect_ct.data() + c.in_off[i], c.expect_tags.data() + i * s.tag_len, s.tag_len);
  }
  return c;
}

// ---- hash batches ----------------------------------------------------------------------------

struct sponge_case {
  const algo_info* alg = nullptr;
  std::size_t n = 0, out_len = 0;
  buffer in, out;
  std::vector<std::size_t> in_off;
  buffer keys;                          // MACs and PRFs
  buffer custom;                        // CXOFs
  std::vector<std::size_t> custom_off;  // CXOFs (empty: no customization)
  bytes expect;
};

inline sponge_case make_sponge_case(const algo_info& alg, std::size_t n, std::size_t max_len,
                                    std::size_t out_len, unsigned shift_in, unsigned shift_out,
                                    std::size_t first_offset, std::uint64_t seed,
                                    unsigned long_per_mille = 200) {
  std::mt19937_64 g(seed);
  sponge_case c;
  c.alg = &alg;
  c.n = n;
  c.out_len = out_len;
  c.in_off.resize(n + 1);
  c.in_off[0] = first_offset;
  const std::size_t in_cap = std::min(max_len, alg.entry->max_input_size);
  for (std::size_t i = 0; i < n; ++i)
    c.in_off[i + 1] = c.in_off[i] + random_length(g, in_cap, long_per_mille);
  c.in = buffer(c.in_off[n], shift_in);
  fill_random(g, c.in.data(), c.in.size());
  if (alg.key_size != 0) {
    c.keys = buffer(alg.key_size * n, shift_in);
    fill_random(g, c.keys.data(), c.keys.size());
  }
  if (alg.max_customization != 0) {
    c.custom_off.resize(n + 1);
    c.custom_off[0] = first_offset;
    for (std::size_t i = 0; i < n; ++i)
      c.custom_off[i + 1] = c.custom_off[i] + (g() % 3 == 0 ? 0 : g() % (alg.max_customization + 1));
    c.custom = buffer(c.custom_off[n], shift_out);
    fill_random(g, c.custom.data(), c.custom.size());
  }
  c.out = buffer(n * out_len, shift_out);
  c.expect.assign(n * out_len, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const bool z = !c.custom_off.empty();
    ref_hash(alg, alg.key_size != 0 ? c.keys.data() + alg.key_size * i : nullptr,
             z ? c.custom.data() + c.custom_off[i] : nullptr,
             z ? c.custom_off[i + 1] - c.custom_off[i] : 0, c.in.data() + c.in_off[i],
             c.in_off[i + 1] - c.in_off[i], c.expect.data() + i * out_len, out_len);
  }
  return c;
}

inline std::string hex(const std::uint8_t* p, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

}  // namespace lwc::cuda::test
