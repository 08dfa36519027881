// The C++ API of the batch engine: argument checks, the job layouts (span of jobs, packed
// buffers) turned into the engine's job descriptors, and the threads. Compiled
// for the baseline CPU; the backends are reached only through dispatch.hpp.
#include <lwc/batch.hpp>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "dispatch.hpp"
#include "frontend.hpp"

namespace lwc::batch {

namespace detail {

namespace {

// Fixed costs: Ascon's two p^12 against p^8 per 16-byte block (about 48 bytes); Acorn's 1792
// initialization and 768 finalization steps at 8 per byte (320); Grain's 512 initialization
// clocks at 16 per byte (32).
constexpr batch_algorithm table[] = {
    {"ascon-aead128", true, aead_id::aead128, {}, 64},
    {"ascon-128", true, aead_id::ascon128, {}, 64},
    {"ascon-128a", true, aead_id::ascon128a, {}, 64},
    {"ascon-80pq", true, aead_id::ascon80pq, {}, 64},
    {"acorn-128", true, aead_id::acorn128, {}, 320},
    {"grain-128aead", true, aead_id::grain128aead, {}, 32},
    {"ascon-hash256", false, {}, sponge_id::hash256, 64},
    {"ascon-xof128", false, {}, sponge_id::xof128, 64},
    {"ascon-hash", false, {}, sponge_id::v12_hash, 64},
    {"ascon-xof", false, {}, sponge_id::v12_xof, 64},
};

constexpr std::string_view names[] = {table[0].name, table[1].name, table[2].name,
                                      table[3].name, table[4].name, table[5].name,
                                      table[6].name, table[7].name, table[8].name,
                                      table[9].name};
static_assert(std::size(names) == std::size(table));

[[noreturn]] void fail(std::string_view alg, const std::string& what) {
  throw std::invalid_argument(std::string(alg) + ": " + what);
}

[[noreturn]] void fail_job(std::string_view alg, std::size_t i, const std::string& what) {
  fail(alg, "job " + std::to_string(i) + ": " + what);
}

void expect_size(std::string_view alg, std::size_t i, const char* what, std::size_t got,
                 std::size_t want) {
  if (got != want)
    fail_job(alg, i, std::string(what) + " must be " + std::to_string(want) + " bytes, got " +
                         std::to_string(got));
}

void check_tag_len(const batch_algorithm& a, std::size_t tag_len) {
  const lwc::algorithm& x = info(a);
  if (tag_len < x.min_tag_size || tag_len > x.tag_size)
    fail(a.name, "tag length must be " +
                     (x.min_tag_size == x.tag_size
                          ? std::to_string(x.tag_size)
                          : std::to_string(x.min_tag_size) + " to " + std::to_string(x.tag_size)) +
                     " bytes, got " + std::to_string(tag_len));
}

// full_tag (the default tag length) stands for the algorithm's full tag.
std::size_t resolve_tag_len(const batch_algorithm& a, std::size_t tag_len) {
  return tag_len == full_tag ? info(a).tag_size : tag_len;
}

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
  const std::uint64_t total = bytes + per_job * n;
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
    out[k] = {j.in.data(), j.in.size(), j.out.data(), j.out.size()};
  }
}

struct packed_hash_ctx {
  const std::uint8_t* in;
  const std::size_t* offsets;
  std::uint8_t* out;
  std::size_t out_len;
};
void fetch_hash_packed(const void* ctx, std::size_t first, std::size_t count,
                       sponge_desc* out) {
  const packed_hash_ctx& p = *static_cast<const packed_hash_ctx*>(ctx);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = first + k;
    out[k] = {p.in + p.offsets[i], p.offsets[i + 1] - p.offsets[i], p.out + i * p.out_len,
              p.out_len};
  }
}

void check_offsets(std::string_view alg, const char* what, std::span<const std::size_t> off,
                   std::size_t n, std::size_t data_size) {
  if (off.size() != n + 1 && !(n == 0 && off.empty()))
    fail(alg, std::string(what) + " offsets: " + std::to_string(n + 1) + " entries needed, got " +
                  std::to_string(off.size()));
  for (std::size_t i = 0; i < n; ++i)
    if (off[i + 1] < off[i])
      fail(alg, std::string(what) + " offsets decrease at entry " + std::to_string(i + 1));
  if (n != 0 && off[n] > data_size)
    fail(alg, std::string(what) + " offsets run past the end of the data (" +
                  std::to_string(off[n]) + " > " + std::to_string(data_size) + ")");
}

void check_hash_out(const batch_algorithm& a, std::size_t i, std::size_t out_len) {
  const lwc::algorithm& x = info(a);
  if (x.max_output_size != 0) expect_size(a.name, i, "digest buffer", out_len, x.output_size);
}

}  // namespace

