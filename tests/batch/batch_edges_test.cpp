// SPDX-License-Identifier: MIT OR Apache-2.0
// The batch engine's C++ API at its edges: sizes whose products wrap (n * out_len, n * tag_len)
// are refused before anything is read or written; outputs that overlap inputs are refused
// with a message naming the buffers (exactly in place excepted); the default tag is the full
// one. Runs under ASan/UBSan in stage 20: a wrapped product used to size a write crashed there.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <lwc/batch.hpp>
#include <lwc/registry.hpp>

namespace {

using bytes = std::vector<std::uint8_t>;
namespace batch = lwc::batch;

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr std::size_t sweep[] = {std::size_t{1} << 31,       (std::size_t{1} << 31) + 1,
                                 0xFFFFFFFFu,                std::size_t{1} << 32,
                                 std::size_t{1} << 63,       (std::size_t{1} << 63) + 1,
                                 size_max - 16,              size_max - 1,
                                 size_max};

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

const batch::options one_thread{1, {}};

TEST(BatchSizes, WrappingProductsAreRefused) {
  bytes msgs(64, 1), out(64), tags(64), keys(32, 2), nonces(32, 3);
  std::vector<std::uint8_t> ok(2);
  const std::size_t offsets[] = {0, 16, 32};
  const batch::packed in{msgs, offsets};
  for (const std::size_t n : sweep) {
    SCOPED_TRACE(n);
    // Two digests of n bytes: 2 * n wraps for n >= 2^63 and, before the check, sized the
    // output check to a few bytes while the engine wrote n per job.
    if (n > size_max / 2) {
      EXPECT_THROW(batch::hash_packed("ascon-xof128", in, {out.data(), 2 * n}, n, one_thread),
                   std::invalid_argument);
    }
    EXPECT_THROW(batch::hash_packed("ascon-hash256", in, out, n, one_thread),
                 std::invalid_argument);
    const batch::packed_aead_inputs aead{keys, nonces, in, {}, {}};
    EXPECT_THROW(batch::encrypt_packed("ascon-aead128", aead, out, {tags.data(), 2 * n}, n,
                                       one_thread),
                 std::invalid_argument);
    EXPECT_THROW((void)batch::decrypt_packed("ascon-aead128", aead, {tags.data(), 2 * n}, out, ok,
                                             n, one_thread),
                 std::invalid_argument);
    const batch::aead_job job{{keys.data(), 16}, {nonces.data(), 16}, {}, {}, {},
                              {tags.data(), 16}, {}};
    EXPECT_THROW(batch::encrypt("ascon-aead128", {&job, 1}, n, one_thread), std::invalid_argument);
    EXPECT_THROW((void)batch::decrypt("ascon-aead128", {&job, 1}, {ok.data(), 1}, n, one_thread),
                 std::invalid_argument);
  }
  EXPECT_NE(error_of([&] {
              batch::hash_packed("ascon-xof128", in, {out.data(), 0}, std::size_t{1} << 63,
                                 one_thread);
            }).find("does not fit"),
            std::string::npos);
}

TEST(BatchOverlaps, OutputsMustNotShareMemoryWithInputs) {
  bytes pool(1024, 7), tags(64), out(256);
  std::vector<std::uint8_t> ok(4);
  const std::size_t offsets[] = {0, 32, 64, 96, 128};
  // keys [0, 64), nonces [64, 128), messages [256, 384), associated data [512, 640)
  batch::packed_aead_inputs in{{pool.data(), 64},
                               {pool.data() + 64, 64},
                               {{pool.data() + 256, 128}, offsets},
                               {{pool.data() + 512, 128}, offsets},
                               {}};
  batch::encrypt_packed("ascon-aead128", in, {out.data(), 128}, tags, batch::full_tag, one_thread);
  // exactly in place
  batch::encrypt_packed("ascon-aead128", in, {pool.data() + 256, 128}, tags, batch::full_tag,
                        one_thread);
  const struct {
    std::size_t out_at;
    const char* input;
  } shifted[] = {{257, "message"}, {200, "message"}, {60, "key"}, {64, "nonce"}, {540, "associated data"}};
  for (const auto& c : shifted) {
    SCOPED_TRACE(c.out_at);
    const std::string e = error_of([&] {
      batch::encrypt_packed("ascon-aead128", in, {pool.data() + c.out_at, 128}, tags,
                            batch::full_tag, one_thread);
    });
    EXPECT_NE(e.find(std::string("overlaps the ") + c.input), std::string::npos) << e;
    EXPECT_NE(e.find("ascon-aead128"), std::string::npos) << e;
  }
  EXPECT_NE(error_of([&] {
              batch::encrypt_packed("ascon-aead128", in, {out.data(), 128},
                                    {pool.data() + 520, 64}, batch::full_tag, one_thread);
            }).find("tag buffer overlaps the associated data"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              (void)batch::decrypt_packed("ascon-aead128", in, {out.data() + 120, 64},
                                          {out.data(), 128}, ok, batch::full_tag, one_thread);
            }).find("overlaps the tag"),
            std::string::npos);

  // a job's output against its own key, nonce, associated data, tag
  bytes key(16, 1), nonce(16, 2), msg(48, 3), job_out(48), tag(16);
  batch::aead_job job{key,  nonce, {msg.data(), 8}, {msg.data() + 16, 32}, {msg.data() + 16, 32},
                      tag, {}};
  batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread);  // in place
  job.out = {msg.data() + 12, 32};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("job 0: output overlaps the input"),
            std::string::npos);
  job.out = {msg.data(), 32};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("overlaps"),
            std::string::npos);
  job.out = {job_out.data(), 32};
  job.tag = {msg.data() + 4, 16};
  EXPECT_NE(error_of([&] { batch::encrypt("ascon-aead128", {&job, 1}, batch::full_tag, one_thread); })
                .find("tag overlaps"),
            std::string::npos);

  // hashes: no sharing at all
  bytes digest_pool(256, 5);
  const std::size_t hash_offsets[] = {0, 32, 64};
  const batch::packed hin{{digest_pool.data(), 64}, hash_offsets};
  EXPECT_NE(error_of([&] {
              batch::hash_packed("ascon-hash256", hin, {digest_pool.data() + 32, 64}, 32,
                                 one_thread);
            }).find("output buffer overlaps the message"),
            std::string::npos);
  batch::hash_job hj{{digest_pool.data(), 64}, {digest_pool.data() + 63, 32}};
  EXPECT_NE(error_of([&] { batch::hash("ascon-hash256", {&hj, 1}, one_thread); }).find("job 0"),
            std::string::npos);
}

}  // namespace
