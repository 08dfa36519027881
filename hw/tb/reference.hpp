// SPDX-License-Identifier: MIT OR Apache-2.0
// The test bench's software side: jobs, what the C++ core of lwc expects of them, KAT files and
// random jobs. Compiled once, without Verilator, and linked into every simulation binary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hwtb {

using bytes = std::vector<std::uint8_t>;

// The header's mode field, as the cores decode it.
enum mode : int { encrypt = 0, decrypt = 1, hash = 2, xof = 3 };

struct job {
  std::string algorithm;   // registry name: ascon-aead128, ascon-hash256, ascon-xof128, acorn-128
  int mode = encrypt;
  bytes key, nonce, ad, msg, tag;   // msg: plaintext, ciphertext or hash input; tag: decrypt only
  std::size_t out_len = 0;          // XOF output bytes
};

// What the hardware must return for a job: DATA bytes, then a tag (encrypt), the verification
// result (decrypt; a failed one returns no data at all) or nothing more (hash).
struct expected {
  bytes data;
  bytes tag;                 // encrypt: the tag, or the prefix of it that a KAT file gives
  bool ok = true;            // decrypt
};

// One check: jobs that pass or fail together (a KAT vector may run encrypt and decrypt).
struct check {
  std::string label;
  std::vector<job> jobs;
  std::vector<expected> want;
};

// The registry's answer for a job (lwc's header-only C++ core).
expected reference(const job& j);

// Checks from a NIST LWC KAT file (Count/Key/Nonce/PT/AD/CT[/Tag] or Count/Msg/MD).
// Records the hardware cannot express (a second key, a truncated tag to verify) are counted in
// `skipped` with a reason in `notes`.
std::vector<check> kat_checks(const std::string& algorithm, const std::string& path,
                              int& skipped, std::vector<std::string>& notes);

// Random jobs for a core family ("ascon" or "acorn"): lengths from 0 up, with block-boundary
// lengths favoured; valid and tampered decryptions; hashes and XOF outputs for Ascon.
std::vector<check> random_checks(const std::string& family, std::size_t count,
                                 std::uint64_t seed, std::size_t max_len);

std::string hex(const bytes& b);

}  // namespace hwtb
