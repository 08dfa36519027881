// SPDX-License-Identifier: MIT OR Apache-2.0
// The host-memory path of the CUDA engine: a batch is cut into chunks of jobs; each chunk is
// gathered into a pinned buffer (CPU copies on a few threads, or nothing when the caller's
// memory is already pinned), copied to the device, run, copied back and scattered into the
// caller's buffers, with `streams` chunks in flight so that copies in, kernels and copies out
// overlap. Written against a small backend interface: the CUDA runtime in api.cpp, the host
// emulation in the CPU tests (which thereby check the chunking, offsets and alignment logic
// without a GPU). The batch comes as the packed job form (<lwc/packed_jobs.hpp>), checked by
// the caller: every column's elements lie back to back in the caller's memory, so a chunk of
// each column is one copy; only appended tags are gathered and scattered job by job, since the
// kernels take tags in a column of their own. The staging buffers hold keys, nonces and plaintext: every byte a batch put
// in them is zeroed (device buffers by a memset on their stream) before the batch returns,
// whether it succeeded or failed, and before any buffer is freed.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <lwc/common/bytes.hpp>
#include <lwc/common/secure.hpp>
#include <lwc/packed_jobs.hpp>

#include "../jobs/columns.hpp"
#include "../threads/pool.hpp"
#include "algorithms.hpp"
#include "warp_engine.hpp"

namespace lwc::cuda::detail {

// ---- parallel memcpy -------------------------------------------------------------------------

struct copy_task {
  void* dst;
  const void* src;
  std::size_t n;
};

// Large copies split between a few threads of the library's pool: one CPU thread copies
// pageable memory at well under PCIe 5 speed, so staging needs several.
class copy_pool {
 public:
  explicit copy_pool(unsigned threads) : threads_(std::max(1u, threads)) {}

  void run(const std::vector<copy_task>& tasks) {
    constexpr std::size_t piece = std::size_t{1} << 20;
    std::vector<copy_task> pieces;
    for (const copy_task& t : tasks)
      for (std::size_t at = 0; at < t.n; at += piece)
        pieces.push_back({static_cast<std::uint8_t*>(t.dst) + at,
                          static_cast<const std::uint8_t*>(t.src) + at, std::min(piece, t.n - at)});
    std::atomic<std::size_t> next{0};
    lwc::threads::parallel(std::min<std::size_t>(threads_, pieces.size()), [&] {
      for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < pieces.size();)
        std::memcpy(pieces[i].dst, pieces[i].src, pieces[i].n);
    });
  }

 private:
  unsigned threads_;
};

// ---- the batch, as the host API received it (checked by the caller) --------------------------

struct host_aead_job_set {
  const algo_info* alg;
  bool decrypt;
  std::size_t tag_len;
  jobs::packed_aead_jobs form;  // checked: sizes, offsets, overlaps
  std::uint8_t* ok;             // decryption: count flags
};

// Hashes: one output length for every job (the kernels' layout); an offset output column is
// accepted when all its elements have that length.
struct host_sponge_job_set {
  const algo_info* alg;
  std::size_t out_len;
  jobs::packed_hash_jobs form;
};

