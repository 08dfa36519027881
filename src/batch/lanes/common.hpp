// SPDX-License-Identifier: MIT OR Apache-2.0
// Pieces shared by the lane kernels of every family: wiping, prefetching the lanes' streams,
// and the per-lane cursors of engines whose lanes advance by one block per step. Included
// inside the backend's namespace (through lane_kernels.hpp), like the kernels themselves.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../../simd/vec_common.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/common.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng {

using std::size_t;
using u8 = std::uint8_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// Little-endian 32-bit words of a job's bytes (the 32-bit families' byte order).
LWC_SIMD_INLINE u32 load_le32(const u8* p) {
  return u32{p[0]} | u32{p[1]} << 8 | u32{p[2]} << 16 | u32{p[3]} << 24;
}
LWC_SIMD_INLINE void store_le32(u8* p, u32 x) {
  p[0] = static_cast<u8>(x);
  p[1] = static_cast<u8>(x >> 8);
  p[2] = static_cast<u8>(x >> 16);
  p[3] = static_cast<u8>(x >> 24);
}

// One 32-bit word with the arithmetic of lane_vector32: the scalar code that finishes a job
// taken out of the lanes runs the same templates as the lanes.
struct word32 {
  static constexpr size_t lanes = 1;
  u32 v;
  LWC_SIMD_INLINE static word32 set1(u32 c) { return {c}; }
  LWC_SIMD_INLINE friend word32 operator^(word32 a, word32 b) { return {a.v ^ b.v}; }
  LWC_SIMD_INLINE friend word32 operator+(word32 a, word32 b) { return {a.v + b.v}; }
  LWC_SIMD_INLINE static word32 not_(word32 a) { return {~a.v}; }
  LWC_SIMD_INLINE static word32 and_(word32 a, word32 b) { return {a.v & b.v}; }
  LWC_SIMD_INLINE static word32 xor3(word32 a, word32 b, word32 c) { return {a.v ^ b.v ^ c.v}; }
  LWC_SIMD_INLINE static word32 xor_andn(word32 a, word32 b, word32 c) { return {a.v ^ (~b.v & c.v)}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word32 rotr(word32 a) { return {a.v >> R | a.v << (32 - R)}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word32 shl(word32 a) { return {a.v << R}; }
  template <unsigned R>
  LWC_SIMD_INLINE static word32 shr(word32 a) { return {a.v >> R}; }
};

// A decrypted job's output ANDed with keep (0xff: the tag verified, 0: rejected), so that a
// rejected plaintext is zeroed without a branch on the verdict. Taking the pointer and length
// by value matters: read through a job descriptor, they could alias the bytes stored, and the
// compiler would then reload them every byte instead of vectorizing the loop (measured at
// half the AVX-512 decryption speed at 1 KiB on an AMD Zen 4).
LWC_SIMD_INLINE void keep_or_zero(u8* out, size_t len, u8 keep) {
  for (size_t b = 0; b < len; ++b) out[b] &= keep;
}

// Word stores through a volatile pointer, so that they are not dropped as dead; n is a
// multiple of 8 for every object wiped here.
LWC_SIMD_INLINE void wipe(void* p, size_t n) {
  volatile u64* v = static_cast<volatile u64*>(p);
  for (size_t i = 0; i < n / 8; ++i) v[i] = 0;
}

// Software prefetching for short segments. Every lane streams through a message of its own,
// V::lanes streams in and as many out. The hardware prefetchers follow a stream once it runs
// long enough; a lane's message of 1 KiB (16 lines) is over before they do, and the loads
// then wait for memory. So a lane whose segment is shorter than prefetch_below bytes asks,
// once per cache line of progress, for the lines prefetch_distance bytes ahead of its input
// and its output. The distance reaches past the short message into the ones packed after it,
// which the lanes take next when a batch is one contiguous buffer (numpy arrays, Arrow
// columns). Lanes in longer segments leave it to the hardware: there the same prefetches made
// 4 and 16 KiB messages slower. Measured on an AMD Zen 4 with batches larger than the caches
// (docs/performance-batch.md, "Prefetching short segments"). A prefetch never faults, so an
// address past a buffer's end is harmless. Both numbers can be set at build time, for
// measuring (-DLWC_BATCH_PREFETCH_DISTANCE=..., -DLWC_BATCH_PREFETCH_BELOW=...).
//
// The lines are asked into the level-2 cache (prefetcht1), the output lines as reads rather
// than for writing (prefetchw, which has no level-2 form). At the 16 KiB distance a line is
// asked for about a whole group of jobs before it is used, so some 32 KiB of lines wait (the
// next messages' input and output), as much as a 32 KiB level-1 cache holds: fetched into
// level 1 they would push out the lines in use (an explanation that fits the figures; this
// guest has no cache-miss counters). Measured on an AMD Zen 4 with 1 KiB messages in a 16 MiB
// batch: Ascon-AEAD128 on AVX-512 2-8 % faster run by run, Xoodyak and Schwaemm 3-6 %, none
// slower, the same in the caches (docs/performance-batch.md, "Prefetching into level 2").
#ifndef LWC_BATCH_PREFETCH_DISTANCE
#define LWC_BATCH_PREFETCH_DISTANCE 16384
#endif
#ifndef LWC_BATCH_PREFETCH_BELOW
#define LWC_BATCH_PREFETCH_BELOW 2048
#endif
inline constexpr size_t prefetch_distance = LWC_BATCH_PREFETCH_DISTANCE;
inline constexpr size_t prefetch_below = LWC_BATCH_PREFETCH_BELOW;
inline constexpr int prefetch_read = 0;     // __builtin_prefetch's rw argument
inline constexpr int prefetch_level2 = 2;   // its locality argument: prefetcht1

// Per-lane cursors of an engine whose lanes all move by one block per step, Rate bytes of
// input and OutRate bytes of output (the same but for the Ascon MACs, which absorb 32 bytes a
// step and squeeze 16): where the lane's next block comes from and goes to, and how many steps
// remain in the current segment. Within a run of steps every lane moves by one block per step,
// so a single offset addresses all of them (off for the input, off / Rate * OutRate for the
// output); a lane that reads no input (squeezing, idle) reads a zero area and a lane whose
// output is discarded (absorbing, idle) writes a scratch area instead, each max_run blocks
// long, and runs are cut to max_run steps while such a lane exists.
//
// With many lanes and mixed lengths some lane ends a segment every few steps, so the
// bookkeeping between runs is written without branches over the lanes, for the compiler to
// vectorize.
template <size_t N, size_t Rate, size_t OutRate = Rate>
struct lane_cursors {
  static constexpr size_t max_run = 64;
  static constexpr u64 idle_left = u64{1} << 62;  // never reached: idle lanes are capped runs

  std::uintptr_t src[N];
  std::uintptr_t dst[N];
  u64 src_moves[N];  // all-ones when src advances a block per step, 0 when it stays put
  u64 dst_moves[N];
  u64 left[N];
  u64 ahead[N];  // prefetch_distance in a short segment, else 0 (the line in use)
  alignas(64) u8 zero[max_run * Rate] = {};
  alignas(64) u8 sink[max_run * OutRate];

  LWC_SIMD_INLINE void idle(size_t j) { set(j, nullptr, nullptr, idle_left); }
  // s or d null: read zeros or discard the output.
  LWC_SIMD_INLINE void set(size_t j, const u8* s, u8* d, u64 n) {
    src_moves[j] = s != nullptr ? ~u64{0} : 0;
    src[j] = reinterpret_cast<std::uintptr_t>(s != nullptr ? s : zero);
    dst_moves[j] = d != nullptr ? ~u64{0} : 0;
    dst[j] = reinterpret_cast<std::uintptr_t>(d != nullptr ? d : sink);
    left[j] = n;
    ahead[j] = s != nullptr && n < prefetch_below / Rate ? prefetch_distance : 0;
  }
  // The length of the next run: up to the first segment end, at most max_run steps when a
  // lane uses the zero or scratch area.
  LWC_SIMD_INLINE u64 run_length() const {
    u64 k = idle_left, moving = ~u64{0};
    for (size_t j = 0; j < N; ++j) {
      k = left[j] < k ? left[j] : k;
      moving &= src_moves[j] & dst_moves[j];
    }
    return moving == 0 && k > max_run ? max_run : k;
  }
  // After a run of k steps.
  LWC_SIMD_INLINE void advance(u64 k) {
    for (size_t j = 0; j < N; ++j) {
      src[j] += k * Rate & src_moves[j];
      dst[j] += k * OutRate & dst_moves[j];
      left[j] -= k;
    }
  }
  // Within a run, at offset off from the run's start: the lines ahead of the lanes in short
  // segments, input and output, or input only (engines whose lanes write nothing as they go).
  // Once per line: at the step whose block is the first to start in it (its start within the
  // line below Rate), which for a rate that divides 64 is the step at the line's start, and for
  // 24 or 40 bytes (Xoodyak, Schwaemm192-192, Ascon-MAC-a) every line still gets its turn.
  static constexpr bool new_line(size_t off) { return off % 64 < Rate; }
  template <bool Output = true>
  LWC_SIMD_INLINE void prefetch(size_t off) const {
#if defined(__GNUC__) || defined(__clang__)
    if (!new_line(off)) return;
    for (size_t j = 0; j < N; ++j) {
      __builtin_prefetch(reinterpret_cast<const void*>(src[j] + off + ahead[j]), prefetch_read,
                         prefetch_level2);
      if constexpr (Output)
        __builtin_prefetch(reinterpret_cast<const void*>(dst[j] + off / Rate * OutRate + ahead[j]),
                           prefetch_read, prefetch_level2);
    }
#else
    (void)off;
#endif
  }
  LWC_SIMD_INLINE void prefetch_input(size_t off) const { prefetch<false>(off); }
  LWC_SIMD_INLINE const u8* src_ptr(size_t j) const { return reinterpret_cast<const u8*>(src[j]); }
  LWC_SIMD_INLINE u8* dst_ptr(size_t j) const { return reinterpret_cast<u8*>(dst[j]); }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
