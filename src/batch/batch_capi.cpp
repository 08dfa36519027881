// The C ABI of the batch engine (include/lwc/batch.h) on top of the C++ front end: every
// exception becomes -1, and nothing is written when an argument is rejected.
#include <lwc/batch.h>

#include <cstring>
#include <exception>
#include <string_view>
#include <vector>

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

bool bytes_ok(const void* p, std::size_t n) { return p != nullptr || n == 0; }

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
    out[k] = {j.in, j.in_len, j.out, j.out_len};  // unkeyed: checked by the caller
  }
}

// False when an argument is wrong; else adds the bytes of the batch to *bytes.
bool check_c_jobs(const lwc::algorithm& x, std::size_t n, const lwc_batch_job* jobs,
                  std::size_t tag_len, std::uint64_t* bytes) {
  if (tag_len < x.min_tag_size || tag_len > x.tag_size) return false;
  if (n != 0 && jobs == nullptr) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const lwc_batch_job& j = jobs[i];
    if (j.key == nullptr || j.nonce == nullptr || j.tag == nullptr) return false;
    if (!bytes_ok(j.ad, j.ad_len) || !bytes_ok(j.in, j.in_len) || !bytes_ok(j.out, j.in_len))
      return false;
    if (j.second_key != nullptr && x.second_key_size == 0) return false;
    *bytes += j.ad_len + j.in_len;
  }
  return true;
}

int aead_c(const char* alg, std::size_t n, const lwc_batch_job* jobs, std::size_t tag_len,
           std::uint8_t* ok, bool decrypt, const lwc_batch_options* opt) noexcept {
  try {
    if (alg == nullptr) return -1;
    const lwc::algorithm& a = checks::resolve(alg, true);
    const options o = to_options(opt);
    const backend_ops& be = pick_backend(o);
    std::uint64_t bytes = 0;
    if (!check_c_jobs(a, n, jobs, tag_len, &bytes)) return -1;
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
    // Every verdict is read, without a branch on any of them.
    unsigned rejected = 0;
    for (std::size_t i = 0; i < n; ++i) rejected |= static_cast<unsigned>(ok[i] ^ 1u);
    return rejected == 0 ? 0 : -1;
  } catch (...) {
    return -1;
  }
}

// Views of the packed C buffers for the C++ front end, which checks them again.
packed_aead_inputs packed_view(const lwc::algorithm& x, std::size_t n,
                               const lwc_batch_packed_jobs& j) {
  packed_aead_inputs in;
  in.keys = {j.keys, n * x.key_size};
  in.nonces = {j.nonces, n * x.nonce_size};
  if (j.second_keys != nullptr) in.second_keys = {j.second_keys, n * x.second_key_size};
  in.in = {{j.in, j.offsets[n]}, {j.offsets, n + 1}};
  if (j.ad_offsets != nullptr) in.ad = {{j.ad, j.ad_offsets[n]}, {j.ad_offsets, n + 1}};
  return in;
}

bool packed_pointers_ok(std::size_t n, const lwc_batch_packed_jobs* j) {
  if (j == nullptr || j->offsets == nullptr) return false;
  if (n == 0) return true;
  if (j->keys == nullptr || j->nonces == nullptr || !bytes_ok(j->in, j->offsets[n])) return false;
  if (j->ad_offsets != nullptr && !bytes_ok(j->ad, j->ad_offsets[n])) return false;
  return true;
}

}  // namespace

