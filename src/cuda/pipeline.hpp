// SPDX-License-Identifier: MIT OR Apache-2.0
// The host-memory path of the CUDA engine: a batch is cut into chunks of jobs; each chunk is
// gathered into a pinned buffer (CPU copies on a few threads, or nothing when the caller's
// memory is already pinned), copied to the device, run, copied back and scattered into the
// caller's buffers, with `streams` chunks in flight so that copies in, kernels and copies out
// overlap. Written against a small backend interface: the CUDA runtime in api.cpp, the host
// emulation in the CPU tests (which thereby check the chunking, offsets and alignment logic
// without a GPU). The staging buffers hold keys, nonces and plaintext: every byte a batch put
// in them is zeroed (device buffers by a memset on their stream) before the batch returns,
// whether it succeeded or failed, and before any buffer is freed.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <lwc/common/secure.hpp>

#include "algorithms.hpp"
#include "warp_engine.hpp"

namespace lwc::cuda::detail {

// ---- parallel memcpy -------------------------------------------------------------------------

struct copy_task {
  void* dst;
  const void* src;
  std::size_t n;
};

// A few threads that split large copies between them: one CPU thread copies pageable memory
// at well under PCIe 5 speed, so staging needs several.
class copy_pool {
 public:
  explicit copy_pool(unsigned threads) {
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~copy_pool() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;

  void run(const std::vector<copy_task>& tasks) {
    constexpr std::size_t piece = std::size_t{1} << 20;
    pieces_.clear();
    for (const copy_task& t : tasks)
      for (std::size_t at = 0; at < t.n; at += piece)
        pieces_.push_back({static_cast<std::uint8_t*>(t.dst) + at,
                           static_cast<const std::uint8_t*>(t.src) + at, std::min(piece, t.n - at)});
    if (pieces_.empty()) return;
    if (workers_.empty() || pieces_.size() == 1) {
      for (const copy_task& p : pieces_) std::memcpy(p.dst, p.src, p.n);
      return;
    }
    next_.store(0);
    {
      std::lock_guard<std::mutex> lock(m_);
      busy_ = workers_.size();
      ++generation_;
    }
    cv_.notify_all();
    drain();
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [this] { return busy_ == 0; });
  }

