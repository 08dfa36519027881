// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.batch on lists of bytes-like objects: the jobs point straight into the Python objects
// (bytes read in place, other buffers through the buffer protocol), every result is one bytes
// object allocated before its chunk runs and written by the engine with the GIL released, so a
// list batch costs no joining, no slicing and no Python code per job. The jobs run a chunk at a
// time (a few thousand jobs): a chunk of small messages, its descriptors and its results are
// still in the caches when the engine reads them and when their references are dropped, and
// the descriptors take one small reused buffer (two when pipelined, below) instead of one per
// job of the whole batch.
// With more than one thread the chunks are pipelined: while the engine runs chunk k on the
// library's pool (without the GIL), this thread converts chunk k + 1 (with it), so the one core
// that reads the Python objects is no longer the one the engine waits for.
// lwc/batch.py checks the algorithm, tag length and array shapes; the per-item checks are here.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "../../src/threads/pool.hpp"
#include "columns.hpp"
#include "common.hpp"

namespace lwc::python {

void register_batch_lists(nb::module_& m);

namespace {

using namespace nb::literals;

// Jobs per chunk: for small messages few enough for the caches, and enough for the lanes and
// the engine's threads to share (larger messages are more than enough work on their own).
constexpr std::size_t chunk_jobs = 4096;
// Reading a list item and making its result costs about as much as encrypting 100-200 bytes:
// below this many input bytes per job a chunk is less work for the engine than reading the next
// one is for this thread, so such chunks are pipelined (run on the pool while this thread reads
// the next one); larger messages run on every thread, one chunk after another.
constexpr std::size_t small_job_bytes = 512;

constexpr std::size_t prefetch_ahead = 8;

inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

std::string item_name(const char* what, std::size_t i) {
  return std::string(what) + "[" + num(i) + "]";
}

// The items of a list or tuple (lwc/batch.py turns other iterables into lists), held while the
// engine reads them without the GIL, when another thread could remove an item from a list (and
// free it). A tuple keeps its items alive; a list's items are taken one reference each as they
// are read (one pass over them, not a copy of the list first). Bytes are read in place; other
// buffers are exported (a bytearray then cannot be resized). What a chunk read is held until
// its engine run is over: release_read() lets go of everything read so far; when the chunks are
// pipelined, next_chunk() starts the next chunk's holdings and release_previous_chunk() lets go
// of the chunk before the current one only (two at most are held, the running and the read).
class sequence_items {
 public:
  sequence_items(nb::handle seq, const char* what)
      : what_(what), seq_(nb::borrow(seq)), is_list_(PyList_Check(seq.ptr())) {
    if (!is_list_ && !PyTuple_Check(seq.ptr()))
      type_error(std::string(what) + " must be a list or tuple, not '" + cpy::type_name(seq.ptr()) + "'");
    size_ = is_list_ ? cpy::list_size(seq.ptr()) : cpy::tuple_size(seq.ptr());
    if (is_list_) held_[0].reserve(std::min(size_, chunk_jobs));
  }
  sequence_items(const sequence_items&) = delete;
  sequence_items& operator=(const sequence_items&) = delete;
  ~sequence_items() { release_read(); }

  void release_read() {
    release(current_ ^ 1);
    release(current_);
  }

  // The items read from now on belong to the next chunk; the previous one must be released.
  void next_chunk() {
    current_ ^= 1;
    if (is_list_) held_[current_].reserve(std::min(size_, chunk_jobs));
  }

  void release_previous_chunk() { release(current_ ^ 1); }

  std::size_t size() const { return size_; }

