// SPDX-License-Identifier: MIT OR Apache-2.0
// The kernel launchers, callable from host code compiled by any C++ compiler. Every algorithm
// of the list has one: its warp kernel where it has the trait (warp_engine.hpp), else the
// one-thread-per-job kernel (thread_jobs.hpp). They are instantiated from the list in
// kernel_shards translation units (kernels_shard.cu.in, one object per shard, compiled side by
// side), each filling its entries of the launch table. A launcher returns the CUDA runtime's
// error code of the launch (0 on success) and never synchronises.
#pragma once

#include <array>
#include <cstddef>

#include <lwc/algorithm_list.hpp>

#include "warp_engine.hpp"

struct CUstream_st;

namespace lwc::cuda::detail {

using aead_launcher = int (*)(bool decrypt, const aead_batch& b, CUstream_st* stream);
using sponge_launcher = int (*)(const sponge_batch& b, CUstream_st* stream);

// Indexed by the algorithm's position in the list; the entries of the other kind stay null.
struct launch_table {
  std::array<aead_launcher, lwc::algorithm_count> aead{};
  std::array<sponge_launcher, lwc::algorithm_count> sponge{};
  std::array<bool, lwc::algorithm_count> warp{};  // the entry launches its warp kernel
};

// Entry I is built by shard I % kernel_shards (src/cuda/CMakeLists.txt makes that many).
inline constexpr std::size_t kernel_shards = 4;
template <std::size_t Shard>
void add_shard(launch_table& t);

// The table of all shards (built once).
const launch_table& launchers();

}  // namespace lwc::cuda::detail
