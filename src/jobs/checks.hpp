// SPDX-License-Identifier: MIT OR Apache-2.0
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
#include <type_traits>
#include <vector>

#include <lwc/common/checked.hpp>
#include <lwc/common/overlap.hpp>
#include <lwc/jobs.hpp>
#include <lwc/packed_jobs.hpp>
#include <lwc/registry.hpp>

#include "columns.hpp"

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

// One job's outputs against its own inputs: out may be exactly in (in place) and must not
// otherwise overlap in, key, nonce, associated data, second key or tag; when encrypting, the
// tag is an output too and must not overlap any of them. (Overlaps between different jobs
// are the caller's to avoid: checking them would cost a sort of every buffer.)
inline void job_disjoint(const algorithm& a, std::size_t i, bytes_view key, bytes_view nonce,
                         bytes_view ad, bytes_view in, const std::uint8_t* out,
                         const std::uint8_t* tag, std::size_t tag_len, bytes_view second_key,
                         bool decrypt) {
  const auto refuse = [&](const char* output, const char* input) {
    fail_job(a, i, std::string(output) + " overlaps the " + input +
                       " (outputs must not share memory with inputs, except out == in)");
  };
  const std::size_t len = in.size();
  if (bad_in_place(out, len, in.data(), len)) refuse("output", "input");
  const struct {
    bytes_view range;
    const char* name;
  } inputs[] = {{key, "key"}, {nonce, "nonce"}, {ad, "associated data"},
                {second_key, "second key"}};
  for (const auto& x : inputs) {
    if (ranges_overlap(out, len, x.range.data(), x.range.size())) refuse("output", x.name);
    if (!decrypt && ranges_overlap(tag, tag_len, x.range.data(), x.range.size()))
      refuse("tag", x.name);
  }
  if (ranges_overlap(out, len, tag, tag_len)) refuse("output", "tag");
  if (!decrypt && ranges_overlap(tag, tag_len, in.data(), len)) refuse("tag", "input");
}

// Returns the bytes of the batch (inputs), which size the thread split.
inline std::uint64_t aead_jobs(const algorithm& a, std::span<const aead_job> jobs,
                               std::size_t tag_len, bool decrypt) {
  checked_total bytes(a.name);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const aead_job& j = jobs[i];
    bytes.add(j.ad.size()).add(j.in.size());
    expect_size(a, i, "key", j.key.size(), a.key_size);
    expect_size(a, i, "nonce", j.nonce.size(), a.nonce_size);
    expect_size(a, i, "output buffer", j.out.size(), j.in.size());
    expect_size(a, i, "tag buffer", j.tag.size(), tag_len);
    if (!j.second_key.empty()) {
      if (a.second_key_size == 0) fail_job(a, i, "nonce masking is not supported");
      expect_size(a, i, "second key", j.second_key.size(), a.second_key_size);
    }
    job_disjoint(a, i, j.key, j.nonce, j.ad, j.in, j.out.data(), j.tag.data(), j.tag.size(),
                 j.second_key, decrypt);
  }
  return bytes.value();
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
  expect_total(a, "keys", in.keys.size(), checked_mul(n, a.key_size, a.name));
  expect_total(a, "nonces", in.nonces.size(), checked_mul(n, a.nonce_size, a.name));
  if (!in.second_keys.empty()) {
    if (a.second_key_size == 0) fail(a, "nonce masking is not supported");
    expect_total(a, "second keys", in.second_keys.size(),
                 checked_mul(n, a.second_key_size, a.name));
  }
  const std::size_t need =
      where == memory::host ? (n != 0 ? in.in.offsets[n] : 0) : in.in.data.size();
  if (n != 0 && out_size < need)
    fail(a, "output buffer must hold " + std::to_string(need) + " bytes, got " +
                std::to_string(out_size));
  expect_total(a, "tags", tags_size, checked_mul(n, tag_len, a.name));
  if (ok_size != nullptr && *ok_size != n)
    fail(a, "ok flags: " + std::to_string(n) + " needed, got " + std::to_string(*ok_size));
}

