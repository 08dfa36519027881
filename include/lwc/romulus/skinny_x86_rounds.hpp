// SPDX-License-Identifier: MIT OR Apache-2.0
// The vector rounds of skinny_x86.hpp for one instruction set. Included by skinny_x86.hpp once
// per instruction set, with LWC_ROMULUS_X86_NAMESPACE, LWC_ROMULUS_X86_TARGET and
// LWC_ROMULUS_X86_GFNI (whether the target has GFNI) defined (so it
// has no include guard); not meant to be included elsewhere.

#if !defined(LWC_ROMULUS_X86_NAMESPACE) || !defined(LWC_ROMULUS_X86_TARGET) || \
    !defined(LWC_ROMULUS_X86_GFNI)
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

// What round r adds to each block: the source's tweakey word to rows 0 and 1, the constant to
// row 2 (lane 1).
template <int R, std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void round_addends(Source& src, int r, u64x2 (&add)[NB]) {
  u64 k[NB]{};
  src.template next<R>(r, k);
  for (std::size_t i = 0; i < NB; ++i) add[i] = u64x2{k[i], row2_constant<R>()};
}

// Moves the source on to the next rounds, after the round's own work in program order: the
// vector sources' steps then take the shift units only when the round's chain leaves them idle
// (the scheduler favours older operations). The general-purpose sources step in next().
template <int R, class Source>
LWC_ROMULUS_X86_INLINE void advance(Source&) {}

#if LWC_ROMULUS_X86_GFNI
// A counter_source (the call of each message block, and with a live TK2 those of associated
// data and Romulus-M's authentication) whose words step in vector registers: one byte shuffle
// and one gf2p8affineqb every other round (gfni:: in skinny_x86.hpp) instead of some forty
// shifts, masks and XORs in general-purpose registers beside the rounds.
template <bool LiveTk2>
struct vector_counter {
  const schedule* fixed;
  __m128i even, odd;  // TK1 (the counter: even rounds only) in lane 0, TK2 or zero in lane 1
};

template <int R, std::size_t NB, bool LiveTk2>
LWC_ROMULUS_X86_INLINE void round_addends(vector_counter<LiveTk2>& src, int r, u64x2 (&add)[NB]) {
  const __m128i& live = R % 2 == 0 ? src.even : src.odd;
  u64x2 w = u64x2{src.fixed->w[r], row2_constant<R>()};
  // Lane 0: TK1 ^ TK2; lane 1: TK2 ^ TK2 = 0.
  if constexpr (LiveTk2) w ^= (u64x2)_mm_xor_si128(live, _mm_unpackhi_epi64(live, live));
  else if constexpr (R % 2 == 0) w ^= (u64x2)live;
  for (std::size_t i = 0; i < NB; ++i) add[i] = w;
}
template <int R, bool LiveTk2>
LWC_ROMULUS_X86_INLINE void advance(vector_counter<LiveTk2>& src) {
  __m128i& live = R % 2 == 0 ? src.even : src.odd;
  if constexpr (LiveTk2 || R % 2 == 0) live = gfni::map<map_kind::step, 1, 2, R>(gfni::cells(live));
}

// hash_source (Romulus-H's and -T's Hirose calls: three live arrays shared by both blocks) the
// same way: TK1 and TK2 side by side in one register, TK3 in another, an even-round and an
// odd-round register of each.
struct vector_hash {
  const schedule* constants;
  __m128i even12, odd12;  // TK1 in lane 0, TK2 in lane 1
  __m128i even3, odd3;    // TK3 in lane 0, zero in lane 1
};

template <int R, std::size_t NB>
LWC_ROMULUS_X86_INLINE void round_addends(vector_hash& src, int r, u64x2 (&add)[NB]) {
  const __m128i& w12 = R % 2 == 0 ? src.even12 : src.odd12;
  const __m128i& w3 = R % 2 == 0 ? src.even3 : src.odd3;
  // Lane 0: TK1 ^ TK2 ^ TK3; lane 1: TK2 ^ TK2 = 0.
  const __m128i words = _mm_xor_si128(_mm_xor_si128(w12, _mm_unpackhi_epi64(w12, w12)), w3);
  const u64x2 w = u64x2{src.constants->w[r], row2_constant<R>()} ^ (u64x2)words;
  for (std::size_t i = 0; i < NB; ++i) add[i] = w;
}
template <int R>
LWC_ROMULUS_X86_INLINE void advance(vector_hash& src) {
  __m128i& w12 = R % 2 == 0 ? src.even12 : src.odd12;
  __m128i& w3 = R % 2 == 0 ? src.even3 : src.odd3;
  w12 = gfni::map<map_kind::step, 1, 2, R>(gfni::cells(w12));
  w3 = gfni::map<map_kind::step, 3, 3, R>(gfni::cells(w3));
}

