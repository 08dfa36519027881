// SPDX-License-Identifier: MIT OR Apache-2.0
// Writes the seed corpus of the fuzz targets from the KAT files: for every algorithm of the
// registry a sample of its known-answer records, laid out as fuzz_aead.cpp or fuzz_hash.cpp
// reads its input (so the fuzzer starts from real key, nonce, message and length mixes), and
// for fuzz_parsers pieces of KAT files and a key file, and for fuzz_stream valid streams under
// its fixed key (small chunks, so a few hundred bytes cross several chunk boundaries).
// Usage: fuzz_make_seeds VECTOR_DIR OUT_DIR  (writes OUT_DIR/{aead,hash,parsers,stream}/)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <lwc/registry.hpp>
#include <lwc/stream.hpp>

#include "stream_fuzz_key.hpp"
#include "support/kat_reader.hpp"

namespace fs = std::filesystem;
using bytes = std::vector<std::uint8_t>;

namespace {

void put(const fs::path& dir, const std::string& name, const bytes& b) {
  std::ofstream(dir / name, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
void append(bytes& out, const bytes& b) { out.insert(out.end(), b.begin(), b.end()); }
void u16(bytes& out, std::size_t v) {
  out.push_back(static_cast<std::uint8_t>(v));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s VECTOR_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path vectors = argv[1], out = argv[2];
  for (const char* d : {"aead", "hash", "parsers", "stream"}) fs::create_directories(out / d);
  std::size_t aead_index = 0, hash_index = 0, written = 0;
  for (const auto& a : lwc::algorithms()) {
    const std::size_t index = a.is_aead() ? aead_index++ : hash_index++;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(vectors)) {
      const std::string stem = e.path().stem().string();
      if (e.path().extension() == ".txt" &&
          (stem == a.name || stem.rfind(std::string(a.name) + ".", 0) == 0))
        files.push_back(e.path());
    }
    std::size_t n = 0;
    for (const auto& f : files) {
      const auto records = lwc::test::read_kat_file(f.string());
      const std::size_t step = records.size() / 12 + 1;  // about a dozen records per file
      for (std::size_t r = 0; r < records.size(); r += step) {
        const auto& rec = records[r];
        bytes s{static_cast<std::uint8_t>(index)};
        if (a.is_aead()) {
          if (!rec.has("PT") || !rec.has("Key") || !rec.has("Nonce")) continue;
          const bytes key = rec.bytes("Key"), nonce = rec.bytes("Nonce"), pt = rec.bytes("PT");
          const bytes ad = rec.has("AD") ? rec.bytes("AD") : bytes{};
          if (key.size() != a.key_size || nonce.size() != a.nonce_size) continue;
          s.push_back(static_cast<std::uint8_t>(a.tag_size - a.min_tag_size));  // full tag
          s.push_back(0);                                                       // flags
          u16(s, r * 8 + 3);                                                    // bit to flip
          s.push_back(static_cast<std::uint8_t>(r % 19));                       // jobs
          const std::size_t total = ad.size() + pt.size();
          s.push_back(static_cast<std::uint8_t>(total ? 256 * ad.size() / (total + 1) : 0));
          append(s, key);
          append(s, nonce);
          append(s, ad);
          append(s, pt);
        } else {
          if (!rec.has("Msg")) continue;
          const bytes msg = rec.bytes("Msg");
          const bytes key = rec.has("Key") ? rec.bytes("Key") : bytes{};
          const bytes z = rec.has("Z") ? rec.bytes("Z") : bytes{};
          if (key.size() != a.key_size || z.size() > 64) continue;
          if (!a.max_output_size) u16(s, 32 - 1);  // XOF/PRF output length 32
          s.push_back(2);                           // two cut points
          u16(s, msg.size() / 3);
          u16(s, 2 * msg.size() / 3);
          u16(s, 13);                               // output read as 13 + the rest
          s.push_back(static_cast<std::uint8_t>(r % 19));
          append(s, key);
          s.push_back(static_cast<std::uint8_t>(z.size()));
          append(s, z);
          append(s, msg);
        }
        put(out / (a.is_aead() ? "aead" : "hash"),
            std::string(a.name) + "-" + f.stem().string() + "-" + std::to_string(r), s);
        ++n;
        ++written;
      }
    }
    if (n == 0) std::fprintf(stderr, "note: no seed for %s\n", a.name.data());
  }
  // Parsers: the head of a few KAT files (selector byte 0) and key files (selector 1).
  std::size_t k = 0;
  for (const auto& e : fs::recursive_directory_iterator(vectors)) {
    if (e.path().extension() != ".txt" || k++ % 8 != 0) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string head(1500, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    bytes s{0};
    s.insert(s.end(), head.begin(), head.end());
    put(out / "parsers", "kat-" + e.path().stem().string(), s);
    ++written;
  }
  const std::string keyfile =
      "# lwc key\nlwc-key-v1 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n";
  bytes s{1};
  s.insert(s.end(), keyfile.begin(), keyfile.end());
  put(out / "parsers", "keyfile", s);
  ++written;
  // Streams: three algorithms (the 16-byte tags of the Ascon ids, Xoodyak, and GIFT-COFB), 64-byte
  // chunks, plaintexts around the chunk boundaries; first byte: the fuzzer's piece-size selector.
  struct collect final : lwc::stream::sink {
    bytes b;
    void write(std::span<const lwc::bytes_view> pieces) override {
      for (lwc::bytes_view p : pieces) b.insert(b.end(), p.begin(), p.end());
    }
  };
  const std::uint8_t salt[lwc::stream::salt_size] = {0xa5, 0x5a, 1, 2, 3};
  for (const char* alg : {"ascon-aead128", "xoodyak", "gift-cofb"}) {
    for (std::size_t n : {0, 1, 63, 64, 65, 200}) {
      lwc::stream::options opt;
      opt.algorithm = alg;
      opt.chunk_shift = 6;
      opt.threads = 1;
      opt.fixed_salt_for_tests = {salt, sizeof salt};
      lwc::stream::encryptor e(lwc::fuzz::stream_key(), opt);
      collect c;
      c.b.push_back(static_cast<std::uint8_t>(n));
      bytes pt(n);
      for (std::size_t i = 0; i < n; ++i) pt[i] = static_cast<std::uint8_t>(i * 7);
      e.write(pt, c);
      e.finish(c);
      put(out / "stream", std::string(alg) + "-" + std::to_string(n), c.b);
      ++written;
    }
  }
  std::printf("%zu seeds written to %s\n", written, out.c_str());
  return 0;
}
