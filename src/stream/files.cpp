// SPDX-License-Identifier: MIT OR Apache-2.0
// The POSIX side of the stream format: random salts and keys (getrandom), key files with the
// permission checks of lwc, file-descriptor sources and sinks, and the whole-file helpers.
// Every file written here (key files, encrypted and decrypted files) is written to a
// temporary file next to it and renamed into place only once complete and synced; decrypted
// output only after the last chunk verified.
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <lwc/stream.hpp>

namespace lwc::stream {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }
std::string errno_text(int err) { return std::strerror(err); }

class fd_handle {
 public:
  explicit fd_handle(int fd) : fd_(fd) {}
  fd_handle(const fd_handle&) = delete;
  fd_handle& operator=(const fd_handle&) = delete;
  ~fd_handle() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

constexpr std::size_t max_key_file_size = 4096;

struct wiped_string {
  std::string s;
  ~wiped_string() { secure_wipe(s.data(), s.size()); }
};

// The process's umask without changing it (umask() would race with other threads): Linux
// reports it in /proc/self/status. Unknown: treated as 077, the private choice.
mode_t current_umask() {
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 077;
  fd_handle h(fd);
  char buf[4096];
  std::size_t n = 0;
  for (ssize_t r; n < sizeof buf - 1 && (r = ::read(fd, buf + n, sizeof buf - 1 - n)) != 0;) {
    if (r < 0) {
      if (errno == EINTR) continue;
      return 077;
    }
    n += static_cast<std::size_t>(r);
  }
  buf[n] = '\0';
  const char* line = std::strstr(buf, "\nUmask:");
  if (line == nullptr) return 077;
  char* end = nullptr;
  const unsigned long mask = std::strtoul(line + 7, &end, 8);
  return end == line + 7 ? mode_t{077} : static_cast<mode_t>(mask & 0777);
}

// An output that exists under its name only once complete: data goes to a temporary file in
// the same directory (mode 0600 while written), which commit() syncs and renames over the
// destination. Until then an existing destination is untouched, and destroying an uncommitted
// output removes the temporary file. A symbolic link at the destination is replaced by the
// file (rename() replaces the link, never writes through it); anything else that is not a
// regular file is refused, and so is the input itself under any name.
class replacing_output {
 public:
  replacing_output(const std::string& path, bool overwrite, const struct stat* input)
      : path_(path), overwrite_(overwrite) {
    check_destination(input);
    const std::size_t slash = path.rfind('/');
    dir_ = slash == std::string::npos ? "." : path.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (base.empty() || base == "." || base == "..")
      throw error(errc::io, "cannot write " + quoted(path) + ": it names a directory");
    temp_ = (slash == std::string::npos ? std::string() : dir_) + "." + base + ".lwc-XXXXXX";
    const int fd = ::mkostemp(temp_.data(), O_CLOEXEC);  // O_EXCL, mode 0600
    if (fd < 0)
      throw error(errc::io, "cannot create a temporary file next to " + quoted(path) + ": " +
                                errno_text(errno));
    fd_ = fd;
  }
  replacing_output(const replacing_output&) = delete;
  replacing_output& operator=(const replacing_output&) = delete;
  ~replacing_output() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
  }

  int fd() const { return fd_; }
  const std::string& temp_name() const { return temp_; }

  void commit(mode_t mode) {
    const auto fail = [&](const std::string& what) {
      return error(errc::io, "cannot " + what + " " + quoted(path_) + ": " + errno_text(errno));
    };
    if (::fsync(fd_) != 0) throw fail("write");
    if (::fchmod(fd_, mode) != 0) throw fail("set the mode of");
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) throw fail("write");
    if (overwrite_) {
      if (::rename(temp_.c_str(), path_.c_str()) != 0) throw fail("create");
    } else if (::renameat2(AT_FDCWD, temp_.c_str(), AT_FDCWD, path_.c_str(), RENAME_NOREPLACE) !=
               0) {
      if (errno == EEXIST) throw error(errc::io, "cannot write " + quoted(path_) + ": it already exists");
      if (errno != EINVAL && errno != ENOSYS) throw fail("create");
      // File systems without RENAME_NOREPLACE: link() refuses an existing name just the same.
      if (::link(temp_.c_str(), path_.c_str()) != 0) {
        if (errno == EEXIST)
          throw error(errc::io, "cannot write " + quoted(path_) + ": it already exists");
        throw fail("create");
      }
      ::unlink(temp_.c_str());
    }
    committed_ = true;
    // The new name must survive a crash too. The file is in place whatever happens here, so a
    // failure cannot be reported as "nothing was written": it is left at best effort.
    const int dir = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      (void)::fsync(dir);
      ::close(dir);
    }
  }

 private:
  void check_destination(const struct stat* input) const {
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0) {
      if (input != nullptr && st.st_dev == input->st_dev && st.st_ino == input->st_ino)
        throw error(errc::io, "cannot write " + quoted(path_) +
                                  ": it is the input file; write to another file");
      if (S_ISDIR(st.st_mode)) throw error(errc::io, quoted(path_) + " is a directory");
      if (!S_ISREG(st.st_mode))
        throw error(errc::io, "cannot write " + quoted(path_) +
                                  ": it is not a regular file (only regular files are replaced)");
    } else if (errno != ENOENT) {
      throw error(errc::io, "cannot use " + quoted(path_) + " as output: " + errno_text(errno));
    }
    // lstat: a dangling symbolic link is an existing name too.
    if (!overwrite_ && ::lstat(path_.c_str(), &st) == 0)
      throw error(errc::io, "cannot write " + quoted(path_) + ": it already exists");
  }

  std::string path_, dir_, temp_;
  bool overwrite_;
  int fd_ = -1;
  bool committed_ = false;
};

