#include "stream.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include <lwc/ascon/hash.hpp>
#include <lwc/common/secure.hpp>

#include "pool.hpp"
#include "util.hpp"

#if defined(LWC_CLI_HAVE_BATCH)
#include <lwc/batch.hpp>
#endif

namespace lwc::cli::stream {

std::uint8_t id_of(std::string_view name) {
  for (const auto& e : algorithm_ids)
    if (e.name == name) return e.id;
  return 0;
}

const algorithm* algorithm_of(std::uint8_t id) {
  for (const auto& e : algorithm_ids)
    if (e.id == id) return find_algorithm(e.name);
  return nullptr;
}

std::string unsuitable(const algorithm& a) {
  const std::string name(a.name);
  if (!a.is_aead()) return name + " is not an AEAD (see 'lwc list')";
  if (a.nonce_size < min_nonce_size || a.nonce_size > max_nonce_size)
    return name + " has a " + std::to_string(a.nonce_size) +
           "-byte nonce; the lwc stream format needs 16 to 64 bytes";
  if (a.tag_size < min_tag_size)
    return name + " has a " + std::to_string(a.tag_size) +
           "-byte tag; the lwc stream format needs at least 16 bytes";
  if (id_of(a.name) == 0) return name + " has no identifier in the lwc stream format yet";
  return {};
}

namespace {

// The per-file secrets: the key check stored in the header, the AEAD key and nonce prefix.
struct file_keys {
  std::array<std::uint8_t, check_size> check{};
  std::vector<std::uint8_t> key, nonce_prefix;
  file_keys() = default;
  file_keys(const file_keys&) = delete;
  file_keys& operator=(const file_keys&) = delete;
  ~file_keys() {
    secure_wipe(check.data(), check.size());
    secure_wipe(key.data(), key.size());
    secure_wipe(nonce_prefix.data(), nonce_prefix.size());
  }
};

void derive(const master_key& mk, const std::uint8_t* prefix, const algorithm& a, file_keys& fk) {
  ascon::cxof128 xof(reinterpret_cast<const std::uint8_t*>(kdf_customization.data()),
                     kdf_customization.size());
  xof.absorb(mk.bytes.data(), mk.bytes.size());
  xof.absorb(prefix, prefix_size);
  fk.key.resize(a.key_size);
  fk.nonce_prefix.resize(a.nonce_size - counter_and_flag_size);
  xof.squeeze(fk.check.data(), fk.check.size());
  xof.squeeze(fk.key.data(), fk.key.size());
  xof.squeeze(fk.nonce_prefix.data(), fk.nonce_prefix.size());
}

struct chunk_nonce {
  std::array<std::uint8_t, max_nonce_size> bytes{};
  chunk_nonce(const file_keys& fk, std::uint64_t index, bool last) {
    const std::size_t p = fk.nonce_prefix.size();
    std::memcpy(bytes.data(), fk.nonce_prefix.data(), p);
    for (int i = 0; i < 8; ++i) bytes[p + 7 - static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(index >> (8 * i));
    bytes[p + 8] = last ? 1 : 0;
  }
};

// Chunks travel in batches: one is read or written by the I/O thread while the workers seal
// or open the other. Slot i of a batch holds chunk i followed by its tag, so a sealed batch
// is one contiguous run of the output.
struct batch {
  std::unique_ptr<std::uint8_t[]> buf;
  std::size_t cap = 0;
  std::uint64_t first = 0;     // index of the first chunk
  std::size_t full = 0;        // chunks of chunk_size bytes (never the last chunk)
  bool has_last = false;       // the batch ends with the last chunk ...
  std::size_t last_len = 0;    // ... of this many plaintext bytes
  std::vector<std::uint8_t> ok;  // decryption: per slot
  std::string error;           // decryption: a format error found when reading
  std::size_t slots() const { return full + (has_last ? 1 : 0); }
  void allocate(std::size_t bytes) {
    buf = std::make_unique<std::uint8_t[]>(bytes);
    cap = bytes;
  }
  batch() = default;
  batch(const batch&) = delete;
  batch& operator=(const batch&) = delete;
  ~batch() {
    if (buf) secure_wipe(buf.get(), cap);
  }
};

// Seals or opens the chunks of a batch: one AEAD call per chunk through the registry, or,
// when lwc is built with the multi-message engine (src/batch) and it runs this algorithm, one
// engine call per work item, so that its SIMD lanes take several chunks at once. Both give
// the same bytes (the engine is tested against the single-message code, and the CLI tests
// check the files against an independent implementation).
class chunk_engine {
 public:
  explicit chunk_engine(const algorithm& a) : a_(a) {
#if defined(LWC_CLI_HAVE_BATCH)
    if (lwc::batch::supports(a.name))
      lanes_ = std::max<std::size_t>(1, lwc::batch::lanes(lwc::batch::default_backend()));
#endif
  }
  bool multi() const { return lanes_ != 0; }
  std::size_t lanes() const { return std::max<std::size_t>(1, lanes_); }

