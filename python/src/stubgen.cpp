// SPDX-License-Identifier: MIT OR Apache-2.0
// Writes lwc/__init__.pyi from python/stubs/__init__.pyi.in, replacing its marker lines with
// one class per registry entry, so the installed stubs list exactly the classes that
// lwc/__init__.py creates at import time (same naming rule: naming.hpp).
//   usage: lwc_py_stubgen TEMPLATE OUTPUT
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <lwc/registry.hpp>

#include "naming.hpp"

namespace {

const char* base_class(lwc::algorithm_kind k) {
  switch (k) {
    case lwc::algorithm_kind::aead: return "AEAD";
    case lwc::algorithm_kind::hash: return "Hash";
    case lwc::algorithm_kind::xof:
    case lwc::algorithm_kind::cxof: return "XOF";
    case lwc::algorithm_kind::mac: return "MAC";
    case lwc::algorithm_kind::prf: return "PRF";
  }
  return "object";
}

std::string python_name(const lwc::algorithm& a) {
  return a.is_aead() ? lwc::python::class_name(a.name) : lwc::python::function_name(a.name);
}

// The one-shot functions the extension creates next to each class (module.cpp,
// register_oneshots), with the same parameters.
std::string oneshot_stubs(const lwc::algorithm& a) {
  const std::string f = python_name(a);
  switch (a.kind) {
    case lwc::algorithm_kind::hash:
      return "def " + f + "_digest(data: ReadableBuffer, /) -> bytes: ...\n";
    case lwc::algorithm_kind::xof:
      return "def " + f + "_digest(data: ReadableBuffer, /, length: Optional[int] = None) -> bytes: ...\n";
    case lwc::algorithm_kind::cxof:
      return "def " + f + "_digest(data: ReadableBuffer, /, length: Optional[int] = None, *, "
             "customization: Optional[ReadableBuffer] = None) -> bytes: ...\n";
    case lwc::algorithm_kind::mac:
      return "def " + f + "_digest(key: ReadableBuffer, data: ReadableBuffer, /) -> bytes: ...\n" +
             "def " + f + "_verify(key: ReadableBuffer, data: ReadableBuffer, tag: ReadableBuffer, /, *, tag_length: Optional[int] = None) -> None: ...\n";
    default:
      return "def " + f + "_digest(key: ReadableBuffer, data: ReadableBuffer, /, "
             "length: Optional[int] = None) -> bytes: ...\n" +
             "def " + f + "_verify(key: ReadableBuffer, data: ReadableBuffer, tag: ReadableBuffer, /, *, tag_length: Optional[int] = None) -> None: ...\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " TEMPLATE OUTPUT\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 1;
  }
  std::ostringstream out;
  std::string line;
  while (std::getline(in, line)) {
    if (line == "# @lwc-classes@") {
      for (const lwc::algorithm& a : lwc::algorithms()) {
        out << "class " << python_name(a) << "(" << base_class(a.kind) << "):\n"
            << "    _lwc_algorithm: ClassVar[str]\n"
            << "    info: ClassVar[AlgorithmInfo]\n";
        if (a.is_aead()) out << "    min_tag_size: ClassVar[int]\n    second_key_size: ClassVar[int]\n";
        if (a.is_keyed()) {
          if (!a.is_aead()) out << "    key_size: ClassVar[int]\n";
          out << "    @classmethod\n    def generate_key(cls) -> bytes: ...\n";
        }
        out << "\n";
      }
      for (const lwc::algorithm& a : lwc::algorithms()) {
        if (!a.is_aead()) out << oneshot_stubs(a);
      }
      out << "\n";
    } else if (line == "# @lwc-all@") {
      for (const lwc::algorithm& a : lwc::algorithms()) {
        out << "    \"" << python_name(a) << "\",\n";
        if (!a.is_aead()) out << "    \"" << python_name(a) << "_digest\",\n";
        if (!a.is_aead() && a.is_keyed()) out << "    \"" << python_name(a) << "_verify\",\n";
      }
    } else {
      out << line << "\n";
    }
  }
  std::ofstream o(argv[2]);
  o << out.str();
  return o ? 0 : 1;
}