  // Item i (read once, in order) as bytes; TypeError naming the item when it is not a
  // contiguous bytes-like object.
  lwc::bytes_view operator[](std::size_t i) {
    PyObject* o;
    PyObject* ahead = nullptr;
    if (is_list_) {
      // Other threads run while a chunk runs without the GIL, and a buffer export can run
      // Python code: the list may have changed. Its first size_ items are the jobs; items
      // added after them are not read, and a list grown since holds them elsewhere.
      if (recheck_size_) {
        if (cpy::list_size(seq_.ptr()) < size_) {
          PyErr_SetString(PyExc_RuntimeError, (std::string(what_) + ": the list changed size during the call (" +
                                               "fewer than its " + num(size_) + " items left)").c_str());
          throw nb::python_error();
        }
        recheck_size_ = false;
      }
      o = cpy::list_item(seq_.ptr(), i);
      Py_INCREF(o);
      held_[current_].push_back(o);
      if (i + prefetch_ahead < size_) ahead = cpy::list_item(seq_.ptr(), i + prefetch_ahead);
    } else {
      o = cpy::tuple_item(seq_.ptr(), i);
      if (i + prefetch_ahead < size_) ahead = cpy::tuple_item(seq_.ptr(), i + prefetch_ahead);
    }
    // The items are separate objects wherever the allocator put them, each a cache miss when
    // first read: the one a few places ahead is asked for now.
    if (ahead != nullptr) prefetch(ahead);
    if (cpy::is_bytes(o)) {
      std::size_t n = 0;
      const std::uint8_t* data = cpy::bytes_data_and_size(o, n);
      return {data, n};
    }
    recheck_size_ = true;  // an export can run Python code, which can change the list
    return exports_[current_].emplace_back(o, item_name(what_, i).c_str()).view();
  }

 private:
  void release(unsigned slot) {
    exports_[slot].clear();  // before the items they were exported from
    for (PyObject* o : held_[slot]) Py_DECREF(o);
    held_[slot].clear();
    recheck_size_ = true;
  }

  const char* what_;
  nb::object seq_;
  bool is_list_;
  std::size_t size_ = 0;
  // Per chunk (current_ is the one being read): the list items read, one reference each, and
  // the buffers exported, with stable addresses (a buffer is released where it was filled).
  unsigned current_ = 0;
  std::vector<PyObject*> held_[2];
  std::deque<held_buffer> exports_[2];
  // Python code runs only in a buffer export and in the destructors release() can call (no
  // other thread runs while the items are read, under the GIL; the GIL is given up only between
  // chunks, and a chunk's first read follows a release): the list's size is checked again
  // after those, not before every item.
  bool recheck_size_ = true;
};

// n entries of `size` bytes each (keys, nonces, tags): a list or tuple of bytes-like objects,
// or one contiguous buffer of n * size bytes (an n x size array, shape checked by
// lwc/batch.py).
class fixed_items {
 public:
  fixed_items(nb::handle obj, std::size_t n, std::size_t size, const char* what)
      : what_(what), size_(size) {
    if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
      items_.emplace(obj, what);
      if (items_->size() != n)
        value_error(std::string(what) + ": expected " + num(n) + " entries (one per message), got " +
                    num(items_->size()));
      return;
    }
    if (!PyObject_CheckBuffer(obj.ptr()))
      type_error(std::string(what) + " must be a list of bytes-like objects or an N x " +
                 num(size) + " uint8 array, not '" + cpy::type_name(obj.ptr()) + "'");
    table_.emplace(obj, what);
    if (table_->size() != checked_mul(n, size, what))
      value_error(std::string(what) + ": expected " + num(n) + " x " + num(size) + " bytes, got " +
                  num(table_->size()));
  }

  void release_read() {
    if (items_) items_->release_read();
  }
  void next_chunk() {
    if (items_) items_->next_chunk();
  }
  void release_previous_chunk() {
    if (items_) items_->release_previous_chunk();
  }

  lwc::bytes_view operator[](std::size_t i) {
    if (!items_) return {table_->data() + i * size_, size_};
    const lwc::bytes_view v = (*items_)[i];
    if (v.size() != size_)
      value_error(item_name(what_, i) + " must be " + num(size_) + " bytes, got " + num(v.size()));
    return v;
  }

 private:
  const char* what_;
  std::size_t size_;
  std::optional<sequence_items> items_;
  std::optional<held_buffer> table_;
};

// A list of n fresh bytes objects, filled in by the engine. Empty results share Python's
// empty bytes object, to which nothing is written.
class result_list {
 public:
  explicit result_list(std::size_t n) {
    PyObject* l = PyList_New(static_cast<Py_ssize_t>(n));
    if (l == nullptr) throw nb::python_error();
    list_ = nb::steal(l);
  }
  lwc::bytes_span add(std::size_t i, std::size_t len) {
    checked_py_size(len, "output");
    PyObject* b = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(len));
    if (b == nullptr) throw nb::python_error();
    cpy::list_set_item(list_.ptr(), i, b);  // the list owns it now
    return {cpy::bytes_data(b), len};
  }
  // Drops result i (already wiped by the engine) for None.
  void set_none(std::size_t i) {
    Py_INCREF(Py_None);
    cpy::list_set_item(list_.ptr(), i, Py_None);
  }
  nb::object take() { return std::move(list_); }

