// SPDX-License-Identifier: MIT OR Apache-2.0
// The packed job form: the one way a batch of n jobs reaches lwc's multi-message engines (the
// CPU batch engine <lwc/batch.hpp>, the CUDA engine's host side <lwc/cuda.hpp>, the C ABI
// <lwc/batch.h>). Every per-job field (key, nonce, associated data, message, output, tag,
// customization string) is a column of n byte strings, laid out the way the caller already
// has it: a fixed-stride column (numpy N x L rows, an Arrow fixed_size_binary column) or data
// plus 32- or 64-bit offsets (Arrow binary / large_binary). The engines read and write the
// columns in place: no front end builds per-job lists, rewrites offsets or moves tags.
//
// Misuse warnings, as for single messages: never use a nonce twice under one key; a decrypted
// job's plaintext is valid only when its ok flag is 1 (failed jobs are zeroed).
//
// Shape (n = count):
//   column        fixed(data, stride): element i is data[i * stride .. (i + 1) * stride),
//                 data.size() == n * stride;
//                 with_offsets(data, offsets): element i is data[offsets[i] .. offsets[i + 1]),
//                 n + 1 non-decreasing offsets (uint32, uint64, int32 or int64; signed ones
//                 must not be negative; offsets[0] need not be 0), offsets[n] <= data.size();
//                 a default column is absent (no associated data, no second keys, ...).
//   out_column    the same over writable bytes.
//   packed_aead_jobs  keys, nonces, [second_keys], [ad], in, out, and the tags: appended to
//                 each ciphertext (encrypt writes them after each output element, decrypt
//                 reads them from the end of each input element) or detached (tags_out when
//                 encrypting, tags_in when decrypting; element i is tag i).
//   packed_hash_jobs  in, out (fixed stride: one output length; offsets: one per job, for
//                 XOFs and PRFs), [keys] (MACs, PRFs), [customization] (CXOFs).
//
// Rules (checked by the engines, std::invalid_argument naming the algorithm, the column and
// the job, before anything is written; every size through checked arithmetic):
//   - a fixed key, nonce, second-key or detached-tag column's stride is exactly the
//     algorithm's size (the tag length for tags): nothing here shares one key or one nonce
//     between jobs; an offset column of them must give each job exactly that size;
//   - element sizes agree: out element i is in element i's size, plus the tag when encrypting
//     with appended tags, minus it when decrypting with appended tags (a ciphertext element
//     shorter than the tag is refused);
//   - outputs (out, tags_out, ok flags) share no byte with any input column, offset array or
//     other output; the one exception is out == in exactly (same bytes and layout, tags
//     detached: in place). Elements of one column never overlap (offsets do not decrease),
//     so overlaps between jobs cannot arise.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "common/span.hpp"

namespace lwc::jobs {

// How an offset column stores its offsets (Arrow: int32 for binary, int64 for large_binary).
enum class offset_type : std::uint8_t { none, u32, u64, i32, i64 };

// The integer types an offset column may hold, and the offset_type each one is.
template <class T>
concept offset_integer = std::integral<T> && (sizeof(T) == 4 || sizeof(T) == 8);

// The offset_type of offsets of type T.
template <class T>
constexpr offset_type offset_type_of() noexcept {
  if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? offset_type::i32 : offset_type::u32;
  else return std::is_signed_v<T> ? offset_type::i64 : offset_type::u64;
}

// A column of n byte strings over `Byte` (const std::uint8_t for inputs, std::uint8_t for
// outputs). Build one with fixed() or with_offsets(); a default one is absent.
template <class Byte>
struct basic_column {
  std::span<Byte> data;  // every element's bytes
  std::size_t stride = 0;         // fixed columns: the size of every element
  const void* offsets = nullptr;  // offset columns: offset_count entries of offset_kind
  std::size_t offset_count = 0;   // n + 1
  offset_type offset_kind = offset_type::none;  // none for fixed columns

  static constexpr basic_column fixed(std::span<Byte> data, std::size_t stride) noexcept {
    return {data, stride, nullptr, 0, offset_type::none};
  }
  template <offset_integer Offset>
  static constexpr basic_column with_offsets(std::span<Byte> data,
                                             std::span<const Offset> offsets) noexcept {
    return {data, 0, offsets.data(), offsets.size(), offset_type_of<Offset>()};
  }

  // Whether the column was built with with_offsets().
  constexpr bool has_offsets() const noexcept { return offset_kind != offset_type::none; }
  // Absent: neither data nor offsets nor a stride (no associated data, no second keys, ...).
  constexpr bool absent() const noexcept {
    return !has_offsets() && stride == 0 && data.empty();
  }
};

// A column the engines read (inputs), and one they write (outputs).
using column = basic_column<const std::uint8_t>;
using out_column = basic_column<std::uint8_t>;

// Where an AEAD job's tag lives.
enum class tag_place : std::uint8_t {
  detached,  // its own column: tags_out when encrypting, tags_in when decrypting
  appended,  // right after the ciphertext: in out's elements (encrypt), in in's (decrypt)
};

// n AEAD jobs as columns (the shape and rules above): encrypt reads in and writes out (and
// tags_out when detached); decrypt reads in (and tags_in) and writes out.
struct packed_aead_jobs {
  std::size_t count = 0;        // n
  column keys;                  // the algorithm's key size per job
  column nonces;                // the algorithm's nonce size per job
  column ad = {};               // absent: no associated data
  column second_keys = {};      // nonce masking (ascon-aead128); absent: none
  column in;                    // plaintexts, or ciphertexts (+ tag when appended)
  out_column out;               // ciphertexts (+ tag when appended), or plaintexts
  tag_place tags = tag_place::detached;  // where the tags are
  out_column tags_out = {};     // encrypt, detached: tag_len bytes per job; else absent
  column tags_in = {};          // decrypt, detached: tag_len bytes per job; else absent
};

// n hash, XOF, CXOF, MAC or PRF jobs as columns (the shape and rules above).
struct packed_hash_jobs {
  std::size_t count = 0;        // n
  column in;                    // messages
  out_column out;               // digests: fixed (one length) or offsets (one per job)
  column keys = {};             // MACs and PRFs: the key size per job; others: absent
  column customization = {};    // CXOFs: absent (none) or one string per job
};

}  // namespace lwc::jobs
