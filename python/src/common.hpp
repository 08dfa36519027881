// SPDX-License-Identifier: MIT OR Apache-2.0
// What every part of lwc._lwc shares: the error helpers, the GIL rule, and the one way a
// caller's buffer is held while the extension (or an engine, without the GIL) reads or
// writes it.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <lwc/common/span.hpp>

#include "cpython_access.hpp"
#include "size_math.hpp"

namespace lwc::python {

namespace nb = nanobind;

// Below this many bytes, releasing and re-taking the GIL costs more than the work itself.
inline constexpr std::size_t gil_release_threshold = 4096;

inline std::string str(std::string_view s) { return std::string(s); }
inline std::string num(std::size_t n) { return std::to_string(n); }

[[noreturn]] inline void value_error(const std::string& msg) { throw nb::value_error(msg.c_str()); }
[[noreturn]] inline void type_error(const std::string& msg) { throw nb::type_error(msg.c_str()); }

// lwc.InvalidTag, created by the module (module.cpp) before anything can raise it.
extern PyObject* invalid_tag_type;
[[noreturn]] inline void raise_invalid_tag(const char* why) {
  PyErr_SetString(invalid_tag_type, why);
  throw nb::python_error();
}

template <class F>
decltype(auto) maybe_without_gil(std::size_t bytes, F&& f) {
  if (bytes >= gil_release_threshold) {
    nb::gil_scoped_release unlocked;
    return f();
  }
  return f();
}

// A C-contiguous buffer of the caller's, held until this object dies: bytes are read in place,
// anything else is exported through the buffer protocol (so a bytearray cannot be resized, nor
// its memory freed, while an engine works on it without the GIL). `none_is_empty` lets None
// stand for an empty input; `writable` asks for memory the extension may write.
class held_buffer {
 public:
  enum access : std::uint8_t { read_only, writable };

  held_buffer(nb::handle obj, const char* what, bool none_is_empty = false,
              access mode = read_only) {
    PyObject* o = obj.ptr();
    if (mode == read_only && PyBytes_Check(o)) {
      data_ = cpy::bytes_data(o);
      size_ = cpy::bytes_size(o);
      rows_ = size_;
      return;
    }
    if (none_is_empty && o == Py_None) return;
    if (mode == read_only && PyUnicode_Check(o))
      type_error(std::string(what) + " must be a bytes-like object, not 'str' (encode text first)");
    // PyBUF_ND: C-contiguous, with the shape (an N x L array gives its rows).
    if (PyObject_GetBuffer(o, &view_, PyBUF_ND | PyBUF_FORMAT | (mode == writable ? PyBUF_WRITABLE : 0)) != 0)
      refuse(o, what, none_is_empty, mode);
    held_ = true;
    data_ = static_cast<std::uint8_t*>(view_.buf);
    size_ = static_cast<std::size_t>(view_.len);
    ndim_ = view_.ndim;
    rows_ = ndim_ >= 1 ? static_cast<std::size_t>(view_.shape[0]) : 1;
    item_size_ = static_cast<std::size_t>(view_.itemsize);
  }
  held_buffer(const held_buffer&) = delete;
  held_buffer& operator=(const held_buffer&) = delete;
  ~held_buffer() {
    if (held_) PyBuffer_Release(&view_);
  }

  // False only for None taken as empty.
  bool present() const { return held_ || data_ != nullptr; }
  const std::uint8_t* data() const { return data_; }
  std::uint8_t* mutable_data() const { return data_; }  // writable buffers only
  std::size_t size() const { return size_; }
  lwc::bytes_view view() const { return {data_, size_}; }
  int ndim() const { return ndim_; }
  std::size_t rows() const { return rows_; }  // the first dimension
  std::size_t item_size() const { return item_size_; }

 private:
  [[noreturn]] static void refuse(PyObject* o, const char* what, bool none_is_empty, access mode) {
    // A TypeError means no buffer at all; anything else (BufferError) a buffer that is not
    // contiguous.
    const bool wrong_type = PyErr_ExceptionMatches(PyExc_TypeError);
    PyErr_Clear();
    const std::string type = cpy::type_name(o);
    if (mode == read_only)
      type_error(std::string(what) + " must be a " + (wrong_type ? "" : "contiguous ") +
                 "bytes-like object" + (none_is_empty ? " or None" : "") + ", not '" + type + "'");
    Py_buffer probe{};
    const bool readonly = PyObject_GetBuffer(o, &probe, PyBUF_SIMPLE) == 0;
    if (readonly) PyBuffer_Release(&probe);
    PyErr_Clear();
    type_error(std::string(what) + " must be a writable contiguous buffer (bytearray, " +
               "memoryview, numpy array), " +
               (readonly ? "'" + type + "' is read-only or not contiguous" : "not '" + type + "'"));
  }

  Py_buffer view_{};
  bool held_ = false;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  int ndim_ = 1;
  std::size_t rows_ = 0, item_size_ = 1;
};

// A fresh bytes object of n bytes to be filled in place. n == 0 returns the shared empty
// bytes object, which is fine because nothing is then written to it.
inline nb::object new_bytes(std::size_t n, std::uint8_t*& out) {
  checked_py_size(n, "output");
  PyObject* b = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
  if (b == nullptr) throw nb::python_error();
  out = cpy::bytes_data(b);
  return nb::steal(b);
}

inline std::size_t non_negative(nb::handle h, const char* what) {
  if (PyFloat_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    type_error(std::string(what) + " must be an int, not '" + cpy::type_name(h.ptr()) + "'");
  const Py_ssize_t v = PyNumber_AsSsize_t(h.ptr(), PyExc_OverflowError);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (v < 0) value_error(std::string(what) + " must be non-negative, got " + std::to_string(v));
  return static_cast<std::size_t>(v);
}

// The module's parts, each adding its functions and classes (module.cpp calls them).
void register_aead(nb::module_& m);
void register_hash_objects(nb::module_& m);
void register_oneshots(nb::module_& m);
void register_batch(nb::module_& m);

}  // namespace lwc::python
