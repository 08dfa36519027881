// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.batch(device="cuda"): the CUDA engine.
// Host memory: lwc::cuda's host API (pinned staging, copies overlapping the kernels) on the
// packed buffers of lwc/batch.py, tags apart from the messages. Device memory: the
// Python layer (lwc/_cuda_arrays.py) allocates every array with the caller's array library
// and hands over (address, size) pairs; the work is queued on the given stream and nothing
// waits for it. lwc::cuda checks the sizes; no_device and other CUDA failures become
// RuntimeError with lwc::cuda's message.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <lwc/batch.hpp>
#include <lwc/cuda.hpp>
#include <lwc/registry.hpp>

#include "common.hpp"
#include "packed_inputs.hpp"

namespace lwc::python {
namespace {

using namespace nb::literals;

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
  const held_buffer keys(keys_obj, "keys"), nonces(nonces_obj, "nonces"), data(data_obj, "messages"),
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
  const held_buffer data(data_obj, "messages"), offsets(offsets_obj, "offsets");
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

}  // namespace

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

}  // namespace lwc::python
