// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc hash: sha256sum/b3sum-style digests of files with any registered hash or XOF, and
// checking of such lists (-c). Files are hashed on worker threads, results printed in the
// order given; each file is read in fixed-size pieces, so memory does not grow with it, and
// with the batch engine small files are hashed in groups, side by side in its SIMD lanes.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include <lwc/registry.hpp>
#ifdef LWC_CLI_HAVE_BATCH
#include <lwc/batch.hpp>
#endif

#include "../src/threads/pool.hpp"
#include "commands.hpp"
#include "util.hpp"
#include "progress.hpp"

namespace lwc::cli {

namespace {

constexpr std::size_t read_size = 256u << 10;
constexpr std::size_t max_length = 65536;

struct job {
  std::string name;          // as given, "-" for standard input
  const algorithm* alg = nullptr;
  std::size_t length = 0;
  std::string expected;      // check mode: the hex digest from the list
};

struct result {
  bool ok = false;           // hashed without error
  std::string hex;
  std::string error;
};

// The rest of a file whose first `n` bytes were already read into h.
void stream_rest(const input_file& in, const job& j, hasher& h, std::size_t n, std::uint8_t* buf,
                 std::size_t buf_size, progress& prog) {
  while (n == buf_size) {
    n = read_full(in.fd.get(), buf, read_size, j.name);
    h.update({buf, n});
    prog.add(n);
    buf_size = read_size;
  }
}

result finish(hasher& h, const job& j) {
  std::vector<std::uint8_t> out(j.length);
  h.squeeze(out);
  return {true, to_hex(out.data(), out.size()), {}};
}

bytes_view customization_of(const job& j, const std::string& custom) {
  return j.alg->kind == algorithm_kind::cxof
             ? bytes_view(reinterpret_cast<const std::uint8_t*>(custom.data()), custom.size())
             : bytes_view();
}

// Runs `hash` (which reads and hashes job j) and turns its errors into the result's message.
template <class Hash>
result guarded(const job& j, Hash hash) {
  try {
    return hash();
  } catch (const failure& e) {
    return {false, {}, e.what()};
  } catch (const std::exception& e) {
    return {false, {}, describe(j.name) + ": " + e.what()};
  }
}

result hash_one(const job& j, const std::string& custom, std::uint8_t* buf, progress& prog) {
  return guarded(j, [&] {
    input_file in = open_input(j.name);
    hasher h(*j.alg, {}, customization_of(j, custom));
    const std::size_t n = read_full(in.fd.get(), buf, read_size, j.name);
    h.update({buf, n});
    prog.add(n);
    stream_rest(in, j, h, n, buf, read_size, prog);
    return finish(h, j);
  });
}

#ifdef LWC_CLI_HAVE_BATCH
// Small files are read whole and hashed together by the batch engine, in its SIMD lanes: for
// many small files the hashing then costs a fraction of the system calls that read them.
constexpr std::size_t small_file = 16u << 10;    // bytes; larger files are streamed
constexpr std::size_t small_group = 64;          // files per engine call, at most
constexpr std::size_t small_bytes = 256u << 10;  // a group is hashed once it holds this much

// Small files of one worker waiting for their engine call, all of one algorithm and length.
class small_files {
 public:
  // Room for small_bytes plus one more file read of small_file + 1 bytes: no more memory per
  // worker than its 256 KiB read buffer.
  small_files() : arena_(std::make_unique<std::uint8_t[]>(small_bytes + small_file + 1)) {}

  bool accepts(const job& j) const {
    // CXOFs and MACs/PRFs take their customization string or key one file at a time.
    return j.alg->kind != algorithm_kind::cxof && !j.alg->is_keyed() &&
           (count() == 0 || (j.alg == alg_ && j.length == length_));
  }
  bool full() const { return count() == small_group || offsets_.back() >= small_bytes; }
  std::size_t count() const { return index_.size(); }

