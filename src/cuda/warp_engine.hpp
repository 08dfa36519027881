// SPDX-License-Identifier: MIT OR Apache-2.0
// The engine inside every lwc CUDA kernel, written once for the GPU and for a host emulation
// that the CPU tests run. One thread (lane) owns one job at a time and takes the next job of
// its warp's range as soon as it finishes; the warp moves the bytes of all 32 lanes between
// global and shared memory in 16-byte pieces that consecutive lanes take in turn, so global
// memory is read and written in whole lines whatever the job lengths and alignments. The
// cryptography is the portable core's: the same permutation, IVs, rates and byte orders
// (lwc::ascon::permute and the traits of aead.hpp / hash.hpp). docs/cuda.md has the design.
//
// Step order of one warp iteration (run_warp): refill idle lanes, plan (each lane names the
// bytes it needs next), stage_in (the warp copies them into the lanes' rows), process (each
// lane runs its blocks on its row, in place), stage_out (the warp writes the rows' outputs),
// after_store (a lane whose tag failed zeroes its plaintext). On the GPU the steps are
// separated by __syncwarp(); the host emulation runs each step for lanes 0..31 in turn, which
// is one of the schedules the GPU may take, since within a step no lane reads what another
// lane writes.
#pragma once

#include <cstddef>
#include <cstdint>

#include <lwc/ascon/aead.hpp>
#include <lwc/ascon/hash.hpp>
#include <lwc/packed_jobs.hpp>

namespace lwc::cuda::detail {

// ---- job tables (device pointers on the GPU, host pointers in the emulation) ---------------

// A column of the packed job form (<lwc/packed_jobs.hpp>) as the kernels read it: fixed
// (element i at data + i * stride) or with 32- or 64-bit offsets (element i is
// data[offsets[i] .. offsets[i + 1])). The host cannot read offsets in device memory, so the
// kernels check every job's pair themselves: a pair that decreases or ends past `size` makes
// the job invalid (see aead_job_of), so no job reaches outside its column's buffer.
template <class Byte>
struct job_column {
  Byte* data = nullptr;
  std::size_t size = 0;    // bytes at data
  std::size_t stride = 0;  // fixed columns; an absent column is fixed with stride 0
  const void* offsets = nullptr;
  jobs::offset_type kind = jobs::offset_type::none;
};

struct job_bytes {
  std::uintptr_t at;
  std::size_t size;
  bool valid;
};

// Entry k of an offsets array, widened (signed entries sign-extended: a negative one is
// then larger than any buffer). The host checks that a device offsets array is aligned to
// its width; host memory is read byte-wise.
LWC_HD inline std::uint64_t offset_entry(const void* offsets, jobs::offset_type kind, std::size_t k) {
#if defined(__CUDA_ARCH__)
  switch (kind) {
    case jobs::offset_type::u32: return static_cast<const std::uint32_t*>(offsets)[k];
    case jobs::offset_type::i32:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<const std::int32_t*>(offsets)[k]));
    default: return static_cast<const std::uint64_t*>(offsets)[k];
  }
#else
  const auto* p = static_cast<const std::uint8_t*>(offsets);
  switch (kind) {
    case jobs::offset_type::u32: return load_le32(p + 4 * k);
    case jobs::offset_type::i32:
      return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(load_le32(p + 4 * k))));
    default: return load_le64(p + 8 * k);
  }
#endif
}

template <class Byte>
LWC_HD inline job_bytes element_of(const job_column<Byte>& c, std::size_t i) {
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(c.data);
  if (c.kind == jobs::offset_type::none) return {base + i * c.stride, c.stride, true};
  const std::uint64_t from = offset_entry(c.offsets, c.kind, i);
  const std::uint64_t to = offset_entry(c.offsets, c.kind, i + 1);
  if (from > to || to > c.size) return {base, 0, false};
  return {base + static_cast<std::size_t>(from), static_cast<std::size_t>(to - from), true};
}

// n AEAD jobs: the packed form's columns, the sizes every job's elements must have (from the
// registry entry) and where the tags are. The host pipeline stages every batch into offset
// columns with detached tags; the asynchronous API passes the caller's form as it is.
struct aead_batch {
  job_column<const std::uint8_t> keys, nonces;
  job_column<const std::uint8_t> second_keys;  // absent (size 0, no offsets): no nonce masking
  job_column<const std::uint8_t> ad;           // absent: no associated data
  job_column<const std::uint8_t> in;           // plaintexts, or ciphertexts (+ tag when appended)
  job_column<std::uint8_t> out;
  job_column<const std::uint8_t> tags_in;  // decryption, detached tags
  job_column<std::uint8_t> tags_out;       // encryption, detached tags
  std::uint8_t* ok;                        // decryption: count flags
  std::size_t count;
  std::uint32_t tag_len;
  bool appended;  // tags after each ciphertext: in out's elements (encrypt), in in's (decrypt)
  std::uint32_t key_size, nonce_size, second_key_size;
};

