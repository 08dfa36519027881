// SPDX-License-Identifier: MIT OR Apache-2.0
// Elephant v2 in lanes, all three instances (Dumbo: Spongent-pi[160], Jumbo: Spongent-pi[176],
// Delirium: Keccak-f[200]): the permutation calls of many jobs bitsliced together. Included by
// lane_kernels.hpp inside the backend's namespace, so everything here is compiled with that
// backend's instruction set and stays in it; nothing of the single-message core
// (include/lwc/elephant/) is called, only its mode and permutation are restated.
//
// Every call of the permutation in Elephant is independent of the others of its job except
// through three waves: the key expansion comes first (every mask is derived from it), then
// the keystream, associated-data and ciphertext calls (when encrypting, a ciphertext block
// exists only once its keystream call returned), then the tag call on the sum of the
// authentication calls. So the engine keeps a queue of calls from up to `slots` jobs in
// flight; each round fills it with the calls the jobs can make next, runs them all at once
// bitsliced (word i of the state holds bit i of 64 * W::lanes calls, so rho and pi are only a
// choice of word and chi is whole-word logic), and hands each result to its job: keystream to
// the output, authentication to the job's accumulator, the expanded key to the job's masks,
// the tag to the tag check. The bit transposition in and out of that form runs on the lane
// vectors too, 64 x 64 bits per lane.
//
// Where the single-message core bitslices the calls of one message (up to 256 with AVX2),
// short messages have too few calls to fill a batch and run one call at a time; here every
// batch is full whatever the lengths. The call queue is the engine here; claiming jobs, the
// tag check, wiping and the engine's home on the heap are engine.hpp's.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common.hpp"
#include "engine.hpp"

#ifndef LWC_SIMD_NS
#error "include lanes/elephant.hpp through lane_kernels.hpp"
#endif

namespace lwc::simd::LWC_SIMD_NS::eng::elephant_lanes {

// ---- blocks (as include/lwc/elephant/block.hpp): byte i in bits 8 (i % 8) of w[i / 8] ------

struct block {
  u64 w[4];
};

LWC_SIMD_INLINE void xor_into(block& a, const block& b) {
  for (int q = 0; q < 4; ++q) a.w[q] ^= b.w[q];
}
LWC_SIMD_INLINE block xor_of(const block& a, const block& b) {
  return block{{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2], a.w[3] ^ b.w[3]}};
}
LWC_SIMD_INLINE u8 byte_of(const block& b, unsigned i) {
  return static_cast<u8>(b.w[i / 8] >> (8 * (i % 8)));
}
LWC_SIMD_INLINE u8 rotl8(u8 x, unsigned r) {
  return static_cast<u8>(x << (r & 7) | x >> ((8 - r) & 7));
}
LWC_SIMD_INLINE u64 load_le64(const u8* p) {
  u64 x;
  std::memcpy(&x, p, 8);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  return x;
}
LWC_SIMD_INLINE void store_le64(u8* p, u64 x) {
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap64(x);
  std::memcpy(p, &x, 8);
}
// n (<= 32) bytes of p, the rest zero.
LWC_SIMD_INLINE block load_block(const u8* p, size_t n) {
  block b{};
  size_t q = 0;
  for (; 8 * q + 8 <= n; ++q) b.w[q] = load_le64(p + 8 * q);
  for (size_t i = 8 * q; i < n; ++i) b.w[q] |= u64{p[i]} << (8 * (i % 8));
  return b;
}
LWC_SIMD_INLINE void store_block(u8* p, const block& b, size_t n) {
  size_t q = 0;
  for (; 8 * q + 8 <= n; ++q) store_le64(p + 8 * q, b.w[q]);
  for (size_t i = 8 * q; i < n; ++i) p[i] = byte_of(b, static_cast<unsigned>(i));
}

// ---- Keccak-f[200], bitsliced over lane vectors ----------------------------------------------