  // Reads job i. Returns true when the file was small and now waits in the group; otherwise
  // it was hashed by streaming (or failed) and *r holds its result.
  bool add(const job& j, std::size_t i, progress& prog, std::uint8_t* buf, result* r) {
    bool kept = false;
    *r = guarded(j, [&] {
      input_file in = open_input(j.name);
      std::uint8_t* at = arena_.get() + offsets_.back();
      const std::size_t n = read_full(in.fd.get(), at, small_file + 1, j.name);
      prog.add(n);
      if (n <= small_file) {
        alg_ = j.alg;
        length_ = j.length;
        offsets_.push_back(offsets_.back() + n);
        index_.push_back(i);
        kept = true;
        return result{};
      }
      hasher h(*j.alg);
      h.update({at, n});
      stream_rest(in, j, h, n, buf, small_file + 1, prog);
      return finish(h, j);
    });
    return kept;
  }

  // Hashes the waiting files in one engine call and hands each result to publish(i, result).
  template <class Publish>
  void flush(Publish publish) {
    if (count() == 0) return;
    std::vector<std::uint8_t> digests(count() * length_);
    lwc::jobs::packed_hash_jobs group;
    group.count = count();
    group.in = lwc::jobs::column::with_offsets<std::size_t>({arena_.get(), offsets_.back()},
                                                            offsets_);
    group.out = lwc::jobs::out_column::fixed(digests, length_);
    lwc::batch::options one_thread;
    one_thread.threads = 1;  // the workers already run in parallel
    lwc::batch::hash(*alg_, group, one_thread);
    for (std::size_t k = 0; k < count(); ++k)
      publish(index_[k], result{true, to_hex(digests.data() + k * length_, length_), {}});
    offsets_.assign(1, 0);
    index_.clear();
  }

 private:
  std::unique_ptr<std::uint8_t[]> arena_;
  std::vector<std::size_t> offsets_{0};
  std::vector<std::size_t> index_;  // the jobs waiting, in arena order
  const algorithm* alg_ = nullptr;
  std::size_t length_ = 0;
};
#endif

// coreutils' convention: a name with a backslash or newline is written escaped, and the line
// starts with a backslash so that a checker knows to unescape it.
bool needs_escape(const std::string& name) {
  return name.find_first_of("\\\n\r") != std::string::npos;
}
std::string escape(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (c == '\\') s += "\\\\";
    else if (c == '\n') s += "\\n";
    else if (c == '\r') s += "\\r";
    else s += c;
  }
  return s;
}
bool unescape(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '\\') {
      out += in[i];
      continue;
    }
    if (++i == in.size()) return false;
    if (in[i] == '\\') out += '\\';
    else if (in[i] == 'n') out += '\n';
    else if (in[i] == 'r') out += '\r';
    else return false;
  }
  return true;
}

// Hashes every job on `threads` workers and hands each result to `emit` in job order.
// Workers hash; this thread prints in list order, so the first lines appear while later
// files are still being read. With the batch engine, a worker keeps small files until it has
// a group of them (or the list ends) and hashes the group in one engine call.
template <class Emit>
void hash_all(const std::vector<job>& jobs, const std::string& custom, unsigned threads,
              progress& prog, Emit emit) {
  if (jobs.empty()) return;
  const unsigned n = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, jobs.size()));
  std::vector<result> results(jobs.size());
  std::vector<char> ready(jobs.size(), 0);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  const auto publish = [&](std::size_t i, result r) {
    std::lock_guard lock(mu);
    results[i] = std::move(r);
    ready[i] = 1;
    cv.notify_all();
  };
  const auto work = [&] {
    auto buf = std::make_unique<std::uint8_t[]>(read_size);
#ifdef LWC_CLI_HAVE_BATCH
    small_files group;
    for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();) {
      const job& j = jobs[i];
      if (!group.accepts(j)) {
        group.flush(publish);
        if (!group.accepts(j)) {
          publish(i, hash_one(j, custom, buf.get(), prog));
          continue;
        }
      }
      result r;
      if (!group.add(j, i, prog, buf.get(), &r)) publish(i, std::move(r));
      if (group.full()) group.flush(publish);
    }
    group.flush(publish);
#else
    for (std::size_t i; (i = next.fetch_add(1)) < jobs.size();)
      publish(i, hash_one(jobs[i], custom, buf.get(), prog));
