// SPDX-License-Identifier: MIT OR Apache-2.0
// The compiled part of the lwc stream format: chunks travel in batches of about 512 KiB; while
// the workers seal or open one batch (the batch engine's SIMD lanes when it runs the
// algorithm), the calling thread fills the other and emits the one before. Push and pull,
// encryption and decryption, and the whole-stream helpers all go through `core`.
#include <lwc/stream.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "pool.hpp"

#if defined(LWC_STREAM_HAVE_BATCH)
#include <lwc/batch.hpp>
#endif

namespace lwc::stream {

unsigned default_threads() noexcept {
  const unsigned n = std::thread::hardware_concurrency();
  return std::clamp(n, 1u, max_threads);
}

namespace detail {

namespace {

// Slot i of a batch holds chunk i followed by its tag, so a sealed batch is one contiguous run
// of the stream.
struct batch {
  std::unique_ptr<std::uint8_t[]> buf;
  std::size_t cap = 0;
  std::uint64_t first = 0;       // index of the first chunk
  std::size_t full = 0;          // chunks of chunk_size bytes (never the last chunk)
  bool has_last = false;         // the batch ends with the last chunk ...
  std::size_t last_len = 0;      // ... of this many plaintext bytes
  std::vector<std::uint8_t> ok;  // decryption: per slot
  std::string error;             // decryption: a truncation found when the input ended
  std::size_t slots() const { return full + (has_last ? 1 : 0); }
  void allocate(std::size_t bytes) {
    buf = std::make_unique<std::uint8_t[]>(bytes);
    cap = bytes;
  }
  void reset(std::uint64_t index) {
    first = index;
    full = 0;
    has_last = false;
    last_len = 0;
    error.clear();
  }
  batch() = default;
  batch(const batch&) = delete;
  batch& operator=(const batch&) = delete;
  ~batch() {
    if (buf) secure_wipe(buf.get(), cap);
  }
};

// Seals or opens the chunks of a batch: one AEAD call per chunk through the registry or, when
// the batch engine is built and runs this algorithm, one engine call per work item so that
// its SIMD lanes take several chunks at once. Both give the same bytes (the engine is tested
// against the single-message code).
class chunk_engine {
 public:
  explicit chunk_engine(const algorithm& a) : a_(a) {
#if defined(LWC_STREAM_HAVE_BATCH)
    // The engine runs every registered algorithm (in lanes or job by job).
    lanes_ = std::max<std::size_t>(1, lwc::batch::lanes(lwc::batch::default_backend()));
#endif
  }
  bool multi() const { return lanes_ != 0; }
  std::size_t lanes() const { return std::max<std::size_t>(1, lanes_); }

  void run(bool decrypting, const file_keys& fk, batch& x, std::size_t begin, std::size_t end,
           std::size_t chunk, std::size_t slot) const {
    const std::size_t tag = a_.tag_size;
#if defined(LWC_STREAM_HAVE_BATCH)
    if (multi()) {
      const std::size_t ns = a_.nonce_size;
      std::vector<std::uint8_t> nonces((end - begin) * ns);
      std::vector<lwc::batch::aead_job> jobs;
      jobs.reserve(end - begin);
      for (std::size_t s = begin; s < end; ++s) {
        const bool last = s == x.full;
        const std::size_t len = last ? x.last_len : chunk;
        std::uint8_t* p = x.buf.get() + s * slot;
        std::uint8_t* n = nonces.data() + (s - begin) * ns;
        chunk_nonce(fk, x.first + s, last, n);
        jobs.push_back({fk.key(), {n, ns}, {}, {p, len}, {p, len}, {p + len, tag}, {}});
      }
      lwc::batch::options opt;
      opt.threads = 1;  // the pool already runs one item per worker
      if (decrypting)
        (void)lwc::batch::decrypt(a_, jobs, {x.ok.data() + begin, end - begin}, tag, opt);
      else
        lwc::batch::encrypt(a_, jobs, tag, opt);
      secure_wipe(nonces.data(), nonces.size());
      return;
    }
#endif
    std::uint8_t nonce[max_nonce_size];
    for (std::size_t s = begin; s < end; ++s) {
      const bool last = s == x.full;
      const std::size_t len = last ? x.last_len : chunk;
      std::uint8_t* p = x.buf.get() + s * slot;
      chunk_nonce(fk, x.first + s, last, nonce);
      if (decrypting)
        x.ok[s] = a_.decrypt(fk.key().data(), nullptr, nonce, nullptr, 0, p, len, p + len, tag, p);
      else
        a_.encrypt(fk.key().data(), nullptr, nonce, nullptr, 0, p, len, p, p + len, tag);
    }
    secure_wipe(nonce, sizeof nonce);
  }

