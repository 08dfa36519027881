// SPDX-License-Identifier: MIT OR Apache-2.0
// Reader for the NIST LWC known-answer format: records of `Name = HEX` lines separated by
// blank lines (empty values allowed, extra spaces tolerated). Shared by every KAT test.
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lwc::test {

using byte_vector = std::vector<std::uint8_t>;

struct kat_record {
  std::map<std::string, std::string> fields;
  int line = 0;  // where the record starts, for failure messages

  bool has(const std::string& k) const { return fields.count(k) != 0; }
  const std::string& text(const std::string& k) const {
    auto it = fields.find(k);
    if (it == fields.end()) throw std::runtime_error("KAT record at line " + std::to_string(line) +
                                                     " has no field " + k);
    return it->second;
  }
  byte_vector bytes(const std::string& k) const {
    const std::string& h = text(k);
    if (h.size() % 2) throw std::runtime_error("odd hex length in field " + k);
    // Strict digits: std::stoi would take "-1" or " f" and yield a wrong byte silently.
    auto digit = [&](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      throw std::runtime_error("KAT record at line " + std::to_string(line) +
                               ": non-hex character in field " + k);
    };
    byte_vector out(h.size() / 2);
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<std::uint8_t>(digit(h[2 * i]) * 16 + digit(h[2 * i + 1]));
    return out;
  }
};

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// `path` only names the input in messages (the fuzz target parses from memory).
inline std::vector<kat_record> read_kat_stream(std::istream& in, const std::string& path) {
  std::vector<kat_record> records;
  kat_record cur;
  std::string line;
  int lineno = 0;
  auto flush = [&] {
    if (!cur.fields.empty()) records.push_back(std::move(cur));
    cur = kat_record{};
  };
  while (std::getline(in, line)) {
    ++lineno;
    const std::string t = trim(line);
    if (t.empty()) {
      flush();
      continue;
    }
    const auto eq = t.find('=');
    if (eq == std::string::npos) throw std::runtime_error(path + ":" + std::to_string(lineno) + ": no '='");
    if (cur.fields.empty()) cur.line = lineno;
    cur.fields[trim(t.substr(0, eq))] = trim(t.substr(eq + 1));
  }
  flush();
  return records;
}

inline std::vector<kat_record> read_kat_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  return read_kat_stream(in, path);
}

inline std::string hex(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789ABCDEF";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}
inline std::string hex(const byte_vector& v) { return hex(v.data(), v.size()); }

}  // namespace lwc::test

#include <algorithm>

namespace lwc::test {
// gtest parameter names for registry entries: "ascon-aead128" -> "ascon_aead128".
template <class Info>
std::string algorithm_param_name(const Info& param_info) {
  std::string n(param_info.param->name);
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}
}  // namespace lwc::test