// Outputs against inputs of a packed AEAD batch (host memory): out may be exactly the
// message buffer (in place) and must otherwise share no byte with the messages, keys, nonces,
// second keys, associated data or tags; encrypted tags must share none with any input or out.
// Every output of every job lies in out or tags, every input in the input buffers, so four
// comparisons per pair of buffers cover all the jobs. (in: the messages' span as passed; its
// size bounds every message.)
inline void packed_aead_disjoint(const algorithm& a, const packed_aead_inputs& in,
                                 bytes_span out, bytes_view tags, bool decrypt) {
  const auto refuse = [&](const char* output, const char* input) {
    fail(a, std::string(output) + " buffer overlaps the " + input +
                " buffer (outputs must not share memory with inputs, except out == in)");
  };
  if (bad_in_place(out.data(), out.size(), in.in.data.data(), in.in.data.size()))
    refuse("output", "message");
  const struct {
    bytes_view range;
    const char* name;
  } inputs[] = {{in.keys, "key"},
                {in.nonces, "nonce"},
                {in.second_keys, "second key"},
                {in.ad.offsets.empty() ? bytes_view{} : in.ad.data, "associated data"}};
  for (const auto& x : inputs) {
    if (ranges_overlap(out.data(), out.size(), x.range.data(), x.range.size()))
      refuse("output", x.name);
    if (!decrypt && ranges_overlap(tags.data(), tags.size(), x.range.data(), x.range.size()))
      refuse("tag", x.name);
  }
  if (ranges_overlap(out.data(), out.size(), tags.data(), tags.size())) refuse("output", "tag");
  if (!decrypt && ranges_overlap(tags.data(), tags.size(), in.in.data.data(), in.in.data.size()))
    refuse("tag", "message");
}

// Outputs against inputs of a packed hash batch (host memory): no sharing at all, not even
// exactly in place (a digest is not a transformation of its message).
inline void packed_hash_disjoint(const algorithm& a, const packed_hash_inputs& in,
                                 bytes_span out) {
  const struct {
    bytes_view range;
    const char* name;
  } inputs[] = {{in.in.data, "message"},
                {in.keys, "key"},
                {in.customization.offsets.empty() ? bytes_view{} : in.customization.data,
                 "customization"}};
  for (const auto& x : inputs)
    if (ranges_overlap(out.data(), out.size(), x.range.data(), x.range.size()))
      fail(a, std::string("output buffer overlaps the ") + x.name +
                  " buffer (outputs must not share memory with inputs)");
}

inline std::uint64_t packed_bytes(const algorithm& a, const packed_aead_inputs& in) {
  const std::size_t n = in.in.count();
  if (n == 0) return 0;
  checked_total bytes(a.name);
  bytes.add(in.in.offsets[n] - in.in.offsets[0]);
  if (!in.ad.offsets.empty()) bytes.add(in.ad.offsets[n] - in.ad.offsets[0]);
  return bytes.value();
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

// One hash job's output against its own inputs (no sharing, not even exactly in place).
inline void hash_job_disjoint(const algorithm& a, std::size_t i, bytes_view in, bytes_span out,
                              bytes_view key, bytes_view customization) {
  const struct {
    bytes_view range;
    const char* name;
  } inputs[] = {{in, "input"}, {key, "key"}, {customization, "customization string"}};
  for (const auto& x : inputs)
    if (ranges_overlap(out.data(), out.size(), x.range.data(), x.range.size()))
      fail_job(a, i, std::string("output overlaps the ") + x.name +
                         " (outputs must not share memory with inputs)");
}

// Returns the bytes of the batch (inputs and outputs).
inline std::uint64_t hash_jobs(const algorithm& a, std::span<const hash_job> jobs) {
  checked_total bytes(a.name);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const hash_job& j = jobs[i];
    hash_job_sizes(a, i, j.in.size(), j.out.size(), j.key.size(), j.customization.size());
    hash_job_disjoint(a, i, j.in, j.out, j.key, j.customization);
    bytes.add(j.in.size()).add(j.out.size());
  }
  return bytes.value();
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
  if (a.is_keyed()) expect_total(a, "keys", in.keys.size(), checked_mul(n, a.key_size, a.name));
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
  expect_total(a, "output buffer", out_size, checked_mul(n, out_len, a.name));
}

