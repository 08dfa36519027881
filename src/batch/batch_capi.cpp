// SPDX-License-Identifier: MIT OR Apache-2.0
// The C ABI of the batch engine (include/lwc/batch.h) on top of the C++ front end: every
// exception becomes -1 with its message in lwc_error_message(), and nothing is written when an
// argument is rejected.
#include <lwc/batch.h>

#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/common/checked.hpp>

#include "../capi/error.hpp"
#include "../jobs/checks.hpp"
#include "dispatch.hpp"
#include "frontend.hpp"

namespace {

using namespace lwc::batch;
using namespace lwc::batch::detail;
namespace checks = lwc::jobs::checks;

options to_options(const lwc_batch_options* opt) {
  options o;
  if (opt != nullptr) {
    o.threads = opt->threads;
    if (opt->backend != nullptr) o.backend = opt->backend;
  }
  return o;
}

// Every failure leaves its cause in lwc_error_message(): the algorithm, the job and the size.
[[noreturn]] void refuse(const std::string& message) { throw std::invalid_argument(message); }

template <class F>
int guarded(const char* call, F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    lwc::capi::set_error(std::string(call) + ": " + e.what());
  } catch (...) {
    lwc::capi::set_error(std::string(call) + ": unexpected error");
  }
  return -1;
}

const lwc::algorithm& resolve(const char* alg, bool aead) {
  if (alg == nullptr) refuse("algorithm name is NULL");
  return checks::resolve(alg, aead);
}

// A view of n bytes at p, where p may be NULL only when n == 0.
lwc::bytes_view bytes_at(const lwc::algorithm& a, std::size_t i, const void* p, std::size_t n,
                         const char* what) {
  if (p == nullptr && n != 0) checks::fail_job(a, i, std::string(what) + " is NULL");
  return {static_cast<const std::uint8_t*>(p), n};
}

// The span-of-jobs layout of the C ABI, read directly by the engine.
void fetch_c_jobs(const void* ctx, std::size_t first, std::size_t count, aead_desc* out) {
  const lwc_batch_job* jobs = static_cast<const lwc_batch_job*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const lwc_batch_job& j = jobs[first + k];
    out[k] = {j.key, j.second_key, j.nonce, j.ad, j.ad_len, j.in, j.in_len, j.out, j.tag,
              first + k};
  }
}

void fetch_c_hash(const void* ctx, std::size_t first, std::size_t count, sponge_desc* out) {
  const lwc_batch_hash_job* jobs = static_cast<const lwc_batch_hash_job*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const lwc_batch_hash_job& j = jobs[first + k];
    out[k] = {j.in, j.in_len, j.out, j.out_len, j.key, j.customization, j.customization_len};
  }
}

// Throws (naming the job) when an argument is wrong; else returns the bytes of the batch.
std::uint64_t check_c_jobs(const lwc::algorithm& x, std::size_t n, const lwc_batch_job* jobs,
                           std::size_t tag_len, bool decrypt) {
  if (tag_len < x.min_tag_size || tag_len > x.tag_size)
    checks::fail(x, "tag length must be " + checks::sizes(x.min_tag_size, x.tag_size) +
                        " bytes, got " + std::to_string(tag_len));
  if (n != 0 && jobs == nullptr) checks::fail(x, std::to_string(n) + " jobs at NULL");
  lwc::checked_total bytes(x.name);
  for (std::size_t i = 0; i < n; ++i) {
    const lwc_batch_job& j = jobs[i];
    if (j.key == nullptr) checks::fail_job(x, i, "key is NULL");
    if (j.nonce == nullptr) checks::fail_job(x, i, "nonce is NULL");
    if (j.tag == nullptr) checks::fail_job(x, i, "tag is NULL");
    if (j.second_key != nullptr && x.second_key_size == 0)
      checks::fail_job(x, i, "nonce masking (a second key) is not supported");
    const lwc::bytes_view ad = bytes_at(x, i, j.ad, j.ad_len, "associated data");
    const lwc::bytes_view in = bytes_at(x, i, j.in, j.in_len, "input");
    bytes_at(x, i, j.out, j.in_len, "output");
    checks::job_disjoint(x, i, {j.key, x.key_size}, {j.nonce, x.nonce_size}, ad, in, j.out, j.tag,
                         tag_len,
                         j.second_key != nullptr ? lwc::bytes_view(j.second_key, x.second_key_size)
                                                 : lwc::bytes_view{},
                         decrypt);
    bytes.add(j.ad_len).add(j.in_len);
  }
  return bytes.value();
}

