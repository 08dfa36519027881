// SPDX-License-Identifier: MIT OR Apache-2.0
// Python names derived from registry names, shared by the extension (which hands them to the
// pure-Python layer) and the stub generator, so that the classes created at import time and
// the names in the installed .pyi cannot drift apart.
//   AEADs:  kebab-case -> CamelCase, "aead" written "AEAD" wherever it appears in a part:
//           ascon-aead128 -> AsconAEAD128, ascon-80pq -> Ascon80pq, grain-128aead -> Grain128AEAD
//   others: hashlib style, '-' -> '_': ascon-hash256 -> ascon_hash256
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace lwc::python {

inline std::string class_name(std::string_view registry_name) {
  std::string out;
  std::size_t start = 0;
  while (start <= registry_name.size()) {
    std::size_t end = registry_name.find('-', start);
    if (end == std::string_view::npos) end = registry_name.size();
    std::string part(registry_name.substr(start, end - start));
    for (std::size_t at = part.find("aead"); at != std::string::npos; at = part.find("aead", at + 4))
      part.replace(at, 4, "AEAD");
    if (!part.empty()) part[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
    out += part;
    start = end + 1;
  }
  return out;
}

inline std::string function_name(std::string_view registry_name) {
  std::string out(registry_name);
  for (char& c : out)
    if (c == '-') c = '_';
  return out;
}

}  // namespace lwc::python
