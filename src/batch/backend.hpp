// SPDX-License-Identifier: MIT OR Apache-2.0
// The boundary between the batch front end (batch.cpp, compiled for the baseline CPU) and the
// backends (one translation unit per instruction set). Only plain data and function pointers
// cross it, so no inline code compiled for one instruction set is shared with another.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include <lwc/algorithm_list.hpp>

namespace lwc {
struct algorithm;
}

namespace lwc::batch::detail {

// One AEAD job as the engine sees it. `in` is the plaintext (encryption) or ciphertext
// (decryption), `out` receives the other one; `tag` is written by encryption and read by
// decryption. `index` is the job's position in the caller's batch (for the ok flags). Key,
// nonce and tag have the algorithm's sizes, checked by the front end.
struct aead_desc {
  const std::uint8_t* key;
  const std::uint8_t* second_key;  // nonce-masking key, or null
  const std::uint8_t* nonce;
  const std::uint8_t* ad;
  std::size_t ad_len;
  const std::uint8_t* in;
  std::size_t len;
  std::uint8_t* out;
  std::uint8_t* tag;
  std::size_t index;
};

// Fills out[0 .. count) with the jobs first .. first + count of the caller's batch, whatever
// its layout (array of jobs or packed buffers). Called once per job, in groups.
using aead_fetch = void (*)(const void* ctx, std::size_t first, std::size_t count,
                            aead_desc* out);

// Hands the next jobs of the batch to whichever thread asks: up to `max` consecutive job
// indices from *first on; returns how many, 0 once the batch is exhausted. Threads that
// claim as they go finish together even when one starts late or shares its core.
using claim_fn = std::size_t (*)(void* ctx, std::size_t max, std::size_t* first);

struct aead_task {
  const lwc::algorithm* alg;  // the registry entry (used by the job-by-job path)
  bool decrypt;
  std::size_t tag_len;
  aead_fetch fetch;
  const void* ctx;
  claim_fn claim;
  void* claim_ctx;
  std::uint8_t* ok;  // decryption: ok[index] = 1 when the tag verified, else 0
};

// One hash, XOF, CXOF, MAC or PRF job; key and customization only where the algorithm has
// them.
struct sponge_desc {
  const std::uint8_t* in;
  std::size_t len;
  std::uint8_t* out;
  std::size_t out_len;
  const std::uint8_t* key = nullptr;
  const std::uint8_t* custom = nullptr;
  std::size_t custom_len = 0;
};

using sponge_fetch = void (*)(const void* ctx, std::size_t first, std::size_t count,
                              sponge_desc* out);

struct sponge_task {
  const lwc::algorithm* alg;
  sponge_fetch fetch;
  const void* ctx;
  claim_fn claim;
  void* claim_ctx;
};

// Every algorithm without a lane kernel on the chosen backend runs here, one job after the
// other with the single-message core, through its registry entry: no per-algorithm code. It is
// compiled for the baseline CPU (job_by_job.cpp), so no core code is built with a backend's
// instruction set; threads still share the batch through the task's claim function.
void run_aead_job_by_job(const aead_task& t);
void run_sponge_job_by_job(const sponge_task& t);

// Whether the CPU has GFNI and AVX-512 VBMI beside the avx512 backend's AVX-512F/BW, for the
// lane kernels that have a faster form with them (dispatch.cpp: a backend unit must not
// instantiate the CPU check, an inline function, with its own instruction set).
bool cpu_has_gfni_vbmi() noexcept;

using aead_kernel = void (*)(const aead_task&);
using sponge_kernel = void (*)(const sponge_task&);

// A backend: its lane kernels, indexed by the algorithm's position in the list (null where the
// algorithm has none on this backend), compiled for one instruction set.
struct backend_ops {
  const char* name;
  std::size_t lanes;
  std::array<aead_kernel, algorithm_count> aead;
  std::array<sponge_kernel, algorithm_count> sponge;
  // Ascon's p^rounds (12, 8 or 6) on `count` states of five words each, in place; for tests.
  void (*permute)(std::uint64_t* states, std::size_t count, int rounds);
};

}  // namespace lwc::batch::detail

namespace lwc::simd::portable {
extern const lwc::batch::detail::backend_ops ops;
}
namespace lwc::simd::avx2 {
extern const lwc::batch::detail::backend_ops ops;
}
namespace lwc::simd::avx512 {
extern const lwc::batch::detail::backend_ops ops;
}
namespace lwc::simd::neon {
extern const lwc::batch::detail::backend_ops ops;
}
