// SPDX-License-Identifier: MIT OR Apache-2.0
// The items of one job at a time run on the library's thread pool (src/threads/pool.hpp) while
// the thread that submitted it goes on (reading the next input, writing the previous output);
// wait() then takes whatever items no worker has started yet.
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>

#include "../threads/pool.hpp"

namespace lwc::stream::detail {

class worker_pool {
 public:
  // `threads` workers of the library's pool take part in each job (0: the waiting thread alone).
  explicit worker_pool(unsigned threads) : threads_(threads) {}
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;
  ~worker_pool() = default;

  unsigned size() const { return threads_; }

  // Runs item(i) for every i < count on the workers and returns at once; the previous job
  // must have been waited for.
  void start(std::size_t count, std::function<void(std::size_t)> item);
  // Blocks until the job is done (running items no worker took); rethrows the first exception
  // an item threw.
  void wait();

 private:
  struct job {
    std::function<void(std::size_t)> item;
    std::size_t count = 0;
    std::atomic<std::size_t> next{0};
    std::mutex mu;
    std::exception_ptr error;  // guarded by mu
    void drain() noexcept;
  };

  unsigned threads_;
  // Declared before group_: the group (whose helpers use the job) goes first.
  std::unique_ptr<job> job_;
  std::unique_ptr<lwc::threads::task_group> group_;
};

}  // namespace lwc::stream::detail
