// SPDX-License-Identifier: MIT OR Apache-2.0
// The C++ API of the batch engine: argument checks, the job layouts (span of jobs, packed
// buffers) turned into the engine's job descriptors, and the threads. Compiled
// for the baseline CPU; the backends are reached only through dispatch.hpp.
#include <lwc/batch.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "../jobs/checks.hpp"
#include "dispatch.hpp"
#include "frontend.hpp"

namespace lwc::batch {

namespace detail {

namespace {

namespace checks = lwc::jobs::checks;

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

// Runs `work` on up to `threads` threads (the caller's included), which take the n jobs from
// one cursor. Fewer threads for small batches: starting a thread costs tens of microseconds,
// the time to process tens of kilobytes, so each gets min_work bytes or more.
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
  const auto run = [&] {
    thread_share share{&cursor};
    work(&share);
  };
  std::vector<std::thread> workers;
  if (t > 1) workers.reserve(t - 1);
  for (std::size_t r = 1; r < t; ++r) {
    try {
      workers.emplace_back(run);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running take the remaining jobs
    }
  }
  run();
  for (std::thread& w : workers) w.join();
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

struct packed_ctx {
  const std::uint8_t* keys;
  std::size_t key_size;
  const std::uint8_t* nonces;
  std::size_t nonce_size;
  const std::uint8_t* second_keys;
  std::size_t second_key_size;
  const std::uint8_t* in;
  const std::size_t* offsets;
  const std::uint8_t* ad;
  const std::size_t* ad_offsets;
  std::uint8_t* out;
  std::uint8_t* tags;
  std::size_t tag_len;
};

void fetch_packed(const void* ctx, std::size_t first, std::size_t count, aead_desc* out) {
  const packed_ctx& p = *static_cast<const packed_ctx*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    const std::size_t off = p.offsets[i], len = p.offsets[i + 1] - off;
    aead_desc& d = out[k];
    d.key = p.keys + i * p.key_size;
    d.second_key = p.second_keys != nullptr ? p.second_keys + i * p.second_key_size : nullptr;
    d.nonce = p.nonces + i * p.nonce_size;
    d.ad = p.ad_offsets != nullptr ? p.ad + p.ad_offsets[i] : nullptr;
    d.ad_len = p.ad_offsets != nullptr ? p.ad_offsets[i + 1] - p.ad_offsets[i] : 0;
    d.in = p.in + off;
    d.len = len;
    d.out = p.out + off;
    d.tag = p.tags + i * p.tag_len;
    d.index = i;
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

struct packed_hash_ctx {
  const std::uint8_t* in;
  const std::size_t* offsets;
  std::uint8_t* out;
  std::size_t out_len;
  const std::uint8_t* keys;  // or null
  std::size_t key_size;
  const std::uint8_t* custom;  // or null
  const std::size_t* custom_offsets;
};
void fetch_hash_packed(const void* ctx, std::size_t first, std::size_t count,
                       sponge_desc* out) {
  const packed_hash_ctx& p = *static_cast<const packed_hash_ctx*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    out[k] = {p.in + p.offsets[i], p.offsets[i + 1] - p.offsets[i], p.out + i * p.out_len,
              p.out_len, p.keys != nullptr ? p.keys + i * p.key_size : nullptr, nullptr, 0};
    if (p.custom_offsets != nullptr) {
      out[k].custom = p.custom + p.custom_offsets[i];
      out[k].custom_len = p.custom_offsets[i + 1] - p.custom_offsets[i];
    }
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

bool has_lanes(std::string_view algorithm, std::string_view backend) noexcept {
  const lwc::algorithm* a = lwc::find_algorithm(algorithm);
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

packed_ctx packed_context(const lwc::algorithm& a, const packed_aead_inputs& in, bytes_span out,
                          const std::uint8_t* tags, std::size_t tag_len) {
  const bool has_ad = !in.ad.offsets.empty();
  return {in.keys.data(),
          a.key_size,
          in.nonces.data(),
          a.nonce_size,
          in.second_keys.empty() ? nullptr : in.second_keys.data(),
          a.second_key_size,
          in.in.data.data(),
          in.in.offsets.data(),
          has_ad ? in.ad.data.data() : nullptr,
          has_ad ? in.ad.offsets.data() : nullptr,
          out.data(),
          const_cast<std::uint8_t*>(tags),  // read only when decrypting
          tag_len};
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
  const packed_ctx ctx = packed_context(a, in, out, tags.data(), tag_len);
  run_aead(be, a, in.in.count(), fetch_packed, &ctx, checks::packed_bytes(a, in), false, tag_len,
           nullptr, opt.threads);
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
  const packed_ctx ctx = packed_context(a, in, out, tags.data(), tag_len);
  run_aead(be, a, in.in.count(), fetch_packed, &ctx, checks::packed_bytes(a, in), true, tag_len,
           ok.data(), opt.threads);
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
  const bool has_custom = !in.customization.offsets.empty();
  const packed_hash_ctx ctx{in.in.data.data(),
                            in.in.offsets.data(),
                            out.data(),
                            out_len,
                            in.keys.empty() ? nullptr : in.keys.data(),
                            a.key_size,
                            has_custom ? in.customization.data.data() : nullptr,
                            has_custom ? in.customization.offsets.data() : nullptr};
  // out.size() == n * out_len, checked above without wrapping.
  const std::uint64_t bytes =
      n != 0 ? lwc::checked_add(in.in.offsets[n] - in.in.offsets[0], out.size(), a.name) : 0;
  run_sponge(be, a, n, fetch_hash_packed, &ctx, bytes, opt.threads);
}

}  // namespace lwc::batch