 private:
  const algorithm& a_;
  std::size_t lanes_ = 0;  // 0: one call per chunk
};

struct geometry {
  std::size_t chunk, tag, slot, slots, group;
  geometry(const algorithm& a, unsigned shift, unsigned workers, const chunk_engine& engine) {
    chunk = std::size_t{1} << shift;
    tag = a.tag_size;
    slot = chunk + tag;
    // About 512 KiB per batch (it stays in cache between the read and the sealing: measured
    // 5 % less CPU time than 2 MiB), at least two slots per worker and lane, at most 8 MiB,
    // so that two batches stay under 17 MiB whatever the chunk size.
    const std::size_t want =
        std::max<std::size_t>((512u << 10) / chunk, 2 * std::size_t{workers} * engine.lanes());
    slots = std::clamp<std::size_t>(want, 1, std::max<std::size_t>(1, (8u << 20) / chunk));
    // One call per chunk: a work item covers at least 64 KiB so that tiny chunks do not cost
    // a dispatch each. The engine: one item per worker, to fill its lanes.
    group = engine.multi() ? (slots + workers - 1) / workers
                           : std::max<std::size_t>(1, (64u << 10) / chunk);
  }
  std::size_t items(std::size_t n) const { return (n + group - 1) / group; }
};

std::size_t read_full(source& in, std::uint8_t* p, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    const std::size_t r = in.read({p + got, n - got});
    if (r == 0) break;
    got += r;
  }
  return got;
}

// Keeps the views a batch emits, for read(): they stay valid until the next batch is filled.
class collect_sink : public sink {
 public:
  std::vector<bytes_view> pieces;
  std::size_t next = 0, offset = 0;
  void write(std::span<const bytes_view> p) override {
    pieces.clear();
    next = offset = 0;
    for (bytes_view v : p)
      if (!v.empty()) pieces.push_back(v);
  }
  bool empty() const { return next == pieces.size(); }
};

}  // namespace

class core {
 public:
  core(const algorithm& a, const file_keys& fk, unsigned shift, const options& opt,
       bool decrypting)
      : a_(a), fk_(fk), dec_(decrypting), name_(opt.name), engine_(a),
        workers_(opt.threads == 0 ? default_threads() : std::min(opt.threads, max_threads)),
        g_(a, shift, workers_, engine_) {
    for (auto& x : b_) {
      x.allocate(g_.slots * g_.slot);
      if (dec_) x.ok.resize(g_.slots);
    }
  }
  core(const core&) = delete;
  core& operator=(const core&) = delete;
  ~core() {
    if (flying_) {
      try {
        pool_->wait();
      } catch (...) {  // already failing
      }
    }
  }

  const algorithm& alg() const { return a_; }
  std::size_t chunk() const { return g_.chunk; }
  bool finished() const { return ended_; }

  // Runs f(), marking the stream failed when it throws: a failed stream refuses further use.
  template <class F>
  auto guard(F&& f) {
    if (failed_) throw error(errc::usage, name_ + ": the stream already failed");
    try {
      return f();
    } catch (...) {
      failed_ = true;
      throw;
    }
  }
  void check_open(const char* what) const {
    if (ended_ || finishing_)
      throw error(errc::usage, std::string(what) + " after the end of " + name_);
  }

  // ---- encryption ---------------------------------------------------------------------
  std::array<std::uint8_t, header_size> header{};
  bool header_sent = false;

  void send_header(sink& out) {
    if (header_sent) return;
    const bytes_view v{header.data(), header.size()};
    out.write({&v, 1});
    header_sent = true;
  }

