// SPDX-License-Identifier: MIT OR Apache-2.0
// The readers of untrusted text: the key-file parser of the stream format (lwc::stream::parse_key,
// which the CLI's keygen/encrypt/decrypt use) and the KAT reader
// of the test suite (tests/support/kat_reader.hpp). The first input byte picks the parser.
// Either may refuse its input with an exception; neither may crash, read out of bounds or
// accept something it cannot reproduce: an accepted key formats back to a line that parses to
// the same key, and every field of an accepted KAT record either decodes as hex or throws.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include <lwc/stream/format.hpp>

#include "support/kat_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 1) {
    lwc::stream::master_key key;
    try {
      lwc::stream::parse_key(text, "fuzz", key);
    } catch (const lwc::stream::error&) {
      return 0;
    }
    lwc::stream::master_key again;
    lwc::stream::parse_key(lwc::stream::format_key(key), "fuzz", again);
    if (again.bytes != key.bytes) __builtin_trap();
    return 0;
  }
  std::istringstream in{std::string(text)};
  std::vector<lwc::test::kat_record> records;
  try {
    records = lwc::test::read_kat_stream(in, "fuzz");
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const auto& r : records) {
    for (const auto& [name, value] : r.fields) {
      try {
        const auto b = r.bytes(name);
        if (b.size() * 2 != value.size()) __builtin_trap();
      } catch (const std::runtime_error&) {
      }
    }
  }
  return 0;
}