// counter_tk3_source (Romulus-T's key stream and next key: a counter TK1 per block, a shared
// live TK3): the blocks' TK1 words in the two lanes of one register.
template <std::size_t NB>
struct vector_counter_tk3 {
  static_assert(NB <= 2);
  const schedule* constants;
  __m128i tk1;          // block i's word of the next even round in lane i
  __m128i even3, odd3;  // TK3 in lane 0, zero in lane 1
};

template <int R, std::size_t NB>
LWC_ROMULUS_X86_INLINE void round_addends(vector_counter_tk3<NB>& src, int r, u64x2 (&add)[NB]) {
  const __m128i& w3 = R % 2 == 0 ? src.even3 : src.odd3;
  const u64x2 w = u64x2{src.constants->w[r], row2_constant<R>()} ^ (u64x2)w3;
  for (std::size_t i = 0; i < NB; ++i) add[i] = w;
  if constexpr (R % 2 == 0) {
    const u64x2 t = (u64x2)src.tk1;
    add[0] ^= u64x2{t[0], 0};
    if constexpr (NB == 2) add[1] ^= u64x2{t[1], 0};
  }
}
template <int R, std::size_t NB>
LWC_ROMULUS_X86_INLINE void advance(vector_counter_tk3<NB>& src) {
  __m128i& w3 = R % 2 == 0 ? src.even3 : src.odd3;
  w3 = gfni::map<map_kind::step, 3, 3, R>(gfni::cells(w3));
  if constexpr (R % 2 == 0) src.tk1 = gfni::map<map_kind::step, 1, 1, R>(gfni::cells(src.tk1));
}

LWC_ROMULUS_X86_INLINE __m128i lanes_of(u64 lane0, u64 lane1) {
  return _mm_set_epi64x(static_cast<long long>(lane1), static_cast<long long>(lane0));
}
#endif

// A round: S-box with the tweakey and constants added by its last step, then ShiftRows and
// MixColumns.
template <int R, std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void vector_round(__m128i (&s)[NB], Source& src, int r) {
  u64x2 add[NB];
  round_addends<R>(src, r, add);
  for (std::size_t i = 0; i < NB; ++i) {
    const __m128i x = (__m128i)sbox<R, NB == 1>((u64x2)s[i], add[i]);
    // Row 0 in place is a mask, which leaves the two shuffle units to terms a and b. Settled,
    // so that the compiler keeps the mask apart and adds the three terms in one three-input
    // XOR (AVX-512) rather than folding the mask into an XOR that waits for both shuffles.
    const __m128i c = (__m128i)settle((u64x2)_mm_and_si128(x, _mm_set_epi64x(0, 0xffffffff)));
    s[i] = _mm_xor_si128(_mm_xor_si128(shuffle<mix_term::a>(x), shuffle<mix_term::b>(x)), c);
  }
  advance<R>(src);
}

// The 40 rounds on blocks already in the rounds' bit order (complemented).
template <std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void rounds_vector(__m128i (&s)[NB], Source& src) {
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
}

// The portable encrypt() of skinny128_384_plus.hpp with each block in a vector register.
template <std::size_t NB, class Source>
LWC_ROMULUS_X86_INLINE void encrypt_vector(u64 (&a)[NB], u64 (&b)[NB], Source& src) {
  __m128i s[NB]{};
  for (std::size_t i = 0; i < NB; ++i)
    s[i] = (__m128i)~apply_map<map_kind::enter>(u64x2{a[i], b[i]});
  rounds_vector(s, src);
  for (std::size_t i = 0; i < NB; ++i) {
    const u64x2 v = apply_map<map_kind::leave>(~(u64x2)s[i]);
    a[i] = v[0];
    b[i] = v[1];
  }
}

