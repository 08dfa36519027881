// SPDX-License-Identifier: MIT OR Apache-2.0
// Consumer smoke test of the installed CPU batch engine: a small batch of Ascon-Hash256 jobs
// gives the digests of the single-message code.
#include <lwc/batch.hpp>
#include <lwc/lwc.hpp>

#include <array>
#include <cstdio>
#include <vector>

int main() {
  const std::vector<std::vector<std::uint8_t>> msgs = {{}, {1, 2, 3}, std::vector<std::uint8_t>(100, 7)};
  std::vector<std::array<std::uint8_t, 32>> out(msgs.size());
  std::vector<lwc::batch::hash_job> jobs;
  for (std::size_t i = 0; i < msgs.size(); ++i) jobs.push_back({msgs[i], out[i]});
  lwc::batch::hash("ascon-hash256", jobs);
  bool ok = true;
  for (std::size_t i = 0; i < msgs.size(); ++i) ok = ok && out[i] == lwc::ascon::hash256::digest(msgs[i]);
  std::printf("consumer_batch (%.*s backend): %s\n", static_cast<int>(lwc::batch::default_backend().size()),
              lwc::batch::default_backend().data(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
