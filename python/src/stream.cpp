// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc._lwc's side of lwc.stream: an encryptor that writes to a Python file object and a
// decryptor that reads from one, over lwc::stream (src/stream). The stream runs with the GIL
// released; only the calls into the file object take it back, so the workers seal chunks
// while Python code runs. lwc/stream.py wraps these in io classes.
//
// Each object has a lock of its own: a second thread waits for it (with the GIL released, so
// that the holder's file calls can take the GIL), and a call from inside the object's own file
// callback (the same thread, lock held) is refused with RuntimeError. The file object is only
// ever given memory that Python owns: bytes to write(), a fresh buffer to readinto().
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <lwc/stream.hpp>

namespace nb = nanobind;
using namespace nb::literals;
namespace ls = lwc::stream;

namespace {

nb::object invalid_tag_type;

// The Python exception is already set on this thread: rethrown as nb::python_error once the
// GIL is held again.
struct python_failed {};

// Runs f without the GIL and turns lwc::stream errors into Python ones: a stream that is not
// authentic under the key is lwc.InvalidTag, a bad argument ValueError, a file error OSError.
template <class F>
auto unlocked(F&& f) {
  std::optional<ls::error> err;
  bool py = false;
  using R = decltype(f());
  if constexpr (std::is_void_v<R>) {
    {
      nb::gil_scoped_release release;
      try {
        f();
      } catch (const ls::error& e) {
        err.emplace(e);
      } catch (const python_failed&) {
        py = true;
      }
    }
    if (py) throw nb::python_error();
    if (err) {
      if (err->is_integrity_failure()) {
        PyErr_SetString(invalid_tag_type.ptr(), err->what());
        throw nb::python_error();
      }
      PyErr_SetString(err->code() == ls::errc::io ? PyExc_OSError : PyExc_ValueError, err->what());
      throw nb::python_error();
    }
  } else {
    R r{};
    unlocked([&] { r = f(); });
    return r;
  }
}

class py_sink : public ls::sink {
 public:
  explicit py_sink(nb::handle file) : write_(file.attr("write")) {}
  ~py_sink() override {
    nb::gil_scoped_acquire gil;
    write_.reset();
  }
  void write(std::span<const lwc::bytes_view> pieces) override {
    nb::gil_scoped_acquire gil;
    try {
      for (lwc::bytes_view p : pieces) {
        // A copy the callee owns: it may keep it (or slices of it) for as long as it likes,
        // while the stream goes on reusing its own buffers.
        nb::bytes data(reinterpret_cast<const char*>(p.data()), p.size());
        std::size_t done = 0;
        while (done < p.size()) {  // a raw file may write less than asked
          nb::object rest = data;
          if (done != 0) {  // a view of the callee's own bytes object: it stays valid
            nb::object mv = nb::steal(PyMemoryView_FromObject(data.ptr()));
            if (!mv.is_valid()) throw nb::python_error();
            rest = nb::steal(PySequence_GetSlice(mv.ptr(), static_cast<Py_ssize_t>(done),
                                                 static_cast<Py_ssize_t>(p.size())));
            if (!rest.is_valid()) throw nb::python_error();
          }
          nb::object r = write_(rest);
          const std::size_t n = r.is_none() ? 0 : nb::cast<std::size_t>(r);
          if (n == 0) throw nb::value_error("the file object's write() wrote nothing");
          if (n > p.size() - done)
            throw nb::value_error("the file object's write() reported more than it was given");
          done += n;
        }
      }
    } catch (nb::python_error& e) {
      e.restore();
      throw python_failed{};
    } catch (const nb::builtin_exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
      throw python_failed{};
    } catch (const nb::cast_error&) {
      PyErr_SetString(PyExc_TypeError, "the file object's write() returned no byte count");
      throw python_failed{};
    }
  }

