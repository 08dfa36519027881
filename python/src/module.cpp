// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc._lwc: the registry, one AEAD class and the hash-object classes (Hash, XOF, MAC, PRF).
// Each class takes its algorithm from the `_lwc_algorithm` attribute of the Python subclass it
// is instantiated through, so lwc/__init__.py only has to create one named subclass per
// registry entry. The whole per-call path (argument checks, allocation, the primitive) is in
// this file: a Python-level wrapper would cost more than encrypting 64 bytes. Inputs of
// gil_release_threshold bytes or more are processed with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/common/overlap.hpp>
#include <lwc/registry.hpp>
#if defined(LWC_HAVE_BATCH)
#include <lwc/batch.hpp>
#include <span>
#include <stdexcept>
#include <vector>
#endif
#if defined(LWC_HAVE_CUDA)
#include <nanobind/stl/pair.h>
#include <lwc/cuda.hpp>
#include <type_traits>
#include <utility>
#endif

#include "naming.hpp"
#include "size_math.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using lwc::python::checked_add;
using lwc::python::checked_mul;
using lwc::python::checked_py_size;

namespace {

// Below this many bytes, releasing and re-taking the GIL costs more than the work itself.
constexpr std::size_t gil_release_threshold = 4096;

constexpr std::size_t max_field(std::size_t lwc::algorithm::*field) {
  std::size_t m = 1;
  for (const lwc::algorithm& a : lwc::algorithms()) m = std::max(m, a.*field);
  return m;
}
constexpr std::size_t max_key_size = max_field(&lwc::algorithm::key_size);
constexpr std::size_t max_second_key_size = max_field(&lwc::algorithm::second_key_size);

PyObject* invalid_tag_type = nullptr;  // owned by the module

[[noreturn]] void raise_invalid_tag(const char* why) {
  PyErr_SetString(invalid_tag_type, why);
  throw nb::python_error();
}

std::string str(std::string_view s) { return std::string(s); }
std::string num(std::size_t n) { return std::to_string(n); }

[[noreturn]] void value_error(const std::string& msg) { throw nb::value_error(msg.c_str()); }
[[noreturn]] void type_error(const std::string& msg) { throw nb::type_error(msg.c_str()); }

template <class F>
decltype(auto) maybe_without_gil(std::size_t bytes, F&& f) {
  if (bytes >= gil_release_threshold) {
    nb::gil_scoped_release unlocked;
    return f();
  }
  return f();
}

// A read-only view of any C-contiguous buffer; bytes are read directly, the rest through the
// buffer protocol (held until the view dies, so a bytearray cannot be resized under us).
class readable {
 public:
  readable(nb::handle obj, const char* what, bool none_is_empty = false) {
    PyObject* o = obj.ptr();
    if (PyBytes_Check(o)) {
      data_ = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(o));
      size_ = static_cast<std::size_t>(PyBytes_GET_SIZE(o));
      return;
    }
    if (none_is_empty && o == Py_None) return;
    if (PyUnicode_Check(o))
      type_error(std::string(what) + " must be a bytes-like object, not 'str' (encode text first)");
    if (PyObject_GetBuffer(o, &view_, PyBUF_SIMPLE) != 0) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw nb::python_error();
      PyErr_Clear();
      type_error(std::string(what) + " must be a bytes-like object" +
                 (none_is_empty ? " or None" : "") + ", not '" + Py_TYPE(o)->tp_name + "'");
    }
    held_ = true;
    data_ = static_cast<const std::uint8_t*>(view_.buf);
    size_ = static_cast<std::size_t>(view_.len);
  }
  readable(const readable&) = delete;
  readable& operator=(const readable&) = delete;
  ~readable() {
    if (held_) PyBuffer_Release(&view_);
  }
  const std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  lwc::bytes_view view() const { return {data_, size_}; }

 private:
  Py_buffer view_{};
  bool held_ = false;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// A writable C-contiguous buffer (bytearray, memoryview, numpy array, ...).
class writable {
 public:
  writable(nb::handle obj, const char* what) {
    PyObject* o = obj.ptr();
    if (PyObject_GetBuffer(o, &view_, PyBUF_WRITABLE) != 0) {
      PyErr_Clear();  // replaced by a message that says what is expected
      Py_buffer probe{};
      const bool readonly = PyObject_GetBuffer(o, &probe, PyBUF_SIMPLE) == 0;
      if (readonly) PyBuffer_Release(&probe);
      PyErr_Clear();
      type_error(std::string(what) + " must be a writable contiguous buffer (bytearray, " +
                 "memoryview, numpy array), " +
                 (readonly ? "'" + std::string(Py_TYPE(o)->tp_name) + "' is read-only or not contiguous"
                           : "not '" + std::string(Py_TYPE(o)->tp_name) + "'"));
    }
    data_ = static_cast<std::uint8_t*>(view_.buf);
    size_ = static_cast<std::size_t>(view_.len);
  }
  writable(const writable&) = delete;
  writable& operator=(const writable&) = delete;
  ~writable() { PyBuffer_Release(&view_); }
  std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  Py_buffer view_{};
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// The output buffer of an *_into call may share memory with no input, except `data` starting
// exactly where the output starts (in-place). Associated data or a nonce inside the output would
// be overwritten while the algorithm still reads it (ISAP, Elephant and Romulus-T read the
// associated data after writing ciphertext), which gives ciphertexts that never decrypt.
void check_no_overlap(const std::string& alg, const std::uint8_t* out, std::size_t out_len,
                      const readable& nonce, const readable& data, const readable& ad) {
  if (lwc::ranges_overlap(out, out_len, nonce.data(), nonce.size()))
    value_error(alg + ": buf overlaps the nonce");
  if (lwc::ranges_overlap(out, out_len, ad.data(), ad.size()))
    value_error(alg + ": buf overlaps associated_data");
  if (lwc::bad_in_place(out, out_len, data.data(), data.size()))
    value_error(alg + ": buf partially overlaps data (only exact in-place use, buf starting where "
                      "data starts, is allowed)");
}

// A fresh bytes object of n bytes to be filled in place. n == 0 returns the shared empty
// bytes object, which is fine because nothing is then written to it.
nb::object new_bytes(std::size_t n, std::uint8_t*& out) {
  checked_py_size(n, "output");
  PyObject* b = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
  if (b == nullptr) throw nb::python_error();
  out = reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(b));
  return nb::steal(b);
}