int open_input(const std::string& path, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw error(errc::io, "cannot open " + quoted(path) + ": " + errno_text(errno));
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw error(errc::io, "cannot read " + quoted(path) + ": " + errno_text(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw error(errc::io, quoted(path) + " is a directory");
  }
  return fd;
}

}  // namespace

void random_bytes(std::uint8_t* out, std::size_t n) {
  while (n != 0) {
    const ssize_t r = ::getrandom(out, n, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw error(errc::io, "cannot get random bytes from the kernel: " + errno_text(errno));
    }
    out += r;
    n -= static_cast<std::size_t>(r);
  }
}

master_key generate_key() {
  master_key k;
  random_bytes(k.bytes.data(), k.bytes.size());
  return k;
}

std::size_t fd_source::read(bytes_span buf) {
  for (;;) {
    const ssize_t r = ::read(fd_, buf.data(), buf.size());
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno != EINTR) throw error(errc::io, "cannot read " + name_ + ": " + errno_text(errno));
  }
}

void fd_sink::write(std::span<const bytes_view> pieces) {
  std::vector<iovec> v;
  v.reserve(pieces.size());
  for (bytes_view p : pieces)
    if (!p.empty()) v.push_back({const_cast<std::uint8_t*>(p.data()), p.size()});
  std::size_t i = 0;
  while (i < v.size()) {
    const int count = static_cast<int>(std::min<std::size_t>(v.size() - i, IOV_MAX));
    const ssize_t r = ::writev(fd_, v.data() + i, count);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw error(errc::io, "cannot write " + name_ + ": " + errno_text(errno));
    }
    auto done = static_cast<std::size_t>(r);
    while (i < v.size() && done >= v[i].iov_len) done -= v[i++].iov_len;
    if (i < v.size()) {
      v[i].iov_base = static_cast<std::uint8_t*>(v[i].iov_base) + done;
      v[i].iov_len -= done;
    }
  }
}

master_key load_key(const std::string& path) {
  const std::string where = "key file " + quoted(path);
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) throw error(errc::key_file, "cannot open " + where + ": " + errno_text(errno));
  fd_handle fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw error(errc::key_file, "cannot read " + where + ": " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw error(errc::key_file, where + " is a directory");
  // Pipes (-k <(...)) carry no permissions worth checking; files on disk must be private.
  if (S_ISREG(st.st_mode) && (st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw error(errc::key_file, where + " can be read or written by other users (mode " + mode +
                                    "); make it private with: chmod 600 '" + path + "'");
  }
  wiped_string text;
  text.s.resize(max_key_file_size + 1);
  fd_source in(fd.get(), where);
  std::size_t n = 0;
  for (std::size_t r; n < text.s.size() &&
                      (r = in.read({reinterpret_cast<std::uint8_t*>(text.s.data()) + n,
                                    text.s.size() - n})) != 0;)
    n += r;
  if (n == 0) throw error(errc::key_file, where + " is empty");
  if (n > max_key_file_size) throw error(errc::key_file, where + " is too large to be an lwc key file");
  master_key key;
  parse_key(std::string_view(text.s).substr(0, n), where, key);
  return key;
}

void save_key(const std::string& path, const master_key& key, bool overwrite) {
  wiped_string line{format_key(key)};
  replacing_output out(path, overwrite, nullptr);
  fd_sink sink(out.fd(), quoted(out.temp_name()));
  const bytes_view v{reinterpret_cast<const std::uint8_t*>(line.s.data()), line.s.size()};
  sink.write({&v, 1});
  // Synced before the rename: a key that is lost after a crash loses every file encrypted
  // with it.
  out.commit(0600);
}

void encrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt, bool overwrite) {
  struct stat in_st {};
  fd_handle in(open_input(in_path, in_st));
  options o = opt;
  if (o.name == options{}.name) o.name = quoted(in_path);
  // Every argument is checked (algorithm, chunk size) before anything is created.
  encryptor enc(key, o);
  replacing_output out(out_path, overwrite, &in_st);
  fd_source src(in.get(), quoted(in_path));
  fd_sink dst(out.fd(), quoted(out.temp_name()));
  enc.write_all(src, dst);
  out.commit(0666 & ~current_umask());
}

void decrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt, bool overwrite) {
  struct stat in_st {};
  fd_handle in(open_input(in_path, in_st));
  options o = opt;
  if (o.name == options{}.name) o.name = quoted(in_path);
  replacing_output out(out_path, overwrite, &in_st);
  fd_source src(in.get(), quoted(in_path));
  fd_sink dst(out.fd(), quoted(out.temp_name()));
  decrypt(key, src, dst, o);
  // The plaintext stays private (0600) whatever the umask.
  out.commit(0600);
}

}  // namespace lwc::stream