 private:
  nb::object write_;
};

class py_source : public ls::source {
 public:
  explicit py_source(nb::handle file) {
    // read() returns memory the file object made; readinto() gets a fresh buffer each call.
    // Either way the callee never sees the stream's own buffers.
    if (nb::hasattr(file, "read")) read_ = file.attr("read");
    else readinto_ = file.attr("readinto");
  }
  ~py_source() override {
    nb::gil_scoped_acquire gil;
    readinto_.reset();
    read_.reset();
  }
  std::size_t read(lwc::bytes_span buf) override {
    nb::gil_scoped_acquire gil;
    try {
      nb::object r;
      if (read_.is_valid()) {
        r = read_(buf.size());
      } else {
        // Zeroed: uninitialised heap memory is not the callee's to read either.
        r = nb::steal(PyByteArray_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(buf.size())));
        if (!r.is_valid()) throw nb::python_error();
        std::memset(PyByteArray_AsString(r.ptr()), 0, buf.size());
        nb::object got = readinto_(r);
        if (got.is_none()) throw nb::value_error("the file object is non-blocking and has no data");
        const std::size_t n = nb::cast<std::size_t>(got);
        if (n > buf.size()) throw nb::value_error("readinto() returned more than it was given");
        // The callee may have resized the buffer it was given.
        if (static_cast<std::size_t>(PyByteArray_Size(r.ptr())) < n)
          throw nb::value_error("readinto() shrank the buffer it was given");
        std::memcpy(buf.data(), PyByteArray_AsString(r.ptr()), n);
        return n;
      }
      if (r.is_none()) throw nb::value_error("the file object is non-blocking and has no data");
      Py_buffer view;
      if (PyObject_GetBuffer(r.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
      const std::size_t n = static_cast<std::size_t>(view.len);
      if (n <= buf.size()) std::memcpy(buf.data(), view.buf, n);
      PyBuffer_Release(&view);
      if (n > buf.size()) throw nb::value_error("read() returned more than it was asked for");
      return n;
    } catch (nb::python_error& e) {
      e.restore();
      throw python_failed{};
    } catch (const nb::builtin_exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
      throw python_failed{};
    } catch (const nb::cast_error&) {
      PyErr_SetString(PyExc_TypeError, "the file object's readinto() returned no byte count");
      throw python_failed{};
    }
  }

 private:
  nb::object readinto_, read_;
};

ls::master_key key_of(nb::bytes key) {
  if (key.size() != ls::master_key_size)
    throw nb::value_error(("key must be " + std::to_string(ls::master_key_size) +
                           " bytes (the master key of a key file, see lwc.stream.load_key), got " +
                           std::to_string(key.size()))
                              .c_str());
  return ls::master_key(lwc::bytes_view(reinterpret_cast<const std::uint8_t*>(key.c_str()), key.size()));
}

unsigned shift_of(std::size_t chunk_size) {
  for (unsigned s = ls::min_chunk_shift; s <= ls::max_chunk_shift; ++s)
    if ((std::size_t{1} << s) == chunk_size) return s;
  throw nb::value_error(("chunk_size must be a power of two from 64 to 1048576, got " +
                         std::to_string(chunk_size))
                            .c_str());
}

ls::options options_of(const std::string& algorithm, std::size_t chunk_size, unsigned threads,
                       const std::string& name) {
  ls::options o;
  o.algorithm = algorithm;  // the caller keeps `algorithm` alive (a member of the object)
  o.chunk_shift = shift_of(chunk_size);
  o.threads = threads;
  o.name = name;
  return o;
}

// The lock of one stream object. Held for the whole of a call, file callbacks included, so
// that no two calls ever run on the C++ stream object at once.
class object_lock {
 public:
  // True when the calling thread is inside a call on the object (in one of its callbacks).
  bool held_here() const { return owner_.load() == std::this_thread::get_id(); }