struct keccak200 {
  static constexpr size_t state_bytes = 25;
  static constexpr size_t bits = 200;
  static constexpr unsigned rounds = 18;
  static constexpr unsigned rho(unsigned i) {
    constexpr unsigned r[25] = {0, 1, 6, 4, 3, 4, 4, 6, 7, 4, 3, 2, 3,
                                1, 7, 1, 5, 7, 5, 0, 2, 2, 5, 0, 6};
    return r[i];
  }
  static constexpr unsigned pi(unsigned i) {
    const unsigned x = i % 5, y = i / 5;
    return 5 * ((2 * x + 3 * y) % 5) + y;
  }
  static constexpr u8 iota(unsigned r) {
    constexpr u8 rc[18] = {0x01, 0x82, 0x8a, 0x00, 0x8b, 0x01, 0x81, 0x09, 0x8a,
                           0x88, 0x09, 0x0a, 0x8b, 0x8b, 0x89, 0x03, 0x02, 0x80};
    return rc[r];
  }

  // s[8 * lane + z] holds bit z of Keccak lane `lane` of every call.
  template <class W>
  LWC_SIMD_INLINE static void permute(W* s, W* b) {
    for (unsigned r = 0; r < rounds; ++r) {
      W c[40], d[40];
      for (unsigned i = 0; i < 40; ++i)
        c[i] = W::xor3(W::xor3(s[i], s[i + 40], s[i + 80]), s[i + 120], s[i + 160]);
      for (unsigned x = 0; x < 5; ++x) {
        const unsigned xm = 8 * ((x + 4) % 5), xp = 8 * ((x + 1) % 5);
        d[8 * x] = c[xm] ^ c[xp + 7];
        for (unsigned z = 1; z < 8; ++z) d[8 * x + z] = c[xm + z] ^ c[xp + z - 1];
      }
      for (unsigned i = 0; i < 25; ++i) {
        const unsigned dst = 8 * pi(i), rot = rho(i), col = 8 * (i % 5);
        for (unsigned z = 0; z < 8; ++z) b[dst + ((z + rot) & 7)] = s[8 * i + z] ^ d[col + z];
      }
      for (unsigned y = 0; y < 200; y += 40)
        for (unsigned x = 0; x < 5; ++x) {
          const unsigned x0 = y + 8 * x, x1 = y + 8 * ((x + 1) % 5), x2 = y + 8 * ((x + 2) % 5);
          for (unsigned z = 0; z < 8; ++z) s[x0 + z] = W::xor_andn(b[x0 + z], b[x1 + z], b[x2 + z]);
        }
      const unsigned rc = iota(r);
      for (unsigned z = 0; z < 8; ++z)
        if (rc >> z & 1) s[z] = W::not_(s[z]);  // public constant
    }
  }
};

// ---- Spongent-pi[160] and [176], bitsliced over lane vectors ----------------------------------

// The S-box {E,D,B,0,2,1,4,F,7,A,8,5,9,C,3,6} as boolean formulas on the four bits of a
// nibble (x0 least significant), outputs 1..3 complemented (spongent.hpp's sbox_nc).
template <class W>
LWC_SIMD_INLINE void sbox_nc(const W& x0, const W& x1, const W& x2, const W& x3, W& y0, W& y1n,
                             W& y2n, W& y3n) {
  const W t = W::and_(x0, x3);
  const W v = x1 ^ x2;
  const W u = W::and_(x1, x2);
  y0 = W::xor_andn(x0 ^ x3, x2, x1);
  y2n = W::and_xor(u, x3, v ^ t);
  y1n = W::and_xor(x3, v ^ u, W::xor3(x0, t, u));  // x1 | x2 = v ^ u
  y3n = W::xor3(W::xor3(x2, x3, t), W::and_(x0, x1), W::and_(x3, W::and_xor(x0, v, x1)));
}

