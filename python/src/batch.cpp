// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.batch on arrays (and, for device="cuda", on lists joined by lwc/batch.py): one call of
// the engine on the packed job form (<lwc/packed_jobs.hpp>), every column read in place from
// the caller's buffers (columns.hpp) and every result written in place by the engine with the
// GIL released: tags appended to or detached from the ciphertexts as the caller asked, no job
// list, no offsets built for rows of one length, no copy afterwards. The algorithm comes as its
// registry index (lwc/batch.py looked the name up once) and reaches the engine as its entry.
// List input on the CPU: batch_lists.cpp; Arrow columns (lwc.arrow): arrow_columns.cpp.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

#include "columns.hpp"
#include "common.hpp"
#include "cuda_engine.hpp"

namespace lwc::python {

void register_batch_lists(nb::module_& m);
void register_arrow_columns(nb::module_& m);

namespace {

using namespace nb::literals;

struct cuda_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs f (an engine call) without the GIL; the engines' std::invalid_argument becomes
// ValueError, the CUDA engine's failures RuntimeError.
template <class F>
void run_engine(F&& f) {
  try {
    nb::gil_scoped_release unlocked;
    f();
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  } catch (const cuda_failure& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    throw nb::python_error();
  }
}

// The CUDA engine of lwc._lwc_cuda, imported on first use (ImportError where it is not
// installed; lwc/batch.py says how to get it before calling here). Called with the GIL held.
// No function-local static: the import may release the GIL, and another thread waiting on a
// static's guard while holding the GIL would deadlock.
constinit std::atomic<const cuda_engine*> loaded_cuda_engine{nullptr};

const cuda_engine& cuda_engine_table() {
  if (const cuda_engine* t = loaded_cuda_engine.load(std::memory_order_acquire)) return *t;
  const nb::object capsule = nb::module_::import_("lwc._lwc_cuda").attr("_engine");
  const auto* t = static_cast<const cuda_engine*>(PyCapsule_GetPointer(capsule.ptr(), cuda_engine_capsule));
  if (t == nullptr) throw nb::python_error();
  if (t->table_size != sizeof(cuda_engine) || std::string_view(t->version) != LWC_VERSION) {
    PyErr_Format(PyExc_ImportError,
                 "lwc._lwc_cuda (version %s) comes from another build than lwc._lwc (version %s): "
                 "reinstall lwc with its CUDA module (see docs/start/python.md)",
                 t->version, LWC_VERSION);
    throw nb::python_error();
  }
  loaded_cuda_engine.store(t, std::memory_order_release);
  return *t;
}

// A status of the CUDA engine's table as the exception run_engine turns into Python's.
void check_cuda(cuda_status status, const std::string& error) {
  if (status == cuda_status::invalid_argument) throw std::invalid_argument(error);
  if (status != cuda_status::ok) throw cuda_failure(error);
}

// An uninitialised numpy array of n x len bytes (uint8), or of n bools.
nb::object numpy_empty(std::size_t n, std::size_t len, bool flags = false) {
  static nb::object empty = nb::module_::import_("numpy").attr("empty");
  static nb::object uint8 = nb::module_::import_("numpy").attr("uint8");
  static nb::object bool_ = nb::module_::import_("numpy").attr("bool_");
  checked_py_size(checked_mul(n, len, "output"), "output");
  if (flags) return empty(n, "dtype"_a = bool_);
  return empty(nb::make_tuple(n, len), "dtype"_a = uint8);
}

// The results of a batch whose messages came with offsets (lists joined by lwc/batch.py):
// one bytes object per job, element i of `out`.
struct offset_results {
  std::vector<std::int64_t> offsets;  // n + 1
  nb::object buffer;                  // bytes
  std::uint8_t* data = nullptr;

  // Element sizes of `in` (n + 1 int64 offsets, as lwc/batch.py builds them, so never
  // decreasing), each plus `grow` bytes (negative: minus the tag).
  offset_results(const std::int64_t* in, std::size_t n, std::int64_t grow) : offsets(n + 1) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t len = in[i + 1] - in[i] + grow;
      if (len < 0)
        value_error("ciphertext " + num(i) + " is shorter than the " +
                    num(static_cast<std::size_t>(-grow)) + "-byte tag");
      offsets[i] = static_cast<std::int64_t>(total);
      total = checked_add(total, static_cast<std::size_t>(len), "results");
    }
    offsets[n] = static_cast<std::int64_t>(total);
    buffer = new_bytes(static_cast<std::size_t>(total), data);
  }
  lwc::jobs::out_column column() {
    return lwc::jobs::out_column::with_offsets<std::int64_t>(
        {data, static_cast<std::size_t>(offsets.back())}, offsets);
  }
  nb::object item(std::size_t i) const {
    return nb::steal(PyBytes_FromStringAndSize(
        reinterpret_cast<const char*>(data) + offsets[i], static_cast<Py_ssize_t>(offsets[i + 1] - offsets[i])));
  }
  nb::list list(const std::uint8_t* ok = nullptr) const {
    nb::list l;
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
      if (ok != nullptr && ok[i] == 0) l.append(nb::none());
      else l.append(item(i));
    }
    return l;
  }
};