// Job i of an AEAD batch, its elements checked against each other and the algorithm's sizes.
struct aead_job {
  std::uintptr_t key, nonce, second_key, ad, in, out, tag;  // second_key 0: none
  std::size_t ad_len, len;  // len: the message, without an appended tag
  std::size_t out_size;     // an invalid job's output bytes that are its own (else 0)
  bool valid;
};

template <bool Decrypt>
LWC_HD inline aead_job aead_job_of(const aead_batch& b, std::size_t i) {
  aead_job j{};
  const job_bytes key = element_of(b.keys, i), nonce = element_of(b.nonces, i);
  const job_bytes second = element_of(b.second_keys, i), ad = element_of(b.ad, i);
  const job_bytes in = element_of(b.in, i), out = element_of(b.out, i);
  j.key = key.at;
  j.nonce = nonce.at;
  j.second_key = second.size != 0 ? second.at : 0;
  j.ad = ad.at;
  j.ad_len = ad.size;
  j.in = in.at;
  j.out = out.at;
  // An appended tag is read from the end of the input, or written after the output.
  std::size_t shrink = 0, grow = 0;
  if (b.appended) {
    if constexpr (Decrypt) shrink = b.tag_len;
    else grow = b.tag_len;
  }
  const bool holds_tag = in.size >= shrink;
  j.len = holds_tag ? in.size - shrink : 0;
  job_bytes tag{};
  if (b.appended) tag = {Decrypt ? in.at + j.len : out.at + j.len, b.tag_len, true};
  else tag = Decrypt ? element_of(b.tags_in, i) : element_of(b.tags_out, i);
  j.tag = tag.at;
  j.out_size = out.valid ? out.size : 0;
  j.valid = key.valid && key.size == b.key_size && nonce.valid && nonce.size == b.nonce_size &&
            second.valid && (second.size == 0 || second.size == b.second_key_size) && ad.valid &&
            in.valid && holds_tag && out.valid && out.size == j.len + grow &&
            tag.valid && tag.size == b.tag_len;
  return j;
}

// n hash, XOF, CXOF, MAC or PRF jobs: output element i is job i's digest (its size is the
// output length: one for all in the host pipeline, any per job for XOFs and PRFs).
struct sponge_batch {
  job_column<const std::uint8_t> in;
  job_column<std::uint8_t> out;
  job_column<const std::uint8_t> keys;    // MACs and PRFs; else absent
  job_column<const std::uint8_t> custom;  // CXOFs: absent or a string per job
  std::size_t count;
  std::size_t key_size = 0;          // keyed algorithms' key size
  std::size_t output_size = 0;       // fixed-output algorithms' digest size; 0: any length
  std::size_t max_input = SIZE_MAX;  // the algorithm's message limit
  std::size_t max_custom = 0;        // CXOFs' customization limit
};

struct sponge_job {
  std::uintptr_t in, out, key, custom;
  std::size_t len, out_len, custom_len;
  bool valid;
};

LWC_HD inline sponge_job sponge_job_of(const sponge_batch& b, std::size_t i) {
  const job_bytes in = element_of(b.in, i), out = element_of(b.out, i);
  const job_bytes key = element_of(b.keys, i), custom = element_of(b.custom, i);
  sponge_job j{in.at, out.at, key.at, custom.at, in.size, out.size, custom.size, false};
  j.valid = in.valid && in.size <= b.max_input && out.valid &&
            (b.output_size == 0 || out.size == b.output_size) && key.valid &&
            key.size == b.key_size && custom.valid && custom.size <= b.max_custom;
  return j;
}

// ---- shared memory ---------------------------------------------------------------------------

inline constexpr unsigned warp_lanes = 32;
// Bytes a lane takes per step: a multiple of every rate. 256 keeps 16 pieces per row, so a
// step's copy loop is 16 coalesced iterations per lane (see docs/cuda.md for the occupancy).
inline constexpr unsigned stage_bytes = 256;
inline constexpr unsigned pieces_in = stage_bytes / 16;
// A destination that is not 16-byte aligned touches one more 16-byte piece.
inline constexpr unsigned pieces_out = pieces_in + 1;
// An odd number of 16-byte pieces between rows: the 8 lanes of each phase of a 128-bit
// shared access then hit 8 different groups of 4 banks (no bank conflict).
inline constexpr unsigned row_stride = 16 * pieces_out;
static_assert((row_stride / 16) % 2 == 1);

struct stage_desc {
  std::uintptr_t src;  // next input bytes of the lane's job
  std::uintptr_t dst;  // where the lane's output row goes
  std::uint32_t n_in;
  std::uint32_t n_out;
};

struct warp_shared {
  alignas(16) std::uint8_t rows[warp_lanes][row_stride];
  stage_desc desc[warp_lanes];
};

