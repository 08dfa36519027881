// SPDX-License-Identifier: MIT OR Apache-2.0
// The host API's pipelines, kept between calls: allocating pinned memory and streams costs far
// more than a batch. One pipeline serves one caller at a time; callers with the same device
// and settings reuse an idle one. At most `max_kept` pipelines per device are kept: past that,
// the least recently used idle ones are freed, so that a program trying many settings (or many threads
// at once, then fewer) does not hold their buffers for good. Busy pipelines are never freed;
// the pool shrinks back to `max_kept` as they are returned.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "pipeline.hpp"

namespace lwc::cuda::detail {

template <class Backend>
class pipeline_pool {
 public:
  explicit pipeline_pool(std::size_t max_kept_per_device) : max_kept_(max_kept_per_device) {}
  pipeline_pool(const pipeline_pool&) = delete;
  pipeline_pool& operator=(const pipeline_pool&) = delete;

  // Runs `jobs` on an idle pipeline of this device and settings (made when there is none).
  // `opt` is clamped first, so that out-of-range values share the pipeline of the clamped ones.
  template <class Jobs>
  void run(int device, const pipeline_options& opt, const Jobs& jobs) {
    const pipeline_options o = clamped(opt);
    entry* mine = acquire(device, o);
    struct returner {
      pipeline_pool& pool;
      entry* e;
      ~returner() { pool.give_back(e); }
    } give_back_on_exit{*this, mine};
    if (!mine->p) mine->p = std::make_unique<pipeline<Backend>>(mine->be, o);
    mine->p->run(jobs);
  }

  // Pipelines kept now, busy or idle, of every device.
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(m_);
    return entries_.size();
  }

 private:
  struct entry {
    int device;
    pipeline_options opt;
    Backend be{};
    std::unique_ptr<pipeline<Backend>> p;
    bool busy = false;
    std::uint64_t last_used = 0;
  };

  static bool same(const pipeline_options& a, const pipeline_options& b) {
    return a.streams == b.streams && a.chunk_bytes == b.chunk_bytes && a.copy_threads == b.copy_threads;
  }

  entry* acquire(int device, const pipeline_options& o) {
    std::lock_guard<std::mutex> lock(m_);
    for (auto& e : entries_) {
      if (!e->busy && e->device == device && same(e->opt, o)) {
        e->busy = true;
        return e.get();
      }
    }
    entries_.push_back(std::make_unique<entry>());
    entry* e = entries_.back().get();
    e->device = device;
    e->opt = o;
    e->busy = true;
    return e;
  }

  void give_back(entry* mine) noexcept {
    std::vector<std::unique_ptr<entry>> evicted;
    {
      std::lock_guard<std::mutex> lock(m_);
      mine->busy = false;
      mine->last_used = ++clock_;
      // Only pipelines of the caller's device: it is the current one, on which their streams
      // and buffers are released.
      const auto on_device = [&] {
        return static_cast<std::size_t>(std::count_if(
            entries_.begin(), entries_.end(), [&](const auto& e) { return e->device == mine->device; }));
      };
      while (on_device() > max_kept_) {
        auto oldest = entries_.end();
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
          if (!(*it)->busy && (*it)->device == mine->device &&
              (oldest == entries_.end() || (*it)->last_used < (*oldest)->last_used))
            oldest = it;
        if (oldest == entries_.end()) break;  // all busy: trimmed when they come back
        evicted.push_back(std::move(*oldest));
        entries_.erase(oldest);
      }
    }
    // Freed outside the lock: releasing waits for the pipeline's streams.
    evicted.clear();
  }

  const std::size_t max_kept_;
  mutable std::mutex m_;
  std::vector<std::unique_ptr<entry>> entries_;
  std::uint64_t clock_ = 0;
};

}  // namespace lwc::cuda::detail