// The earlier packed buffers (messages and outputs at one set of offsets, fixed key, nonce and
// tag columns) as job sets; `tags` is written when encrypting, read when decrypting.
inline host_aead_job_set packed_job_set(const algo_info* alg, bool decrypt, std::size_t n,
                                        std::size_t tag_len, const std::uint8_t* keys,
                                        const std::uint8_t* nonces, const std::uint8_t* second_keys,
                                        const std::uint8_t* in, const std::size_t* in_off,
                                        const std::uint8_t* ad, const std::size_t* ad_off,
                                        std::uint8_t* out, std::uint8_t* tags, std::uint8_t* ok) {
  host_aead_job_set j{alg, decrypt, tag_len, {}, ok};
  jobs::packed_aead_jobs& f = j.form;
  const std::span<const std::size_t> offsets(in_off, n + 1);
  f.count = n;
  f.keys = jobs::column::fixed({keys, n * alg->key_size}, alg->key_size);
  f.nonces = jobs::column::fixed({nonces, n * alg->nonce_size}, alg->nonce_size);
  if (second_keys != nullptr)
    f.second_keys = jobs::column::fixed({second_keys, n * alg->second_key_size}, alg->second_key_size);
  if (ad_off != nullptr)
    f.ad = jobs::column::with_offsets<std::size_t>({ad, ad_off[n]}, {ad_off, n + 1});
  f.in = jobs::column::with_offsets<std::size_t>({in, in_off[n]}, offsets);
  f.out = jobs::out_column::with_offsets<std::size_t>({out, in_off[n]}, offsets);
  if (decrypt) f.tags_in = jobs::column::fixed({tags, n * tag_len}, tag_len);
  else f.tags_out = jobs::out_column::fixed({tags, n * tag_len}, tag_len);
  return j;
}

inline host_sponge_job_set packed_job_set(const algo_info* alg, std::size_t n, std::size_t out_len,
                                          const std::uint8_t* in, const std::size_t* in_off,
                                          std::uint8_t* out, const std::uint8_t* keys = nullptr,
                                          const std::uint8_t* custom = nullptr,
                                          const std::size_t* custom_off = nullptr) {
  host_sponge_job_set j{alg, out_len, {}};
  jobs::packed_hash_jobs& f = j.form;
  f.count = n;
  f.in = jobs::column::with_offsets<std::size_t>({in, in_off[n]}, {in_off, n + 1});
  f.out = jobs::out_column::fixed({out, n * out_len}, out_len);
  if (keys != nullptr) f.keys = jobs::column::fixed({keys, n * alg->key_size}, alg->key_size);
  if (custom_off != nullptr)
    f.customization =
        jobs::column::with_offsets<std::size_t>({custom, custom_off[n]}, {custom_off, n + 1});
  return j;
}

// Elements first .. last of a checked column: back to back in the caller's memory.
template <class Byte>
struct column_chunk {
  Byte* data;
  std::size_t bytes;
};
template <class Byte>
column_chunk<Byte> chunk_of(const lwc::jobs::columns::reader<Byte>& r, std::size_t first,
                            std::size_t last) {
  if (first == last) return {nullptr, 0};
  const auto a = r[first], z = r[last - 1];
  return {a.data, static_cast<std::size_t>(z.data + z.size - a.data)};
}

struct pipeline_options {
  unsigned streams = 3;
  std::size_t chunk_bytes = 32u << 20;
  unsigned copy_threads = 1;
};

// The range of each option; a value outside is clamped to it (documented in <lwc/cuda.hpp>).
// More streams or copy threads than this only cost memory and threads; a chunk over 1 GiB
// only delays the first kernel.
inline constexpr unsigned max_streams = 16;
inline constexpr std::size_t min_chunk_bytes = 4096;
inline constexpr std::size_t max_chunk_bytes = std::size_t{1} << 30;
inline constexpr unsigned max_copy_threads = 32;

inline pipeline_options clamped(pipeline_options o) {
  o.streams = std::clamp(o.streams, 1u, max_streams);
  o.chunk_bytes = std::clamp(o.chunk_bytes, min_chunk_bytes, max_chunk_bytes);
  o.copy_threads = std::clamp(o.copy_threads, 1u, max_copy_threads);
  return o;
}

// The pipeline settings for the user's host_options values; copy_threads 0 picks half the
// hardware threads, at most 8.
inline pipeline_options pipeline_options_for(unsigned streams, std::size_t chunk_bytes,
                                             unsigned copy_threads, unsigned hardware_threads) {
  pipeline_options o;
  o.streams = streams;
  o.chunk_bytes = chunk_bytes;
  o.copy_threads =
      copy_threads != 0 ? copy_threads : std::clamp(std::max(1u, hardware_threads) / 2, 1u, 8u);
  return clamped(o);
}