// ---- memory access ---------------------------------------------------------------------------
// On the GPU: native (little-endian) aligned loads and stores, as global-memory instructions
// (job addresses travel as integers; without the assumption they would be generic ones). On the host:
// the byte-order explicit helpers of the core, which give the same values on any host.

struct piece {
  std::uint32_t w[4];
};

template <class T>
LWC_HD inline const T* as_ptr(std::uintptr_t a) {
  const T* p = reinterpret_cast<const T*>(a);
#if defined(__CUDA_ARCH__)
  __builtin_assume(__isGlobal(p));
#endif
  return p;
}
template <class T>
LWC_HD inline T* as_mut_ptr(std::uintptr_t a) {
  T* p = reinterpret_cast<T*>(a);
#if defined(__CUDA_ARCH__)
  __builtin_assume(__isGlobal(p));
#endif
  return p;
}

LWC_HD inline std::uint32_t gload8(std::uintptr_t a) {
#if defined(__CUDA_ARCH__)
  return *as_ptr<unsigned char>(a);
#else
  return *as_ptr<std::uint8_t>(a);
#endif
}
LWC_HD inline std::uint32_t gload32(std::uintptr_t a) {
#if defined(__CUDA_ARCH__)
  return *as_ptr<unsigned int>(a);
#else
  return load_le32(as_ptr<std::uint8_t>(a));
#endif
}
LWC_HD inline piece gload16(std::uintptr_t a) {
#if defined(__CUDA_ARCH__)
  const uint4 v = *as_ptr<uint4>(a);
  return {{v.x, v.y, v.z, v.w}};
#else
  const std::uint8_t* p = as_ptr<std::uint8_t>(a);
  return {{load_le32(p), load_le32(p + 4), load_le32(p + 8), load_le32(p + 12)}};
#endif
}
LWC_HD inline void gstore32(std::uintptr_t a, std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  *as_mut_ptr<unsigned int>(a) = x;
#else
  store_le32(as_mut_ptr<std::uint8_t>(a), x);
#endif
}
LWC_HD inline void gstore16(std::uintptr_t a, const piece& v) {
#if defined(__CUDA_ARCH__)
  *as_mut_ptr<uint4>(a) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
#else
  std::uint8_t* p = as_mut_ptr<std::uint8_t>(a);
  for (int i = 0; i < 4; ++i) store_le32(p + 4 * i, v.w[i]);
#endif
}
LWC_HD inline void gstore8(std::uintptr_t a, std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  *as_mut_ptr<unsigned char>(a) = static_cast<unsigned char>(x);
#else
  *as_mut_ptr<std::uint8_t>(a) = static_cast<std::uint8_t>(x);
#endif
}

// Row offsets are multiples of the access size; rows are 16-byte aligned.
LWC_HD inline std::uint32_t row_load32(const std::uint8_t* row, unsigned off) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const std::uint32_t*>(row + off);
#else
  return load_le32(row + off);
#endif
}
LWC_HD inline std::uint64_t row_load64(const std::uint8_t* row, unsigned off) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const std::uint64_t*>(row + off);
#else
  return load_le64(row + off);
#endif
}
LWC_HD inline void row_store64(std::uint8_t* row, unsigned off, std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<std::uint64_t*>(row + off) = x;
#else
  store_le64(row + off, x);
#endif
}
LWC_HD inline piece row_load16(const std::uint8_t* row, unsigned off) {
#if defined(__CUDA_ARCH__)
  const uint4 v = *reinterpret_cast<const uint4*>(row + off);
  return {{v.x, v.y, v.z, v.w}};
#else
  return {{load_le32(row + off), load_le32(row + off + 4), load_le32(row + off + 8),
           load_le32(row + off + 12)}};
#endif
}
LWC_HD inline void row_store16(std::uint8_t* row, unsigned off, const piece& v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<uint4*>(row + off) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
#else
  for (int i = 0; i < 4; ++i) store_le32(row + off + 4 * i, v.w[i]);
#endif
}

// (hi:lo) >> 8 * m, low word; m in 0..3.
LWC_HD inline std::uint32_t shift_pair(std::uint32_t lo, std::uint32_t hi, unsigned m) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(lo, hi, 8 * m);
#else
  return m == 0 ? lo : (lo >> (8 * m)) | (hi << (32 - 8 * m));
#endif
}

LWC_HD inline std::uint64_t bswap64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  const std::uint32_t lo = static_cast<std::uint32_t>(x), hi = static_cast<std::uint32_t>(x >> 32);
  return static_cast<std::uint64_t>(__byte_perm(lo, 0, 0x0123)) << 32 | __byte_perm(hi, 0, 0x0123);
#else
  x = (x & 0x00ff00ff00ff00ffull) << 8 | ((x >> 8) & 0x00ff00ff00ff00ffull);
  x = (x & 0x0000ffff0000ffffull) << 16 | ((x >> 16) & 0x0000ffff0000ffffull);
  return x << 32 | x >> 32;