// Whether every output element of two offset columns is its input element's size - shrink +
// grow, with no input element below shrink: one pass in each column's own offset type,
// without a branch per element. False also when either column is fixed: the caller then
// walks the elements one by one, which also names the first job that does not fit.
inline bool sizes_match(const column& in, const out_column& out, std::size_t n, std::size_t shrink,
                        std::size_t grow) noexcept {
  if (!in.has_offsets() || !out.has_offsets()) return false;
  return columns::with_offset_type(in.offset_kind, [&](auto in_zero) {
    return columns::with_offset_type(out.offset_kind, [&](auto out_zero) {
      using I = decltype(in_zero);
      using O = decltype(out_zero);
      // Sizes as 64-bit differences (the offsets are checked to be non-decreasing): an output
      // size o and input size i fit when o + shrink == i + grow and i >= shrink.
      bool bad = false;
      for (std::size_t i = 0; i < n; ++i) {
        const auto in_size = static_cast<std::uint64_t>(columns::entry<I>(in.offsets, i + 1)) -
                             static_cast<std::uint64_t>(columns::entry<I>(in.offsets, i));
        const auto out_size = static_cast<std::uint64_t>(columns::entry<O>(out.offsets, i + 1)) -
                              static_cast<std::uint64_t>(columns::entry<O>(out.offsets, i));
        bad |= (out_size + shrink != in_size + grow) | (in_size < shrink);
      }
      return !bad;
    });
  });
}

// ---- the packed job form (<lwc/packed_jobs.hpp>, host memory) -------------------------------

// The first k in [1, entries) where entry k is below entry k - 1, or entries when there is
// none. Blocks of entries are checked without a branch per entry (the loop vectorizes); only
// a block that holds a decrease is walked again to find it.
template <class T>
std::size_t first_decrease(const void* offsets, std::size_t entries) noexcept {
  constexpr std::size_t block = 1024;
  for (std::size_t start = 1; start < entries; start += block) {
    const std::size_t end = entries - start < block ? entries : start + block;
    bool decreases = false;
    for (std::size_t k = start; k < end; ++k)
      decreases |= columns::entry<T>(offsets, k) < columns::entry<T>(offsets, k - 1);
    if (decreases)
      for (std::size_t k = start; k < end; ++k)
        if (columns::entry<T>(offsets, k) < columns::entry<T>(offsets, k - 1)) return k;
  }
  return entries;
}