template <unsigned NBits, unsigned Rounds, unsigned Iv>
struct spongent {
  static constexpr size_t state_bytes = NBits / 8;
  static constexpr size_t bits = NBits;
  static constexpr unsigned nibbles = NBits / 4;

  // s[i]: bit i of every call; the bit permutation sends bit 4k + c to c * nibbles + k, which
  // is only where each S-box output is written. t is scratch; Rounds is even, so the result
  // ends in s.
  template <class W>
  LWC_SIMD_INLINE static void permute(W* s, W* t) {
    static_assert(Rounds % 2 == 0);
    constexpr unsigned n = NBits, N = nibbles;
    W* from = s;
    W* to = t;
    unsigned lfsr = Iv;
    for (unsigned r = 0; r < Rounds; ++r) {
      // The round counter into the first 7 bits and, reversed, the last 7 (public constants).
      for (unsigned j = 0; j < 7; ++j) {
        if ((lfsr >> j & 1) == 0) continue;
        from[j] = W::not_(from[j]);
        from[n - 1 - j] = W::not_(from[n - 1 - j]);
      }
      lfsr = ((lfsr << 1) | ((lfsr >> 6 ^ lfsr >> 5) & 1)) & 0x7f;
      for (unsigned k = 0; k < N; ++k) {
        W y0, y1, y2, y3;
        sbox_nc(from[4 * k], from[4 * k + 1], from[4 * k + 2], from[4 * k + 3], y0, y1, y2, y3);
        to[k] = y0;
        to[N + k] = W::not_(y1);
        to[2 * N + k] = W::not_(y2);
        to[3 * N + k] = W::not_(y3);
      }
      W* const u = from;
      from = to;
      to = u;
    }
  }
};

// The instances: permutation, tag length, and the mask LFSR's new byte (elephant.hpp).
struct dumbo {
  using perm = spongent<160, 80, 0x75>;
  static constexpr size_t tag_bytes = 8;
  static u8 feedback(const block& m) {
    return static_cast<u8>(rotl8(byte_of(m, 0), 3) ^ (byte_of(m, 3) << 7) ^ (byte_of(m, 13) >> 7));
  }
};
struct jumbo {
  using perm = spongent<176, 90, 0x45>;
  static constexpr size_t tag_bytes = 8;
  static u8 feedback(const block& m) {
    return static_cast<u8>(rotl8(byte_of(m, 0), 1) ^ (byte_of(m, 3) << 7) ^ (byte_of(m, 19) >> 7));
  }
};
struct delirium {
  using perm = keccak200;
  static constexpr size_t tag_bytes = 16;
  static u8 feedback(const block& m) {
    return static_cast<u8>(rotl8(byte_of(m, 0), 1) ^ rotl8(byte_of(m, 2), 1) ^
                           (byte_of(m, 13) << 1));
  }
};

// ---- 64 x 64 bit transposition on every lane at once ----------------------------------------

// In place: bit c of a[r] becomes bit r of a[c], in every lane. Six rounds of block swaps,
// 32 to 1 bits wide (the core's transpose64 on lane vectors).
template <unsigned J, class W>
LWC_SIMD_INLINE void transpose_round(W (&a)[64], u64 mask) {
  const W m = W::set1(mask);
  for (unsigned k = 0; k < 64; k = ((k | J) + 1) & ~J) {
    const W t = W::and_(W::template shr<J>(a[k]) ^ a[k | J], m);
    a[k] = a[k] ^ W::template shl<J>(t);
    a[k | J] = a[k | J] ^ t;
  }
}
template <class W>
LWC_SIMD_INLINE void transpose64(W (&a)[64]) {
  transpose_round<32>(a, 0x00000000ffffffffu);
  transpose_round<16>(a, 0x0000ffff0000ffffu);
  transpose_round<8>(a, 0x00ff00ff00ff00ffu);
  transpose_round<4>(a, 0x0f0f0f0f0f0f0f0fu);
  transpose_round<2>(a, 0x3333333333333333u);
  transpose_round<1>(a, 0x5555555555555555u);
}