#endif
}

// Converts between a little-endian load of 8 bytes and the mode's state word (Lanes::load).
template <class Lanes>
LWC_HD inline std::uint64_t le_to_lane(std::uint64_t x) {
  if constexpr (Lanes::shift(0) == 0) {
    return x;
  } else {
    return bswap64(x);
  }
}

// State-word mask of the first `n` (0..8) bytes of an 8-byte block in the mode's byte order.
template <class Lanes>
LWC_HD inline std::uint64_t lane_prefix_mask(unsigned n) {
  if (n >= 8) return ~std::uint64_t{0};
  if (n == 0) return 0;
  if constexpr (Lanes::shift(0) == 0) {
    return (std::uint64_t{1} << (8 * n)) - 1;
  } else {
    return ~std::uint64_t{0} << (64 - 8 * n);
  }
}

// XORs the padding after r (0 .. rate - 1) bytes of a block into the state. Selects instead of
// indexing x[r / 8]: a run-time index would move the whole state out of registers on the GPU.
template <class Lanes, unsigned Rate>
LWC_HD inline void xor_padding(ascon::state& s, unsigned r) {
  const std::uint64_t p = Lanes::pad(r % 8);
  if constexpr (Rate == 8) {
    s.x[0] ^= p;
  } else {
    static_assert(Rate == 16);
    s.x[0] ^= r < 8 ? p : 0;
    s.x[1] ^= r < 8 ? 0 : p;
  }
}

// 8 bytes at any address as a little-endian word.
LWC_HD inline std::uint64_t gload_le64(std::uintptr_t a) {
#if defined(__CUDA_ARCH__)
  if ((a & 7) == 0) return *as_ptr<unsigned long long>(a);
  if ((a & 3) == 0) return std::uint64_t{gload32(a)} | std::uint64_t{gload32(a + 4)} << 32;
  std::uint64_t x = 0;
  for (unsigned i = 0; i < 8; ++i) x |= std::uint64_t{gload8(a + i)} << (8 * i);
  return x;
#else
  return load_le64(as_ptr<std::uint8_t>(a));
#endif
}

// The first n (0..16) bytes at a as two little-endian words, zero beyond n.
LWC_HD inline void gload_le_bytes(std::uintptr_t a, unsigned n, std::uint64_t& w0,
                                  std::uint64_t& w1) {
  w0 = 0;
  w1 = 0;
  if ((a & 3) == 0 && (n & 3) == 0) {
    for (unsigned i = 0; i < n; i += 4) {
      const std::uint64_t x = gload32(a + i);
      if (i < 8) w0 |= x << (8 * i);
      else w1 |= x << (8 * (i - 8));
    }
    return;
  }
  for (unsigned i = 0; i < n; ++i) {
    if (i < 8) w0 |= std::uint64_t{gload8(a + i)} << (8 * i);
    else w1 |= std::uint64_t{gload8(a + i)} << (8 * (i - 8));
  }
}
LWC_HD inline void gstore_le_bytes(std::uintptr_t a, unsigned n, std::uint64_t w0,
                                   std::uint64_t w1) {
  if ((a & 3) == 0 && (n & 3) == 0) {
    for (unsigned i = 0; i < n; i += 4) {
      const std::uint64_t x = i < 8 ? w0 >> (8 * i) : w1 >> (8 * (i - 8));
      gstore32(a + i, static_cast<std::uint32_t>(x));
    }
    return;
  }
  for (unsigned i = 0; i < n; ++i)
    gstore8(a + i, static_cast<std::uint32_t>(i < 8 ? w0 >> (8 * i) : w1 >> (8 * (i - 8))));
}

LWC_HD inline void zero_range(std::uintptr_t a, std::size_t n) {
  const std::uintptr_t end = a + n;
  for (; a < end && (a & 3) != 0; ++a) gstore8(a, 0);
  for (; a + 4 <= end; a += 4) gstore32(a, 0);
  for (; a < end; ++a) gstore8(a, 0);
}

// The aligned word at a, with the bytes outside [lo, hi) taken as zero and never read: a job's
// range is read and written to the byte, so neighbouring jobs (other threads) are untouched.
LWC_HD inline std::uint32_t load_word_clipped(std::uintptr_t a, std::uintptr_t lo,
                                              std::uintptr_t hi) {
  if (a >= lo && a + 4 <= hi) return gload32(a);
  std::uint32_t x = 0;
  for (unsigned b = 0; b < 4; ++b)
    if (a + b >= lo && a + b < hi) x |= gload8(a + b) << (8 * b);
  return x;
}

