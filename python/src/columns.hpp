// SPDX-License-Identifier: MIT OR Apache-2.0
// The columns of the packed job form (<lwc/packed_jobs.hpp>) over the caller's own Python
// buffers, read and written in place by the engine with the GIL released. What the Python
// layers hand over:
//   - an N x L array (numpy, or any buffer exporting two dimensions): a fixed-stride column
//     of n rows of L bytes;
//   - a buffer of n * size bytes for a column whose element size the algorithm fixes (keys,
//     nonces, second keys, detached tags);
//   - a tuple (values, offsets): a column with offsets, `offsets` a buffer of n + 1 int32
//     or int64 offsets (Arrow binary and large_binary store theirs so; lwc/batch.py builds
//     int64 ones for variable-length lists);
//   - None: an absent column (no associated data, no second keys, ...).
// The shapes are checked by the engine (lwc::jobs::checks), with messages naming the column
// and the job; the few read here before the engine runs go through the same check first.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/packed_jobs.hpp>
#include <lwc/registry.hpp>

#include "../../src/jobs/checks.hpp"
#include "common.hpp"

namespace lwc::python {

// The engines' own check of a column's shape (offsets from 0 up, never decreasing, inside the
// data), for the columns whose offsets size a result before the engine runs; ValueError
// naming the algorithm and the column.
template <class Byte>
void check_column(const lwc::algorithm& a, const char* what, const lwc::jobs::basic_column<Byte>& c,
                  std::size_t n) {
  try {
    (void)lwc::jobs::checks::column_shape(a, what, c, n);
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
}

// The registry entry at `index`: lwc/batch.py and lwc/arrow.py look a batch's algorithm up by
// name once and hand over its index, which reaches the engine as the entry itself.
inline const lwc::algorithm& entry_at(std::size_t index, bool aead) {
  const auto all = lwc::algorithms();
  if (index >= all.size() || all[index].is_aead() != aead)
    value_error("no " + std::string(aead ? "AEAD" : "hash") + " algorithm at registry index " +
                num(index));
  return all[index];
}

// threads: None for every core; backend: None for the best. backend_name keeps the name alive.
inline lwc::batch::options engine_options(nb::handle threads, nb::handle backend,
                                          std::string& backend_name) {
  lwc::batch::options opt;
  if (!threads.is_none()) opt.threads = nb::cast<unsigned>(threads);
  if (!backend.is_none()) {
    backend_name = nb::cast<std::string>(backend);
    opt.backend = backend_name;
  }
  return opt;
}

class column_buffers {
 public:
  // Rows of an input column: an N x L array, a (values, offsets) tuple or None. `rows` is
  // set to n (0 for None).
  lwc::jobs::column rows(nb::handle obj, const char* what, std::size_t& n) {
    if (obj.is_none()) {
      n = 0;
      return {};
    }
    if (PyTuple_Check(obj.ptr())) return with_offsets(obj, what, n);
    const held_buffer& b = hold(obj, what, held_buffer::read_only);
    if (b.ndim() != 2)
      value_error(std::string(what) + ": expected an N x L uint8 array or (values, offsets)");
    n = b.rows();
    return fixed_column<const std::uint8_t>(b.view(), b.size() / (n != 0 ? n : 1), n);
  }

  // The same for an output column (a writable N x L array).
  lwc::jobs::out_column out_rows(nb::handle obj, const char* what, std::size_t& n) {
    const held_buffer& b = hold(obj, what, held_buffer::writable);
    if (b.ndim() != 2) value_error(std::string(what) + ": expected an N x L uint8 array");
    n = b.rows();
    return fixed_column<std::uint8_t>({b.mutable_data(), b.size()},
                                      b.size() / (n != 0 ? n : 1), n);
  }

  // n elements of `size` bytes each (keys, nonces, second keys, detached tags), back to back:
  // any buffer of n * size bytes. None: absent.
  lwc::jobs::column fixed(nb::handle obj, const char* what, std::size_t size, std::size_t n) {
    if (obj.is_none()) return {};
    const held_buffer& b = hold(obj, what, held_buffer::read_only);
    return fixed_column<const std::uint8_t>(b.view(), size, n);
  }
  lwc::jobs::out_column out_fixed(nb::handle obj, const char* what, std::size_t size,
                                  std::size_t n) {
    const held_buffer& b = hold(obj, what, held_buffer::writable);
    return fixed_column<std::uint8_t>({b.mutable_data(), b.size()}, size, n);
  }

  // One flag byte per job, written by the engine.
  std::span<std::uint8_t> flags(nb::handle obj, const char* what) {
    const held_buffer& b = hold(obj, what, held_buffer::writable);
    return {b.mutable_data(), b.size()};
  }

  // A column of n elements of `size` bytes, all equal to `value` (Arrow's one key for every
  // row): the packed form gives every job its own element, so the value is repeated.
  lwc::jobs::column repeated(lwc::bytes_view value, std::size_t n) {
    std::vector<std::uint8_t>& v = made_.emplace_back();
    v.resize(checked_mul(n, value.size(), "repeated column"));
    for (std::size_t i = 0; i < n; ++i)
      if (!value.empty()) std::memcpy(v.data() + i * value.size(), value.data(), value.size());
    return lwc::jobs::column::fixed({v.data(), v.size()}, value.size());
  }

  const held_buffer& hold(nb::handle obj, const char* what, held_buffer::access mode) {
    return held_.emplace_back(obj, what, false, mode);
  }

 private:
  // A fixed column, except that rows of 0 bytes become offsets that are all 0: a fixed column
  // of stride 0 reads as absent.
  template <class Byte>
  lwc::jobs::basic_column<Byte> fixed_column(std::span<Byte> data, std::size_t stride,
                                             std::size_t n) {
    if (stride != 0 || n == 0) return lwc::jobs::basic_column<Byte>::fixed(data, stride);
    std::vector<std::uint8_t>& zeros = made_.emplace_back();
    zeros.assign(checked_mul(checked_add(n, 1, "offsets"), sizeof(std::uint64_t), "offsets"), 0);
    return lwc::jobs::basic_column<Byte>::template with_offsets<std::uint64_t>(
        data, {reinterpret_cast<const std::uint64_t*>(zeros.data()), n + 1});
  }

  lwc::jobs::column with_offsets(nb::handle obj, const char* what, std::size_t& n) {
    if (cpy::tuple_size(obj.ptr()) != 2)
      type_error(std::string(what) + ": (values, offsets) expected");
    const held_buffer& values =
        held_.emplace_back(nb::handle(cpy::tuple_item(obj.ptr(), 0)), what, true);
    const held_buffer& offsets =
        held_.emplace_back(nb::handle(cpy::tuple_item(obj.ptr(), 1)), what);
    const std::size_t width = offsets.item_size();
    if ((width != 4 && width != 8) || offsets.size() < width ||
        reinterpret_cast<std::uintptr_t>(offsets.data()) % width != 0)
      value_error(std::string(what) + ": offsets must be an aligned array of int32 or int64");
    n = offsets.size() / width - 1;
    if (width == 4)
      return lwc::jobs::column::with_offsets<std::int32_t>(
          values.view(), {reinterpret_cast<const std::int32_t*>(offsets.data()), n + 1});
    return lwc::jobs::column::with_offsets<std::int64_t>(
        values.view(), {reinterpret_cast<const std::int64_t*>(offsets.data()), n + 1});
  }

  std::deque<held_buffer> held_;  // stable addresses: released where they were filled
  std::deque<std::vector<std::uint8_t>> made_;
};

}  // namespace lwc::python
