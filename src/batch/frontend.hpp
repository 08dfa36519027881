// SPDX-License-Identifier: MIT OR Apache-2.0
// The layout-independent part of the batch front end, shared by the C++ API (batch.cpp) and
// the C ABI (batch_capi.cpp): backend lookup, the choice between a backend's lane kernel and
// the job-by-job path, and the thread split.
#pragma once

#include <cstddef>
#include <cstdint>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "backend.hpp"

namespace lwc::batch::detail {

// Throws std::invalid_argument when options::backend names no available backend.
const backend_ops& pick_backend(const options& opt);

// `bytes` (the inputs, and outputs of hashes, as counted while checking the arguments)
// decides how many threads the batch is worth.
void run_aead(const backend_ops& be, const lwc::algorithm& a, std::size_t n, aead_fetch fetch,
              const void* ctx, std::uint64_t bytes, bool decrypt, std::size_t tag_len,
              std::uint8_t* ok, unsigned threads);
void run_sponge(const backend_ops& be, const lwc::algorithm& a, std::size_t n,
                sponge_fetch fetch, const void* ctx, std::uint64_t bytes, unsigned threads);

}  // namespace lwc::batch::detail