// Bytes [16u, 16u + 16) of the n bytes at src, zero beyond n.
LWC_HD inline piece load_piece(std::uintptr_t src, std::uint32_t n, unsigned u) {
  const std::uintptr_t p = src + 16 * u, end = src + n;
  if ((p & 15) == 0 && p + 16 <= end) return gload16(p);
  const unsigned m = static_cast<unsigned>(p & 3);
  const std::uintptr_t a = p - m;
  std::uint32_t w[5];
  for (unsigned q = 0; q < 4; ++q) w[q] = load_word_clipped(a + 4 * q, src, end);
  w[4] = m != 0 ? load_word_clipped(a + 16, src, end) : 0;
  piece r;
  for (unsigned i = 0; i < 4; ++i) r.w[i] = shift_pair(w[i], w[i + 1], m);
  return r;
}

// Writes the part of the n output bytes at dst that falls in destination piece u: with
// dst 16-byte aligned, output bytes [16u, 16u + 16); otherwise the aligned words
// 4u .. 4u + 3 counted from dst rounded down to 4 bytes (each word has one writer).
LWC_HD inline void store_piece(std::uintptr_t dst, std::uint32_t n, const std::uint8_t* row,
                               unsigned u) {
  const std::uintptr_t end = dst + n;
  if ((dst & 15) == 0) {
    const std::uintptr_t p = dst + 16 * u;
    if (p >= end) return;
    if (p + 16 <= end) {
      gstore16(p, row_load16(row, 16 * u));
      return;
    }
    for (unsigned b = 0; p + b < end; ++b) gstore8(p + b, row[16 * u + b]);
    return;
  }
  const unsigned m = static_cast<unsigned>(dst & 3);
  const std::uintptr_t a = dst - m;
  for (unsigned q = 0; q < 4; ++q) {
    const unsigned g = 4 * u + q;
    const std::uintptr_t wa = a + 4 * g;
    if (wa >= end) break;
    // Destination word g holds output bytes 4g - m .. 4g - m + 3: the top m bytes of row
    // word g - 1 and the low 4 - m bytes of row word g.
    const std::uint32_t hi = row_load32(row, 4 * g);
    const std::uint32_t lo = g != 0 ? row_load32(row, 4 * g - 4) : 0;
    const std::uint32_t x = m != 0 ? shift_pair(lo, hi, 4 - m) : hi;
    if (wa >= dst && wa + 4 <= end) {
      gstore32(wa, x);
    } else {
      for (unsigned b = 0; b < 4; ++b)
        if (wa + b >= dst && wa + b < end) gstore8(wa + b, x >> (8 * b));
    }
  }
}

// Lane `lane`'s share of copying every lane's planned input into its row. Piece k of the
// warp (k = lane, lane + 32, ...) is piece k % pieces_in of row k / pieces_in, so the 32
// lanes of one iteration read two rows' worth of consecutive bytes.
LWC_HD inline void stage_in(warp_shared& sh, unsigned lane) {
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
  for (unsigned k = lane; k < warp_lanes * pieces_in; k += warp_lanes) {
    const unsigned j = k / pieces_in, u = k % pieces_in;
    const stage_desc& d = sh.desc[j];
    if (16 * u < d.n_in) row_store16(sh.rows[j], 16 * u, load_piece(d.src, d.n_in, u));
  }
}

LWC_HD inline void stage_out(warp_shared& sh, unsigned lane) {
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
  for (unsigned k = lane; k < warp_lanes * pieces_out; k += warp_lanes) {
    const unsigned j = k / pieces_out, u = k % pieces_out;
    const stage_desc& d = sh.desc[j];
    if (d.n_out != 0) store_piece(d.dst, d.n_out, sh.rows[j], u);
  }
}

template <class T>
LWC_HD inline T min_of(T a, T b) {
  return a < b ? a : b;
}

// ---- AEAD lanes ------------------------------------------------------------------------------

enum class lane_phase : std::uint8_t { idle, associated_data, message, squeeze };

// One job of an Ascon AEAD with a 128-bit key (Ascon-AEAD128, Ascon-128, Ascon-128a), the
// block loop of lwc::ascon::aead_algorithm with the state in registers and the bytes in the
// lane's shared-memory row.
template <class Traits, bool Decrypt>
struct aead_lane {
  using lanes = typename Traits::lanes;
  static constexpr unsigned rate = Traits::rate;
  static constexpr int rounds = Traits::rounds;
  static_assert(Traits::key_size == 16, "the CUDA engine runs 128-bit-key AEADs");
  static_assert(stage_bytes % rate == 0);

  ascon::state s{};
  std::uint64_t k1 = 0, k2 = 0;
  std::size_t job = 0;
  std::uintptr_t seg = 0;  // next input byte of the current segment (AD, then message)
  std::uintptr_t out = 0;  // next output byte
  std::size_t rem = 0;     // bytes of the segment not yet staged
  std::uintptr_t msg = 0, out_start = 0, tag = 0;  // the job's message, output and tag
  std::size_t len = 0;                             // its message length
  lane_phase phase = lane_phase::idle;
  bool wipe = false;  // verification failed: zero the job's output after this step's stores

  LWC_HD bool idle() const { return phase == lane_phase::idle; }

