// SPDX-License-Identifier: MIT OR Apache-2.0
// A progress line on stderr for long runs: only when stderr is a terminal and the input is
// large (or of unknown size and already large), never otherwise, so that logs and pipes stay
// clean. Safe to feed from several threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace lwc::cli {

inline constexpr std::uint64_t progress_threshold = 32ull << 20;

class progress {
 public:
  // total: bytes expected when known. allowed: false for --no-progress.
  progress(std::string label, std::optional<std::uint64_t> total, bool allowed);
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  ~progress() { finish(); }

  void add(std::uint64_t bytes);
  // Erases the line (before other output to the same terminal); the next add() redraws it.
  void clear();
  void finish();
  bool active() const { return enabled_; }

 private:
  void draw(std::uint64_t done, bool force);

  std::string label_;
  std::optional<std::uint64_t> total_;
  bool enabled_ = false;
  bool shown_ = false;
  std::atomic<std::uint64_t> done_{0};
  std::mutex mu_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace lwc::cli