 private:
  friend class entered;
  std::mutex mu_;
  std::atomic<std::thread::id> owner_{};
};

// A call on a stream object: refused when it comes from the object's own callback, otherwise
// waits (GIL released) for any call of another thread to end. Needs the GIL.
class entered {
 public:
  entered(object_lock& l, const char* kind) : l_(l) {
    if (l.held_here()) {
      PyErr_Format(PyExc_RuntimeError,
                   "lwc.stream %s used again from inside its own file object's callback "
                   "(re-entrant call)",
                   kind);
      throw nb::python_error();
    }
    if (!l.mu_.try_lock()) {
      nb::gil_scoped_release release;
      l.mu_.lock();
    }
    l.owner_.store(std::this_thread::get_id());
  }
  entered(const entered&) = delete;
  entered& operator=(const entered&) = delete;
  ~entered() {
    l_.owner_.store(std::thread::id{});
    l_.mu_.unlock();
  }

 private:
  object_lock& l_;
};

struct writer {
  std::string algorithm;
  std::optional<ls::encryptor> enc;
  nb::object file;
  std::atomic<bool> closed{false};
  object_lock lock;
};

struct reader {
  std::optional<ls::decryptor> dec;
  nb::object file;
  std::atomic<bool> closed{false};
  object_lock lock;
};

// The file object is a reference the garbage collector must see: a file object that refers
// back to its reader or writer (a callback, a traceback kept in it) makes a cycle.
template <class T>
int traverse_file(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  Py_VISIT(nb::inst_ptr<T>(self)->file.ptr());
  return 0;
}

template <class T>
int clear_file(PyObject* self) {
  nb::inst_ptr<T>(self)->file.reset();
  return 0;
}

template <class T>
PyType_Slot file_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(traverse_file<T>)},
                            {Py_tp_clear, reinterpret_cast<void*>(clear_file<T>)},
                            {0, nullptr}};

nb::handle file_of(const nb::object& file) {
  if (!file.is_valid()) throw nb::value_error("the lwc.stream object lost its file object");
  return file;
}

}  // namespace

