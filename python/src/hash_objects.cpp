// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.Hash, lwc.XOF, lwc.MAC and lwc.PRF: hash objects in the hashlib style (PEP 452), one
// Python subclass per registry entry, each taking its algorithm from the subclass's
// `_lwc_algorithm` attribute. Thread-safe: each object has a mutex, and the output is squeezed
// from a copy of the state so that digest() can be called again.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <lwc/registry.hpp>

#include "common.hpp"
#include "objects.hpp"

namespace lwc::python {

// The registry entry named by the `_lwc_algorithm` attribute of self's (Python) class.
const lwc::algorithm& algorithm_of_type(nb::handle type, const char* base) {
  static PyObject* attr = PyUnicode_InternFromString("_lwc_algorithm");
  PyObject* name = PyObject_GetAttr(type.ptr(), attr);
  if (name == nullptr) {
    PyErr_Clear();
    type_error(std::string("lwc.") + base +
               " is a base class: use a named class (lwc.AsconAEAD128, lwc.ascon_hash256, ...), "
               "lwc.aead(name, key) or lwc.new(name)");
  }
  nb::object owner = nb::steal(name);
  Py_ssize_t len = 0;
  const char* s = PyUnicode_AsUTF8AndSize(name, &len);
  if (s == nullptr) throw nb::python_error();
  const lwc::algorithm* a = lwc::find_algorithm({s, static_cast<std::size_t>(len)});
  if (a == nullptr) type_error("unknown algorithm '" + std::string(s, len) + "'");
  return *a;
}

void check_input_size(const lwc::algorithm& a, std::size_t n) {
  if (n > a.max_input_size)
    value_error(str(a.name) + ": input must be at most " + num(a.max_input_size) + " bytes, got " +
                num(n));
}

std::size_t verify_tag_length(const lwc::algorithm& a, nb::handle tag_length) {
  if (tag_length.is_none()) return a.output_size;
  const std::size_t max = a.max_output_size ? a.max_output_size : 64;
  if (PyBool_Check(tag_length.ptr()) || !PyLong_Check(tag_length.ptr()))
    type_error(str(a.name) + ": tag_length must be an int, not '" +
               cpy::type_name(tag_length.ptr()) + "'");
  int overflow = 0;
  const long long t = PyLong_AsLongLongAndOverflow(tag_length.ptr(), &overflow);
  if (overflow != 0 || t < static_cast<long long>(a.min_tag_size) || t > static_cast<long long>(max))
    value_error(str(a.name) + ": tag_length must be " + num(a.min_tag_size) + " to " + num(max) +
                " bytes, got " + (overflow ? std::string("a huge value") : std::to_string(t)));
  return static_cast<std::size_t>(t);
}

bool tag_matches(lwc::hasher& h, const held_buffer& tag, std::size_t expected_len) {
  if (tag.size() != expected_len) return false;
  return h.verify_truncated(tag.view());  // its length is the configured one, checked above
}

namespace {

using namespace nb::literals;

nb::object hex_of(const std::uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  const std::size_t len = checked_py_size(checked_mul(n, 2, "hex output"), "hex output");
  // The stable ABI has no way to fill a str in place: the digits are written to a buffer
  // (on the stack for the usual digest sizes) and decoded as ASCII.
  char small[128];
  std::string large;
  char* d = small;
  if (len > sizeof small) {
    large.resize(len);
    d = large.data();
  }
  for (std::size_t i = 0; i < n; ++i) {
    d[2 * i] = digits[p[i] >> 4];
    d[2 * i + 1] = digits[p[i] & 15];
  }
  PyObject* s = PyUnicode_DecodeASCII(d, static_cast<Py_ssize_t>(len), nullptr);
  if (s == nullptr) throw nb::python_error();
  return nb::steal(s);
}


// Holds the object's mutex, taken without ever blocking while the GIL is held: a thread that
// holds the mutex may be waiting for the GIL, so waiting for the mutex with the GIL would
// deadlock.
class object_lock {
 public:
  explicit object_lock(std::mutex& m) : lock_(m, std::try_to_lock) {
    if (!lock_.owns_lock()) {
      nb::gil_scoped_release unlocked;
      lock_.lock();
    }
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

struct hash_object {
  hash_object(const lwc::algorithm& a, lwc::bytes_view key, lwc::bytes_view custom)
      : alg(&a), absorbing(a, key, custom) {}
  // The caller holds other.mu.
  hash_object(const hash_object& other)
      : alg(other.alg), absorbing(other.absorbing), reading(other.reading) {}
  hash_object& operator=(const hash_object&) = delete;

  const lwc::algorithm* alg;
  std::mutex mu;
  lwc::hasher absorbing;               // everything update() saw; never squeezed
  std::optional<lwc::hasher> reading;  // read()'s stream, started on the first read()

  // The output for the data absorbed so far, from a copy: digest() can be called repeatedly.
  nb::object output(std::size_t n, bool hex) {
    std::optional<lwc::hasher> h;
    {
      object_lock g(mu);
      h.emplace(absorbing);
    }
    std::uint8_t small[64];
    if (hex && n <= sizeof small) {
      h->squeeze({small, n});
      nb::object s = hex_of(small, n);
      lwc::secure_wipe(small, sizeof small);
      return s;
    }
    std::uint8_t* o = nullptr;
    nb::object out = new_bytes(n, o);
    maybe_without_gil(n, [&] { h->squeeze({o, n}); });
    return hex ? hex_of(o, n) : out;
  }
};
struct fixed_hash : hash_object {
  using hash_object::hash_object;
};
struct xof_hash : hash_object {
  using hash_object::hash_object;
};
struct mac_hash : fixed_hash {
  using fixed_hash::fixed_hash;
};
struct prf_hash : xof_hash {
  using xof_hash::xof_hash;
};

template <class T>
bool kind_fits(lwc::algorithm_kind k) {
  using lwc::algorithm_kind;
  if constexpr (std::is_same_v<T, fixed_hash>) return k == algorithm_kind::hash;
  else if constexpr (std::is_same_v<T, xof_hash>) return k == algorithm_kind::xof || k == algorithm_kind::cxof;
  else if constexpr (std::is_same_v<T, mac_hash>) return k == algorithm_kind::mac;
  else return k == algorithm_kind::prf;
}

template <class T>
const lwc::algorithm& hash_algorithm_of(nb::handle self, const char* base) {
  const lwc::algorithm& a = algorithm_of(self, base);
  if (!kind_fits<T>(a.kind))
    type_error(str(a.name) + " is a " + str(lwc::to_string(a.kind)) + " algorithm, not lwc." + base);
  return a;
}

template <class T>
void hash_construct(T* at, const lwc::algorithm& a, nb::handle data, nb::handle customization) {
  held_buffer d(data, "data");
  held_buffer c(customization, "customization", true);
  if (!customization.is_none() && a.max_customization_size == 0)
    type_error(str(a.name) + " takes no customization string");
  if (c.size() > a.max_customization_size)
    value_error(str(a.name) + ": customization must be at most " + num(a.max_customization_size) +
                " bytes, got " + num(c.size()));
  check_input_size(a, d.size());
  T* o = new (at) T(a, {}, c.view());
  if (d.size() != 0) maybe_without_gil(d.size(), [&] { o->absorbing.update(d.view()); });
}

template <class T>
void hash_init(nb::pointer_and_handle<T> self, nb::handle data, nb::handle customization,
               const char* base) {
  hash_construct(self.p, hash_algorithm_of<T>(self.h, base), data, customization);
}

template <class T>
void keyed_construct(T* at, const lwc::algorithm& a, nb::handle key, nb::handle data) {
  held_buffer k(key, "key"), d(data, "data");
  if (k.size() != a.key_size)
    value_error(str(a.name) + ": key must be " + num(a.key_size) + " bytes, got " + num(k.size()));
  check_input_size(a, d.size());
  T* o = new (at) T(a, k.view(), {});
  if (d.size() != 0) maybe_without_gil(d.size(), [&] { o->absorbing.update(d.view()); });
}

template <class T>
void keyed_init(nb::pointer_and_handle<T> self, nb::handle key, nb::handle data, const char* base) {
  keyed_construct(self.p, hash_algorithm_of<T>(self.h, base), key, data);
}

void hash_update(hash_object& s, nb::handle data) {
  held_buffer d(data, "data");
  object_lock g(s.mu);
  if (s.reading) value_error(str(s.alg->name) + ": update() after read(): the output has started");
  if (d.size() != 0) maybe_without_gil(d.size(), [&] { s.absorbing.update(d.view()); });
}

nb::object hash_read(hash_object& s, nb::handle length) {
  const std::size_t n = non_negative(length, "length");
  std::uint8_t* o = nullptr;
  nb::object out = new_bytes(n, o);
  object_lock g(s.mu);
  if (!s.reading) s.reading.emplace(s.absorbing);
  maybe_without_gil(n, [&] { s.reading->squeeze({o, n}); });
  return out;
}

void hash_verify(hash_object& s, nb::handle tag, nb::handle tag_length) {
  const std::size_t expected = verify_tag_length(*s.alg, tag_length);
  held_buffer t(tag, "tag");
  std::optional<lwc::hasher> h;
  {
    object_lock g(s.mu);
    h.emplace(s.absorbing);
  }
  if (!tag_matches(*h, t, expected)) raise_invalid_tag("MAC tag does not match");
}

template <class T>
nb::object hash_copy(nb::pointer_and_handle<T> self) {
  nb::object copy = nb::inst_alloc(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.h.ptr()))));
  {
    object_lock g(self.p->mu);
    new (nb::inst_ptr<T>(copy)) T(*self.p);
  }
  nb::inst_mark_ready(copy);
  return copy;
}

nb::object hash_repr(nb::handle self) {
  return nb::str("<lwc.{} object @ {:#x}>")
      .format(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr()))).attr("__name__"),
              reinterpret_cast<std::uintptr_t>(self.ptr()));
}