  LWC_HD void start(const aead_batch& b, std::size_t i) {
    job = i;
    const aead_job j = aead_job_of<Decrypt>(b, i);
    // The host cannot check offsets in device memory: a job whose elements do not fit is
    // skipped (and, when decrypting, fails with its own output bytes zeroed) rather than run
    // over other jobs' memory.
    if (!j.valid) {
      if constexpr (Decrypt) {
        b.ok[i] = 0;
        zero_range(j.out, j.out_size);
      }
      return;
    }
    k1 = le_to_lane<lanes>(gload_le64(j.key));
    k2 = le_to_lane<lanes>(gload_le64(j.key + 8));
    std::uint64_t n0 = le_to_lane<lanes>(gload_le64(j.nonce));
    std::uint64_t n1 = le_to_lane<lanes>(gload_le64(j.nonce + 8));
    if constexpr (Traits::nonce_masking) {
      if (j.second_key != 0) {
        n0 ^= le_to_lane<lanes>(gload_le64(j.second_key));
        n1 ^= le_to_lane<lanes>(gload_le64(j.second_key + 8));
      }
    }
    s = ascon::state{{Traits::iv, k1, k2, n0, n1}};
    ascon::permute<12>(s);
    s.x[3] ^= k1;
    s.x[4] ^= k2;
    msg = j.in;
    len = j.len;
    out_start = j.out;
    out = j.out;
    tag = j.tag;
    if (j.ad_len != 0) {
      phase = lane_phase::associated_data;
      seg = j.ad;
      rem = j.ad_len;
    } else {
      s.x[4] ^= lanes::dsep;
      begin_message();
    }
  }

  LWC_HD void plan(stage_desc& d) const {
    d.src = seg;
    d.n_in = idle() ? 0u : static_cast<std::uint32_t>(min_of<std::size_t>(rem, stage_bytes));
    d.dst = 0;
    d.n_out = 0;
  }

  LWC_HD void process(const aead_batch& b, std::uint8_t* row, stage_desc& d) {
    if (idle()) return;
    const unsigned n = d.n_in;
    const bool last = n == rem;
    seg += n;
    rem -= n;
    if (phase == lane_phase::associated_data) {
      unsigned off = 0;
      for (; off + rate <= n; off += rate) {
        s.x[0] ^= le_to_lane<lanes>(row_load64(row, off));
        if constexpr (rate == 16) s.x[1] ^= le_to_lane<lanes>(row_load64(row, off + 8));
        ascon::permute<rounds>(s);
      }
      if (!last) return;
      const unsigned r = n - off;  // the row is zero beyond n inside its last piece
      if (r != 0) {
        s.x[0] ^= le_to_lane<lanes>(row_load64(row, off));
        if constexpr (rate == 16) s.x[1] ^= le_to_lane<lanes>(row_load64(row, off + 8));
      }
      xor_padding<lanes, rate>(s, r);
      ascon::permute<rounds>(s);
      s.x[4] ^= lanes::dsep;
      begin_message();
      if (rem == 0) {  // empty message: its padding block, then the tag
        s.x[0] ^= lanes::pad(0);
        finish(b);
      }
      return;
    }
    unsigned off = 0;
    for (; off + rate <= n; off += rate) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned w = 0; w < rate / 8; ++w) {
        const std::uint64_t x = le_to_lane<lanes>(row_load64(row, off + 8 * w));
        if constexpr (Decrypt) {
          row_store64(row, off + 8 * w, le_to_lane<lanes>(s.x[w] ^ x));
          s.x[w] = x;
        } else {
          s.x[w] ^= x;
          row_store64(row, off + 8 * w, le_to_lane<lanes>(s.x[w]));
        }
      }
      ascon::permute<rounds>(s);
    }
    d.dst = out;
    d.n_out = n;
    out += n;
    if (!last) return;
    const unsigned r = n - off;
    if (r != 0) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned w = 0; w < rate / 8; ++w) {
        const std::uint64_t x = le_to_lane<lanes>(row_load64(row, off + 8 * w));
        if constexpr (Decrypt) {
          const std::uint64_t p = s.x[w] ^ x;
          row_store64(row, off + 8 * w, le_to_lane<lanes>(p));
          s.x[w] ^= p & lane_prefix_mask<lanes>(r > 8 * w ? r - 8 * w : 0);
        } else {
          s.x[w] ^= x;
          row_store64(row, off + 8 * w, le_to_lane<lanes>(s.x[w]));
        }
      }
    }
    xor_padding<lanes, rate>(s, r);
    finish(b);
  }

  LWC_HD void after_store(const aead_batch&) {
    if (!wipe) return;
    wipe = false;
    zero_range(out_start, len);
  }

 private:
  LWC_HD void begin_message() {
    phase = lane_phase::message;
    seg = msg;
    rem = len;
  }

  LWC_HD void finish(const aead_batch& b) {
    s.x[rate / 8] ^= k1;
    s.x[rate / 8 + 1] ^= k2;
    ascon::permute<12>(s);
    const std::uint64_t t0 = le_to_lane<lanes>(s.x[3] ^ k1);
    const std::uint64_t t1 = le_to_lane<lanes>(s.x[4] ^ k2);
    phase = lane_phase::idle;
    if constexpr (!Decrypt) {
      gstore_le_bytes(tag, b.tag_len, t0, t1);
    } else {
      std::uint64_t e0, e1;
      gload_le_bytes(tag, b.tag_len, e0, e1);
      // Every tag byte is compared; only the verdict is used (it is public: it is returned).
      const unsigned n0 = b.tag_len < 8 ? b.tag_len : 8u;
      const std::uint64_t m0 = n0 == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n0)) - 1;
      const unsigned n1 = b.tag_len - n0;
      const std::uint64_t m1 = n1 == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n1)) - 1;
      const std::uint64_t diff = ((t0 ^ e0) & m0) | ((t1 ^ e1) & m1);
      const std::uint8_t ok = static_cast<std::uint8_t>(1 ^ ((diff | (0 - diff)) >> 63));
      b.ok[job] = ok;
      wipe = ok == 0;
    }
  }
};

