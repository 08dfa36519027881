// SPDX-License-Identifier: MIT OR Apache-2.0
// Streaming authenticated encryption in the lwc stream format (docs/stream-format.md): the
// STREAM construction over any AEAD of the registry that the format admits, with a chunk
// counter and a last-chunk flag in every nonce, so that truncation, reordering, duplication
// and appended data are all detected. Chunks are sealed and opened in batches by the batch
// engine (SIMD lanes) on worker threads while the calling thread reads and writes. The
// format itself (header, ids, key derivation) is header-only in <lwc/stream/format.hpp>; this
// part is compiled: link with lwc::stream.
//
// Release rule (what a caller may have consumed before a failure): a decryptor hands out the
// plaintext of a chunk only after that chunk's tag verified, in order, and reports the end of
// the stream (read() returning 0, finish() returning) only after the last chunk verified. When
// a later chunk fails, or the input turns out truncated, the plaintext already handed out is
// authentic but incomplete: it is a prefix of the original, cut at a chunk boundary, and the
// caller must treat everything it received as unconfirmed until the end was reported (write
// it to a temporary file and rename it at the end, as `lwc decrypt -o` does, or discard it).
//
// Misuse warnings: an encryptor that is destroyed without finish() leaves a stream without its
// last chunk, which every decryptor rejects. Objects are not thread-safe; use one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "stream/format.hpp"

namespace lwc::stream {

// Where output goes; receives the pieces of one batch in order (views valid during the call).
class sink {
 public:
  virtual ~sink() = default;
  // Takes the pieces in order; throwing stops the stream's call with that exception.
  virtual void write(std::span<const bytes_view> pieces) = 0;
};

// Where input comes from: read() fills up to buf.size() bytes and returns how many; 0 only at
// the end of the input.
class source {
 public:
  virtual ~source() = default;
  virtual std::size_t read(bytes_span buf) = 0;
};

// How a stream is written or read: the algorithm and chunk size apply to encryption (a
// decryptor reads them from the header).
struct options {
  // Encryption: any AEAD the format admits, by registry entry or name.
  algorithm_ref algorithm = "ascon-aead128";
  unsigned chunk_shift = default_chunk_shift;      // encryption: chunk size 2^shift, 6 to 20
  unsigned threads = 0;                            // workers; 0: one per hardware thread
  std::string name = "the stream";                 // names the input in error messages
  // Encryption: a fixed 32-byte salt instead of a random one, for test vectors only. A salt
  // used twice with one master key reuses every nonce of the file.
  bytes_view fixed_salt_for_tests = {};
};

// Workers used for options::threads == 0, and the most any stream starts.
unsigned default_threads() noexcept;
inline constexpr unsigned max_threads = 64;

namespace detail {
class core;
}

// Plaintext in, stream out (push): the header is written on the first write() or finish();
// data of any size is cut into chunks inside. Output lags the input by up to two batches
// (about 1 MiB) and is complete only after finish().
class encryptor {
 public:
  // Throws error(usage) for an algorithm the format does not admit or a chunk_shift out of
  // range. A moved-from object throws error(usage) on every call.
  explicit encryptor(const master_key& key, const options& opt = {});
  encryptor(encryptor&&) noexcept;
  encryptor& operator=(encryptor&&) noexcept;
  ~encryptor();

  // Encrypts the next plaintext; full batches of chunks go to `out`. Throws error(usage) after
  // finish().
  void write(bytes_view plaintext, sink& out);
  // Reads `in` to its end, straight into the chunk buffers (no copy), then finishes.
  void write_all(source& in, sink& out);
  // Seals the last chunk (marked last in its nonce) and writes everything left; finished() is
  // true after.
  void finish(sink& out);
  bool finished() const noexcept;

  // The AEAD and chunk size of the stream.
  const algorithm& info() const noexcept;
  std::size_t chunk_size() const noexcept;
  // Most bytes the next write(n bytes) can emit, and finish() (for caller-sized buffers).
  std::uint64_t write_bound(std::uint64_t n) const noexcept;
  std::uint64_t finish_bound() const noexcept;

