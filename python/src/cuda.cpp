// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc._lwc_cuda: lwc.batch(device="cuda"), an extension of its own that a plain install does
// not build (LWC_PYTHON_CUDA=ON builds it) and that lwc/batch.py imports on first use.
// Host inputs take the CPU's path (batch.cpp in lwc._lwc builds the packed job form) and reach
// lwc::cuda's host API (pinned staging) through the table in _engine (cuda_engine.hpp).
// Device memory: the Python layer (lwc/_cuda_arrays.py) allocates every array with the
// caller's array library and hands over each as a fixed-stride column of the packed job form
// ((address, bytes, stride) triples); the work is queued on the given stream and nothing waits
// for it. lwc::cuda checks the form; no_device and other CUDA failures become RuntimeError
// with lwc::cuda's message.
//
// lwc_cuda links the CUDA runtime statically, and the runtime loads the driver (libcuda.so)
// only when first used: the module imports on machines without a driver or GPU.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <lwc/batch.hpp>
#include <lwc/cuda.hpp>
#include <lwc/registry.hpp>

#include "common.hpp"
#include "cuda_engine.hpp"

namespace lwc::python {
namespace {

using namespace nb::literals;

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

// The registry entry, looked up once per call; lwc::cuda takes the entry and looks up nothing.
const lwc::algorithm& cuda_algorithm(const std::string& name) {
  const lwc::algorithm* a = lwc::find_algorithm(name);
  if (a == nullptr)
    value_error("the CUDA engine does not run '" + name + "' (see lwc.batch.cuda_algorithms())");
  return *a;
}

// A fixed-stride column in device memory, as Python hands it over: (address, bytes, stride),
// an N x stride array of rows; (0, 0, 0) for an absent one. CUDA arrays reach the engine as
// the packed form's fixed columns, read and written where they are: no offsets are built and
// no tag is moved (sealed rows are ciphertext and tag, the form's appended tags).
using device_column = std::tuple<std::uintptr_t, std::size_t, std::size_t>;

template <class Byte>
lwc::jobs::basic_column<Byte> on_device(const device_column& c) {
  const auto [address, size, stride] = c;
  return lwc::jobs::basic_column<Byte>::fixed({reinterpret_cast<Byte*>(address), size}, stride);
}

void cuda_aead_async(bool decrypt, const std::string& name, std::size_t count, device_column keys,
                     device_column nonces, device_column ad, device_column second_keys,
                     device_column in, device_column out, device_column tags, std::uintptr_t ok,
                     std::size_t tag_len, bool appended, std::uintptr_t stream) {
  const lwc::algorithm& a = cuda_algorithm(name);
  lwc::jobs::packed_aead_jobs form;
  form.count = count;
  form.keys = on_device<const std::uint8_t>(keys);
  form.nonces = on_device<const std::uint8_t>(nonces);
  form.ad = on_device<const std::uint8_t>(ad);
  form.second_keys = on_device<const std::uint8_t>(second_keys);
  form.in = on_device<const std::uint8_t>(in);
  form.out = on_device<std::uint8_t>(out);
  form.tags = appended ? lwc::jobs::tag_place::appended : lwc::jobs::tag_place::detached;
  if (!appended) {
    if (decrypt) form.tags_in = on_device<const std::uint8_t>(tags);
    else form.tags_out = on_device<std::uint8_t>(tags);
  }
  const auto s = reinterpret_cast<lwc::cuda::stream_t>(stream);
  run_cuda([&] {
    if (decrypt)
      lwc::cuda::decrypt_async(a, form, {reinterpret_cast<std::uint8_t*>(ok), count}, tag_len, s);
    else
      lwc::cuda::encrypt_async(a, form, tag_len, s);
  });
}

void cuda_hash_async(const std::string& name, std::size_t count, device_column in,
                     device_column out, std::uintptr_t stream) {
  const lwc::algorithm& a = cuda_algorithm(name);
  lwc::jobs::packed_hash_jobs form;
  form.count = count;
  form.in = on_device<const std::uint8_t>(in);
  form.out = on_device<std::uint8_t>(out);
  run_cuda([&] { lwc::cuda::hash_async(a, form, reinterpret_cast<lwc::cuda::stream_t>(stream)); });
}

// The host-memory entry points of the table: lwc::cuda's exceptions become a status here, in
// the module that threw them.
template <class F>
cuda_status as_status(std::string& error, F&& f) noexcept {
  try {
    f();
    return cuda_status::ok;
  } catch (const std::invalid_argument& e) {
    error = e.what();
    return cuda_status::invalid_argument;
  } catch (const std::exception& e) {
    error = e.what();
    return cuda_status::cuda_error;
  } catch (...) {
    error = "lwc::cuda: unknown failure";
    return cuda_status::cuda_error;
  }
}

constexpr cuda_engine engine_table{
    sizeof(cuda_engine), LWC_VERSION,
    [](std::string_view algorithm, const lwc::batch::packed_aead_jobs& jobs, std::size_t tag_len,
       std::string& error) noexcept {
      return as_status(error, [&] { lwc::cuda::encrypt(algorithm, jobs, tag_len); });
    },
    [](std::string_view algorithm, const lwc::batch::packed_aead_jobs& jobs,
       std::span<std::uint8_t> ok, std::size_t tag_len, std::string& error) noexcept {
      return as_status(error, [&] { (void)lwc::cuda::decrypt(algorithm, jobs, ok, tag_len); });
    },
    [](std::string_view algorithm, const lwc::batch::packed_hash_jobs& jobs,
       std::string& error) noexcept {
      return as_status(error, [&] { lwc::cuda::hash(algorithm, jobs); });
    },
};

}  // namespace
}  // namespace lwc::python

namespace nb = nanobind;
using namespace nb::literals;
using namespace lwc::python;

NB_MODULE(_lwc_cuda, m) {
  m.doc() = "lwc's CUDA engine for lwc.batch(device=\"cuda\"); lwc.batch imports it when needed.";
  m.attr("__version__") = LWC_VERSION;
  m.attr("_engine") = nb::steal(PyCapsule_New(const_cast<cuda_engine*>(&engine_table),
                                              cuda_engine_capsule, nullptr));
  m.def("_cuda_aead_async", &cuda_aead_async, "decrypt"_a, "name"_a, "count"_a, "keys"_a,
        "nonces"_a, "ad"_a, "second_keys"_a, "data"_a, "out"_a, "tags"_a, "ok"_a, "tag_len"_a,
        "appended"_a, "stream"_a);
  m.def("_cuda_hash_async", &cuda_hash_async, "name"_a, "count"_a, "data"_a, "out"_a, "stream"_a);
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
