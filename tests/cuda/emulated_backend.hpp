// SPDX-License-Identifier: MIT OR Apache-2.0
// A stand-in for the CUDA runtime under the host pipeline: "device" memory is host memory,
// kernels are the warp engine's host emulation, and every copy or kernel is queued on its
// stream and only carried out when the pipeline waits for that stream, as a GPU may do. A
// pipeline that read results before waiting, or reused a buffer still in flight, gets wrong
// bytes here.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <new>
#include <stdexcept>
#include <vector>

#include "../../src/cuda/emulate.hpp"
#include "../../src/cuda/pipeline.hpp"
#include "../../src/cuda/pipeline_pool.hpp"

namespace lwc::cuda::test {

struct emulated_backend {
  using stream = int;

  bool callers_memory_pinned = false;  // take the direct-DMA paths
  std::size_t warps = 3;
  std::map<int, std::vector<std::function<void()>>> queued;
  int streams_made = 0;
  std::size_t kernels = 0;
  std::size_t fail_at_kernel = SIZE_MAX;  // run_aead / run_sponge throw at this kernel
  std::map<void*, std::size_t> live;      // allocations not yet freed, and their sizes
  std::size_t freed_unwiped = 0;          // buffers freed with a nonzero byte in them
  // Staging allocations alive in every emulated backend of the process.
  inline static std::atomic<std::size_t> allocations_alive{0};

  // Fresh memory reads as zeros here, so that a test can tell every byte a batch left behind.
  void* alloc_host(std::size_t n) {
    void* p = ::operator new(n, std::align_val_t{256});
    std::memset(p, 0, n);
    live[p] = n;
    ++allocations_alive;
    return p;
  }
  void free_host(void* p) noexcept {
    const auto it = live.find(p);
    if (it != live.end()) {
      const auto* b = static_cast<const std::uint8_t*>(p);
      if (std::any_of(b, b + it->second, [](std::uint8_t x) { return x != 0; })) ++freed_unwiped;
      live.erase(it);
    }
    --allocations_alive;
    ::operator delete(p, std::align_val_t{256});
  }
  void* alloc_device(std::size_t n) { return alloc_host(n); }
  void free_device(void* p) noexcept { free_host(p); }
  void zero_host(void* p, std::size_t n) noexcept { lwc::secure_wipe(p, n); }
  void zero_device_async(void* p, std::size_t n, stream s) {
    queued[s].push_back([=] { std::memset(p, 0, n); });
  }
  stream make_stream() { return ++streams_made; }
  void destroy_stream(stream s) noexcept { queued.erase(s); }
  bool is_pinned(const void*) const { return callers_memory_pinned; }

  // Whether every byte of every buffer still allocated is zero.
  bool all_buffers_zero() const {
    for (const auto& [p, n] : live) {
      const auto* b = static_cast<const std::uint8_t*>(p);
      if (std::any_of(b, b + n, [](std::uint8_t x) { return x != 0; })) return false;
    }
    return true;
  }

  void h2d(void* dst, const void* src, std::size_t n, stream s) {
    queued[s].push_back([=] { if (n) std::memcpy(dst, src, n); });
  }
  void d2h(void* dst, const void* src, std::size_t n, stream s) { h2d(dst, src, n, s); }
  void run_aead(detail::algo id, bool decrypt, const detail::aead_batch& b, stream s) {
    if (kernels++ == fail_at_kernel) throw std::runtime_error("emulated kernel launch failure");
    queued[s].push_back([=, this] { detail::emulate_aead(id, decrypt, b, warps); });
  }
  void run_sponge(detail::algo id, const detail::sponge_batch& b, stream s) {
    if (kernels++ == fail_at_kernel) throw std::runtime_error("emulated kernel launch failure");
    queued[s].push_back([=, this] { detail::emulate_sponge(id, b, warps); });
  }
  void wait(stream s) {
    auto ops = std::move(queued[s]);
    queued[s].clear();
    for (auto& op : ops) op();
  }
  // As cudaStreamSynchronize: what was queued runs to its end.
  void wait_noexcept(stream s) noexcept {
    try {
      wait(s);
    } catch (...) {
    }
  }
};

}  // namespace lwc::cuda::test