 private:
  nb::object list_;
};

// Runs the engine on one chunk after another. With one thread each chunk runs on this thread
// once it is read. With more, the pool is offered chunk k while this thread reads chunk k + 1
// (holding the GIL); finish_running() then joins chunk k without the GIL. Help is optional in
// the pool: when no worker took the chunk by then, the joining thread runs it itself, and a
// flag makes sure it runs once. That also says that no core was free (a busy machine): the
// rest of the call then runs its chunks here, with nothing to gain from handing them over.
// The last chunk has nothing to overlap and runs here.
class chunk_pipeline {
 public:
  explicit chunk_pipeline(const lwc::batch::options& opt) {
    threads_ = opt.threads != 0 ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
    pipelined_ = threads_ > 1;
    // For the tests: keep the chunks pipelined on a machine too busy to take them. Read under
    // the GIL, which os.environ's writes also hold.
    const char* keep = std::getenv("LWC_PYTHON_LISTS_ALWAYS_PIPELINED");
    always_ = keep != nullptr && keep[0] == '1';
  }
  chunk_pipeline(const chunk_pipeline&) = delete;
  chunk_pipeline& operator=(const chunk_pipeline&) = delete;
  // When an error leaves a chunk started: waits for it if a worker is running it, so that
  // nothing reads the caller's objects once the call is over, and otherwise drops it.
  ~chunk_pipeline() {
    if (running_) {
      nb::gil_scoped_release unlocked;
      running_.reset();
    }
  }

  bool pipelined() const { return pipelined_; }

  // Waits for the chunk started before, if any (true: its items may be released now). An
  // engine error (std::invalid_argument) becomes ValueError, as for a chunk run here.
  bool finish_running() {
    if (!running_) return false;
    running_->joining.store(true, std::memory_order_release);
    try {
      nb::gil_scoped_release unlocked;
      running_->group.join();
    } catch (const std::invalid_argument& e) {
      running_.reset();
      value_error(e.what());
    }
    if (running_->started_late.load(std::memory_order_relaxed) && !always_) pipelined_ = false;
    running_.reset();
    return true;
  }

  // Runs engine(threads) on a chunk of `jobs` jobs and `bytes` input bytes. A chunk of small
  // messages is started on the pool, on one thread fewer, when pipelined and more chunks
  // follow: the caller then reads the next one and calls finish_running(); returns true. Any
  // other chunk runs here without the GIL, on every thread: reading larger messages is little
  // next to encrypting them, and a chunk run by a worker could not use this thread's core while
  // it waits in finish_running(). Returns false then.
  template <class Engine>
  bool run(Engine engine, std::size_t jobs, std::size_t bytes, bool last) {
    const bool small = bytes / std::max<std::size_t>(jobs, 1) < small_job_bytes;
    if (pipelined_ && !last && small) {
      running_.emplace(std::move(engine), threads_ - 1, threads_);
      running_->group.offer(1);
      return true;
    }
    try {
      nb::gil_scoped_release unlocked;
      engine(threads_);
    } catch (const std::invalid_argument& e) {
      value_error(e.what());
    }
    return false;
  }

 private:
  struct running_chunk {
    running_chunk(std::function<void(unsigned)> engine, unsigned while_reading, unsigned all)
        : engine(std::move(engine)), threads_while_reading(while_reading), threads_all(all),
          group([this] {
            if (taken.exchange(true, std::memory_order_acq_rel)) return;
            // A worker that starts while this thread still reads leaves it its core (for a
            // chunk of small messages); one that starts after it joined, or the joining thread
            // itself, gives the chunk every thread.
            const bool late = joining.load(std::memory_order_acquire);
            started_late.store(late, std::memory_order_relaxed);
            this->engine(late ? threads_all : threads_while_reading);
          }) {}
    std::function<void(unsigned)> engine;
    unsigned threads_while_reading, threads_all;
    std::atomic<bool> taken{false}, joining{false}, started_late{false};
    lwc::threads::task_group group;  // last: destroyed (waited for) first
  };

  unsigned threads_ = 1;
  bool pipelined_ = false, always_ = false;
  std::optional<running_chunk> running_;
};

