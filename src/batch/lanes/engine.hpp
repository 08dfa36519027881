// SPDX-License-Identifier: MIT OR Apache-2.0
// The group lane engine: the one place that owns a job's life in the lanes, for every family.
// It claims jobs in groups of V::lanes and starts them together on the whole vectors (the
// family's start step), keeps the started states in a pool that refills the lanes, runs the
// lanes under the scheduler (scheduler.hpp: a run of steps, then the lanes whose job has no
// full step left are spilled, queued and refilled), finishes the queued jobs V::lanes at a time
// (the family's finish step; families whose start or end needs no vectors skip the pool or the
// queue: start_one, finish_one), and then writes each tag or checks it in constant time, zeroing a
// rejected plaintext by a mask. It wipes every state, staging area and tag it held. Included
// inside the backend's namespace (lane_kernels.hpp).
//
// A family writes a struct F with (V its lane vector, u32 or u64 lanes):
//   using vector = V; using word = u32 or u64;  the lane type and one lane's word
//   using task = aead_task or sponge_task;      what it runs: AEAD jobs, or hashes and MACs
//   static constexpr size_t words;              vectors a lane's state takes (key words too)
//   using states = word[rows][V::lanes];        lanes' states in memory, row w holding word w
//                                               of every lane; rows >= words (the rows past
//                                               words stay in memory: round keys, say)
//   static constexpr size_t rate, out_rate;     bytes a step reads, and writes (out_rate: 0
//                                               when steps write nothing)
//   static constexpr size_t tag_bytes;          AEAD only: the full tag
//   static constexpr bool decrypt;              AEAD only
//   void start(states& s, const desc* jobs, size_t m)
//       the group's start on the whole vectors (s[w][i]: word w of job i, zero for i >= m)
//   void steps(V (&x)[words], const states& lanes, const u8* const* src, u8* const* dst,
//              u64 k, const cursors& c)
//       k steps on every lane, each reading rate bytes at src[j] + rate * step and writing
//       out_rate bytes at dst[j] + out_rate * step; c.prefetch(off) once per step, where used;
//       lanes holds the rows past words of the jobs in the lanes
//   void finish(states& s, const desc* jobs, size_t n, u8 (&tags)[N][tag_bytes])
//       the queued jobs' last partial block and their tags (AEAD), or their outputs (sponge)
// and may add:
//   void start_one(states& s, size_t j, const desc& d)
//       job d's start written straight into lane j, for a start that needs no work on the
//       whole vectors (a constant state): the engine then keeps no pool of started states
//   void finish_one(const states& s, size_t j, const desc& d)
//       sponge only: job d's output straight from lane j's state, for an end that needs no
//       work on the whole vectors: the engine then keeps no finish queue
//   static u64 lane_steps(const desc& d)
//       the steps job d takes in the lanes, where not all of its input's full blocks
//   bool enter(size_t j, const desc& d, cursors& c, bool first)
//       points lane j at its first (first) or next segment, false when none is left; without
//       it a job has one segment, lane_steps(d) steps over its input (and output)
//   void queued(states& s, size_t q, size_t j, const desc& d)
//       work on a job entering the finish queue at q, from lane j
//   void after_refills(V (&x)[words], const states& lanes)   after each round of refills
//   void idle(size_t j)                                  lane j has no job left
//   void wipe_scratch()                                  wipes the family's own buffers
// Lengths decide every branch and index here; keys, data, states and tag verdicts never do.
//
// Two families drive their own queue and share only the pieces below (settle_tag, claim_jobs,
// run_aead_engine): Acorn, whose lanes walk staged segments under per-byte phase masks (on
// scheduler.hpp directly), and Elephant, whose unit of work is a permutation call, not a job in
// a lane: a job makes up to thousands of independent calls in three waves, bitsliced 64 x
// W::lanes calls at a time, so no state stays in a lane from one step to the next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../backend.hpp"
#include "common.hpp"
#include "scheduler.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/engine.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng {

// The one tag check of every AEAD kernel. Encryption writes the first len bytes of tag;
// decryption compares them with the job's tag in constant time (all len bytes, whatever their
// values), records the verdict, and ANDs the plaintext with the verdict's mask, so that a
// rejected plaintext is zeroed without a branch on the verdict: the verdict is public, but it
// comes from the key, and a branch on it is what the constant-time check flags.
// Eight bytes at a time, then the rest: a copy or compare of a run-time length byte by byte
// (or through a memcpy call) costs a job of 64 bytes several percent.
template <bool Decrypt>
LWC_SIMD_INLINE void settle_tag(const aead_task& t, const aead_desc& d, const u8* tag) {
  const size_t len = t.tag_len;
  size_t b = 0;
  if constexpr (Decrypt) {
    u64 diff = 0;
    for (; b + 8 <= len; b += 8) {
      u64 mine, theirs;
      std::memcpy(&mine, tag + b, 8);
      std::memcpy(&theirs, d.tag + b, 8);
      diff |= mine ^ theirs;
    }
    for (; b < len; ++b) diff |= static_cast<u64>(tag[b] ^ d.tag[b]);
    const u8 ok = static_cast<u8>(((diff | (0 - diff)) >> 63) ^ 1);  // 1 exactly when diff == 0
    t.ok[d.index] = ok;
    keep_or_zero(d.out, d.len, static_cast<u8>(0 - ok));
  } else {
    for (; b + 8 <= len; b += 8) std::memcpy(d.tag + b, tag + b, 8);
    for (; b < len; ++b) d.tag[b] = tag[b];
  }
}