  void seal(const file_keys& fk, batch& x, std::size_t begin, std::size_t end,
            std::size_t chunk, std::size_t slot) const;
  void open(const file_keys& fk, batch& x, std::size_t begin, std::size_t end,
            std::size_t chunk, std::size_t slot) const;

 private:
  const algorithm& a_;
  std::size_t lanes_ = 0;  // 0: one call per chunk
};

struct geometry {
  std::size_t chunk, tag, slot, slots, group;
  geometry(const algorithm& a, unsigned shift, unsigned threads, const chunk_engine& engine) {
    chunk = std::size_t{1} << shift;
    tag = a.tag_size;
    slot = chunk + tag;
    const std::size_t workers = std::max(threads, 1u);
    // About 512 KiB per batch (it stays in cache between the read and the sealing: measured
    // 5 % less CPU time than 2 MiB), at least two slots per worker and lane, at most 8 MiB.
    const std::size_t want =
        std::max<std::size_t>((512u << 10) / chunk, 2 * workers * engine.lanes());
    slots = std::clamp<std::size_t>(want, 1, std::max<std::size_t>(1, (8u << 20) / chunk));
    // One call per chunk: a work item covers at least 64 KiB so that tiny chunks do not cost
    // a dispatch each. The engine: one item per worker, to fill its lanes.
    group = engine.multi() ? (slots + workers - 1) / workers
                           : std::max<std::size_t>(1, (64u << 10) / chunk);
  }
  std::size_t items(std::size_t n) const { return (n + group - 1) / group; }
};

void chunk_engine::seal(const file_keys& fk, batch& x, std::size_t begin, std::size_t end,
                        std::size_t chunk, std::size_t slot) const {
  const std::size_t tag = a_.tag_size;
#if defined(LWC_CLI_HAVE_BATCH)
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
      std::memcpy(n, chunk_nonce(fk, x.first + s, last).bytes.data(), ns);
      jobs.push_back({fk.key, {n, ns}, {}, {p, len}, {p, len}, {p + len, tag}, {}});
    }
    lwc::batch::options opt;
    opt.threads = 1;  // the pool already runs one item per worker
    lwc::batch::encrypt(a_.name, jobs, tag, opt);
    return;
  }
#endif
  for (std::size_t s = begin; s < end; ++s) {
    const bool last = s == x.full;
    const std::size_t len = last ? x.last_len : chunk;
    std::uint8_t* p = x.buf.get() + s * slot;
    const chunk_nonce nonce(fk, x.first + s, last);
    a_.encrypt(fk.key.data(), nullptr, nonce.bytes.data(), nullptr, 0, p, len, p, p + len, tag);
  }
}

void chunk_engine::open(const file_keys& fk, batch& x, std::size_t begin, std::size_t end,
                        std::size_t chunk, std::size_t slot) const {
  const std::size_t tag = a_.tag_size;
#if defined(LWC_CLI_HAVE_BATCH)
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
      std::memcpy(n, chunk_nonce(fk, x.first + s, last).bytes.data(), ns);
      jobs.push_back({fk.key, {n, ns}, {}, {p, len}, {p, len}, {p + len, tag}, {}});
    }
    lwc::batch::options opt;
    opt.threads = 1;
    (void)lwc::batch::decrypt(a_.name, jobs, {x.ok.data() + begin, end - begin}, tag, opt);
    return;
  }