  void enc_write(bytes_view in, sink& out) {
    send_header(out);
    const std::uint8_t* p = in.data();
    std::size_t n = in.size();
    held_ += n;
    while (n != 0) {
      batch& x = b_[fill_];
      const std::size_t s = fill_bytes_ / g_.chunk, off = fill_bytes_ % g_.chunk;
      const std::size_t take = std::min(n, g_.chunk - off);
      std::memcpy(x.buf.get() + s * g_.slot + off, p, take);
      p += take;
      n -= take;
      fill_bytes_ += take;
      if (fill_bytes_ == g_.slots * g_.chunk) {
        x.full = g_.slots;
        submit(out);
      }
    }
  }

  void enc_write_all(source& in, sink& out) {
    send_header(out);
    for (;;) {
      batch& x = b_[fill_];
      bool end = false;
      while (fill_bytes_ < g_.slots * g_.chunk) {
        const std::size_t s = fill_bytes_ / g_.chunk, off = fill_bytes_ % g_.chunk;
        const std::size_t want = g_.chunk - off;
        const std::size_t got = read_full(in, x.buf.get() + s * g_.slot + off, want);
        fill_bytes_ += got;
        held_ += got;
        if (got < want) {
          end = true;
          break;
        }
      }
      if (end) break;
      x.full = g_.slots;
      submit(out);
    }
    enc_finish(out);
  }

  void enc_finish(sink& out) {
    finishing_ = true;
    send_header(out);
    batch& x = b_[fill_];
    x.full = fill_bytes_ / g_.chunk;
    x.has_last = true;
    x.last_len = fill_bytes_ % g_.chunk;
    submit(out);
    drain(out);
    ended_ = true;
  }

  // ---- decryption ---------------------------------------------------------------------
  void dec_write(bytes_view in, sink& out) {
    const std::uint8_t* p = in.data();
    std::size_t n = in.size();
    held_ += n;
    const std::size_t cap = g_.slots * g_.slot;
    while (n != 0) {
      batch& x = b_[fill_];
      const std::size_t take = std::min(n, cap - fill_bytes_);
      std::memcpy(x.buf.get() + fill_bytes_, p, take);
      p += take;
      n -= take;
      fill_bytes_ += take;
      // A full batch holds only full chunks, none of which can be the last one.
      if (fill_bytes_ == cap) {
        x.full = g_.slots;
        submit(out);
      }
    }
  }

  void dec_finish(sink& out) {
    finishing_ = true;
    end_of_input(b_[fill_], fill_bytes_);
    submit(out);
    drain(out);
  }

  std::size_t dec_read(source& in, bytes_span out) {
    std::size_t got = 0;
    while (got < out.size()) {
      if (!pending_.empty()) {
        const bytes_view v = pending_.pieces[pending_.next];
        const std::size_t take = std::min(out.size() - got, v.size() - pending_.offset);
        std::memcpy(out.data() + got, v.data() + pending_.offset, take);
        got += take;
        pending_.offset += take;
        if (pending_.offset == v.size()) {
          ++pending_.next;
          pending_.offset = 0;
        }
        continue;
      }
      if (ended_) break;
      advance(in, pending_);
    }
    return got;
  }

  void dec_read_all(source& in, sink& out) {
    // Whatever an earlier read() left pending goes first.
    if (!pending_.empty()) {
      std::vector<bytes_view> rest;
      rest.push_back(pending_.pieces[pending_.next].subspan(pending_.offset));
      for (std::size_t i = pending_.next + 1; i < pending_.pieces.size(); ++i)
        rest.push_back(pending_.pieces[i]);
      pending_.pieces.clear();
      pending_.next = pending_.offset = 0;
      out.write(rest);
    }
    while (!ended_) advance(in, out);
  }

  std::uint64_t write_bound(std::uint64_t n) const {
    if (!dec_) {
      const std::uint64_t chunks = (held_ + n) >> shift();
      return (header_sent ? 0 : header_size) + chunks * g_.slot;
    }
    return held_ + n;
  }
  std::uint64_t finish_bound() const {
    if (!dec_) return (header_sent ? 0 : header_size) + held_ + g_.tag * ((held_ >> shift()) + 1);
    return held_;
  }

 private:
  unsigned shift() const { return static_cast<unsigned>(std::countr_zero(g_.chunk)); }

