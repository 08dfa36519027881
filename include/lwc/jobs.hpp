// SPDX-License-Identifier: MIT OR Apache-2.0
// The jobs of lwc's multi-message engines: the CPU batch engine (<lwc/batch.hpp>) and the CUDA
// engine (<lwc/cuda.hpp>) take the same job layouts, name the algorithm the same way and check
// the same sizes. Every job has its own key, nonce, associated data and length.
//
// Misuse warnings, as for single messages: never use a nonce twice under one key; a decrypted
// job's plaintext is valid only when its ok flag is 1 (failed jobs are zeroed).
//
// Every output (out, tags when encrypting, digests) must be disjoint from every input of every
// job and from the other outputs; only a job's out starting at its own in (in place) is
// allowed. The engines refuse the overlaps they can see cheaply (see <lwc/batch.hpp>).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "common/span.hpp"

namespace lwc {

struct algorithm;  // registry.hpp

// The algorithm of a batch: its registry name ("ascon-aead128", ...) or its registry entry
// (lwc::get_algorithm(name), an element of lwc::algorithms()). A name is looked up when the
// call runs; an unknown one is reported there.
class algorithm_ref {
 public:
  // Implicit from a registry entry, or from a name as a string of any kind.
  algorithm_ref(const algorithm& a) noexcept : entry_(&a) {}  // NOLINT: implicit by design
  algorithm_ref(std::string_view name) noexcept : name_(name) {}  // NOLINT
  algorithm_ref(const char* name) noexcept : name_(name) {}  // NOLINT
  template <class S>
    requires(std::convertible_to<const S&, std::string_view> &&
             !std::same_as<S, std::string_view>)
  algorithm_ref(const S& name) noexcept : name_(std::string_view(name)) {}  // NOLINT

  // The registry entry it was made from (null when made from a name), and the name (empty
  // when made from an entry).
  const algorithm* entry() const noexcept { return entry_; }
  std::string_view name() const noexcept { return name_; }

 private:
  const algorithm* entry_ = nullptr;
  std::string_view name_;
};

namespace jobs {

// tag_len: full_tag gives the algorithm's full tag; AEADs that allow truncation (ascon-aead128:
// 4..16) also take shorter lengths.
inline constexpr std::size_t full_tag = 0;

// ---- AEAD: span of jobs ---------------------------------------------------------------------

// One message to encrypt or decrypt, each field in the caller's memory.
struct aead_job {
  bytes_view key;         // the algorithm's key size
  bytes_view nonce;       // the algorithm's nonce size
  bytes_view ad;          // associated data, any length
  bytes_view in;          // plaintext to encrypt, or ciphertext to decrypt
  bytes_span out;         // in.size() bytes: ciphertext, or plaintext
  bytes_span tag;         // tag_len bytes: written by encrypt, read by decrypt
  bytes_view second_key;  // nonce masking (ascon-aead128): empty or the second key's size
};

// ---- packed buffers -------------------------------------------------------------------------

// n messages back to back: message i is data[offsets[i] .. offsets[i + 1]), offsets has
// n + 1 non-decreasing entries (offsets[0] need not be 0).
struct packed {
  bytes_view data;
  std::span<const std::size_t> offsets;
  // n: one less than the number of offsets (0 without offsets).
  std::size_t count() const noexcept { return offsets.empty() ? 0 : offsets.size() - 1; }
};

// The inputs of n AEAD jobs as packed columns: key i and nonce i at i times their size.
struct packed_aead_inputs {
  bytes_view keys;         // n * key size
  bytes_view nonces;       // n * nonce size
  packed in;               // plaintexts or ciphertexts; n is in.count()
  packed ad = {};          // no offsets: no associated data; else n + 1 offsets
  bytes_view second_keys;  // nonce masking: empty or n * second key size
};

// ---- hashes, XOFs, CXOFs, MACs and PRFs -------------------------------------------------------

// One message to hash (or MAC, PRF, XOF), each field in the caller's memory.
struct hash_job {
  bytes_view in;                 // the message
  bytes_span out;                // fixed-size algorithms: their output size; XOFs, PRFs: any
  bytes_view key = {};           // MACs and PRFs: the key; others: empty
  bytes_view customization = {}; // CXOFs: the customization string (may be empty)
};

// The inputs of n hash jobs as packed columns: message i is in's element i.
struct packed_hash_inputs {
  packed in;              // the messages; n is in.count()
  bytes_view keys;        // MACs and PRFs: n * key size; others: empty
  packed customization;   // CXOFs: no offsets (no customization) or n + 1 offsets

  // A constructor rather than an aggregate, so that a call given {data, offsets} picks the
  // engines' overload for plain packed messages without ambiguity.
  packed_hash_inputs(packed messages, bytes_view keys_ = {}, packed customization_ = {}) noexcept
      : in(messages), keys(keys_), customization(customization_) {}
};

}  // namespace jobs
}  // namespace lwc
