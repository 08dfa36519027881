// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc list: every algorithm in the registry, its sizes, which lwc commands take it and, where the
// batch engine is built, which of its backends run it in SIMD lanes.
#include <cstdio>
#include <string>
#include <vector>

#include <lwc/registry.hpp>
#if defined(LWC_CLI_HAVE_BATCH)
#include <lwc/batch.hpp>
#endif

#include "commands.hpp"
#include <lwc/stream/format.hpp>

namespace lwc::cli {

namespace {
std::string size_or_dash(std::size_t n) { return n == 0 ? "-" : std::to_string(n); }

std::string output_column(const algorithm& a) {
  if (a.is_aead()) return std::to_string(a.tag_size) + " (tag)";
  if (a.max_output_size == 0) return "any (" + std::to_string(a.output_size) + ")";
  return std::to_string(a.output_size);
}

// Superseded definitions say so, so that nobody picks them for new data by mistake.
std::string standard_column(const algorithm& a) {
  return a.legacy ? "legacy (" + std::string(a.standard) + ")" : std::string(a.standard);
}

std::string commands_column(const algorithm& a) {
  if (a.is_aead()) {
    if (!stream::unsuitable(a).empty()) return "- (not in the stream format)";
    return "encrypt, decrypt (stream id " + std::to_string(stream::id_of(a.name)) + ")";
  }
  switch (a.kind) {
    case algorithm_kind::hash: return "hash";
    case algorithm_kind::xof: return "hash -l";
    case algorithm_kind::cxof: return "hash -l --customization";
    default: return "bench only (keyed)";
  }
}

#if defined(LWC_CLI_HAVE_BATCH)
// The backends of this build and CPU that run the algorithm in SIMD lanes; the others run it
// job by job (same results, slower).
std::string batch_column(const algorithm& a) {
  std::string laned;
  for (const std::string_view backend : batch::available_backends())
    if (batch::has_lanes(a, backend)) laned += (laned.empty() ? "" : " ") + std::string(backend);
  return laned.empty() ? "job by job" : laned;
}
#endif
}  // namespace

int run_list() {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"algorithm", "kind", "key", "nonce", "tag/output", "standard", "lwc commands"});
#if defined(LWC_CLI_HAVE_BATCH)
  rows[0].push_back("batch lanes");
#endif
  for (const algorithm& a : algorithms()) {
    rows.push_back({std::string(a.name), std::string(to_string(a.kind)), size_or_dash(a.key_size),
                    size_or_dash(a.nonce_size), output_column(a), standard_column(a),
                    commands_column(a)});
#if defined(LWC_CLI_HAVE_BATCH)
    rows.back().push_back(batch_column(a));
#endif
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      line += r[c];
      if (c + 1 < r.size()) line += std::string(width[c] - r[c].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
  std::printf("\nSizes in bytes. 'any (32)': an XOF or PRF, any output length, 32 by default.\n");
#if defined(LWC_CLI_HAVE_BATCH)
  std::printf("batch lanes: the backends of this CPU on which the batch engine runs the algorithm "
              "in SIMD\nlanes; the others run it job by job (same results, slower).\n");
#endif
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace lwc::cli
