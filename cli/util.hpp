// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared plumbing of the lwc tool: the error type every command throws, file descriptors,
// complete reads and writes, and output files that appear only once they are complete.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lwc::cli {

inline constexpr int exit_failure = 1;  // verification failed, I/O error, bad input
inline constexpr int exit_usage = 2;    // the command line itself is wrong

// A message for the user; main() prints "lwc: <what>" on stderr and exits with `code`.
class failure : public std::runtime_error {
 public:
  explicit failure(const std::string& what, int code = exit_failure)
      : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

std::string errno_text(int err);
// "'path': <strerror(err)>", or "standard input" for "-".
std::string describe(std::string_view path);

class fd_handle {
 public:
  fd_handle() = default;
  explicit fd_handle(int fd) : fd_(fd) {}
  fd_handle(fd_handle&& o) noexcept : fd_(o.release()) {}
  fd_handle& operator=(fd_handle&& o) noexcept;
  fd_handle(const fd_handle&) = delete;
  fd_handle& operator=(const fd_handle&) = delete;
  ~fd_handle() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int f = fd_;
    fd_ = -1;
    return f;
  }
  void reset();

 private:
  int fd_ = -1;
};

// An opened input: a file (checked not to be a directory) or standard input for "-".
struct input_file {
  fd_handle fd;
  std::string name;       // as the user wrote it ("-" for standard input)
  bool regular = false;   // size is known
  std::uint64_t size = 0;
  dev_t dev = 0;
  ino_t ino = 0;
  bool is_stdin() const { return name == "-"; }
};
input_file open_input(const std::string& path);

// Reads until `n` bytes or end of file; returns the count. Throws on errors, naming `what`.
std::size_t read_full(int fd, std::uint8_t* buf, std::size_t n, std::string_view what);
void write_all(int fd, const std::uint8_t* buf, std::size_t n, std::string_view what);
void write_all(int fd, std::span<const iovec> pieces, std::string_view what);

bool is_terminal(int fd);

// The number of workers to use when the user did not say: one per core.
unsigned default_threads();

// Random bytes from the kernel's CSPRNG (getrandom), never a fallback.
void random_bytes(std::uint8_t* out, std::size_t n);

std::string to_hex(const std::uint8_t* p, std::size_t n);
// Empty optional-like: returns false on any non-hex character or odd length.
bool from_hex(std::string_view hex, std::vector<std::uint8_t>& out);

// "64K", "1M", "4096" -> bytes (K/M/G are powers of 1024). Throws failure(usage) otherwise.
std::uint64_t parse_size(std::string_view text, std::string_view what);
std::string format_bytes(double bytes);  // "1.5 MiB"

// The temporary file, if any, that a signal must remove before the process dies. One at a
// time: lwc writes at most one output file per run.
void register_cleanup(const std::string& path);
void clear_cleanup();
void install_signal_cleanup();

// A destination file that does not exist until commit(): data goes to a temporary file in
// the same directory (mode 0600 while it is written), which commit() renames over the
// destination. Destroying an uncommitted output removes the temporary file, so a failed run
// leaves nothing behind. Without `force` an existing destination is an error, checked both at
// creation and, atomically, at the rename.
class output_file {
 public:
  output_file(const std::string& dest, bool force, mode_t final_mode);
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  ~output_file();
  int fd() const { return fd_.get(); }
  const std::string& dest() const { return dest_; }
  void commit();

 private:
  std::string dest_, temp_;
  fd_handle fd_;
  bool force_;
  bool replacing_ = false;
  mode_t final_mode_;
  bool committed_ = false;
};

// Fails when `dest` names an existing file and force is off, or names a directory.
void check_destination(const std::string& dest, bool force);
mode_t default_file_mode();  // 0666 & ~umask

}  // namespace lwc::cli
