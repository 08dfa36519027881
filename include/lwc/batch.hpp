// The CPU batch engine: many independent messages at once, in SIMD lanes (portable, AVX2 x4,
// AVX-512 x8, picked at run time) and across threads. Every job has its own key, nonce,
// associated data and length; results equal the single-message functions of <lwc/ascon.hpp>,
// <lwc/acorn/acorn128.hpp> and <lwc/grain/grain128aead.hpp> byte for byte. Acorn-128 has SIMD
// lanes on the AVX2 and AVX-512 backends only; Grain-128AEADv2 (and Acorn-128 on the portable
// backend) run job by job with the single-message code, and threads share the jobs as for the
// others. Link with lwc::batch.
//
// Misuse warnings, as for single messages: never use a nonce twice under one key; a
// decrypted job's plaintext is valid only when its ok flag is 1 (failed jobs are zeroed).
//
// Threads: `options::threads` workers take jobs from the batch as they go (0: all hardware threads, 1:
// the calling thread only). The functions keep no state between calls and may be called
// from many threads at once. Jobs must not overlap each other's outputs; a job's output may
// be its own input (in place) but must not overlap it otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "common/span.hpp"

namespace lwc::batch {

struct options {
  unsigned threads = 0;           // 0: std::thread::hardware_concurrency(); 1: no extra thread
  std::string_view backend = {};  // empty: default_backend(); else one of available_backends()
};

// Algorithms the engine runs: "ascon-aead128", "ascon-128", "ascon-128a", "ascon-80pq",
// "acorn-128", "grain-128aead" (AEADs), "ascon-hash256", "ascon-xof128", "ascon-hash",
// "ascon-xof".
std::span<const std::string_view> algorithms() noexcept;
bool supports(std::string_view algorithm) noexcept;

// Backends this CPU and OS can run, fastest first ("avx512", "avx2", "portable").
std::span<const std::string_view> available_backends() noexcept;
// The backend used when options::backend is empty: the fastest available, or the one named
// by the environment variable LWC_BACKEND (portable|avx2|avx512) when that one is
// available; read once per process.
std::string_view default_backend() noexcept;
// Messages processed side by side per thread by a backend (its lane count); 0 if unknown.
std::size_t lanes(std::string_view backend) noexcept;

// ---- AEAD: span of jobs ---------------------------------------------------------------------

struct aead_job {
  bytes_view key;         // the algorithm's key size
  bytes_view nonce;       // the algorithm's nonce size: 16 bytes, 12 for grain-128aead
  bytes_view ad;          // associated data, any length
  bytes_view in;          // plaintext to encrypt, or ciphertext to decrypt
  bytes_span out;         // in.size() bytes: ciphertext, or plaintext
  bytes_span tag;         // tag_len bytes: written by encrypt, read by decrypt
  bytes_view second_key;  // ascon-aead128 nonce masking: empty or 16 bytes
};

// tag_len: full_tag gives the algorithm's full tag: 16 bytes, 8 for grain-128aead (the only
// size Acorn and Grain have); ascon-aead128 also takes 4..15.
inline constexpr std::size_t full_tag = 0;

// Throws std::invalid_argument (naming the job) when a size is wrong or the algorithm or
// backend is unknown; nothing is written then.
void encrypt(std::string_view algorithm, std::span<const aead_job> jobs,
             std::size_t tag_len = full_tag, const options& opt = {});

// ok[i] = 1 when job i verified, else 0 and job i's out is zeroed. Returns how many verified.
[[nodiscard]] std::size_t decrypt(std::string_view algorithm, std::span<const aead_job> jobs,
                                  std::span<std::uint8_t> ok, std::size_t tag_len = full_tag,
                                  const options& opt = {});

// ---- AEAD: packed buffers -------------------------------------------------------------------

// n messages back to back: message i is data[offsets[i] .. offsets[i + 1]), offsets has
// n + 1 non-decreasing entries (offsets[0] need not be 0).
struct packed {
  bytes_view data;
  std::span<const std::size_t> offsets;
  std::size_t count() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
};

struct packed_aead_inputs {
  bytes_view keys;         // n * key size
  bytes_view nonces;       // n * nonce size
  packed in;               // plaintexts or ciphertexts; n is in.count()
  packed ad = {};          // no offsets: no associated data; else n + 1 offsets
  bytes_view second_keys;  // ascon-aead128 nonce masking: empty or n * 16
};

// Output i goes to out[in.offsets[i] .. in.offsets[i + 1]) (out.size() >= in.offsets[n]);
// tag i to tags[i * tag_len ..] (tags.size() == n * tag_len).
void encrypt_packed(std::string_view algorithm, const packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len = full_tag, const options& opt = {});
[[nodiscard]] std::size_t decrypt_packed(std::string_view algorithm,
                                         const packed_aead_inputs& in, bytes_view tags,
                                         bytes_span out, std::span<std::uint8_t> ok,
                                         std::size_t tag_len = full_tag,
                                         const options& opt = {});

// ---- hashes and XOFs --------------------------------------------------------------------------

struct hash_job {
  bytes_view in;
  bytes_span out;  // hashes: the digest size (32); XOFs: any length, per job
};

void hash(std::string_view algorithm, std::span<const hash_job> jobs, const options& opt = {});

// Digest i goes to out[i * out_len ..] (out.size() == n * out_len).
void hash_packed(std::string_view algorithm, const packed& in, bytes_span out,
                 std::size_t out_len, const options& opt = {});

}  // namespace lwc::batch
