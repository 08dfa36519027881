// SPDX-License-Identifier: MIT OR Apache-2.0
// Every algorithm the chosen backend has no lane kernel for, job after job through its registry
// entry (the single-message core behind a function pointer): no per-algorithm code, so a new
// registry entry runs here with no edit. Compiled for the baseline CPU like the front end: the
// cores pick their own BMI2 paths at run time, and nothing here is built with a backend's flags.
#include <lwc/registry.hpp>

#include "backend.hpp"

namespace lwc::batch::detail {

namespace {

// Jobs fetched per claim: enough to amortize the claim, few enough to keep the threads even.
constexpr std::size_t jobs_per_claim = 16;

}  // namespace

void run_aead_job_by_job(const aead_task& t) {
  const lwc::algorithm& a = *t.alg;
  aead_desc jobs[jobs_per_claim];
  std::size_t first = 0;
  for (std::size_t m; (m = t.claim(t.claim_ctx, jobs_per_claim, &first)) != 0;) {
    t.fetch(t.ctx, first, m, jobs);
    for (std::size_t k = 0; k < m; ++k) {
      const aead_desc& d = jobs[k];
      if (t.decrypt) {
        // The core zeroes the output itself when the tag does not verify.
        const bool ok = a.decrypt(d.key, d.second_key, d.nonce, d.ad, d.ad_len, d.in, d.len,
                                  d.tag, t.tag_len, d.out);
        t.ok[d.index] = ok ? 1 : 0;
      } else {
        a.encrypt(d.key, d.second_key, d.nonce, d.ad, d.ad_len, d.in, d.len, d.out, d.tag,
                  t.tag_len);
      }
    }
  }
}

void run_sponge_job_by_job(const sponge_task& t) {
  const lwc::algorithm& a = *t.alg;
  sponge_desc jobs[jobs_per_claim];
  alignas(8) std::uint8_t state[lwc::max_hash_state_size];
  std::size_t first = 0;
  for (std::size_t m; (m = t.claim(t.claim_ctx, jobs_per_claim, &first)) != 0;) {
    t.fetch(t.ctx, first, m, jobs);
    for (std::size_t k = 0; k < m; ++k) {
      const sponge_desc& d = jobs[k];
      a.init(state, d.key, d.custom, d.custom_len);
      a.absorb(state, d.in, d.len);
      a.squeeze(state, d.out, d.out_len);
      a.destroy(state);  // wipes the state (a MAC's holds its key)
    }
  }
}

}  // namespace lwc::batch::detail
