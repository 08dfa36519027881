// SPDX-License-Identifier: MIT OR Apache-2.0
// The thread's last C ABI error (lwc_error_message()), shared by every translation unit of
// liblwc.so: the single-message calls, the stream handles and the batch engine's C ABI.
//
// A caller may keep the pointer lwc_error_message() returned and read it after later calls,
// so the text behind a pointer never changes and is never freed: each distinct message is
// interned once in a process-wide table. Messages carry sizes and indices, so the table is
// bounded; past the bound, messages go to a ring of per-thread slots, whose text stays
// unchanged for the next ring_slots - 1 failures on that thread.
//
// Defined inline: batch_capi.cpp lives in the batch library, which liblwc.so takes whole,
// and the one definition is merged there.
#pragma once

#include <cstddef>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>

namespace lwc::capi {

namespace detail {

inline constexpr std::size_t interned_max = 4096;
inline constexpr std::size_t ring_slots = 16;
inline constexpr std::size_t slot_bytes = 512;

inline const char*& current_message() {
  thread_local const char* current = "no error";
  return current;
}

inline const char* intern(std::string_view message) {
  static std::mutex lock;
  // Node-based: an element's storage never moves once inserted. Never destroyed, so that a
  // pointer stays valid while other threads' static objects are torn down at exit.
  static auto* table = new std::unordered_set<std::string>();
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = table->find(std::string(message)); it != table->end()) return it->c_str();
  if (table->size() >= interned_max) return nullptr;
  return table->emplace(message).first->c_str();
}

inline const char* ring_copy(std::string_view message) {
  thread_local char slots[ring_slots][slot_bytes];
  thread_local std::size_t next = 0;
  char* slot = slots[next];
  next = (next + 1) % ring_slots;
  const std::size_t n = message.size() < slot_bytes - 1 ? message.size() : slot_bytes - 1;
  std::memcpy(slot, message.data(), n);
  slot[n] = '\0';
  return slot;
}

}  // namespace detail

// Records `message` as this thread's last error. Never throws (a failure to record one
// leaves a fixed message instead).
inline void set_error(std::string_view message) noexcept {
  const char* stored = nullptr;
  try {
    stored = detail::intern(message);
  } catch (...) {
    stored = nullptr;
  }
  detail::current_message() = stored != nullptr ? stored : detail::ring_copy(message);
}

inline const char* last_error() noexcept { return detail::current_message(); }

}  // namespace lwc::capi