// Regions of one chunk's staging buffers; the device buffers have the same layout.
struct chunk_layout {
  std::size_t first = 0, last = 0;
  // input arena
  std::size_t msg_at = 0, msg_lead = 0, msg_bytes = 0;
  std::size_t ad_at = 0, ad_lead = 0, ad_bytes = 0;
  std::size_t off_at = 0, ad_off_at = 0, keys_at = 0, nonces_at = 0, second_at = 0,
              tags_in_at = 0, in_size = 0;
  // hash chunks: customization strings (like the associated data of AEAD chunks)
  std::size_t custom_at = 0, custom_lead = 0, custom_bytes = 0, custom_off_at = 0;
  // output arena
  std::size_t out_at = 0, tags_out_at = 0, ok_at = 0, out_size = 0;
};

inline std::size_t align_up(std::size_t x, std::size_t a) { return (x + a - 1) / a * a; }

// Where byte `at` of a buffer at `base` falls modulo 16: the chunk keeps it, so that jobs
// aligned in the caller's memory stay aligned on the device (the kernels' fast path).
inline std::size_t lead_of(const void* base, std::size_t at) {
  return (reinterpret_cast<std::uintptr_t>(base) + at) % 16;
}

// A job set's columns, read a job at a time.
struct aead_view {
  const algo_info* alg;
  bool decrypt, appended, masked, has_ad;
  std::size_t n, tag_len;
  lwc::jobs::columns::reader<const std::uint8_t> keys, nonces, second_keys, ad, in, tags_in;
  lwc::jobs::columns::reader<std::uint8_t> out, tags_out;
  std::uint8_t* ok;

  explicit aead_view(const host_aead_job_set& j)
      : alg(j.alg), decrypt(j.decrypt), appended(j.form.tags == jobs::tag_place::appended),
        masked(!j.form.second_keys.absent()), has_ad(!j.form.ad.absent()), n(j.form.count),
        tag_len(j.tag_len), keys(j.form.keys), nonces(j.form.nonces),
        second_keys(j.form.second_keys), ad(j.form.ad), in(j.form.in), tags_in(j.form.tags_in),
        out(j.form.out), tags_out(j.form.tags_out), ok(j.ok) {}

  // The ciphertext (or plaintext) length of job i, without an appended tag.
  std::size_t len(std::size_t i) const { return gather_in() ? in[i].size - tag_len : in[i].size; }
  // Ciphertexts and tags interleaved in the input (decryption) or the output (encryption):
  // the kernels' separate tag column is gathered or scattered a job at a time.
  bool gather_in() const { return decrypt && appended; }
  bool scatter_out() const { return !decrypt && appended; }
};

struct sponge_view {
  const algo_info* alg;
  std::size_t n, out_len;
  bool keyed, has_custom;
  lwc::jobs::columns::reader<const std::uint8_t> in, keys, custom;
  lwc::jobs::columns::reader<std::uint8_t> out;

  explicit sponge_view(const host_sponge_job_set& j)
      : alg(j.alg), n(j.form.count), out_len(j.out_len), keyed(!j.form.keys.absent()),
        has_custom(!j.form.customization.absent()), in(j.form.in), keys(j.form.keys),
        custom(j.form.customization), out(j.form.out) {}
};

template <class Backend>
class pipeline {
  using stream = typename Backend::stream;

  struct arena {
    void* p = nullptr;
    std::size_t size = 0;
    std::size_t dirty = 0;  // bytes from the start that may hold a batch's data
  };
  struct slot {
    stream s{};
    arena host_in, host_out, dev_in, dev_out;
    bool pending = false;
    chunk_layout c;
  };

