// SPDX-License-Identifier: MIT OR Apache-2.0
// What the object classes (aead.cpp, hash_objects.cpp) and the one-shot functions
// (oneshots.cpp) share: finding a class's registry entry, the input and tag-length rules, and
// the vectorcall argument binder.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstring>
#include <string>

#include <lwc/registry.hpp>

#include "common.hpp"

namespace lwc::python {

// The registry entry named by the `_lwc_algorithm` attribute of a (Python) class; `base`
// names the lwc base class in the message for a class without one.
const lwc::algorithm& algorithm_of_type(nb::handle type, const char* base = "Hash");
inline const lwc::algorithm& algorithm_of(nb::handle self, const char* base) {
  return algorithm_of_type(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr()))), base);
}

// 0 for extendable output, as hashlib's shake.
inline std::size_t digest_size_of(const lwc::algorithm& a) {
  return a.max_output_size != 0 ? a.output_size : 0;
}

void check_input_size(const lwc::algorithm& a, std::size_t n);

// The tag length a verifier expects: the algorithm's full tag unless the caller names a shorter
// (or, for a PRF, longer) one with tag_length=. Never taken from the tag being checked: a
// forger could otherwise send a 4-byte prefix and win with probability 2^-32.
std::size_t verify_tag_length(const lwc::algorithm& a, nb::handle tag_length);

// A tag of another length than the configured one fails like a wrong tag.
bool tag_matches(lwc::hasher& h, const held_buffer& tag, std::size_t expected_len);

// The parameters of a vectorcall function, in order; the first `positional_only` are
// positional only, those from `keyword_only` on keyword only.
struct call_params {
  const char* names[4];
  std::size_t count, positional_only, keyword_only, required;
};

// Puts the arguments of a vectorcall into `out` by parameter (null where not given). `fn`
// gives the function's name, for messages only.
template <class Name>
void bind_arguments(Name fn, const call_params& p, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames, PyObject** out) {
  for (std::size_t i = 0; i < p.count; ++i) out[i] = nullptr;
  if (static_cast<std::size_t>(nargs) > p.keyword_only)
    type_error(fn() + "() takes at most " + num(p.keyword_only) +
               " positional arguments (" + num(static_cast<std::size_t>(nargs)) + " given)");
  for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
  const std::size_t nkw = kwnames != nullptr ? cpy::tuple_size(kwnames) : 0;
  for (std::size_t k = 0; k < nkw; ++k) {
    const char* kw = PyUnicode_AsUTF8AndSize(cpy::tuple_item(kwnames, k), nullptr);
    if (kw == nullptr) throw nb::python_error();
    std::size_t i = p.positional_only;
    while (i < p.count && std::strcmp(p.names[i], kw) != 0) ++i;
    if (i == p.count)
      type_error(fn() + "() got an unexpected keyword argument '" + kw + "'");
    if (out[i] != nullptr)
      type_error(fn() + "() got multiple values for argument '" + kw + "'");
    out[i] = args[nargs + k];
  }
  for (std::size_t i = 0; i < p.required; ++i)
    if (out[i] == nullptr)
      type_error(fn() + "() missing required argument '" + p.names[i] + "'");
}

// A C++ exception escaping a plain CPython entry point becomes the Python exception it stands
// for; returns nullptr for the entry point to return.
inline PyObject* restore_python_error() noexcept {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(e.type() == nb::exception_type::value_error ? PyExc_ValueError : PyExc_TypeError,
                    e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

}  // namespace lwc::python