  // The input ended after `n` bytes of batch x: which chunks it holds, and whether the last
  // one is there.
  void end_of_input(batch& x, std::size_t n) {
    x.full = n / g_.slot;
    const std::size_t rest = n % g_.slot;
    const std::uint64_t chunks = next_index_ + x.full;
    if (rest == 0) {
      x.error = chunks == 0 ? name_ + " is truncated: no chunk follows its header"
                            : name_ + " is truncated: it ends after " + std::to_string(chunks) +
                                  " chunks, without its last chunk";
    } else if (rest < g_.tag) {
      x.error = name_ + " is truncated: its last chunk is shorter than a tag";
    } else {
      x.has_last = true;
      x.last_len = rest - g_.tag;
    }
  }

  // Pull: reads the next batch from `in` and submits it, or, once the input ended, waits for
  // the last one; the batch before goes to `out`.
  void advance(source& in, sink& out) {
    if (!input_done_) {
      batch& x = b_[fill_];
      const std::size_t cap = g_.slots * g_.slot;
      const std::size_t n = read_full(in, x.buf.get(), cap);
      if (n == cap) {
        x.full = g_.slots;
      } else {
        input_done_ = true;
        end_of_input(x, n);
      }
      held_ += n;
      submit(out);
    } else {
      if (!prev_pending_) throw error(errc::usage, name_ + ": read past a failed end");
      drain(out);
    }
  }

  // Starts the filled batch on the workers and emits the one before it (after waiting for it).
  void submit(sink& out) {
    batch& x = b_[fill_];
    if (flying_) {
      pool_->wait();
      flying_ = false;
    }
    const std::size_t items = g_.items(x.slots());
    const bool alone = !pool_ && (x.has_last || !x.error.empty());
    if (alone) {
      // A stream that fits one batch: no threads at all.
      for (std::size_t i = 0; i < items; ++i) run_item(x, i);
    } else {
      if (!pool_) pool_.emplace(workers_);
      pool_->start(items, [this, px = &x](std::size_t item) { run_item(*px, item); });
      flying_ = true;
    }
    next_index_ += x.full;
    fill_ ^= 1;
    batch& prev = b_[fill_];
    const bool had_prev = prev_pending_;
    prev_pending_ = !alone;
    if (had_prev) emit(prev, out);
    if (alone) emit(x, out);
    prev.reset(next_index_);
    fill_bytes_ = 0;
  }

  void drain(sink& out) {
    if (!prev_pending_) return;
    batch& x = b_[fill_ ^ 1];
    if (flying_) {
      pool_->wait();
      flying_ = false;
    }
    prev_pending_ = false;
    emit(x, out);
  }

  void run_item(batch& x, std::size_t item) {
    const std::size_t end = std::min(x.slots(), (item + 1) * g_.group);
    engine_.run(dec_, fk_, x, item * g_.group, end, g_.chunk, g_.slot);
  }

  void emit(batch& x, sink& out) {
    if (!dec_) {
      const std::size_t plain = x.full * g_.chunk + (x.has_last ? x.last_len : 0);
      const bytes_view v{x.buf.get(), x.full * g_.slot + (x.has_last ? x.last_len + g_.tag : 0)};
      held_ -= plain;
      out.write({&v, 1});
      return;
    }
    for (std::size_t s = 0; s < x.slots(); ++s)
      if (!x.ok[s])
        throw error(errc::authentication,
                    name_ + ": chunk " + std::to_string(x.first + s) +
                        " failed authentication (the file was modified, truncated, reordered, "
                        "or has data appended)");
    if (!x.error.empty()) throw error(errc::truncated, x.error);
    pieces_.clear();
    std::size_t bytes = 0;
    for (std::size_t s = 0; s < x.slots(); ++s) {
      const std::size_t len = s == x.full ? x.last_len : g_.chunk;
      bytes += s == x.full ? x.last_len + g_.tag : g_.slot;
      if (len != 0) pieces_.push_back({x.buf.get() + s * g_.slot, len});
    }
    held_ -= std::min<std::uint64_t>(held_, bytes);
    if (x.has_last) ended_ = true;
    out.write(pieces_);
  }

