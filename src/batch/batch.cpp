// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ API of the batch engine: argument checks, the job layouts (span of jobs, the packed
// job form, and the earlier packed buffers as adapters onto the form) turned into the engine's
// job descriptors a group at a time, and the threads (the library's pool). Compiled
// for the baseline CPU; the backends are reached only through dispatch.hpp.
#include <lwc/batch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../jobs/checks.hpp"
#include "../jobs/columns.hpp"
#include "../threads/pool.hpp"
#include "dispatch.hpp"
#include "frontend.hpp"

namespace lwc::batch {

namespace detail {

namespace {

namespace checks = lwc::jobs::checks;
namespace columns = lwc::jobs::columns;

constexpr auto registry_names = [] {
  std::array<std::string_view, lwc::algorithm_count> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = lwc::registry_table[i].name;
  return names;
}();

// Where the threads of one call take their jobs from. Each thread reserves a share of what
// is left (half of it divided among the threads, at least min_chunk jobs) and claims from
// that share without touching the shared counter; shares shrink towards the end, so the
// threads finish together, and small messages do not make the threads fight over one cache
// line.
struct job_cursor {
  std::atomic<std::size_t> next{0};
  std::size_t end = 0;
  std::size_t threads = 1;
};

struct thread_share {
  job_cursor* shared;
  std::size_t next = 0, end = 0;
};

constexpr std::size_t min_chunk = 64;

std::size_t claim(void* ctx, std::size_t max, std::size_t* first) {
  thread_share& t = *static_cast<thread_share*>(ctx);
  if (t.next == t.end) {
    job_cursor& c = *t.shared;
    std::size_t cur = c.next.load(std::memory_order_relaxed);
    for (;;) {
      if (cur >= c.end) return 0;
      const std::size_t left = c.end - cur;
      const std::size_t take = std::min(left, std::max(min_chunk, left / (2 * c.threads)));
      if (c.next.compare_exchange_weak(cur, cur + take, std::memory_order_relaxed)) {
        t.next = cur;
        t.end = cur + take;
        break;
      }
    }
  }
  *first = t.next;
  const std::size_t m = std::min(max, t.end - t.next);
  t.next += m;
  return m;
}

// Runs `work` on up to `threads` threads (the caller's included, the others from the library's
// pool), which take the n jobs from one cursor. Fewer threads for small batches: waking a
// worker and sharing the cursor costs microseconds, so each gets min_work bytes or more.
template <class Work>
void parallel(std::size_t n, std::uint64_t bytes, std::uint64_t per_job, unsigned threads,
              Work work) {
  if (n == 0) return;
  constexpr std::uint64_t min_work = 16384;
  std::size_t t = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  t = std::min(t, n);
  // Only sizes the thread count: saturates instead of wrapping.
  std::size_t setup = 0, total = 0;
  if (!lwc::mul_fits(static_cast<std::size_t>(per_job), n, setup) ||
      !lwc::add_fits(static_cast<std::size_t>(bytes), setup, total))
    total = SIZE_MAX;
  t = static_cast<std::size_t>(
      std::min<std::uint64_t>(t, std::max<std::uint64_t>(1, total / min_work)));
  job_cursor cursor;
  cursor.end = n;
  cursor.threads = t;
  // Any number of participants finishes the batch (they claim from the cursor): a helper the
  // pool cannot start in time is simply not waited for.
  lwc::threads::parallel(t, [&] {
    thread_share share{&cursor};
    work(&share);
  });
}

// ---- job layouts ----------------------------------------------------------------------------

void fetch_jobs(const void* ctx, std::size_t first, std::size_t count, aead_desc* out) {
  const aead_job* jobs = static_cast<const aead_job*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const aead_job& j = jobs[first + k];
    out[k] = {j.key.data(), j.second_key.empty() ? nullptr : j.second_key.data(),
              j.nonce.data(), j.ad.data(), j.ad.size(), j.in.data(), j.in.size(),
              j.out.data(), j.tag.data(), first + k};
  }
}

// The packed job form: every column read where the caller keeps it. A job's message length
// is its input's size when encrypting, its output's when decrypting (an appended tag is not
// part of it); its tag sits right after the ciphertext, or in the tag column.
struct aead_form_ctx {
  columns::reader<const std::uint8_t> keys, nonces, second_keys, ad, in, tags_in;
  columns::reader<std::uint8_t> out, tags_out;
  bool decrypt, appended, masked;
};

aead_form_ctx form_context(const packed_aead_jobs& f, bool decrypt) {
  return {columns::reader<const std::uint8_t>(f.keys),
          columns::reader<const std::uint8_t>(f.nonces),
          columns::reader<const std::uint8_t>(f.second_keys),
          columns::reader<const std::uint8_t>(f.ad),
          columns::reader<const std::uint8_t>(f.in),
          columns::reader<const std::uint8_t>(f.tags_in),
          columns::reader<std::uint8_t>(f.out),
          columns::reader<std::uint8_t>(f.tags_out),
          decrypt,
          f.tags == jobs::tag_place::appended,
          !f.second_keys.absent()};
}

void fetch_form(const void* ctx, std::size_t first, std::size_t count, aead_desc* out) {
  const aead_form_ctx& f = *static_cast<const aead_form_ctx*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    const auto in = f.in[i];
    const auto o = f.out[i];
    const auto ad = f.ad[i];
    const std::size_t len = f.decrypt ? o.size : in.size;
    // Decryption only reads its tag: the engine's descriptor has one pointer type for both.
    std::uint8_t* tag = f.appended ? (f.decrypt ? const_cast<std::uint8_t*>(in.data) + len
                                                : o.data + len)
                                   : (f.decrypt ? const_cast<std::uint8_t*>(f.tags_in[i].data)
                                                : f.tags_out[i].data);
    out[k] = {f.keys[i].data, f.masked ? f.second_keys[i].data : nullptr, f.nonces[i].data,
              ad.data, ad.size, in.data, len, o.data, tag, i};
  }
}

void fetch_hash_jobs(const void* ctx, std::size_t first, std::size_t count, sponge_desc* out) {
  const hash_job* jobs = static_cast<const hash_job*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const hash_job& j = jobs[first + k];
    out[k] = {j.in.data(), j.in.size(), j.out.data(), j.out.size(),
              j.key.empty() ? nullptr : j.key.data(),
              j.customization.data(), j.customization.size()};
  }
}