template <std::size_t NB, class Source>
__attribute__((target(LWC_ROMULUS_X86_TARGET), noinline)) void encrypt(u64 (&a)[NB], u64 (&b)[NB],
                                                                       Source& src) {
#if LWC_ROMULUS_X86_GFNI
  if constexpr (std::is_same_v<Source, counter_source<false>>) {
    vector_counter<false> counter{src.fixed, lanes_of(src.tk1, 0), {}};  // the counter is public
    encrypt_vector(a, b, counter);
  } else if constexpr (std::is_same_v<Source, counter_source<true>>) {
    vector_counter<true> counter{src.fixed, lanes_of(src.tk1, src.tk2.even),
                                 lanes_of(0, src.tk2.odd)};
    encrypt_vector(a, b, counter);
    wipe_object(counter);  // TK2 is data
  } else if constexpr (std::is_same_v<Source, hash_source>) {
    vector_hash hash{src.constants, lanes_of(src.tk1.even, src.tk2.even),
                     lanes_of(src.tk1.odd, src.tk2.odd), lanes_of(src.tk3.even, 0),
                     lanes_of(src.tk3.odd, 0)};
    encrypt_vector(a, b, hash);
    wipe_object(hash);
  } else if constexpr (std::is_same_v<Source, counter_tk3_source<NB>>) {
    vector_counter_tk3<NB> counter{src.constants, lanes_of(src.tk1[0], NB == 2 ? src.tk1[NB - 1] : 0),
                                   lanes_of(src.tk3.even, 0), lanes_of(src.tk3.odd, 0)};
    encrypt_vector(a, b, counter);
    wipe_object(counter);  // TK3 is secret in Romulus-T
  } else {
    encrypt_vector(a, b, src);
  }
#else
  encrypt_vector(a, b, src);
#endif
}

// Romulus-N's message blocks before the last one (romulus_n_message in romulus_n.hpp): for
// each, C = M ^ G(S), S ^= M (the plaintext block, M or the recovered one), then the call with
// the next counter and domain 0x04. The state stays in a vector register, in the rounds' bit
// order, from one call to the next: the message block joins it through the same linear map,
// and only G's output (off the chain from call to call) goes back to the byte order. `counter`
// comes back advanced by `blocks`.
template <bool Decrypt>
__attribute__((target(LWC_ROMULUS_X86_TARGET), noinline)) void romulus_n_blocks(
    u64 (&state)[2], const schedule& fixed, u64& counter, const std::uint8_t* in,
    std::uint8_t* out, std::size_t blocks) {
  const u64x2 high = splat<u64x2>(0x8080808080808080ull);
  __m128i s[1] = {(__m128i)~apply_map<map_kind::enter>(u64x2{state[0], state[1]})};
  u64 c = counter;
  for (std::size_t i = 0; i < blocks; ++i, in += 16, out += 16) {
    const u64x2 x = (u64x2)_mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
    const u64x2 spec = apply_map<map_kind::leave>(~(u64x2)s[0]);
    // G: every byte (x7..x0) becomes (x0 ^ x7, x7, ..., x1); common.hpp's g_word.
    const u64x2 g = ((spec >> 1) & ~high) ^ (spec & high) ^ ((spec << 7) & high);
    const u64x2 y = g ^ x;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), (__m128i)y);
    s[0] = (__m128i)((u64x2)s[0] ^ apply_map<map_kind::enter>(Decrypt ? y : x));
    c = next_counter(c);
#if LWC_ROMULUS_X86_GFNI
    vector_counter<false> src{&fixed, lanes_of(counter_word(c, 0x04), 0), {}};
#else
    counter_source<false> src{&fixed, counter_word(c, 0x04), {}};
#endif
    rounds_vector(s, src);
  }
  const u64x2 v = apply_map<map_kind::leave>(~(u64x2)s[0]);
  state[0] = v[0];
  state[1] = v[1];
  counter = c;
}

}  // namespace lwc::romulus::detail::x86::LWC_ROMULUS_X86_NAMESPACE

#undef LWC_ROMULUS_X86_INLINE