const batch_algorithm& find_batch_algorithm(std::string_view name, bool want_aead) {
  for (const batch_algorithm& a : table) {
    if (a.name != name) continue;
    if (a.is_aead != want_aead)
      fail(name, want_aead ? "not an AEAD algorithm" : "not a hash or XOF algorithm");
    return a;
  }
  throw std::invalid_argument("algorithm '" + std::string(name) +
                              "' is not supported by the batch engine");
}

const lwc::algorithm& info(const batch_algorithm& a) { return lwc::get_algorithm(a.name); }

const backend_ops& pick_backend(const options& opt) {
  if (opt.backend.empty()) return default_ops();
  if (const backend_ops* b = find_runnable(opt.backend)) return *b;
  throw std::invalid_argument("batch backend '" + std::string(opt.backend) +
                              "' is not available on this CPU");
}

void run_aead(const backend_ops& be, const batch_algorithm& a, std::size_t n, aead_fetch fetch,
              const void* ctx, std::uint64_t bytes, bool decrypt, std::size_t tag_len,
              std::uint8_t* ok, unsigned threads) {
  parallel(n, bytes, a.fixed_cost, threads, [&](thread_share* share) {
    const aead_task t{a.aead, decrypt, tag_len, fetch, ctx, claim, share, ok};
    be.aead(t);
  });
}

void run_sponge(const backend_ops& be, const batch_algorithm& a, std::size_t n,
                sponge_fetch fetch, const void* ctx, std::uint64_t bytes, unsigned threads) {
  parallel(n, bytes, a.fixed_cost, threads, [&](thread_share* share) {
    const sponge_task t{a.sponge, fetch, ctx, claim, share};
    be.sponge(t);
  });
}

}  // namespace detail

using namespace detail;

std::span<const std::string_view> algorithms() noexcept { return names; }

bool supports(std::string_view algorithm) noexcept {
  return std::find(std::begin(names), std::end(names), algorithm) != std::end(names);
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

// Returns the bytes of the batch.
std::uint64_t check_jobs(const batch_algorithm& a, std::span<const aead_job> jobs,
                         std::size_t tag_len) {
  const lwc::algorithm& x = info(a);
  check_tag_len(a, tag_len);
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const aead_job& j = jobs[i];
    bytes += j.ad.size() + j.in.size();
    expect_size(a.name, i, "key", j.key.size(), x.key_size);
    expect_size(a.name, i, "nonce", j.nonce.size(), x.nonce_size);
    expect_size(a.name, i, "output buffer", j.out.size(), j.in.size());
    expect_size(a.name, i, "tag buffer", j.tag.size(), tag_len);
    if (!j.second_key.empty()) {
      if (x.second_key_size == 0) fail_job(a.name, i, "nonce masking is not supported");
      expect_size(a.name, i, "second key", j.second_key.size(), x.second_key_size);
    }
  }
  return bytes;
}

packed_ctx check_packed(const batch_algorithm& a, const packed_aead_inputs& in,
                        bytes_span out, const std::uint8_t* tags, std::size_t tags_size,
                        std::size_t tag_len) {
  const lwc::algorithm& x = info(a);
  check_tag_len(a, tag_len);
  const std::size_t n = in.in.count();
  check_offsets(a.name, "message", in.in.offsets, n, in.in.data.size());
  const bool has_ad = !in.ad.offsets.empty();
  if (has_ad) check_offsets(a.name, "associated data", in.ad.offsets, n, in.ad.data.size());
  if (in.keys.size() != n * x.key_size)
    fail(a.name, "keys must be " + std::to_string(n * x.key_size) + " bytes, got " +
                     std::to_string(in.keys.size()));
  if (in.nonces.size() != n * x.nonce_size)
    fail(a.name, "nonces must be " + std::to_string(n * x.nonce_size) + " bytes, got " +
                     std::to_string(in.nonces.size()));
  if (!in.second_keys.empty()) {
    if (x.second_key_size == 0) fail(a.name, "nonce masking is not supported");
    if (in.second_keys.size() != n * x.second_key_size)
      fail(a.name, "second keys must be " + std::to_string(n * x.second_key_size) +
                       " bytes, got " + std::to_string(in.second_keys.size()));
  }
  if (n != 0 && out.size() < in.in.offsets[n])
    fail(a.name, "output buffer must hold " + std::to_string(in.in.offsets[n]) +
                     " bytes, got " + std::to_string(out.size()));
  if (tags_size != n * tag_len)
    fail(a.name, "tags must be " + std::to_string(n * tag_len) + " bytes, got " +
                     std::to_string(tags_size));
  return {in.keys.data(),
          x.key_size,
          in.nonces.data(),
          x.nonce_size,
          in.second_keys.empty() ? nullptr : in.second_keys.data(),
          x.second_key_size,
          in.in.data.data(),
          in.in.offsets.data(),
          has_ad ? in.ad.data.data() : nullptr,
          has_ad ? in.ad.offsets.data() : nullptr,
          out.data(),
          const_cast<std::uint8_t*>(tags),  // read only when decrypting
          tag_len};
}

