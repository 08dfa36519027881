// SPDX-License-Identifier: MIT OR Apache-2.0
// The C ABI's state objects used from several threads at once: a call that finds a hash state
// or a stream handle in use by another thread is refused (-1, "in use"), never interleaved
// into it, and the state stays usable afterwards; freeing races with use without a crash.
// Error messages read by one thread are not changed by another thread's failures.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "lwc.h"
#include "lwc/stream.h"

namespace {

TEST(CapiThreads, SharedHashStateIsRefusedNotCorrupted) {
  lwc_hash_state st;
  ASSERT_EQ(lwc_hash_init(&st, "ascon-hash256", nullptr, 0, nullptr, 0), 0);
  std::atomic<int> ok{0}, refused{0}, other{0};
  const std::uint8_t block[64] = {1};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        if (lwc_hash_update(&st, block, sizeof block) == 0) {
          ++ok;
        } else if (std::strstr(lwc_error_message(), "in use") != nullptr) {
          ++refused;
        } else {
          ++other;
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_EQ(ok.load() + refused.load(), 8000);
  // The state absorbed exactly the accepted blocks: equal to a one-shot hash of them.
  std::vector<std::uint8_t> all(static_cast<std::size_t>(ok.load()) * sizeof block);
  for (std::size_t i = 0; i < all.size(); i += sizeof block) std::memcpy(&all[i], block, sizeof block);
  std::uint8_t inc[32], one[32];
  ASSERT_EQ(lwc_hash_squeeze(&st, inc, sizeof inc), 0);
  ASSERT_EQ(lwc_hash("ascon-hash256", one, sizeof one, all.data(), all.size()), 0);
  EXPECT_EQ(std::memcmp(inc, one, sizeof one), 0);
  lwc_hash_free(&st);
}

TEST(CapiThreads, FreeRacingWithUse) {
  for (int round = 0; round < 50; ++round) {
    lwc_hash_state st;
    ASSERT_EQ(lwc_hash_init(&st, "ascon-xof128", nullptr, 0, nullptr, 0), 0);
    std::atomic<bool> go{false};
    std::thread user([&] {
      while (!go.load()) std::this_thread::yield();
      std::uint8_t b[16] = {};
      for (int i = 0; i < 200; ++i) (void)lwc_hash_update(&st, b, sizeof b);
    });
    go = true;
    // May be refused while the other thread holds the state; repeated until it went.
    for (int i = 0; i < 200; ++i) lwc_hash_free(&st);
    user.join();
    lwc_hash_free(&st);
    std::uint8_t b[1] = {};
    EXPECT_EQ(lwc_hash_update(&st, b, 1), -1);
  }
}

TEST(CapiThreads, SharedStreamIsRefusedNotInterleaved) {
  std::uint8_t key[32] = {9};
  lwc_stream* s = lwc_stream_encrypt_new(nullptr, 0, 1, key);
  ASSERT_NE(s, nullptr);
  std::atomic<int> other{0};
  // Enough for any one push: no more than all the input of all the threads is ever buffered.
  const std::size_t out_size = lwc_stream_push_bound(s, 3 * 200 * 4096);
  ASSERT_GT(out_size, 0u);
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      std::vector<std::uint8_t> in(4096, 7), out(out_size);
      for (int i = 0; i < 200; ++i) {
        std::size_t n = 0;
        if (lwc_stream_push(s, out.data(), out.size(), &n, in.data(), in.size()) != 0 &&
            std::strstr(lwc_error_message(), "in use") == nullptr) {
          ADD_FAILURE() << lwc_error_message();
          ++other;
        }
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(other.load(), 0);
  lwc_stream_free(s);
}

TEST(CapiThreads, MessagesArePerThread) {
  std::uint8_t buf[64] = {};
  ASSERT_EQ(lwc_hash("ascon-hash256", buf, 33, nullptr, 0), -1);
  const char* mine = lwc_error_message();
  const std::string copy = mine;
  std::thread other([] {
    std::uint8_t b[8] = {};
    for (int i = 0; i < 100; ++i)
      (void)lwc_hash(("thread-unknown-" + std::to_string(i)).c_str(), b, 1, nullptr, 0);
  });
  other.join();
  EXPECT_EQ(lwc_error_message(), mine);
  EXPECT_EQ(copy, mine);
}

}  // namespace
