// SPDX-License-Identifier: MIT OR Apache-2.0
// The algorithms of the CUDA engine: every entry of the algorithm list, with the sizes of its
// registry entry (never restated here). `algo` is the entry's position in the list, the index
// of the launch table (launch.hpp) and of the host emulation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <lwc/registry.hpp>

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

}  // namespace lwc::cuda::detail
