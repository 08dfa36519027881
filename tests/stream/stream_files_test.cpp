// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc::stream's file writers under faults: the input given as output (same path, symbolic
// link, hard link), a failure after the output was opened, a symbolic link at the output, a
// full disk (a small tmpfs; skipped where mounting is not permitted) and a writer killed in the
// middle. Whatever happens, the destination holds either its old content or the complete new
// one, and no temporary file is left behind by a failure the process survived.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <lwc/stream.hpp>

namespace ls = lwc::stream;
using bytes = std::vector<std::uint8_t>;

namespace {

ls::master_key test_key() {
  ls::master_key k;
  for (std::size_t i = 0; i < k.bytes.size(); ++i) k.bytes[i] = static_cast<std::uint8_t>(i + 1);
  return k;
}

bytes random_bytes_of(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

void write_file(const std::string& path, const bytes& data) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  ASSERT_TRUE(f.good()) << path;
}

void write_file(const std::string& path, const std::string& text) {
  write_file(path, bytes(text.begin(), text.end()));
}

bytes read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string read_text(const std::string& path) {
  const bytes b = read_file(path);
  return std::string(b.begin(), b.end());
}

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") out.insert(n);
  }
  ::closedir(d);
  return out;
}

bool is_symlink(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// A fresh directory, removed with everything in it at the end of the test.
class FileFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/lwc-stream-files-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    plain_ = dir_ + "/plain";
    pt_ = random_bytes_of(200000, 11);
    write_file(plain_, pt_);
    ls::options o;
    o.chunk_shift = 10;
    ls::encrypt_file(key_, plain_, dir_ + "/plain.lwc", o);
    ct_ = read_file(dir_ + "/plain.lwc");
  }
  void TearDown() override {
    if (!mount_.empty()) ::umount2(mount_.c_str(), MNT_DETACH);
    EXPECT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0);
  }
  // Expects exactly these names in `dir` (no temporary file left).
  void expect_names(const std::string& dir, std::set<std::string> want) {
    EXPECT_EQ(names_in(dir), want);
  }

  ls::master_key key_ = test_key();
  std::string dir_, plain_, mount_;
  bytes pt_, ct_;
};

