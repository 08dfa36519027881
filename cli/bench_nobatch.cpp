// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc bench --batch in a build without the multi-message engine (src/batch).
#include "bench.hpp"

namespace lwc::cli::bench {

std::vector<backend> batch_backends(unsigned, std::string& why_not) {
  why_not = "batch engine not built";
  return {};
}

}  // namespace lwc::cli::bench
