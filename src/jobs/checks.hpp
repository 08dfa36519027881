// The argument checks of both engines (CPU batch, CUDA), written once over <lwc/jobs.hpp> and
// the registry: every size an algorithm has comes from its registry entry, never restated.
// Each check throws std::invalid_argument naming the algorithm (and the job, for spans of
// jobs) and the size it expected, before anything is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <lwc/jobs.hpp>
#include <lwc/registry.hpp>

namespace lwc::jobs::checks {

[[noreturn]] inline void fail(const algorithm& a, const std::string& what) {
  throw std::invalid_argument(std::string(a.name) + ": " + what);
}
[[noreturn]] inline void fail_job(const algorithm& a, std::size_t i, const std::string& what) {
  fail(a, "job " + std::to_string(i) + ": " + what);
}

inline std::string sizes(std::size_t lo, std::size_t hi) {
  return lo == hi ? std::to_string(hi) : std::to_string(lo) + " to " + std::to_string(hi);
}

inline void expect_size(const algorithm& a, std::size_t i, const char* what, std::size_t got,
                        std::size_t want) {
  if (got != want)
    fail_job(a, i, std::string(what) + " must be " + std::to_string(want) + " bytes, got " +
                       std::to_string(got));
}
inline void expect_total(const algorithm& a, const char* what, std::size_t got, std::size_t want) {
  if (got != want)
    fail(a, std::string(what) + " must be " + std::to_string(want) + " bytes, got " +
                std::to_string(got));
}

// The registry entry of `r`, which must be of the wanted kind (AEAD or not). `engine` names
// the engine in the message for an unknown name.
inline const algorithm& resolve(algorithm_ref r, bool want_aead) {
  const algorithm* a = r.entry() != nullptr ? r.entry() : find_algorithm(r.name());
  if (a == nullptr) throw std::invalid_argument("unknown algorithm '" + std::string(r.name()) + "'");
  if (a->is_aead() != want_aead)
    fail(*a, want_aead ? "not an AEAD algorithm" : "not a hash, XOF, MAC or PRF algorithm");
  return *a;
}

// full_tag stands for the algorithm's full tag.
inline std::size_t tag_length(const algorithm& a, std::size_t tag_len) {
  const std::size_t t = tag_len == full_tag ? a.tag_size : tag_len;
  if (t < a.min_tag_size || t > a.tag_size)
    fail(a, "tag length must be " + sizes(a.min_tag_size, a.tag_size) + " bytes, got " +
                std::to_string(t));
  return t;
}

// Returns the bytes of the batch (inputs), which size the thread split.
inline std::uint64_t aead_jobs(const algorithm& a, std::span<const aead_job> jobs,
                               std::size_t tag_len) {
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const aead_job& j = jobs[i];
    bytes += j.ad.size() + j.in.size();
    expect_size(a, i, "key", j.key.size(), a.key_size);
    expect_size(a, i, "nonce", j.nonce.size(), a.nonce_size);
    expect_size(a, i, "output buffer", j.out.size(), j.in.size());
    expect_size(a, i, "tag buffer", j.tag.size(), tag_len);
    if (!j.second_key.empty()) {
      if (a.second_key_size == 0) fail_job(a, i, "nonce masking is not supported");
      expect_size(a, i, "second key", j.second_key.size(), a.second_key_size);
    }
  }
  return bytes;
}

inline void offset_count(const algorithm& a, const char* what, std::span<const std::size_t> off,
                         std::size_t n) {
  if (off.size() != n + 1 && !(n == 0 && off.empty()))
    fail(a, std::string(what) + " offsets: " + std::to_string(n + 1) + " entries needed, got " +
                std::to_string(off.size()));
}

// Offsets in host memory: their values can be read.
inline void offset_values(const algorithm& a, const char* what, std::span<const std::size_t> off,
                          std::size_t n, std::size_t data_size) {
  for (std::size_t i = 0; i < n; ++i)
    if (off[i + 1] < off[i])
      fail(a, std::string(what) + " offsets decrease at entry " + std::to_string(i + 1));
  if (n != 0 && off[n] > data_size)
    fail(a, std::string(what) + " offsets run past the end of the data (" +
                std::to_string(off[n]) + " > " + std::to_string(data_size) + ")");
}

// Where the offsets live: in host memory they are read and checked; in device memory only
// their count can be, and the output must then cover the whole input buffer.
enum class memory : std::uint8_t { host, device };

