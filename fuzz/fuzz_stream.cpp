// SPDX-License-Identifier: MIT OR Apache-2.0
// The stream format's reader (lwc::stream::decryptor) on untrusted bytes. The input is a
// stream file, decrypted with one fixed master key, pushed in pieces whose sizes the first
// input byte picks. Properties: every input is either accepted or refused with
// lwc::stream::error (nothing else escapes, nothing crashes or reads out of bounds); the
// plaintext released never outgrows the input; and an accepted stream is canonical: encrypting
// the released plaintext again with the header's algorithm, chunk size and salt gives back the
// input byte for byte, so no second encoding of one plaintext is accepted.
#include <cstdint>
#include <cstring>
#include <vector>

#include <lwc/stream.hpp>

#include "stream_fuzz_key.hpp"

namespace {

struct collect final : lwc::stream::sink {
  std::vector<std::uint8_t> bytes;
  void write(std::span<const lwc::bytes_view> pieces) override {
    for (lwc::bytes_view p : pieces) bytes.insert(bytes.end(), p.begin(), p.end());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t piece = 1 + (std::size_t{data[0]} * 131) % 5000;  // 1 .. 5000 bytes
  const lwc::bytes_view stream{data + 1, size - 1};
  const lwc::stream::master_key key = lwc::fuzz::stream_key();
  lwc::stream::options opt;
  opt.threads = 1;
  lwc::stream::decryptor d(key, opt);
  collect plain;
  try {
    for (std::size_t at = 0; at < stream.size(); at += piece)
      d.write(stream.subspan(at, std::min(piece, stream.size() - at)), plain);
    d.finish(plain);
  } catch (const lwc::stream::error&) {
    if (d.finished()) __builtin_trap();  // refused after reporting the end
    if (plain.bytes.size() > stream.size()) __builtin_trap();
    return 0;
  }
  if (!d.finished() || d.info() == nullptr || plain.bytes.size() > stream.size()) __builtin_trap();

  // Accepted: the same plaintext, algorithm, chunk size and salt must give the same bytes.
  lwc::stream::options again;
  again.threads = 1;
  again.algorithm = d.info()->name;
  again.chunk_shift = stream[10];
  again.fixed_salt_for_tests = stream.subspan(12, lwc::stream::salt_size);
  lwc::stream::encryptor e(key, again);
  collect sealed;
  e.write(plain.bytes, sealed);
  e.finish(sealed);
  if (sealed.bytes.size() != stream.size() ||
      std::memcmp(sealed.bytes.data(), stream.data(), stream.size()) != 0)
    __builtin_trap();
  return 0;
}