TEST_F(FileFaults, InputAsOutputIsRefusedUnderAnyName) {
  const std::string enc = dir_ + "/plain.lwc", sym = dir_ + "/sym", hard = dir_ + "/hard";
  ASSERT_EQ(::symlink("plain", sym.c_str()), 0);
  ASSERT_EQ(::link(plain_.c_str(), hard.c_str()), 0);
  for (const std::string& out : {plain_, sym, hard, dir_ + "/./plain"}) {
    SCOPED_TRACE(out);
    try {
      ls::encrypt_file(key_, plain_, out, {}, true);
      ADD_FAILURE() << "encrypting a file into itself was accepted";
    } catch (const ls::error& e) {
      EXPECT_EQ(e.code(), ls::errc::io);
      EXPECT_NE(std::string(e.what()).find("input"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(read_file(plain_) == pt_) << "the input changed";
    EXPECT_TRUE(is_symlink(sym));
  }
  const std::string enc_link = dir_ + "/enc-link";
  ASSERT_EQ(::symlink(enc.c_str(), enc_link.c_str()), 0);
  for (const std::string& out : {enc, enc_link}) {
    SCOPED_TRACE(out);
    EXPECT_THROW(ls::decrypt_file(key_, enc, out, {}, true), ls::error);
    EXPECT_TRUE(read_file(enc) == ct_) << "the input changed";
  }
  expect_names(dir_, {"plain", "plain.lwc", "sym", "hard", "enc-link"});
}

TEST_F(FileFaults, FailureAfterTheOutputWasOpenedKeepsTheOldOutput) {
  const std::string out = dir_ + "/out", bad = dir_ + "/bad.lwc";
  write_file(out, "old content");
  // Truncated, then modified in the middle: both fail only once output was being written.
  bytes cut(ct_.begin(), ct_.end() - 100);
  write_file(bad, cut);
  EXPECT_THROW(ls::decrypt_file(key_, bad, out, {}, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  bytes changed = ct_;
  changed[changed.size() / 2] ^= 1;
  write_file(bad, changed);
  EXPECT_THROW(ls::decrypt_file(key_, bad, out, {}, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  // A misspelt algorithm is refused before anything is created.
  ls::options o;
  o.algorithm = "ascon-aead-128";
  EXPECT_THROW(ls::encrypt_file(key_, plain_, out, o, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  EXPECT_THROW(ls::encrypt_file(key_, plain_, dir_ + "/new", o, true), ls::error);
  // A missing input, and an input that is a directory.
  EXPECT_THROW(ls::encrypt_file(key_, dir_ + "/missing", out, {}, true), ls::error);
  EXPECT_THROW(ls::decrypt_file(key_, dir_, out, {}, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  expect_names(dir_, {"plain", "plain.lwc", "out", "bad.lwc"});
  // And the same call with good input replaces it completely.
  ls::decrypt_file(key_, dir_ + "/plain.lwc", out, {}, true);
  EXPECT_TRUE(read_file(out) == pt_);
  expect_names(dir_, {"plain", "plain.lwc", "out", "bad.lwc"});
}

TEST_F(FileFaults, SymlinkAtTheOutputIsReplacedNotFollowed) {
  const std::string target = dir_ + "/target", link = dir_ + "/link";
  write_file(target, "target content");
  ASSERT_EQ(::symlink("target", link.c_str()), 0);
  // Without overwrite the link is an existing file, dangling or not.
  EXPECT_THROW(ls::encrypt_file(key_, plain_, link), ls::error);
  EXPECT_THROW(ls::save_key(link, key_), ls::error);
  const std::string dangling = dir_ + "/dangling";
  ASSERT_EQ(::symlink("nowhere", dangling.c_str()), 0);
  EXPECT_THROW(ls::decrypt_file(key_, dir_ + "/plain.lwc", dangling), ls::error);
  EXPECT_TRUE(is_symlink(dangling));
  EXPECT_NE(::access((dir_ + "/nowhere").c_str(), F_OK), 0);

  ls::encrypt_file(key_, plain_, link, {}, true);
  EXPECT_FALSE(is_symlink(link));
  EXPECT_TRUE(read_text(target) == "target content") << target << " changed";
  ls::save_key(link, key_, true);
  EXPECT_FALSE(is_symlink(link));
  EXPECT_EQ(ls::load_key(link).bytes, key_.bytes);
  EXPECT_TRUE(read_text(target) == "target content") << target << " changed";
}

TEST_F(FileFaults, ReplacedKeyFileIsANewFile) {
  const std::string path = dir_ + "/key";
  const ls::master_key first = ls::generate_key();
  ls::save_key(path, first);
  const int old_fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(old_fd, 0);
  ::chmod(path.c_str(), 0640);  // the new file is private whatever the old one was
  ls::save_key(path, key_, true);
  char buf[128] = {};
  const ssize_t n = ::pread(old_fd, buf, sizeof buf - 1, 0);
  ::close(old_fd);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf), ls::format_key(first));  // descriptors opened before: the old key
  EXPECT_EQ(ls::load_key(path).bytes, key_.bytes);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  expect_names(dir_, {"plain", "plain.lwc", "key"});
}

TEST_F(FileFaults, NonRegularOutputsAreRefused) {
  EXPECT_THROW(ls::encrypt_file(key_, plain_, dir_, {}, true), ls::error);
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A reader on the other end, so that a writer opening the fifo would not block.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_THROW(ls::save_key(fifo, key_, true), ls::error);
  ::close(reader);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(FileFaults, FullDiskKeepsTheOldOutput) {
  const std::string small = dir_ + "/small";
  ASSERT_EQ(::mkdir(small.c_str(), 0700), 0);
  if (::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a 64 KiB tmpfs here (" << std::strerror(errno)
                 << "); the full-disk case needs root or CAP_SYS_ADMIN";
  mount_ = small;
  const std::string out = small + "/out", key = small + "/key";
  write_file(out, "old content");
  ls::save_key(key, key_);
  // 200 KB do not fit in 64 KiB.
  EXPECT_THROW(ls::encrypt_file(key_, plain_, out, {}, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  EXPECT_THROW(ls::decrypt_file(key_, dir_ + "/plain.lwc", out, {}, true), ls::error);
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
  expect_names(small, {"out", "key"});
  // Filled to the last byte: even a key file no longer fits, and the old one stays.
  {
    std::ofstream fill(small + "/fill", std::ios::binary);
    const std::string block(4096, 'x');
    while (fill.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }
  std::ofstream(small + "/fill", std::ios::binary | std::ios::app).write("x", 1);
  EXPECT_THROW(ls::save_key(key, ls::generate_key(), true), ls::error);
  EXPECT_EQ(ls::load_key(key).bytes, key_.bytes);
  expect_names(small, {"out", "key", "fill"});
}

// A writer killed at any point leaves the destination as it was: it writes a temporary file
// and renames it only when complete. The child encrypts from a pipe, so that the kill lands
// while it is surely in the middle (its temporary file already holds data).
TEST_F(FileFaults, KilledWriterLeavesTheOldOutput) {
  const std::string out = dir_ + "/out", fifo = dir_ + "/input";
  write_file(out, "old content");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    try {
      ls::options o;
      o.threads = 1;
      ls::encrypt_file(key_, fifo, out, o, true);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  const int w = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(w, 0);
  const bytes block = random_bytes_of(1 << 20, 3);
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(::write(w, block.data(), block.size()), static_cast<ssize_t>(block.size()));
  // Wait until output went to the temporary file, then kill the writer there.
  bool started = false;
  for (int tries = 0; tries < 2000 && !started; ++tries) {
    for (const std::string& n : names_in(dir_)) {
      struct stat st {};
      if (n.rfind(".out.", 0) == 0 && ::stat((dir_ + "/" + n).c_str(), &st) == 0 && st.st_size > 0)
        started = true;
    }
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(started) << "no temporary file with data appeared next to the output";
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(w);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(read_text(out) == "old content") << out << " changed";
}

}  // namespace
