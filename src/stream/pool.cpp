// SPDX-License-Identifier: MIT OR Apache-2.0
#include "pool.hpp"

#include <utility>

namespace lwc::stream::detail {

worker_pool::worker_pool(unsigned threads) {
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

worker_pool::~worker_pool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void worker_pool::start(std::size_t count, std::function<void(std::size_t)> item) {
  auto j = std::make_shared<job>();
  j->item = std::move(item);
  j->count = count;
  if (threads_.empty()) {  // no workers: run here, so that wait() finds it done
    for (std::size_t i = 0; i < count; ++i) {
      try {
        j->item(i);
      } catch (...) {
        if (!j->error) j->error = std::current_exception();
      }
    }
    j->finished = count;
  }
  {
    std::lock_guard lock(mu_);
    job_ = std::move(j);
    ++generation_;
  }
  wake_.notify_all();
}

void worker_pool::wait() {
  std::unique_lock lock(mu_);
  if (!job_) return;
  done_.wait(lock, [this] { return job_->finished == job_->count; });
  auto j = std::exchange(job_, nullptr);
  if (j->error) std::rethrow_exception(j->error);
}

void worker_pool::work() {
  std::size_t seen = 0;
  for (;;) {
    std::unique_lock lock(mu_);
    wake_.wait(lock, [&] { return stop_ || (generation_ != seen && job_); });
    if (stop_) return;
    seen = generation_;
    std::shared_ptr<job> j = job_;
    lock.unlock();
    std::size_t did = 0;
    std::exception_ptr err;
    for (std::size_t i; (i = j->next.fetch_add(1, std::memory_order_relaxed)) < j->count;) {
      try {
        j->item(i);
      } catch (...) {
        if (!err) err = std::current_exception();
      }
      ++did;
    }
    lock.lock();
    if (err && !j->error) j->error = err;
    j->finished += did;
    if (did != 0 && j->finished == j->count) done_.notify_all();
  }
}

}  // namespace lwc::stream::detail