extern "C" {

int lwc_batch_encrypt(const char* alg, size_t n, const lwc_batch_job* jobs, size_t tag_len,
                      const lwc_batch_options* opt) {
  return aead_c(alg, n, jobs, tag_len, nullptr, false, opt);
}

int lwc_batch_decrypt(const char* alg, size_t n, const lwc_batch_job* jobs, size_t tag_len,
                      uint8_t* ok, const lwc_batch_options* opt) {
  return aead_c(alg, n, jobs, tag_len, ok, true, opt);
}

int lwc_batch_encrypt_packed(const char* alg, size_t n, const lwc_batch_packed_jobs* jobs,
                             uint8_t* out, uint8_t* tags, size_t tag_len,
                             const lwc_batch_options* opt) {
  try {
    if (alg == nullptr || !packed_pointers_ok(n, jobs)) return -1;
    const lwc::algorithm& x = checks::resolve(alg, true);
    if (n == 0) {
      pick_backend(to_options(opt));  // still reject an unknown backend
      return 0;
    }
    if (jobs->second_keys != nullptr && x.second_key_size == 0) return -1;
    const packed_aead_inputs in = packed_view(x, n, *jobs);
    const std::size_t out_size = n != 0 ? jobs->offsets[n] : 0;
    if (!bytes_ok(out, out_size) || !bytes_ok(tags, n * tag_len)) return -1;
    encrypt_packed(alg, in, {out, out_size}, {tags, n * tag_len}, tag_len, to_options(opt));
    return 0;
  } catch (...) {
    return -1;
  }
}

int lwc_batch_decrypt_packed(const char* alg, size_t n, const lwc_batch_packed_jobs* jobs,
                             const uint8_t* tags, uint8_t* out, size_t tag_len, uint8_t* ok,
                             const lwc_batch_options* opt) {
  try {
    if (alg == nullptr || !packed_pointers_ok(n, jobs)) return -1;
    const lwc::algorithm& x = checks::resolve(alg, true);
    if (n == 0) {
      pick_backend(to_options(opt));  // still reject an unknown backend
      return 0;
    }
    if (jobs->second_keys != nullptr && x.second_key_size == 0) return -1;
    const packed_aead_inputs in = packed_view(x, n, *jobs);
    const std::size_t out_size = n != 0 ? jobs->offsets[n] : 0;
    if (!bytes_ok(out, out_size) || !bytes_ok(tags, n * tag_len)) return -1;
    std::vector<std::uint8_t> own;
    if (ok == nullptr) {
      own.resize(n);
      ok = own.data();
    }
    const std::size_t good = decrypt_packed(alg, in, {tags, n * tag_len}, {out, out_size},
                                            {ok, n}, tag_len, to_options(opt));
    return good == n ? 0 : -1;
  } catch (...) {
    return -1;
  }
}

int lwc_batch_hash(const char* alg, size_t n, const lwc_batch_hash_job* jobs,
                   const lwc_batch_options* opt) {
  try {
    if (alg == nullptr || (n != 0 && jobs == nullptr)) return -1;
    const lwc::algorithm& x = checks::resolve(alg, false);
    // The C job carries no key or customization string: MACs, PRFs and CXOFs are batched
    // through the C++ API (lwc::batch::hash with hash_job::key / customization).
    if (x.is_keyed() || x.max_customization_size != 0) return -1;
    const options o = to_options(opt);
    const backend_ops& be = pick_backend(o);
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!bytes_ok(jobs[i].in, jobs[i].in_len) || !bytes_ok(jobs[i].out, jobs[i].out_len))
        return -1;
      if (x.max_output_size != 0 && jobs[i].out_len != x.output_size) return -1;
      if (jobs[i].in_len > x.max_input_size) return -1;
      bytes += jobs[i].in_len + jobs[i].out_len;
    }
    run_sponge(be, x, n, fetch_c_hash, jobs, bytes, o.threads);
    return 0;
  } catch (...) {
    return -1;
  }
}

int lwc_batch_hash_packed(const char* alg, size_t n, const uint8_t* in, const size_t* offsets,
                          uint8_t* out, size_t out_len, const lwc_batch_options* opt) {
  try {
    if (alg == nullptr || offsets == nullptr) return -1;
    const std::size_t in_size = n != 0 ? offsets[n] : 0;
    if (!bytes_ok(in, in_size) || !bytes_ok(out, n * out_len)) return -1;
    hash_packed(alg, packed{{in, in_size}, {offsets, n + 1}}, {out, n * out_len}, out_len,
                to_options(opt));
    return 0;
  } catch (...) {
    return -1;
  }
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

}  // extern "C"
