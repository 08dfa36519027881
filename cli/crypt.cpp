// lwc encrypt / decrypt: files in the lwc stream format (stream.hpp). Output files appear
// only when complete (output_file); decrypted data reaches standard output only after the
// whole input verified, by way of a spool, so that nothing unauthenticated is ever released.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <vector>

#include <lwc/common/secure.hpp>
#include <lwc/registry.hpp>

#include "commands.hpp"
#include "keyfile.hpp"
#include "pool.hpp"
#include "progress.hpp"
#include "stream.hpp"
#include "util.hpp"

namespace lwc::cli {

namespace {

class fd_sink : public stream::sink {
 public:
  fd_sink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(std::span<const iovec> pieces) override { write_all(fd_, pieces, name_); }

 private:
  int fd_;
  std::string name_;
};

// Holds verified plaintext until the whole stream verified: in memory up to a limit, then in
// an unnamed temporary file (O_TMPFILE) that no other process can open by name and that
// vanishes when lwc exits, however it exits.
class spool_sink : public stream::sink {
 public:
  static constexpr std::size_t memory_limit = 4u << 20;
  ~spool_sink() override { secure_wipe(mem_.data(), mem_.size()); }

  void write(std::span<const iovec> pieces) override {
    for (const iovec& p : pieces) {
      const auto* data = static_cast<const std::uint8_t*>(p.iov_base);
      if (file_.get() < 0 && mem_.size() + p.iov_len <= memory_limit) {
        mem_.insert(mem_.end(), data, data + p.iov_len);
        continue;
      }
      if (file_.get() < 0) {
        open_file();
        write_all(file_.get(), mem_.data(), mem_.size(), "the spool file");
        secure_wipe(mem_.data(), mem_.size());
        mem_.clear();
        mem_.shrink_to_fit();
      }
      write_all(file_.get(), data, p.iov_len, "the spool file in " + dir_);
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
  const algorithm* a = find_algorithm(name);
  if (a == nullptr) throw failure("unknown algorithm '" + name + "' (see 'lwc list')", exit_usage);
  if (const std::string why = stream::unsuitable(*a); !why.empty()) throw failure(why, exit_usage);
  return *a;
}

unsigned chunk_shift(const std::string& text) {
  const std::uint64_t n = parse_size(text, "--chunk-size");
  if (!std::has_single_bit(n) || n < (1u << stream::min_chunk_shift) ||
      n > (1u << stream::max_chunk_shift))
    throw failure("--chunk-size must be a power of two from 64 bytes to 1M, got " + text,
                  exit_usage);
  return static_cast<unsigned>(std::countr_zero(n));
}

// More workers than this only cost memory and start-up time.
constexpr unsigned max_threads = 64;
unsigned threads_of(unsigned requested) {
  return std::min(requested == 0 ? default_threads() : requested, max_threads);
}

}  // namespace

int run_encrypt(const crypt_options& opt) {
  const algorithm& a = aead_algorithm(opt.algorithm);
  stream::encrypt_options eo;
  eo.alg = &a;
  eo.chunk_shift = chunk_shift(opt.chunk_size);
  eo.threads = threads_of(opt.threads);
  const bool to_stdout = opt.output == "-";
  if (to_stdout && is_terminal(STDOUT_FILENO))
    throw failure("refusing to write binary ciphertext to a terminal; use -o FILE or redirect "
                  "standard output",
                  exit_usage);
  if (!to_stdout) check_destination(opt.output, opt.force);
  master_key key;
  load_key(opt.key_file, key);
  input_file in = open_input(opt.input);
  const mode_t mode = default_file_mode();
  progress prog("encrypting", in.regular ? std::optional(in.size) : std::nullopt, !opt.no_progress);
  if (to_stdout) {
    fd_sink out(STDOUT_FILENO, "standard output");
    stream::encrypt(key, eo, in.fd.get(), in.name, out, prog);
  } else {
    output_file file(opt.output, opt.force, mode);
    fd_sink out(file.fd(), describe(opt.output));
    stream::encrypt(key, eo, in.fd.get(), in.name, out, prog);
    prog.finish();
    file.commit();
  }
  return 0;
}

int run_decrypt(const crypt_options& opt) {
  const bool to_stdout = opt.output == "-";
  if (!to_stdout) check_destination(opt.output, opt.force);
  master_key key;
  load_key(opt.key_file, key);
  input_file in = open_input(opt.input);
  const mode_t mode = default_file_mode();
  const unsigned threads = threads_of(opt.threads);
  progress prog("decrypting", in.regular ? std::optional(in.size) : std::nullopt, !opt.no_progress);
  if (to_stdout) {
    spool_sink spool;
    try {
      stream::decrypt(key, threads, in.fd.get(), in.name, spool, prog);
    } catch (const failure& e) {
      throw failure(std::string(e.what()) + "; nothing was written to standard output", e.code());
    }
    prog.finish();
    spool.release(STDOUT_FILENO, "standard output");
  } else {
    output_file file(opt.output, opt.force, mode);
    fd_sink out(file.fd(), describe(opt.output));
    try {
      stream::decrypt(key, threads, in.fd.get(), in.name, out, prog);
    } catch (const failure& e) {
      throw failure(std::string(e.what()) + "; nothing was written to " + describe(opt.output),
                    e.code());
    }
    prog.finish();
    file.commit();
  }
  return 0;
}

int run_keygen(const std::string& output, bool force) {
  generate_key(output, force);
  return 0;
}

}  // namespace lwc::cli