// ---- hash and XOF lanes ----------------------------------------------------------------------

// The state after p^12 of the IV, as scalars so that device code may read them.
template <class Params>
struct sponge_start {
  static constexpr ascon::state s = ascon::detail::sponge<Params>::initial_state();
  static constexpr std::uint64_t x0 = s.x[0], x1 = s.x[1], x2 = s.x[2], x3 = s.x[3], x4 = s.x[4];
};

// One job of an unkeyed Ascon sponge with 8-byte rates (Ascon-Hash256, Ascon-XOF128): the
// loop of lwc::ascon::detail::sponge.
template <class Params>
struct sponge_lane {
  using lanes = typename Params::lanes;
  static_assert(Params::in_rate == 8 && Params::out_rate == 8 && !Params::keyed);

  ascon::state s{};
  std::size_t job = 0;
  std::uintptr_t seg = 0;
  std::uintptr_t out = 0;
  std::size_t rem = 0;
  std::size_t out_rem = 0;
  lane_phase phase = lane_phase::idle;
  bool squeezed = false;

  LWC_HD bool idle() const { return phase == lane_phase::idle; }

  LWC_HD void start(const sponge_batch& b, std::size_t i) {
    job = i;
    const sponge_job j = sponge_job_of(b, i);
    if (!j.valid) return;  // skipped, its output untouched (see aead_lane::start)
    using st = sponge_start<Params>;
    s = ascon::state{{st::x0, st::x1, st::x2, st::x3, st::x4}};
    seg = j.in;
    rem = j.len;
    out = j.out;
    out_rem = j.out_len;
    squeezed = false;
    phase = lane_phase::message;
  }

  LWC_HD void plan(stage_desc& d) const {
    d.src = seg;
    d.n_in = phase == lane_phase::message
                 ? static_cast<std::uint32_t>(min_of<std::size_t>(rem, stage_bytes))
                 : 0u;
    d.dst = 0;
    d.n_out = 0;
  }

  LWC_HD void process(const sponge_batch&, std::uint8_t* row, stage_desc& d) {
    if (idle()) return;
    if (phase == lane_phase::message) {
      const unsigned n = d.n_in;
      const bool last = n == rem;
      seg += n;
      rem -= n;
      unsigned off = 0;
      for (; off + 8 <= n; off += 8) {
        s.x[0] ^= le_to_lane<lanes>(row_load64(row, off));
        ascon::permute<Params::absorb_rounds>(s);
      }
      if (!last) return;
      const unsigned r = n - off;
      if (r != 0) s.x[0] ^= le_to_lane<lanes>(row_load64(row, off));
      xor_padding<lanes, 8>(s, r);
      ascon::permute<12>(s);
      phase = lane_phase::squeeze;
    }
    // The row is free once the input is absorbed: squeeze into it in the same step.
    const unsigned k = static_cast<unsigned>(min_of<std::size_t>(out_rem, stage_bytes));
    for (unsigned off = 0; off < k; off += 8) {
      if (squeezed) ascon::permute<Params::squeeze_rounds>(s);
      squeezed = true;
      row_store64(row, off, le_to_lane<lanes>(s.x[0]));
    }
    d.dst = out;
    d.n_out = k;
    out += k;
    out_rem -= k;
    if (out_rem == 0) phase = lane_phase::idle;
  }

  LWC_HD void after_store(const sponge_batch&) {}
};

// ---- the warp loop ---------------------------------------------------------------------------

LWC_HD inline unsigned popcount32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__popc(x));
#else
  return static_cast<unsigned>(__builtin_popcount(x));
#endif
}

