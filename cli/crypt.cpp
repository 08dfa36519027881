// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc encrypt / decrypt / keygen: files in the lwc stream format, through the library's
// lwc::stream (<lwc/stream.hpp>). Output files appear only when complete (output_file);
// decrypted data reaches standard output only after the whole input verified, by way of a
// spool, so that nothing unauthenticated is ever released.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <vector>

#include <lwc/common/secure.hpp>
#include <lwc/registry.hpp>
#include <lwc/stream.hpp>

#include "commands.hpp"
#include "progress.hpp"
#include "util.hpp"

namespace lwc::cli {

namespace {

class fd_sink : public stream::sink {
 public:
  fd_sink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(std::span<const bytes_view> pieces) override {
    iov_.clear();
    for (bytes_view p : pieces) iov_.push_back({const_cast<std::uint8_t*>(p.data()), p.size()});
    write_all(fd_, iov_, name_);
  }

 private:
  int fd_;
  std::string name_;
  std::vector<iovec> iov_;
};

// The input, counted for the progress line (encryption: plaintext; decryption: the file).
class progress_source : public stream::source {
 public:
  progress_source(int fd, std::string_view name, progress& prog)
      : fd_(fd), name_(name), prog_(prog) {}
  std::size_t read(bytes_span buf) override {
    const std::size_t n = read_full(fd_, buf.data(), buf.size(), name_);
    prog_.add(n);
    return n;
  }

 private:
  int fd_;
  std::string_view name_;
  progress& prog_;
};

// The library's errors, as the tool reports them (a bad argument is a usage error).
[[noreturn]] void rethrow(const stream::error& e, const std::string& suffix = {}) {
  if (e.code() == stream::errc::usage) throw failure(e.what(), exit_usage);
  throw failure(std::string(e.what()) + (e.is_integrity_failure() ? suffix : ""), exit_failure);
}

stream::master_key load_key(const std::string& path) {
  if (path == "-")
    throw failure("the key cannot come from standard input; name a key file with -k");
  try {
    return stream::load_key(path);
  } catch (const stream::error& e) {
    rethrow(e);
  }
}

// Holds verified plaintext until the whole stream verified: in memory up to a limit, then in
// an unnamed temporary file (O_TMPFILE) that no other process can open by name and that
// vanishes when lwc exits, however it exits.
class spool_sink : public stream::sink {
 public:
  static constexpr std::size_t memory_limit = 4u << 20;
  ~spool_sink() override { secure_wipe(mem_.data(), mem_.size()); }

  void write(std::span<const bytes_view> pieces) override {
    for (bytes_view p : pieces) {
      const std::uint8_t* data = p.data();
      if (file_.get() < 0 && mem_.size() + p.size() <= memory_limit) {
        mem_.insert(mem_.end(), data, data + p.size());
        continue;
      }
      if (file_.get() < 0) {
        open_file();
        write_all(file_.get(), mem_.data(), mem_.size(), "the spool file");
        secure_wipe(mem_.data(), mem_.size());
        mem_.clear();
        mem_.shrink_to_fit();
      }
      write_all(file_.get(), data, p.size(), "the spool file in " + dir_);
    }
  }

  void release(int fd, const std::string& name) {
    if (file_.get() < 0) {
      write_all(fd, mem_.data(), mem_.size(), name);
      return;
    }
    if (::lseek(file_.get(), 0, SEEK_SET) != 0)
      throw failure("cannot read back the spool file: " + errno_text(errno));
    std::vector<std::uint8_t> buf(1u << 20);
    for (std::size_t n; (n = read_full(file_.get(), buf.data(), buf.size(), "spool")) != 0;) {
      write_all(fd, buf.data(), n, name);
      if (n < buf.size()) break;
    }
    secure_wipe(buf.data(), buf.size());
  }

 private:
  void open_file() {
    const char* env = std::getenv("TMPDIR");
    dir_ = env != nullptr && *env != '\0' ? env : "/tmp";
    int fd = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
      std::string pattern = dir_ + "/.lwc-spool-XXXXXX";
      fd = ::mkostemp(pattern.data(), O_CLOEXEC);
      if (fd >= 0) ::unlink(pattern.c_str());
    }
    if (fd < 0)
      throw failure("cannot create a spool file in " + describe(dir_) +
                    " to hold the plaintext until it is verified (" + errno_text(errno) +
                    "); set TMPDIR or use -o FILE");
    file_ = fd_handle(fd);
  }

