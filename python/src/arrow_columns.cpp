// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.arrow's AEAD path: Arrow binary columns straight into the batch engine and back.
//
// lwc/arrow.py hands over the column's own buffers (values, 32- or 64-bit offsets as Arrow
// stores them, fixed-size key and nonce rows, or one key or nonce for all rows) and an
// allocator (pa.allocate_buffer). Here, in one pass over the offsets, the rows are checked, the
// result's Arrow offsets are written and its size is found; the result buffers come from the
// Arrow memory pool, and the engine writes ciphertext || tag of each row straight into the
// result's values buffer. Nothing is converted per row in Python, and no job list of the
// whole column is built: each thread builds the jobs of a few thousand rows at a time in a
// buffer of its own (a whole-column job list is 112 bytes per row, several times the
// ciphertext at 64 B rows, and its pages cost more to fault in than the rows cost to encrypt).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "size_math.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace lwc::python {

void register_arrow_columns(nb::module_& m);

namespace {

[[noreturn]] void value_error(const std::string& msg) { throw nb::value_error(msg.c_str()); }
std::string num(std::size_t n) { return std::to_string(n); }

// A C-contiguous buffer held through the buffer protocol for the whole call (the engine reads
// and writes it without the GIL). None gives an empty view when allowed.
class held_buffer {
 public:
  held_buffer(nb::handle obj, const char* what, bool write, bool none_ok = false) {
    if (none_ok && obj.is_none()) return;
    if (PyObject_GetBuffer(obj.ptr(), &view_, write ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      throw nb::type_error((std::string(what) + ": a contiguous " + (write ? "writable " : "") +
                            "buffer is expected, not '" + Py_TYPE(obj.ptr())->tp_name + "'")
                               .c_str());
    }
    held_ = true;
  }
  held_buffer(const held_buffer&) = delete;
  held_buffer& operator=(const held_buffer&) = delete;
  ~held_buffer() {
    if (held_) PyBuffer_Release(&view_);
  }
  bool present() const { return held_; }
  std::uint8_t* data() const { return static_cast<std::uint8_t*>(view_.buf); }
  std::size_t size() const { return held_ ? static_cast<std::size_t>(view_.len) : 0; }

 private:
  Py_buffer view_{};
  bool held_ = false;
};

// Arrow offsets of a binary column (int32 or int64, the array's slice already applied:
// n + 1 entries), read as absolute positions into the values buffer.
struct arrow_offsets {
  const std::uint8_t* raw = nullptr;
  bool large = false;
  std::uint64_t operator[](std::size_t i) const {
    if (large) {
      std::int64_t v;
      std::memcpy(&v, raw + 8 * i, 8);
      return static_cast<std::uint64_t>(v);
    }
    std::int32_t v;
    std::memcpy(&v, raw + 4 * i, 4);
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(v));
  }
};

// Checks that offsets hold n + 1 entries, start at or above 0, do not decrease and stay
// inside the values buffer.
arrow_offsets checked_offsets(const held_buffer& offsets, bool large, std::size_t n,
                              std::size_t values_size, const char* what) {
  const std::size_t width = large ? 8 : 4;
  if (offsets.size() != checked_mul(checked_add(n, 1, what), width, what))
    value_error(std::string(what) + ": " + num(n + 1) + " offsets of " + num(width) +
                " bytes expected, got " + num(offsets.size()) + " bytes");
  const arrow_offsets off{offsets.data(), large};
  if (large) {
    std::int64_t first;
    std::memcpy(&first, offsets.data(), 8);
    if (first < 0) value_error(std::string(what) + ": negative offset");
  } else {
    std::int32_t first;
    std::memcpy(&first, offsets.data(), 4);
    if (first < 0) value_error(std::string(what) + ": negative offset");
  }
  std::uint64_t prev = off[0];
  for (std::size_t i = 1; i <= n; ++i) {
    const std::uint64_t cur = off[i];
    // A negative int64 reads as a huge unsigned value and is caught by the bound below.
    if (cur < prev) value_error(std::string(what) + ": offsets must not decrease");
    prev = cur;
  }
  if (prev > values_size) value_error(std::string(what) + ": offsets run past the values buffer");
  return off;
}

// n rows of `size` bytes each, or one row for all (stride 0).
struct fixed_rows {
  const std::uint8_t* data = nullptr;
  std::size_t stride = 0, size = 0;
  lwc::bytes_view operator[](std::size_t i) const { return {data + i * stride, size}; }
};

fixed_rows checked_fixed(const held_buffer& buf, std::size_t n, std::size_t size, const char* what) {
  if (!buf.present()) return {};
  if (buf.size() == size) return {buf.data(), 0, size};  // one value for every row
  if (buf.size() != checked_mul(n, size, what))
    value_error(std::string(what) + ": " + num(n) + " rows of " + num(size) + " bytes or one value expected, got " +
                num(buf.size()) + " bytes");
  return {buf.data(), size, size};
}

// Rows are processed a chunk at a time: the chunk's job descriptors (112 bytes each) stay in
// the thread's cache, and the engine's lanes are kept full but for the last few rows of a
// chunk.
constexpr std::size_t chunk_rows = 2048;

struct column_job {
  const lwc::algorithm* a;
  bool decrypt;
  std::size_t n, tag_len;
  fixed_rows keys, nonces, second_keys;
  const std::uint8_t* in;
  arrow_offsets in_off;
  const std::uint8_t* ad;
  arrow_offsets ad_off;
  bool has_ad;
  const std::uint8_t* ad_valid;  // or null: every entry valid
  const std::uint8_t* run;       // or null: every row runs
  std::uint8_t* out;
  arrow_offsets out_pos;         // the result's offsets: where each row's result goes
  std::uint8_t* ok;              // decrypt: n flags
  lwc::batch::options opt;
};

// Runs rows [first, last): builds their jobs in `jobs` and hands them to the engine on this
// thread.
void run_rows(const column_job& c, std::size_t first, std::size_t last,
              std::vector<lwc::batch::aead_job>& jobs, std::vector<std::uint8_t>& ok,
              std::vector<std::size_t>& index) {
  jobs.clear();
  index.clear();
  for (std::size_t i = first; i < last; ++i) {
    if (c.run != nullptr && c.run[i] == 0) continue;
    const std::uint64_t start = c.in_off[i], len = c.in_off[i + 1] - start;
    lwc::batch::aead_job j;
    j.key = c.keys[i];
    j.nonce = c.nonces[i];
    if (c.second_keys.data != nullptr) j.second_key = c.second_keys[i];
    if (c.has_ad && (c.ad_valid == nullptr || c.ad_valid[i] != 0)) {
      const std::uint64_t a0 = c.ad_off[i];
      j.ad = {c.ad + a0, static_cast<std::size_t>(c.ad_off[i + 1] - a0)};
    }
    std::uint8_t* o = c.out + c.out_pos[i];
    const std::uint8_t* in = c.in + start;
    if (c.decrypt) {
      const std::size_t body = static_cast<std::size_t>(len) - c.tag_len;
      j.in = {in, body};
      j.tag = {const_cast<std::uint8_t*>(in) + body, c.tag_len};  // read only when decrypting
      j.out = {o, body};
      index.push_back(i);
    } else {
      j.in = {in, static_cast<std::size_t>(len)};
      j.out = {o, static_cast<std::size_t>(len)};
      j.tag = {o + len, c.tag_len};
    }
    jobs.push_back(j);
  }
  if (jobs.empty()) return;
  if (c.decrypt) {
    ok.resize(jobs.size());
    (void)lwc::batch::decrypt(*c.a, jobs, ok, c.tag_len, c.opt);
    for (std::size_t k = 0; k < index.size(); ++k) c.ok[index[k]] = ok[k];
  } else {
    lwc::batch::encrypt(*c.a, jobs, c.tag_len, c.opt);
  }
}

// The threads of one call take chunks of rows from a shared counter. As the engine does, a
// thread is started only for every 16 KiB of work: starting one costs tens of microseconds.
void run_column(const column_job& c, std::uint64_t bytes, unsigned threads) {
  constexpr std::uint64_t min_work = 16384;
  const std::size_t chunks = (c.n + chunk_rows - 1) / chunk_rows;
  std::size_t t = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  t = std::min<std::size_t>(t, chunks);
  t = static_cast<std::size_t>(std::min<std::uint64_t>(t, std::max<std::uint64_t>(1, bytes / min_work)));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  std::mutex failure_lock;
  const auto work = [&] {
    std::vector<lwc::batch::aead_job> jobs;
    std::vector<std::uint8_t> ok;
    std::vector<std::size_t> index;
    jobs.reserve(chunk_rows);
    if (c.decrypt) index.reserve(chunk_rows);
    try {
      for (;;) {
        if (failed.load(std::memory_order_relaxed)) return;
        const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
        if (k >= chunks) return;
        run_rows(c, k * chunk_rows, std::min(c.n, (k + 1) * chunk_rows), jobs, ok, index);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> hold(failure_lock);
      if (!failure) failure = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t r = 1; r < t; ++r) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running take the remaining chunks
    }
  }
  work();
  for (std::thread& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
}

nb::object allocate(nb::handle alloc, std::size_t size) { return alloc(size); }

// Encrypt: returns (values, offsets, None): ciphertext || tag of every row that runs, the
// other rows empty. Decrypt: (values, offsets, ok): the plaintexts of the rows that verified,
// every other row empty and its bytes absent from values; ok holds one flag byte per row (0
// for rows that did not run, and for ciphertexts shorter than the tag). offsets are Arrow
// offsets of 64 bits when out_large or the result needs them, else 32, starting at 0. Also
// returned: how many bytes of values the rows use (values may be longer; the rest is zeros),
// and whether the offsets are 64-bit.
nb::tuple arrow_aead(bool decrypt, const std::string& name, nb::handle keys_obj,
                     nb::handle nonces_obj, nb::handle second_obj, nb::handle values_obj,
                     nb::handle offsets_obj, bool large, nb::handle run_obj, nb::handle ad_obj,
                     nb::handle ad_offsets_obj, bool ad_large, nb::handle ad_valid_obj,
                     std::size_t tag_len, bool out_large, nb::handle alloc, nb::handle threads,
                     nb::handle backend) {
  const lwc::algorithm* a = lwc::find_algorithm(name);
  if (a == nullptr || !a->is_aead()) value_error("unknown AEAD algorithm '" + name + "'");
  const held_buffer values(values_obj, "values", false, true), offsets(offsets_obj, "offsets", false),
      keys(keys_obj, "keys", false), nonces(nonces_obj, "nonces", false),
      second(second_obj, "second_keys", false, true), run(run_obj, "rows", false, true),
      ad(ad_obj, "associated_data", false, true),
      ad_offsets(ad_offsets_obj, "associated_data offsets", false, true),
      ad_valid(ad_valid_obj, "associated_data validity", false, true);
  // lwc/arrow.py passes a checked tag length; the first pass below sizes the result with it
  // before the engine sees it.
  if (tag_len < a->min_tag_size || tag_len > a->tag_size)
    value_error(name + ": tag length " + num(tag_len) + " outside " + num(a->min_tag_size) + ".." +
                num(a->tag_size));
  const std::size_t width = large ? 8 : 4;
  if (offsets.size() < width || offsets.size() % width != 0)
    value_error("offsets: an array of " + num(width) + "-byte offsets is expected");
  const std::size_t n = offsets.size() / width - 1;
  const arrow_offsets in_off = checked_offsets(offsets, large, n, values.size(), "messages");
  column_job c{};
  c.a = a;
  c.decrypt = decrypt;
  c.n = n;
  c.tag_len = tag_len;
  c.keys = checked_fixed(keys, n, a->key_size, "keys");
  c.nonces = checked_fixed(nonces, n, a->nonce_size, "nonces");
  if (second.present()) c.second_keys = checked_fixed(second, n, a->second_key_size, "second_keys");
  c.in = values.data();
  c.in_off = in_off;
  if (ad_offsets.present()) {
    c.ad_off = checked_offsets(ad_offsets, ad_large, n, ad.size(), "associated_data");
    c.ad = ad.data();
    c.has_ad = true;
    if (ad_valid.present()) {
      if (ad_valid.size() != n) value_error("associated_data validity: one byte per row expected");
      c.ad_valid = ad_valid.data();
    }
  }
  if (run.present()) {
    if (run.size() != n) value_error("rows: one byte per row expected");
    c.run = run.data();
  }
  std::string backend_name;
  if (!threads.is_none()) c.opt.threads = nb::cast<unsigned>(threads);
  if (!backend.is_none()) {
    backend_name = nb::cast<std::string>(backend);
    c.opt.backend = backend_name;
  }
  const unsigned thread_count = c.opt.threads;
  c.opt.threads = 1;  // the threads are this file's; the engine runs each chunk on its caller

  // A first pass finds the result's size (and so the width of its offsets); a ciphertext
  // shorter than the tag does not run.
  std::vector<std::uint8_t> run_here;  // decrypt with short ciphertexts: the rows that run
  std::uint64_t total = 0, work = 0;
  {
    nb::gil_scoped_release unlocked;
    for (std::size_t i = 0; i < n; ++i) {
      if (c.run != nullptr && c.run[i] == 0) continue;
      const std::uint64_t len = in_off[i + 1] - in_off[i];
      if (decrypt && len < tag_len) {
        if (run_here.empty()) {
          if (c.run != nullptr) run_here.assign(c.run, c.run + n);
          else run_here.assign(n, 1);
        }
        run_here[i] = 0;
        continue;
      }
      total += decrypt ? len - tag_len : len + tag_len;
      work += len + a->setup_cost;
      if (c.has_ad) work += c.ad_off[i + 1] - c.ad_off[i];
    }
  }
  if (!run_here.empty()) c.run = run_here.data();
  if (!out_large && total > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
    out_large = true;
  nb::object out_obj = allocate(alloc, static_cast<std::size_t>(total));
  const std::size_t out_offsets_size = checked_mul(n + 1, out_large ? 8 : 4, "result offsets");
  nb::object off_obj = allocate(alloc, out_offsets_size);
  nb::object ok_obj = nb::none();
  std::uint8_t* ok = nullptr;
  if (decrypt) {
    PyObject* b = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
    if (b == nullptr) throw nb::python_error();
    ok_obj = nb::steal(b);
    ok = reinterpret_cast<std::uint8_t*>(PyBytes_AS_STRING(b));
    std::memset(ok, 0, n);
  }
  const held_buffer out(out_obj, "result values", true), out_off(off_obj, "result offsets", true);
  if (out.size() < total || out_off.size() < out_offsets_size)
    value_error("alloc returned a buffer too small");
  std::uint8_t* const off = out_off.data();
  const auto set_off = [off, out_large](std::size_t i, std::uint64_t v) {
    if (out_large) {
      const auto w = static_cast<std::int64_t>(v);
      std::memcpy(off + 8 * i, &w, 8);
    } else {
      const auto w = static_cast<std::int32_t>(v);
      std::memcpy(off + 4 * i, &w, 4);
    }
  };
  c.out = out.data();
  c.out_pos = {off, out_large};
  c.ok = ok;
  std::size_t used = static_cast<std::size_t>(total);
  try {
    nb::gil_scoped_release unlocked;
    // The result's offsets, written in place; the threads read where each row goes from them.
    std::uint64_t p = 0;
    for (std::size_t i = 0; i < n; ++i) {
      set_off(i, p);
      if (c.run != nullptr && c.run[i] == 0) continue;
      const std::uint64_t len = in_off[i + 1] - in_off[i];
      p += decrypt ? len - tag_len : len + tag_len;
    }
    set_off(n, p);
    run_column(c, work, thread_count);
    if (decrypt) {
      // Rows that did not verify (zeroed by the engine) leave the values buffer: the verified
      // plaintexts move down over them, and the tail they leave is zeroed.
      std::uint64_t w = 0, from = c.out_pos[0];
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t to = c.out_pos[i + 1], len = to - from;
        set_off(i, w);
        if (ok[i] != 0) {
          if (w != from) std::memmove(c.out + w, c.out + from, static_cast<std::size_t>(len));
          w += len;
        }
        from = to;
      }
      set_off(n, w);
      if (w != total) std::memset(c.out + w, 0, static_cast<std::size_t>(total - w));
      used = static_cast<std::size_t>(w);
    }
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
  return nb::make_tuple(out_obj, off_obj, ok_obj, used, out_large);
}

}  // namespace

void register_arrow_columns(nb::module_& m) {
  m.def("_arrow_aead", &arrow_aead, "decrypt"_a, "name"_a, "keys"_a, "nonces"_a,
        "second_keys"_a.none(), "values"_a.none(), "offsets"_a, "large"_a, "rows"_a.none(),
        "ad"_a.none(), "ad_offsets"_a.none(), "ad_large"_a, "ad_valid"_a.none(), "tag_len"_a,
        "out_large"_a, "alloc"_a, "threads"_a.none(), "backend"_a.none());
}

}  // namespace lwc::python
