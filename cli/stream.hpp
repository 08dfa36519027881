// The lwc encrypted file format (docs/stream-format.md): a 60-byte header, then the input cut
// into chunks that are each sealed by the AEAD in the STREAM construction: a per-file key and
// nonce prefix derived with Ascon-CXOF128 from the master key and the header, and a nonce per
// chunk made of that prefix, the chunk counter and a last-chunk flag. Chunks are independent,
// so both directions run them on worker threads while one thread reads and writes.
//
// Decryption hands out plaintext only from chunks that verified, and reports any truncation,
// reordering, duplication, appended data, wrong key or header change as an error; a caller
// that must not release anything before the very end (every caller in lwc) writes to a sink
// that it commits only when decrypt() returned.
#pragma once

#include <sys/uio.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <lwc/registry.hpp>

#include "keyfile.hpp"
#include "progress.hpp"

namespace lwc::cli::stream {

inline constexpr std::array<std::uint8_t, 8> magic = {0x89, 'l', 'w', 'c', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint8_t format_version = 1;
inline constexpr std::size_t salt_size = 32;
inline constexpr std::size_t check_size = 16;
inline constexpr std::size_t prefix_size = 12 + salt_size;  // the header before the key check
inline constexpr std::size_t header_size = prefix_size + check_size;
inline constexpr unsigned min_chunk_shift = 6;    // 64 bytes
inline constexpr unsigned max_chunk_shift = 20;   // 1 MiB: bounds a reader's memory
inline constexpr unsigned default_chunk_shift = 16;  // 64 KiB
inline constexpr std::string_view kdf_customization = "lwc stream v1";
// Nonce = prefix || 64-bit big-endian chunk counter || flag byte (1 on the last chunk).
inline constexpr std::size_t counter_and_flag_size = 9;
inline constexpr std::size_t min_nonce_size = 16;
inline constexpr std::size_t max_nonce_size = 64;
inline constexpr std::size_t min_tag_size = 16;

// Stable on-disk identifiers; a number is never reused. An entry whose name is not (yet)
// registered is reserved and inert.
struct algorithm_id {
  std::uint8_t id;
  std::string_view name;
};
inline constexpr algorithm_id algorithm_ids[] = {
    {1, "ascon-aead128"},          {2, "ascon-128"},           {3, "ascon-128a"},
    {4, "ascon-80pq"},             {5, "acorn-128"},           {6, "xoodyak"},
    {7, "schwaemm256-128"},        {8, "schwaemm192-192"},     {9, "schwaemm128-128"},
    {10, "schwaemm256-256"},       {11, "gift-cofb"},          {12, "romulus-n"},
    {13, "romulus-m"},             {14, "romulus-t"},          {15, "photon-beetle-aead128"},
    {16, "photon-beetle-aead32"},  {17, "isap-a-128a"},        {18, "isap-k-128a"},
    {19, "isap-a-128"},            {20, "isap-k-128"},
};

// 0 when the algorithm has no identifier.
std::uint8_t id_of(std::string_view name);
// Null when the identifier is unknown or its algorithm is not in this build's registry.
const algorithm* algorithm_of(std::uint8_t id);
// Empty when `a` can seal a stream; otherwise the reason it cannot.
std::string unsuitable(const algorithm& a);

// Where output goes; write() receives the pieces of one batch in order.
class sink {
 public:
  virtual ~sink() = default;
  virtual void write(std::span<const iovec> pieces) = 0;
};

struct encrypt_options {
  const algorithm* alg = nullptr;
  unsigned chunk_shift = default_chunk_shift;
  unsigned threads = 1;
};

// `name` only appears in messages. Throws failure on I/O errors.
void encrypt(const master_key& key, const encrypt_options& opt, int in_fd, std::string_view name,
             sink& out, progress& prog);

// Throws failure when the input is not an authentic lwc stream for this key; `out` may then
// have received the verified chunks before the bad one, so it must be discarded.
void decrypt(const master_key& key, unsigned threads, int in_fd, std::string_view name, sink& out,
             progress& prog);

}  // namespace lwc::cli::stream