// Sizes of a packed AEAD batch (n = in.in.count()).
inline void packed_aead(const algorithm& a, const packed_aead_inputs& in, std::size_t out_size,
                        std::size_t tags_size, std::size_t tag_len, const std::size_t* ok_size,
                        memory where) {
  const std::size_t n = in.in.count();
  offset_count(a, "message", in.in.offsets, n);
  const bool has_ad = !in.ad.offsets.empty();
  if (has_ad) offset_count(a, "associated data", in.ad.offsets, n);
  if (where == memory::host) {
    offset_values(a, "message", in.in.offsets, n, in.in.data.size());
    if (has_ad) offset_values(a, "associated data", in.ad.offsets, n, in.ad.data.size());
  }
  expect_total(a, "keys", in.keys.size(), n * a.key_size);
  expect_total(a, "nonces", in.nonces.size(), n * a.nonce_size);
  if (!in.second_keys.empty()) {
    if (a.second_key_size == 0) fail(a, "nonce masking is not supported");
    expect_total(a, "second keys", in.second_keys.size(), n * a.second_key_size);
  }
  const std::size_t need =
      where == memory::host ? (n != 0 ? in.in.offsets[n] : 0) : in.in.data.size();
  if (n != 0 && out_size < need)
    fail(a, "output buffer must hold " + std::to_string(need) + " bytes, got " +
                std::to_string(out_size));
  expect_total(a, "tags", tags_size, n * tag_len);
  if (ok_size != nullptr && *ok_size != n)
    fail(a, "ok flags: " + std::to_string(n) + " needed, got " + std::to_string(*ok_size));
}

inline std::uint64_t packed_bytes(const packed_aead_inputs& in) {
  const std::size_t n = in.in.count();
  if (n == 0) return 0;
  std::uint64_t bytes = in.in.offsets[n] - in.in.offsets[0];
  if (!in.ad.offsets.empty()) bytes += in.ad.offsets[n] - in.ad.offsets[0];
  return bytes;
}

// One hash job's output length, key and customization (i: the job, for the message).
inline void hash_job_sizes(const algorithm& a, std::size_t i, std::size_t in_len,
                           std::size_t out_len, std::size_t key_len, std::size_t custom_len) {
  if (a.max_output_size != 0) expect_size(a, i, "digest buffer", out_len, a.output_size);
  if (in_len > a.max_input_size)
    fail_job(a, i, "input must be at most " + std::to_string(a.max_input_size) + " bytes, got " +
                       std::to_string(in_len));
  if (a.is_keyed()) expect_size(a, i, "key", key_len, a.key_size);
  else if (key_len != 0) fail_job(a, i, "takes no key");
  if (custom_len > a.max_customization_size)
    fail_job(a, i, a.max_customization_size == 0
                       ? std::string("takes no customization string")
                       : "customization string must be at most " +
                             std::to_string(a.max_customization_size) + " bytes");
}

// Returns the bytes of the batch (inputs and outputs).
inline std::uint64_t hash_jobs(const algorithm& a, std::span<const hash_job> jobs) {
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const hash_job& j = jobs[i];
    hash_job_sizes(a, i, j.in.size(), j.out.size(), j.key.size(), j.customization.size());
    bytes += j.in.size() + j.out.size();
  }
  return bytes;
}

inline void packed_hash(const algorithm& a, const packed_hash_inputs& in, std::size_t out_size,
                        std::size_t out_len, memory where) {
  const std::size_t n = in.in.count();
  offset_count(a, "message", in.in.offsets, n);
  const bool has_custom = !in.customization.offsets.empty();
  if (has_custom) offset_count(a, "customization", in.customization.offsets, n);
  if (where == memory::host) {
    offset_values(a, "message", in.in.offsets, n, in.in.data.size());
    if (has_custom)
      offset_values(a, "customization", in.customization.offsets, n, in.customization.data.size());
  }
  if (n != 0 && a.max_output_size != 0 && out_len != a.output_size)
    fail(a, "digest length must be " + std::to_string(a.output_size) + " bytes, got " +
                std::to_string(out_len));
  if (a.is_keyed()) expect_total(a, "keys", in.keys.size(), n * a.key_size);
  else if (!in.keys.empty()) fail(a, "takes no key");
  if (has_custom && a.max_customization_size == 0) fail(a, "takes no customization string");
  if (where == memory::host) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t len = in.in.offsets[i + 1] - in.in.offsets[i];
      if (len > a.max_input_size)
        fail_job(a, i, "input must be at most " + std::to_string(a.max_input_size) +
                           " bytes, got " + std::to_string(len));
      if (has_custom &&
          in.customization.offsets[i + 1] - in.customization.offsets[i] > a.max_customization_size)
        fail_job(a, i, "customization string must be at most " +
                           std::to_string(a.max_customization_size) + " bytes");
    }
  }
  expect_total(a, "output buffer", out_size, n * out_len);
}

}  // namespace lwc::jobs::checks