// Reads the n jobs a chunk at a time, read(i, job) filling job i with the GIL held and returning
// its input bytes, and runs engine(chunk's jobs, index of its first job, threads) on each chunk,
// pipelined when chunk_pipeline says so. each_column(f) calls f on every column of items, whose
// holdings follow the chunks: released once their chunk ran.
template <class Job, class Columns, class Read, class Engine>
void run_in_chunks(std::size_t n, const lwc::batch::options& opt, Columns each_column, Read read,
                   Engine engine) {
  std::vector<Job> job_buffers[2];  // the chunk running and the chunk read
  chunk_pipeline pipeline(opt);     // after everything its chunks use: destroyed first
  for (std::size_t first = 0, chunk = 0; first < n; ++chunk) {
    std::vector<Job>& jobs = job_buffers[pipeline.pipelined() ? chunk % 2 : 0];
    jobs.clear();
    jobs.reserve(std::min(n - first, chunk_jobs));
    const std::size_t end = std::min(n, first + chunk_jobs);
    std::size_t chunk_bytes = 0;
    for (std::size_t i = first; i < end; ++i)
      chunk_bytes = checked_add(chunk_bytes, read(i, jobs.emplace_back()), "chunk");
    if (pipeline.finish_running()) each_column([](auto& c) { c.release_previous_chunk(); });
    const bool last = first + jobs.size() == n;
    const bool started = pipeline.run(
        [&engine, chunk_view = std::span<const Job>(jobs), first](unsigned threads) {
          engine(chunk_view, first, threads);
        },
        jobs.size(), chunk_bytes, last);
    if (started) each_column([](auto& c) { c.next_chunk(); });
    else each_column([](auto& c) { c.release_read(); });
    first += jobs.size();
  }
}

// Encrypt: a list of ciphertext || tag, or with `detached` a tuple (ciphertexts, tags).
// Decrypt: (plaintexts, ok): a plaintext is None where its tag did not verify; its bytes
// object, zeroed by the engine, is released before the call returns. `tags` (decrypt only):
// the tags apart, the ciphertexts then hold none.
nb::object batch_aead_lists(bool decrypt, std::size_t index, nb::handle keys_obj,
                            nb::handle nonces_obj, nb::handle data_obj, nb::handle ad_obj,
                            nb::handle second_obj, nb::handle tags_obj, std::size_t tag_len,
                            bool detached, nb::handle threads, nb::handle backend) {
  const lwc::algorithm& a = entry_at(index, true);
  sequence_items data(data_obj, decrypt ? "ciphertexts" : "messages");
  const std::size_t n = data.size();
  fixed_items keys(keys_obj, n, a.key_size, "keys");
  fixed_items nonces(nonces_obj, n, a.nonce_size, "nonces");
  std::optional<sequence_items> ad;
  if (!ad_obj.is_none()) {
    ad.emplace(ad_obj, "associated_data");
    if (ad->size() != n)
      value_error("associated_data: expected " + num(n) + " entries (one per message), got " +
                  num(ad->size()));
  }
  std::optional<fixed_items> second;
  if (!second_obj.is_none()) second.emplace(second_obj, n, a.second_key_size, "second_keys");
  const bool separate_tags = decrypt && !tags_obj.is_none();
  std::optional<fixed_items> tags;
  if (separate_tags) tags.emplace(tags_obj, n, tag_len, "tags");

  result_list out(n);
  std::optional<result_list> tag_out;
  if (!decrypt && detached) tag_out.emplace(n);
  std::string backend_name;
  const lwc::batch::options opt = engine_options(threads, backend, backend_name);
  std::vector<std::uint8_t> ok(decrypt ? n : 0);
  const auto each_column = [&](auto&& f) {
    f(data);
    f(keys);
    f(nonces);
    if (ad) f(*ad);
    if (second) f(*second);
    if (tags) f(*tags);
  };
  run_in_chunks<lwc::batch::aead_job>(n, opt, each_column, [&](std::size_t i, lwc::batch::aead_job& j) {
    const lwc::bytes_view in = data[i];
    j.key = keys[i];
    j.nonce = nonces[i];
    if (ad) j.ad = (*ad)[i];
    if (second) j.second_key = (*second)[i];
    if (!decrypt) {
      j.in = in;
      if (tag_out) {
        j.out = out.add(i, in.size());
        j.tag = tag_out->add(i, tag_len);
      } else {
        const lwc::bytes_span sealed = out.add(i, checked_add(in.size(), tag_len, "ciphertext"));
        j.out = sealed.first(in.size());
        j.tag = sealed.subspan(in.size());
      }
    } else if (separate_tags) {
      j.in = in;
      const lwc::bytes_view t = (*tags)[i];
      j.tag = {const_cast<std::uint8_t*>(t.data()), t.size()};  // read only when decrypting
      j.out = out.add(i, in.size());
    } else {
      if (in.size() < tag_len)
        value_error("ciphertext " + num(i) + " is shorter than the " + num(tag_len) + "-byte tag");
      const std::size_t len = in.size() - tag_len;
      j.in = in.first(len);
      j.tag = {const_cast<std::uint8_t*>(in.data()) + len, tag_len};  // read only when decrypting
      j.out = out.add(i, len);
    }
    return in.size();
  }, [&](std::span<const lwc::batch::aead_job> chunk, std::size_t first, unsigned threads) {
    lwc::batch::options chunk_opt = opt;
    chunk_opt.threads = threads;
    if (decrypt)
      (void)lwc::batch::decrypt(a, chunk, std::span(ok).subspan(first, chunk.size()), tag_len,
                                chunk_opt);
    else
      lwc::batch::encrypt(a, chunk, tag_len, chunk_opt);
  });
  if (!decrypt) {
    if (tag_out) return nb::make_tuple(out.take(), tag_out->take());
    return out.take();
  }
  PyObject* flags = PyList_New(static_cast<Py_ssize_t>(n));
  if (flags == nullptr) throw nb::python_error();
  nb::object flags_obj = nb::steal(flags);
  for (std::size_t i = 0; i < n; ++i) {
    PyObject* flag = ok[i] ? Py_True : Py_False;
    Py_INCREF(flag);
    cpy::list_set_item(flags, i, flag);
    if (!ok[i]) out.set_none(i);
  }
  return nb::make_tuple(out.take(), flags_obj);
}