 private:
  void drain() {
    for (std::size_t i; (i = next_.fetch_add(1)) < pieces_.size();)
      std::memcpy(pieces_[i].dst, pieces_[i].src, pieces_[i].n);
  }
  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
      }
      drain();
      std::lock_guard<std::mutex> lock(m_);
      if (--busy_ == 0) done_cv_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::vector<copy_task> pieces_;
  std::atomic<std::size_t> next_{0};
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  std::size_t busy_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

// ---- the batch, as the host API received it (checked by the caller) --------------------------

struct host_aead_job_set {
  const algo_info* alg;
  bool decrypt;
  std::size_t n, tag_len;
  const std::uint8_t* keys;
  const std::uint8_t* nonces;
  const std::uint8_t* second_keys;  // or null
  const std::uint8_t* in;
  const std::size_t* in_off;
  const std::uint8_t* ad;           // or null
  const std::size_t* ad_off;        // or null
  std::uint8_t* out;
  std::uint8_t* tags;  // encryption: written; decryption: read
  std::uint8_t* ok;    // decryption
};

struct host_sponge_job_set {
  const algo_info* alg;
  std::size_t n, out_len;
  const std::uint8_t* in;
  const std::size_t* in_off;
  std::uint8_t* out;
  const std::uint8_t* keys = nullptr;       // MACs and PRFs: n * key size
  const std::uint8_t* custom = nullptr;     // CXOFs: customization strings, or null
  const std::size_t* custom_off = nullptr;  // n + 1 entries, or null
};

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
    const bool direct_in = be_.is_pinned(j.in), direct_out = be_.is_pinned(j.out);
    const std::size_t meta_in = j.alg->key_size + j.alg->nonce_size +
                                (j.second_keys ? j.alg->second_key_size : 0) +
                                (j.ad_off ? 8 : 0) + 8 +
                                (j.decrypt ? j.tag_len : 0);
    const std::size_t meta_out = j.decrypt ? 1 : j.tag_len;
    std::size_t total = 0;
    if (j.n != 0) total = j.in_off[j.n] - j.in_off[0] + (j.ad_off ? j.ad_off[j.n] - j.ad_off[0] : 0);
    const std::size_t budget = chunk_budget(total + j.n * meta_in);
    run_chunks(j.n, [&](std::size_t first) {
      std::size_t in = 0, out = 0, i = first;
      for (; i < j.n; ++i) {
        const std::size_t len = j.in_off[i + 1] - j.in_off[i];
        const std::size_t ad = j.ad_off ? j.ad_off[i + 1] - j.ad_off[i] : 0;
        if (i != first && (in + len + ad + meta_in > budget || out + len + meta_out > budget)) break;
        in += len + ad + meta_in;
        out += len + meta_out;
      }
      return i;
    }, [&](chunk_layout& c) { layout_aead(j, c); },
       [&](slot& s) { stage_aead(j, s, direct_in, direct_out); },
       [&](slot& s) { finish_aead(j, s, direct_out); });
  }

  void run(const host_sponge_job_set& j) {
    const bool direct_in = be_.is_pinned(j.in);
    const std::size_t meta_in = 8 + (j.keys ? j.alg->key_size : 0) + (j.custom_off ? 8 : 0);
    std::size_t total = j.n != 0 ? j.in_off[j.n] - j.in_off[0] : 0;
    if (j.n != 0 && j.custom_off) total += j.custom_off[j.n] - j.custom_off[0];
    const std::size_t budget = chunk_budget(total + j.n * (meta_in + j.out_len));
    run_chunks(j.n, [&](std::size_t first) {
      std::size_t in = 0, out = 0, i = first;
      for (; i < j.n; ++i) {
        std::size_t len = j.in_off[i + 1] - j.in_off[i];
        if (j.custom_off) len += j.custom_off[i + 1] - j.custom_off[i];
        if (i != first && (in + len + meta_in > budget || out + j.out_len > budget)) break;
        in += len + meta_in;
        out += j.out_len;
      }
      return i;
    }, [&](chunk_layout& c) { layout_sponge(j, c); },
       [&](slot& s) { stage_sponge(j, s, direct_in); },
       [&](slot& s) { finish_sponge(j, s); });
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

  static void layout_aead(const host_aead_job_set& j, chunk_layout& c) {
    const std::size_t cnt = c.last - c.first;
    std::size_t at = 0;
    const auto region = [&](std::size_t bytes) {
      const std::size_t r = at;
      at = align_up(at + bytes, 256);
      return r;
    };
    c.msg_lead = lead_of(j.in, j.in_off[c.first]);
    c.msg_bytes = j.in_off[c.last] - j.in_off[c.first];
    c.msg_at = region(c.msg_lead + c.msg_bytes);
    if (j.ad_off) {
      c.ad_lead = lead_of(j.ad, j.ad_off[c.first]);
      c.ad_bytes = j.ad_off[c.last] - j.ad_off[c.first];
      c.ad_at = region(c.ad_lead + c.ad_bytes);
      c.ad_off_at = region(8 * (cnt + 1));
    }
    c.off_at = region(8 * (cnt + 1));
    c.keys_at = region(j.alg->key_size * cnt);
    c.nonces_at = region(j.alg->nonce_size * cnt);
    if (j.second_keys) c.second_at = region(j.alg->second_key_size * cnt);
    if (j.decrypt) c.tags_in_at = region(j.tag_len * cnt);
    c.in_size = at;
    at = 0;
    c.out_at = region(c.msg_lead + c.msg_bytes);
    if (j.decrypt) c.ok_at = region(cnt);
    else c.tags_out_at = region(j.tag_len * cnt);
    c.out_size = at;
  }

  void stage_aead(const host_aead_job_set& j, slot& s, bool direct_in, bool direct_out) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    std::vector<copy_task> tasks;
    if (!direct_in) tasks.push_back({at(s.host_in, c.msg_at + c.msg_lead), j.in + j.in_off[c.first], c.msg_bytes});
    if (j.ad_off) {
      tasks.push_back({at(s.host_in, c.ad_at + c.ad_lead), j.ad + j.ad_off[c.first], c.ad_bytes});
      tasks.push_back({at(s.host_in, c.ad_off_at), j.ad_off + c.first, 8 * (cnt + 1)});
    }
    tasks.push_back({at(s.host_in, c.off_at), j.in_off + c.first, 8 * (cnt + 1)});
    const std::size_t key_size = j.alg->key_size, nonce_size = j.alg->nonce_size;
    tasks.push_back({at(s.host_in, c.keys_at), j.keys + key_size * c.first, key_size * cnt});
    tasks.push_back({at(s.host_in, c.nonces_at), j.nonces + nonce_size * c.first, nonce_size * cnt});
    const std::size_t second_size = j.alg->second_key_size;
    if (j.second_keys)
      tasks.push_back({at(s.host_in, c.second_at), j.second_keys + second_size * c.first, second_size * cnt});
    if (j.decrypt) tasks.push_back({at(s.host_in, c.tags_in_at), j.tags + j.tag_len * c.first, j.tag_len * cnt});
    pool_.run(tasks);

    if (direct_in) {  // the message bytes straight from the caller's pinned memory
      const std::size_t meta = align_up(c.msg_lead + c.msg_bytes, 256);
      be_.h2d(at(s.dev_in, c.msg_at + c.msg_lead), j.in + j.in_off[c.first], c.msg_bytes, s.s);
      be_.h2d(at(s.dev_in, meta), at(s.host_in, meta), c.in_size - meta, s.s);
    } else {
      be_.h2d(s.dev_in.p, s.host_in.p, c.in_size, s.s);
    }
    aead_batch b{};
    b.keys = at(s.dev_in, c.keys_at);
    b.nonces = at(s.dev_in, c.nonces_at);
    b.second_keys = j.second_keys ? at(s.dev_in, c.second_at) : nullptr;
    b.in = at(s.dev_in, c.msg_at);
    b.in_off = reinterpret_cast<const std::size_t*>(at(s.dev_in, c.off_at));
    b.in_base = j.in_off[c.first] - c.msg_lead;  // modulo 2^64: only differences are used
    if (j.ad_off) {
      b.ad = at(s.dev_in, c.ad_at);
      b.ad_off = reinterpret_cast<const std::size_t*>(at(s.dev_in, c.ad_off_at));
      b.ad_base = j.ad_off[c.first] - c.ad_lead;
    }
    b.out = at(s.dev_out, c.out_at);
    b.tags = j.decrypt ? at(s.dev_in, c.tags_in_at) : at(s.dev_out, c.tags_out_at);
    b.ok = j.decrypt ? at(s.dev_out, c.ok_at) : nullptr;
    b.count = cnt;
    b.tag_len = static_cast<std::uint32_t>(j.tag_len);
    be_.run_aead(j.alg->id, j.decrypt, b, s.s);
    if (direct_out) {
      be_.d2h(j.out + j.in_off[c.first], at(s.dev_out, c.out_at + c.msg_lead), c.msg_bytes, s.s);
      const std::size_t meta = align_up(c.msg_lead + c.msg_bytes, 256);
      be_.d2h(at(s.host_out, meta), at(s.dev_out, meta), c.out_size - meta, s.s);
    } else {
      be_.d2h(s.host_out.p, s.dev_out.p, c.out_size, s.s);
    }
  }

  void finish_aead(const host_aead_job_set& j, slot& s, bool direct_out) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    std::vector<copy_task> tasks;
    if (!direct_out) tasks.push_back({j.out + j.in_off[c.first], at(s.host_out, c.out_at + c.msg_lead), c.msg_bytes});
    if (j.decrypt) tasks.push_back({j.ok + c.first, at(s.host_out, c.ok_at), cnt});
    else tasks.push_back({j.tags + j.tag_len * c.first, at(s.host_out, c.tags_out_at), j.tag_len * cnt});
    pool_.run(tasks);
  }

  // ---- hash chunks ----

  static void layout_sponge(const host_sponge_job_set& j, chunk_layout& c) {
    const std::size_t cnt = c.last - c.first;
    std::size_t at = 0;
    const auto region = [&](std::size_t bytes) {
      const std::size_t r = at;
      at = align_up(at + bytes, 256);
      return r;
    };
    c.msg_lead = lead_of(j.in, j.in_off[c.first]);
    c.msg_bytes = j.in_off[c.last] - j.in_off[c.first];
    c.msg_at = region(c.msg_lead + c.msg_bytes);
    c.off_at = region(8 * (cnt + 1));
    if (j.keys) c.keys_at = region(j.alg->key_size * cnt);
    if (j.custom_off) {
      c.custom_lead = lead_of(j.custom, j.custom_off[c.first]);
      c.custom_bytes = j.custom_off[c.last] - j.custom_off[c.first];
      c.custom_at = region(c.custom_lead + c.custom_bytes);
      c.custom_off_at = region(8 * (cnt + 1));
    }
    c.in_size = at;
    at = 0;
    c.out_at = region(j.out_len * cnt);
    c.out_size = at;
  }

  void stage_sponge(const host_sponge_job_set& j, slot& s, bool direct_in) {
    const chunk_layout& c = s.c;
    const std::size_t cnt = c.last - c.first;
    std::vector<copy_task> tasks;
    if (!direct_in) tasks.push_back({at(s.host_in, c.msg_at + c.msg_lead), j.in + j.in_off[c.first], c.msg_bytes});
    tasks.push_back({at(s.host_in, c.off_at), j.in_off + c.first, 8 * (cnt + 1)});
    if (j.keys)
      tasks.push_back({at(s.host_in, c.keys_at), j.keys + j.alg->key_size * c.first, j.alg->key_size * cnt});
    if (j.custom_off) {
      tasks.push_back({at(s.host_in, c.custom_at + c.custom_lead), j.custom + j.custom_off[c.first],
                       c.custom_bytes});
      tasks.push_back({at(s.host_in, c.custom_off_at), j.custom_off + c.first, 8 * (cnt + 1)});
    }
    pool_.run(tasks);
    if (direct_in) {  // the regions after the message's are all staged
      be_.h2d(at(s.dev_in, c.msg_at + c.msg_lead), j.in + j.in_off[c.first], c.msg_bytes, s.s);
      be_.h2d(at(s.dev_in, c.off_at), at(s.host_in, c.off_at), c.in_size - c.off_at, s.s);
    } else {
      be_.h2d(s.dev_in.p, s.host_in.p, c.in_size, s.s);
    }
    sponge_batch b{};
    b.in = at(s.dev_in, c.msg_at);
    b.in_off = reinterpret_cast<const std::size_t*>(at(s.dev_in, c.off_at));
    b.in_base = j.in_off[c.first] - c.msg_lead;
    b.out = at(s.dev_out, c.out_at);
    b.out_len = j.out_len;
    b.count = cnt;
    if (j.keys) b.keys = at(s.dev_in, c.keys_at);
    if (j.custom_off) {
      b.custom = at(s.dev_in, c.custom_at);
      b.custom_off = reinterpret_cast<const std::size_t*>(at(s.dev_in, c.custom_off_at));
      b.custom_base = j.custom_off[c.first] - c.custom_lead;
    }
    be_.run_sponge(j.alg->id, b, s.s);
    be_.d2h(s.host_out.p, s.dev_out.p, c.out_size, s.s);
  }

  void finish_sponge(const host_sponge_job_set& j, slot& s) {
    const chunk_layout& c = s.c;
    pool_.run({{j.out + j.out_len * c.first, at(s.host_out, c.out_at), j.out_len * (c.last - c.first)}});
  }

  Backend& be_;
  pipeline_options opt_;
  copy_pool pool_;
  std::vector<slot> slots_;
};

}  // namespace lwc::cuda::detail