std::uint64_t packed_bytes(const packed_aead_inputs& in) {
  const std::size_t n = in.in.count();
  if (n == 0) return 0;
  std::uint64_t bytes = in.in.offsets[n] - in.in.offsets[0];
  if (!in.ad.offsets.empty()) bytes += in.ad.offsets[n] - in.ad.offsets[0];
  return bytes;
}

std::size_t count_ok(std::span<const std::uint8_t> ok) {
  return static_cast<std::size_t>(std::count(ok.begin(), ok.end(), std::uint8_t{1}));
}

}  // namespace

void encrypt(std::string_view algorithm, std::span<const aead_job> jobs, std::size_t tag_len,
             const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = resolve_tag_len(a, tag_len);
  const std::uint64_t bytes = check_jobs(a, jobs, tag_len);
  run_aead(be, a, jobs.size(), fetch_jobs, jobs.data(), bytes, false, tag_len, nullptr,
           opt.threads);
}

std::size_t decrypt(std::string_view algorithm, std::span<const aead_job> jobs,
                    std::span<std::uint8_t> ok, std::size_t tag_len, const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = resolve_tag_len(a, tag_len);
  const std::uint64_t bytes = check_jobs(a, jobs, tag_len);
  if (ok.size() != jobs.size())
    fail(a.name, "ok flags: " + std::to_string(jobs.size()) + " needed, got " +
                     std::to_string(ok.size()));
  run_aead(be, a, jobs.size(), fetch_jobs, jobs.data(), bytes, true, tag_len, ok.data(),
           opt.threads);
  return count_ok(ok);
}

void encrypt_packed(std::string_view algorithm, const packed_aead_inputs& in, bytes_span out,
                    bytes_span tags, std::size_t tag_len, const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = resolve_tag_len(a, tag_len);
  const packed_ctx ctx = check_packed(a, in, out, tags.data(), tags.size(), tag_len);
  run_aead(be, a, in.in.count(), fetch_packed, &ctx, packed_bytes(in), false, tag_len, nullptr,
           opt.threads);
}

std::size_t decrypt_packed(std::string_view algorithm, const packed_aead_inputs& in,
                           bytes_view tags, bytes_span out, std::span<std::uint8_t> ok,
                           std::size_t tag_len, const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, true);
  const backend_ops& be = pick_backend(opt);
  tag_len = resolve_tag_len(a, tag_len);
  const packed_ctx ctx = check_packed(a, in, out, tags.data(), tags.size(), tag_len);
  if (ok.size() != in.in.count())
    fail(a.name, "ok flags: " + std::to_string(in.in.count()) + " needed, got " +
                     std::to_string(ok.size()));
  run_aead(be, a, in.in.count(), fetch_packed, &ctx, packed_bytes(in), true, tag_len, ok.data(),
           opt.threads);
  return count_ok(ok);
}

void hash(std::string_view algorithm, std::span<const hash_job> jobs, const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, false);
  const backend_ops& be = pick_backend(opt);
  std::uint64_t bytes = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    check_hash_out(a, i, jobs[i].out.size());
    bytes += jobs[i].in.size() + jobs[i].out.size();
  }
  run_sponge(be, a, jobs.size(), fetch_hash_jobs, jobs.data(), bytes, opt.threads);
}

void hash_packed(std::string_view algorithm, const packed& in, bytes_span out,
                 std::size_t out_len, const options& opt) {
  const batch_algorithm& a = find_batch_algorithm(algorithm, false);
  const backend_ops& be = pick_backend(opt);
  const std::size_t n = in.count();
  check_offsets(a.name, "message", in.offsets, n, in.data.size());
  if (n != 0) check_hash_out(a, 0, out_len);
  if (out.size() != n * out_len)
    fail(a.name, "output buffer must be " + std::to_string(n * out_len) + " bytes, got " +
                     std::to_string(out.size()));
  const packed_hash_ctx ctx{in.data.data(), in.offsets.data(), out.data(), out_len};
  const std::uint64_t bytes = n != 0 ? in.offsets[n] - in.offsets[0] + n * out_len : 0;
  run_sponge(be, a, n, fetch_hash_packed, &ctx, bytes, opt.threads);
}

}  // namespace lwc::batch
