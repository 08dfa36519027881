// SPDX-License-Identifier: MIT OR Apache-2.0
// The algorithms of the CUDA engine: every entry of the algorithm list, with the sizes of its
// registry entry (never restated here). `algo` is the entry's position in the list, the index
// of the launch table (launch.hpp) and of the host emulation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <lwc/packed_jobs.hpp>
#include <lwc/registry.hpp>

#include "warp_engine.hpp"

namespace lwc::cuda::detail {

using algo = std::size_t;

struct algo_info {
  const lwc::algorithm* entry;
  algo id;
  std::string_view name;
  bool aead;
  std::size_t key_size;         // 0 for unkeyed hashes
  std::size_t nonce_size;       // AEADs
  std::size_t min_tag_size;     // AEADs
  std::size_t max_tag_size;     // AEADs: the full tag
  std::size_t second_key_size;  // AEADs with nonce masking; else 0
  std::size_t fixed_output;     // hashes and MACs: the output size; XOFs and PRFs: 0 (any length)
  std::size_t max_customization;  // CXOFs
};

inline constexpr std::array<algo_info, lwc::algorithm_count> algo_table = [] {
  std::array<algo_info, lwc::algorithm_count> t{};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const lwc::algorithm& a = lwc::registry_table[i];
    t[i] = {&a,           i,          a.name,          a.is_aead(),
            a.key_size,   a.nonce_size, a.min_tag_size, a.tag_size,
            a.second_key_size, a.is_aead() ? 0 : a.max_output_size, a.max_customization_size};
  }
  return t;
}();

inline constexpr std::array<std::string_view, lwc::algorithm_count> algo_names = [] {
  std::array<std::string_view, lwc::algorithm_count> n{};
  for (std::size_t i = 0; i < n.size(); ++i) n[i] = algo_table[i].name;
  return n;
}();

inline const algo_info* find_algo(std::string_view name) {
  const lwc::algorithm* a = lwc::find_algorithm(name);
  return a != nullptr ? &algo_table[lwc::index_of(*a)] : nullptr;
}

// A fixed column of `count` elements of `size` bytes at `data`.
template <class Byte>
job_column<Byte> fixed_column(Byte* data, std::size_t size, std::size_t count) {
  return {data, size * count, size, nullptr, jobs::offset_type::none};
}

// A batch of `count` jobs of `alg` with the sizes the kernels check every job against; the
// columns are the caller's to fill (absent until then).
inline aead_batch aead_batch_for(const algo_info& alg, std::size_t count, std::size_t tag_len) {
  aead_batch b{};
  b.count = count;
  b.tag_len = static_cast<std::uint32_t>(tag_len);
  b.key_size = static_cast<std::uint32_t>(alg.key_size);
  b.nonce_size = static_cast<std::uint32_t>(alg.nonce_size);
  b.second_key_size = static_cast<std::uint32_t>(alg.second_key_size);
  return b;
}
inline sponge_batch sponge_batch_for(const algo_info& alg, std::size_t count) {
  sponge_batch b{};
  b.count = count;
  b.key_size = alg.key_size;
  b.output_size = alg.fixed_output != 0 ? alg.entry->output_size : 0;
  b.max_input = alg.entry->max_input_size;
  b.max_custom = alg.max_customization;
  return b;
}

// The asynchronous API's batch: the caller's form (in device memory, checked as far as the
// host can) as the kernels' columns, unchanged, since the kernels read every layout it has.
template <class Byte>
job_column<Byte> column_of(const jobs::basic_column<Byte>& c) {
  return {c.data.data(), c.data.size(), c.stride, c.offsets, c.offset_kind};
}

inline aead_batch form_batch(const algo_info& alg, const jobs::packed_aead_jobs& f,
                             std::size_t tag_len, std::uint8_t* ok) {
  aead_batch b = aead_batch_for(alg, f.count, tag_len);
  b.keys = column_of(f.keys);
  b.nonces = column_of(f.nonces);
  b.second_keys = column_of(f.second_keys);
  b.ad = column_of(f.ad);
  b.in = column_of(f.in);
  b.out = column_of(f.out);
  b.tags_in = column_of(f.tags_in);
  b.tags_out = column_of(f.tags_out);
  b.appended = f.tags == jobs::tag_place::appended;
  b.ok = ok;
  return b;
}

inline sponge_batch form_batch(const algo_info& alg, const jobs::packed_hash_jobs& f) {
  sponge_batch b = sponge_batch_for(alg, f.count);
  b.in = column_of(f.in);
  b.out = column_of(f.out);
  b.keys = column_of(f.keys);
  b.custom = column_of(f.customization);
  return b;
}

}  // namespace lwc::cuda::detail
