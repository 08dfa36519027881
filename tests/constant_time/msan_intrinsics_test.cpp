// SPDX-License-Identifier: MIT OR Apache-2.0
// The replacements of msan_intrinsics.hpp equal the instructions they stand for: every
// immediate of vpternlog{q,d}, gf2p8affineqb (512 and 128 bits) on random matrices and a few
// immediates, pclmulqdq for all four half selections, pshufb (three widths), vpermb and vpermw
// on random inputs, indices and masks; and the permutes move a secret byte's shadow with the
// byte. Part of the MSan build, compiled with
// LWC_CT_MSAN_KEEP_INTRINSICS so that the intrinsics here are the real instructions; each part
// runs only where the CPU has the instruction.
#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <utility>

#include "msan_intrinsics.hpp"

#define LWC_AVX512 __attribute__((target("avx512f,avx512bw,gfni")))
#define LWC_AVX512_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

namespace {

std::mt19937_64 rng(20261126);

LWC_AVX512 __m512i random512() {
  alignas(64) std::uint64_t w[8];
  for (auto& x : w) x = rng();
  return _mm512_load_si512(w);
}

LWC_AVX512 bool same(__m512i a, __m512i b) { return _mm512_cmpneq_epi64_mask(a, b) == 0; }

template <int Imm>
LWC_AVX512 bool ternlog_once() {
  const __m512i a = random512(), b = random512(), c = random512();
  const __m512i r = lwc_ct_msan::ternlog<Imm>(a, b, c);
  return same(r, _mm512_ternarylogic_epi64(a, b, c, Imm)) &&
         same(r, _mm512_ternarylogic_epi32(a, b, c, Imm));
}
template <std::size_t... I>
bool every_ternlog(std::index_sequence<I...>) {
  return (ternlog_once<static_cast<int>(I)>() && ...);
}

template <int Imm>
LWC_AVX512 bool affine_once() {
  const __m512i x = random512(), m = random512();
  return same(lwc_ct_msan::gf2p8affine<Imm>(x, m), _mm512_gf2p8affine_epi64_epi8(x, m, Imm));
}

template <int Imm>
__attribute__((target("gfni,sse4.1"))) bool affine128_once() {
  const __m128i x = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i m = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i r = lwc_ct_msan::gf2p8affine128<Imm>(x, m), e = _mm_gf2p8affine_epi64_epi8(x, m, Imm);
  return std::memcmp(&r, &e, sizeof r) == 0;
}

template <int Imm>
__attribute__((target("pclmul"))) bool clmul_once() {
  const __m128i a = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i b = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i r = lwc_ct_msan::clmul<Imm>(a, b), e = _mm_clmulepi64_si128(a, b, Imm);
  return std::memcmp(&r, &e, sizeof r) == 0;
}

template <class V>
bool equal(const V& x, const V& y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

LWC_AVX512_VBMI bool permutes_once() {
  const __m512i a = random512(), idx = random512();
  const __m256i a2 = _mm512_castsi512_si256(a), idx2 = _mm512_castsi512_si256(idx);
  const __m128i a1 = _mm512_castsi512_si128(a), idx1 = _mm512_castsi512_si128(idx);
  const auto k = static_cast<unsigned long long>(rng());
  const auto k32 = static_cast<__mmask32>(k);
  return equal(lwc_ct_msan::pshufb512(a, idx), _mm512_shuffle_epi8(a, idx)) &&
         equal(lwc_ct_msan::pshufb256(a2, idx2), _mm256_shuffle_epi8(a2, idx2)) &&
         equal(lwc_ct_msan::pshufb128(a1, idx1), _mm_shuffle_epi8(a1, idx1)) &&
         equal(lwc_ct_msan::vpermb(k, idx, a), _mm512_maskz_permutexvar_epi8(k, idx, a)) &&
         equal(lwc_ct_msan::vpermw(k32, idx, a), _mm512_maskz_permutexvar_epi16(k32, idx, a));
}

// A secret byte 0 swapped with public byte 1: the shadow must move to byte 1 and leave byte 0.
LWC_AVX512_VBMI bool permutes_move_the_secret() {
  alignas(64) unsigned char data[64], index[64], out[64];
  for (int i = 0; i < 64; ++i) data[i] = static_cast<unsigned char>(i), index[i] = static_cast<unsigned char>(i);
  index[0] = 1, index[1] = 0;
  __msan_poison(data, 1);
  const __m512i a = _mm512_load_si512(data), idx = _mm512_load_si512(index);
  bool ok = true;
  for (int which = 0; which < 2; ++which) {
    _mm512_store_si512(out, which ? lwc_ct_msan::vpermb(~0ull, idx, a) : lwc_ct_msan::pshufb512(a, idx));
    ok &= __msan_test_shadow(out, 1) == -1 && __msan_test_shadow(out + 1, 1) == 0 &&
          __msan_test_shadow(out + 2, 62) == -1;
  }
  return ok;
}

}  // namespace

int main() {
  int failures = 0, parts = 0;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
    ++parts;
    for (int k = 0; k < 64; ++k) failures += !every_ternlog(std::make_index_sequence<256>{});
    if (__builtin_cpu_supports("avx512vbmi")) {
      ++parts;
      for (int k = 0; k < 1000; ++k) failures += !permutes_once();
      failures += !permutes_move_the_secret();
    }
    if (__builtin_cpu_supports("gfni")) {
      ++parts;
      for (int k = 0; k < 1000; ++k)
        failures += !affine_once<0>() + !affine_once<0x63>() + !affine_once<0xff>() +
                    !affine_once<0x5a>() + !affine128_once<0>() + !affine128_once<0x63>();
    }
  }
  if (__builtin_cpu_supports("pclmul")) {
    ++parts;
    for (int k = 0; k < 1000; ++k)
      failures += !clmul_once<0x00>() + !clmul_once<0x01>() + !clmul_once<0x10>() + !clmul_once<0x11>();
  }
  std::printf("msan_intrinsics: %d of 4 groups of stand-ins checked on this CPU, %d mismatches\n", parts,
              failures);
  return failures != 0;
}
