// SPDX-License-Identifier: MIT OR Apache-2.0
#include "util.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <thread>
#include <cstring>

namespace lwc::cli {

std::string errno_text(int err) { return std::strerror(err); }

std::string describe(std::string_view path) {
  if (path == "-") return "standard input";
  std::string s;
  s.reserve(path.size() + 2);
  s += '\'';
  s += path;
  s += '\'';
  return s;
}

fd_handle& fd_handle::operator=(fd_handle&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

void fd_handle::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

input_file open_input(const std::string& path) {
  input_file in;
  in.name = path;
  const int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
                             : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw failure("cannot open " + describe(path) + ": " + errno_text(errno));
  in.fd = fd_handle(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw failure("cannot read " + describe(path) + ": " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw failure(describe(path) + " is a directory");
  in.dev = st.st_dev;
  in.ino = st.st_ino;
  if (S_ISREG(st.st_mode)) {
    in.regular = true;
    in.size = static_cast<std::uint64_t>(st.st_size);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  return in;
}

std::size_t read_full(int fd, std::uint8_t* buf, std::size_t n, std::string_view what) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, buf + got, n - got);
    if (r > 0) {
      got += static_cast<std::size_t>(r);
    } else if (r == 0) {
      break;
    } else if (errno != EINTR) {
      throw failure("cannot read " + describe(what) + ": " + errno_text(errno));
    }
  }
  return got;
}

// Each system call writes at most this much. With bigger writes the page cache (Linux 6.x,
// ext4) allocates bigger folios, which cost far more kernel time once memory is fragmented:
// on the machine of docs/performance-cli.md, 1 GiB took 2.0 s of system time to write in
// 2 MiB writes, 0.4 to 0.5 s in 64 or 256 KiB writes, 1.1 s in 1 MiB writes.
constexpr std::size_t max_write = 256u << 10;

void write_all(int fd, const std::uint8_t* buf, std::size_t n, std::string_view what) {
  while (n != 0) {
    const ssize_t w = ::write(fd, buf, std::min(n, max_write));
    if (w < 0) {
      if (errno == EINTR) continue;
      throw failure("cannot write " + std::string(what) + ": " + errno_text(errno));
    }
    buf += w;
    n -= static_cast<std::size_t>(w);
  }
}

void write_all(int fd, std::span<const iovec> pieces, std::string_view what) {
  std::vector<iovec> group;
  for (std::size_t i = 0; i < pieces.size();) {
    // The next pieces that fit in one write; a larger piece goes on its own.
    group.clear();
    std::size_t bytes = 0;
    while (i < pieces.size() && group.size() < IOV_MAX &&
           (group.empty() || bytes + pieces[i].iov_len <= max_write)) {
      bytes += pieces[i].iov_len;
      group.push_back(pieces[i++]);
    }
    if (group.size() == 1) {
      write_all(fd, static_cast<const std::uint8_t*>(group[0].iov_base), group[0].iov_len, what);
      continue;
    }
    std::size_t first = 0;
    while (first < group.size()) {
      const ssize_t w = ::writev(fd, group.data() + first, static_cast<int>(group.size() - first));
      if (w < 0) {
        if (errno == EINTR) continue;
        throw failure("cannot write " + std::string(what) + ": " + errno_text(errno));
      }
      auto done = static_cast<std::size_t>(w);
      while (first < group.size() && done >= group[first].iov_len) done -= group[first++].iov_len;
      if (first < group.size()) {
        group[first].iov_base = static_cast<std::uint8_t*>(group[first].iov_base) + done;
        group[first].iov_len -= done;
      }
    }
  }
}

bool is_terminal(int fd) { return ::isatty(fd) == 1; }

void random_bytes(std::uint8_t* out, std::size_t n) {
  while (n != 0) {
    const ssize_t r = ::getrandom(out, n, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw failure("cannot get random bytes from the kernel: " + errno_text(errno));
    }
    out += r;
    n -= static_cast<std::size_t>(r);
  }
}

unsigned default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

bool from_hex(std::string_view hex, std::vector<std::uint8_t>& out) {
  if (hex.size() % 2 != 0) return false;
  out.resize(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return true;
}

std::uint64_t parse_size(std::string_view text, std::string_view what) {
  const auto bad = [&] {
    return failure(std::string(what) + ": '" + std::string(text) +
                       "' is not a size (a number of bytes, optionally with K, M or G)",
                   exit_usage);
  };
  std::size_t i = 0;
  std::uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (v > (UINT64_MAX - 9) / 10) throw bad();
    v = v * 10 + static_cast<std::uint64_t>(text[i++] - '0');
  }
  if (i == 0) throw bad();
  std::string_view unit = text.substr(i);
  unsigned shift = 0;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KiB" || unit == "k") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else throw bad();
  if (shift != 0 && v > (UINT64_MAX >> shift)) throw bad();
  return v << shift;
}

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

// ---- removal of the temporary file when a signal ends the process -----------------------

namespace {
char cleanup_path[PATH_MAX + 1];
volatile std::sig_atomic_t cleanup_armed = 0;

extern "C" void on_fatal_signal(int sig) {
  if (cleanup_armed) ::unlink(cleanup_path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

void register_cleanup(const std::string& path) {
  cleanup_armed = 0;
  if (path.size() > PATH_MAX) return;
  std::memcpy(cleanup_path, path.c_str(), path.size() + 1);
  cleanup_armed = 1;
}

void clear_cleanup() { cleanup_armed = 0; }

void install_signal_cleanup() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // keep what nohup and friends asked for
    ::sigaction(sig, &sa, nullptr);
  }
}

// ---- output files ----------------------------------------------------------------------

mode_t default_file_mode() {
  const mode_t mask = ::umask(077);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

void check_destination(const std::string& dest, bool force) {
  struct stat st {};
  if (::stat(dest.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw failure("cannot use " + describe(dest) + " as output: " + errno_text(errno));
  }
  if (S_ISDIR(st.st_mode)) throw failure(describe(dest) + " is a directory");
  if (!S_ISREG(st.st_mode))
    throw failure(describe(dest) +
                  " is not a regular file; lwc only replaces regular files (write to "
                  "standard output instead)");
  if (!force) throw failure(describe(dest) + " already exists (use --force to replace it)");
}

output_file::output_file(const std::string& dest, bool force, mode_t final_mode)
    : dest_(dest), force_(force), final_mode_(final_mode) {
  check_destination(dest, force);
  replacing_ = ::access(dest.c_str(), F_OK) == 0;
  const std::size_t slash = dest.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : dest.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? dest : dest.substr(slash + 1);
  std::string pattern = (slash == std::string::npos ? std::string() : dir) + "." + base + ".lwc-XXXXXX";
  const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0)
    throw failure("cannot create a temporary file in " + describe(dir) + " for " +
                  describe(dest) + ": " + errno_text(errno));
  temp_ = pattern;
  fd_ = fd_handle(fd);
  register_cleanup(temp_);
}

output_file::~output_file() {
  if (!committed_) {
    fd_.reset();
    ::unlink(temp_.c_str());
    clear_cleanup();
  }
}

void output_file::commit() {
  const int fd = fd_.get();
  const auto fail = [&](const std::string& what) {
    return failure("cannot " + what + " " + describe(dest_) + ": " + errno_text(errno));
  };
  // Replacing a file: make the new data durable before the old data goes away.
  if (replacing_ && ::fsync(fd) != 0) throw fail("write");
  if (::fchmod(fd, final_mode_) != 0) throw fail("set the mode of");
  if (::close(fd_.release()) != 0) throw fail("write");
  if (force_) {
    if (::rename(temp_.c_str(), dest_.c_str()) != 0) throw fail("create");
  } else if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, dest_.c_str(), RENAME_NOREPLACE) != 0) {
    if (errno == EEXIST)
      throw failure(describe(dest_) + " appeared while lwc was writing it; not replaced");
    if (errno != EINVAL && errno != ENOSYS) throw fail("create");
    // File systems without RENAME_NOREPLACE: link() refuses an existing name just the same.
    if (::link(temp_.c_str(), dest_.c_str()) != 0) {
      if (errno == EEXIST)
        throw failure(describe(dest_) + " appeared while lwc was writing it; not replaced");
      throw fail("create");
    }
    ::unlink(temp_.c_str());
  }
  committed_ = true;
  clear_cleanup();
}

}  // namespace lwc::cli