struct hash_form_ctx {
  columns::reader<const std::uint8_t> in, keys, customization;
  columns::reader<std::uint8_t> out;
  bool keyed;
};

void fetch_hash_form(const void* ctx, std::size_t first, std::size_t count, sponge_desc* out) {
  const hash_form_ctx& f = *static_cast<const hash_form_ctx*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    const auto in = f.in[i];
    const auto o = f.out[i];
    const auto c = f.customization[i];
    out[k] = {in.data, in.size, o.data, o.size, f.keyed ? f.keys[i].data : nullptr, c.data,
              c.size};
  }
}

}  // namespace

const backend_ops& pick_backend(const options& opt) {
  if (opt.backend.empty()) return default_ops();
  if (const backend_ops* b = find_runnable(opt.backend)) return *b;
  throw std::invalid_argument("batch backend '" + std::string(opt.backend) +
                              "' is not available on this CPU");
}

void run_aead(const backend_ops& be, const lwc::algorithm& a, std::size_t n, aead_fetch fetch,
              const void* ctx, std::uint64_t bytes, bool decrypt, std::size_t tag_len,
              std::uint8_t* ok, unsigned threads) {
  const aead_kernel lanes = be.aead[lwc::index_of(a)];
  const aead_kernel kernel = lanes != nullptr ? lanes : &run_aead_job_by_job;
  parallel(n, bytes, a.setup_cost, threads, [&](thread_share* share) {
    const aead_task t{&a, decrypt, tag_len, fetch, ctx, claim, share, ok};
    kernel(t);
  });
}

void run_sponge(const backend_ops& be, const lwc::algorithm& a, std::size_t n,
                sponge_fetch fetch, const void* ctx, std::uint64_t bytes, unsigned threads) {
  const sponge_kernel lanes = be.sponge[lwc::index_of(a)];
  const sponge_kernel kernel = lanes != nullptr ? lanes : &run_sponge_job_by_job;
  parallel(n, bytes, a.setup_cost, threads, [&](thread_share* share) {
    const sponge_task t{&a, fetch, ctx, claim, share};
    kernel(t);
  });
}

}  // namespace detail

using namespace detail;