// One column's shape, for n jobs: a fixed column's data is exactly n * stride bytes; an offset
// column has n + 1 entries (of either width, signed or not) that start at or above 0, never
// decrease and end inside the data. Returns the bytes of its n elements. Offsets in device
// memory cannot be read here: they must be aligned to their width, and the CUDA kernels
// check each job's pair (the bound returned is then the data's size).
template <class Byte>
std::size_t column_shape(const algorithm& a, const char* what, const basic_column<Byte>& c,
                   std::size_t n, memory where = memory::host) {
  const auto bad = [&](const std::string& why) { fail(a, std::string(what) + " column: " + why); };
  if (!c.has_offsets()) {
    if (c.offsets != nullptr || c.offset_count != 0) bad("offsets given without their type");
    const std::size_t need = checked_mul(n, c.stride, a.name);
    if (c.data.size() != need)
      bad(std::to_string(n) + " elements of " + std::to_string(c.stride) + " bytes need " +
          std::to_string(need) + " bytes, got " + std::to_string(c.data.size()));
    return need;
  }
  if (columns::offset_width(c.offset_kind) == 0) bad("unknown offset type");
  if (c.stride != 0) bad("a stride and offsets both given");
  const std::size_t entries = checked_add(n, 1, a.name);
  if (c.offset_count != entries)
    bad(std::to_string(entries) + " offsets needed, got " + std::to_string(c.offset_count));
  if (c.offsets == nullptr) bad("offsets are null");
  if (where == memory::device) {
    if (reinterpret_cast<std::uintptr_t>(c.offsets) % columns::offset_width(c.offset_kind) != 0)
      bad("offsets in device memory must be aligned to their width");
    return c.data.size();
  }
  // Non-decreasing from a non-negative first entry: every entry is non-negative.
  return columns::with_offset_type(c.offset_kind, [&](auto zero) -> std::size_t {
    using T = decltype(zero);
    const T first = columns::entry<T>(c.offsets, 0);
    if constexpr (std::is_signed_v<T>)
      if (first < 0) bad("offset 0 is negative");
    const std::size_t k = first_decrease<T>(c.offsets, entries);
    if (k != entries) bad("offsets decrease at entry " + std::to_string(k));
    const auto last = static_cast<std::uint64_t>(columns::entry<T>(c.offsets, entries - 1));
    if (last > c.data.size())
      bad("offsets run past the end of the data (" + std::to_string(last) + " > " +
          std::to_string(c.data.size()) + ")");
    return static_cast<std::size_t>(last - static_cast<std::uint64_t>(first));
  });
}

// Every element of a checked column is `size` bytes: a fixed column's stride is exactly that
// (never 0 for "one for all": a key or nonce is not shared between jobs). An empty batch has
// no elements to check, so it needs no key or nonce buffer.
template <class Byte>
void element_size(const algorithm& a, const char* what, const basic_column<Byte>& c, std::size_t n,
                  std::size_t size, const char* size_name, memory where = memory::host) {
  if (n == 0) return;
  if (!c.has_offsets()) {
    if (c.stride != size)
      fail(a, std::string(what) + " column: stride must be " + std::to_string(size) + " bytes (" +
                  size_name + "), got " + std::to_string(c.stride));
    return;
  }
  if (where == memory::device) return;  // the kernels check each job's element
  const columns::reader<Byte> r(c);
  for (std::size_t i = 0; i < n; ++i)
    if (r[i].size != size)
      fail_job(a, i, std::string(what) + " must be " + std::to_string(size) + " bytes (" +
                         size_name + "), got " + std::to_string(r[i].size));
}

// At most `limit` bytes per element.
template <class Byte>
void element_limit(const algorithm& a, const char* what, const basic_column<Byte>& c,
                   std::size_t n, std::size_t limit, memory where = memory::host) {
  const columns::reader<Byte> r(c);
  if (!c.has_offsets()) {
    if (n != 0 && c.stride > limit)
      fail(a, std::string(what) + " column: elements must be at most " + std::to_string(limit) +
                  " bytes, got " + std::to_string(c.stride));
    return;
  }
  if (where == memory::device) return;  // the kernels check each job's element
  for (std::size_t i = 0; i < n; ++i)
    if (r[i].size > limit)
      fail_job(a, i, std::string(what) + " must be at most " + std::to_string(limit) +
                         " bytes, got " + std::to_string(r[i].size));
}

// The byte ranges of a column: its data and its offsets array (an output written over an
// offsets array would move the jobs read after it).
struct named_range {
  const void* p;
  std::size_t size;
  const char* name;
};
template <class Byte>
void add_ranges(std::vector<named_range>& v, const basic_column<Byte>& c, const char* data_name,
                const char* offsets_name) {
  v.push_back({c.data.data(), c.data.size(), data_name});
  if (c.has_offsets())
    v.push_back({c.offsets, c.offset_count * columns::offset_width(c.offset_kind), offsets_name});
}

