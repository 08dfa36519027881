// SPDX-License-Identifier: MIT OR Apache-2.0
// The few CPython object accessors the per-call paths need, in one place. The version-specific
// module reads bytes, lists and tuples through CPython's macros (no call, no check); the
// stable-ABI module (Py_LIMITED_API, CPython 3.12 and later) cannot see those objects' layout
// and goes through the equivalent exported functions. Callers have already checked the type and
// the index, so the two builds behave alike.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace lwc::python::cpy {

namespace nb = nanobind;

inline std::uint8_t* bytes_data(PyObject* bytes) {
#if defined(Py_LIMITED_API)
  return reinterpret_cast<std::uint8_t*>(PyBytes_AsString(bytes));
#else
  return reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(bytes));
#endif
}

inline std::size_t bytes_size(PyObject* bytes) {
#if defined(Py_LIMITED_API)
  return static_cast<std::size_t>(PyBytes_Size(bytes));
#else
  return static_cast<std::size_t>(PyBytes_GET_SIZE(bytes));
#endif
}

// Whether o is a bytes object (or a subclass); the exact type is a pointer comparison in both
// builds, before the flag test that the stable ABI makes a call.
inline bool is_bytes(PyObject* o) { return Py_TYPE(o) == &PyBytes_Type || PyBytes_Check(o); }

// The data and size of a bytes object, with one call in the stable-ABI build.
inline std::uint8_t* bytes_data_and_size(PyObject* bytes, std::size_t& size) {
#if defined(Py_LIMITED_API)
  char* data = nullptr;
  Py_ssize_t n = 0;
  PyBytes_AsStringAndSize(bytes, &data, &n);  // cannot fail on a bytes object
  size = static_cast<std::size_t>(n);
  return reinterpret_cast<std::uint8_t*>(data);
#else
  size = static_cast<std::size_t>(PyBytes_GET_SIZE(bytes));
  return reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(bytes));
#endif
}

inline std::size_t list_size(PyObject* list) {
#if defined(Py_LIMITED_API)
  return static_cast<std::size_t>(PyList_Size(list));
#else
  return static_cast<std::size_t>(PyList_GET_SIZE(list));
#endif
}

// A borrowed reference; i < list_size(list).
inline PyObject* list_item(PyObject* list, std::size_t i) {
#if defined(Py_LIMITED_API)
  return PyList_GetItem(list, static_cast<Py_ssize_t>(i));
#else
  return PyList_GET_ITEM(list, static_cast<Py_ssize_t>(i));
#endif
}

// Puts `item` (its reference is taken) at i < list_size(list), releasing what was there.
inline void list_set_item(PyObject* list, std::size_t i, PyObject* item) {
#if defined(Py_LIMITED_API)
  if (PyList_SetItem(list, static_cast<Py_ssize_t>(i), item) != 0) throw nb::python_error();
#else
  PyObject* old = PyList_GET_ITEM(list, static_cast<Py_ssize_t>(i));
  PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  Py_XDECREF(old);
#endif
}

inline std::size_t tuple_size(PyObject* tuple) {
#if defined(Py_LIMITED_API)
  return static_cast<std::size_t>(PyTuple_Size(tuple));
#else
  return static_cast<std::size_t>(PyTuple_GET_SIZE(tuple));
#endif
}

// A borrowed reference; i < tuple_size(tuple).
inline PyObject* tuple_item(PyObject* tuple, std::size_t i) {
#if defined(Py_LIMITED_API)
  return PyTuple_GetItem(tuple, static_cast<Py_ssize_t>(i));
#else
  return PyTuple_GET_ITEM(tuple, static_cast<Py_ssize_t>(i));
#endif
}

// The name of an object's type, for error messages ('str', 'numpy.ndarray' or 'ndarray').
inline std::string type_name(PyObject* o) {
#if defined(Py_LIMITED_API)
  nb::object name = nb::steal(PyType_GetName(Py_TYPE(o)));
  if (!name.is_valid()) {
    PyErr_Clear();
    return "?";
  }
  Py_ssize_t len = 0;
  const char* s = PyUnicode_AsUTF8AndSize(name.ptr(), &len);
  if (s == nullptr) {
    PyErr_Clear();
    return "?";
  }
  return std::string(s, static_cast<std::size_t>(len));
#else
  return Py_TYPE(o)->tp_name;
#endif
}

}  // namespace lwc::python::cpy