 public:
  pipeline(Backend& be, const pipeline_options& opt)
      : be_(be), opt_(clamped(opt)), pool_(opt_.copy_threads) {
    slots_.resize(opt_.streams);
    try {
      for (slot& s : slots_) s.s = be_.make_stream();
    } catch (...) {
      release();
      throw;
    }
  }
  ~pipeline() { release(); }
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  // The settings in use, after clamping.
  const pipeline_options& options() const { return opt_; }

  void run(const host_aead_job_set& j) {
    const aead_view v(j);
    if (v.n == 0) return;
    const bool direct_in = !v.gather_in() && be_.is_pinned(chunk_of(v.in, 0, v.n).data);
    const bool direct_out = !v.scatter_out() && be_.is_pinned(chunk_of(v.out, 0, v.n).data);
    const std::size_t meta_in = v.alg->key_size + v.alg->nonce_size +
                                (v.masked ? v.alg->second_key_size : 0) + (v.has_ad ? 8 : 0) + 8 +
                                (v.decrypt ? v.tag_len : 0);
    const std::size_t meta_out = v.decrypt ? 1 : v.tag_len;
    const std::size_t total = chunk_of(v.in, 0, v.n).bytes + chunk_of(v.ad, 0, v.n).bytes;
    const std::size_t budget = chunk_budget(total + v.n * meta_in);
    run_chunks(v.n, [&](std::size_t first) {
      std::size_t in = 0, out = 0, i = first;
      for (; i < v.n; ++i) {
        const std::size_t len = v.len(i);
        const std::size_t ad = v.ad[i].size;
        if (i != first && (in + len + ad + meta_in > budget || out + len + meta_out > budget)) break;
        in += len + ad + meta_in;
        out += len + meta_out;
      }
      return i;
    }, [&](chunk_layout& c) { layout_aead(v, c); },
       [&](slot& s) { stage_aead(v, s, direct_in, direct_out); },
       [&](slot& s) { finish_aead(v, s, direct_out); });
  }

  void run(const host_sponge_job_set& j) {
    const sponge_view v(j);
    if (v.n == 0) return;
    const bool direct_in = be_.is_pinned(chunk_of(v.in, 0, v.n).data);
    const std::size_t meta_in = 8 + (v.keyed ? v.alg->key_size : 0) + (v.has_custom ? 8 : 0);
    const std::size_t total = chunk_of(v.in, 0, v.n).bytes + chunk_of(v.custom, 0, v.n).bytes;
    const std::size_t budget = chunk_budget(total + v.n * (meta_in + v.out_len));
    run_chunks(v.n, [&](std::size_t first) {
      std::size_t in = 0, out = 0, i = first;
      for (; i < v.n; ++i) {
        const std::size_t len = v.in[i].size + v.custom[i].size;
        if (i != first && (in + len + meta_in > budget || out + v.out_len > budget)) break;
        in += len + meta_in;
        out += v.out_len;
      }
      return i;
    }, [&](chunk_layout& c) { layout_sponge(v, c); },
       [&](slot& s) { stage_sponge(v, s, direct_in); },
       [&](slot& s) { finish_sponge(v, s); });
  }

 private:
  // Chunks small enough to keep `streams` of them in flight with a few per stream, and large
  // enough that a copy is not dominated by its fixed cost.
  std::size_t chunk_budget(std::size_t total) const {
    const std::size_t cap = std::max(opt_.chunk_bytes, std::size_t{4096});
    const std::size_t floor_bytes = std::min(std::size_t{1} << 20, cap);
    return std::clamp(total / (4 * slots_.size()), floor_bytes, cap);
  }