// A list of n outputs of out_len bytes. keys: MACs and PRFs (fixed size); customization: CXOFs
// (a list of strings, one per message).
nb::object batch_hash_lists(std::size_t index, nb::handle data_obj, std::size_t out_len,
                            nb::handle keys_obj, nb::handle custom_obj, nb::handle threads,
                            nb::handle backend) {
  const lwc::algorithm& a = entry_at(index, false);
  sequence_items data(data_obj, "messages");
  const std::size_t n = data.size();
  std::optional<fixed_items> keys;
  if (!keys_obj.is_none()) keys.emplace(keys_obj, n, a.key_size, "keys");
  std::optional<sequence_items> custom;
  if (!custom_obj.is_none()) {
    custom.emplace(custom_obj, "customization");
    if (custom->size() != n)
      value_error("customization: expected " + num(n) + " entries (one per message), got " +
                  num(custom->size()));
  }
  result_list out(n);
  std::string backend_name;
  const lwc::batch::options opt = engine_options(threads, backend, backend_name);
  const auto each_column = [&](auto&& f) {
    f(data);
    if (keys) f(*keys);
    if (custom) f(*custom);
  };
  run_in_chunks<lwc::batch::hash_job>(n, opt, each_column, [&](std::size_t i, lwc::batch::hash_job& j) {
    j.in = data[i];
    if (keys) j.key = (*keys)[i];
    if (custom) j.customization = (*custom)[i];
    j.out = out.add(i, out_len);
    return j.in.size();
  }, [&](std::span<const lwc::batch::hash_job> chunk, std::size_t, unsigned threads) {
    lwc::batch::options chunk_opt = opt;
    chunk_opt.threads = threads;
    lwc::batch::hash(a, chunk, chunk_opt);
  });
  return out.take();
}

}  // namespace

void register_batch_lists(nb::module_& m) {
  m.def("_batch_aead_lists", &batch_aead_lists, "decrypt"_a, "index"_a, "keys"_a.none(),
        "nonces"_a.none(), "data"_a.none(), "ad"_a.none(), "second_keys"_a.none(),
        "tags"_a.none(), "tag_len"_a, "detached"_a, "threads"_a.none(), "backend"_a.none());
  m.def("_batch_hash_lists", &batch_hash_lists, "index"_a, "data"_a.none(), "out_len"_a,
        "keys"_a.none(), "customization"_a.none(), "threads"_a.none(), "backend"_a.none());
}

}  // namespace lwc::python
