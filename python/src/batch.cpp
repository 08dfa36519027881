// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.batch on arrays: the Python layer (lwc/batch.py) hands over messages back to back with
// uint64 offsets; here they become one job list, and the engine runs with the GIL released.
// List input: batch_lists.cpp; Arrow columns (lwc.arrow): arrow_columns.cpp; the CUDA engine:
// cuda.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "common.hpp"
#include "packed_inputs.hpp"

namespace lwc::python {

void register_batch_lists(nb::module_& m);
void register_arrow_columns(nb::module_& m);

namespace {

using namespace nb::literals;

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
  const held_buffer keys(keys_obj, "keys"), nonces(nonces_obj, "nonces"), data(data_obj, "messages"),
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

nb::object batch_hash(const std::string& name, nb::handle data_obj, nb::handle offsets_obj,
                      std::size_t out_len, nb::handle keys_obj, nb::handle custom_obj,
                      nb::handle custom_offsets_obj, nb::handle threads, nb::handle backend) {
  if (!lwc::batch::supports(name))
    value_error("the batch engine does not run '" + name + "' (batch algorithms: see lwc.batch.algorithms())");
  const held_buffer data(data_obj, "messages"), offsets(offsets_obj, "offsets");
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

}  // namespace

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

}  // namespace lwc::python
