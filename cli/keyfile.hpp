// lwc key files: one text line "lwc-key-v1 <64 hex digits>", a 256-bit master key from which
// every encrypted file derives its own key (docs/stream-format.md). The file must be private
// to its owner (no group or other permission bits), like an ssh private key.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace lwc::cli {

inline constexpr std::string_view key_prefix = "lwc-key-v1";
inline constexpr std::size_t master_key_size = 32;

// Wiped when it goes out of scope.
struct master_key {
  std::array<std::uint8_t, master_key_size> bytes{};
  master_key() = default;
  master_key(const master_key&) = delete;
  master_key& operator=(const master_key&) = delete;
  ~master_key();
};

// Throws failure with a message naming the file and what is wrong with it.
void load_key(const std::string& path, master_key& key);
// Parses the text of a key file; `path` only names it in messages.
void parse_key(std::string_view text, const std::string& path, master_key& key);
std::string format_key(const master_key& key);  // the line, newline included

// lwc keygen: a fresh key to `path` (mode 0600), or to standard output for "-".
void generate_key(const std::string& path, bool force);

}  // namespace lwc::cli
