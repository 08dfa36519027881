// SPDX-License-Identifier: MIT OR Apache-2.0
// The lwc stream format, version 1 (docs/stream-format.md), header-only part: constants, the
// algorithm identifiers (the single on-disk truth), the header, the per-file key derivation
// with Ascon-CXOF128, the chunk nonces and the key-file text. The chunk sealing and the
// encryptor/decryptor objects are in <lwc/stream.hpp> (compiled, lwc::stream).
//
// Misuse warnings: one master key serves many files only because every file draws a fresh
// random salt; never write two streams with the same header. Plaintext of a chunk is valid
// only once that chunk verified, and the stream is complete only once the last chunk verified.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../ascon/hash.hpp"
#include "../common/secure.hpp"
#include "../common/span.hpp"
#include "../jobs.hpp"
#include "../registry.hpp"

namespace lwc::stream {

// The header: magic (8 bytes), format_version, algorithm id, chunk exponent, a reserved zero
// byte, the random salt, then the key check; header_size bytes in all.
inline constexpr std::array<std::uint8_t, 8> magic = {0x89, 'l', 'w', 'c', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint8_t format_version = 1;
inline constexpr std::size_t salt_size = 32;
inline constexpr std::size_t check_size = 16;
inline constexpr std::size_t prefix_size = 12 + salt_size;  // the header before the key check
inline constexpr std::size_t header_size = prefix_size + check_size;
inline constexpr unsigned min_chunk_shift = 6;       // 64 bytes
inline constexpr unsigned max_chunk_shift = 20;      // 1 MiB: bounds a reader's memory
inline constexpr unsigned default_chunk_shift = 16;  // 64 KiB
// The Ascon-CXOF128 customization string of the per-file key derivation.
inline constexpr std::string_view kdf_customization = "lwc stream v1";
// Nonce = prefix || 64-bit big-endian chunk counter || flag byte (1 on the last chunk).
inline constexpr std::size_t counter_and_flag_size = 9;
// The nonce and tag sizes an AEAD needs to seal a stream (unsuitable() says why one cannot).
inline constexpr std::size_t min_nonce_size = 16;
inline constexpr std::size_t max_nonce_size = 64;
inline constexpr std::size_t min_tag_size = 16;
// The master key's size, and the word that starts the line of a key file.
inline constexpr std::size_t master_key_size = 32;
inline constexpr std::string_view key_prefix = "lwc-key-v1";

// Stable on-disk identifiers; a number is never reused. An entry whose name is not (yet)
// registered is reserved and inert. New ids are appended here and to docs/stream-format.md.
struct algorithm_id {
  std::uint8_t id;  // written in the header; never reused
  std::string_view name;  // the registry name
};
inline constexpr algorithm_id algorithm_ids[] = {
    {1, "ascon-aead128"},          {2, "ascon-128"},           {3, "ascon-128a"},
    {4, "ascon-80pq"},             {5, "acorn-128"},           {6, "xoodyak"},
    {7, "schwaemm256-128"},        {8, "schwaemm192-192"},     {9, "schwaemm128-128"},
    {10, "schwaemm256-256"},       {11, "gift-cofb"},          {12, "romulus-n"},
    {13, "romulus-m"},             {14, "romulus-t"},          {15, "photon-beetle-aead128"},
    {16, "photon-beetle-aead32"},  {17, "isap-a-128a"},        {18, "isap-k-128a"},
    {19, "isap-a-128"},            {20, "isap-k-128"},
};

// What went wrong; the message (what()) says it in words and names the stream.
enum class errc {
  usage = 1,       // a bad argument or a call out of order (write after finish, ...)
  not_a_stream,    // empty input or no lwc magic
  unsupported,     // another format version, or an algorithm id this build does not know
  bad_header,      // reserved byte or chunk exponent out of range
  truncated,       // the input ends before the last chunk (or inside the header)
  wrong_key,       // the key check failed: wrong key or a changed header
  authentication,  // a chunk's tag failed: modified, reordered, duplicated, appended data
  key_file,        // a key file is malformed or not private
  io,              // a file could not be read or written
};

// Every failure of the stream format and of <lwc/stream.hpp>: code() says which kind.
class error : public std::runtime_error {
 public:
  // An error of kind `code` whose message is `what`.
  error(errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
  // The kind of failure.
  errc code() const noexcept { return code_; }
  // True for the failures that mean "this input is not an authentic stream for this key".
  bool is_integrity_failure() const noexcept {
    return code_ != errc::usage && code_ != errc::key_file && code_ != errc::io;
  }

 private:
  errc code_;
};

// 0 when the algorithm has no identifier.
constexpr std::uint8_t id_of(std::string_view name) noexcept {
  for (const auto& e : algorithm_ids)
    if (e.name == name) return e.id;
  return 0;
}

// Null when the identifier is unknown or its algorithm is not in this build's registry.
constexpr const algorithm* algorithm_of(std::uint8_t id) noexcept {
  for (const auto& e : algorithm_ids)
    if (e.id == id) return find_algorithm(e.name);
  return nullptr;
}

// Empty when `a` can seal a stream; otherwise the reason it cannot.
inline std::string unsuitable(const algorithm& a) {
  const std::string name(a.name);
  if (!a.is_aead()) return name + " is not an AEAD (see 'lwc list')";
  if (a.nonce_size < min_nonce_size || a.nonce_size > max_nonce_size)
    return name + " has a " + std::to_string(a.nonce_size) +
           "-byte nonce; the lwc stream format needs 16 to 64 bytes";
  if (a.tag_size < min_tag_size)
    return name + " has a " + std::to_string(a.tag_size) +
           "-byte tag; the lwc stream format needs at least 16 bytes";
  if (id_of(a.name) == 0) return name + " has no identifier in the lwc stream format yet";
  return {};
}

// The registered algorithm `r` (an entry is taken as it is, a name looked up) if the format
// admits it; throws error(usage) otherwise.
inline const algorithm& stream_algorithm(algorithm_ref r) {
  const algorithm* a = r.entry() != nullptr ? r.entry() : find_algorithm(r.name());
  if (a == nullptr)
    throw error(errc::usage, "unknown algorithm '" + std::string(r.name()) + "' (see 'lwc list')");
  if (std::string why = unsuitable(*a); !why.empty()) throw error(errc::usage, why);
  return *a;
}

// Ciphertext size of a plaintext of `n` bytes: 60 + n + T * (floor(n / C) + 1).
constexpr std::uint64_t ciphertext_size(std::uint64_t n, unsigned chunk_shift,
                                        std::size_t tag) noexcept {
  return header_size + n + tag * ((n >> chunk_shift) + 1);
}

// The 256-bit master key of the format (the line of a key file); wiped when destroyed.
struct master_key {
  std::array<std::uint8_t, master_key_size> bytes{};  // the key
  // All zeros by default; from exactly master_key_size bytes (else error(usage)).
  master_key() = default;
  explicit master_key(bytes_view k) {
    if (k.size() != master_key_size)
      throw error(errc::usage, "the master key must be " + std::to_string(master_key_size) +
                                   " bytes, got " + std::to_string(k.size()));
    std::memcpy(bytes.data(), k.data(), master_key_size);
  }
  master_key(const master_key& o) : bytes(o.bytes) {}
  master_key& operator=(const master_key& o) {
    bytes = o.bytes;
    return *this;
  }
  ~master_key() { secure_wipe(bytes.data(), bytes.size()); }
};

namespace detail {
inline bool key_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline std::string_view key_trim(std::string_view s) {
  while (!s.empty() && key_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && key_space(s.back())) s.remove_suffix(1);
  return s;
}
// Value of a hex digit, or a negative number; no branch or table index on the digit.
inline int hex_digit(std::uint8_t c) {
  const int x = c;
  const int num = x - '0';
  const int low = (x | 0x20) - 'a' + 10;
  // masks are all ones when the range test holds (arithmetic on the sign bit)
  const int is_num = ((num) | (9 - num)) >> 8 ^ -1;
  const int is_alpha = ((low - 10) | (15 - low)) >> 8 ^ -1;
  return (num & is_num) | (low & is_alpha) | (~(is_num | is_alpha) & -1);
}
}  // namespace detail

// Parses the text of a key file ("lwc-key-v1 <64 hex digits>"; blank lines and lines
// starting with '#' ignored). `where` names the file in messages ("key file 'k'").
inline void parse_key(std::string_view text, const std::string& where, master_key& key) {
  const std::string expected =
      " (expected one line 'lwc-key-v1 <64 hex digits>', as written by 'lwc keygen')";
  std::string_view key_line;
  int key_lines = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = detail::key_trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    key_line = line;
    ++key_lines;
  }
  if (key_lines == 0) throw error(errc::key_file, where + " holds no key" + expected);
  if (key_lines > 1) throw error(errc::key_file, where + " holds more than one line" + expected);
  if (key_line.substr(0, key_prefix.size()) != key_prefix ||
      key_line.size() == key_prefix.size() || !detail::key_space(key_line[key_prefix.size()]))
    throw error(errc::key_file, where + " is not an lwc key file" + expected);
  const std::string_view hex = detail::key_trim(key_line.substr(key_prefix.size()));
  if (hex.size() != 2 * master_key_size)
    throw error(errc::key_file, where + ": the key must be " + std::to_string(2 * master_key_size) +
                                    " hex digits (" + std::to_string(master_key_size) +
                                    " bytes), found " + std::to_string(hex.size()) + " characters");
  int bad = 0;
  for (std::size_t i = 0; i < master_key_size; ++i) {
    const int hi = detail::hex_digit(static_cast<std::uint8_t>(hex[2 * i]));
    const int lo = detail::hex_digit(static_cast<std::uint8_t>(hex[2 * i + 1]));
    bad |= hi | lo;
    key.bytes[i] = static_cast<std::uint8_t>(((hi & 15) << 4) | (lo & 15));
  }
  if (bad < 0) {
    secure_wipe(key.bytes.data(), key.bytes.size());
    throw error(errc::key_file, where + ": the key has a character that is not a hex digit");
  }
}

// The key-file line, newline included. The caller wipes the string when done.
inline std::string format_key(const master_key& key) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(key_prefix);
  s += ' ';
  for (std::uint8_t b : key.bytes) {
    s += digits[b >> 4];  // a table index on the key, but only into a 16-byte table that
    s += digits[b & 15];  // fits one cache line
  }
  s += '\n';
  return s;
}

// The fields of a header; serialize() gives its 60 bytes.
struct header {
  // The algorithm's id, the chunk size's exponent (64 bytes .. 1 MiB), the random salt and
  // the key check.
  std::uint8_t algorithm_id = 0;
  std::uint8_t chunk_shift = default_chunk_shift;
  std::array<std::uint8_t, salt_size> salt{};
  std::array<std::uint8_t, check_size> check{};

