#include "keyfile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include <lwc/common/secure.hpp>

#include "util.hpp"

namespace lwc::cli {

master_key::~master_key() { secure_wipe(bytes.data(), bytes.size()); }

namespace {

constexpr std::size_t max_key_file_size = 4096;

struct wiped_string {
  std::string s;
  ~wiped_string() { secure_wipe(s.data(), s.size()); }
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

void parse_key(std::string_view text, const std::string& path, master_key& key) {
  const std::string where = "key file " + describe(path);
  const std::string expected =
      " (expected one line 'lwc-key-v1 <64 hex digits>', as written by 'lwc keygen')";
  std::string_view key_line;
  int key_lines = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    key_line = line;
    ++key_lines;
  }
  if (key_lines == 0) throw failure(where + " holds no key" + expected);
  if (key_lines > 1) throw failure(where + " holds more than one line" + expected);
  if (key_line.substr(0, key_prefix.size()) != key_prefix ||
      key_line.size() == key_prefix.size() || !is_space(key_line[key_prefix.size()]))
    throw failure(where + " is not an lwc key file" + expected);
  const std::string_view hex = trim(key_line.substr(key_prefix.size()));
  if (hex.size() != 2 * master_key_size)
    throw failure(where + ": the key must be " + std::to_string(2 * master_key_size) +
                  " hex digits (" + std::to_string(master_key_size) + " bytes), found " +
                  std::to_string(hex.size()) + " characters");
  std::vector<std::uint8_t> bytes;
  const bool ok = from_hex(hex, bytes);
  if (ok) std::copy(bytes.begin(), bytes.end(), key.bytes.begin());
  secure_wipe(bytes.data(), bytes.size());
  if (!ok) throw failure(where + ": the key has a character that is not a hex digit");
}

void load_key(const std::string& path, master_key& key) {
  const std::string where = "key file " + describe(path);
  if (path == "-")
    throw failure("the key cannot come from standard input; name a key file with -k");
  const int raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) throw failure("cannot open " + where + ": " + errno_text(errno));
  fd_handle fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw failure("cannot read " + where + ": " + errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw failure(where + " is a directory");
  // Pipes (-k <(...)) carry no permissions worth checking; files on disk must be private.
  if (S_ISREG(st.st_mode) && (st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    throw failure(where + " can be read or written by other users (mode " + mode +
                  "); make it private with: chmod 600 '" + path + "'");
  }
  wiped_string text;
  text.s.resize(max_key_file_size + 1);
  const std::size_t n = read_full(fd.get(), reinterpret_cast<std::uint8_t*>(text.s.data()),
                                  text.s.size(), path);
  if (n == 0) throw failure(where + " is empty");
  if (n > max_key_file_size) throw failure(where + " is too large to be an lwc key file");
  parse_key(std::string_view(text.s).substr(0, n), path, key);
}

std::string format_key(const master_key& key) {
  return std::string(key_prefix) + " " + to_hex(key.bytes.data(), key.bytes.size()) + "\n";
}

void generate_key(const std::string& path, bool force) {
  master_key key;
  random_bytes(key.bytes.data(), key.bytes.size());
  wiped_string line{format_key(key)};
  const auto* p = reinterpret_cast<const std::uint8_t*>(line.s.data());
  if (path == "-") {
    write_all(STDOUT_FILENO, p, line.s.size(), "standard output");
    return;
  }
  output_file out(path, force, 0600);
  write_all(out.fd(), p, line.s.size(), describe(path));
  // A key that is lost after a crash loses every file encrypted with it.
  if (::fsync(out.fd()) != 0) throw failure("cannot write " + describe(path) + ": " + errno_text(errno));
  out.commit();
}

}  // namespace lwc::cli