// Jobs [first, last) of warp w out of `warps`: equal counts, contiguous, so that the lanes of
// a warp start on neighbouring keys, nonces and messages.
struct job_range {
  std::size_t first, last;
};
LWC_HD inline job_range warp_jobs(std::size_t count, std::size_t warps, std::size_t w) {
  const std::size_t per = count / warps, extra = count % warps;
  const std::size_t first = w * per + min_of(w, extra);
  return {first, first + per + (w < extra ? 1 : 0)};
}

// Warp is device_warp (one lane per thread) or host_warp (all lanes in one thread); both give
// ballot(f) over the lanes, each(f) for every lane, sync() between steps and shared().
template <class Warp, class Batch>
LWC_HD void run_warp(Warp& w, const Batch& b, job_range jobs) {
  std::size_t next = jobs.first;
  for (;;) {
    // Refill idle lanes from the warp's range, in lane order; a job rejected by start() leaves
    // its lane idle for the next round.
    for (;;) {
      const std::uint32_t idle = w.ballot([](const auto& L) { return L.idle(); });
      if (idle == 0 || next >= jobs.last) break;
      const std::size_t base = next;
      w.each([&](auto& L, unsigned lane) {
        if (((idle >> lane) & 1) == 0) return;
        const std::size_t i = base + popcount32(idle & ((1u << lane) - 1));
        if (i < jobs.last) L.start(b, i);
      });
      next += popcount32(idle);
    }
    if (w.ballot([](const auto& L) { return !L.idle(); }) == 0) return;
    w.each([&](auto& L, unsigned lane) { L.plan(w.shared().desc[lane]); });
    w.sync();
    w.each([&](auto&, unsigned lane) { stage_in(w.shared(), lane); });
    w.sync();
    w.each([&](auto& L, unsigned lane) {
      L.process(b, w.shared().rows[lane], w.shared().desc[lane]);
    });
    w.sync();
    w.each([&](auto&, unsigned lane) { stage_out(w.shared(), lane); });
    w.sync();
    w.each([&](auto& L, unsigned) { L.after_store(b); });
  }
}

// The host emulation: every lane of one warp, in one thread.
template <class Lane>
struct host_warp {
  Lane lanes[warp_lanes]{};
  warp_shared* sh;

  template <class F>
  std::uint32_t ballot(F f) const {
    std::uint32_t m = 0;
    for (unsigned i = 0; i < warp_lanes; ++i)
      if (f(lanes[i])) m |= 1u << i;
    return m;
  }
  template <class F>
  void each(F f) {
    for (unsigned i = 0; i < warp_lanes; ++i) f(lanes[i], i);
  }
  void sync() {}
  warp_shared& shared() { return *sh; }
};

// ---- the warp kernels of the Ascon algorithms ------------------------------------------------
// An optional trait of an algorithm (A its class in algorithm_list.hpp): warp_kernel<A>
// with lane types `encrypt_lane` and `decrypt_lane` (an AEAD) or `hash_lane` (a hash) for
// this engine. The launchers and the emulation use it where it exists and the
// one-thread-per-job kernels (thread_jobs.hpp) elsewhere.
//
// The trait is plain member types on purpose: nvcc's host pass evaluated a requires-expression
// naming a member alias template (`typename warp_kernel<A>::template aead<false>`) as false
// while its device pass found it true, so the host launched a kernel the device code never
// compiled (cudaErrorInvalidDeviceFunction on the GPU). CudaApi.HostPassPicksTheKernelsTheDeviceCompiled
// checks that nvcc's host pass and the host compiler agree on every entry.

template <class Algorithm>
struct warp_kernel {};

template <class Traits>
struct ascon_warp_aead {
  using encrypt_lane = aead_lane<Traits, false>;
  using decrypt_lane = aead_lane<Traits, true>;
};
template <class Params>
struct ascon_warp_sponge {
  using hash_lane = sponge_lane<Params>;
};

template <> struct warp_kernel<lwc::ascon::aead128> : ascon_warp_aead<lwc::ascon::detail::aead128_traits> {};
template <> struct warp_kernel<lwc::ascon::v12::ascon128> : ascon_warp_aead<lwc::ascon::detail::v12_128_traits> {};
template <> struct warp_kernel<lwc::ascon::v12::ascon128a> : ascon_warp_aead<lwc::ascon::detail::v12_128a_traits> {};
template <> struct warp_kernel<lwc::ascon::hash256> : ascon_warp_sponge<lwc::ascon::detail::hash256_params> {};
template <> struct warp_kernel<lwc::ascon::xof128> : ascon_warp_sponge<lwc::ascon::detail::xof128_params> {};

template <class A>
concept has_warp_aead = requires {
  typename warp_kernel<A>::encrypt_lane;
  typename warp_kernel<A>::decrypt_lane;
};
template <class A>
concept has_warp_sponge = requires { typename warp_kernel<A>::hash_lane; };

}  // namespace lwc::cuda::detail
