// A stand-in for the CUDA runtime under the host pipeline: "device" memory is host memory,
// kernels are the warp engine's host emulation, and every copy or kernel is queued on its
// stream and only carried out when the pipeline waits for that stream, as a GPU may do. A
// pipeline that read results before waiting, or reused a buffer still in flight, gets wrong
// bytes here.
#pragma once

#include <cstdlib>
#include <functional>
#include <map>
#include <new>
#include <vector>

#include "../../src/cuda/emulate.hpp"
#include "../../src/cuda/pipeline.hpp"

namespace lwc::cuda::test {

struct emulated_backend {
  using stream = int;

  bool callers_memory_pinned = false;  // take the direct-DMA paths
  std::size_t warps = 3;
  std::map<int, std::vector<std::function<void()>>> queued;
  int streams_made = 0;
  std::size_t kernels = 0;

  void* alloc_host(std::size_t n) { return ::operator new(n, std::align_val_t{256}); }
  void free_host(void* p) noexcept { ::operator delete(p, std::align_val_t{256}); }
  void* alloc_device(std::size_t n) { return alloc_host(n); }
  void free_device(void* p) noexcept { free_host(p); }
  stream make_stream() { return ++streams_made; }
  void destroy_stream(stream s) noexcept { queued.erase(s); }
  bool is_pinned(const void*) const { return callers_memory_pinned; }

  void h2d(void* dst, const void* src, std::size_t n, stream s) {
    queued[s].push_back([=] { if (n) std::memcpy(dst, src, n); });
  }
  void d2h(void* dst, const void* src, std::size_t n, stream s) { h2d(dst, src, n, s); }
  void run_aead(detail::algo id, bool decrypt, const detail::aead_batch& b, stream s) {
    ++kernels;
    queued[s].push_back([=, this] { detail::emulate_aead(id, decrypt, b, warps); });
  }
  void run_sponge(detail::algo id, const detail::sponge_batch& b, stream s) {
    ++kernels;
    queued[s].push_back([=, this] { detail::emulate_sponge(id, b, warps); });
  }
  void wait(stream s) {
    auto ops = std::move(queued[s]);
    queued[s].clear();
    for (auto& op : ops) op();
  }
  void wait_noexcept(stream s) noexcept { queued.erase(s); }
};

}  // namespace lwc::cuda::test