#endif
  for (std::size_t s = begin; s < end; ++s) {
    const bool last = s == x.full;
    const std::size_t len = last ? x.last_len : chunk;
    std::uint8_t* p = x.buf.get() + s * slot;
    const chunk_nonce nonce(fk, x.first + s, last);
    x.ok[s] = a_.decrypt(fk.key.data(), nullptr, nonce.bytes.data(), nullptr, 0, p, len, p + len,
                         tag, p);
  }
}

// Runs read -> seal/open -> write with two batches in flight. read(b) fills a batch and
// returns false when it holds the end of the input; work(b) returns the number of items and
// the function that runs one; write(b) checks and emits.
template <class Read, class Work, class Write>
void pipeline(worker_pool& pool, batch (&b)[2], Read read, Work work, Write write) {
  struct waiter {
    worker_pool& pool;
    bool armed = true;
    ~waiter() {
      if (!armed) return;
      try {
        pool.wait();
      } catch (...) {  // already failing; the first error is the one reported
      }
    }
  } guard{pool};
  bool more = read(b[0]);
  auto [n0, f0] = work(b[0]);
  pool.start(n0, f0);
  for (int cur = 0;; cur ^= 1) {
    batch& next = b[cur ^ 1];
    const bool this_more = more;
    if (this_more) more = read(next);
    pool.wait();
    if (this_more) {
      auto [n, f] = work(next);
      pool.start(n, f);
    }
    write(b[cur]);
    if (!this_more) break;
  }
  guard.armed = false;
  pool.wait();
}

}  // namespace

void encrypt(const master_key& key, const encrypt_options& opt, int in_fd, std::string_view name,
             sink& out, progress& prog) {
  const algorithm& a = *opt.alg;
  if (const std::string why = unsuitable(a); !why.empty()) throw failure(why, exit_usage);
  if (opt.chunk_shift < min_chunk_shift || opt.chunk_shift > max_chunk_shift)
    throw failure("chunk size must be a power of two from 64 bytes to 1 MiB", exit_usage);

  std::array<std::uint8_t, header_size> header{};
  std::memcpy(header.data(), magic.data(), magic.size());
  header[8] = format_version;
  header[9] = id_of(a.name);
  header[10] = static_cast<std::uint8_t>(opt.chunk_shift);
  header[11] = 0;
  random_bytes(header.data() + 12, salt_size);
  file_keys fk;
  derive(key, header.data(), a, fk);
  std::memcpy(header.data() + prefix_size, fk.check.data(), check_size);
  const iovec hv{header.data(), header.size()};
  out.write({&hv, 1});

  const chunk_engine engine(a);
  const geometry g(a, opt.chunk_shift, opt.threads, engine);
  worker_pool pool(opt.threads);
  batch b[2];
  for (auto& x : b) x.allocate(g.slots * g.slot);
  std::uint64_t next_index = 0;

  const auto read = [&](batch& x) {
    x.first = next_index;
    x.full = 0;
    x.has_last = false;
    for (std::size_t s = 0; s < g.slots; ++s) {
      const std::size_t n = read_full(in_fd, x.buf.get() + s * g.slot, g.chunk, name);
      if (n < g.chunk) {
        x.has_last = true;
        x.last_len = n;
        break;
      }
      ++x.full;
    }
    next_index += x.full;
    return !x.has_last;
  };
  const auto work = [&](batch& x) {
    return std::pair{g.items(x.slots()),
                     std::function<void(std::size_t)>([&, px = &x](std::size_t item) {
                       const std::size_t end = std::min(px->slots(), (item + 1) * g.group);
                       engine.seal(fk, *px, item * g.group, end, g.chunk, g.slot);
                     })};
  };
  const auto write = [&](batch& x) {
    const std::size_t bytes = x.full * g.slot + (x.has_last ? x.last_len + g.tag : 0);
    const iovec v{x.buf.get(), bytes};
    out.write({&v, 1});
    prog.add(x.full * g.chunk + (x.has_last ? x.last_len : 0));
  };
  pipeline(pool, b, read, work, write);
}