#endif
  };
  // The library's pool hashes; should it have no thread to give, this thread hashes
  // everything first and prints after.
  lwc::threads::task_group workers(work);
  const bool helped = workers.offer(n) != 0;
  if (!helped) workers.join();
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    result r;
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return ready[i] != 0; });
      r = std::move(results[i]);
    }
    emit(jobs[i], r);
  }
  if (helped) workers.join(false);
}

const algorithm& hash_algorithm(const std::string& name) {
  const algorithm* a = find_algorithm(name);
  if (a == nullptr)
    throw failure("unknown algorithm '" + name + "' (see 'lwc list')", exit_usage);
  if (a->kind != algorithm_kind::hash && a->kind != algorithm_kind::xof &&
      a->kind != algorithm_kind::cxof)
    throw failure(std::string(a->name) + " is a " + std::string(to_string(a->kind)) +
                      "; lwc hash takes an unkeyed hash or XOF (see 'lwc list')",
                  exit_usage);
  return *a;
}

std::size_t output_length(const algorithm& a, const std::optional<std::size_t>& length) {
  if (!length) return a.output_size;
  if (a.kind == algorithm_kind::hash) {
    if (*length != a.output_size)
      throw failure(std::string(a.name) + " has a fixed " + std::to_string(a.output_size) +
                        "-byte output; -l is for XOFs",
                    exit_usage);
    return *length;
  }
  if (*length == 0 || *length > max_length)
    throw failure("-l must be from 1 to " + std::to_string(max_length) + " bytes", exit_usage);
  return *length;
}

struct out_lines {
  progress& prog;
  bool tty = is_terminal(STDOUT_FILENO);
  void put(const std::string& line) {
    if (tty) prog.clear();
    std::fwrite(line.data(), 1, line.size(), stdout);
    if (tty) std::fflush(stdout);
  }
};

// The bytes to hash, for the progress line only. Taken with stat(), never by opening: an
// input is opened once, when its turn comes, since a FIFO or a device gives its data to one
// open only (a second open of a FIFO waits for a writer that never comes).
std::optional<std::uint64_t> total_size(const std::vector<job>& jobs, bool progress_wanted) {
  if (!progress_wanted || !is_terminal(STDERR_FILENO)) return std::nullopt;
  std::uint64_t total = 0;
  for (const auto& j : jobs) {
    if (j.name == "-") return std::nullopt;
    struct stat st {};
    if (::stat(j.name.c_str(), &st) != 0) continue;  // reported when the file's turn comes
    if (!S_ISREG(st.st_mode)) return std::nullopt;
    total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

int finish_output() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "lwc: cannot write standard output\n");
    return exit_failure;
  }
  return 0;
}

int compute(const hash_options& opt, const algorithm& a, std::size_t length) {
  std::vector<job> jobs;
  for (const auto& f : opt.files.empty() ? std::vector<std::string>{"-"} : opt.files)
    jobs.push_back({f, &a, length, {}});
  progress prog("hashing", total_size(jobs, !opt.no_progress), !opt.no_progress);
  out_lines out{prog};
  int failures = 0;
  hash_all(jobs, opt.customization, opt.threads, prog, [&](const job& j, const result& r) {
    if (!r.ok) {
      prog.clear();
      std::fflush(stdout);
      std::fprintf(stderr, "lwc: %s\n", r.error.c_str());
      ++failures;
      return;
    }
    const bool esc = needs_escape(j.name);
    const std::string name = esc ? escape(j.name) : j.name;
    if (opt.tag)
      out.put((esc ? "\\" : "") + std::string(a.name) + " (" + name + ") = " + r.hex + "\n");
    else
      out.put((esc ? "\\" : "") + r.hex + "  " + name + "\n");
  });
  prog.finish();
  const int rc = finish_output();
  return failures != 0 ? exit_failure : rc;
}

