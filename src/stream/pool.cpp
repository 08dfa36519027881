// SPDX-License-Identifier: MIT OR Apache-2.0
#include "pool.hpp"

#include <algorithm>
#include <utility>

namespace lwc::stream::detail {

void worker_pool::job::drain() noexcept {
  for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
    try {
      item(i);
    } catch (...) {
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
    }
  }
}

void worker_pool::start(std::size_t count, std::function<void(std::size_t)> item) {
  group_.reset();
  job_ = std::make_unique<job>();
  job_->item = std::move(item);
  job_->count = count;
  group_ = std::make_unique<lwc::threads::task_group>([j = job_.get()] { j->drain(); });
  group_->offer(std::min<std::size_t>(threads_, count));
}

void worker_pool::wait() {
  if (!group_) return;
  group_->join();
  group_.reset();
  const std::unique_ptr<job> j = std::move(job_);
  if (j->error) std::rethrow_exception(j->error);
}

}  // namespace lwc::stream::detail