  std::array<std::uint8_t, header_size> serialize() const {
    std::array<std::uint8_t, header_size> h{};
    std::memcpy(h.data(), magic.data(), magic.size());
    h[8] = format_version;
    h[9] = algorithm_id;
    h[10] = chunk_shift;
    h[11] = 0;
    std::memcpy(h.data() + 12, salt.data(), salt_size);
    std::memcpy(h.data() + prefix_size, check.data(), check_size);
    return h;
  }
};

// Checks the first `n` bytes of an input (n < header_size: the input ended there) in the
// order of docs/stream-format.md and returns the header and its algorithm. `name` names the
// input in messages ("'file.lwc'", "the stream"). Derives nothing.
inline header parse_header(const std::uint8_t* p, std::size_t n, const std::string& name,
                           const algorithm** alg) {
  if (n == 0) throw error(errc::not_a_stream, name + " is empty, not an lwc encrypted file");
  if (n < magic.size() || std::memcmp(p, magic.data(), magic.size()) != 0)
    throw error(errc::not_a_stream, name + " is not an lwc encrypted file (no lwc header)");
  if (n < header_size)
    throw error(errc::truncated, name + " is truncated: its header is incomplete");
  if (p[8] != format_version)
    throw error(errc::unsupported, name + " uses stream format version " + std::to_string(p[8]) +
                                       "; this lwc reads version " + std::to_string(format_version));
  const algorithm* a = algorithm_of(p[9]);
  if (a == nullptr)
    throw error(errc::unsupported, name + " names algorithm id " + std::to_string(p[9]) +
                                       ", which this lwc does not know (see 'lwc list')");
  if (p[10] < min_chunk_shift || p[10] > max_chunk_shift || p[11] != 0)
    throw error(errc::bad_header, name + " has an invalid header");
  if (std::string why = unsuitable(*a); !why.empty()) throw error(errc::unsupported, name + ": " + why);
  header h;
  h.algorithm_id = p[9];
  h.chunk_shift = p[10];
  std::memcpy(h.salt.data(), p + 12, salt_size);
  std::memcpy(h.check.data(), p + prefix_size, check_size);
  if (alg != nullptr) *alg = a;
  return h;
}

// The per-file secrets: the key check stored in the header, the AEAD key and nonce prefix.
struct file_keys {
  std::array<std::uint8_t, check_size> check{};
  // Storage for the AEAD key and the nonce prefix; key() and nonce_prefix() view their first
  // key_size and prefix_size bytes.
  std::array<std::uint8_t, 64> key_bytes{};
  std::array<std::uint8_t, max_nonce_size> prefix_bytes{};
  std::size_t key_size = 0, prefix_size = 0;

