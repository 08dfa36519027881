// SPDX-License-Identifier: MIT OR Apache-2.0
// A small JSON reader for test vector files (Wycheproof): objects, arrays, strings with the
// escapes JSON allows, numbers, true/false/null. Strict enough that a malformed file fails
// loudly instead of yielding fewer vectors; not meant for untrusted or huge input.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace lwc::test {

struct json_value {
  enum class type { null, boolean, number, string, array, object } t = type::null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<json_value> arr;
  std::map<std::string, json_value> obj;

  const json_value& operator[](const std::string& key) const {
    if (t != type::object) throw std::runtime_error("JSON: not an object (looking for " + key + ")");
    auto it = obj.find(key);
    if (it == obj.end()) throw std::runtime_error("JSON: no member " + key);
    return it->second;
  }
  bool has(const std::string& key) const { return t == type::object && obj.count(key) != 0; }
  const std::string& text() const {
    if (t != type::string) throw std::runtime_error("JSON: not a string");
    return str;
  }
  long long integer() const {
    if (t != type::number) throw std::runtime_error("JSON: not a number");
    return static_cast<long long>(num);
  }
  const std::vector<json_value>& items() const {
    if (t != type::array) throw std::runtime_error("JSON: not an array");
    return arr;
  }
};

class json_parser {
 public:
  explicit json_parser(std::string text) : s_(std::move(text)) {}

  json_value parse() {
    json_value v = value();
    space();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  std::string s_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i_));
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
      ++i_;
  }
  char peek() {
    space();
    if (i_ >= s_.size()) fail("unexpected end");
    return s_[i_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }
  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      switch (const char e = s_[i_++]) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && literal("\\u")) {
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }
  json_value value() {
    json_value v;
    const char c = peek();
    if (c == '{') {
      v.t = json_value::type::object;
      ++i_;
      if (peek() == '}') { ++i_; return v; }
      while (true) {
        std::string key = string();
        expect(':');
        v.obj[std::move(key)] = value();
        if (peek() == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.t = json_value::type::array;
      ++i_;
      if (peek() == ']') { ++i_; return v; }
      while (true) {
        v.arr.push_back(value());
        if (peek() == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.t = json_value::type::string;
      v.str = string();
      return v;
    }
    if (literal("true")) { v.t = json_value::type::boolean; v.b = true; return v; }
    if (literal("false")) { v.t = json_value::type::boolean; return v; }
    if (literal("null")) return v;
    const std::size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    while (i_ < s_.size() && ((s_[i_] >= '0' && s_[i_] <= '9') || s_[i_] == '.' || s_[i_] == 'e' ||
                              s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
      ++i_;
    if (i_ == start) fail("unexpected character");
    v.t = json_value::type::number;
    try {
      v.num = std::stod(s_.substr(start, i_ - start));
    } catch (const std::exception&) {
      fail("bad number");
    }
    return v;
  }
};

inline json_value read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return json_parser(ss.str()).parse();
}

// Lower- or upper-case hex to bytes; throws on odd length or a non-hex digit.
inline std::vector<std::uint8_t> unhex(const std::string& h) {
  if (h.size() % 2) throw std::runtime_error("odd hex length");
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex digit");
  };
  std::vector<std::uint8_t> out(h.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(digit(h[2 * i]) * 16 + digit(h[2 * i + 1]));
  return out;
}

}  // namespace lwc::test