// ---- fast constructors -----------------------------------------------------------------------
// Calling a class that lwc/__init__.py derived from Hash, XOF, MAC or PRF goes through CPython's
// generic type call (tp_new, then __init__ looked up by name and called with an argument
// tuple), which costs about as much as hashing 64 bytes. fast_constructor() gives those
// classes a vectorcall of their own that allocates the instance and constructs it in one step,
// with the same arguments and checks as __init__. Classes derived from them by users keep the
// generic path. The stable-ABI module cannot set a type's vectorcall (the type object is
// opaque there before CPython 3.14), so its classes keep the generic path too.
#if !defined(Py_LIMITED_API)

struct fast_class {
  PyTypeObject* type;  // a strong reference, so the address is never reused
  const lwc::algorithm* alg;
};
std::vector<fast_class> fast_classes;

template <class T>
PyObject* construct(PyObject* type, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) noexcept {
  try {
    const lwc::algorithm* a = nullptr;
    for (const fast_class& c : fast_classes)
      if (reinterpret_cast<PyObject*>(c.type) == type) a = c.alg;
    if (a == nullptr) {
      PyErr_SetString(PyExc_SystemError, "lwc: constructor of an unregistered class");
      return nullptr;
    }
    constexpr bool keyed = std::is_same_v<T, mac_hash> || std::is_same_v<T, prf_hash>;
    constexpr call_params p =
        keyed ? call_params{{"key", "data"}, 2, 0, 2, 1}
              : std::is_same_v<T, fixed_hash>
                    ? call_params{{"data", "usedforsecurity"}, 2, 0, 1, 0}
                    : call_params{{"data", "customization", "usedforsecurity"}, 3, 0, 1, 0};
    PyObject* in[4];
    bind_arguments([&] { return std::string(reinterpret_cast<PyTypeObject*>(type)->tp_name); }, p,
                   args, PyVectorcall_NARGS(nargsf), kwnames, in);
    static PyObject* const empty = PyBytes_FromStringAndSize(nullptr, 0);
    nb::object self = nb::inst_alloc(nb::handle(type));
    T* at = nb::inst_ptr<T>(self);
    if constexpr (keyed) {
      keyed_construct(at, *a, in[0], in[1] != nullptr ? in[1] : empty);
    } else {
      PyObject* custom = std::is_same_v<T, xof_hash> ? in[1] : nullptr;
      hash_construct(at, *a, in[0] != nullptr ? in[0] : empty, custom != nullptr ? custom : Py_None);
    }
    nb::inst_mark_ready(self);
    return self.release().ptr();
  } catch (...) {
    return restore_python_error();
  }
}