template <class Task>
using desc_t = std::conditional_t<std::is_same_v<Task, aead_task>, aead_desc, sponge_desc>;

// Claims up to max jobs of the task and copies their descriptors to out; how many (0: none left).
template <class Task>
size_t claim_jobs(const Task& t, size_t max, desc_t<Task>* out) {
  size_t first = 0;
  const size_t m = t.claim(t.claim_ctx, max, &first);
  if (m != 0) t.fetch(t.ctx, first, m, out);
  return m;
}

template <class F>
class group_lane_engine : public lane_scheduler<group_lane_engine<F>> {
  friend class lane_scheduler<group_lane_engine>;
  using V = typename F::vector;
  using word = typename F::word;
  using task = typename F::task;
  using desc = desc_t<task>;
  static constexpr bool aead = std::is_same_v<task, aead_task>;
  static constexpr size_t N = V::lanes;
  static constexpr size_t words = F::words;
  using states = typename F::states;
  static constexpr size_t rows = std::extent_v<states>;
  static_assert(rows >= words && std::extent_v<states, 1> == N);
  static constexpr size_t rate = F::rate;
  static constexpr size_t out_rate = F::out_rate;
  // Each job put straight into its lane and taken straight out of it: every job of a sponge
  // with a constant start would otherwise make two extra copies of its state (pool, queue),
  // a cost that shows with short messages (docs/performance-batch.md, "The group lane
  // engine").
  static constexpr bool starts_alone =
      requires(F f, states& s, const desc& d) { f.start_one(s, size_t{0}, d); };
  static constexpr bool finishes_alone =
      !aead && requires(F f, const states& s, const desc& d) { f.finish_one(s, size_t{0}, d); };

 public:
  using cursors = lane_cursors<N, rate, (out_rate != 0 ? out_rate : rate)>;

  explicit group_lane_engine(const task& t) : t_(t) {}
  group_lane_engine(const group_lane_engine&) = delete;
  group_lane_engine& operator=(const group_lane_engine&) = delete;
  ~group_lane_engine() {
    wipe(x_, sizeof x_);
    wipe(spill_, sizeof spill_);
    wipe(pool_, sizeof pool_);
    wipe(fin_, sizeof fin_);
    wipe(cur_.sink, sizeof cur_.sink);
    if constexpr (requires { fam_.wipe_scratch(); }) fam_.wipe_scratch();
  }

  using lane_scheduler<group_lane_engine>::run;

 private:
  // ---- the scheduler's hooks (scheduler.hpp) ----
  void begin() {
    std::memset(spill_, 0, sizeof spill_);
    for (size_t j = 0; j < N; ++j) start_lane(j);
    reload();
    after_refills();
  }
  size_t active() const { return active_; }
  u64 run_length() const { return cur_.run_length(); }
  void advance(u64 k) { cur_.advance(k); }
  bool segment_ended(size_t j) const { return cur_.left[j] == 0; }
  bool next_segment(size_t j) { return enter(j, false); }
  void spill() {
    for (size_t w = 0; w < words; ++w) x_[w].store(spill_[w]);
  }
  void reload() {
    for (size_t w = 0; w < words; ++w) x_[w] = V::load(spill_[w]);
  }
  void after_refills() {
    if constexpr (requires { fam_.after_refills(x_, spill_); }) fam_.after_refills(x_, spill_);
  }
  void end() {
    if constexpr (!finishes_alone)
      if (fin_n_ != 0) finish_group();
  }

  // The state in local vectors for the run: stores through the lanes' byte pointers may alias
  // any member, so the compiler would otherwise reload the state after each of them.
  void steps(u64 k) {
    V x[words];
    for (size_t w = 0; w < words; ++w) x[w] = x_[w];
    const u8* src[N];
    u8* dst[N];
    for (size_t j = 0; j < N; ++j) {
      src[j] = cur_.src_ptr(j);
      dst[j] = cur_.dst_ptr(j);
    }
    fam_.steps(x, spill_, src, dst, k, cur_);
    for (size_t w = 0; w < words; ++w) x_[w] = x[w];
  }

  // Points lane j at its job's first or next segment; false when the job has no full step
  // left.
  bool enter(size_t j, bool first) {
    if constexpr (requires { fam_.enter(j, job_[j], cur_, first); }) {
      return fam_.enter(j, job_[j], cur_, first);
    } else {
      const desc& d = job_[j];
      const u64 n = lane_steps(d);
      if (!first || n == 0) return false;
      if constexpr (out_rate != 0) cur_.set(j, d.in, d.out, n);
      else cur_.set(j, d.in, nullptr, n);
      return true;
    }
  }