// The tag length from configuration: the full tag unless the caller named a shorter one.
std::size_t configured_tag(const lwc::algorithm& a, nb::handle tag_length) {
  if (tag_length.is_none()) return a.tag_size;
  const std::size_t t = nb::cast<std::size_t>(tag_length);
  if (t < a.min_tag_size || t > a.tag_size)
    value_error(str(a.name) + ": tag_length must be " +
                (a.min_tag_size == a.tag_size ? num(a.tag_size)
                                              : num(a.min_tag_size) + " to " + num(a.tag_size)) +
                " bytes, got " + num(t));
  return t;
}

// Encrypt: N x L messages give N x (L + tag) sealed rows, or with `detached` (N x L, N x tag);
// messages with offsets give lists of bytes. Decrypt: (plaintexts, ok); `tags` holds the tags
// apart (the ciphertexts then hold none). A plaintext that did not verify is zeros (arrays) or
// None (lists).
nb::object batch_aead(bool decrypt, std::size_t index, nb::handle keys, nb::handle nonces,
                      nb::handle data, nb::handle ad, nb::handle second_keys, nb::handle tags,
                      nb::handle tag_length, bool detached, nb::handle threads,
                      nb::handle backend, bool cuda) {
  const lwc::algorithm& a = entry_at(index, true);
  const std::size_t tag = configured_tag(a, tag_length);
  column_buffers cols;
  lwc::batch::packed_aead_jobs jobs;
  std::size_t n = 0, n_ad = 0;
  const char* in_name = decrypt ? "ciphertexts" : "messages";
  const bool from_list = PyTuple_Check(data.ptr());  // (values, offsets): results are lists
  jobs.in = cols.rows(data, in_name, n);
  jobs.count = n;
  jobs.keys = cols.fixed(keys, "keys", a.key_size, n);
  jobs.nonces = cols.fixed(nonces, "nonces", a.nonce_size, n);
  jobs.second_keys = cols.fixed(second_keys, "second_keys", a.second_key_size, n);
  jobs.ad = cols.rows(ad, "associated_data", n_ad);
  if (!ad.is_none() && n_ad != n)
    value_error("associated_data: expected " + num(n) + " entries (one per message), got " + num(n_ad));
  const bool tags_apart = decrypt ? !tags.is_none() : detached;
  jobs.tags = tags_apart ? lwc::jobs::tag_place::detached : lwc::jobs::tag_place::appended;
  if (decrypt && tags_apart) jobs.tags_in = cols.fixed(tags, "tags", tag, n);

  nb::object out, tag_out, ok;
  std::span<std::uint8_t> ok_flags;
  std::optional<offset_results> listed;
  if (decrypt) {
    std::uint8_t* flags = nullptr;
    ok = from_list ? new_bytes(n, flags) : numpy_empty(n, 1, true);
    if (!from_list) ok_flags = cols.flags(ok, "ok");
    else ok_flags = {flags, n};
  }
  const std::int64_t grow = tags_apart ? 0 : decrypt ? -static_cast<std::int64_t>(tag) : static_cast<std::int64_t>(tag);
  if (from_list) {
    if (jobs.in.offset_kind != lwc::jobs::offset_type::i64)
      value_error(std::string(in_name) + ": int64 offsets expected");
    check_column(a, in_name, jobs.in, n);
    listed.emplace(static_cast<const std::int64_t*>(jobs.in.offsets), n, grow);
    jobs.out = listed->column();
  } else {
    const std::size_t len = jobs.in.stride;  // 0 for rows of 0 bytes (zero offsets)
    if (grow < 0 && len < tag)
      value_error(std::string(in_name) + ": rows of " + num(len) + " bytes are shorter than the " +
                  num(tag) + "-byte tag");
    const std::size_t out_len = grow < 0 ? len - tag : checked_add(len, static_cast<std::size_t>(grow), "rows");
    out = numpy_empty(n, out_len);
    std::size_t rows = 0;
    jobs.out = cols.out_rows(out, "output", rows);
  }
  if (!decrypt && tags_apart) {
    if (listed) {
      std::uint8_t* t = nullptr;
      tag_out = new_bytes(checked_mul(n, tag, "tags"), t);
      jobs.tags_out = lwc::jobs::out_column::fixed({t, n * tag}, tag);
    } else {
      tag_out = numpy_empty(n, tag);
      jobs.tags_out = cols.out_fixed(tag_out, "tags", tag, n);
    }
  }

  std::string backend_name;
  const lwc::batch::options opt = engine_options(threads, backend, backend_name);
  const cuda_engine* gpu = cuda ? &cuda_engine_table() : nullptr;
  run_engine([&] {
    if (gpu != nullptr) {
      std::string error;
      check_cuda(decrypt ? gpu->decrypt(a.name, jobs, ok_flags, tag, error)
                         : gpu->encrypt(a.name, jobs, tag, error), error);
      return;
    }
    if (decrypt) (void)lwc::batch::decrypt(a, jobs, ok_flags, tag, opt);
    else lwc::batch::encrypt(a, jobs, tag, opt);
  });

  if (!listed) {
    if (!decrypt) return tags_apart ? nb::object(nb::make_tuple(out, tag_out)) : out;
    return nb::make_tuple(out, ok);
  }
  if (!decrypt) {
    if (!tags_apart) return listed->list();
    nb::list tag_list;
    const auto* t = cpy::bytes_data(tag_out.ptr());
    for (std::size_t i = 0; i < n; ++i)
      tag_list.append(nb::bytes(reinterpret_cast<const char*>(t + i * tag), tag));
    return nb::make_tuple(listed->list(), tag_list);
  }
  nb::list flags;
  for (std::size_t i = 0; i < n; ++i) flags.append(nb::bool_(ok_flags[i] != 0));
  return nb::make_tuple(listed->list(ok_flags.data()), flags);
}