// After a decryption: -1 with a message naming how many jobs failed and the first of them.
int verdicts(const lwc::algorithm& a, const char* call, std::span<const std::uint8_t> ok) {
  // Every verdict is read, without a branch on any of them; the flags are the caller's anyway,
  // so the message may then name a failed job.
  std::size_t good = 0;
  for (const std::uint8_t f : ok) good += f;
  if (good == ok.size()) return 0;
  std::size_t first = 0;
  while (ok[first] == 1) ++first;
  lwc::capi::set_error(std::string(call) + ": " + std::string(a.name) + ": " +
                       std::to_string(ok.size() - good) + " of " + std::to_string(ok.size()) +
                       " jobs failed authentication (the first: job " + std::to_string(first) +
                       "; their outputs are zeroed)");
  return -1;
}

int aead_c(const char* call, const char* alg, std::size_t n, const lwc_batch_job* jobs,
           std::size_t tag_len, std::uint8_t* ok, bool decrypt,
           const lwc_batch_options* opt) noexcept {
  return guarded(call, [&] {
    const lwc::algorithm& a = resolve(alg, true);
    const options o = to_options(opt);
    const backend_ops& be = pick_backend(o);
    const std::uint64_t bytes = check_c_jobs(a, n, jobs, tag_len, decrypt);
    if (!decrypt) {
      run_aead(be, a, n, fetch_c_jobs, jobs, bytes, false, tag_len, nullptr, o.threads);
      return 0;
    }
    std::vector<std::uint8_t> own;
    if (ok == nullptr) {
      own.resize(n);
      ok = own.data();
    }
    run_aead(be, a, n, fetch_c_jobs, jobs, bytes, true, tag_len, ok, o.threads);
    return verdicts(a, call, {ok, n});
  });
}

// The packed C buffers' sizes, checked before any offset is read: n + 1 offsets and every
// n * size product must fit in size_t.
struct packed_sizes {
  std::size_t keys, nonces, second_keys, tags;
};
packed_sizes packed_sizes_of(const lwc::algorithm& x, std::size_t n, std::size_t tag_len) {
  lwc::checked_add(n, 1, "offsets");
  return {lwc::checked_mul(n, x.key_size, "keys"), lwc::checked_mul(n, x.nonce_size, "nonces"),
          lwc::checked_mul(n, x.second_key_size, "second keys"),
          lwc::checked_mul(n, tag_len, "tags")};
}

// Views of the packed C buffers for the C++ front end, which checks them again.
packed_aead_inputs packed_view(const lwc::algorithm& x, std::size_t n,
                               const lwc_batch_packed_jobs& j, const packed_sizes& z) {
  if (j.offsets == nullptr) checks::fail(x, "offsets are NULL");
  if (j.keys == nullptr) checks::fail(x, "keys are NULL");
  if (j.nonces == nullptr) checks::fail(x, "nonces are NULL");
  if (j.second_keys != nullptr && x.second_key_size == 0)
    checks::fail(x, "nonce masking (second keys) is not supported");
  packed_aead_inputs in;
  in.keys = {j.keys, z.keys};
  in.nonces = {j.nonces, z.nonces};
  if (j.second_keys != nullptr) in.second_keys = {j.second_keys, z.second_keys};
  if (j.in == nullptr && j.offsets[n] != 0) checks::fail(x, "messages are NULL");
  in.in = {{j.in, j.offsets[n]}, {j.offsets, n + 1}};
  if (j.ad_offsets != nullptr) {
    if (j.ad == nullptr && j.ad_offsets[n] != 0) checks::fail(x, "associated data is NULL");
    in.ad = {{j.ad, j.ad_offsets[n]}, {j.ad_offsets, n + 1}};
  }
  return in;
}

