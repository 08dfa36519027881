// The vector rounds of skinny_x86.hpp for one instruction set. Included by skinny_x86.hpp once
// per instruction set, with LWC_ROMULUS_X86_NAMESPACE and LWC_ROMULUS_X86_TARGET defined (so it
// has no include guard); not meant to be included elsewhere.

#if !defined(LWC_ROMULUS_X86_NAMESPACE) || !defined(LWC_ROMULUS_X86_TARGET)
#error "skinny_x86_rounds.hpp is included by skinny_x86.hpp only"
#endif

#define LWC_ROMULUS_X86_INLINE __attribute__((target(LWC_ROMULUS_X86_TARGET), always_inline)) inline

namespace lwc::romulus::detail::x86::LWC_ROMULUS_X86_NAMESPACE {

template <mix_term T, std::size_t... K>
LWC_ROMULUS_X86_INLINE __m128i shuffle_index(std::index_sequence<K...>) {
  return _mm_setr_epi8(
      static_cast<char>(mix_source(T, int(K)) < 0 ? 0x80 : mix_source(T, int(K)))...);
}
template <mix_term T>
LWC_ROMULUS_X86_INLINE __m128i shuffle(__m128i x) {
  return _mm_shuffle_epi8(x, shuffle_index<T>(std::make_index_sequence<16>{}));
}

// A round: S-box with the tweakey and constants added by its last step, then ShiftRows and
// MixColumns.
template <int R, std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void vector_round(__m128i (&s)[NB], Source& src, int r) {
  u64 k[NB]{};
  src.template next<R>(r, k);
  for (std::size_t i = 0; i < NB; ++i) {
    const u64x2 key = u64x2{k[i], row2_constant<R>()};
    const __m128i x = (__m128i)sbox<R>((u64x2)s[i], key);
    // Row 0 in place is a mask, which leaves the two shuffle units to terms a and b. Settled,
    // so that the compiler keeps the mask apart and adds the three terms in one three-input
    // XOR (AVX-512) rather than folding the mask into an XOR that waits for both shuffles.
    const __m128i c = (__m128i)settle((u64x2)_mm_and_si128(x, _mm_set_epi64x(0, 0xffffffff)));
    s[i] = _mm_xor_si128(_mm_xor_si128(shuffle<mix_term::a>(x), shuffle<mix_term::b>(x)), c);
  }
}

// The portable encrypt() of skinny128_384_plus.hpp with each block in a vector register.
template <std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void encrypt_vector(u64 (&a)[NB], u64 (&b)[NB], Source& src) {
  __m128i s[NB]{};
  for (std::size_t i = 0; i < NB; ++i)
    s[i] = (__m128i)~apply_map<map_kind::enter>(u64x2{a[i], b[i]});
  for (int q = 0; q < 40; q += 8) {
    vector_round<0>(s, src, q);
    vector_round<1>(s, src, q + 1);
    vector_round<2>(s, src, q + 2);
    vector_round<3>(s, src, q + 3);
    vector_round<4>(s, src, q + 4);
    vector_round<5>(s, src, q + 5);
    vector_round<6>(s, src, q + 6);
    vector_round<7>(s, src, q + 7);
  }
  for (std::size_t i = 0; i < NB; ++i) {
    const u64x2 v = apply_map<map_kind::leave>(~(u64x2)s[i]);
    a[i] = v[0];
    b[i] = v[1];
  }
}

template <std::size_t NB, class Source>
__attribute__((target(LWC_ROMULUS_X86_TARGET), noinline)) void encrypt(u64 (&a)[NB], u64 (&b)[NB],
                                                                       Source& src) {
  encrypt_vector(a, b, src);
}

}  // namespace lwc::romulus::detail::x86::LWC_ROMULUS_X86_NAMESPACE

#undef LWC_ROMULUS_X86_INLINE