  static u64 lane_steps(const desc& d) {
    if constexpr (requires { F::lane_steps(d); }) return F::lane_steps(d);
    else return d.len / rate;
  }

  // Gives lane j the next started job, starting a group when the pool is empty; a job with no
  // full step goes straight to the finish queue. Leaves the lane idle when the batch has no
  // job left.
  void start_lane(size_t j) {
    for (;;) {
      if (pool_i_ == pool_n_ && !start_group()) {
        cur_.idle(j);
        if constexpr (requires { fam_.idle(j); }) fam_.idle(j);
        active_ -= busy_[j];
        busy_[j] = false;
        return;
      }
      const size_t p = pool_i_++;
      if constexpr (starts_alone) fam_.start_one(spill_, j, pool_job_[p]);
      else
        for (size_t w = 0; w < rows; ++w) spill_[w][j] = pool_[w][p];
      job_[j] = pool_job_[p];
      if (enter(j, true)) {
        active_ += !busy_[j];
        busy_[j] = true;
        return;
      }
      finish_lane(j);
    }
  }

  // Claims up to N jobs and starts them together.
  bool start_group() {
    const size_t m = claim_jobs(t_, N, pool_job_);
    if (m == 0) return false;
    if constexpr (!starts_alone) {
      std::memset(pool_, 0, sizeof pool_);
      fam_.start(pool_, pool_job_, m);
    }
    pool_n_ = m;
    pool_i_ = 0;
    return true;
  }

  // Lane j's job has no full step left (its state in spill_): queue it.
  void finish_lane(size_t j) {
    if constexpr (finishes_alone) {
      fam_.finish_one(spill_, j, job_[j]);
    } else {
      const size_t q = fin_n_;
      for (size_t w = 0; w < rows; ++w) fin_[w][q] = spill_[w][j];
      fin_job_[q] = job_[j];
      if constexpr (requires { fam_.queued(fin_, q, j, job_[j]); })
        fam_.queued(fin_, q, j, job_[j]);
      if (++fin_n_ == N) finish_group();
    }
  }

  // The queued jobs' ends, then (AEAD) their tags written or checked.
  void finish_group() {
    const size_t n = fin_n_;
    if constexpr (aead) {
      alignas(8) u8 tags[N][F::tag_bytes];
      fam_.finish(fin_, fin_job_, n, tags);
      for (size_t i = 0; i < n; ++i) settle_tag<F::decrypt>(t_, fin_job_[i], tags[i]);
      wipe(tags, sizeof tags);
    } else {
      fam_.finish(fin_, fin_job_, n);
    }
    fin_n_ = 0;
  }

  const task& t_;
  F fam_;
  V x_[words];
  alignas(64) states spill_;
  cursors cur_;
  bool busy_[N] = {};
  size_t active_ = 0;  // lanes with a job
  desc job_[N];

  alignas(64) states pool_ = {};
  desc pool_job_[N];
  size_t pool_n_ = 0, pool_i_ = 0;

  alignas(64) states fin_ = {};
  desc fin_job_[N];
  size_t fin_n_ = 0;
};

// Runs an engine. One larger than a caller's thread stack should carry (Elephant's, about
// 150 KB) lives on the heap, owned by a class of this namespace: std::unique_ptr's members, or
// a local class's (mangled as local names), would be compiled with this backend's instruction
// set outside its namespace, and the backend symbol check refuses them where not inlined.
inline constexpr size_t largest_engine_on_stack = 64 * 1024;
template <class E>
class heap_owner {
 public:
  explicit heap_owner(E* e) : e_(e) {}
  heap_owner(const heap_owner&) = delete;
  heap_owner& operator=(const heap_owner&) = delete;
  ~heap_owner() { delete e_; }
  E* get() const { return e_; }

 private:
  E* const e_;
};
template <class E, class Task>
void run_engine(const Task& t) {
  if constexpr (sizeof(E) <= largest_engine_on_stack) {
    E e(t);
    e.run();
  } else {
    const heap_owner<E> held(new E(t));
    held.get()->run();
  }
}
// An AEAD task on the encrypting or decrypting engine, picked once per task.
template <class Encrypting, class Decrypting>
void run_aead_engine(const aead_task& t) {
  if (t.decrypt) run_engine<Decrypting>(t);
  else run_engine<Encrypting>(t);
}

template <class Encrypting, class Decrypting>
void run_aead_lanes(const aead_task& t) {
  static_assert(!Encrypting::decrypt && Decrypting::decrypt);
  run_aead_engine<group_lane_engine<Encrypting>, group_lane_engine<Decrypting>>(t);
}

template <class F>
void run_sponge_lanes(const sponge_task& t) {
  run_engine<group_lane_engine<F>>(t);
}

}  // namespace lwc::simd::LWC_SIMD_NS::eng