nb::object hex_of(const std::uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  PyObject* s = PyUnicode_New(static_cast<Py_ssize_t>(checked_py_size(checked_mul(n, 2, "hex output"), "hex output")), 127);
  if (s == nullptr) throw nb::python_error();
  auto* d = static_cast<Py_UCS1*>(PyUnicode_1BYTE_DATA(s));
  for (std::size_t i = 0; i < n; ++i) {
    d[2 * i] = static_cast<Py_UCS1>(digits[p[i] >> 4]);
    d[2 * i + 1] = static_cast<Py_UCS1>(digits[p[i] & 15]);
  }
  return nb::steal(s);
}

std::size_t non_negative(nb::handle h, const char* what) {
  if (PyFloat_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    type_error(std::string(what) + " must be an int, not '" + Py_TYPE(h.ptr())->tp_name + "'");
  const Py_ssize_t v = PyNumber_AsSsize_t(h.ptr(), PyExc_OverflowError);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  if (v < 0) value_error(std::string(what) + " must be non-negative, got " + std::to_string(v));
  return static_cast<std::size_t>(v);
}

// The registry entry named by the `_lwc_algorithm` attribute of self's (Python) class.
const lwc::algorithm& algorithm_of_type(nb::handle type, const char* base = "Hash") {
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

const lwc::algorithm& algorithm_of(nb::handle self, const char* base) {
  return algorithm_of_type(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr()))), base);
}

// ---- AEAD ------------------------------------------------------------------------------------

struct aead_object {
  const lwc::algorithm* alg = nullptr;
  std::size_t tag_len = 0;
  bool masked = false;
  std::uint8_t key[max_key_size]{};
  std::uint8_t second_key[max_second_key_size]{};

  aead_object() = default;
  aead_object(const aead_object&) = delete;
  aead_object& operator=(const aead_object&) = delete;
  ~aead_object() {
    lwc::secure_wipe(key, sizeof key);
    lwc::secure_wipe(second_key, sizeof second_key);
  }
  const std::uint8_t* second() const { return masked ? second_key : nullptr; }

  void check_nonce(const readable& n) const {
    if (n.size() != alg->nonce_size)
      value_error(str(alg->name) + ": nonce must be " + num(alg->nonce_size) + " bytes, got " +
                  num(n.size()));
  }
};

void aead_init(nb::pointer_and_handle<aead_object> self, nb::handle key, nb::handle tag_length,
               nb::handle second_key) {
  const lwc::algorithm& a = algorithm_of(self.h, "AEAD");
  if (!a.is_aead()) type_error(str(a.name) + " is not an AEAD algorithm");
  readable k(key, "key");
  if (k.size() != a.key_size)
    value_error(str(a.name) + ": key must be " + num(a.key_size) + " bytes, got " + num(k.size()));
  std::size_t tag = a.tag_size;
  if (!tag_length.is_none()) {
    if (PyBool_Check(tag_length.ptr()) || !PyLong_Check(tag_length.ptr()))
      type_error(str(a.name) + ": tag_length must be an int, not '" +
                 Py_TYPE(tag_length.ptr())->tp_name + "'");
    int overflow = 0;
    const long long t = PyLong_AsLongLongAndOverflow(tag_length.ptr(), &overflow);
    if (overflow != 0 || t < static_cast<long long>(a.min_tag_size) ||
        t > static_cast<long long>(a.tag_size))
      value_error(str(a.name) + ": tag_length must be " +
                  (a.min_tag_size == a.tag_size ? num(a.tag_size)
                                                : num(a.min_tag_size) + " to " + num(a.tag_size)) +
                  " bytes, got " + (overflow ? std::string("a huge value") : std::to_string(t)));
    tag = static_cast<std::size_t>(t);
  }
  std::optional<readable> sk;
  if (!second_key.is_none()) {
    if (a.second_key_size == 0)
      type_error(str(a.name) + " does not support nonce masking (second_key)");
    sk.emplace(second_key, "second_key");
    if (sk->size() != a.second_key_size)
      value_error(str(a.name) + ": second_key must be " + num(a.second_key_size) +
                  " bytes, got " + num(sk->size()));
  }
  aead_object* o = new (self.p) aead_object();
  o->alg = &a;
  o->tag_len = tag;
  std::memcpy(o->key, k.data(), k.size());
  if (sk) {
    o->masked = true;
    std::memcpy(o->second_key, sk->data(), sk->size());
  }
}

nb::object aead_encrypt(const aead_object& s, nb::handle nonce, nb::handle data, nb::handle ad) {
  readable n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  s.check_nonce(n);
  std::uint8_t* o = nullptr;
  nb::object out = new_bytes(checked_add(d.size(), s.tag_len, "ciphertext"), o);
  maybe_without_gil(d.size() + a.size(), [&] {
    s.alg->encrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), d.size(), o,
                   o + d.size(), s.tag_len);
  });
  return out;
}

