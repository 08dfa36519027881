// SPDX-License-Identifier: MIT OR Apache-2.0
// The CPU batch engine: many independent messages at once, in SIMD lanes (portable, AVX2,
// AVX-512 or NEON, picked at run time) and across threads. It runs every algorithm of the registry
// (lwc::algorithms()): those with a lane kernel for the chosen backend in SIMD lanes, all others
// job by job with the single-message core, threads sharing the jobs either way; has_lanes() (and
// `lwc list`) tells which path runs. Results equal the single-message
// functions byte for byte. The jobs and their checks are those of <lwc/jobs.hpp>, shared with
// the CUDA engine. Link with lwc::batch.
//
// Misuse warnings, as for single messages: never use a nonce twice under one key; a
// decrypted job's plaintext is valid only when its ok flag is 1 (failed jobs are zeroed).
//
// Threads: `options::threads` workers take jobs from the batch as they go (0: all hardware threads, 1:
// the calling thread only). The functions keep no state between calls and may be called
// from many threads at once.
//
// Buffers: every output (ciphertext or plaintext, tags when encrypting, digests, ok flags)
// must be disjoint from every input of every job (keys, nonces, associated data, messages,
// tags when decrypting) and from every other output; the one exception is a job's output
// exactly equal to its own input (in place, AEADs only). The engine checks what is cheap and
// throws std::invalid_argument before writing anything: each job's outputs against its own
// inputs, and in the packed forms the output and tag buffers against every input buffer.
// Overlaps between different jobs of a span are not detected: they are the caller's to avoid.
//
// Sizes: a product or sum of sizes that does not fit in size_t (n * tag_len, n * out_len, the
// bytes of a batch) is refused with std::invalid_argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "jobs.hpp"
#include "packed_jobs.hpp"

namespace lwc::batch {

// The job types and full_tag of <lwc/jobs.hpp> and <lwc/packed_jobs.hpp>, by their names here.
using jobs::aead_job;
using jobs::full_tag;
using jobs::hash_job;
using jobs::packed;
using jobs::packed_aead_inputs;
using jobs::packed_hash_inputs;
using jobs::packed_aead_jobs;
using jobs::packed_hash_jobs;

// How a call runs (never what it computes: results are the same for every choice).
struct options {
  unsigned threads = 0;           // 0: std::thread::hardware_concurrency(); 1: no extra thread
  std::string_view backend = {};  // empty: default_backend(); else one of available_backends()
};

// Every registered algorithm, in registry order.
std::span<const std::string_view> algorithms() noexcept;
// Whether `algorithm` is a registered name.
bool supports(std::string_view algorithm) noexcept;
// Whether `backend` runs the algorithm in SIMD lanes (else job by job); false if either is
// unknown.
bool has_lanes(algorithm_ref algorithm, std::string_view backend) noexcept;

// Backends this CPU and OS can run, fastest first ("avx512", "avx2", "portable" on x86-64;
// "neon", "portable" on AArch64).
std::span<const std::string_view> available_backends() noexcept;
// The backend used when options::backend is empty: the fastest available, or the one named
// by the environment variable LWC_BACKEND (portable|avx2|avx512|neon) when that one is
// available; read once per process.
std::string_view default_backend() noexcept;
// Messages processed side by side per thread by a backend (its lane count: 16 for avx512, 8
// for avx2, 4 for neon, 2 for portable, whose kernels of 32-bit lanes, Xoodyak and SPARKLE,
// run 4); 0 if unknown.
std::size_t lanes(std::string_view backend) noexcept;

// ---- AEAD -----------------------------------------------------------------------------------
// Throws std::invalid_argument (naming the job) when a size is wrong or the algorithm or
// backend is unknown; nothing is written then.

// Encrypts every job: job i's out gets its ciphertext, its tag the tag of tag_len bytes.
void encrypt(algorithm_ref algorithm, std::span<const aead_job> jobs,
             std::size_t tag_len = full_tag, const options& opt = {});

// ok[i] = 1 when job i verified, else 0 and job i's out is zeroed. Returns how many verified.
[[nodiscard]] std::size_t decrypt(algorithm_ref algorithm, std::span<const aead_job> jobs,
                                  std::span<std::uint8_t> ok, std::size_t tag_len = full_tag,
                                  const options& opt = {});

// Output i goes to out[in.offsets[i] .. in.offsets[i + 1]) (out.size() >= in.offsets[n]);
// tag i to tags[i * tag_len ..] (tags.size() == n * tag_len).
void encrypt_packed(algorithm_ref algorithm, const packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len = full_tag, const options& opt = {});
[[nodiscard]] std::size_t decrypt_packed(algorithm_ref algorithm, const packed_aead_inputs& in,
                                         bytes_view tags, bytes_span out,
                                         std::span<std::uint8_t> ok,
                                         std::size_t tag_len = full_tag,
                                         const options& opt = {});

// The packed job form (<lwc/packed_jobs.hpp>): every column read and written in place, tags
// appended or detached. The forms above are adapters onto these.
void encrypt(algorithm_ref algorithm, const packed_aead_jobs& jobs,
             std::size_t tag_len = full_tag, const options& opt = {});
// ok[i] = 1 when job i verified, else 0 and job i's output is zeroed (ok.size() == count).
[[nodiscard]] std::size_t decrypt(algorithm_ref algorithm, const packed_aead_jobs& jobs,
                                  std::span<std::uint8_t> ok, std::size_t tag_len = full_tag,
                                  const options& opt = {});

// ---- hashes, XOFs, CXOFs, MACs, PRFs --------------------------------------------------------

// Each job's out receives the output of its in (with its key or customization string).
void hash(algorithm_ref algorithm, std::span<const hash_job> jobs, const options& opt = {});

// The packed job form: output i is element i of jobs.out.
void hash(algorithm_ref algorithm, const packed_hash_jobs& jobs, const options& opt = {});

// Output i goes to out[i * out_len ..] (out.size() == n * out_len).
void hash_packed(algorithm_ref algorithm, const packed_hash_inputs& in, bytes_span out,
                 std::size_t out_len, const options& opt = {});
inline void hash_packed(algorithm_ref algorithm, const packed& in, bytes_span out,
                        std::size_t out_len, const options& opt = {}) {
  hash_packed(algorithm, packed_hash_inputs{in}, out, out_len, opt);
}

}  // namespace lwc::batch