// One line of a checksum list, in GNU ("HEX  NAME", "HEX *NAME") or BSD ("ALG (NAME) = HEX")
// form. Returns an empty string when it is well formed, else why not.
std::string parse_line(std::string_view line, const hash_options& opt, job& j) {
  const bool escaped = !line.empty() && line.front() == '\\';
  if (escaped) line.remove_prefix(1);
  std::string_view raw_name;
  const algorithm* a = nullptr;
  const std::size_t paren = line.find(" (");
  const algorithm* tagged = paren == std::string_view::npos ? nullptr : find_algorithm(line.substr(0, paren));
  if (tagged != nullptr) {
    const std::size_t close = line.rfind(") = ");
    if (close == std::string_view::npos || close < paren + 2) return "improperly formatted line";
    raw_name = line.substr(paren + 2, close - paren - 2);
    j.expected = std::string(line.substr(close + 4));
    a = tagged;
    if (opt.algorithm_given && a->name != opt.algorithm)
      return "the line names " + std::string(a->name) + " but -a says " + opt.algorithm;
  } else {
    const std::size_t sp = line.find(' ');
    if (sp == std::string_view::npos || sp + 1 >= line.size() ||
        (line[sp + 1] != ' ' && line[sp + 1] != '*'))
      return "improperly formatted line";
    j.expected = std::string(line.substr(0, sp));
    raw_name = line.substr(sp + 2);
    a = find_algorithm(opt.algorithm);
  }
  if (raw_name.empty()) return "improperly formatted line";
  if (escaped) {
    if (!unescape(raw_name, j.name)) return "improperly formatted line (bad escape)";
  } else {
    j.name = std::string(raw_name);
  }
  if (a->kind != algorithm_kind::hash && a->kind != algorithm_kind::xof &&
      a->kind != algorithm_kind::cxof)
    return std::string(a->name) + " is not an unkeyed hash or XOF";
  j.alg = a;
  j.length = output_length(*a, opt.length);
  std::vector<std::uint8_t> bytes;
  if (!from_hex(j.expected, bytes)) return "improperly formatted line (digest is not hex)";
  if (bytes.size() != j.length)
    return "the digest has " + std::to_string(bytes.size()) + " bytes, " + std::string(a->name) +
           " gives " + std::to_string(j.length) + (a->kind == algorithm_kind::hash ? "" : " (use -l)");
  std::transform(j.expected.begin(), j.expected.end(), j.expected.begin(),
                 [](char c) { return static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c); });
  return {};
}

// The lines of a checksum list, read in pieces: memory stays bounded whatever the list holds.
// A line longer than max_line is not kept; it is reported as too long and skipped.
class list_reader {
 public:
  // The longest digest (max_length bytes in hex), a name of PATH_MAX bytes with every byte
  // escaped, and room for the algorithm's name and the separators.
  static constexpr std::size_t max_line = 2 * max_length + 2 * 4096 + 256;

  list_reader(int fd, std::string_view name) : fd_(fd), name_(name), buf_(read_size) {}

  // The next line without its '\n', or false at the end of the list. *too_long tells that the
  // line was longer than max_line (the line returned is then empty).
  bool next(std::string& line, bool* too_long) {
    line.clear();
    *too_long = false;
    for (;;) {
      if (at_ == end_) {
        if (eof_) return !line.empty() || *too_long;
        end_ = read_full(fd_, buf_.data(), buf_.size(), name_);
        at_ = 0;
        eof_ = end_ < buf_.size();
        if (end_ == 0) return !line.empty() || *too_long;
      }
      const auto* first = reinterpret_cast<const char*>(buf_.data()) + at_;
      const auto* nl = static_cast<const char*>(std::memchr(first, '\n', end_ - at_));
      const std::size_t n = nl != nullptr ? static_cast<std::size_t>(nl - first) : end_ - at_;
      if (!*too_long && line.size() + n <= max_line) {
        line.append(first, n);
      } else {
        *too_long = true;
        line.clear();
      }
      at_ += n;
      if (nl != nullptr) {
        ++at_;
        return true;
      }
    }
  }

 private:
  int fd_;
  std::string_view name_;
  std::vector<std::uint8_t> buf_;
  std::size_t at_ = 0, end_ = 0;
  bool eof_ = false;
};

// A name in a list must name one file, and be safe to print: a NUL would cut it short (the
// file checked would not be the one listed), and control characters written to a terminal
// are commands. Newlines, carriage returns and backslashes are written escaped (\n, \r, \\)
// as coreutils does; tab is a plain character.
bool has_control_bytes(std::string_view line) {
  return std::any_of(line.begin(), line.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return (b < 0x20 && b != '\t') || b == 0x7f;
  });
}