nb::object aead_decrypt(const aead_object& s, nb::handle nonce, nb::handle data, nb::handle ad) {
  readable n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  s.check_nonce(n);
  if (d.size() < s.tag_len) raise_invalid_tag("data is shorter than the tag");
  const std::size_t len = d.size() - s.tag_len;
  std::uint8_t* o = nullptr;
  nb::object out = new_bytes(len, o);
  const bool ok = maybe_without_gil(d.size() + a.size(), [&] {
    return s.alg->decrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), len,
                          d.data() + len, s.tag_len, o);
  });
  if (!ok) {
    out.reset();  // all zeros already; never handed out
    raise_invalid_tag("authentication failed");
  }
  return out;
}

std::size_t aead_encrypt_into(const aead_object& s, nb::handle nonce, nb::handle data,
                              nb::handle ad, nb::handle buf) {
  readable n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  writable b(buf, "buf");
  s.check_nonce(n);
  const std::size_t total = checked_add(d.size(), s.tag_len, "ciphertext");
  if (b.size() != total)
    value_error(str(s.alg->name) + ": buf must be " + num(total) +
                " bytes (len(data) + tag_size), got " + num(b.size()));
  check_no_overlap(str(s.alg->name), b.data(), b.size(), n, d, a);
  maybe_without_gil(d.size() + a.size(), [&] {
    s.alg->encrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), d.size(), b.data(),
                   b.data() + d.size(), s.tag_len);
  });
  return total;
}

std::size_t aead_decrypt_into(const aead_object& s, nb::handle nonce, nb::handle data,
                              nb::handle ad, nb::handle buf) {
  readable n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  writable b(buf, "buf");
  s.check_nonce(n);
  if (d.size() < s.tag_len) {
    lwc::secure_wipe(b.data(), b.size());
    raise_invalid_tag("data is shorter than the tag");
  }
  const std::size_t len = d.size() - s.tag_len;
  if (b.size() != len)
    value_error(str(s.alg->name) + ": buf must be " + num(len) +
                " bytes (len(data) - tag_size), got " + num(b.size()));
  check_no_overlap(str(s.alg->name), b.data(), b.size(), n, d, a);
  // The plaintext is produced in private memory and copied into buf only once the tag has
  // verified, with the GIL held: another thread reading buf while the GIL is released during
  // decryption never sees unverified plaintext.
  std::vector<std::uint8_t> plain(len);
  const bool ok = maybe_without_gil(d.size() + a.size(), [&] {
    return s.alg->decrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), len,
                          d.data() + len, s.tag_len, plain.data());
  });
  if (!ok) {
    lwc::secure_wipe(b.data(), b.size());
    raise_invalid_tag("authentication failed");
  }
  if (len != 0) std::memcpy(b.data(), plain.data(), len);
  lwc::secure_wipe(plain.data(), plain.size());
  return len;
}

// ---- hash objects ----------------------------------------------------------------------------

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

void check_input_size(const lwc::algorithm& a, std::size_t n) {
  if (n > a.max_input_size)
    value_error(str(a.name) + ": input must be at most " + num(a.max_input_size) + " bytes, got " +
                num(n));
}