int packed_c(const char* call, const char* alg, std::size_t n, const lwc_batch_packed_jobs* jobs,
             std::uint8_t* out, std::uint8_t* tags, std::size_t tag_len, std::uint8_t* ok,
             bool decrypt, const lwc_batch_options* opt) noexcept {
  return guarded(call, [&] {
    const lwc::algorithm& x = resolve(alg, true);
    if (jobs == nullptr) checks::fail(x, "jobs are NULL");
    const options o = to_options(opt);
    pick_backend(o);  // an unknown backend is refused even for an empty batch
    if (n == 0) return 0;
    const packed_sizes z = packed_sizes_of(x, n, tag_len);
    const packed_aead_inputs in = packed_view(x, n, *jobs, z);
    const std::size_t out_size = jobs->offsets[n];
    if (out == nullptr && out_size != 0) checks::fail(x, "output is NULL");
    if (tags == nullptr && z.tags != 0) checks::fail(x, "tags are NULL");
    if (!decrypt) {
      encrypt_packed(x, in, {out, out_size}, {tags, z.tags}, tag_len, o);
      return 0;
    }
    std::vector<std::uint8_t> own;
    if (ok == nullptr) {
      own.resize(n);
      ok = own.data();
    }
    (void)decrypt_packed(x, in, {tags, z.tags}, {out, out_size}, {ok, n}, tag_len, o);
    return verdicts(x, call, {ok, n});
  });
}

// A C column as the C++ form's (whose checks then run in full); n + 1 offsets when it has any.
template <class Byte, class CColumn>
lwc::jobs::basic_column<Byte> column_of(const lwc::algorithm& x, const char* what,
                                        const CColumn& c, std::size_t n) {
  const auto bad = [&](const char* why) { checks::fail(x, std::string(what) + " column: " + why); };
  if (c.data == nullptr && c.size != 0) bad("data is NULL");
  lwc::jobs::basic_column<Byte> col;
  col.data = {c.data, c.size};
  col.stride = c.stride;
  switch (c.offset_type) {
    case LWC_BATCH_OFFSETS_NONE:
      if (c.offsets != nullptr) bad("offsets given with LWC_BATCH_OFFSETS_NONE");
      return col;
    case LWC_BATCH_OFFSETS_U32: col.offset_kind = lwc::jobs::offset_type::u32; break;
    case LWC_BATCH_OFFSETS_U64: col.offset_kind = lwc::jobs::offset_type::u64; break;
    case LWC_BATCH_OFFSETS_I32: col.offset_kind = lwc::jobs::offset_type::i32; break;
    case LWC_BATCH_OFFSETS_I64: col.offset_kind = lwc::jobs::offset_type::i64; break;
    default: bad("unknown offset_type");
  }
  if (c.offsets == nullptr) bad("offsets are NULL");
  col.offsets = c.offsets;
  col.offset_count = lwc::checked_add(n, 1, "offsets");
  return col;
}

using in_col = const std::uint8_t;
using out_col = std::uint8_t;

lwc::jobs::packed_aead_jobs aead_form_of(const lwc::algorithm& x, const lwc_batch_aead_form& c) {
  const std::size_t n = c.count;
  lwc::jobs::packed_aead_jobs f;
  f.count = n;
  f.keys = column_of<in_col>(x, "key", c.keys, n);
  f.nonces = column_of<in_col>(x, "nonce", c.nonces, n);
  f.ad = column_of<in_col>(x, "associated data", c.ad, n);
  f.second_keys = column_of<in_col>(x, "second key", c.second_keys, n);
  f.in = column_of<in_col>(x, "input", c.in, n);
  f.out = column_of<out_col>(x, "output", c.out, n);
  if (c.tags == LWC_BATCH_TAGS_APPENDED) f.tags = lwc::jobs::tag_place::appended;
  else if (c.tags != LWC_BATCH_TAGS_DETACHED) checks::fail(x, "unknown tag placement");
  f.tags_out = column_of<out_col>(x, "tag", c.tags_out, n);
  f.tags_in = column_of<in_col>(x, "tag", c.tags_in, n);
  return f;
}

int form_c(const char* call, const char* alg, const lwc_batch_aead_form* jobs,
           std::size_t tag_len, std::uint8_t* ok, bool decrypt,
           const lwc_batch_options* opt) noexcept {
  return guarded(call, [&] {
    const lwc::algorithm& x = resolve(alg, true);
    if (jobs == nullptr) checks::fail(x, "jobs are NULL");
    const options o = to_options(opt);
    const lwc::jobs::packed_aead_jobs f = aead_form_of(x, *jobs);
    if (!decrypt) {
      lwc::batch::encrypt(x, f, tag_len, o);
      return 0;
    }
    std::vector<std::uint8_t> own;
    if (ok == nullptr) {
      own.resize(f.count);
      ok = own.data();
    }
    (void)lwc::batch::decrypt(x, f, {ok, f.count}, tag_len, o);
    return verdicts(x, call, {ok, f.count});
  });
}

}  // namespace

