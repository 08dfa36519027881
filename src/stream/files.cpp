// The POSIX side of the stream format: random salts and keys (getrandom), key files with the
// permission checks of lwc, file-descriptor sources and sinks, and the whole-file helpers,
// whose decryption output appears under its name only once the last chunk verified.
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
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

// Opens `path` for writing: exclusively (O_EXCL) unless overwrite.
int create_file(const std::string& path, bool overwrite, mode_t mode) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
  const int fd = ::open(path.c_str(), flags, mode);
  if (fd < 0) {
    if (errno == EEXIST)
      throw error(errc::io, "cannot write " + quoted(path) + ": it already exists");
    throw error(errc::io, "cannot create " + quoted(path) + ": " + errno_text(errno));
  }
  return fd;
}

int open_input(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw error(errc::io, "cannot open " + quoted(path) + ": " + errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
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
  fd_handle fd(create_file(path, overwrite, 0600));
  // O_TRUNC keeps the mode of an existing file: make it private before the key is in it.
  if (overwrite && ::fchmod(fd.get(), 0600) != 0)
    throw error(errc::io, "cannot make " + quoted(path) + " private: " + errno_text(errno));
  fd_sink out(fd.get(), quoted(path));
  const bytes_view v{reinterpret_cast<const std::uint8_t*>(line.s.data()), line.s.size()};
  out.write({&v, 1});
  // A key that is lost after a crash loses every file encrypted with it.
  if (::fsync(fd.get()) != 0)
    throw error(errc::io, "cannot write " + quoted(path) + ": " + errno_text(errno));
}

void encrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt, bool overwrite) {
  fd_handle in(open_input(in_path));
  options o = opt;
  if (o.name == options{}.name) o.name = quoted(in_path);
  fd_handle out(create_file(out_path, overwrite, 0666));
  try {
    fd_source src(in.get(), quoted(in_path));
    fd_sink dst(out.get(), quoted(out_path));
    encrypt(key, src, dst, o);
  } catch (...) {
    ::unlink(out_path.c_str());
    throw;
  }
}

void decrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt, bool overwrite) {
  fd_handle in(open_input(in_path));
  options o = opt;
  if (o.name == options{}.name) o.name = quoted(in_path);
  struct stat st {};
  if (!overwrite && ::lstat(out_path.c_str(), &st) == 0)
    throw error(errc::io, "cannot write " + quoted(out_path) + ": it already exists");
  const std::size_t slash = out_path.rfind('/');
  std::string temp = (slash == std::string::npos ? std::string() : out_path.substr(0, slash + 1)) +
                     ".lwc-tmp-XXXXXX";
  const int raw = ::mkostemp(temp.data(), O_CLOEXEC);  // mode 0600
  if (raw < 0)
    throw error(errc::io, "cannot create a temporary file next to " + quoted(out_path) + ": " +
                              errno_text(errno));
  fd_handle out(raw);
  try {
    fd_source src(in.get(), quoted(in_path));
    fd_sink dst(out.get(), quoted(temp));
    decrypt(key, src, dst, o);
    // The plaintext keeps the temporary file's mode 0600 (no process-wide umask dance).
    if (::close(out.release()) != 0)
      throw error(errc::io, "cannot write " + quoted(temp) + ": " + errno_text(errno));
    if (overwrite) {
      if (::rename(temp.c_str(), out_path.c_str()) != 0)
        throw error(errc::io, "cannot rename the output to " + quoted(out_path) + ": " +
                                  errno_text(errno));
    } else {
      // link() fails when out_path appeared meanwhile: never replaces a file silently.
      if (::link(temp.c_str(), out_path.c_str()) != 0)
        throw error(errc::io, "cannot write " + quoted(out_path) + ": " + errno_text(errno));
      ::unlink(temp.c_str());
    }
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace lwc::stream