 private:
  std::unique_ptr<detail::core> c_;
};

// Stream in, verified plaintext out, either pushed (write()/finish() with a sink) or pulled
// (read() from a source); one object does one or the other.
class decryptor {
 public:
  // The algorithm and chunk size come from the stream's header, checked once it has arrived
  // (opt.algorithm and opt.chunk_shift are not used).
  explicit decryptor(const master_key& key, const options& opt = {});
  decryptor(decryptor&&) noexcept;
  decryptor& operator=(decryptor&&) noexcept;
  ~decryptor();

  // Push: ciphertext of any size; verified plaintext goes to `out` a batch at a time. Throws
  // error at the first failure (the header as soon as it is complete; a chunk once its batch
  // is opened); everything `out` received before is authentic (see the release rule).
  void write(bytes_view ciphertext, sink& out);
  // The input ended: opens what is left, last chunk included. Returns only when the whole
  // stream verified; throws error(truncated) when the last chunk is missing.
  void finish(sink& out);
  // Pull: fills up to out.size() bytes of verified plaintext from `in`; returns 0 only at the
  // verified end of the stream, and throws error on any failure, truncation included.
  std::size_t read(source& in, bytes_span out);
  // Pull everything from `in` to `out` (no copy between the chunk buffers and `out`).
  void read_all(source& in, sink& out);
  bool finished() const noexcept;  // the last chunk verified

  // Known once the header was read (null before).
  const algorithm* info() const noexcept;
  std::size_t chunk_size() const noexcept;  // 0 before the header was read
  std::uint64_t write_bound(std::uint64_t n) const noexcept;
  std::uint64_t finish_bound() const noexcept;

 private:
  master_key key_;
  options opt_;
  std::array<std::uint8_t, header_size> hdr_{};
  std::size_t hdr_len_ = 0;
  std::unique_ptr<detail::core> c_;
  void open_header(sink* out);
};

// Whole streams: `in` to its end, through the stream format, to `out`. decrypt() returns
// only when the whole stream verified; on an exception `out` may have received verified
// chunks before the failure and must be discarded.
void encrypt(const master_key& key, source& in, sink& out, const options& opt = {});
void decrypt(const master_key& key, source& in, sink& out, const options& opt = {});

// Files: both write a temporary file next to `out_path` (mode 0600 while written), sync it and
// rename it over `out_path` only when complete (decrypt_file: once the last chunk verified),
// so `out_path` never holds partial or unauthenticated data, and on any failure it keeps its
// old content (or stays absent) and the temporary file is removed. Arguments are checked before
// anything is created. An existing `out_path` is an error unless `overwrite`; the input file
// itself (also through a symbolic or hard link) and non-regular files are refused; a symbolic
// link at `out_path` is replaced, not followed. Output modes: encrypted 0666 less the umask,
// decrypted 0600. I/O errors are error(io).
void encrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt = {}, bool overwrite = false);
void decrypt_file(const master_key& key, const std::string& in_path, const std::string& out_path,
                  const options& opt = {}, bool overwrite = false);

// Key files, with the checks of lwc: load_key refuses a regular file with any group or other
// permission bit, a malformed file, or more than 4 KiB (error(key_file)); pipes are accepted.
// save_key writes a new file with mode 0600 the same way (temporary file, sync, rename), never
// replacing an existing file unless `overwrite`; a replaced key file is a new inode.
master_key load_key(const std::string& path);
void save_key(const std::string& path, const master_key& key, bool overwrite = false);
// A fresh key from the kernel's CSPRNG (getrandom).
master_key generate_key();
// Random bytes from the kernel's CSPRNG, never a fallback (error(io) when it fails).
void random_bytes(std::uint8_t* out, std::size_t n);

// Sources and sinks over file descriptors (which stay owned by the caller); `name` appears in
// I/O error messages.
class fd_source : public source {
 public:
  // Each read() is one read(2) of `fd`, retried when interrupted; errors are error(io).
  fd_source(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  std::size_t read(bytes_span buf) override;

 private:
  int fd_;
  std::string name_;
};
class fd_sink : public sink {
 public:
  // Writes every piece to `fd` in full, retrying short and interrupted writes; errors are
  // error(io).
  fd_sink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(std::span<const bytes_view> pieces) override;

 private:
  int fd_;
  std::string name_;
};

}  // namespace lwc::stream