extern "C" {

int lwc_batch_encrypt(const char* alg, size_t n, const lwc_batch_job* jobs, size_t tag_len,
                      const lwc_batch_options* opt) {
  return aead_c("lwc_batch_encrypt", alg, n, jobs, tag_len, nullptr, false, opt);
}

int lwc_batch_decrypt(const char* alg, size_t n, const lwc_batch_job* jobs, size_t tag_len,
                      uint8_t* ok, const lwc_batch_options* opt) {
  return aead_c("lwc_batch_decrypt", alg, n, jobs, tag_len, ok, true, opt);
}

int lwc_batch_encrypt_packed(const char* alg, size_t n, const lwc_batch_packed_jobs* jobs,
                             uint8_t* out, uint8_t* tags, size_t tag_len,
                             const lwc_batch_options* opt) {
  return packed_c("lwc_batch_encrypt_packed", alg, n, jobs, out, tags, tag_len, nullptr, false,
                  opt);
}

int lwc_batch_decrypt_packed(const char* alg, size_t n, const lwc_batch_packed_jobs* jobs,
                             const uint8_t* tags, uint8_t* out, size_t tag_len, uint8_t* ok,
                             const lwc_batch_options* opt) {
  // Tags are only read when decrypting.
  return packed_c("lwc_batch_decrypt_packed", alg, n, jobs, out, const_cast<uint8_t*>(tags),
                  tag_len, ok, true, opt);
}

int lwc_batch_hash(const char* alg, size_t n, const lwc_batch_hash_job* jobs,
                   const lwc_batch_options* opt) {
  return guarded("lwc_batch_hash", [&] {
    const lwc::algorithm& x = resolve(alg, false);
    if (n != 0 && jobs == nullptr) checks::fail(x, std::to_string(n) + " jobs at NULL");
    const options o = to_options(opt);
    const backend_ops& be = pick_backend(o);
    lwc::checked_total bytes(x.name);
    for (std::size_t i = 0; i < n; ++i) {
      const lwc_batch_hash_job& j = jobs[i];
      const lwc::bytes_view in = bytes_at(x, i, j.in, j.in_len, "input");
      bytes_at(x, i, j.out, j.out_len, "output");
      if (x.is_keyed() && j.key == nullptr) checks::fail_job(x, i, "key is NULL");
      if (!x.is_keyed() && j.key != nullptr) checks::fail_job(x, i, "takes no key");
      if (x.max_customization_size == 0 && j.customization != nullptr)
        checks::fail_job(x, i, "takes no customization string");
      const lwc::bytes_view key = bytes_at(x, i, j.key, j.key_len, "key");
      const lwc::bytes_view custom =
          bytes_at(x, i, j.customization, j.customization_len, "customization string");
      checks::hash_job_sizes(x, i, j.in_len, j.out_len, j.key_len, j.customization_len);
      checks::hash_job_disjoint(x, i, in, {j.out, j.out_len}, key, custom);
      bytes.add(j.in_len).add(j.out_len);
    }
    run_sponge(be, x, n, fetch_c_hash, jobs, bytes.value(), o.threads);
    return 0;
  });
}

int lwc_batch_hash_packed(const char* alg, size_t n, const uint8_t* in, const size_t* offsets,
                          uint8_t* out, size_t out_len, const lwc_batch_options* opt) {
  return guarded("lwc_batch_hash_packed", [&] {
    const lwc::algorithm& x = resolve(alg, false);
    if (offsets == nullptr) checks::fail(x, "offsets are NULL");
    // Both sizes are checked before offsets[n] is read.
    const std::size_t count = lwc::checked_add(n, 1, "offsets");
    const std::size_t out_size = lwc::checked_mul(n, out_len, "output");
    const std::size_t in_size = n != 0 ? offsets[n] : 0;
    if (in == nullptr && in_size != 0) checks::fail(x, "input is NULL");
    if (out == nullptr && out_size != 0) checks::fail(x, "output is NULL");
    hash_packed(x, packed{{in, in_size}, {offsets, count}}, {out, out_size}, out_len,
                to_options(opt));
    return 0;
  });
}

int lwc_batch_hash_packed_jobs(const char* alg, size_t n, const lwc_batch_packed_hash_jobs* jobs,
                               uint8_t* out, size_t out_len, const lwc_batch_options* opt) {
  return guarded("lwc_batch_hash_packed_jobs", [&] {
    const lwc::algorithm& x = resolve(alg, false);
    if (jobs == nullptr) checks::fail(x, "jobs are NULL");
    if (jobs->offsets == nullptr) checks::fail(x, "offsets are NULL");
    if (x.is_keyed() && jobs->keys == nullptr && n != 0) checks::fail(x, "keys are NULL");
    if (jobs->keys == nullptr && jobs->keys_len != 0) checks::fail(x, "keys are NULL");
    if (!x.is_keyed() && jobs->keys != nullptr) checks::fail(x, "takes no key");
    // The sizes are checked before offsets[n] is read; the C++ front end checks the rest (key
    // bytes against n * key size, offsets, customization lengths, overlaps).
    const std::size_t count = lwc::checked_add(n, 1, "offsets");
    const std::size_t out_size = lwc::checked_mul(n, out_len, "output");
    const std::size_t in_size = jobs->offsets[n];
    if (jobs->in == nullptr && in_size != 0) checks::fail(x, "input is NULL");
    if (out == nullptr && out_size != 0) checks::fail(x, "output is NULL");
    lwc::batch::packed custom;
    if (jobs->customization_offsets != nullptr) {
      const std::size_t custom_size = jobs->customization_offsets[n];
      if (jobs->customization == nullptr && custom_size != 0)
        checks::fail(x, "customization strings are NULL");
      custom = {{jobs->customization, custom_size}, {jobs->customization_offsets, count}};
    } else if (jobs->customization != nullptr) {
      checks::fail(x, "customization strings without customization_offsets");
    }
    hash_packed(x,
                packed_hash_inputs{packed{{jobs->in, in_size}, {jobs->offsets, count}},
                                   {jobs->keys, jobs->keys_len}, custom},
                {out, out_size}, out_len, to_options(opt));
    return 0;
  });
}

int lwc_batch_form_encrypt(const char* alg, const lwc_batch_aead_form* jobs, size_t tag_len,
                           const lwc_batch_options* opt) {
  return form_c("lwc_batch_form_encrypt", alg, jobs, tag_len, nullptr, false, opt);
}

int lwc_batch_form_decrypt(const char* alg, const lwc_batch_aead_form* jobs, size_t tag_len,
                           uint8_t* ok, const lwc_batch_options* opt) {
  return form_c("lwc_batch_form_decrypt", alg, jobs, tag_len, ok, true, opt);
}

int lwc_batch_form_hash(const char* alg, const lwc_batch_hash_form* jobs,
                        const lwc_batch_options* opt) {
  return guarded("lwc_batch_form_hash", [&] {
    const lwc::algorithm& x = resolve(alg, false);
    if (jobs == nullptr) checks::fail(x, "jobs are NULL");
    const std::size_t n = jobs->count;
    lwc::jobs::packed_hash_jobs f;
    f.count = n;
    f.in = column_of<in_col>(x, "input", jobs->in, n);
    f.out = column_of<out_col>(x, "output", jobs->out, n);
    f.keys = column_of<in_col>(x, "key", jobs->keys, n);
    f.customization = column_of<in_col>(x, "customization", jobs->customization, n);
    lwc::batch::hash(x, f, to_options(opt));
    return 0;
  });
}

const char* lwc_batch_default_backend(void) { return default_ops().name; }

int lwc_batch_backend_available(const char* backend) {
  return backend != nullptr && find_runnable(backend) != nullptr ? 1 : 0;
}

size_t lwc_batch_lanes(const char* backend) {
  if (backend == nullptr) return 0;
  const backend_ops* b = find_runnable(backend);
  return b != nullptr ? b->lanes : 0;
}

int lwc_batch_supports(const char* alg) { return alg != nullptr && supports(alg) ? 1 : 0; }

int lwc_batch_has_lanes(const char* alg, const char* backend) {
  return guarded("lwc_batch_has_lanes", [&] {
    if (alg == nullptr) refuse("algorithm name is NULL");
    if (!supports(alg)) refuse("unknown algorithm '" + std::string(alg) + "'");
    if (backend == nullptr) refuse("backend name is NULL");
    if (find_runnable(backend) == nullptr)
      refuse("backend '" + std::string(backend) +
             "' is not available in this build on this CPU (see lwc_batch_backend_available)");
    return has_lanes(alg, backend) ? 1 : 0;
  });
}

}  // extern "C"