  const algorithm& a_;
  file_keys fk_;
  bool dec_;
  std::string name_;
  chunk_engine engine_;
  unsigned workers_;
  geometry g_;
  batch b_[2];
  std::optional<worker_pool> pool_;  // started with the second batch: small streams need none
  int fill_ = 0;                     // the batch being filled
  std::size_t fill_bytes_ = 0;
  bool flying_ = false;        // b_[fill_ ^ 1] is on the workers
  bool prev_pending_ = false;  // b_[fill_ ^ 1] is yet to be emitted
  std::uint64_t next_index_ = 0;
  std::uint64_t held_ = 0;  // input accepted whose output was not emitted yet
  bool input_done_ = false, finishing_ = false, ended_ = false, failed_ = false;
  std::vector<bytes_view> pieces_;
  collect_sink pending_;
};

}  // namespace detail

// ---- encryptor ------------------------------------------------------------------------------

encryptor::encryptor(const master_key& key, const options& opt) {
  const algorithm& a = stream_algorithm(opt.algorithm);
  if (opt.chunk_shift < min_chunk_shift || opt.chunk_shift > max_chunk_shift)
    throw error(errc::usage, "chunk size must be a power of two from 64 bytes to 1 MiB (shift " +
                                 std::to_string(min_chunk_shift) + " to " +
                                 std::to_string(max_chunk_shift) + "), got shift " +
                                 std::to_string(opt.chunk_shift));
  header h;
  h.algorithm_id = id_of(a.name);
  h.chunk_shift = static_cast<std::uint8_t>(opt.chunk_shift);
  if (opt.fixed_salt_for_tests.empty()) {
    random_bytes(h.salt.data(), h.salt.size());
  } else {
    if (opt.fixed_salt_for_tests.size() != salt_size)
      throw error(errc::usage, "the salt must be " + std::to_string(salt_size) + " bytes");
    std::memcpy(h.salt.data(), opt.fixed_salt_for_tests.data(), salt_size);
  }
  auto bytes = h.serialize();
  const file_keys fk = derive(key, bytes.data(), a);
  std::memcpy(bytes.data() + prefix_size, fk.check.data(), check_size);
  c_ = std::make_unique<detail::core>(a, fk, opt.chunk_shift, opt, false);
  c_->header = bytes;
}

encryptor::encryptor(encryptor&&) noexcept = default;
encryptor& encryptor::operator=(encryptor&&) noexcept = default;
encryptor::~encryptor() = default;

namespace {
detail::core& live(const std::unique_ptr<detail::core>& c) {
  if (!c) throw error(errc::usage, "the stream object was moved from");
  return *c;
}
}  // namespace

void encryptor::write(bytes_view plaintext, sink& out) {
  auto& c = live(c_);
  c.guard([&] {
    c.check_open("write");
    c.enc_write(plaintext, out);
  });
}
void encryptor::write_all(source& in, sink& out) {
  auto& c = live(c_);
  c.guard([&] {
    c.check_open("write");
    c.enc_write_all(in, out);
  });
}
void encryptor::finish(sink& out) {
  auto& c = live(c_);
  c.guard([&] {
    c.check_open("finish");
    c.enc_finish(out);
  });
}
bool encryptor::finished() const noexcept { return c_ && c_->finished(); }
const algorithm& encryptor::info() const noexcept { return c_->alg(); }
std::size_t encryptor::chunk_size() const noexcept { return c_ ? c_->chunk() : 0; }
std::uint64_t encryptor::write_bound(std::uint64_t n) const noexcept {
  return c_ ? c_->write_bound(n) : 0;
}
std::uint64_t encryptor::finish_bound() const noexcept { return c_ ? c_->finish_bound() : 0; }

// ---- decryptor ------------------------------------------------------------------------------

decryptor::decryptor(const master_key& key, const options& opt) : key_(key), opt_(opt) {}
decryptor::decryptor(decryptor&&) noexcept = default;
decryptor& decryptor::operator=(decryptor&&) noexcept = default;
decryptor::~decryptor() = default;

