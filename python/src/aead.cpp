// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.AEAD: one class for every registered AEAD. It takes its algorithm from the
// `_lwc_algorithm` attribute of the named subclass (lwc.AsconAEAD128, ...) that lwc/__init__.py
// creates per registry entry, keeps a copy of the key (wiped with the object) and encrypts
// straight into the returned bytes object.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <lwc/common/overlap.hpp>
#include <lwc/registry.hpp>

#include "common.hpp"
#include "objects.hpp"

namespace lwc::python {
namespace {

using namespace nb::literals;

constexpr std::size_t max_field(std::size_t lwc::algorithm::*field) {
  std::size_t m = 1;
  for (const lwc::algorithm& a : lwc::algorithms()) m = std::max(m, a.*field);
  return m;
}
constexpr std::size_t max_key_size = max_field(&lwc::algorithm::key_size);
constexpr std::size_t max_second_key_size = max_field(&lwc::algorithm::second_key_size);

// The output buffer of an *_into call may share memory with no input, except `data` starting
// exactly where the output starts (in-place). Associated data or a nonce inside the output would
// be overwritten while the algorithm still reads it (ISAP, Elephant and Romulus-T read the
// associated data after writing ciphertext), which gives ciphertexts that never decrypt.
void check_no_overlap(const std::string& alg, const std::uint8_t* out, std::size_t out_len,
                      const held_buffer& nonce, const held_buffer& data, const held_buffer& ad) {
  if (lwc::ranges_overlap(out, out_len, nonce.data(), nonce.size()))
    value_error(alg + ": buf overlaps the nonce");
  if (lwc::ranges_overlap(out, out_len, ad.data(), ad.size()))
    value_error(alg + ": buf overlaps associated_data");
  if (lwc::bad_in_place(out, out_len, data.data(), data.size()))
    value_error(alg + ": buf partially overlaps data (only exact in-place use, buf starting where "
                      "data starts, is allowed)");
}

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

  void check_nonce(const held_buffer& n) const {
    if (n.size() != alg->nonce_size)
      value_error(str(alg->name) + ": nonce must be " + num(alg->nonce_size) + " bytes, got " +
                  num(n.size()));
  }
};

void aead_init(nb::pointer_and_handle<aead_object> self, nb::handle key, nb::handle tag_length,
               nb::handle second_key) {
  const lwc::algorithm& a = algorithm_of(self.h, "AEAD");
  if (!a.is_aead()) type_error(str(a.name) + " is not an AEAD algorithm");
  held_buffer k(key, "key");
  if (k.size() != a.key_size)
    value_error(str(a.name) + ": key must be " + num(a.key_size) + " bytes, got " + num(k.size()));
  std::size_t tag = a.tag_size;
  if (!tag_length.is_none()) {
    if (PyBool_Check(tag_length.ptr()) || !PyLong_Check(tag_length.ptr()))
      type_error(str(a.name) + ": tag_length must be an int, not '" +
                 cpy::type_name(tag_length.ptr()) + "'");
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
  std::optional<held_buffer> sk;
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
  held_buffer n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
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
  held_buffer n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
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
  held_buffer n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  held_buffer b(buf, "buf", false, held_buffer::writable);
  s.check_nonce(n);
  const std::size_t total = checked_add(d.size(), s.tag_len, "ciphertext");
  if (b.size() != total)
    value_error(str(s.alg->name) + ": buf must be " + num(total) +
                " bytes (len(data) + tag_size), got " + num(b.size()));
  check_no_overlap(str(s.alg->name), b.mutable_data(), b.size(), n, d, a);
  maybe_without_gil(d.size() + a.size(), [&] {
    s.alg->encrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), d.size(), b.mutable_data(),
                   b.mutable_data() + d.size(), s.tag_len);
  });
  return total;
}

std::size_t aead_decrypt_into(const aead_object& s, nb::handle nonce, nb::handle data,
                              nb::handle ad, nb::handle buf) {
  held_buffer n(nonce, "nonce"), d(data, "data"), a(ad, "associated_data", true);
  held_buffer b(buf, "buf", false, held_buffer::writable);
  s.check_nonce(n);
  if (d.size() < s.tag_len) {
    lwc::secure_wipe(b.mutable_data(), b.size());
    raise_invalid_tag("data is shorter than the tag");
  }
  const std::size_t len = d.size() - s.tag_len;
  if (b.size() != len)
    value_error(str(s.alg->name) + ": buf must be " + num(len) +
                " bytes (len(data) - tag_size), got " + num(b.size()));
  check_no_overlap(str(s.alg->name), b.mutable_data(), b.size(), n, d, a);
  // The plaintext is produced in private memory and copied into buf only once the tag has
  // verified, with the GIL held: another thread reading buf while the GIL is released during
  // decryption never sees unverified plaintext.
  std::vector<std::uint8_t> plain(len);
  const bool ok = maybe_without_gil(d.size() + a.size(), [&] {
    return s.alg->decrypt(s.key, s.second(), n.data(), a.data(), a.size(), d.data(), len,
                          d.data() + len, s.tag_len, plain.data());
  });
  if (!ok) {
    lwc::secure_wipe(b.mutable_data(), b.size());
    raise_invalid_tag("authentication failed");
  }
  if (len != 0) std::memcpy(b.mutable_data(), plain.data(), len);
  lwc::secure_wipe(plain.data(), plain.size());
  return len;
}

}  // namespace

void register_aead(nb::module_& m) {
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
}

}  // namespace lwc::python