std::span<const std::string_view> algorithms() noexcept { return registry_names; }

bool supports(std::string_view algorithm) noexcept {
  return lwc::find_algorithm(algorithm) != nullptr;
}

bool has_lanes(algorithm_ref algorithm, std::string_view backend) noexcept {
  const lwc::algorithm* a =
      algorithm.entry() != nullptr ? algorithm.entry() : lwc::find_algorithm(algorithm.name());
  const backend_ops* b = find_runnable(backend);
  if (a == nullptr || b == nullptr) return false;
  const std::size_t i = lwc::index_of(*a);
  return a->is_aead() ? b->aead[i] != nullptr : b->sponge[i] != nullptr;
}

std::span<const std::string_view> available_backends() noexcept {
  static const std::vector<std::string_view> list = [] {
    std::vector<std::string_view> v;
    for (const backend_ops* b : runnable_backends()) v.emplace_back(b->name);
    return v;
  }();
  return list;
}

std::string_view default_backend() noexcept { return default_ops().name; }

std::size_t lanes(std::string_view backend) noexcept {
  const backend_ops* b = find_runnable(backend);
  return b != nullptr ? b->lanes : 0;
}

namespace {

// The earlier packed buffers as a form (checked by their own checks already): messages and
// outputs at the same offsets, fixed key, nonce and tag columns.
packed_aead_jobs form_of(const lwc::algorithm& a, const packed_aead_inputs& in, bytes_span out) {
  packed_aead_jobs f;
  f.count = in.in.count();
  f.keys = jobs::column::fixed(in.keys, a.key_size);
  f.nonces = jobs::column::fixed(in.nonces, a.nonce_size);
  if (!in.second_keys.empty())
    f.second_keys = jobs::column::fixed(in.second_keys, a.second_key_size);
  if (!in.ad.offsets.empty()) f.ad = jobs::column::with_offsets(in.ad.data, in.ad.offsets);
  f.in = jobs::column::with_offsets(in.in.data, in.in.offsets);
  f.out = jobs::out_column::with_offsets(out, in.in.offsets);
  return f;
}

void run_form(const backend_ops& be, const lwc::algorithm& a, const packed_aead_jobs& f,
              std::uint64_t bytes, bool decrypt, std::size_t tag_len, std::uint8_t* ok,
              unsigned threads) {
  const aead_form_ctx ctx = form_context(f, decrypt);
  run_aead(be, a, f.count, fetch_form, &ctx, bytes, decrypt, tag_len, ok, threads);
}

void run_hash_form(const backend_ops& be, const lwc::algorithm& a, const packed_hash_jobs& f,
                   std::uint64_t bytes, unsigned threads) {
  const hash_form_ctx ctx{columns::reader<const std::uint8_t>(f.in),
                          columns::reader<const std::uint8_t>(f.keys),
                          columns::reader<const std::uint8_t>(f.customization),
                          columns::reader<std::uint8_t>(f.out), a.is_keyed()};
  run_sponge(be, a, f.count, fetch_hash_form, &ctx, bytes, threads);
}

// The flags are 0 or 1: a sum, not a compare per flag, keeps the count free of branches on
// verdicts (the constant-time check follows them from the key).
std::size_t count_ok(std::span<const std::uint8_t> ok) {
  std::size_t n = 0;
  for (const std::uint8_t f : ok) n += f;
  return n;
}

void expect_ok_flags(const lwc::algorithm& a, std::size_t n, std::size_t got) {
  if (got != n)
    checks::fail(a, "ok flags: " + std::to_string(n) + " needed, got " + std::to_string(got));
}

}  // namespace

void encrypt(algorithm_ref algorithm, std::span<const aead_job> jobs, std::size_t tag_len,
             const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  const std::uint64_t bytes = checks::aead_jobs(a, jobs, tag_len, false);
  run_aead(be, a, jobs.size(), fetch_jobs, jobs.data(), bytes, false, tag_len, nullptr,
           opt.threads);
}

std::size_t decrypt(algorithm_ref algorithm, std::span<const aead_job> jobs,
                    std::span<std::uint8_t> ok, std::size_t tag_len, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  const std::uint64_t bytes = checks::aead_jobs(a, jobs, tag_len, true);
  expect_ok_flags(a, jobs.size(), ok.size());
  run_aead(be, a, jobs.size(), fetch_jobs, jobs.data(), bytes, true, tag_len, ok.data(),
           opt.threads);
  return count_ok(ok);
}

