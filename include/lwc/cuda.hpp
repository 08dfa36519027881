// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA batch engine: many independent messages at once on an NVIDIA GPU, one thread per
// message, for every algorithm of the registry. The jobs and their checks are those of the
// CPU batch engine: the packed job form (<lwc/packed_jobs.hpp>; a key and nonce per job,
// optional associated data and nonce-masking keys; hashes: keys for MACs and PRFs,
// customization strings for CXOFs), and the results equal lwc::batch and the single-message
// functions byte for byte. Algorithms with a warp kernel (Ascon-AEAD128, -128, -128a,
// -Hash256, -XOF128) stage each warp's bytes through shared memory; all others run the
// single-message code on each thread's job directly. Link with lwc::cuda (built when CMake
// finds nvcc); this header needs no CUDA header.
//
// Two forms of each call, both on the packed job form (<lwc/packed_jobs.hpp>):
//   *_async: every column in device memory, read and written where it is; work is queued on
//     `stream` and the call returns at once (results are there once the stream has run).
//   the others: every column in host memory (pageable or pinned); the batch is cut into
//     chunks staged through pinned buffers, copies in and out overlapping the kernels on
//     several streams, and the call returns when all results are in place.
//
// Misuse warnings, as for single messages: never use a nonce twice under one key; decrypted
// output is valid only where ok[i] == 1 (failed jobs are zeroed). Errors throw
// lwc::cuda::error (lwc::cuda::no_device when no GPU can be used); wrong sizes throw
// std::invalid_argument before anything is queued. With device memory the kernels check each
// job's offsets (see "device memory" below).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/span.hpp"
#include "jobs.hpp"
#include "packed_jobs.hpp"

struct CUstream_st;

namespace lwc::cuda {

// cudaStream_t; nullptr is the default stream.
using stream_t = CUstream_st*;

// The errors of the CUDA engine: what the CUDA runtime reported; no_device when no GPU can
// be used.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class no_device : public error {
 public:
  using error::error;
};

// True when the CUDA runtime finds at least one usable device (checked once per process).
bool available() noexcept;
// Number of usable devices; 0 without a driver or GPU.
int device_count() noexcept;
// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"; throws no_device.
std::string device_description(int device = -1);

// Every registered algorithm, in registry order (the kernels are instantiated from the list).
std::span<const std::string_view> algorithms() noexcept;
bool supports(std::string_view algorithm) noexcept;

// ---- device memory ----------------------------------------------------------------------------
// The packed job form (<lwc/packed_jobs.hpp>) with every column, offsets array and ok flag in
// device memory on the current device (cudaSetDevice): fixed or offset columns (32- or 64-bit
// offsets, aligned to their width), tags appended or detached, read and written in place. The
// work is queued on `stream` and the call returns at once. tag_len as in lwc::batch: 4..16 for
// ascon-aead128, the full tag otherwise; jobs::full_tag stands for the algorithm's full tag.
//
// Checked here (std::invalid_argument, nothing queued): every shape that needs no offset value
// (strides, buffer sizes, offset counts, overlaps between the columns' buffers). Offsets in
// device memory are checked by the kernels, job by job: a job whose offsets decrease or run
// past its column's buffer, or whose key, nonce, tag or output has the wrong size, is skipped:
// when decrypting it fails (ok = 0) with its own output bytes zeroed; when encrypting or
// hashing its output is left as it was.

// Writes each job's ciphertext and its tag (tag_len bytes) where the form places them.
void encrypt_async(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
                   std::size_t tag_len, stream_t stream);
// ok[i] = 1 when job i verified, else 0 and job i's output is zeroed.
void decrypt_async(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
                   std::span<std::uint8_t> ok, std::size_t tag_len, stream_t stream);
// Fixed-size algorithms: every output element their size; XOFs and PRFs: any size per job.
void hash_async(algorithm_ref algorithm, const jobs::packed_hash_jobs& jobs, stream_t stream);

// ---- host memory ------------------------------------------------------------------------------

// Values out of range are clamped to it. The staging buffers (pinned and device) are zeroed
// after every call, successful or not; at most four pipelines (sets of streams and buffers)
// per device are kept between calls, the least recently used freed first.
struct host_options {
  int device = -1;                      // -1: the current device
  unsigned streams = 3;                 // chunks in flight: copy in, compute, copy out; 1..16
  std::size_t chunk_bytes = 32u << 20;  // input bytes per chunk (less for small batches); 4 KiB..1 GiB
  unsigned copy_threads = 0;            // CPU threads copying pageable memory, 1..32; 0: half
                                        // the hardware threads, at most 8
};

// Same arguments and results as lwc::batch::encrypt_packed / decrypt_packed / hash_packed.
void encrypt_packed(algorithm_ref algorithm, const jobs::packed_aead_inputs& in,
                    bytes_span out, bytes_span tags, std::size_t tag_len = jobs::full_tag,
                    const host_options& opt = {});
[[nodiscard]] std::size_t decrypt_packed(algorithm_ref algorithm,
                                         const jobs::packed_aead_inputs& in, bytes_view tags,
                                         bytes_span out, std::span<std::uint8_t> ok,
                                         std::size_t tag_len = jobs::full_tag,
                                         const host_options& opt = {});
void hash_packed(algorithm_ref algorithm, const jobs::packed_hash_inputs& in, bytes_span out,
                 std::size_t out_len, const host_options& opt = {});
inline void hash_packed(algorithm_ref algorithm, const jobs::packed& in, bytes_span out,
                        std::size_t out_len, const host_options& opt = {}) {
  hash_packed(algorithm, jobs::packed_hash_inputs{in}, out, out_len, opt);
}

// The packed job form (<lwc/packed_jobs.hpp>) in host memory, every layout (fixed or offset
// columns, tags appended or detached): same arguments and results as lwc::batch's.
void encrypt(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
             std::size_t tag_len = jobs::full_tag, const host_options& opt = {});
[[nodiscard]] std::size_t decrypt(algorithm_ref algorithm, const jobs::packed_aead_jobs& jobs,
                                  std::span<std::uint8_t> ok,
                                  std::size_t tag_len = jobs::full_tag,
                                  const host_options& opt = {});
void hash(algorithm_ref algorithm, const jobs::packed_hash_jobs& jobs,
          const host_options& opt = {});

// Page-locked host memory: batches in it are copied by DMA directly, without staging.
class pinned_buffer {
 public:
  // Empty; the other constructor allocates `size` bytes.
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t size);  // throws no_device / error
  pinned_buffer(pinned_buffer&&) noexcept = default;
  pinned_buffer& operator=(pinned_buffer&&) noexcept = default;
  // The memory (null when default-constructed), its size and both as a span.
  std::uint8_t* data() noexcept { return mem_.get(); }
  const std::uint8_t* data() const noexcept { return mem_.get(); }
  std::size_t size() const noexcept { return size_; }
  bytes_span span() noexcept { return {mem_.get(), size_}; }

 private:
  struct release {
    void operator()(std::uint8_t* p) const noexcept;
  };
  std::unique_ptr<std::uint8_t, release> mem_;
  std::size_t size_ = 0;
};

}  // namespace lwc::cuda
