// SPDX-License-Identifier: MIT OR Apache-2.0
// The C ABI of the stream format (include/lwc/stream.h) over lwc::stream: a handle holds an
// encryptor or a decryptor; each push writes what became ready into the caller's buffer
// through a sink that checks the capacity. Nothing throws across the C boundary.
//
// Handles are checked, not trusted: every live handle is in a table, so a freed one (or any
// other pointer) is refused with a message, and lwc_stream_free() may be called twice. One
// call at a time may use a handle; a second thread calling meanwhile is refused, not queued.
#include <lwc/stream.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <unordered_set>

#include <lwc/common/overlap.hpp>

#include <lwc/stream.hpp>

#include "error.hpp"

namespace ls = lwc::stream;

struct lwc_stream {
  std::optional<ls::encryptor> enc;
  std::optional<ls::decryptor> dec;
  int code = 0;
  bool busy = false;  // guarded by the handle table's lock
};

namespace {

// The live handles. Never destroyed, so that a call racing with exit finds it intact.
struct handle_table {
  std::mutex lock;
  std::unordered_set<const lwc_stream*> live;
};
handle_table& handles() {
  static auto* table = new handle_table();
  return *table;
}

void add_handle(const lwc_stream* s) {
  handle_table& t = handles();
  std::lock_guard<std::mutex> guard(t.lock);
  t.live.insert(s);
}

// Exclusive use of a live handle for one call; throws a usage error otherwise.
class stream_claim {
 public:
  stream_claim(const lwc_stream* s, const char* call) {
    if (s == nullptr) throw ls::error(ls::errc::usage, std::string(call) + ": stream is NULL");
    handle_table& t = handles();
    std::lock_guard<std::mutex> guard(t.lock);
    if (t.live.count(s) == 0)
      throw ls::error(ls::errc::usage, std::string(call) +
                                           ": not a live stream (freed, or never returned by "
                                           "lwc_stream_encrypt_new/lwc_stream_decrypt_new)");
    if (s->busy)
      throw ls::error(ls::errc::usage,
                      std::string(call) + ": the stream is in use by another call (a stream "
                                          "is used by one thread at a time)");
    s_ = const_cast<lwc_stream*>(s);
    s_->busy = true;
  }
  stream_claim(const stream_claim&) = delete;
  stream_claim& operator=(const stream_claim&) = delete;
  ~stream_claim() {
    std::lock_guard<std::mutex> guard(handles().lock);
    s_->busy = false;
  }
  lwc_stream* get() const { return s_; }

