// The algorithms of the CUDA engine and their sizes, shared by the host API, the kernels'
// launchers and the host emulation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace lwc::cuda::detail {

enum class algo : std::uint8_t { aead128, ascon128, ascon128a, hash256, xof128, acorn128, grain128aead };

struct algo_info {
  std::string_view name;
  algo id;
  bool aead;
  std::size_t key_size;         // AEADs
  std::size_t nonce_size;       // AEADs
  std::size_t min_tag_size;     // AEADs
  std::size_t max_tag_size;     // AEADs: the full tag
  bool nonce_masking;           // AEADs: a second 16-byte key is accepted
  std::size_t fixed_output;     // hashes: the digest size; XOFs: 0 (any length)
};

inline constexpr algo_info algo_table[] = {
    {"ascon-aead128", algo::aead128, true, 16, 16, 4, 16, true, 0},
    {"ascon-128", algo::ascon128, true, 16, 16, 16, 16, false, 0},
    {"ascon-128a", algo::ascon128a, true, 16, 16, 16, 16, false, 0},
    {"ascon-hash256", algo::hash256, false, 0, 0, 0, 0, false, 32},
    {"ascon-xof128", algo::xof128, false, 0, 0, 0, 0, false, 0},
    {"acorn-128", algo::acorn128, true, 16, 16, 16, 16, false, 0},
    {"grain-128aead", algo::grain128aead, true, 16, 12, 8, 8, false, 0},
};

inline constexpr std::string_view algo_names[] = {algo_table[0].name, algo_table[1].name,
                                                  algo_table[2].name, algo_table[3].name,
                                                  algo_table[4].name, algo_table[5].name,
                                                  algo_table[6].name};
static_assert(std::size(algo_names) == std::size(algo_table));

inline const algo_info* find_algo(std::string_view name) {
  for (const algo_info& a : algo_table)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace lwc::cuda::detail
