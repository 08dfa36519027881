// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc._lwc: the module, the registry as Python sees it, and lwc.InvalidTag. The parts:
//   aead.cpp          lwc.AEAD (one class, a named subclass per registered AEAD)
//   hash_objects.cpp  lwc.Hash, XOF, MAC, PRF (hashlib-style objects) and their constructors
//   oneshots.cpp      lwc.<name>_digest / _verify, plain vectorcall functions
//   stream.cpp        lwc.stream's compiled side
//   batch.cpp, batch_lists.cpp, arrow_columns.cpp   lwc.batch and lwc.arrow (CPU engine)
// lwc.batch(device="cuda") is the separate, optional module lwc._lwc_cuda (cuda.cpp).
// The whole per-call path (argument checks, allocation, the primitive) is in C++: a
// Python-level wrapper would cost more than encrypting 64 bytes. Inputs of
// gil_release_threshold bytes or more are processed with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <lwc/registry.hpp>

#include "common.hpp"
#include "naming.hpp"
#include "objects.hpp"

void register_stream(nanobind::module_& m);  // stream.cpp

namespace lwc::python {

PyObject* invalid_tag_type = nullptr;  // owned by the module

namespace {

nb::object opt_size(std::size_t v, std::size_t none_value) {
  return v == none_value ? nb::none() : nb::object(nb::int_(v));
}

nb::dict describe(const lwc::algorithm& a) {
  nb::dict d;
  d["name"] = nb::str(a.name.data(), a.name.size());
  const std::string_view kind = lwc::to_string(a.kind);
  d["kind"] = nb::str(kind.data(), kind.size());
  d["family"] = nb::str(a.family.data(), a.family.size());
  d["standard"] = nb::str(a.standard.data(), a.standard.size());
  d["legacy"] = a.legacy;
  d["key_size"] = a.key_size;
  d["second_key_size"] = a.second_key_size;
  d["nonce_size"] = a.nonce_size;
  d["tag_size"] = a.tag_size;
  d["min_tag_size"] = a.min_tag_size;
  d["output_size"] = a.output_size;
  d["digest_size"] = a.is_aead() ? 0 : digest_size_of(a);
  d["max_output_size"] = opt_size(a.max_output_size, 0);
  d["max_input_size"] = opt_size(a.max_input_size, SIZE_MAX);
  d["max_customization_size"] = a.max_customization_size;
  d["block_size"] = a.block_size;
  d["python_name"] = nb::str((a.is_aead() ? lwc::python::class_name(a.name)
                                          : lwc::python::function_name(a.name)).c_str());
  return d;
}

}  // namespace
}  // namespace lwc::python

namespace nb = nanobind;
using namespace nb::literals;
using namespace lwc::python;

NB_MODULE(_lwc, m) {
  m.doc() = "lwc's compiled core: the algorithm registry, AEAD and hash-object base classes.";
  m.attr("GIL_RELEASE_THRESHOLD") = gil_release_threshold;
#if defined(LWC_HAVE_BATCH)
  register_batch(m);
#endif
#ifdef LWC_VERSION
  m.attr("__version__") = LWC_VERSION;
#endif

  invalid_tag_type = PyErr_NewExceptionWithDoc(
      "lwc.InvalidTag",
      "Authentication failed: the tag does not match the key, nonce, associated data and\n"
      "ciphertext (or the MAC tag does not match the data). Nothing was decrypted.",
      nullptr, nullptr);
  if (invalid_tag_type == nullptr) throw nb::python_error();
  m.attr("InvalidTag") = nb::steal(invalid_tag_type);
  register_stream(m);
  register_aead(m);
  register_hash_objects(m);
  register_oneshots(m);

  m.def("registry", [] {
        nb::list l;
        for (const lwc::algorithm& a : lwc::algorithms()) l.append(describe(a));
        return l;
      },
      "The registry in order: one dict per algorithm (name, kind, sizes, python_name).");
  m.def("class_name", [](std::string_view n) { return lwc::python::class_name(n); }, "name"_a,
        "The AEAD class name for a registry name: 'ascon-aead128' -> 'AsconAEAD128'.");
  m.def("function_name", [](std::string_view n) { return lwc::python::function_name(n); },
        "name"_a, "The hashlib-style name for a registry name: 'ascon-hash256' -> 'ascon_hash256'.");
}