template <class V>
struct half_of {
  using type = V;
};
template <class V>
  requires requires { typename V::half; }
struct half_of<V> {
  using type = typename V::half;
};

inline constexpr size_t nonce_bytes = 12;

template <class V, class P, bool Decrypt>
class engine {
  // One vector of 64-bit lanes per state bit; a pair of vectors (AVX-512's engine vector)
  // would double the calls per batch to 1024, more than the slots below keep busy.
  using W = typename half_of<V>::type;
  using perm = typename P::perm;
  static constexpr size_t B = perm::state_bytes;
  static constexpr size_t L = W::lanes;
  static constexpr size_t calls = 64 * L;  // per batch
  static constexpr size_t slots = calls / 2;
  static constexpr size_t words = (perm::bits + 63) / 64;

  enum kind : u8 { k_expand, k_keystream, k_auth, k_tag };
  enum phase : u8 { p_free, p_expand, p_data, p_cipher_auth, p_tag };

  struct call {
    block post;  // added to the permutation's output
    u32 slot;
    u32 index;   // keystream: the block
    kind what;
  };

  struct job {
    aead_desc d;
    block expanded, nonce_block, acc;
    block m0, m1, m2;  // masks j, j+1, j+2
    size_t j;          // next block index to emit
    size_t end;        // blocks this phase emits
    size_t blocks_m, blocks_c, blocks_a;
    phase ph;
  };

 public:
  explicit engine(const aead_task& t) : t_(t) {}
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;
  ~engine() {
    wipe(jobs_, sizeof jobs_);
    wipe(calls_, sizeof calls_);
    wipe(rows_, sizeof rows_);
    wipe(state_, sizeof state_);
    wipe(scratch_, sizeof scratch_);
  }

  void run() {
    for (;;) {
      start_jobs();
      n_ = 0;
      for (size_t s = 0; s < slots && n_ < calls; ++s) emit(s);
      if (n_ == 0 && active_ == 0) break;
      // With no call to make (no message block to encrypt, say) a job still moves on.
      if (n_ != 0) {
        permute_batch();
        for (size_t i = 0; i < n_; ++i) settle(i);
      }
      for (size_t s = 0; s < slots; ++s) advance(s);
    }
  }

 private:
  static block next_mask(const block& m) {
    block r = m;
    const u8 x = P::feedback(m);
    r.w[0] = r.w[0] >> 8 | r.w[1] << 56;
    r.w[1] = r.w[1] >> 8 | r.w[2] << 56;
    r.w[2] = r.w[2] >> 8 | r.w[3] << 56;
    r.w[3] >>= 8;
    r.w[(B - 1) / 8] |= u64{x} << (8 * ((B - 1) % 8));
    return r;
  }

  // Block i of the padded stream nonce || ad || 0x01 || 0*.
  static block ad_block(const aead_desc& d, size_t i) {
    alignas(8) u8 buf[32] = {};
    size_t n = 0;
    const size_t start = i * B;  // position in nonce || ad
    for (size_t k = start; k < start + B && k < nonce_bytes + d.ad_len; ++k, ++n)
      buf[n] = k < nonce_bytes ? d.nonce[k] : d.ad[k - nonce_bytes];
    if (n < B) buf[n] = 1;
    const block b = load_block(buf, B);
    wipe(buf, sizeof buf);
    return b;
  }
  // Block i of the padded stream s || 0x01 || 0*.
  static block stream_block(const u8* s, size_t len, size_t i) {
    const size_t start = i * B;
    const size_t n = len - start < B ? len - start : B;
    block b = load_block(s + start, n);
    if (n < B) b.w[n / 8] |= u64{1} << (8 * (n % 8));
    return b;
  }