// Digests of out_len bytes: an N x out_len array for N x L messages; for messages with
// offsets, n * out_len bytes, digest i at i * out_len. keys: MACs and PRFs (n * key size bytes); customization: CXOFs,
// (values, offsets).
nb::object batch_hash(std::size_t index, nb::handle data, std::size_t out_len, nb::handle keys,
                      nb::handle customization, nb::handle threads, nb::handle backend, bool cuda) {
  const lwc::algorithm& a = entry_at(index, false);
  column_buffers cols;
  lwc::batch::packed_hash_jobs jobs;
  std::size_t n = 0, n_custom = 0;
  jobs.in = cols.rows(data, "messages", n);
  jobs.count = n;
  jobs.keys = cols.fixed(keys, "keys", a.key_size, n);
  jobs.customization = cols.rows(customization, "customization", n_custom);
  if (!customization.is_none() && n_custom != n)
    value_error("customization: expected " + num(n) + " entries (one per message), got " + num(n_custom));
  nb::object out;
  std::uint8_t* raw = nullptr;
  if (PyTuple_Check(data.ptr())) {
    out = new_bytes(checked_mul(n, out_len, "digests"), raw);
    jobs.out = lwc::jobs::out_column::fixed({raw, n * out_len}, out_len);
  } else {
    out = numpy_empty(n, out_len);
    std::size_t rows = 0;
    jobs.out = cols.out_rows(out, "digests", rows);
  }
  std::string backend_name;
  const lwc::batch::options opt = engine_options(threads, backend, backend_name);
  const cuda_engine* gpu = cuda ? &cuda_engine_table() : nullptr;
  run_engine([&] {
    if (gpu != nullptr) {
      std::string error;
      check_cuda(gpu->hash(a.name, jobs, error), error);
      return;
    }
    lwc::batch::hash(a, jobs, opt);
  });
  return out;
}

}  // namespace

void register_batch(nb::module_& m) {
  register_batch_lists(m);
  register_arrow_columns(m);
  m.def("_batch_aead", &batch_aead, "decrypt"_a, "index"_a, "keys"_a.none(), "nonces"_a.none(),
        "data"_a.none(), "ad"_a.none(), "second_keys"_a.none(), "tags"_a.none(),
        "tag_length"_a.none(), "detached"_a, "threads"_a.none(), "backend"_a.none(), "cuda"_a);
  m.def("_batch_hash", &batch_hash, "index"_a, "data"_a.none(), "out_len"_a, "keys"_a.none(),
        "customization"_a.none(), "threads"_a.none(), "backend"_a.none(), "cuda"_a);
  m.def("_batch_algorithms", [] {
    nb::list l;
    for (auto n : lwc::batch::algorithms()) l.append(nb::str(n.data(), n.size()));
    return l;
  });
  m.def("_batch_backends", [] {
    nb::list l;
    for (auto n : lwc::batch::available_backends()) l.append(nb::str(n.data(), n.size()));
    return l;
  });
  m.def("_batch_default_backend", [] {
    const auto b = lwc::batch::default_backend();
    return nb::str(b.data(), b.size());
  });
  m.def("_batch_lanes", [](const std::string& b) { return lwc::batch::lanes(b); });
  m.def("_batch_has_lanes", [](const std::string& alg, const std::string& backend) {
    if (!lwc::batch::supports(alg))
      value_error("unknown algorithm '" + alg + "' (see lwc.batch.algorithms())");
    if (lwc::batch::lanes(backend) == 0)
      value_error("backend '" + backend + "' is not available in this build on this CPU (see lwc.batch.backends())");
    return lwc::batch::has_lanes(alg, backend);
  });
}

}  // namespace lwc::python
