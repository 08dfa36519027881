// SPDX-License-Identifier: MIT OR Apache-2.0
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "util.hpp"

namespace lwc::cli {

namespace {
constexpr auto redraw_interval = std::chrono::milliseconds(100);
constexpr int bar_width = 28;

void put(const std::string& s) {
  // Progress is decoration: a failed write to the terminal must not end the run.
  const char* p = s.data();
  std::size_t n = s.size();
  while (n != 0) {
    const ssize_t w = ::write(STDERR_FILENO, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}
}  // namespace

progress::progress(std::string label, std::optional<std::uint64_t> total, bool allowed)
    : label_(std::move(label)), total_(total) {
  enabled_ = allowed && is_terminal(STDERR_FILENO) && (!total || *total >= progress_threshold);
  start_ = last_ = std::chrono::steady_clock::now();
  if (enabled_ && total) draw(0, true);
}

void progress::add(std::uint64_t bytes) {
  const std::uint64_t done = done_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (!enabled_) return;
  if (!total_ && done < progress_threshold) return;
  draw(done, false);
}

void progress::draw(std::uint64_t done, bool force) {
  std::unique_lock lock(mu_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && shown_ && now - last_ < redraw_interval) return;
  last_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  std::string line = "\r" + label_ + " ";
  char buf[96];
  if (total_) {
    const double frac = *total_ == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(*total_);
    const int filled = static_cast<int>(frac * bar_width);
    line += '[';
    for (int i = 0; i < bar_width; ++i) line += i < filled ? '#' : '.';
    std::snprintf(buf, sizeof buf, "] %3d%%  ", static_cast<int>(frac * 100));
    line += buf;
    line += format_bytes(static_cast<double>(done)) + " / " + format_bytes(static_cast<double>(*total_));
  } else {
    line += format_bytes(static_cast<double>(done));
  }
  if (secs > 0.05) {
    std::snprintf(buf, sizeof buf, "  %.0f MB/s", static_cast<double>(done) / secs / 1e6);
    line += buf;
  }
  line += "\033[K";
  put(line);
  shown_ = true;
}

void progress::clear() {
  if (!enabled_) return;
  std::lock_guard lock(mu_);
  if (shown_) put("\r\033[K");
  shown_ = false;
}

void progress::finish() {
  if (!enabled_) return;
  if (total_) draw(done_.load(), true);
  clear();
  enabled_ = false;
}

}  // namespace lwc::cli
