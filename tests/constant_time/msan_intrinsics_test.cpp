// The replacements of msan_intrinsics.hpp equal the instructions they stand for: every
// immediate of vpternlog{q,d}, gf2p8affineqb on random matrices and four immediates, pclmulqdq
// for all four half selections, on random inputs. Part of the MSan build, compiled with
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
__attribute__((target("pclmul"))) bool clmul_once() {
  const __m128i a = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i b = _mm_set_epi64x(static_cast<long long>(rng()), static_cast<long long>(rng()));
  const __m128i r = lwc_ct_msan::clmul<Imm>(a, b), e = _mm_clmulepi64_si128(a, b, Imm);
  return std::memcmp(&r, &e, sizeof r) == 0;
}

}  // namespace

int main() {
  int failures = 0, parts = 0;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
    ++parts;
    for (int k = 0; k < 64; ++k) failures += !every_ternlog(std::make_index_sequence<256>{});
    if (__builtin_cpu_supports("gfni")) {
      ++parts;
      for (int k = 0; k < 1000; ++k)
        failures += !affine_once<0>() + !affine_once<0x63>() + !affine_once<0xff>() +
                    !affine_once<0x5a>();
    }
  }
  if (__builtin_cpu_supports("pclmul")) {
    ++parts;
    for (int k = 0; k < 1000; ++k)
      failures += !clmul_once<0x00>() + !clmul_once<0x01>() + !clmul_once<0x10>() + !clmul_once<0x11>();
  }
  std::printf("msan_intrinsics: %d of 3 replacements checked on this CPU, %d mismatches\n", parts,
              failures);
  return failures != 0;
}
