// SPDX-License-Identifier: MIT OR Apache-2.0
// PHOTON-256 with AVX2, for x86-64 hosts without the AVX-512 + GFNI path: the four bit planes
// of the portable code side by side in one 256-bit register, so that ShiftRows and the masked
// sums of MixColumnSerial work on all planes at once (the S-box mixes planes, so it runs on
// broadcast copies). Logic operations and fixed byte shuffles only.
#pragma once

#include "../common/cpu_dispatch.hpp"

#if LWC_X86_DISPATCH

#include <immintrin.h>

#include <cstdint>

#include "permutation_portable.hpp"

#define LWC_PHOTON_AVX2_TARGET __attribute__((target("avx2")))

namespace lwc::photon_beetle::detail::avx2 {

struct alignas(32) vec256 {
  std::uint64_t q[4];
};

struct constants {
  vec256 rc[12];       // AddConstant, plane q in lane q
  vec256 mask[8][4];   // mix_table masks, the same in every lane
  vec256 rot[8];       // vpshufb controls: each 64-bit lane rotated right by 8d bits
  vec256 shift[3][3];  // rotate_bytes by 1, 2, 4: bytes kept, low and high parts moved
  vec256 lanes[3];     // lane masks for the multiples: lane 1; lanes 1, 2; lanes 1, 2, 3
  vec256 ones;
};

constexpr constants make_constants() {
  constants c{};
  unsigned rc = 1;
  for (int r = 0; r < 12; ++r, rc = next_rc(rc))
    for (int q = 0; q < 4; ++q) c.rc[r].q[q] = make_ic_plane(q) ^ (((rc >> q) & 1) ? column0 : 0);
  for (int d = 0; d < 8; ++d) {
    for (int b = 0; b < 4; ++b)
      for (int l = 0; l < 4; ++l) c.mask[d][b].q[l] = mix_table.m[d][b];
    std::uint64_t ctl = 0;
    for (int n = 0; n < 8; ++n) ctl |= std::uint64_t((n + d) % 8) << (8 * n);
    // vpshufb indexes within 128-bit lanes: the upper qword of each lane adds 8
    c.rot[d] = vec256{{ctl, ctl + 0x0808080808080808, ctl, ctl + 0x0808080808080808}};
  }
  const std::uint64_t sel[3] = {0xff00ff00ff00ff00, 0xffff0000ffff0000, 0xffffffff00000000};
  for (int k = 0; k < 3; ++k) {
    const std::uint64_t low = 0x0101010101010101 * (0xffu >> (1 << k));
    for (int l = 0; l < 4; ++l) {
      c.shift[k][0].q[l] = ~sel[k];
      c.shift[k][1].q[l] = sel[k] & low;
      c.shift[k][2].q[l] = sel[k] & ~low;
    }
  }
  for (int l = 1; l < 4; ++l)
    for (int m = 0; m < 3; ++m) c.lanes[m].q[l] = l <= m + 1 ? ~std::uint64_t{0} : 0;
  for (int l = 0; l < 4; ++l) c.ones.q[l] = ~std::uint64_t{0};
  return c;
}

inline constexpr constants table = make_constants();

LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i load(const vec256& v) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(v.q));
}

// The constants are read through a pointer the compiler cannot see into: otherwise GCC
// rebuilds each one from 64-bit immediates (movabs, vmovq, vpbroadcastq) inside the loop.
LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE const constants* opaque_table() {
  const constants* t = &table;
  __asm__("" : "+r"(t));
  return t;
}

// The portable S-box circuit on planes broadcast to all lanes; lane q keeps output plane q.
LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i sbox(__m256i p, const constants& c) {
  const __m256i x0 = _mm256_permute4x64_epi64(p, 0x00), x1 = _mm256_permute4x64_epi64(p, 0x55);
  const __m256i x2 = _mm256_permute4x64_epi64(p, 0xaa), x3 = _mm256_permute4x64_epi64(p, 0xff);
  const __m256i ones = load(c.ones);
  const __m256i t = _mm256_xor_si256(x1, x2);
  const __m256i x3t = _mm256_and_si256(x3, t);
  const __m256i u = _mm256_and_si256(x0, x3t);
  const __m256i a = _mm256_and_si256(x1, x2);
  const __m256i y0 = _mm256_xor_si256(_mm256_xor_si256(x0, x3), _mm256_andnot_si256(x1, x2));
  const __m256i y1 =
      _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(x1, x3), _mm256_and_si256(x0, a)),
                       _mm256_xor_si256(x3t, u));
  const __m256i maj =
      _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(x0, x1), _mm256_xor_si256(x1, x3)), x1);
  const __m256i y2 =
      _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(x2, x3), _mm256_xor_si256(maj, u)), ones);
  const __m256i y3 = _mm256_xor_si256(
      _mm256_xor_si256(_mm256_xor_si256(x0, x1), _mm256_xor_si256(x3, _mm256_andnot_si256(x0, a))),
      _mm256_xor_si256(u, ones));
  return _mm256_blend_epi32(_mm256_blend_epi32(y0, y1, 0x0c), _mm256_blend_epi32(y2, y3, 0xc0),
                            0xf0);
}