inline void outputs_disjoint(const algorithm& a, const std::vector<named_range>& outputs,
                             const std::vector<named_range>& inputs) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    for (const named_range& x : inputs)
      if (ranges_overlap(outputs[o].p, outputs[o].size, x.p, x.size))
        fail(a, std::string(outputs[o].name) + " overlaps the " + x.name +
                    " (outputs must not share memory with inputs, except out == in)");
    for (std::size_t p = o + 1; p < outputs.size(); ++p)
      if (ranges_overlap(outputs[o].p, outputs[o].size, outputs[p].p, outputs[p].size))
        fail(a, std::string(outputs[o].name) + " overlaps the " + outputs[p].name);
  }
}

// The form's out exactly over its in: same bytes, same layout (element i of out is element
// i of in), tags detached. The engines read each byte before they write it.
inline bool in_place(const packed_aead_jobs& f) {
  const jobs::column& in = f.in;
  const out_column& out = f.out;
  return f.tags == tag_place::detached && out.data.data() == in.data.data() &&
         out.data.size() == in.data.size() && out.stride == in.stride &&
         out.offset_kind == in.offset_kind && out.offsets == in.offsets;
}

// Every check of a packed AEAD form; returns the bytes of the batch (messages and associated
// data), which size the thread split. ok_size: the ok flags' count when decrypting. In device
// memory (the CUDA engine's asynchronous calls) every check that needs no offset value.
inline std::uint64_t aead_form(const algorithm& a, const packed_aead_jobs& f, std::size_t tag_len,
                               bool decrypt, const std::uint8_t* ok, std::size_t ok_size,
                               memory where = memory::host) {
  const std::size_t n = f.count;
  column_shape(a, "key", f.keys, n, where);
  element_size(a, "key", f.keys, n, a.key_size, "the key size", where);
  column_shape(a, "nonce", f.nonces, n, where);
  element_size(a, "nonce", f.nonces, n, a.nonce_size, "the nonce size", where);
  if (!f.second_keys.absent()) {
    if (a.second_key_size == 0) fail(a, "nonce masking (second keys) is not supported");
    column_shape(a, "second key", f.second_keys, n, where);
    element_size(a, "second key", f.second_keys, n, a.second_key_size, "the second key size",
                 where);
  }
  checked_total bytes(a.name);
  bytes.add(column_shape(a, "associated data", f.ad, n, where));
  bytes.add(column_shape(a, "input", f.in, n, where));
  column_shape(a, "output", f.out, n, where);
  const bool appended = f.tags == tag_place::appended;
  if (!appended && f.tags != tag_place::detached) fail(a, "unknown tag placement");
  if (appended) {
    if (!f.tags_in.absent() || !f.tags_out.absent())
      fail(a, "tag columns given with tags appended to the ciphertexts");
  } else if (decrypt) {
    if (!f.tags_out.absent()) fail(a, "decryption reads tags_in; tags_out must be absent");
    column_shape(a, "tag", f.tags_in, n, where);
    element_size(a, "tag", f.tags_in, n, tag_len, "the tag length", where);
  } else {
    if (!f.tags_in.absent()) fail(a, "encryption writes tags_out; tags_in must be absent");
    column_shape(a, "tag", f.tags_out, n, where);
    element_size(a, "tag", f.tags_out, n, tag_len, "the tag length", where);
  }
  // Output element i against input element i: the same size, plus the tag when encrypting
  // with appended tags, minus it when decrypting so.
  const std::size_t grow = appended && !decrypt ? tag_len : 0;
  const std::size_t shrink = appended && decrypt ? tag_len : 0;
  if (!f.in.has_offsets() && !f.out.has_offsets() && n != 0) {
    if (f.in.stride < shrink)
      fail(a, "input column: ciphertexts of " + std::to_string(f.in.stride) +
                  " bytes cannot hold a " + std::to_string(tag_len) + "-byte tag");
    if (f.out.stride != checked_add(f.in.stride - shrink, grow, a.name))
      fail(a, "output column: stride must be " + std::to_string(f.in.stride - shrink + grow) +
                  " bytes, got " + std::to_string(f.out.stride));
  } else if (where == memory::host && !sizes_match(f.in, f.out, n, shrink, grow)) {
    const columns::reader<const std::uint8_t> in(f.in);
    const columns::reader<std::uint8_t> out(f.out);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t len = in[i].size;
      if (len < shrink)
        fail_job(a, i, "ciphertext of " + std::to_string(len) + " bytes cannot hold a " +
                           std::to_string(tag_len) + "-byte tag");
      const std::size_t want = checked_add(len - shrink, grow, a.name);
      if (out[i].size != want)
        fail_job(a, i, "output must be " + std::to_string(want) + " bytes, got " +
                           std::to_string(out[i].size));
    }
  }
  if (decrypt && ok_size != n)
    fail(a, "ok flags: " + std::to_string(n) + " needed, got " + std::to_string(ok_size));

  std::vector<named_range> inputs, outputs;
  add_ranges(inputs, f.keys, "key column", "key offsets");
  add_ranges(inputs, f.nonces, "nonce column", "nonce offsets");
  add_ranges(inputs, f.second_keys, "second key column", "second key offsets");
  add_ranges(inputs, f.ad, "associated data column", "associated data offsets");
  const bool same = in_place(f);
  if (same) {
    if (f.in.has_offsets())
      inputs.push_back({f.in.offsets,
                        f.in.offset_count * columns::offset_width(f.in.offset_kind),
                        "input offsets"});
  } else {
    add_ranges(inputs, f.in, "input column", "input offsets");
  }
  add_ranges(inputs, f.tags_in, "tag column", "tag offsets");
  outputs.push_back({f.out.data.data(), f.out.data.size(), "output column"});
  if (f.out.has_offsets() && !same)
    inputs.push_back({f.out.offsets,
                      f.out.offset_count * columns::offset_width(f.out.offset_kind),
                      "output offsets"});
  outputs.push_back({f.tags_out.data.data(), f.tags_out.data.size(), "tag column"});
  if (f.tags_out.has_offsets())
    inputs.push_back({f.tags_out.offsets,
                      f.tags_out.offset_count * columns::offset_width(f.tags_out.offset_kind),
                      "tag offsets"});
  if (decrypt) outputs.push_back({ok, ok_size, "ok flags"});
  outputs_disjoint(a, outputs, inputs);
  return bytes.value();
}

