// The layout-independent part of the batch front end, shared by the C++ API (batch.cpp) and
// the C ABI (batch_capi.cpp): algorithm and backend lookup, and the thread split.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "backend.hpp"

namespace lwc::batch::detail {

struct batch_algorithm {
  std::string_view name;
  bool is_aead;
  aead_id aead;
  sponge_id sponge;
  // Initialization and finalization of one job, in bytes' worth of message processing: with
  // the bytes of the batch, it decides how many threads a batch is worth.
  std::uint32_t fixed_cost;
};

// Throws std::invalid_argument unless `name` is a batch algorithm of the wanted kind.
const batch_algorithm& find_batch_algorithm(std::string_view name, bool want_aead);
const lwc::algorithm& info(const batch_algorithm& a);
// Throws std::invalid_argument when options::backend names no available backend.
const backend_ops& pick_backend(const options& opt);

// `bytes` (all inputs and outputs of the batch, as counted while checking the arguments)
// decides how many threads the batch is worth.
void run_aead(const backend_ops& be, const batch_algorithm& a, std::size_t n, aead_fetch fetch,
              const void* ctx, std::uint64_t bytes, bool decrypt, std::size_t tag_len,
              std::uint8_t* ok, unsigned threads);
void run_sponge(const backend_ops& be, const batch_algorithm& a, std::size_t n,
                sponge_fetch fetch, const void* ctx, std::uint64_t bytes, unsigned threads);

}  // namespace lwc::batch::detail