void decrypt(const master_key& key, unsigned threads, int in_fd, std::string_view name, sink& out,
             progress& prog) {
  const std::string file = describe(name);
  std::array<std::uint8_t, header_size> header{};
  const std::size_t hn = read_full(in_fd, header.data(), header.size(), name);
  if (hn == 0) throw failure(file + " is empty, not an lwc encrypted file");
  prog.add(hn);
  if (hn < magic.size() || !std::equal(magic.begin(), magic.end(), header.begin()))
    throw failure(file + " is not an lwc encrypted file (no lwc header)");
  if (hn < header_size) throw failure(file + " is truncated: its header is incomplete");
  if (header[8] != format_version)
    throw failure(file + " uses stream format version " + std::to_string(header[8]) +
                  "; this lwc reads version " + std::to_string(format_version));
  const algorithm* alg = algorithm_of(header[9]);
  if (alg == nullptr)
    throw failure(file + " names algorithm id " + std::to_string(header[9]) +
                  ", which this lwc does not know (see 'lwc list')");
  if (header[10] < min_chunk_shift || header[10] > max_chunk_shift || header[11] != 0)
    throw failure(file + " has an invalid header");
  const algorithm& a = *alg;
  if (const std::string why = unsuitable(a); !why.empty()) throw failure(file + ": " + why);
  file_keys fk;
  derive(key, header.data(), a, fk);
  if (!ct_equal(fk.check.data(), header.data() + prefix_size, check_size))
    throw failure("wrong key for " + file +
                  " (or its header was modified): the key check failed, nothing was decrypted");

  const chunk_engine engine(a);
  const geometry g(a, header[10], threads, engine);
  worker_pool pool(threads);
  batch b[2];
  for (auto& x : b) {
    x.allocate(g.slots * g.slot);
    x.ok.resize(g.slots);
  }
  std::uint64_t next_index = 0;

  const auto read = [&](batch& x) {
    x.first = next_index;
    x.full = 0;
    x.has_last = false;
    x.error.clear();
    const std::size_t cap = g.slots * g.slot;
    const std::size_t n = read_full(in_fd, x.buf.get(), cap, name);
    prog.add(n);  // progress counts input bytes: the total is the encrypted file's size
    x.full = n / g.slot;
    const std::size_t rest = n % g.slot;
    next_index += x.full;
    if (n == cap) return true;
    if (rest == 0) {
      x.error = next_index == 0 ? file + " is truncated: no chunk follows its header"
                                : file + " is truncated: it ends after " +
                                      std::to_string(next_index) + " chunks, without its last chunk";
    } else if (rest < g.tag) {
      x.error = file + " is truncated: its last chunk is shorter than a tag";
    } else {
      x.has_last = true;
      x.last_len = rest - g.tag;
    }
    return false;
  };
  const auto work = [&](batch& x) {
    return std::pair{g.items(x.slots()),
                     std::function<void(std::size_t)>([&, px = &x](std::size_t item) {
                       const std::size_t end = std::min(px->slots(), (item + 1) * g.group);
                       engine.open(fk, *px, item * g.group, end, g.chunk, g.slot);
                     })};
  };
  std::vector<iovec> pieces;
  const auto write = [&](batch& x) {
    for (std::size_t s = 0; s < x.slots(); ++s)
      if (!x.ok[s])
        throw failure(file + ": chunk " + std::to_string(x.first + s) +
                      " failed authentication (the file was modified, truncated, reordered, "
                      "or has data appended)");
    if (!x.error.empty()) throw failure(x.error);
    pieces.clear();
    for (std::size_t s = 0; s < x.slots(); ++s) {
      const std::size_t len = s == x.full ? x.last_len : g.chunk;
      if (len != 0) pieces.push_back({x.buf.get() + s * g.slot, len});
    }
    out.write(pieces);
  };
  pipeline(pool, b, read, work, write);
}

}  // namespace lwc::cli::stream