template <class T>
bool try_fast_constructor(PyTypeObject* t, const lwc::algorithm& a) {
  if (t->tp_base != reinterpret_cast<PyTypeObject*>(nb::type<T>().ptr()) || !kind_fits<T>(a.kind))
    return false;
  Py_INCREF(t);
  fast_classes.push_back({t, &a});
  t->tp_vectorcall = &construct<T>;
  return true;
}

// For a class derived directly from Hash, XOF, MAC or PRF with its _lwc_algorithm set.
void fast_constructor(nb::handle cls) {
  if (!PyType_Check(cls.ptr())) type_error("fast_constructor: a class is expected");
  auto* t = reinterpret_cast<PyTypeObject*>(cls.ptr());
  for (const fast_class& c : fast_classes)
    if (c.type == t) return;
  const lwc::algorithm& a = algorithm_of_type(cls);
  if (!(try_fast_constructor<mac_hash>(t, a) || try_fast_constructor<prf_hash>(t, a) ||
        try_fast_constructor<fixed_hash>(t, a) || try_fast_constructor<xof_hash>(t, a)))
    type_error("fast_constructor: " + std::string(t->tp_name) +
               " does not derive directly from the lwc base class of its kind");
}

#endif  // !Py_LIMITED_API

}  // namespace

void register_hash_objects(nb::module_& m) {
  nb::class_<hash_object>(m, "HashBase",
                          "Common base of the hash objects: update(), copy(), name, "
                          "digest_size, block_size. Thread-safe.")
      .def("update", &hash_update, "data"_a.none(), nb::sig("def update(self, data: Buffer, /) -> None"),
           "Absorbs more data (any contiguous buffer).")
      .def_prop_ro("name", [](const hash_object& s) { return str(s.alg->name); },
                   "The registry name, e.g. 'ascon-hash256'.")
      .def_prop_ro("digest_size", [](const hash_object& s) { return digest_size_of(*s.alg); },
                   "Output size in bytes; 0 for extendable output (digest(length)).")
      .def_prop_ro("block_size", [](const hash_object& s) { return s.alg->block_size; },
                   "Rate of the sponge in bytes.")
      .def("__repr__", &hash_repr);

  nb::class_<fixed_hash, hash_object>(m, "Hash",
                                      "A hash object in the hashlib style (PEP 452).")
      .def("__init__",
           [](nb::pointer_and_handle<fixed_hash> self, nb::handle data, nb::handle) {
             hash_init(self, data, nb::none(), "Hash");
           },
           "data"_a.none() = nb::bytes(""), nb::kw_only(), "usedforsecurity"_a.none() = true,
           nb::sig("def __init__(self, data: Buffer = b'', *, usedforsecurity: bool = True) -> None"),
           "usedforsecurity: accepted for hashlib compatibility and ignored (every algorithm "
           "here is meant for security).")
      .def("digest", [](fixed_hash& s) { return s.output(s.alg->output_size, false); },
           nb::sig("def digest(self) -> bytes"),
           "The digest of the data so far; the object stays usable.")
      .def("hexdigest", [](fixed_hash& s) { return s.output(s.alg->output_size, true); },
           nb::sig("def hexdigest(self) -> str"), "digest() as lowercase hex.")
      .def("copy", &hash_copy<fixed_hash>, nb::sig("def copy(self) -> Self"),
           "An independent copy of the current state.");

  nb::class_<xof_hash, hash_object>(m, "XOF",
                                    "An extendable-output function in the style of hashlib's "
                                    "shake_128: digest(length), hexdigest(length), and read(n).")
      .def("__init__",
           [](nb::pointer_and_handle<xof_hash> self, nb::handle data, nb::handle custom,
              nb::handle) { hash_init(self, data, custom, "XOF"); },
           "data"_a.none() = nb::bytes(""), nb::kw_only(), "customization"_a.none() = nb::none(),
           "usedforsecurity"_a.none() = true,
           nb::sig("def __init__(self, data: Buffer = b'', *, customization: Buffer | None = None, "
                   "usedforsecurity: bool = True) -> None"),
           "customization: the customization string of a CXOF (at most 256 bytes for "
           "Ascon-CXOF128); other XOFs take none. usedforsecurity: accepted for hashlib "
           "compatibility and ignored.")
      .def("digest", [](xof_hash& s, nb::handle n) { return s.output(non_negative(n, "length"), false); },
           "length"_a.none(), nb::sig("def digest(self, length: int) -> bytes"),
           "The first `length` output bytes for the data so far; the object stays usable.")
      .def("hexdigest", [](xof_hash& s, nb::handle n) { return s.output(non_negative(n, "length"), true); },
           "length"_a.none(), nb::sig("def hexdigest(self, length: int) -> str"),
           "digest(length) as lowercase hex.")
      .def("read", &hash_read, "length"_a.none(), nb::sig("def read(self, length: int) -> bytes"),
           "The next `length` bytes of the output stream: consecutive reads continue where the "
           "last one stopped (read(a) + read(b) == digest(a + b)). update() is refused once "
           "reading has started.")
      .def("copy", &hash_copy<xof_hash>, nb::sig("def copy(self) -> Self"),
           "An independent copy of the current state (including the read() position).");

  nb::class_<mac_hash, fixed_hash>(m, "MAC",
                                   "A keyed hash object with a fixed-length tag: update(), "
                                   "digest(), hexdigest(), verify(tag).")
      .def("__init__",
           [](nb::pointer_and_handle<mac_hash> self, nb::handle key, nb::handle data) {
             keyed_init(self, key, data, "MAC");
           },
           "key"_a.none(), "data"_a.none() = nb::bytes(""),
           nb::sig("def __init__(self, key: Buffer, data: Buffer = b'') -> None"))
      .def("verify", [](mac_hash& s, nb::handle tag, nb::handle n) { hash_verify(s, tag, n); },
           "tag"_a.none(), nb::kw_only(), "tag_length"_a.none() = nb::none(),
           nb::sig("def verify(self, tag: Buffer, *, tag_length: int | None = None) -> None"),
           "Compares `tag` with the tag of the data so far in constant time; raises "
           "lwc.InvalidTag when they differ.\n\n"
           "The tag must be the full tag (digest_size bytes); a tag of any other length fails. "
           "A truncated tag (4 bytes up to the full tag, compared with the prefix) is accepted "
           "only when its length is named: verify(tag, tag_length=8).")
      .def("tag", [](mac_hash& s) { return s.output(s.alg->output_size, false); },
           nb::sig("def tag(self) -> bytes"), "The tag of the data so far (same as digest()).")
      .def("copy", &hash_copy<mac_hash>, nb::sig("def copy(self) -> Self"),
           "An independent copy of the current state.");

  nb::class_<prf_hash, xof_hash>(m, "PRF",
                                 "A keyed extendable-output function: update(), digest(length), "
                                 "read(n), verify(tag).")
      .def("__init__",
           [](nb::pointer_and_handle<prf_hash> self, nb::handle key, nb::handle data) {
             keyed_init(self, key, data, "PRF");
           },
           "key"_a.none(), "data"_a.none() = nb::bytes(""),
           nb::sig("def __init__(self, key: Buffer, data: Buffer = b'') -> None"))
      .def("verify", [](prf_hash& s, nb::handle tag, nb::handle n) { hash_verify(s, tag, n); },
           "tag"_a.none(), nb::kw_only(), "tag_length"_a.none() = nb::none(),
           nb::sig("def verify(self, tag: Buffer, *, tag_length: int | None = None) -> None"),
           "Compares `tag` with the first output bytes in constant time; raises lwc.InvalidTag "
           "when they differ.\n\n"
           "The tag must be the default tag length (16 bytes); a tag of any other length fails. "
           "Another length (4 to 64 bytes) is accepted only when it is named: "
           "verify(tag, tag_length=32).")
      .def("tag",
           [](prf_hash& s, nb::handle n) {
             return s.output(n.is_none() ? s.alg->output_size : non_negative(n, "length"), false);
           },
           "length"_a.none() = nb::none(), nb::sig("def tag(self, length: int | None = None) -> bytes"),
           "digest(length), by default of the algorithm's usual tag length (16 bytes).")
      .def("copy", &hash_copy<prf_hash>, nb::sig("def copy(self) -> Self"),
           "An independent copy of the current state.");

#if !defined(Py_LIMITED_API)
  m.def("_fast_constructor", &fast_constructor, "cls"_a,
        "Gives a class derived directly from Hash, XOF, MAC or PRF (with _lwc_algorithm set) a "
        "constructor that skips the generic type call; lwc/__init__.py calls it for its classes "
        "(absent from the stable-ABI module).");
#endif
}

}  // namespace lwc::python