template <class T>
void hash_construct(T* at, const lwc::algorithm& a, nb::handle data, nb::handle customization) {
  readable d(data, "data");
  readable c(customization, "customization", true);
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
  readable k(key, "key"), d(data, "data");
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
  readable d(data, "data");
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

// The tag length a verifier expects: the algorithm's full tag unless the caller names a shorter
// (or, for a PRF, longer) one with tag_length=. Never taken from the tag being checked: a
// forger could otherwise send a 4-byte prefix and win with probability 2^-32.
std::size_t verify_tag_length(const lwc::algorithm& a, nb::handle tag_length) {
  if (tag_length.is_none()) return a.output_size;
  const std::size_t max = a.max_output_size ? a.max_output_size : 64;
  if (PyBool_Check(tag_length.ptr()) || !PyLong_Check(tag_length.ptr()))
    type_error(str(a.name) + ": tag_length must be an int, not '" +
               Py_TYPE(tag_length.ptr())->tp_name + "'");
  int overflow = 0;
  const long long t = PyLong_AsLongLongAndOverflow(tag_length.ptr(), &overflow);
  if (overflow != 0 || t < static_cast<long long>(a.min_tag_size) || t > static_cast<long long>(max))
    value_error(str(a.name) + ": tag_length must be " + num(a.min_tag_size) + " to " + num(max) +
                " bytes, got " + (overflow ? std::string("a huge value") : std::to_string(t)));
  return static_cast<std::size_t>(t);
}

// A tag of another length than the configured one fails like a wrong tag.
bool tag_matches(lwc::hasher& h, const readable& tag, std::size_t expected_len) {
  if (tag.size() != expected_len) return false;
  return h.verify_truncated(tag.view());  // its length is the configured one, checked above
}

void hash_verify(hash_object& s, nb::handle tag, nb::handle tag_length) {
  const std::size_t expected = verify_tag_length(*s.alg, tag_length);
  readable t(tag, "tag");
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

std::size_t digest_size_of(const lwc::algorithm& a) {
  return a.max_output_size != 0 ? a.output_size : 0;  // 0 for extendable output, as hashlib's shake
}

// ---- one-shot functions ----------------------------------------------------------------------
// lwc.<name>_digest(...) -> bytes for every hash, XOF, CXOF, MAC and PRF, and
// lwc.<name>_verify(key, data, tag) for the MACs and PRFs: the state lives on the stack and
// the output is squeezed straight into the returned bytes object. They are plain CPython
// METH_FASTCALL functions whose `self` is a capsule holding the registry entry: the call
// costs about what hashlib's does, no object is created and nothing is copied.

enum class oneshot_op { digest, verify };

// The parameters of a one-shot function, in order; the first `positional_only` are
// positional only, those from `keyword_only` on keyword only.
struct oneshot_params {
  const char* names[4];
  std::size_t count, positional_only, keyword_only, required;
};

oneshot_params params_of(const lwc::algorithm& a, oneshot_op op) {
  if (op == oneshot_op::verify) return {{"key", "data", "tag", "tag_length"}, 4, 3, 3, 3};
  switch (a.kind) {
    case lwc::algorithm_kind::hash: return {{"data"}, 1, 1, 1, 1};
    case lwc::algorithm_kind::xof: return {{"data", "length"}, 2, 1, 2, 1};
    case lwc::algorithm_kind::cxof: return {{"data", "length", "customization"}, 3, 1, 2, 1};
    case lwc::algorithm_kind::mac: return {{"key", "data"}, 2, 2, 2, 2};
    default: return {{"key", "data", "length"}, 3, 2, 3, 2};  // prf
  }
}

// Puts the arguments of a vectorcall into `out` by parameter (null where not given).
std::string oneshot_name(const lwc::algorithm& a, oneshot_op op) {
  return lwc::python::function_name(a.name) + (op == oneshot_op::digest ? "_digest" : "_verify");
}

// `fn` gives the function's name, for messages only.
template <class Name>
void bind_arguments(Name fn, const oneshot_params& p, PyObject* const* args, Py_ssize_t nargs,
                    PyObject* kwnames, PyObject** out) {
  for (std::size_t i = 0; i < p.count; ++i) out[i] = nullptr;
  if (static_cast<std::size_t>(nargs) > p.keyword_only)
    type_error(fn() + "() takes at most " + num(p.keyword_only) +
               " positional arguments (" + num(static_cast<std::size_t>(nargs)) + " given)");
  for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
  const Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    const char* kw = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
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

template <oneshot_op Op>
PyObject* oneshot(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) noexcept {
  try {
    const auto& a = *static_cast<const lwc::algorithm*>(PyCapsule_GetPointer(self, nullptr));
    const oneshot_params p = params_of(a, Op);
    PyObject* in[4];
    bind_arguments([&] { return oneshot_name(a, Op); }, p, args, PyVectorcall_NARGS(nargsf), kwnames, in);
    const bool keyed = a.is_keyed();
    std::optional<readable> key;
    if (keyed) {
      key.emplace(in[0], "key");
      if (key->size() != a.key_size)
        value_error(str(a.name) + ": key must be " + num(a.key_size) + " bytes, got " + num(key->size()));
    }
    const readable data(in[keyed ? 1 : 0], "data");
    check_input_size(a, data.size());
    std::optional<readable> custom;
    if (a.kind == lwc::algorithm_kind::cxof && in[2] != nullptr && in[2] != Py_None) {
      custom.emplace(in[2], "customization");
      if (custom->size() > a.max_customization_size)
        value_error(str(a.name) + ": customization must be at most " +
                    num(a.max_customization_size) + " bytes, got " + num(custom->size()));
    }
    if constexpr (Op == oneshot_op::verify) {
      const std::size_t expected = verify_tag_length(a, in[3] != nullptr ? in[3] : Py_None);
      const readable tag(in[2], "tag");
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

std::string oneshot_doc(const lwc::algorithm& a, oneshot_op op) {
  const std::string fn = lwc::python::function_name(a.name);
  const std::string cls = "lwc." + fn;
  const oneshot_params p = params_of(a, op);
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

// ---- fast constructors -----------------------------------------------------------------------
// Calling a class that lwc/__init__.py derived from Hash, XOF, MAC or PRF goes through CPython's
// generic type call (tp_new, then __init__ looked up by name and called with an argument
// tuple), which costs about as much as hashing 64 bytes. fast_constructor() gives those
// classes a vectorcall of their own that allocates the instance and constructs it in one step,
// with the same arguments and checks as __init__. Classes derived from them by users keep the
// generic path.

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
    constexpr oneshot_params p =
        keyed ? oneshot_params{{"key", "data"}, 2, 0, 2, 1}
              : std::is_same_v<T, fixed_hash>
                    ? oneshot_params{{"data", "usedforsecurity"}, 2, 0, 1, 0}
                    : oneshot_params{{"data", "customization", "usedforsecurity"}, 3, 0, 1, 0};
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


#if defined(LWC_HAVE_BATCH)
// ---- lwc.batch: the CPU batch engine ------------------------------------------------------
// Array input: the Python layer (lwc/batch.py) hands over messages back to back with uint64
// offsets; here they become one job list, and the engine runs with the GIL released. List
// input: batch_lists.cpp; Arrow columns (lwc.arrow): arrow_columns.cpp.

namespace lwc::python {
void register_batch_lists(nb::module_& m);
void register_arrow_columns(nb::module_& m);
}

std::span<const std::uint64_t> offsets_of(const readable& buf, std::size_t& count, const char* what) {
  if (buf.size() % sizeof(std::uint64_t) != 0 || buf.size() < sizeof(std::uint64_t) ||
      reinterpret_cast<std::uintptr_t>(buf.data()) % alignof(std::uint64_t) != 0)
    value_error(std::string(what) + " must be an aligned array of uint64 offsets");
  const auto* p = reinterpret_cast<const std::uint64_t*>(buf.data());
  count = buf.size() / sizeof(std::uint64_t) - 1;
  return {p, count + 1};
}

void check_offsets(std::span<const std::uint64_t> off, std::size_t data_size, const char* what) {
  for (std::size_t i = 0; i + 1 < off.size(); ++i)
    if (off[i] > off[i + 1]) value_error(std::string(what) + " offsets must not decrease");
  if (off.back() > data_size) value_error(std::string(what) + " offsets run past the data");
}

lwc::batch::options batch_options(nb::handle threads, nb::handle backend, std::string& backend_name) {
  lwc::batch::options opt;
  if (!threads.is_none()) opt.threads = nb::cast<unsigned>(threads);
  if (!backend.is_none()) {
    backend_name = nb::cast<std::string>(backend);
    opt.backend = backend_name;
  }
  return opt;
}

// Encrypt: returns ciphertext || tag for every job, back to back (job i starts at
// offsets[i] + i * tag_len). Decrypt (data holds ciphertext || tag per job): returns the
// plaintexts back to back (job i at offsets[i] - i * tag_len) and one ok byte per job.
nb::tuple batch_aead(bool decrypt, const std::string& name, nb::handle keys_obj,
                     nb::handle nonces_obj, nb::handle data_obj, nb::handle offsets_obj,
                     nb::handle ad_obj, nb::handle ad_offsets_obj, nb::handle second_obj,
                     std::size_t tag_len, nb::handle threads, nb::handle backend) {
  const lwc::algorithm* a = lwc::find_algorithm(name);
  if (a == nullptr || !a->is_aead()) value_error("unknown AEAD algorithm '" + name + "'");
  if (!lwc::batch::supports(name))
    value_error("the batch engine does not run " + name + " (batch algorithms: see lwc.batch.algorithms())");
  const readable keys(keys_obj, "keys"), nonces(nonces_obj, "nonces"), data(data_obj, "messages"),
      offsets(offsets_obj, "offsets"), ad(ad_obj, "associated_data", true),
      ad_offsets(ad_offsets_obj, "associated_data offsets", true),
      second(second_obj, "second_keys", true);
  std::size_t n = 0, n_ad = 0;
  const auto off = offsets_of(offsets, n, "message");
  check_offsets(off, data.size(), "message");
  std::span<const std::uint64_t> ad_off;
  if (ad_offsets.size() != 0) {
    ad_off = offsets_of(ad_offsets, n_ad, "associated_data");
    if (n_ad != n) value_error("associated_data: " + num(n_ad) + " entries for " + num(n) + " messages");
    check_offsets(ad_off, ad.size(), "associated_data");
  }
  if (keys.size() != checked_mul(n, a->key_size, "keys"))
    value_error("keys: expected " + num(n) + " keys of " + num(a->key_size) + " bytes");
  if (nonces.size() != checked_mul(n, a->nonce_size, "nonces"))
    value_error("nonces: expected " + num(n) + " nonces of " + num(a->nonce_size) + " bytes");
  if (second.size() != 0 && second.size() != checked_mul(n, a->second_key_size, "second_keys"))
    value_error("second_keys: expected " + num(n) + " keys of " + num(a->second_key_size) + " bytes");
  if (tag_len < a->min_tag_size || tag_len > a->tag_size)
    value_error(name + ": tag length " + num(tag_len) + " outside " + num(a->min_tag_size) + ".." +
                num(a->tag_size));
  std::size_t total = static_cast<std::size_t>(off.back() - off.front());
  const std::size_t all_tags = checked_mul(n, tag_len, "tags");
  if (decrypt) {
    for (std::size_t i = 0; i < n; ++i)
      if (off[i + 1] - off[i] < tag_len)
        value_error("ciphertext " + num(i) + " is shorter than the " + num(tag_len) + "-byte tag");
    total -= all_tags;  // cannot wrap: every job holds at least its tag
  } else {
    total = checked_add(total, all_tags, "ciphertexts");
  }
  std::uint8_t* out = nullptr;
  nb::object out_obj = new_bytes(total, out);
  std::uint8_t* ok = nullptr;
  nb::object ok_obj = decrypt ? new_bytes(n, ok) : nb::none();
  std::string backend_name;
  const lwc::batch::options opt = batch_options(threads, backend, backend_name);

  std::vector<lwc::batch::aead_job> jobs(n);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t len = static_cast<std::size_t>(off[i + 1] - off[i]);
    const std::uint8_t* in = data.data() + off[i];
    auto& j = jobs[i];
    j.key = {keys.data() + i * a->key_size, a->key_size};
    j.nonce = {nonces.data() + i * a->nonce_size, a->nonce_size};
    if (!ad_off.empty()) j.ad = {ad.data() + ad_off[i], static_cast<std::size_t>(ad_off[i + 1] - ad_off[i])};
    if (second.size() != 0) j.second_key = {second.data() + i * a->second_key_size, a->second_key_size};
    if (decrypt) {
      j.in = {in, len - tag_len};
      j.tag = {const_cast<std::uint8_t*>(in) + len - tag_len, tag_len};  // read only when decrypting
      j.out = {out + pos, len - tag_len};
      pos += len - tag_len;
    } else {
      j.in = {in, len};
      j.out = {out + pos, len};
      j.tag = {out + pos + len, tag_len};
      pos += len + tag_len;
    }
  }
  try {
    nb::gil_scoped_release unlocked;
    if (decrypt)
      (void)lwc::batch::decrypt(name, jobs, {ok, n}, tag_len, opt);
    else
      lwc::batch::encrypt(name, jobs, tag_len, opt);
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
  return nb::make_tuple(out_obj, ok_obj);
}

// The optional per-job keys (MACs, PRFs) and customization strings (CXOFs) of a hash batch,
// as the engines' packed form; sizes are checked by the engines (lwc::jobs::checks).
struct hash_extras {
  readable keys, custom, custom_offsets;
  std::vector<std::size_t> custom_off;
  hash_extras(nb::handle keys_obj, nb::handle custom_obj, nb::handle custom_offsets_obj, std::size_t n)
      : keys(keys_obj, "keys", true),
        custom(custom_obj, "customization", true),
        custom_offsets(custom_offsets_obj, "customization offsets", true) {
    if (custom_offsets.size() == 0) return;
    std::size_t m = 0;
    const auto off = offsets_of(custom_offsets, m, "customization");
    if (m != n) value_error("customization: " + num(m) + " entries for " + num(n) + " messages");
    check_offsets(off, custom.size(), "customization");
    custom_off.assign(off.begin(), off.end());
  }
  lwc::jobs::packed_hash_inputs inputs(lwc::jobs::packed messages) const {
    lwc::jobs::packed_hash_inputs in(messages, keys.view());
    if (!custom_off.empty()) in.customization = {custom.view(), custom_off};
    return in;
  }
};

nb::object batch_hash(const std::string& name, nb::handle data_obj, nb::handle offsets_obj,
                      std::size_t out_len, nb::handle keys_obj, nb::handle custom_obj,
                      nb::handle custom_offsets_obj, nb::handle threads, nb::handle backend) {
  if (!lwc::batch::supports(name))
    value_error("the batch engine does not run '" + name + "' (batch algorithms: see lwc.batch.algorithms())");
  const readable data(data_obj, "messages"), offsets(offsets_obj, "offsets");
  std::size_t n = 0;
  const auto off = offsets_of(offsets, n, "message");
  check_offsets(off, data.size(), "message");
  const hash_extras extras(keys_obj, custom_obj, custom_offsets_obj, n);
  const std::size_t out_size = checked_mul(n, out_len, "digests");
  std::uint8_t* out = nullptr;
  nb::object out_obj = new_bytes(out_size, out);
  std::string backend_name;
  const lwc::batch::options opt = batch_options(threads, backend, backend_name);
  try {
    nb::gil_scoped_release unlocked;
    lwc::batch::hash_packed(name, extras.inputs({data.view(), off}), {out, out_size}, out_len, opt);
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
  return out_obj;
}

void register_batch(nb::module_& m) {
  lwc::python::register_batch_lists(m);
  lwc::python::register_arrow_columns(m);
  m.def("_batch_aead", &batch_aead, "decrypt"_a, "name"_a, "keys"_a.none(), "nonces"_a.none(),
        "data"_a.none(), "offsets"_a.none(), "ad"_a.none(), "ad_offsets"_a.none(),
        "second_keys"_a.none(), "tag_len"_a, "threads"_a.none(), "backend"_a.none());
  m.def("_batch_hash", &batch_hash, "name"_a, "data"_a.none(), "offsets"_a.none(), "out_len"_a,
        "keys"_a.none() = nb::none(), "customization"_a.none() = nb::none(),
        "customization_offsets"_a.none() = nb::none(), "threads"_a.none() = nb::none(),
        "backend"_a.none() = nb::none());
  m.def("_batch_algorithms", [] {
    nb::list l;
    for (auto n : lwc::batch::algorithms()) l.append(nb::str(n.data(), n.size()));
    return l;
  });
  m.def("_batch_backends", [] {
    nb::list l;
    for (auto n : lwc::batch::available_backends()) l.append(nb::str(n.data(), n.size()));
    return l;
  });
  m.def("_batch_default_backend", [] {
    const auto b = lwc::batch::default_backend();
    return nb::str(b.data(), b.size());
  });
  m.def("_batch_lanes", [](const std::string& b) { return lwc::batch::lanes(b); });
  m.def("_batch_has_lanes", [](const std::string& alg, const std::string& backend) {
    if (!lwc::batch::supports(alg))
      value_error("unknown algorithm '" + alg + "' (see lwc.batch.algorithms())");
    if (lwc::batch::lanes(backend) == 0)
      value_error("backend '" + backend + "' is not available in this build on this CPU (see lwc.batch.backends())");
    return lwc::batch::has_lanes(alg, backend);
  });
}
#endif  // LWC_HAVE_BATCH

#if defined(LWC_HAVE_CUDA)
#if !defined(LWC_HAVE_BATCH)
#error "the CUDA part of lwc.batch shares the batch helpers: build it with lwc_batch"
#endif
// ---- lwc.batch(device="cuda"): the CUDA engine ----------------------------------------------
// Host memory: lwc::cuda's host API (pinned staging, copies overlapping the kernels) on the
// packed buffers of lwc/batch.py, tags apart from the messages. Device memory: the
// Python layer (lwc/_cuda_arrays.py) allocates every array with the caller's array library
// and hands over (address, size) pairs; the work is queued on the given stream and nothing
// waits for it. lwc::cuda checks the sizes; no_device and other CUDA failures become
// RuntimeError with lwc::cuda's message.

// lwc::cuda takes std::size_t offsets, Python hands over uint64 arrays: the same type on every
// platform CUDA supports (64-bit Linux and Windows).
static_assert(std::is_same_v<std::size_t, std::uint64_t>, "offsets are passed as uint64 arrays");

template <class F>
void run_cuda(F&& f) {
  try {
    nb::gil_scoped_release unlocked;
    f();
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  } catch (const lwc::cuda::error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    throw nb::python_error();
  }
}

void require_cuda_algorithm(const std::string& name) {
  if (!lwc::cuda::supports(name))
    value_error("the CUDA engine does not run '" + name + "' (see lwc.batch.cuda_algorithms())");
}

// Host memory, lwc::cuda's packed form as it is. Encrypting returns (ciphertexts, tags):
// ciphertext i at the message's offsets, tag i at i * tag_len. Decrypting takes the tags apart
// from the ciphertexts and returns (plaintexts at the ciphertexts' offsets, one ok byte per job).
nb::tuple cuda_aead(bool decrypt, const std::string& name, nb::handle keys_obj, nb::handle nonces_obj,
                    nb::handle data_obj, nb::handle offsets_obj, nb::handle ad_obj,
                    nb::handle ad_offsets_obj, nb::handle second_obj, nb::handle tags_obj,
                    std::size_t tag_len) {
  const lwc::algorithm* a = lwc::find_algorithm(name);
  if (a == nullptr || !a->is_aead()) value_error("unknown AEAD algorithm '" + name + "'");
  require_cuda_algorithm(name);
  const readable keys(keys_obj, "keys"), nonces(nonces_obj, "nonces"), data(data_obj, "messages"),
      offsets(offsets_obj, "offsets"), ad(ad_obj, "associated_data", true),
      ad_offsets(ad_offsets_obj, "associated_data offsets", true),
      second(second_obj, "second_keys", true), tags_in(tags_obj, "tags", true);
  std::size_t n = 0, n_ad = 0;
  const auto off = offsets_of(offsets, n, "message");
  check_offsets(off, data.size(), "message");
  lwc::batch::packed_aead_inputs in{keys.view(), nonces.view(), {data.view(), off}, {}, second.view()};
  if (ad_offsets.size() != 0) {
    const auto ad_off = offsets_of(ad_offsets, n_ad, "associated_data");
    if (n_ad != n) value_error("associated_data: " + num(n_ad) + " entries for " + num(n) + " messages");
    check_offsets(ad_off, ad.size(), "associated_data");
    in.ad = {ad.view(), ad_off};
  }
  const std::size_t out_size = off.back();
  std::uint8_t* out = nullptr;
  nb::object out_obj = new_bytes(out_size, out);
  std::uint8_t* extra = nullptr;  // the tags (encrypt) or the ok bytes (decrypt)
  const std::size_t all_tags = checked_mul(n, tag_len, "tags");
  nb::object extra_obj = new_bytes(decrypt ? n : all_tags, extra);
  run_cuda([&] {
    if (decrypt)
      (void)lwc::cuda::decrypt_packed(name, in, tags_in.view(), {out, out_size}, {extra, n}, tag_len);
    else
      lwc::cuda::encrypt_packed(name, in, {out, out_size}, {extra, all_tags}, tag_len);
  });
  return nb::make_tuple(out_obj, extra_obj);
}

nb::object cuda_hash(const std::string& name, nb::handle data_obj, nb::handle offsets_obj,
                     std::size_t out_len, nb::handle keys_obj, nb::handle custom_obj,
                     nb::handle custom_offsets_obj) {
  require_cuda_algorithm(name);
  const readable data(data_obj, "messages"), offsets(offsets_obj, "offsets");
  std::size_t n = 0;
  const auto off = offsets_of(offsets, n, "message");
  check_offsets(off, data.size(), "message");
  const hash_extras extras(keys_obj, custom_obj, custom_offsets_obj, n);
  const std::size_t out_size = checked_mul(n, out_len, "digests");
  std::uint8_t* out = nullptr;
  nb::object out_obj = new_bytes(out_size, out);
  run_cuda([&] {
    lwc::cuda::hash_packed(name, extras.inputs({data.view(), off}), {out, out_size}, out_len);
  });
  return out_obj;
}

// (device address, bytes) of an array, or (device address, entries) of an offsets array;
// (0, 0) for an absent one.
using device_span = std::pair<std::uintptr_t, std::size_t>;

template <class T>
std::span<T> on_device(const device_span& s) {
  return {reinterpret_cast<T*>(s.first), s.second};
}

void cuda_aead_async(bool decrypt, const std::string& name, device_span keys, device_span nonces,
                     device_span data, device_span offsets, device_span ad, device_span ad_offsets,
                     device_span second_keys, device_span out, device_span tags, device_span ok,
                     std::size_t tag_len, std::uintptr_t stream) {
  require_cuda_algorithm(name);
  const lwc::batch::packed_aead_inputs in{
      on_device<const std::uint8_t>(keys), on_device<const std::uint8_t>(nonces),
      {on_device<const std::uint8_t>(data), on_device<const std::size_t>(offsets)},
      {on_device<const std::uint8_t>(ad), on_device<const std::size_t>(ad_offsets)},
      on_device<const std::uint8_t>(second_keys)};
  const auto s = reinterpret_cast<lwc::cuda::stream_t>(stream);
  run_cuda([&] {
    if (decrypt)
      lwc::cuda::decrypt_packed_async(name, in, on_device<const std::uint8_t>(tags),
                                      on_device<std::uint8_t>(out), on_device<std::uint8_t>(ok),
                                      tag_len, s);
    else
      lwc::cuda::encrypt_packed_async(name, in, on_device<std::uint8_t>(out),
                                      on_device<std::uint8_t>(tags), tag_len, s);
  });
}

void cuda_hash_async(const std::string& name, device_span data, device_span offsets, device_span out,
                     std::size_t out_len, std::uintptr_t stream) {
  require_cuda_algorithm(name);
  run_cuda([&] {
    lwc::cuda::hash_packed_async(name, {on_device<const std::uint8_t>(data), on_device<const std::size_t>(offsets)},
                                 on_device<std::uint8_t>(out), out_len,
                                 reinterpret_cast<lwc::cuda::stream_t>(stream));
  });
}

void register_cuda(nb::module_& m) {
  m.def("_cuda_aead", &cuda_aead, "decrypt"_a, "name"_a, "keys"_a.none(), "nonces"_a.none(),
        "data"_a.none(), "offsets"_a.none(), "ad"_a.none(), "ad_offsets"_a.none(),
        "second_keys"_a.none(), "tags"_a.none(), "tag_len"_a);
  m.def("_cuda_hash", &cuda_hash, "name"_a, "data"_a.none(), "offsets"_a.none(), "out_len"_a,
        "keys"_a.none() = nb::none(), "customization"_a.none() = nb::none(),
        "customization_offsets"_a.none() = nb::none());
  m.def("_cuda_aead_async", &cuda_aead_async, "decrypt"_a, "name"_a, "keys"_a, "nonces"_a,
        "data"_a, "offsets"_a, "ad"_a, "ad_offsets"_a, "second_keys"_a, "out"_a, "tags"_a, "ok"_a,
        "tag_len"_a, "stream"_a);
  m.def("_cuda_hash_async", &cuda_hash_async, "name"_a, "data"_a, "offsets"_a, "out"_a,
        "out_len"_a, "stream"_a);
  m.def("_cuda_algorithms", [] {
    nb::list l;
    for (auto n : lwc::cuda::algorithms()) l.append(nb::str(n.data(), n.size()));
    return l;
  });
  m.def("_cuda_devices", [] {
    nb::list l;
    for (int i = 0; i < lwc::cuda::device_count(); ++i) l.append(lwc::cuda::device_description(i));
    return l;
  });
  // Empty when a device can be used, else lwc::cuda's reason (no driver, no GPU, driver too old).
  m.def("_cuda_unavailable_reason", []() -> std::string {
    if (lwc::cuda::available()) return {};
    try {
      (void)lwc::cuda::device_description();
    } catch (const lwc::cuda::error& e) {
      return e.what();
    }
    return "lwc::cuda: no CUDA device is available";
  });
}
#endif  // LWC_HAVE_CUDA

void register_stream(nb::module_& m);  // stream.cpp: lwc.stream's compiled side
NB_MODULE(_lwc, m) {
  m.doc() = "lwc's compiled core: the algorithm registry, AEAD and hash-object base classes.";
  m.attr("GIL_RELEASE_THRESHOLD") = gil_release_threshold;
#if defined(LWC_HAVE_BATCH)
  register_batch(m);
#endif
#if defined(LWC_HAVE_CUDA)
  register_cuda(m);
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

  register_oneshots(m);
  m.def("_fast_constructor", &fast_constructor, "cls"_a,
        "Gives a class derived directly from Hash, XOF, MAC or PRF (with _lwc_algorithm set) a "
        "constructor that skips the generic type call; lwc/__init__.py calls it for its classes.");

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

  nb::class_<aead_object>(m, "AEAD",
                          "Authenticated encryption with associated data, one subclass per "
                          "registered AEAD (lwc.AsconAEAD128, lwc.Ascon128, ...).\n\n"
                          "Never encrypt two messages with the same key and nonce.")
      .def("__init__", &aead_init, "key"_a.none(), "tag_length"_a.none() = nb::none(), nb::kw_only(),
           "second_key"_a.none() = nb::none(),
           nb::sig("def __init__(self, key: Buffer, tag_length: int | None = None, *, "
                   "second_key: Buffer | None = None) -> None"),
           "Keeps a copy of `key` (wiped when the object is released).\n\n"
           "tag_length: tag size in bytes (default and maximum: tag_size; the shortest allowed "
           "is the class's min_tag_size).\n"
           "second_key: nonce-masking key (Ascon-AEAD128 only): the nonce is XORed with it.\n"
           "Raises ValueError naming the expected size when a size is wrong.")
      .def("encrypt", &aead_encrypt, "nonce"_a.none(), "data"_a.none(), "associated_data"_a.none() = nb::none(),
           nb::sig("def encrypt(self, nonce: Buffer, data: Buffer, "
                   "associated_data: Buffer | None = None) -> bytes"),
           "Encrypts and authenticates `data`, authenticates `associated_data`; returns "
           "ciphertext || tag (len(data) + tag_size bytes).\n\n"
           "The nonce must never repeat under one key.")
      .def("decrypt", &aead_decrypt, "nonce"_a.none(), "data"_a.none(), "associated_data"_a.none() = nb::none(),
           nb::sig("def decrypt(self, nonce: Buffer, data: Buffer, "
                   "associated_data: Buffer | None = None) -> bytes"),
           "Verifies and decrypts ciphertext || tag; returns the plaintext.\n\n"
           "Raises lwc.InvalidTag (and returns nothing) when the tag does not verify or `data` "
           "is shorter than the tag.")
      .def("encrypt_into", &aead_encrypt_into, "nonce"_a.none(), "data"_a.none(), "associated_data"_a.none(), "buf"_a.none(),
           nb::sig("def encrypt_into(self, nonce: Buffer, data: Buffer, "
                   "associated_data: Buffer | None, buf: Buffer) -> int"),
           "Like encrypt(), writing ciphertext || tag into `buf`, which must be exactly "
           "len(data) + tag_size bytes long; returns that length. `buf` may start at `data` "
           "(in-place encryption) but may share no other memory with `data`, the nonce or "
           "`associated_data` (ValueError).")
      .def("decrypt_into", &aead_decrypt_into, "nonce"_a.none(), "data"_a.none(), "associated_data"_a.none(), "buf"_a.none(),
           nb::sig("def decrypt_into(self, nonce: Buffer, data: Buffer, "
                   "associated_data: Buffer | None, buf: Buffer) -> int"),
           "Like decrypt(), writing the plaintext into `buf`, which must be exactly "
           "len(data) - tag_size bytes long; returns that length. `buf` may start at `data` "
           "(in-place decryption) but may share no other memory with `data`, the nonce or "
           "`associated_data` (ValueError).\n\n"
           "The plaintext is decrypted into private memory and copied into `buf` only after the "
           "tag verified, so no unverified plaintext is ever written to `buf`, not even for a "
           "moment that another thread could observe. On lwc.InvalidTag, `buf` is all zeros.")
      .def_prop_ro("_tag_length", [](const aead_object& s) { return s.tag_len; })
      .def_prop_ro("name", [](const aead_object& s) { return str(s.alg->name); },
                   "The registry name, e.g. 'ascon-aead128'.")
      .def_prop_ro("key_size", [](const aead_object& s) { return s.alg->key_size; })
      .def_prop_ro("nonce_size", [](const aead_object& s) { return s.alg->nonce_size; })
      .def("__repr__", [](nb::handle self) {
        const aead_object& s = *nb::inst_ptr<aead_object>(self);
        return nb::str("<lwc.{}(tag_length={})>")
            .format(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(self.ptr()))).attr("__name__"),
                    s.tag_len);
      });

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
}