// Every check of a packed hash form; returns the bytes of the batch (inputs and outputs). In
// device memory, every check that needs no offset value (as aead_form).
inline std::uint64_t hash_form(const algorithm& a, const packed_hash_jobs& f,
                               memory where = memory::host) {
  const std::size_t n = f.count;
  checked_total bytes(a.name);
  bytes.add(column_shape(a, "input", f.in, n, where));
  if (a.max_input_size != SIZE_MAX) element_limit(a, "input", f.in, n, a.max_input_size, where);
  bytes.add(column_shape(a, "output", f.out, n, where));
  if (a.max_output_size != 0)
    element_size(a, "output", f.out, n, a.output_size, "the output size", where);
  if (a.is_keyed()) {
    column_shape(a, "key", f.keys, n, where);
    element_size(a, "key", f.keys, n, a.key_size, "the key size", where);
  } else if (!f.keys.absent()) {
    fail(a, "takes no key");
  }
  if (!f.customization.absent()) {
    if (a.max_customization_size == 0) fail(a, "takes no customization string");
    column_shape(a, "customization", f.customization, n, where);
    element_limit(a, "customization string", f.customization, n, a.max_customization_size,
                  where);
  }
  std::vector<named_range> inputs, outputs;
  add_ranges(inputs, f.in, "input column", "input offsets");
  add_ranges(inputs, f.keys, "key column", "key offsets");
  add_ranges(inputs, f.customization, "customization column", "customization offsets");
  if (f.out.has_offsets())
    inputs.push_back({f.out.offsets,
                      f.out.offset_count * columns::offset_width(f.out.offset_kind),
                      "output offsets"});
  outputs.push_back({f.out.data.data(), f.out.data.size(), "output column"});
  outputs_disjoint(a, outputs, inputs);
  return bytes.value();
}

}  // namespace lwc::jobs::checks