  template <class Next, class Layout, class Stage, class Finish>
  void run_chunks(std::size_t n, Next next, Layout layout, Stage stage, Finish finish) {
    std::size_t k = 0;
    try {
      for (std::size_t first = 0; first < n; ++k) {
        slot& s = slots_[k % slots_.size()];
        if (s.pending) {
          be_.wait(s.s);
          s.pending = false;
          finish(s);
        }
        s.c = chunk_layout{};
        s.c.first = first;
        s.c.last = next(first);
        layout(s.c);
        reserve(s, s.host_in, s.c.in_size, true);
        reserve(s, s.dev_in, s.c.in_size, false);
        reserve(s, s.host_out, s.c.out_size, true);
        reserve(s, s.dev_out, s.c.out_size, false);
        stage(s);
        s.pending = true;
        first = s.c.last;
      }
      for (std::size_t i = 0; i < slots_.size(); ++i) {
        slot& s = slots_[(k + i) % slots_.size()];
        if (!s.pending) continue;
        be_.wait(s.s);
        s.pending = false;
        finish(s);
      }
    } catch (...) {
      // Nothing may still be copying from or into the caller's memory once we return.
      for (slot& s : slots_) {
        be_.wait_noexcept(s.s);
        s.pending = false;
      }
      wipe_noexcept();
      throw;
    }
    wipe();
  }

  // Zeroes what this batch left in the staging buffers: the device buffers by a memset queued
  // on their stream (finished before we return), the host buffers once no copy can reach them.
  void wipe() {
    for (slot& s : slots_) {
      wipe_device(s, s.dev_in);
      wipe_device(s, s.dev_out);
    }
    for (slot& s : slots_) be_.wait(s.s);
    for (slot& s : slots_) {
      wipe_host(s.host_in);
      wipe_host(s.host_out);
    }
  }
  void wipe_noexcept() noexcept {
    for (slot& s : slots_) {
      if (!s.s) continue;  // a slot whose stream was never made holds no buffers
      try {
        wipe_device(s, s.dev_in);
        wipe_device(s, s.dev_out);
      } catch (...) {  // a failed device: its memory goes with its context
      }
      be_.wait_noexcept(s.s);
      wipe_host(s.host_in);
      wipe_host(s.host_out);
    }
  }
  void wipe_device(slot& s, arena& a) {
    if (a.dirty == 0) return;
    be_.zero_device_async(a.p, a.dirty, s.s);
    a.dirty = 0;
  }
  void wipe_host(arena& a) noexcept {
    if (a.dirty == 0) return;
    be_.zero_host(a.p, a.dirty);
    a.dirty = 0;
  }

  // Makes `a` hold at least `size` bytes, marked as in use by this batch. A buffer too small is
  // zeroed before it is freed (the slot's stream is idle here: its last chunk has finished).
  void reserve(slot& s, arena& a, std::size_t size, bool host) {
    if (a.size < size) {
      const std::size_t want = std::max(size, a.size + a.size / 2);
      if (a.p != nullptr) {
        if (host) {
          wipe_host(a);
          be_.free_host(a.p);
        } else {
          wipe_device(s, a);
          be_.wait(s.s);
          be_.free_device(a.p);
        }
        a = arena{};
      }
      a.p = host ? be_.alloc_host(want) : be_.alloc_device(want);
      a.size = want;
    }
    a.dirty = std::max(a.dirty, size);
  }

  void release() noexcept {
    for (slot& s : slots_) {
      if (s.s) be_.wait_noexcept(s.s);
    }
    wipe_noexcept();
    for (slot& s : slots_) {
      if (s.host_in.p) be_.free_host(s.host_in.p);
      if (s.host_out.p) be_.free_host(s.host_out.p);
      if (s.dev_in.p) be_.free_device(s.dev_in.p);
      if (s.dev_out.p) be_.free_device(s.dev_out.p);
      if (s.s) be_.destroy_stream(s.s);
      s = slot{};
    }
  }

  static std::uint8_t* at(const arena& a, std::size_t off) { return static_cast<std::uint8_t*>(a.p) + off; }

  // ---- AEAD chunks ----