 private:
  lwc_stream* s_ = nullptr;
};

int fail(lwc_stream* s, int code, const std::string& message) {
  if (s != nullptr) s->code = code;
  lwc::capi::set_error(message);
  return -1;
}

template <class F>
int guarded(lwc_stream* s, F&& f) noexcept {
  try {
    return f();
  } catch (const ls::error& e) {
    return fail(s, static_cast<int>(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(s, LWC_STREAM_E_USAGE, "out of memory");
  } catch (const std::exception& e) {
    return fail(s, LWC_STREAM_E_USAGE, e.what());
  } catch (...) {
    return fail(s, LWC_STREAM_E_USAGE, "unexpected error");
  }
}

// Writes into out[0 .. cap); the bounds make an overflow impossible unless the caller
// ignored them, which is then an error rather than a buffer overrun.
class buffer_sink : public ls::sink {
 public:
  buffer_sink(std::uint8_t* out, std::size_t cap) : out_(out), cap_(cap) {}
  void write(std::span<const lwc::bytes_view> pieces) override {
    for (lwc::bytes_view p : pieces) {
      if (p.size() > cap_ - len_)
        throw ls::error(ls::errc::usage, "lwc_stream: the output buffer is smaller than "
                                         "lwc_stream_push_bound() / lwc_stream_final_bound()");
      if (!p.empty()) std::memcpy(out_ + len_, p.data(), p.size());
      len_ += p.size();
    }
  }
  std::size_t size() const { return len_; }

 private:
  std::uint8_t* out_;
  std::size_t cap_, len_ = 0;
};

ls::master_key key_of(const std::uint8_t* key) {
  if (key == nullptr) throw ls::error(ls::errc::usage, "lwc_stream: key is NULL");
  return ls::master_key(lwc::bytes_view(key, ls::master_key_size));
}

ls::options options_of(const char* alg, unsigned chunk_shift, unsigned threads) {
  ls::options o;
  if (alg != nullptr) o.algorithm = alg;
  if (chunk_shift != 0) o.chunk_shift = chunk_shift;
  o.threads = threads;
  return o;
}

std::size_t clamp_size(std::uint64_t n) {
  return n > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(n);
}

// Runs f for a stream this call holds, keeping the code of a failure in the stream for
// lwc_stream_error_code().
template <class F>
int recording_code(lwc_stream* s, F&& f) {
  try {
    return f();
  } catch (const ls::error& e) {
    s->code = static_cast<int>(e.code());
    throw;
  } catch (...) {
    s->code = LWC_STREAM_E_USAGE;
    throw;
  }
}
}  // namespace

extern "C" {

int lwc_stream_algorithm_supported(const char* alg) {
  if (alg == nullptr) return 0;
  const lwc::algorithm* a = lwc::find_algorithm(alg);
  return a != nullptr && ls::unsuitable(*a).empty() ? 1 : 0;
}

int lwc_stream_algorithm_id(const char* alg) {
  return lwc_stream_algorithm_supported(alg) ? ls::id_of(alg) : 0;
}

lwc_stream* lwc_stream_encrypt_new(const char* alg, unsigned chunk_shift, unsigned threads,
                                   const uint8_t key[32]) {
  lwc_stream* s = nullptr;
  guarded(nullptr, [&] {
    auto h = std::make_unique<lwc_stream>();
    h->enc.emplace(key_of(key), options_of(alg, chunk_shift, threads));
    add_handle(h.get());
    s = h.release();
    return 0;
  });
  return s;
}

lwc_stream* lwc_stream_decrypt_new(unsigned threads, const uint8_t key[32]) {
  lwc_stream* s = nullptr;
  guarded(nullptr, [&] {
    auto h = std::make_unique<lwc_stream>();
    h->dec.emplace(key_of(key), options_of(nullptr, 0, threads));
    add_handle(h.get());
    s = h.release();
    return 0;
  });
  return s;
}

void lwc_stream_free(lwc_stream* s) {
  if (s == nullptr) return;
  {
    handle_table& t = handles();
    std::lock_guard<std::mutex> guard(t.lock);
    if (t.live.count(s) == 0) {
      lwc::capi::set_error("lwc_stream_free: not a live stream (freed already?); nothing done");
      return;
    }
    if (s->busy) {
      lwc::capi::set_error("lwc_stream_free: the stream is in use by another call; not freed");
      return;
    }
    t.live.erase(s);
  }
  delete s;
}

namespace {
std::size_t push_bound(const lwc_stream& s, std::size_t inlen) {
  return clamp_size(s.enc ? s.enc->write_bound(inlen) : s.dec->write_bound(inlen));
}
std::size_t final_bound(const lwc_stream& s) {
  return clamp_size(s.enc ? s.enc->finish_bound() : s.dec->finish_bound());
}
}  // namespace

size_t lwc_stream_push_bound(const lwc_stream* s, size_t inlen) {
  std::size_t bound = 0;
  guarded(nullptr, [&] {
    stream_claim claim(s, "lwc_stream_push_bound");
    bound = push_bound(*claim.get(), inlen);
    return 0;
  });
  return bound;
}

size_t lwc_stream_final_bound(const lwc_stream* s) {
  std::size_t bound = 0;
  guarded(nullptr, [&] {
    stream_claim claim(s, "lwc_stream_final_bound");
    bound = final_bound(*claim.get());
    return 0;
  });
  return bound;
}

int lwc_stream_push(lwc_stream* s, uint8_t* out, size_t outcap, size_t* outlen, const uint8_t* in,
                    size_t inlen) {
  if (outlen != nullptr) *outlen = 0;
  // The error code is recorded (recording_code) only in a stream this call holds.
  return guarded(nullptr, [&] {
    stream_claim claim(s, "lwc_stream_push");
    return recording_code(s, [&] {
      if (in == nullptr && inlen != 0)
        throw ls::error(ls::errc::usage, "lwc_stream_push: input is NULL");
      // The output runs ahead of the input (a header, tags), so even exactly in place would
      // overwrite input not read yet: every overlap is refused.
      if (lwc::ranges_overlap(out, outcap, in, inlen))
        throw ls::error(ls::errc::usage,
                        "lwc_stream_push: the output buffer overlaps the input (not supported, "
                        "not even in place)");
      const std::size_t need = push_bound(*s, inlen);
      if ((out == nullptr && outcap != 0) || outcap < need)
        throw ls::error(ls::errc::usage, "lwc_stream_push: the output buffer has " +
                                             std::to_string(outcap) + " bytes, " +
                                             std::to_string(need) + " may be needed");
      buffer_sink sink(out, outcap);
      if (s->enc) s->enc->write({in, inlen}, sink);
      else s->dec->write({in, inlen}, sink);
      if (outlen != nullptr) *outlen = sink.size();
      return 0;
    });
  });
}

int lwc_stream_final(lwc_stream* s, uint8_t* out, size_t outcap, size_t* outlen) {
  if (outlen != nullptr) *outlen = 0;
  return guarded(nullptr, [&] {
    stream_claim claim(s, "lwc_stream_final");
    return recording_code(s, [&] {
      const std::size_t need = final_bound(*s);
      if ((out == nullptr && outcap != 0) || outcap < need)
        throw ls::error(ls::errc::usage, "lwc_stream_final: the output buffer has " +
                                             std::to_string(outcap) + " bytes, " +
                                             std::to_string(need) + " may be needed");
      buffer_sink sink(out, outcap);
      if (s->enc) s->enc->finish(sink);
      else s->dec->finish(sink);
      if (outlen != nullptr) *outlen = sink.size();
      return 0;
    });
  });
}

int lwc_stream_error_code(const lwc_stream* s) {
  if (s == nullptr) return 0;
  int code = LWC_STREAM_E_USAGE;
  guarded(nullptr, [&] {
    stream_claim claim(s, "lwc_stream_error_code");
    code = claim.get()->code;
    return 0;
  });
  return code;
}

int lwc_stream_encrypt_file(const char* alg, unsigned chunk_shift, unsigned threads,
                            const uint8_t key[32], const char* in_path, const char* out_path,
                            int overwrite) {
  return guarded(nullptr, [&] {
    if (in_path == nullptr || out_path == nullptr)
      throw ls::error(ls::errc::usage, "lwc_stream_encrypt_file: a path is NULL");
    ls::encrypt_file(key_of(key), in_path, out_path, options_of(alg, chunk_shift, threads),
                     overwrite != 0);
    return 0;
  });
}

int lwc_stream_decrypt_file(unsigned threads, const uint8_t key[32], const char* in_path,
                            const char* out_path, int overwrite) {
  return guarded(nullptr, [&] {
    if (in_path == nullptr || out_path == nullptr)
      throw ls::error(ls::errc::usage, "lwc_stream_decrypt_file: a path is NULL");
    ls::decrypt_file(key_of(key), in_path, out_path, options_of(nullptr, 0, threads),
                     overwrite != 0);
    return 0;
  });
}

int lwc_stream_load_key(uint8_t key[32], const char* path) {
  return guarded(nullptr, [&] {
    if (key == nullptr || path == nullptr)
      throw ls::error(ls::errc::usage, "lwc_stream_load_key: an argument is NULL");
    const ls::master_key k = ls::load_key(path);
    std::memcpy(key, k.bytes.data(), k.bytes.size());
    return 0;
  });
}

int lwc_stream_save_key(const char* path, const uint8_t key[32], int overwrite) {
  return guarded(nullptr, [&] {
    if (path == nullptr) throw ls::error(ls::errc::usage, "lwc_stream_save_key: path is NULL");
    ls::save_key(path, key_of(key), overwrite != 0);
    return 0;
  });
}

int lwc_stream_keygen(uint8_t key[32]) {
  return guarded(nullptr, [&] {
    if (key == nullptr) throw ls::error(ls::errc::usage, "lwc_stream_keygen: key is NULL");
    const ls::master_key k = ls::generate_key();
    std::memcpy(key, k.bytes.data(), k.bytes.size());
    return 0;
  });
}

}  // extern "C"