  std::vector<std::uint8_t> mem_;
  fd_handle file_;
  std::string dir_;
};

const algorithm& aead_algorithm(const std::string& name) {
  try {
    return stream::stream_algorithm(name);
  } catch (const stream::error& e) {
    rethrow(e);
  }
}

unsigned chunk_shift(const std::string& text) {
  const std::uint64_t n = parse_size(text, "--chunk-size");
  if (!std::has_single_bit(n) || n < (1u << stream::min_chunk_shift) ||
      n > (1u << stream::max_chunk_shift))
    throw failure("--chunk-size must be a power of two from 64 bytes to 1M, got " + text,
                  exit_usage);
  return static_cast<unsigned>(std::countr_zero(n));
}


// Refuses to write over a file this run reads. Without this, --force would replace the input
// (or the key file, losing the key) with the output; writing to standard output that is
// redirected onto the input would read what it writes. Symlinks and hard links count: files
// are compared by device and inode.
void refuse_input_as_output(const std::string& output, const input_file& in,
                            const std::string& key_file) {
  struct stat out {};
  if (output == "-") {
    if (::fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode)) return;
  } else if (::stat(output.c_str(), &out) != 0) {
    return;  // nothing there yet (a missing file cannot be an input)
  }
  const std::string where = output == "-" ? "standard output" : describe(output);
  if (out.st_dev == in.dev && out.st_ino == in.ino)
    throw failure(where + " is the input file " + describe(in.name) +
                      "; write to another file",
                  exit_usage);
  struct stat key {};
  if (::stat(key_file.c_str(), &key) == 0 && key.st_dev == out.st_dev && key.st_ino == out.st_ino)
    throw failure(where + " is the key file " + describe(key_file) + "; write to another file",
                  exit_usage);
}

}  // namespace

int run_encrypt(const crypt_options& opt) {
  const algorithm& a = aead_algorithm(opt.algorithm);
  stream::options so;
  so.algorithm = a;
  so.chunk_shift = chunk_shift(opt.chunk_size);
  so.threads = opt.threads;
  so.name = describe(opt.input);
  const bool to_stdout = opt.output == "-";
  if (to_stdout && is_terminal(STDOUT_FILENO))
    throw failure("refusing to write binary ciphertext to a terminal; use -o FILE or redirect "
                  "standard output",
                  exit_usage);
  if (!to_stdout) check_destination(opt.output, opt.force);
  const stream::master_key key = load_key(opt.key_file);
  input_file in = open_input(opt.input);
  refuse_input_as_output(opt.output, in, opt.key_file);
  const mode_t mode = default_file_mode();
  progress prog("encrypting", in.regular ? std::optional(in.size) : std::nullopt, !opt.no_progress);
  progress_source src(in.fd.get(), in.name, prog);
  try {
    if (to_stdout) {
      fd_sink out(STDOUT_FILENO, "standard output");
      stream::encrypt(key, src, out, so);
    } else {
      output_file file(opt.output, opt.force, mode);
      fd_sink out(file.fd(), describe(opt.output));
      stream::encrypt(key, src, out, so);
      prog.finish();
      file.commit();
    }
  } catch (const stream::error& e) {
    rethrow(e);
  }
  return 0;
}

int run_decrypt(const crypt_options& opt) {
  const bool to_stdout = opt.output == "-";
  if (!to_stdout) check_destination(opt.output, opt.force);
  const stream::master_key key = load_key(opt.key_file);
  input_file in = open_input(opt.input);
  refuse_input_as_output(opt.output, in, opt.key_file);
  const mode_t mode = default_file_mode();
  stream::options so;
  so.threads = opt.threads;
  so.name = describe(opt.input);
  progress prog("decrypting", in.regular ? std::optional(in.size) : std::nullopt, !opt.no_progress);
  progress_source src(in.fd.get(), in.name, prog);
  if (to_stdout) {
    spool_sink spool;
    try {
      stream::decrypt(key, src, spool, so);
    } catch (const stream::error& e) {
      rethrow(e, "; nothing was written to standard output");
    }
    prog.finish();
    spool.release(STDOUT_FILENO, "standard output");
  } else {
    output_file file(opt.output, opt.force, mode);
    fd_sink out(file.fd(), describe(opt.output));
    try {
      stream::decrypt(key, src, out, so);
    } catch (const stream::error& e) {
      rethrow(e, "; nothing was written to " + describe(opt.output));
    }
    prog.finish();
    file.commit();
  }
  return 0;
}

// A fresh key to `path` (mode 0600, appearing only when complete), or standard output for "-".
int run_keygen(const std::string& output, bool force) {
  const stream::master_key key = stream::generate_key();
  std::string line = stream::format_key(key);
  const auto* p = reinterpret_cast<const std::uint8_t*>(line.data());
  try {
    if (output == "-") {
      write_all(STDOUT_FILENO, p, line.size(), "standard output");
    } else {
      output_file out(output, force, 0600);
      write_all(out.fd(), p, line.size(), describe(output));
      // A key that is lost after a crash loses every file encrypted with it.
      if (::fsync(out.fd()) != 0)
        throw failure("cannot write " + describe(output) + ": " + errno_text(errno));
      out.commit();
    }
  } catch (...) {
    secure_wipe(line.data(), line.size());
    throw;
  }
  secure_wipe(line.data(), line.size());
  return 0;
}

}  // namespace lwc::cli