void register_stream(nb::module_& m) {
  invalid_tag_type = m.attr("InvalidTag");

  nb::class_<writer>(m, "_StreamWriter", nb::type_slots(file_slots<writer>))
      .def("__init__",
           [](writer* w, nb::object file, nb::bytes key, std::string algorithm,
              std::size_t chunk_size, unsigned threads) {
             const ls::options o = options_of(algorithm, chunk_size, threads, "the stream");
             const ls::master_key k = key_of(key);
             std::optional<ls::encryptor> e;
             unlocked([&] { e.emplace(k, o); });
             writer* made = new (w) writer{};
             made->algorithm = std::move(algorithm);
             made->enc = std::move(e);
             made->file = std::move(file);
           },
           "file"_a, "key"_a, "algorithm"_a, "chunk_size"_a, "threads"_a)
      .def("write",
           [](writer& w, nb::handle data) {
             entered in_call(w.lock, "writer");
             if (w.closed) throw nb::value_error("write to a closed lwc.stream writer");
             Py_buffer view;
             if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
             const lwc::bytes_view v(static_cast<const std::uint8_t*>(view.buf),
                                     static_cast<std::size_t>(view.len));
             try {
               py_sink out(file_of(w.file));
               unlocked([&] { w.enc->write(v, out); });
             } catch (...) {
               PyBuffer_Release(&view);
               throw;
             }
             PyBuffer_Release(&view);
             return v.size();
           },
           "data"_a)
      // Writes the last chunk. Returns False when the writer was already closed (by finish or
      // abort), so that only one caller treats the stream as complete.
      .def("finish",
           [](writer& w) {
             entered in_call(w.lock, "writer");
             if (w.closed) return false;
             w.closed = true;
             py_sink out(file_of(w.file));
             unlocked([&] { w.enc->finish(out); });
             return true;
           })
      // Closes without the last chunk: what was written stays an incomplete stream.
      .def("abort",
           [](writer& w) {
             entered in_call(w.lock, "writer");
             return !w.closed.exchange(true);
           })
      .def_prop_ro("closed", [](const writer& w) { return w.closed.load(); })
      .def_prop_ro("in_callback", [](const writer& w) { return w.lock.held_here(); });

  nb::class_<reader>(m, "_StreamReader", nb::type_slots(file_slots<reader>))
      .def("__init__",
           [](reader* r, nb::object file, nb::bytes key, unsigned threads) {
             ls::options o;
             o.threads = threads;
             std::optional<ls::decryptor> d;
             d.emplace(key_of(key), o);
             reader* made = new (r) reader{};
             made->dec = std::move(d);
             made->file = std::move(file);
           },
           "file"_a, "key"_a, "threads"_a)
      .def("readinto",
           [](reader& r, nb::handle buf) {
             entered in_call(r.lock, "reader");
             if (r.closed) throw nb::value_error("read from a closed lwc.stream reader");
             Py_buffer view;
             if (PyObject_GetBuffer(buf.ptr(), &view, PyBUF_WRITABLE) != 0) throw nb::python_error();
             const lwc::bytes_span s(static_cast<std::uint8_t*>(view.buf),
                                     static_cast<std::size_t>(view.len));
             std::size_t n = 0;
             try {
               py_source in(file_of(r.file));
               n = unlocked([&] { return r.dec->read(in, s); });
             } catch (...) {
               PyBuffer_Release(&view);
               throw;
             }
             PyBuffer_Release(&view);
             return n;
           },
           "buffer"_a)
      .def("close",
           [](reader& r) {
             entered in_call(r.lock, "reader");
             return !r.closed.exchange(true);
           })
      .def_prop_ro("finished",
                   [](reader& r) {
                     entered in_call(r.lock, "reader");
                     return r.dec->finished();
                   })
      .def_prop_ro("closed", [](const reader& r) { return r.closed.load(); })
      .def_prop_ro("in_callback", [](const reader& r) { return r.lock.held_here(); });

  m.def("_stream_load_key", [](const std::string& path) {
    ls::master_key k;
    unlocked([&] { k = ls::load_key(path); });
    return nb::bytes(reinterpret_cast<const char*>(k.bytes.data()), k.bytes.size());
  }, "path"_a);
  m.def("_stream_save_key", [](const std::string& path, nb::bytes key, bool overwrite) {
    const ls::master_key k = key_of(key);
    unlocked([&] { ls::save_key(path, k, overwrite); });
  }, "path"_a, "key"_a, "overwrite"_a);
  m.def("_stream_generate_key", [] {
    ls::master_key k;
    unlocked([&] { k = ls::generate_key(); });
    return nb::bytes(reinterpret_cast<const char*>(k.bytes.data()), k.bytes.size());
  });
  m.def("_stream_encrypt_file",
        [](nb::bytes key, const std::string& src, const std::string& dst, std::string algorithm,
           std::size_t chunk_size, unsigned threads, bool overwrite) {
          const ls::master_key k = key_of(key);
          const ls::options o = options_of(algorithm, chunk_size, threads, "'" + src + "'");
          unlocked([&] { ls::encrypt_file(k, src, dst, o, overwrite); });
        },
        "key"_a, "src"_a, "dst"_a, "algorithm"_a, "chunk_size"_a, "threads"_a, "overwrite"_a);
  m.def("_stream_decrypt_file",
        [](nb::bytes key, const std::string& src, const std::string& dst, unsigned threads,
           bool overwrite) {
          const ls::master_key k = key_of(key);
          ls::options o;
          o.threads = threads;
          o.name = "'" + src + "'";
          unlocked([&] { ls::decrypt_file(k, src, dst, o, overwrite); });
        },
        "key"_a, "src"_a, "dst"_a, "threads"_a, "overwrite"_a);
  m.def("_stream_algorithms", [] {
    nb::list l;
    for (const lwc::algorithm& a : lwc::algorithms())
      if (a.is_aead() && ls::unsuitable(a).empty()) l.append(nb::str(a.name.data(), a.name.size()));
    return l;
  });
}
