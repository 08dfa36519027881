// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc._lwc_cuda: lwc.batch(device="cuda"), an extension of its own that a plain install does
// not build (LWC_PYTHON_CUDA=ON builds it) and that lwc/batch.py imports on first use.
// Host inputs take the CPU's path (batch.cpp in lwc._lwc builds the packed job form) and reach
// lwc::cuda's host API (pinned staging) through the table in _engine (cuda_engine.hpp).
// Device memory: the Python layer (lwc/_cuda_arrays.py) allocates every array with the
// caller's array library and hands over (address, size) pairs; the work is queued on the given
// stream and nothing waits for it. lwc::cuda checks the sizes; no_device and other CUDA
// failures become RuntimeError with lwc::cuda's message.
//
// lwc_cuda links the CUDA runtime statically, and the runtime loads the driver (libcuda.so)
// only when first used: the module imports on machines without a driver or GPU.
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
#include "cuda_engine.hpp"

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