int check(const hash_options& opt) {
  std::vector<job> jobs;
  int bad_lines = 0;
  for (const auto& list : opt.files.empty() ? std::vector<std::string>{"-"} : opt.files) {
    std::size_t lineno = 0, good = 0;
    const auto bad_line = [&](const std::string& why) {
      std::fprintf(stderr, "lwc: %s:%zu: %s\n", list.c_str(), lineno, why.c_str());
      ++bad_lines;
    };
    try {
      input_file in = open_input(list);
      list_reader lines(in.fd.get(), list);
      std::string text;
      bool too_long = false;
      while (lines.next(text, &too_long)) {
        ++lineno;
        if (too_long) {
          bad_line("improperly formatted line (longer than " +
                   std::to_string(list_reader::max_line) + " bytes)");
          continue;
        }
        std::string_view line(text);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        if (has_control_bytes(line)) {
          bad_line("improperly formatted line (a NUL or control character)");
          continue;
        }
        job j;
        const std::string why = parse_line(line, opt, j);
        if (!why.empty()) {
          bad_line(why);
          continue;
        }
        ++good;
        jobs.push_back(std::move(j));
      }
    } catch (const failure& e) {
      std::fprintf(stderr, "lwc: %s\n", e.what());
      ++bad_lines;
      continue;
    }
    if (good == 0) {
      std::fprintf(stderr, "lwc: %s: no properly formatted checksum lines found\n",
                   describe(list).c_str());
      ++bad_lines;
    }
  }
  progress prog("checking", total_size(jobs, !opt.no_progress), !opt.no_progress);
  out_lines out{prog};
  int mismatches = 0, unreadable = 0;
  hash_all(jobs, opt.customization, opt.threads, prog, [&](const job& j, const result& r) {
    const bool esc = needs_escape(j.name);
    const std::string name = (esc ? "\\" : "") + (esc ? escape(j.name) : j.name);
    if (!r.ok) {
      prog.clear();
      std::fflush(stdout);
      std::fprintf(stderr, "lwc: %s\n", r.error.c_str());
      out.put(name + ": FAILED open or read\n");
      ++unreadable;
    } else if (r.hex != j.expected) {
      out.put(name + ": FAILED\n");
      ++mismatches;
    } else if (!opt.quiet) {
      out.put(name + ": OK\n");
    }
  });
  prog.finish();
  const int rc = finish_output();
  const auto plural = [](int n, const char* one, const char* many) { return n == 1 ? one : many; };
  if (bad_lines != 0)
    std::fprintf(stderr, "lwc: WARNING: %d %s improperly formatted or unreadable\n", bad_lines,
                 plural(bad_lines, "line or list is", "lines or lists are"));
  if (unreadable != 0)
    std::fprintf(stderr, "lwc: WARNING: %d listed %s could not be read\n", unreadable,
                 plural(unreadable, "file", "files"));
  if (mismatches != 0)
    std::fprintf(stderr, "lwc: WARNING: %d computed %s did NOT match\n", mismatches,
                 plural(mismatches, "checksum", "checksums"));
  return bad_lines + unreadable + mismatches != 0 ? exit_failure : rc;
}

}  // namespace

int run_hash(const hash_options& opt_in) {
  hash_options opt = opt_in;
  if (opt.threads == 0) opt.threads = default_threads();
  opt.threads = std::min(opt.threads, 64u);  // more only costs memory and start-up time
  const algorithm& a = hash_algorithm(opt.algorithm);
  const std::size_t length = output_length(a, opt.length);
  if (!opt.customization.empty() && a.kind != algorithm_kind::cxof)
    throw failure("--customization is only for a CXOF (ascon-cxof128)", exit_usage);
  if (opt.customization.size() > a.max_customization_size && a.kind == algorithm_kind::cxof)
    throw failure("the customization string is at most " +
                      std::to_string(a.max_customization_size) + " bytes",
                  exit_usage);
  if (opt.check) {
    if (opt.tag) throw failure("--tag makes no sense with --check", exit_usage);
    return check(opt);
  }
  if (opt.quiet) throw failure("--quiet only applies to --check", exit_usage);
  return compute(opt, a, length);
}

}  // namespace lwc::cli
