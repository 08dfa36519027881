// SPDX-License-Identifier: MIT OR Apache-2.0
// The extension's face of lwc's checked size arithmetic (lwc/common/checked.hpp): every product
// or sum of sizes a caller controls goes through these, and an overflow becomes Python's
// OverflowError naming what was being sized, never a wrapped allocation size.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <lwc/common/checked.hpp>

namespace lwc::python {

[[noreturn]] inline void size_overflow(const char* what) {
  PyErr_SetString(PyExc_OverflowError, (std::string(what) + ": size too large").c_str());
  throw nanobind::python_error();
}

inline std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  std::size_t r = 0;
  if (!lwc::mul_fits(a, b, r)) size_overflow(what);
  return r;
}

inline std::size_t checked_add(std::size_t a, std::size_t b, const char* what) {
  std::size_t r = 0;
  if (!lwc::add_fits(a, b, r)) size_overflow(what);
  return r;
}

// A size that a Python object (bytes, bytearray, list) can have.
inline std::size_t checked_py_size(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(PY_SSIZE_T_MAX)) size_overflow(what);
  return n;
}

}  // namespace lwc::python
