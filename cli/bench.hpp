// SPDX-License-Identifier: MIT OR Apache-2.0
// Pieces of lwc bench shared with the optional batch-engine backends (bench_batch.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/registry.hpp>

namespace lwc::cli::bench {

enum class operation { encrypt, decrypt, hash, xof, mac };

// One benchmark case ready to run: run(n) performs n operations of bytes_per_op bytes each.
struct prepared {
  std::function<void(std::uint64_t)> run;
  std::uint64_t bytes_per_op = 0;
};

// A way of executing operations: "single" is the header-only core on one thread (with the
// fast paths it picks at run time); the batch engine contributes one backend per instruction
// set.
struct backend {
  std::string name;
  unsigned threads = 1;
  std::function<bool(const algorithm&, operation)> supports;
  std::function<prepared(const algorithm&, operation, std::size_t bytes)> prepare;
};

// The batch engine's backends; empty, with the reason in why_not, when lwc was built without it.
std::vector<backend> batch_backends(unsigned threads, std::string& why_not);

// Keeps the compiler from dropping work whose result nobody reads.
inline void keep(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

}  // namespace lwc::cli::bench