void encrypt_packed(algorithm_ref algorithm, const packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  checks::packed_aead(a, in, out.size(), tags.size(), tag_len, nullptr, checks::memory::host);
  checks::packed_aead_disjoint(a, in, out, tags, false);
  packed_aead_jobs f = form_of(a, in, out);
  f.tags_out = jobs::out_column::fixed(tags, tag_len);
  run_form(be, a, f, checks::packed_bytes(a, in), false, tag_len, nullptr, opt.threads);
}

std::size_t decrypt_packed(algorithm_ref algorithm, const packed_aead_inputs& in,
                           bytes_view tags, bytes_span out, std::span<std::uint8_t> ok,
                           std::size_t tag_len, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  const std::size_t ok_size = ok.size();
  checks::packed_aead(a, in, out.size(), tags.size(), tag_len, &ok_size, checks::memory::host);
  checks::packed_aead_disjoint(a, in, out, tags, true);
  if (lwc::ranges_overlap(ok.data(), ok.size(), out.data(), out.size()) ||
      lwc::ranges_overlap(ok.data(), ok.size(), tags.data(), tags.size()) ||
      lwc::ranges_overlap(ok.data(), ok.size(), in.in.data.data(), in.in.data.size()))
    checks::fail(a, "ok flags overlap the output, tag or message buffer");
  packed_aead_jobs f = form_of(a, in, out);
  f.tags_in = jobs::column::fixed(tags, tag_len);
  run_form(be, a, f, checks::packed_bytes(a, in), true, tag_len, ok.data(), opt.threads);
  return count_ok(ok);
}

void encrypt(algorithm_ref algorithm, const packed_aead_jobs& jobs, std::size_t tag_len,
             const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  const std::uint64_t bytes = checks::aead_form(a, jobs, tag_len, false, nullptr, 0);
  run_form(be, a, jobs, bytes, false, tag_len, nullptr, opt.threads);
}

std::size_t decrypt(algorithm_ref algorithm, const packed_aead_jobs& jobs,
                    std::span<std::uint8_t> ok, std::size_t tag_len, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = checks::tag_length(a, tag_len);
  const std::uint64_t bytes = checks::aead_form(a, jobs, tag_len, true, ok.data(), ok.size());
  run_form(be, a, jobs, bytes, true, tag_len, ok.data(), opt.threads);
  return count_ok(ok);
}

void hash(algorithm_ref algorithm, std::span<const hash_job> jobs, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  const backend_ops& be = pick_backend(opt);
  const std::uint64_t bytes = checks::hash_jobs(a, jobs);
  run_sponge(be, a, jobs.size(), fetch_hash_jobs, jobs.data(), bytes, opt.threads);
}

void hash_packed(algorithm_ref algorithm, const packed_hash_inputs& in, bytes_span out,
                 std::size_t out_len, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  const backend_ops& be = pick_backend(opt);
  checks::packed_hash(a, in, out.size(), out_len, checks::memory::host);
  checks::packed_hash_disjoint(a, in, out);
  const std::size_t n = in.in.count();
  packed_hash_jobs f;
  f.count = n;
  f.in = jobs::column::with_offsets(in.in.data, in.in.offsets);
  f.out = jobs::out_column::fixed(out, out_len);
  if (!in.keys.empty()) f.keys = jobs::column::fixed(in.keys, a.key_size);
  if (!in.customization.offsets.empty())
    f.customization = jobs::column::with_offsets(in.customization.data, in.customization.offsets);
  // out.size() == n * out_len, checked above without wrapping.
  const std::uint64_t bytes =
      n != 0 ? lwc::checked_add(in.in.offsets[n] - in.in.offsets[0], out.size(), a.name) : 0;
  run_hash_form(be, a, f, bytes, opt.threads);
}

void hash(algorithm_ref algorithm, const packed_hash_jobs& jobs, const options& opt) {
  const lwc::algorithm& a = checks::resolve(algorithm, false);
  const backend_ops& be = pick_backend(opt);
  const std::uint64_t bytes = checks::hash_form(a, jobs);
  run_hash_form(be, a, jobs, bytes, opt.threads);
}

}  // namespace lwc::batch