  static void layout_aead(const aead_view& v, chunk_layout& c) {
    const std::size_t cnt = c.last - c.first;
    std::size_t at = 0;
    const auto region = [&](std::size_t bytes) {
      const std::size_t r = at;
      at = align_up(at + bytes, 256);
      return r;
    };
    const auto msgs = chunk_of(v.in, c.first, c.last);
    c.msg_lead = lead_of(msgs.data, 0);
    c.msg_bytes = msgs.bytes;
    if (v.gather_in()) c.msg_bytes -= cnt * v.tag_len;
    c.msg_at = region(c.msg_lead + c.msg_bytes);
    if (v.has_ad) {
      const auto ads = chunk_of(v.ad, c.first, c.last);
      c.ad_lead = lead_of(ads.data, 0);
      c.ad_bytes = ads.bytes;
      c.ad_at = region(c.ad_lead + c.ad_bytes);
      c.ad_off_at = region(8 * (cnt + 1));
    }
    c.off_at = region(8 * (cnt + 1));
    c.keys_at = region(v.alg->key_size * cnt);
    c.nonces_at = region(v.alg->nonce_size * cnt);
    if (v.masked) c.second_at = region(v.alg->second_key_size * cnt);
    if (v.decrypt) c.tags_in_at = region(v.tag_len * cnt);
    c.in_size = at;
    at = 0;
    c.out_at = region(c.msg_lead + c.msg_bytes);
    if (v.decrypt) c.ok_at = region(cnt);
    else c.tags_out_at = region(v.tag_len * cnt);
    c.out_size = at;
  }

  // The chunk's device offsets (in place of the caller's, whatever their type): each job's
  // place in the staged bytes, after the lead that keeps the caller's alignment.
  template <class Length>
  static void write_offsets(std::uint8_t* dst, std::size_t lead, std::size_t first,
                            std::size_t last, Length length) {
    std::size_t pos = lead;
    for (std::size_t i = first;; ++i) {
      store_le64(dst + 8 * (i - first), pos);  // the kernels' u64 offsets
      if (i == last) break;
      pos += length(i);
    }
  }

  void stage_aead(const aead_view& v, slot& s, bool direct_in, bool direct_out) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    std::vector<copy_task> tasks;
    const auto msgs = chunk_of(v.in, c.first, c.last);
    if (v.gather_in()) {
      std::size_t pos = c.msg_at + c.msg_lead;
      for (std::size_t i = c.first; i < c.last; ++i) {
        const std::size_t len = v.len(i);
        tasks.push_back({at(s.host_in, pos), v.in[i].data, len});
        tasks.push_back({at(s.host_in, c.tags_in_at + v.tag_len * (i - c.first)), v.in[i].data + len, v.tag_len});
        pos += len;
      }
    } else if (!direct_in) {
      tasks.push_back({at(s.host_in, c.msg_at + c.msg_lead), msgs.data, c.msg_bytes});
    }
    write_offsets(at(s.host_in, c.off_at), c.msg_lead, c.first, c.last, [&](std::size_t i) { return v.len(i); });
    if (v.has_ad) {
      tasks.push_back({at(s.host_in, c.ad_at + c.ad_lead), chunk_of(v.ad, c.first, c.last).data, c.ad_bytes});
      write_offsets(at(s.host_in, c.ad_off_at), c.ad_lead, c.first, c.last, [&](std::size_t i) { return v.ad[i].size; });
    }
    tasks.push_back({at(s.host_in, c.keys_at), chunk_of(v.keys, c.first, c.last).data, v.alg->key_size * cnt});
    tasks.push_back({at(s.host_in, c.nonces_at), chunk_of(v.nonces, c.first, c.last).data, v.alg->nonce_size * cnt});
    if (v.masked)
      tasks.push_back({at(s.host_in, c.second_at), chunk_of(v.second_keys, c.first, c.last).data,
                       v.alg->second_key_size * cnt});
    if (v.decrypt && !v.appended)
      tasks.push_back({at(s.host_in, c.tags_in_at), chunk_of(v.tags_in, c.first, c.last).data, v.tag_len * cnt});
    pool_.run(tasks);

