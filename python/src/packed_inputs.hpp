// SPDX-License-Identifier: MIT OR Apache-2.0
// Packed inputs as lwc/batch.py hands them over (data back to back, uint64 offsets), shared by
// the CPU (batch.cpp) and CUDA (cuda.cpp) array paths.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <lwc/batch.hpp>

#include "common.hpp"

namespace lwc::python {

inline std::span<const std::uint64_t> offsets_of(const held_buffer& buf, std::size_t& count, const char* what) {
  if (buf.size() % sizeof(std::uint64_t) != 0 || buf.size() < sizeof(std::uint64_t) ||
      reinterpret_cast<std::uintptr_t>(buf.data()) % alignof(std::uint64_t) != 0)
    value_error(std::string(what) + " must be an aligned array of uint64 offsets");
  const auto* p = reinterpret_cast<const std::uint64_t*>(buf.data());
  count = buf.size() / sizeof(std::uint64_t) - 1;
  return {p, count + 1};
}

inline void check_offsets(std::span<const std::uint64_t> off, std::size_t data_size, const char* what) {
  for (std::size_t i = 0; i + 1 < off.size(); ++i)
    if (off[i] > off[i + 1]) value_error(std::string(what) + " offsets must not decrease");
  if (off.back() > data_size) value_error(std::string(what) + " offsets run past the data");
}

inline lwc::batch::options batch_options(nb::handle threads, nb::handle backend, std::string& backend_name) {
  lwc::batch::options opt;
  if (!threads.is_none()) opt.threads = nb::cast<unsigned>(threads);
  if (!backend.is_none()) {
    backend_name = nb::cast<std::string>(backend);
    opt.backend = backend_name;
  }
  return opt;
}

// The optional per-job keys (MACs, PRFs) and customization strings (CXOFs) of a hash batch,
// as the engines' packed form; sizes are checked by the engines (lwc::jobs::checks).
struct hash_extras {
  held_buffer keys, custom, custom_offsets;
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

}  // namespace lwc::python
