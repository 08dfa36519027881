// SPDX-License-Identifier: MIT OR Apache-2.0
// A fixed set of worker threads that run the items of one job at a time while the thread that
// submitted it goes on (reading the next input, writing the previous output).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lwc::stream::detail {

class worker_pool {
 public:
  explicit worker_pool(unsigned threads);
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;
  ~worker_pool();

  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

  // Runs item(i) for every i < count on the workers and returns at once; the previous job
  // must have been waited for.
  void start(std::size_t count, std::function<void(std::size_t)> item);
  // Blocks until the job is done; rethrows the first exception an item threw.
  void wait();

 private:
  // One job's state lives apart from the pool, so that a worker still leaving an old job
  // cannot take items of the next one.
  struct job {
    std::function<void(std::size_t)> item;
    std::size_t count = 0;
    std::atomic<std::size_t> next{0};
    std::size_t finished = 0;  // guarded by mu_
    std::exception_ptr error;  // guarded by mu_
  };
  void work();

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  std::shared_ptr<job> job_;
  std::size_t generation_ = 0;
  bool stop_ = false;
};


}  // namespace lwc::stream::detail