    if (direct_in) {  // the message bytes straight from the caller's pinned memory
      const std::size_t meta = align_up(c.msg_lead + c.msg_bytes, 256);
      be_.h2d(at(s.dev_in, c.msg_at + c.msg_lead), msgs.data, c.msg_bytes, s.s);
      be_.h2d(at(s.dev_in, meta), at(s.host_in, meta), c.in_size - meta, s.s);
    } else {
      be_.h2d(s.dev_in.p, s.host_in.p, c.in_size, s.s);
    }
    // The staged chunk as the kernels' columns: fixed keys, nonces and tags, offset columns
    // (the offsets written above) for the messages, their outputs and the associated data.
    aead_batch b = aead_batch_for(*v.alg, cnt, v.tag_len);
    b.keys = fixed_column<const std::uint8_t>(at(s.dev_in, c.keys_at), v.alg->key_size, cnt);
    b.nonces = fixed_column<const std::uint8_t>(at(s.dev_in, c.nonces_at), v.alg->nonce_size, cnt);
    if (v.masked) b.second_keys = fixed_column<const std::uint8_t>(at(s.dev_in, c.second_at), v.alg->second_key_size, cnt);
    const void* offsets = at(s.dev_in, c.off_at);
    b.in = {at(s.dev_in, c.msg_at), c.msg_lead + c.msg_bytes, 0, offsets, jobs::offset_type::u64};
    b.out = {at(s.dev_out, c.out_at), c.msg_lead + c.msg_bytes, 0, offsets, jobs::offset_type::u64};
    if (v.has_ad)
      b.ad = {at(s.dev_in, c.ad_at), c.ad_lead + c.ad_bytes, 0, at(s.dev_in, c.ad_off_at), jobs::offset_type::u64};
    if (v.decrypt) {
      b.tags_in = fixed_column<const std::uint8_t>(at(s.dev_in, c.tags_in_at), v.tag_len, cnt);
      b.ok = at(s.dev_out, c.ok_at);
    } else {
      b.tags_out = fixed_column(at(s.dev_out, c.tags_out_at), v.tag_len, cnt);
    }
    be_.run_aead(v.alg->id, v.decrypt, b, s.s);
    if (direct_out) {
      be_.d2h(chunk_of(v.out, c.first, c.last).data, at(s.dev_out, c.out_at + c.msg_lead), c.msg_bytes, s.s);
      const std::size_t meta = align_up(c.msg_lead + c.msg_bytes, 256);
      be_.d2h(at(s.host_out, meta), at(s.dev_out, meta), c.out_size - meta, s.s);
    } else {
      be_.d2h(s.host_out.p, s.dev_out.p, c.out_size, s.s);
    }
  }

  void finish_aead(const aead_view& v, slot& s, bool direct_out) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    std::vector<copy_task> tasks;
    if (v.scatter_out()) {
      // Each ciphertext, then its tag, into the job's output element.
      std::size_t pos = c.out_at + c.msg_lead;
      for (std::size_t i = c.first; i < c.last; ++i) {
        const std::size_t len = v.len(i);
        tasks.push_back({v.out[i].data, at(s.host_out, pos), len});
        tasks.push_back({v.out[i].data + len, at(s.host_out, c.tags_out_at + v.tag_len * (i - c.first)), v.tag_len});
        pos += len;
      }
    } else if (!direct_out) {
      tasks.push_back({chunk_of(v.out, c.first, c.last).data, at(s.host_out, c.out_at + c.msg_lead), c.msg_bytes});
    }
    if (v.decrypt) tasks.push_back({v.ok + c.first, at(s.host_out, c.ok_at), cnt});
    else if (!v.appended)
      tasks.push_back({chunk_of(v.tags_out, c.first, c.last).data, at(s.host_out, c.tags_out_at), v.tag_len * cnt});
    pool_.run(tasks);
  }

  // ---- hash chunks ----

  static void layout_sponge(const sponge_view& v, chunk_layout& c) {
    const std::size_t cnt = c.last - c.first;
    std::size_t at = 0;
    const auto region = [&](std::size_t bytes) {
      const std::size_t r = at;
      at = align_up(at + bytes, 256);
      return r;
    };
    const auto msgs = chunk_of(v.in, c.first, c.last);
    c.msg_lead = lead_of(msgs.data, 0);
    c.msg_bytes = msgs.bytes;
    c.msg_at = region(c.msg_lead + c.msg_bytes);
    c.off_at = region(8 * (cnt + 1));
    if (v.keyed) c.keys_at = region(v.alg->key_size * cnt);
    if (v.has_custom) {
      const auto customs = chunk_of(v.custom, c.first, c.last);
      c.custom_lead = lead_of(customs.data, 0);
      c.custom_bytes = customs.bytes;
      c.custom_at = region(c.custom_lead + c.custom_bytes);
      c.custom_off_at = region(8 * (cnt + 1));
    }
    c.in_size = at;
    at = 0;
    c.out_at = region(v.out_len * cnt);
    c.out_size = at;
  }

  void stage_sponge(const sponge_view& v, slot& s, bool direct_in) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    const auto msgs = chunk_of(v.in, c.first, c.last);
    std::vector<copy_task> tasks;
    if (!direct_in) tasks.push_back({at(s.host_in, c.msg_at + c.msg_lead), msgs.data, c.msg_bytes});
    write_offsets(at(s.host_in, c.off_at), c.msg_lead, c.first, c.last, [&](std::size_t i) { return v.in[i].size; });
    if (v.keyed)
      tasks.push_back({at(s.host_in, c.keys_at), chunk_of(v.keys, c.first, c.last).data, v.alg->key_size * cnt});
    if (v.has_custom) {
      tasks.push_back({at(s.host_in, c.custom_at + c.custom_lead), chunk_of(v.custom, c.first, c.last).data,
                       c.custom_bytes});
      write_offsets(at(s.host_in, c.custom_off_at), c.custom_lead, c.first, c.last,
                    [&](std::size_t i) { return v.custom[i].size; });
    }
    pool_.run(tasks);
    if (direct_in) {  // the regions after the message's are all staged
      be_.h2d(at(s.dev_in, c.msg_at + c.msg_lead), msgs.data, c.msg_bytes, s.s);
      be_.h2d(at(s.dev_in, c.off_at), at(s.host_in, c.off_at), c.in_size - c.off_at, s.s);
    } else {
      be_.h2d(s.dev_in.p, s.host_in.p, c.in_size, s.s);
    }
    sponge_batch b = sponge_batch_for(*v.alg, cnt);
    b.in = {at(s.dev_in, c.msg_at), c.msg_lead + c.msg_bytes, 0, at(s.dev_in, c.off_at), jobs::offset_type::u64};
    b.out = fixed_column(at(s.dev_out, c.out_at), v.out_len, cnt);
    if (v.keyed) b.keys = fixed_column<const std::uint8_t>(at(s.dev_in, c.keys_at), v.alg->key_size, cnt);
    if (v.has_custom)
      b.custom = {at(s.dev_in, c.custom_at), c.custom_lead + c.custom_bytes, 0, at(s.dev_in, c.custom_off_at),
                  jobs::offset_type::u64};
    be_.run_sponge(v.alg->id, b, s.s);
    be_.d2h(s.host_out.p, s.dev_out.p, c.out_size, s.s);
  }

  void finish_sponge(const sponge_view& v, slot& s) {
    const chunk_layout& c = s.c;
    pool_.run({{chunk_of(v.out, c.first, c.last).data, at(s.host_out, c.out_at), v.out_len * (c.last - c.first)}});
  }

  Backend& be_;
  pipeline_options opt_;
  copy_pool pool_;
  std::vector<slot> slots_;
};

}  // namespace lwc::cuda::detail
