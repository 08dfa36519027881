// SPDX-License-Identifier: MIT OR Apache-2.0
// Columns of the packed job form in every layout (fixed, offsets of each width and sign, a
// random first offset and room past the last element), for the tests of every engine that
// takes the form: the CPU batch engine and the CUDA host pipeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <lwc/packed_jobs.hpp>

namespace lwc::test::form {

using bytes = std::vector<std::uint8_t>;
namespace jobs = lwc::jobs;

enum class layout { fixed, u32, u64, i32, i64 };
constexpr layout all_layouts[] = {layout::fixed, layout::u32, layout::u64, layout::i32,
                                  layout::i64};

// A column's storage in one layout; offset columns start at a random lead so that offsets[0]
// is not always 0.
struct stored_column {
  layout kind = layout::fixed;
  bytes data;
  std::size_t stride = 0;
  std::vector<std::uint32_t> u32;
  std::vector<std::uint64_t> u64;
  std::vector<std::int32_t> i32;
  std::vector<std::int64_t> i64;

  template <class Byte>
  jobs::basic_column<Byte> view(std::span<Byte> d) const {
    switch (kind) {
      case layout::fixed: return jobs::basic_column<Byte>::fixed(d, stride);
      case layout::u32: return jobs::basic_column<Byte>::template with_offsets<std::uint32_t>(d, u32);
      case layout::u64: return jobs::basic_column<Byte>::template with_offsets<std::uint64_t>(d, u64);
      case layout::i32: return jobs::basic_column<Byte>::template with_offsets<std::int32_t>(d, i32);
      case layout::i64: return jobs::basic_column<Byte>::template with_offsets<std::int64_t>(d, i64);
    }
    return {};
  }
  jobs::column in() const { return view<const std::uint8_t>(data); }
  jobs::out_column out() { return view<std::uint8_t>(data); }
  // Element i's bytes (after the engine wrote them).
  bytes element(std::size_t i) const {
    if (kind == layout::fixed) return {data.begin() + static_cast<std::ptrdiff_t>(i * stride),
                                       data.begin() + static_cast<std::ptrdiff_t>((i + 1) * stride)};
    const std::uint64_t from = offset(i), to = offset(i + 1);
    return {data.begin() + static_cast<std::ptrdiff_t>(from), data.begin() + static_cast<std::ptrdiff_t>(to)};
  }
  std::uint64_t offset(std::size_t k) const {
    switch (kind) {
      case layout::u32: return u32[k];
      case layout::u64: return u64[k];
      case layout::i32: return static_cast<std::uint64_t>(i32[k]);
      case layout::i64: return static_cast<std::uint64_t>(i64[k]);
      case layout::fixed: break;
    }
    return k * stride;
  }
};

// `elements` in layout `kind` (fixed only when they all have one size).
inline stored_column store(const std::vector<bytes>& elements, layout kind, std::mt19937& rng) {
  stored_column c;
  c.kind = kind;
  if (kind == layout::fixed) {
    c.stride = elements.empty() ? 0 : elements[0].size();
    for (const bytes& e : elements) c.data.insert(c.data.end(), e.begin(), e.end());
    return c;
  }
  const std::size_t lead = rng() % 5;
  c.data.assign(lead, 0xEE);
  std::vector<std::uint64_t> off{lead};
  for (const bytes& e : elements) {
    c.data.insert(c.data.end(), e.begin(), e.end());
    off.push_back(c.data.size());
  }
  c.data.resize(c.data.size() + rng() % 3, 0xEE);  // room past the last element is allowed
  for (const std::uint64_t o : off) {
    c.u32.push_back(static_cast<std::uint32_t>(o));
    c.u64.push_back(o);
    c.i32.push_back(static_cast<std::int32_t>(o));
    c.i64.push_back(static_cast<std::int64_t>(o));
  }
  return c;
}

inline bytes random_bytes(std::size_t n, std::mt19937& rng) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

inline layout pick(std::mt19937& rng, bool fixed_allowed) {
  const layout l = all_layouts[rng() % 5];
  return l == layout::fixed && !fixed_allowed ? layout::u64 : l;
}

}  // namespace lwc::test::form
