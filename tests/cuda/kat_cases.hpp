// SPDX-License-Identifier: MIT OR Apache-2.0
// The KAT files as CUDA-engine batches: the records of a file that share a tag length (AEADs)
// or an output length (XOFs) become one packed batch, run through the same entry points as the
// random batches.
#pragma once

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "../support/kat_reader.hpp"
#include "cases.hpp"

namespace lwc::cuda::test {

struct kat_aead_batch {
  std::string label;
  std::size_t tag_len = 16;
  bool masking = false;
  bool decrypt = false;
  std::vector<std::size_t> lines;
  buffer keys, nonces, second_keys, in, ad, tags;
  std::vector<std::size_t> in_off{0}, ad_off{0};
  bytes expect_out, expect_tags;  // encryption: ciphertexts and tags
  std::vector<std::uint8_t> expect_ok;  // decryption: verdicts (outputs: expect_out where ok)
  std::size_t n() const { return lines.size(); }
};

struct kat_sponge_batch {
  std::string label;
  std::size_t out_len = 0;
  std::vector<std::size_t> lines;
  buffer in;
  std::vector<std::size_t> in_off{0};
  buffer keys;                              // MACs and PRFs
  buffer custom;                            // CXOFs
  std::vector<std::size_t> custom_off{0};  // CXOFs
  bytes expect;
  std::size_t n() const { return lines.size(); }
};

// An algorithm's KAT files: `<name>.txt` or `<name>.<set>.txt` anywhere under tests/vectors
// (as the core's KAT driver finds them).
inline std::vector<std::filesystem::path> kat_files(const std::string& dir, std::string_view name) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string stem = e.path().stem().string();
    if (e.path().extension() == ".txt" &&
        (stem == name || stem.rfind(std::string(name) + ".", 0) == 0))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace kat_detail {
struct aead_rec {
  bytes key, second, nonce, ad, pt, ct, tag;
  bool must_fail, decrypt_only;
  int line;
};
inline void append(std::vector<bytes>& parts, const bytes& b) { parts.push_back(b); }
inline buffer concat(const std::vector<bytes>& parts, std::vector<std::size_t>* off, unsigned shift) {
  std::size_t total = 0;
  for (const bytes& p : parts) total += p.size();
  buffer b(total, shift);
  std::size_t at = 0;
  for (const bytes& p : parts) {
    if (!p.empty()) std::memcpy(b.data() + at, p.data(), p.size());
    at += p.size();
    if (off != nullptr) off->push_back(at);
  }
  return b;
}
}  // namespace kat_detail

// Encryption batches (records that are not decryption-only) and decryption batches (all
// records), one per tag length, for every KAT file of an AEAD.
inline std::vector<kat_aead_batch> kat_aead_batches(const std::string& dir, const algo_info& alg,
                                                    unsigned shift) {
  using namespace kat_detail;
  std::vector<kat_aead_batch> out;
  for (const auto& path : kat_files(dir, alg.name)) {
    std::map<std::size_t, std::vector<aead_rec>> by_tag;
    for (const auto& r : lwc::test::read_kat_file(path.string())) {
      aead_rec a;
      a.key = r.bytes("Key");
      a.nonce = r.bytes("Nonce");
      a.ad = r.bytes("AD");
      a.pt = r.bytes("PT");
      a.ct = r.bytes("CT");
      if (r.has("SecondKey")) a.second = r.bytes("SecondKey");
      if (r.has("Tag")) {
        a.tag = r.bytes("Tag");
      } else {  // CT is the ciphertext followed by the full tag
        const auto full = static_cast<std::ptrdiff_t>(alg.max_tag_size);
        a.tag.assign(a.ct.end() - full, a.ct.end());
        a.ct.resize(a.ct.size() - alg.max_tag_size);
      }
      a.must_fail = r.has("TestPassed") && r.text("TestPassed") == "False";
      a.decrypt_only = (r.has("Direction") && r.text("Direction") == "decrypt") || r.has("TestPassed");
      a.line = r.line;
      by_tag[a.tag.size()].push_back(std::move(a));
    }
    for (auto& [tag_len, recs] : by_tag) {
      for (const bool decrypt : {false, true}) {
        kat_aead_batch b;
        b.label = path.filename().string() + (decrypt ? " decrypt" : " encrypt") + " tag " +
                  std::to_string(tag_len);
        b.tag_len = tag_len;
        b.decrypt = decrypt;
        std::vector<bytes> keys, nonces, seconds, ins, ads, tags;
        for (const aead_rec& a : recs) {
          if (!decrypt && a.decrypt_only) continue;
          b.lines.push_back(static_cast<std::size_t>(a.line));
          append(keys, a.key);
          append(nonces, a.nonce);
          append(seconds, a.second);
          append(ins, decrypt ? a.ct : a.pt);
          append(ads, a.ad);
          append(tags, a.tag);
          const bytes& expect = decrypt ? a.pt : a.ct;
          b.expect_out.insert(b.expect_out.end(), expect.begin(), expect.end());
          if (decrypt) {
            b.expect_ok.push_back(a.must_fail ? 0 : 1);
            if (a.must_fail) {  // a forged record's output must come back zeroed
              b.expect_out.resize(b.expect_out.size() - expect.size());
              b.expect_out.resize(b.expect_out.size() + a.ct.size(), 0);
            }
          }
        }
        if (b.lines.empty()) continue;
        b.masking = !seconds.front().empty();
        b.keys = concat(keys, nullptr, shift);
        b.nonces = concat(nonces, nullptr, shift);
        if (b.masking) b.second_keys = concat(seconds, nullptr, shift);
        b.in = concat(ins, &b.in_off, shift);
        b.ad = concat(ads, &b.ad_off, shift);
        if (decrypt) {
          b.tags = concat(tags, nullptr, shift);
        } else {
          b.tags = buffer(b.n() * tag_len, shift);
          for (const bytes& t : tags) b.expect_tags.insert(b.expect_tags.end(), t.begin(), t.end());
        }
        out.push_back(std::move(b));
      }
    }
  }
  return out;
}

inline std::vector<kat_sponge_batch> kat_sponge_batches(const std::string& dir, const algo_info& alg,
                                                        unsigned shift) {
  using namespace kat_detail;
  std::vector<kat_sponge_batch> out;
  const bool keyed = alg.key_size != 0;
  struct rec {
    bytes msg, key, custom, expect;
  };
  for (const auto& path : kat_files(dir, alg.name)) {
    std::map<std::size_t, std::vector<rec>> by_len;
    std::map<std::size_t, std::vector<std::size_t>> lines;
    for (const auto& r : lwc::test::read_kat_file(path.string())) {
      rec x{r.bytes("Msg"), keyed ? r.bytes("Key") : bytes{}, r.has("Z") ? r.bytes("Z") : bytes{},
            r.bytes(keyed ? "Tag" : "MD")};
      lines[x.expect.size()].push_back(static_cast<std::size_t>(r.line));
      by_len[x.expect.size()].push_back(std::move(x));
    }
    for (auto& [len, recs] : by_len) {
      kat_sponge_batch b;
      b.label = path.filename().string() + " output " + std::to_string(len);
      b.out_len = len;
      b.lines = lines[len];
      std::vector<bytes> msgs, keys, customs;
      for (rec& x : recs) {
        msgs.push_back(x.msg);
        keys.push_back(x.key);
        customs.push_back(x.custom);
        b.expect.insert(b.expect.end(), x.expect.begin(), x.expect.end());
      }
      b.in = concat(msgs, &b.in_off, shift);
      b.keys = concat(keys, nullptr, shift);
      b.custom = concat(customs, &b.custom_off, shift);
      out.push_back(std::move(b));
    }
  }
  return out;
}

}  // namespace lwc::cuda::test
