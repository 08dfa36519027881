// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.<name>_digest(...) -> bytes for every hash, XOF, CXOF, MAC and PRF, and
// lwc.<name>_verify(key, data, tag) for the MACs and PRFs: the state lives on the stack and
// the output is squeezed straight into the returned bytes object. They are plain CPython
// METH_FASTCALL functions whose `self` is a capsule holding the registry entry: the call
// costs about what hashlib's does, no object is created and nothing is copied.
#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>

#include <lwc/registry.hpp>

#include "common.hpp"
#include "naming.hpp"
#include "objects.hpp"

namespace lwc::python {
namespace {

enum class oneshot_op { digest, verify };

call_params params_of(const lwc::algorithm& a, oneshot_op op) {
  if (op == oneshot_op::verify) return {{"key", "data", "tag", "tag_length"}, 4, 3, 3, 3};
  switch (a.kind) {
    case lwc::algorithm_kind::hash: return {{"data"}, 1, 1, 1, 1};
    case lwc::algorithm_kind::xof: return {{"data", "length"}, 2, 1, 2, 1};
    case lwc::algorithm_kind::cxof: return {{"data", "length", "customization"}, 3, 1, 2, 1};
    case lwc::algorithm_kind::mac: return {{"key", "data"}, 2, 2, 2, 2};
    default: return {{"key", "data", "length"}, 3, 2, 3, 2};  // prf
  }
}

std::string oneshot_name(const lwc::algorithm& a, oneshot_op op) {
  return lwc::python::function_name(a.name) + (op == oneshot_op::digest ? "_digest" : "_verify");
}

template <oneshot_op Op>
PyObject* oneshot(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) noexcept {
  try {
    const auto& a = *static_cast<const lwc::algorithm*>(PyCapsule_GetPointer(self, nullptr));
    const call_params p = params_of(a, Op);
    PyObject* in[4];
    bind_arguments([&] { return oneshot_name(a, Op); }, p, args, PyVectorcall_NARGS(nargsf), kwnames, in);
    const bool keyed = a.is_keyed();
    std::optional<held_buffer> key;
    if (keyed) {
      key.emplace(in[0], "key");
      if (key->size() != a.key_size)
        value_error(str(a.name) + ": key must be " + num(a.key_size) + " bytes, got " + num(key->size()));
    }
    const held_buffer data(in[keyed ? 1 : 0], "data");
    check_input_size(a, data.size());
    std::optional<held_buffer> custom;
    if (a.kind == lwc::algorithm_kind::cxof && in[2] != nullptr && in[2] != Py_None) {
      custom.emplace(in[2], "customization");
      if (custom->size() > a.max_customization_size)
        value_error(str(a.name) + ": customization must be at most " +
                    num(a.max_customization_size) + " bytes, got " + num(custom->size()));
    }
    if constexpr (Op == oneshot_op::verify) {
      const std::size_t expected = verify_tag_length(a, in[3] != nullptr ? in[3] : Py_None);
      const held_buffer tag(in[2], "tag");
      lwc::hasher h(a, key->view());
      maybe_without_gil(data.size(), [&] { h.update(data.view()); });
      bool ok = false;
      try {
        ok = tag_matches(h, tag, expected);
      } catch (const std::invalid_argument& e) {
        value_error(e.what());
      }
      if (!ok) raise_invalid_tag("MAC tag does not match");
      Py_RETURN_NONE;
    } else {
      std::size_t n = a.output_size;
      if (a.max_output_size == 0) {  // XOF, CXOF, PRF: length, by default the usual output size
        PyObject* length = in[keyed ? 2 : 1];
        if (length != nullptr && length != Py_None) n = non_negative(length, "length");
      }
      std::uint8_t* o = nullptr;
      nb::object out = new_bytes(n, o);
      // The registry's one-shot entry point: the state in the callee's locals.
      maybe_without_gil(data.size() + n, [&] {
        a.digest(keyed ? key->data() : nullptr, custom ? custom->data() : nullptr,
                 custom ? custom->size() : 0, data.data(), data.size(), o, n);
      });
      return out.release().ptr();
    }
  } catch (...) {
    return restore_python_error();
  }
}

std::string oneshot_doc(const lwc::algorithm& a, oneshot_op op) {
  const std::string fn = lwc::python::function_name(a.name);
  const std::string cls = "lwc." + fn;
  const call_params p = params_of(a, op);
  // The text signature (before "--") is what inspect.signature() and help() show.
  std::string sig = fn + (op == oneshot_op::digest ? "_digest(" : "_verify(");
  for (std::size_t i = 0; i < p.count; ++i) {
    if (i == p.keyword_only) sig += "*, ";
    sig += p.names[i];
    if (i >= p.positional_only) sig += "=None";
    sig += i + 1 == p.positional_only ? ", /" : "";
    if (i + 1 < p.count) sig += ", ";
  }
  sig += ")\n--\n\n";
  if (op == oneshot_op::verify)
    return sig + "Compares `tag` with the tag of `data` under `key` in constant time, as " + cls +
           "(key, data).verify(tag) does; raises lwc.InvalidTag when they differ.\n\n"
           "The tag must be the full " + num(a.output_size) + " bytes; a tag of any other length "
           "fails. A truncated tag is accepted only when its length is named: tag_length=n.";
  switch (a.kind) {
    case lwc::algorithm_kind::hash:
      return sig + "The " + num(a.output_size) + "-byte digest of `data`: " + cls + "(data).digest() in one call.";
    case lwc::algorithm_kind::xof:
      return sig + "`length` output bytes (default " + num(a.output_size) + ") for `data`: " + cls +
             "(data).digest(length) in one call.";
    case lwc::algorithm_kind::cxof:
      return sig + "`length` output bytes (default " + num(a.output_size) + ") for `data` under the " +
             "customization string: " + cls + "(data, customization=...).digest(length) in one call.";
    case lwc::algorithm_kind::mac:
      return sig + "The " + num(a.output_size) + "-byte tag of `data` under `key`: " + cls +
             "(key, data).digest() in one call. Check a tag with " + fn + "_verify, which compares in "
             "constant time.";
    default:
      return sig + "`length` output bytes (default " + num(a.output_size) + ") of `data` under `key`: " +
             cls + "(key, data).digest(length) in one call. Check a tag with " + fn + "_verify, which "
             "compares in constant time.";
  }
}

}  // namespace

void register_oneshots(nb::module_& m) {
  // The method definitions and their strings must outlive the functions: built once.
  static std::deque<PyMethodDef> defs;
  static std::deque<std::string> strings;
  for (const lwc::algorithm& a : lwc::algorithms()) {
    if (a.is_aead()) continue;
    for (oneshot_op op : {oneshot_op::digest, oneshot_op::verify}) {
      if (op == oneshot_op::verify && !a.is_keyed()) continue;
      const std::string& name = strings.emplace_back(oneshot_name(a, op));
      const std::string& doc = strings.emplace_back(oneshot_doc(a, op));
      PyMethodDef& d = defs.emplace_back();
      d.ml_name = name.c_str();
      d.ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
          op == oneshot_op::digest ? &oneshot<oneshot_op::digest> : &oneshot<oneshot_op::verify>));
      d.ml_flags = METH_FASTCALL | METH_KEYWORDS;
      d.ml_doc = doc.c_str();
      nb::object self = nb::steal(PyCapsule_New(const_cast<lwc::algorithm*>(&a), nullptr, nullptr));
      if (!self.is_valid()) throw nb::python_error();
      nb::object f = nb::steal(PyCFunction_NewEx(&d, self.ptr(), nb::str("lwc").ptr()));
      if (!f.is_valid()) throw nb::python_error();
      m.attr(name.c_str()) = f;
    }
  }
}

}  // namespace lwc::python
