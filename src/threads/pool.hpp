// SPDX-License-Identifier: MIT OR Apache-2.0
// The one thread pool of the library: persistent workers, started on first use, shared by the
// batch engine's scheduler, the stream library's chunk sealing, the CUDA host pipeline's
// staging copies and the lwc tool's hashing. Starting a thread costs tens of microseconds (the
// time to encrypt tens of kilobytes), so a batch of small messages used to spend more time
// starting its threads than working in them.
//
// The contract that keeps it free of deadlocks, also when a task runs a parallel call of its
// own (a stream chunk sealed by the batch engine on a worker): help is optional. A task_group
// offers its body to `helpers` workers; whoever joins the group runs the body too, then closes
// the group: helpers that a busy pool had not started by then never start, and join waits only
// for those already running. The body must therefore share its work through its own cursor, so
// that one participant alone finishes it.
//
// fork(): the child starts with no workers (they do not survive fork) and builds a new pool on
// first use; the parent's pool is left as it was. Calling fork while a parallel call of this
// process is running leaves that call's state in the child unusable: fork from a thread that is
// not inside a library call, as POSIX advises for any multithreaded process.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define LWC_THREADS_HAVE_ATFORK 1
#endif

namespace lwc::threads {

namespace detail {

struct group_state {
  std::function<void()> body;
  std::mutex mu;
  std::condition_variable idle;
  std::size_t running = 0;  // helpers inside body
  bool closed = false;      // joined: helpers not yet started never start
  std::exception_ptr error;

  // A worker's turn: runs the body unless the group was joined first.
  void help() noexcept {
    {
      std::lock_guard lock(mu);
      if (closed) return;
      ++running;
    }
    std::exception_ptr err;
    try {
      body();
    } catch (...) {
      err = std::current_exception();
    }
    std::lock_guard lock(mu);
    if (err && !error) error = err;
    if (--running == 0 && closed) idle.notify_all();
  }
};

class pool_state {
 public:
  // Queues `count` offers of g's body and makes sure up to `count` workers exist to take them.
  // Returns how many were queued: 0 when no worker exists and none could be started.
  std::size_t offer(const std::shared_ptr<group_state>& g, std::size_t count) {
    std::unique_lock lock(mu_);
    const std::size_t want = std::min(count, max_workers());
    while (workers_.size() < want) {
      try {
        workers_.emplace_back([this] { work(); });
      } catch (const std::system_error&) {
        break;  // no more threads to be had: the ones there take the offers in turn
      }
    }
    if (workers_.empty()) return 0;
    for (std::size_t i = 0; i < count; ++i) queue_.push_back(g);
    lock.unlock();
    if (count == 1) wake_.notify_one();
    else wake_.notify_all();
    return count;
  }

  std::size_t workers() {
    std::lock_guard lock(mu_);
    return workers_.size();
  }

 private:
  // Enough for any `threads` option a caller may reasonably give on a large machine; more
  // offers than workers wait in the queue.
  static std::size_t max_workers() {
    return std::max<std::size_t>(256, 4 * std::size_t{std::thread::hardware_concurrency()});
  }

  void work() {
    for (;;) {
      std::shared_ptr<group_state> g;
      {
        std::unique_lock lock(mu_);
        wake_.wait(lock, [&] { return !queue_.empty(); });
        g = std::move(queue_.front());
        queue_.pop_front();
      }
      g->help();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<group_state>> queue_;
  // Never joined: the pool lives as long as the process (workers wait on wake_ until exit), so
  // that no static destructor races a late caller.
  std::vector<std::thread> workers_;
};

// The pool of this process, replaced by an empty one in a forked child. Deliberately never
// destroyed (see pool_state::workers_); the parent's state is abandoned in the child, whose
// copies of its mutexes may be held by threads that do not exist there.
inline std::atomic<pool_state*>& current_pool() {
  static std::atomic<pool_state*> p{nullptr};
  return p;
}

inline pool_state& shared_pool() {
  static std::once_flag registered;
  std::call_once(registered, [] {
#ifdef LWC_THREADS_HAVE_ATFORK
    pthread_atfork(nullptr, nullptr, [] { current_pool().store(nullptr); });
#endif
  });
  pool_state* p = current_pool().load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  auto fresh = std::make_unique<pool_state>();
  if (current_pool().compare_exchange_strong(p, fresh.get(), std::memory_order_acq_rel))
    return *fresh.release();
  return *p;  // another thread installed one first
}

}  // namespace detail

// One parallel call: a body offered to the pool's workers and run by the joining thread.
class task_group {
 public:
  explicit task_group(std::function<void()> body) : g_(std::make_shared<detail::group_state>()) {
    g_->body = std::move(body);
  }
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  // A group that was offered must be joined before its body's captures go away.
  ~task_group() { close_and_wait(); }

  // Offers the body to up to `helpers` workers; returns at once. Returns how many offers were
  // queued (0 when no worker could be started: the joining thread then does all the work).
  std::size_t offer(std::size_t helpers) {
    if (helpers == 0) return 0;
    return detail::shared_pool().offer(g_, helpers);
  }

  // Runs the body on this thread too (when `participate`), then waits for the helpers that
  // started; those that had not are dropped. Rethrows the first exception a helper's body
  // threw (this thread's own propagates directly, after the helpers finished).
  void join(bool participate = true) {
    std::exception_ptr mine;
    if (participate) {
      try {
        g_->body();
      } catch (...) {
        mine = std::current_exception();
      }
    }
    close_and_wait();
    if (mine) std::rethrow_exception(mine);
    std::exception_ptr theirs;
    {
      std::lock_guard lock(g_->mu);
      theirs = std::exchange(g_->error, nullptr);
    }
    if (theirs) std::rethrow_exception(theirs);
  }

 private:
  void close_and_wait() noexcept {
    std::unique_lock lock(g_->mu);
    g_->closed = true;
    g_->idle.wait(lock, [&] { return g_->running == 0; });
  }

  std::shared_ptr<detail::group_state> g_;
};

// Runs body() on `width` threads at most, the caller's included, and returns when all of them
// have returned. Body shares its work through its own cursor (see the top of this file).
template <class Body>
void parallel(std::size_t width, Body&& body) {
  if (width <= 1) {
    body();
    return;
  }
  task_group group([&body] { body(); });
  group.offer(width - 1);
  group.join();
}

// Workers the pool holds now (for tests and diagnostics).
inline std::size_t pool_workers() { return detail::shared_pool().workers(); }

}  // namespace lwc::threads