  void start_jobs() {
    for (size_t s = 0; s < slots; ++s) {
      if (jobs_[s].ph != p_free) continue;
      if (pend_i_ == pend_n_) {
        if (exhausted_) return;
        pend_n_ = claim_jobs(t_, sizeof pend_ / sizeof pend_[0], pend_);
        pend_i_ = 0;
        exhausted_ = pend_n_ == 0;
        if (exhausted_) return;
      }
      job& jb = jobs_[s];
      jb.d = pend_[pend_i_++];
      jb.blocks_m = (jb.d.len + B - 1) / B;
      jb.blocks_c = jb.d.len / B + 1;
      jb.blocks_a = (nonce_bytes + jb.d.ad_len) / B + 1;
      jb.ph = p_expand;
      ++active_;
    }
  }

  void push(size_t s, const block& in, const block& post, kind what, size_t index) {
    call& c = calls_[n_];
    for (size_t q = 0; q < words; ++q) rows_[q][n_ % 64][n_ / 64] = in.w[q];
    c.post = post;
    c.slot = static_cast<u32>(s);
    c.index = static_cast<u32>(index);
    c.what = what;
    ++n_;
  }

  // The calls job s can make now, as many as the batch has room for.
  void emit(size_t s) {
    job& jb = jobs_[s];
    switch (jb.ph) {
      case p_expand:  // settle() moves the job on: every call returns within its round
        push(s, load_block(jb.d.key, 16), block{}, k_expand, 0);
        return;
      case p_data:
        // Block j: its keystream call, its ciphertext call when decrypting (the ciphertext is
        // the input), its associated-data call (j >= 1).
        while (jb.j < jb.end && calls - n_ >= 3) {
          const size_t j = jb.j;
          if (j < jb.blocks_m) {
            const block mask = xor_of(jb.m0, jb.m1);
            push(s, xor_of(jb.nonce_block, mask), mask, k_keystream, j);
          }
          if (Decrypt && j < jb.blocks_c) {
            const block mask = xor_of(jb.m0, jb.m2);
            push(s, xor_of(stream_block(jb.d.in, jb.d.len, j), mask), mask, k_auth, j);
          }
          if (j != 0 && j < jb.blocks_a)
            push(s, xor_of(ad_block(jb.d, j), jb.m0), jb.m0, k_auth, j);
          next_block(jb);
        }
        return;
      case p_cipher_auth:
        while (jb.j < jb.end && n_ < calls) {
          const block mask = xor_of(jb.m0, jb.m2);
          push(s, xor_of(stream_block(jb.d.out, jb.d.len, jb.j), mask), mask, k_auth, jb.j);
          next_block(jb);
        }
        return;
      case p_tag:
        push(s, xor_of(jb.acc, jb.expanded), jb.expanded, k_tag, 0);
        return;
      default:
        return;
    }
  }

  static void next_block(job& jb) {
    jb.m0 = jb.m1;
    jb.m1 = jb.m2;
    jb.m2 = next_mask(jb.m2);
    ++jb.j;
  }
  static void restart_masks(job& jb) {
    jb.m0 = jb.expanded;
    jb.m1 = next_mask(jb.m0);
    jb.m2 = next_mask(jb.m1);
    jb.j = 0;
  }

  // The next phase of job s once its calls have returned: the ciphertext's authentication
  // when encrypting (its blocks exist now), then the tag.
  void advance(size_t s) {
    job& jb = jobs_[s];
    if ((jb.ph != p_data && jb.ph != p_cipher_auth) || jb.j < jb.end) return;
    if (Decrypt || jb.ph == p_cipher_auth) {
      jb.ph = p_tag;
      return;
    }
    restart_masks(jb);
    jb.end = jb.blocks_c;
    jb.ph = p_cipher_auth;
  }

