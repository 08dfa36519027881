// The AEADs the lane engine has no lanes for (Grain-128AEADv2; Acorn-128 on the portable
// backend), job after job through the single-message core. Compiled for the baseline CPU like
// the front end: the core picks its own BMI2 paths at run time, and nothing here is built with
// a backend's flags.
#include <lwc/acorn/acorn128.hpp>
#include <lwc/grain/grain128aead.hpp>

#include "backend.hpp"

namespace lwc::batch::detail {

namespace {

// Jobs fetched per claim: enough to amortize the claim, few enough to keep the threads even.
constexpr std::size_t jobs_per_claim = 16;

template <class Algorithm>
void run_jobs(const aead_task& t) {
  aead_desc jobs[jobs_per_claim];
  std::size_t first = 0;
  for (std::size_t m; (m = t.claim(t.claim_ctx, jobs_per_claim, &first)) != 0;) {
    t.fetch(t.ctx, first, m, jobs);
    for (std::size_t k = 0; k < m; ++k) {
      const aead_desc& d = jobs[k];
      if (t.decrypt) {
        // The core zeroes the output itself when the tag does not verify.
        const bool ok = Algorithm::decrypt(d.key, nullptr, d.nonce, d.ad, d.ad_len, d.in, d.len,
                                           d.tag, t.tag_len, d.out);
        t.ok[d.index] = ok ? 1 : 0;
      } else {
        Algorithm::encrypt(d.key, nullptr, d.nonce, d.ad, d.ad_len, d.in, d.len, d.out, d.tag,
                           t.tag_len);
      }
    }
  }
}

}  // namespace

void run_aead_job_by_job(const aead_task& t) {
  switch (t.alg) {
    case aead_id::acorn128: return run_jobs<lwc::acorn::acorn128>(t);
    case aead_id::grain128aead: return run_jobs<lwc::grain::grain128aead>(t);
    case aead_id::aead128:
    case aead_id::ascon128:
    case aead_id::ascon128a:
    case aead_id::ascon80pq: return;  // run in lanes by the backends, never passed here
  }
}

}  // namespace lwc::batch::detail