// Rotates bytes right within themselves, by 1 << K bits in the bytes selected by stage K.
template <int K>
LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i rotate_bytes(__m256i x, const constants& c) {
  constexpr int n = 1 << K;
  return _mm256_or_si256(
      _mm256_and_si256(x, load(c.shift[K][0])),
      _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi64(x, n), load(c.shift[K][1])),
                      _mm256_and_si256(_mm256_slli_epi64(x, 8 - n), load(c.shift[K][2]))));
}

LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i shift_rows(__m256i x, const constants& c) {
  return rotate_bytes<2>(rotate_bytes<1>(rotate_bytes<0>(x, c), c), c);
}

// Lane selection, for the multiples of the planes by 2, 4, 8 (see multiples in the portable
// code): 2x = (x3, x0^x3, x1, x2), 4x = (x2, x2^x3, x0^x3, x1), 8x = (x1, x1^x2, x2^x3, x0^x3),
// each a lane permutation plus the planes of a second one in some lanes; all three at once.
template <int L0, int L1, int L2, int L3>
inline constexpr int lanes = L0 | L1 << 2 | L2 << 4 | L3 << 6;  // (parenthesised: the
                                                                // intrinsic is a macro at -O0)

template <int D>
LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i mix_diagonal(__m256i v0, __m256i v1, __m256i v2,
                                                              __m256i v3, const constants& c) {
  const __m256i s = _mm256_xor_si256(_mm256_xor_si256(_mm256_and_si256(v0, load(c.mask[D][0])),
                                                      _mm256_and_si256(v1, load(c.mask[D][1]))),
                                     _mm256_xor_si256(_mm256_and_si256(v2, load(c.mask[D][2])),
                                                      _mm256_and_si256(v3, load(c.mask[D][3]))));
  if constexpr (D == 0)
    return s;
  else
    return _mm256_shuffle_epi8(s, load(c.rot[D]));
}

LWC_PHOTON_AVX2_TARGET LWC_ALWAYS_INLINE __m256i mix_columns(__m256i v0, const constants& c) {
  const __m256i v1 = _mm256_xor_si256(
      _mm256_permute4x64_epi64(v0, (lanes<3, 0, 1, 2>)),
      _mm256_and_si256(_mm256_permute4x64_epi64(v0, (lanes<0, 3, 0, 0>)), load(c.lanes[0])));
  const __m256i v2 = _mm256_xor_si256(
      _mm256_permute4x64_epi64(v0, (lanes<2, 2, 0, 1>)),
      _mm256_and_si256(_mm256_permute4x64_epi64(v0, (lanes<0, 3, 3, 0>)), load(c.lanes[1])));
  const __m256i v3 = _mm256_xor_si256(
      _mm256_permute4x64_epi64(v0, (lanes<1, 1, 2, 0>)),
      _mm256_and_si256(_mm256_permute4x64_epi64(v0, (lanes<0, 2, 3, 3>)), load(c.lanes[2])));
  const __m256i a =
      _mm256_xor_si256(mix_diagonal<0>(v0, v1, v2, v3, c), mix_diagonal<1>(v0, v1, v2, v3, c));
  const __m256i b =
      _mm256_xor_si256(mix_diagonal<2>(v0, v1, v2, v3, c), mix_diagonal<3>(v0, v1, v2, v3, c));
  const __m256i d =
      _mm256_xor_si256(mix_diagonal<4>(v0, v1, v2, v3, c), mix_diagonal<5>(v0, v1, v2, v3, c));
  const __m256i e =
      _mm256_xor_si256(mix_diagonal<6>(v0, v1, v2, v3, c), mix_diagonal<7>(v0, v1, v2, v3, c));
  return _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(d, e));
}

LWC_PHOTON_AVX2_TARGET inline void permute(state& s) {
  const planes in = to_planes(s);
  __m256i p = _mm256_set_epi64x(static_cast<long long>(in.x3), static_cast<long long>(in.x2),
                                static_cast<long long>(in.x1), static_cast<long long>(in.x0));
  const constants& c = *opaque_table();
  for (int r = 0; r < 12; ++r) {
    p = _mm256_xor_si256(p, load(c.rc[r]));
    p = mix_columns(shift_rows(sbox(p, c), c), c);
  }
  alignas(32) std::uint64_t out[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(out), p);
  from_planes(s, planes{out[0], out[1], out[2], out[3]});
}

inline bool cpu_supported() { return host_cpu().avx2; }

}  // namespace lwc::photon_beetle::detail::avx2

#endif  // LWC_X86_DISPATCH