  // The AEAD key and the nonce prefix, as views into this object.
  bytes_view key() const { return {key_bytes.data(), key_size}; }
  bytes_view nonce_prefix() const { return {prefix_bytes.data(), prefix_size}; }

  // Copies are wiped as well when destroyed.
  file_keys() = default;
  file_keys(const file_keys&) = default;
  file_keys& operator=(const file_keys&) = default;
  ~file_keys() {
    secure_wipe(check.data(), check.size());
    secure_wipe(key_bytes.data(), key_bytes.size());
    secure_wipe(prefix_bytes.data(), prefix_bytes.size());
  }
};

// check || file_key || nonce_prefix = Ascon-CXOF128(Z = "lwc stream v1", M = K || prefix).
inline file_keys derive(const master_key& mk, const std::uint8_t* header_prefix,
                        const algorithm& a) {
  file_keys fk;
  if (a.key_size > fk.key_bytes.size() || a.nonce_size > max_nonce_size ||
      a.nonce_size < min_nonce_size)
    throw error(errc::usage, std::string(a.name) + " cannot seal an lwc stream");
  ascon::cxof128 xof(reinterpret_cast<const std::uint8_t*>(kdf_customization.data()),
                     kdf_customization.size());
  xof.absorb(mk.bytes.data(), mk.bytes.size());
  xof.absorb(header_prefix, prefix_size);
  fk.key_size = a.key_size;
  fk.prefix_size = a.nonce_size - counter_and_flag_size;
  xof.squeeze(fk.check.data(), fk.check.size());
  xof.squeeze(fk.key_bytes.data(), fk.key_size);
  xof.squeeze(fk.prefix_bytes.data(), fk.prefix_size);
  return fk;
}

// nonce_i = nonce_prefix || uint64_big_endian(i) || flag, into out[0 .. prefix + 9).
inline void chunk_nonce(const file_keys& fk, std::uint64_t index, bool last, std::uint8_t* out) {
  const std::size_t p = fk.prefix_size;
  std::memcpy(out, fk.prefix_bytes.data(), p);
  for (std::size_t i = 0; i < 8; ++i) out[p + 7 - i] = static_cast<std::uint8_t>(index >> (8 * i));
  out[p + 8] = last ? 1 : 0;
}

}  // namespace lwc::stream