  void settle(size_t i) {
    const call& c = calls_[i];
    job& jb = jobs_[c.slot];
    block out;
    for (size_t q = 0; q < 4; ++q) out.w[q] = q < words ? rows_[q][i % 64][i / 64] : 0;
    xor_into(out, c.post);
    switch (c.what) {
      case k_expand: {
        jb.expanded = out;
        jb.nonce_block = load_block(jb.d.nonce, nonce_bytes);
        jb.acc = ad_block(jb.d, 0);
        restart_masks(jb);
        const size_t data_end = Decrypt && jb.blocks_c > jb.blocks_m ? jb.blocks_c : jb.blocks_m;
        jb.end = data_end > jb.blocks_a ? data_end : jb.blocks_a;
        jb.ph = p_data;
        break;
      }
      case k_keystream: {
        const size_t at = c.index * B;
        const size_t n = jb.d.len - at < B ? jb.d.len - at : B;
        xor_into(out, load_block(jb.d.in + at, n));
        store_block(jb.d.out + at, out, n);
        break;
      }
      case k_auth:
        xor_into(jb.acc, out);
        break;
      case k_tag:
        finish(jb, out);
        break;
    }
    wipe(&out, sizeof out);
  }

  void finish(job& jb, const block& t) {
    const aead_desc& d = jb.d;
    alignas(8) u8 tag[32];
    store_block(tag, t, P::tag_bytes);
    settle_tag<Decrypt>(t_, d, tag);
    wipe(tag, sizeof tag);
    wipe(&jb, sizeof jb);
    jb.ph = p_free;
    --active_;
  }

  // The n_ queued calls through the permutation: rows_[q][i][g] (word q of call 64 g + i)
  // transposed into one vector per state bit, permuted, transposed back.
  void permute_batch() {
    for (size_t q = 0; q < words; ++q) {
      W a[64];
      for (size_t i = 0; i < 64; ++i) a[i] = W::load(rows_[q][i]);
      transpose64(a);
      for (size_t i = 0; i < 64 && 64 * q + i < perm::bits; ++i) state_[64 * q + i] = a[i];
      wipe(a, sizeof a);
    }
    perm::permute(state_, scratch_);
    for (size_t q = 0; q < words; ++q) {
      W a[64];
      for (size_t i = 0; i < 64; ++i)
        a[i] = 64 * q + i < perm::bits ? state_[64 * q + i] : W::set1(0);
      transpose64(a);
      for (size_t i = 0; i < 64; ++i) a[i].store(rows_[q][i]);
      wipe(a, sizeof a);
    }
  }

  const aead_task& t_;
  job jobs_[slots] = {};
  call calls_[calls];
  size_t n_ = 0;
  alignas(64) u64 rows_[words][64][L];
  W state_[perm::bits];
  W scratch_[perm::bits];
  aead_desc pend_[64];
  size_t pend_n_ = 0, pend_i_ = 0;
  bool exhausted_ = false;
  size_t active_ = 0;  // slots with a job
};

// With two 64-bit lanes (the portable backend) a batch holds 128 calls, half of the core's own
// AVX2 batches, and lost to it at 16 KiB; that backend runs Elephant job by job.
template <class V>
concept wide_enough = half_of<V>::type::lanes >= 4;

// The lane kernel of instance P.
template <class P>
struct kernel {
  template <lane_vector V>
    requires wide_enough<V>
  static void aead(const aead_task& t) {
    run_aead_engine<engine<V, P, false>, engine<V, P, true>>(t);
  }
};

}  // namespace lwc::simd::LWC_SIMD_NS::eng::elephant_lanes

namespace lwc::simd::LWC_SIMD_NS::eng {

template <>
struct lane_kernel<elephant::elephant_dumbo> : elephant_lanes::kernel<elephant_lanes::dumbo> {};
template <>
struct lane_kernel<elephant::elephant_jumbo> : elephant_lanes::kernel<elephant_lanes::jumbo> {};
template <>
struct lane_kernel<elephant::elephant_delirium>
    : elephant_lanes::kernel<elephant_lanes::delirium> {};

}  // namespace lwc::simd::LWC_SIMD_NS::eng