void decryptor::open_header(sink*) {
  const algorithm* a = nullptr;
  const header h = parse_header(hdr_.data(), hdr_len_, opt_.name, &a);
  const file_keys fk = derive(key_, hdr_.data(), *a);
  if (!ct_equal(fk.check.data(), h.check.data(), check_size))
    throw error(errc::wrong_key, "wrong key for " + opt_.name +
                                     " (or its header was modified): the key check failed, "
                                     "nothing was decrypted");
  c_ = std::make_unique<detail::core>(*a, fk, h.chunk_shift, opt_, true);
  secure_wipe(key_.bytes.data(), key_.bytes.size());  // no longer needed
}

void decryptor::write(bytes_view ciphertext, sink& out) {
  if (!c_) {
    if (hdr_len_ == SIZE_MAX) throw error(errc::usage, opt_.name + ": the stream already failed");
    const std::size_t take = std::min(ciphertext.size(), header_size - hdr_len_);
    std::memcpy(hdr_.data() + hdr_len_, ciphertext.data(), take);
    hdr_len_ += take;
    ciphertext = ciphertext.subspan(take);
    // A wrong magic is reported as soon as it is seen.
    if (hdr_len_ < header_size) {
      const std::size_t m = std::min(hdr_len_, magic.size());
      if (std::memcmp(hdr_.data(), magic.data(), m) != 0) {
        hdr_len_ = SIZE_MAX;
        throw error(errc::not_a_stream, opt_.name + " is not an lwc encrypted file (no lwc header)");
      }
      return;
    }
    try {
      open_header(&out);
    } catch (...) {
      hdr_len_ = SIZE_MAX;
      throw;
    }
  }
  c_->guard([&] {
    c_->check_open("write");
    c_->dec_write(ciphertext, out);
  });
}

void decryptor::finish(sink& out) {
  if (!c_) {
    if (hdr_len_ == SIZE_MAX) throw error(errc::usage, opt_.name + ": the stream already failed");
    const std::size_t n = hdr_len_;
    hdr_len_ = SIZE_MAX;
    (void)parse_header(hdr_.data(), n, opt_.name, nullptr);  // throws: n < header_size
    throw error(errc::truncated, opt_.name + " is truncated: its header is incomplete");
  }
  c_->guard([&] {
    c_->check_open("finish");
    c_->dec_finish(out);
  });
}

std::size_t decryptor::read(source& in, bytes_span out) {
  if (!c_) {
    if (hdr_len_ == SIZE_MAX) throw error(errc::usage, opt_.name + ": the stream already failed");
    try {
      hdr_len_ += detail::read_full(in, hdr_.data() + hdr_len_, header_size - hdr_len_);
      open_header(nullptr);
    } catch (...) {
      hdr_len_ = SIZE_MAX;
      throw;
    }
  }
  return c_->guard([&] { return c_->dec_read(in, out); });
}

void decryptor::read_all(source& in, sink& out) {
  if (!c_) {
    if (hdr_len_ == SIZE_MAX) throw error(errc::usage, opt_.name + ": the stream already failed");
    try {
      hdr_len_ += detail::read_full(in, hdr_.data() + hdr_len_, header_size - hdr_len_);
      open_header(nullptr);
    } catch (...) {
      hdr_len_ = SIZE_MAX;
      throw;
    }
  }
  c_->guard([&] { c_->dec_read_all(in, out); });
}

bool decryptor::finished() const noexcept { return c_ && c_->finished(); }
const algorithm* decryptor::info() const noexcept { return c_ ? &c_->alg() : nullptr; }
std::size_t decryptor::chunk_size() const noexcept { return c_ ? c_->chunk() : 0; }
std::uint64_t decryptor::write_bound(std::uint64_t n) const noexcept {
  if (!c_) return n > header_size - hdr_len_ ? n - (header_size - hdr_len_) : 0;
  return c_->write_bound(n);
}
std::uint64_t decryptor::finish_bound() const noexcept { return c_ ? c_->finish_bound() : 0; }

// ---- whole streams --------------------------------------------------------------------------

void encrypt(const master_key& key, source& in, sink& out, const options& opt) {
  encryptor e(key, opt);
  e.write_all(in, out);
}

void decrypt(const master_key& key, source& in, sink& out, const options& opt) {
  decryptor d(key, opt);
  d.read_all(in, out);
}

}  // namespace lwc::stream
