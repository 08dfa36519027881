// SPDX-License-Identifier: MIT OR Apache-2.0
#include "reference.hpp"

#include <random>
#include <stdexcept>

#include <lwc/registry.hpp>

#include "support/kat_reader.hpp"

namespace hwtb {

std::string hex(const bytes& b) { return lwc::test::hex(b); }

expected reference(const job& j) {
  const lwc::algorithm& a = lwc::get_algorithm(j.algorithm);
  expected e;
  if (j.mode == encrypt) {
    e.data.resize(j.msg.size());
    e.tag.resize(a.tag_size);
    lwc::aead_encrypt(a, j.key, j.nonce, j.ad, j.msg, e.data, e.tag);
  } else if (j.mode == decrypt) {
    bytes pt(j.msg.size());
    e.ok = lwc::aead_decrypt(a, j.key, j.nonce, j.ad, j.msg, j.tag, pt);
    if (e.ok) e.data = pt;
  } else {
    e.data.resize(j.mode == hash ? a.output_size : j.out_len);
    lwc::digest(a, j.msg, e.data);
  }
  return e;
}

std::vector<check> kat_checks(const std::string& algorithm, const std::string& path,
                              int& skipped, std::vector<std::string>& notes) {
  const lwc::algorithm& a = lwc::get_algorithm(algorithm);
  std::vector<check> out;
  int second_key = 0, short_tag = 0;
  for (const auto& r : lwc::test::read_kat_file(path)) {
    check c;
    c.label = path + ":" + std::to_string(r.line);
    if (!a.is_aead()) {
      job j{algorithm, algorithm == "ascon-xof128" ? xof : hash};
      j.msg = r.bytes("Msg");
      expected e;
      e.data = r.bytes("MD");
      j.out_len = e.data.size();
      if (j.mode == hash && e.data.size() != a.output_size)
        throw std::runtime_error(c.label + ": digest length differs from the algorithm's");
      c.jobs.push_back(j);
      c.want.push_back(e);
      out.push_back(std::move(c));
      continue;
    }
    if (r.has("SecondKey")) {
      ++second_key;
      continue;
    }
    bytes ct = r.bytes("CT"), tag;
    if (r.has("Tag")) {
      tag = r.bytes("Tag");
    } else {
      tag.assign(ct.end() - static_cast<long>(a.tag_size), ct.end());
      ct.resize(ct.size() - a.tag_size);
    }
    const bool must_fail = r.has("TestPassed") && r.text("TestPassed") == "False";
    const bool decrypt_only =
        (r.has("Direction") && r.text("Direction") == "decrypt") || r.has("TestPassed");
    const bool full_tag = tag.size() == a.tag_size;
    job base{algorithm};
    base.key = r.bytes("Key");
    base.nonce = r.bytes("Nonce");
    base.ad = r.bytes("AD");
    // The cores verify the full tag only; a truncated one can still be checked by encrypting.
    if (!full_tag && must_fail) {
      ++short_tag;
      continue;
    }
    if (!decrypt_only || !full_tag) {
      job j = base;
      j.mode = encrypt;
      j.msg = r.bytes("PT");
      expected e;
      e.data = ct;
      e.tag = tag;
      c.jobs.push_back(j);
      c.want.push_back(e);
    }
    if (full_tag) {
      job j = base;
      j.mode = decrypt;
      j.msg = ct;
      j.tag = tag;
      expected e;
      e.ok = !must_fail;
      if (e.ok) e.data = r.bytes("PT");
      c.jobs.push_back(j);
      c.want.push_back(e);
    }
    out.push_back(std::move(c));
  }
  if (second_key) {
    skipped += second_key;
    notes.push_back(path + ": " + std::to_string(second_key) +
                    " records with a second (nonce-masking) key skipped: not in the core");
  }
  if (short_tag) {
    skipped += short_tag;
    notes.push_back(path + ": " + std::to_string(short_tag) +
                    " forged records with a truncated tag skipped: the core verifies 128 bits");
  }
  return out;
}

std::vector<check> random_checks(const std::string& family, std::size_t count,
                                 std::uint64_t seed, std::size_t max_len) {
  std::mt19937_64 rng(seed);
  auto below = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  auto random_bytes = [&](std::size_t n) {
    bytes b(n);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng());
    return b;
  };
  // Half the lengths sit on or next to block boundaries (8-byte hash blocks, 16-byte words).
  auto length = [&]() -> std::size_t {
    static const std::size_t edges[] = {0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 49, 63, 64, 65};
    if (below(2)) return edges[below(sizeof edges / sizeof edges[0])];
    return below(8) == 0 ? below(max_len + 1) : below(200);
  };
  std::vector<check> out;
  for (std::size_t n = 0; n < count; ++n) {
    check c;
    c.label = family + " random job " + std::to_string(n) + " (seed " + std::to_string(seed) + ")";
    job j;
    const std::size_t kind = below(20);
    if (family == "ascon" && kind >= 14) {
      j.algorithm = kind >= 17 ? "ascon-xof128" : "ascon-hash256";
      j.mode = kind >= 17 ? xof : hash;
      j.msg = random_bytes(length());
      j.out_len = length();
    } else {
      j.algorithm = family == "ascon" ? "ascon-aead128" : "acorn-128";
      j.key = random_bytes(16);
      j.nonce = random_bytes(16);
      j.ad = random_bytes(length());
      const bytes pt = random_bytes(length());
      if (kind < 6) {
        j.mode = encrypt;
        j.msg = pt;
      } else {
        // Decrypt a real ciphertext; every third one tampered in one bit somewhere.
        const lwc::algorithm& a = lwc::get_algorithm(j.algorithm);
        j.mode = decrypt;
        j.msg.resize(pt.size());
        j.tag.resize(a.tag_size);
        lwc::aead_encrypt(a, j.key, j.nonce, j.ad, pt, j.msg, j.tag);
        if (kind % 3 == 0) {
          bytes* target[] = {&j.tag, &j.msg, &j.ad, &j.nonce, &j.key};
          bytes* t = target[below(5)];
          if (t->empty()) t = &j.tag;
          (*t)[below(t->size())] ^= static_cast<std::uint8_t>(1u << below(8));
        }
      }
    }
    c.want.push_back(reference(j));
    c.jobs.push_back(std::move(j));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace hwtb
