// SPDX-License-Identifier: MIT OR Apache-2.0
// SKINNY-128-384+ (Romulus v1.3 specification, NIST LWC final round, section 2.3: the
// SKINNY-128-384 tweakable block cipher cut to 40 rounds), the primitive of every Romulus mode.
//
// The state is two little-endian 64-bit words: rows 0 and 1, rows 2 and 3 (cell (i, j) is
// byte 4i + j). The 8-bit S-box is computed on all sixteen cells at once with shifts and logic
// operations, never with a table: it is four steps that each XOR into two bits of every byte
// the NOR of two others, separated by a fixed bit permutation (section 2.3). Those
// permutations are never carried out. A bit keeps its place in the byte, and the code tracks
// where each bit of the specification lives: the shift amounts of every step follow from that,
// and the order changes from round to round with period 8 (40 rounds bring it back). The round
// tweakeys and constants are produced in the bit order of the round that adds them. The state
// is also kept complemented, which turns each NOR into one AND; the complement survives
// ShiftRows, the key addition and MixColumns up to a constant folded into row 2's.
//
// Tweakey arrays that stay fixed over many calls (the key, a nonce) are expanded once into 40
// round words; the others (the block counter, associated data, hash input) are stepped beside
// the rounds. Nothing indexes memory or branches on the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../common/bytes.hpp"
#include "../common/config.hpp"
#include "../common/cpu_dispatch.hpp"
#include "../common/secure.hpp"

#if defined(__CUDACC__) || !(defined(__GNUC__) || defined(__clang__))
#define LWC_SKINNY_NOINLINE
#else
#define LWC_SKINNY_NOINLINE __attribute__((noinline))
#endif

namespace lwc::romulus::detail {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---- where the bits of a byte live ----------------------------------------------------------

// pos[i]: the bit of each byte that holds bit i of the specification's S-box state.
struct bit_order {
  int pos[8];
};

// One S-box evaluation for state bits at `order`: the three bits (target, a, b) of each of the
// two NOR steps of each of the four rounds of the S-box, and where the bits are at the end.
struct sbox_plan {
  int step[4][2][3];
  bit_order out;
};

// The specification's S-box: step k XORs NOR(x7, x6) into x4 and NOR(x3, x2) into x0, then
// permutes the bits, new x_i = old x_from[i] (the last permutation only swaps x1 and x2).
LWC_HD constexpr sbox_plan plan_sbox(bit_order order) {
  constexpr int permutation[8] = {5, 3, 0, 4, 6, 7, 1, 2};
  constexpr int last_permutation[8] = {0, 2, 1, 3, 4, 5, 6, 7};
  sbox_plan p{};
  for (int k = 0; k < 4; ++k) {
    const int* at = order.pos;
    p.step[k][0][0] = at[4], p.step[k][0][1] = at[7], p.step[k][0][2] = at[6];
    p.step[k][1][0] = at[0], p.step[k][1][1] = at[3], p.step[k][1][2] = at[2];
    bit_order next{};
    for (int i = 0; i < 8; ++i) next.pos[i] = at[k < 3 ? permutation[i] : last_permutation[i]];
    order = next;
  }
  p.out = order;
  return p;
}

// The order of the state entering round 0. Any order works; this one is among those whose eight
// rounds have the most S-box steps with both NORs at equal shifts (one shift pair per step
// instead of two) and the cheapest tweakey steps, and it is three shifts away from the byte
// order.
LWC_HD constexpr bit_order initial_order() { return {{1, 0, 3, 2, 7, 4, 5, 6}}; }

LWC_HD constexpr bit_order order_before_round(int r) {
  bit_order o = initial_order();
  for (int i = 0; i < r; ++i) o = plan_sbox(o).out;
  return o;
}

LWC_HD constexpr bool same_order(bit_order a, bit_order b) {
  for (int i = 0; i < 8; ++i)
    if (a.pos[i] != b.pos[i]) return false;
  return true;
}
static_assert(same_order(order_before_round(8), initial_order()),
              "the S-box bit order must repeat every 8 rounds (40 rounds end in the start order)");

// ---- linear maps applied to every byte alike --------------------------------------------------

// Output bit o of each byte is the XOR of the input bits set in from[o].
struct byte_map {
  std::uint8_t from[8];
};

LWC_HD constexpr byte_map identity_map() {
  byte_map m{};
  for (int o = 0; o < 8; ++o) m.from[o] = static_cast<std::uint8_t>(1u << o);
  return m;
}
// Specification bit i to where `order` keeps it, and back.
LWC_HD constexpr byte_map to_order(bit_order order) {
  byte_map m{};
  for (int i = 0; i < 8; ++i) m.from[order.pos[i]] = static_cast<std::uint8_t>(1u << i);
  return m;
}
LWC_HD constexpr byte_map from_order(bit_order order) {
  byte_map m{};
  for (int i = 0; i < 8; ++i) m.from[i] = static_cast<std::uint8_t>(1u << order.pos[i]);
  return m;
}
LWC_HD constexpr byte_map compose(byte_map outer, byte_map inner) {
  byte_map m{};
  for (int o = 0; o < 8; ++o)
    for (int b = 0; b < 8; ++b)
      if (outer.from[o] >> b & 1) m.from[o] ^= inner.from[b];
  return m;
}
// The LFSRs of TK2 (x7..x0 -> x6..x0, x7 ^ x5) and TK3 (x7..x0 -> x0 ^ x6, x7..x1).
LWC_HD constexpr byte_map lfsr_map(int tk) {
  byte_map m{};
  if (tk == 2) {
    for (int o = 1; o < 8; ++o) m.from[o] = static_cast<std::uint8_t>(1u << (o - 1));
    m.from[0] = (1u << 7) | (1u << 5);
  } else if (tk == 3) {
    for (int o = 0; o < 7; ++o) m.from[o] = static_cast<std::uint8_t>(1u << (o + 1));
    m.from[7] = (1u << 0) | (1u << 6);
  } else {
    m = identity_map();
  }
  return m;
}

// A byte_map as the matrix operand of gf2p8affineqb (x86 GFNI): output bit i is the parity of
// byte 7 - i AND the input byte.
LWC_HD constexpr u64 gfni_matrix(byte_map m) {
  u64 a = 0;
  for (int i = 0; i < 8; ++i) a |= u64{m.from[i]} << (8 * (7 - i));
  return a;
}

// A byte_map as shifted and masked copies: mask[d + 7] selects the output bits that take the
// input bit d places lower.
struct shift_masks {
  u64 mask[15];
};
LWC_HD constexpr shift_masks masks_of(byte_map m) {
  shift_masks s{};
  for (int o = 0; o < 8; ++o)
    for (int i = 0; i < 8; ++i)
      if (m.from[o] >> i & 1) s.mask[o - i + 7] |= 0x0101010101010101ull << o;
  return s;
}

// The word type W is u64, or a vector of two u64 lanes in the x86 code (skinny_x86.hpp).
template <class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W splat(u64 m) {
  if constexpr (sizeof(W) == sizeof(u64)) return m;
  else return W{m, m};
}

// `x` as computed, opaque to the compiler's reassociation of XOR chains (vector words in the
// x86 code only): it fixes which XOR comes last, so that the value on the chain of dependent
// operations joins the sum last rather than being summed first with values it waited for.
// (MemorySanitizer checks an asm statement's operands as if they were branched on, so the
// constant-time build leaves the order to the compiler.)
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define LWC_SKINNY_NO_SETTLE 1
#endif
#endif
template <class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W settle(W x) {
#if LWC_X86_DISPATCH && !defined(LWC_SKINNY_NO_SETTLE)
  if constexpr (sizeof(W) == 16) {
    if (!std::is_constant_evaluated()) asm("" : "+x"(x));
  }
#endif
  return x;
}

template <int D, class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W move_up(W x) {  // bit p to bit p + D
  if constexpr (D >= 0) return x << D;
  else return x >> -D;
}

// The maps the code applies, by name, so that each is a compile-time constant.
enum class map_kind : int {
  enter,       // specification order to the order of round 0 (and complement-free)
  leave,       // back
  first_even,  // a tweakey row word to the order of round 0's key addition
  first_odd,   // LFSR'ed row word to the order of round 1's key addition
  step,        // a round word of round r to that of round r + 2, after the cell permutation
};

template <map_kind Kind, int Tk, int R>
LWC_HD constexpr byte_map make_map() {
  if constexpr (Kind == map_kind::enter) return to_order(initial_order());
  else if constexpr (Kind == map_kind::leave) return from_order(initial_order());
  else if constexpr (Kind == map_kind::first_even) return to_order(order_before_round(1));
  else if constexpr (Kind == map_kind::first_odd)
    return compose(to_order(order_before_round(2)), lfsr_map(Tk));
  else
    return compose(to_order(order_before_round((R + 3) % 8)),
                   compose(lfsr_map(Tk), from_order(order_before_round((R + 1) % 8))));
}

template <map_kind Kind, int Tk, int R, int D, class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W masked_terms(W x) {
  if constexpr (D > 7) {
    return x & 0;
  } else {
    constexpr u64 m = masks_of(make_map<Kind, Tk, R>()).mask[D + 7];
    if constexpr (m != 0)
      return (move_up<D>(x) & splat<W>(m)) ^ masked_terms<Kind, Tk, R, D + 1>(x);
    else return masked_terms<Kind, Tk, R, D + 1>(x);
  }
}

template <map_kind Kind, int Tk = 1, int R = 0, class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W apply_map(W x) {
  return masked_terms<Kind, Tk, R, -7>(x);
}

// ---- the round ------------------------------------------------------------------------------

LWC_HD LWC_ALWAYS_INLINE constexpr u64 lanes(int bit) { return 0x0101010101010101ull << bit; }

// One S-box step on the complemented state: bit t ^= bit a & bit b (x_t ^= NOR(x_a, x_b)) in
// every byte, for two (t, a, b) at once, then `addend` XORed in. An operand whose bit the
// previous step left unchanged is read from that step's input `older` (FromOlder), so its
// shift does not wait for the previous step: on CPUs with two shift units, a step whose four
// shifts all waited would take four cycles instead of three. Shifts are shared when the two
// NORs allow it.
template <int T1, int A1, int B1, int T2, int A2, int B2, bool FromOlder1, bool FromOlder2,
          class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W nor_step(W y, W older, W addend) {
  constexpr int p = T1 - A1, q = T1 - B1, r = T2 - A2, s = T2 - B2;
  const W m1 = splat<W>(lanes(T1)), m2 = splat<W>(lanes(T2));
  const W base = y ^ addend;
  const W u = FromOlder1 ? older : y;  // source of the first NOR's operands
  const W v = FromOlder2 ? older : y;  // source of the second's
  constexpr bool same_source = FromOlder1 == FromOlder2;
  if constexpr (same_source && ((p == r && q == s) || (p == s && q == r))) {
    return base ^ ((move_up<p>(u) & splat<W>(lanes(T1) | lanes(T2))) & move_up<q>(u));
  } else if constexpr (same_source && (p == r || p == s)) {
    constexpr int other = p == r ? s : r;
    return base ^ (move_up<p>(u) & ((move_up<q>(u) & m1) | (move_up<other>(u) & m2)));
  } else if constexpr (same_source && (q == r || q == s)) {
    constexpr int other = q == r ? s : r;
    return base ^ (move_up<q>(u) & ((move_up<p>(u) & m1) | (move_up<other>(u) & m2)));
  } else {
    const W first = (move_up<p>(u) & m1) & move_up<q>(u);
    const W second = (move_up<r>(v) & m2) & move_up<s>(v);
    if constexpr (FromOlder1 && !FromOlder2) return settle(base ^ first) ^ second;
    else return base ^ first ^ second;
  }
}

// Whether step k's NOR `n` reads only bits that step k - 1 did not change.
LWC_HD constexpr bool operands_unchanged(const sbox_plan& p, int k, int n) {
  if (k == 0) return false;
  for (int i = 1; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      if (p.step[k][n][i] == p.step[k - 1][j][0]) return false;
  return true;
}

// The S-box, then `addend` (the round's tweakey and constants) XORed in with the last step's
// terms, so that adding it costs no step of its own on the chain of dependent operations.
// With ShortChain, NOR operands that the previous step left unchanged come from its input (see
// nor_step): for one block in vector registers, whose S-box is a chain of waits. Blocks side by
// side, and general-purpose registers, have no waits to save and would only pay the extra
// shifts.
template <int R, bool ShortChain = false, class W>
LWC_HD LWC_ALWAYS_INLINE constexpr W sbox(W y, W addend = W{}) {
  constexpr sbox_plan p = plan_sbox(order_before_round(R));
  W older = y;
#define LWC_SKINNY_STEP(k, add)                                                              \
  {                                                                                          \
    const W next = nor_step<p.step[k][0][0], p.step[k][0][1], p.step[k][0][2],               \
                            p.step[k][1][0], p.step[k][1][1], p.step[k][1][2],               \
                            ShortChain && operands_unchanged(p, k, 0),                       \
                            ShortChain && operands_unchanged(p, k, 1)>(                      \
        y, older, add);                                                                      \
    older = y;                                                                               \
    y = next;                                                                                \
  }
  LWC_SKINNY_STEP(0, W{});
  LWC_SKINNY_STEP(1, W{});
  LWC_SKINNY_STEP(2, W{});
  LWC_SKINNY_STEP(3, addend);
#undef LWC_SKINNY_STEP
  return y;
}

// Row 2's constant 0x02, with the all-ones that keeps rows 2 and 3 complemented through
// MixColumns (whose rows 2 and 3 are sums of an even number of rows).
template <int R>
LWC_HD LWC_ALWAYS_INLINE constexpr u64 row2_constant() {
  return ~u64{0} ^ u64{1} << order_before_round((R + 1) % 8).pos[1];
}

// The 6-bit LFSR constants of round r (rows 0 and 1), in the order of round r's key addition.
LWC_HD constexpr u64 round_constant(int r) {
  unsigned rc = 0;
  for (int i = 0; i <= r; ++i) rc = ((rc << 1) | (((rc >> 5) ^ (rc >> 4) ^ 1) & 1)) & 0x3f;
  const bit_order o = order_before_round((r + 1) % 8);
  u64 c = 0;
  for (int i = 0; i < 4; ++i) c |= u64{rc >> i & 1} << o.pos[i];
  for (int i = 0; i < 2; ++i) c |= u64{rc >> (4 + i) & 1} << (32 + o.pos[i]);
  return c;
}

// ShiftRows (row i rotated by i cells) and MixColumns on the two row-pair words.
LWC_HD LWC_ALWAYS_INLINE constexpr void mix(u64& a, u64& b) {
  const u32 r0 = static_cast<u32>(a);
  u32 r1 = rotl32(static_cast<u32>(a >> 32), 8);
  u32 r2 = rotl32(static_cast<u32>(b), 16);
  u32 r3 = rotl32(static_cast<u32>(b >> 32), 24);
  r1 ^= r2;
  r2 ^= r0;
  r3 ^= r2;
  a = u64{r3} | u64{r0} << 32;
  b = u64{r1} | u64{r2} << 32;
}

// ---- tweakey --------------------------------------------------------------------------------

// The cell permutation of the tweakey schedule seen from rows 0 and 1: their new cells are the
// old cells 9, 15, 8, 13, 10, 14, 12, 11 (rows 2 and 3), while rows 2 and 3 take rows 0 and 1
// unchanged. So one word of the row pair follows another two rounds later.
LWC_HD LWC_ALWAYS_INLINE constexpr u64 permute_cells(u64 x) {
  return (rotr64(x, 48) & 0x00ff00ff00ffff00ull) | (rotr64(x, 8) & 0x0000ff00000000ffull) |
         (x >> 16 & 0x00000000ff000000ull) | (x << 32 & 0xff00000000000000ull);
}

// The byte of a word that permute_cells moves to byte k (0..7).
LWC_HD constexpr int cell_source(int k) {
  return static_cast<int>(permute_cells(0x0706050403020100ull) >> (8 * k) & 0xff);
}

// A tweakey array that changes between calls: the words it adds to rows 0 and 1 in the next
// even and the next odd round, each in the bit order of that round's key addition.
struct live_words {
  u64 even, odd;
};

template <int Tk>
LWC_HD LWC_ALWAYS_INLINE constexpr live_words start_live(u64 rows01, u64 rows23) {
  return {apply_map<map_kind::first_even>(rows01),
          apply_map<map_kind::first_odd, Tk>(permute_cells(rows23))};
}
template <int Tk>
LWC_HD LWC_ALWAYS_INLINE constexpr live_words start_live(const std::uint8_t* tk) {
  return start_live<Tk>(load_le64(tk), load_le64(tk + 8));
}

// Round r (R = r mod 8) has added its word; move that word on to round r + 2.
template <int Tk, int R>
LWC_HD LWC_ALWAYS_INLINE constexpr u64 step_word(u64 w) {
  return apply_map<map_kind::step, Tk, R>(permute_cells(w));
}
template <int Tk, int R>
LWC_HD LWC_ALWAYS_INLINE constexpr u64 take_word(live_words& l) {
  if constexpr (R % 2 == 0) {
    const u64 w = l.even;
    l.even = step_word<Tk, R>(w);
    return w;
  } else {
    const u64 w = l.odd;
    l.odd = step_word<Tk, R>(w);
    return w;
  }
}

// Round words of the fixed tweakey arrays with the round constants: tk2 or tk3 may be null
// (all-zero arrays).
struct schedule {
  u64 w[40];
};

LWC_HD constexpr schedule constant_schedule() {
  schedule s{};
  for (int r = 0; r < 40; ++r) s.w[r] = round_constant(r);
  return s;
}

// Round words for calls whose tweakey arrays all change (only the constants are fixed).
LWC_HD LWC_ALWAYS_INLINE constexpr void load_constants(schedule& s) {
  constexpr schedule constants = constant_schedule();
  s = constants;
}

namespace schedule_build {
template <int R>
LWC_HD LWC_ALWAYS_INLINE constexpr void eight(schedule& s, int q, live_words& t2, live_words& t3) {
  if constexpr (R < 8) {
    s.w[q + R] ^= take_word<2, R>(t2) ^ take_word<3, R>(t3);
    eight<R + 1>(s, q, t2, t3);
  }
}
}  // namespace schedule_build

LWC_HD constexpr void build_schedule_portable(schedule& s, const std::uint8_t* tk2,
                                              const std::uint8_t* tk3) {
  constexpr schedule constants = constant_schedule();
  s = constants;
  live_words t2 = tk2 != nullptr ? start_live<2>(tk2) : live_words{0, 0};
  live_words t3 = tk3 != nullptr ? start_live<3>(tk3) : live_words{0, 0};
  for (int q = 0; q < 40; q += 8) schedule_build::eight<0>(s, q, t2, t3);
  wipe_object(t2);
  wipe_object(t3);
}

// ---- encryption -----------------------------------------------------------------------------

// NB blocks under round words from `src` (src.next<R>(r, k) fills the word of each block for
// round r, R = r mod 8). Blocks are row-pair words a (bytes 0..7) and b (bytes 8..15).
template <int R, std::size_t NB, class Source>
LWC_HD LWC_ALWAYS_INLINE constexpr void round(u64 (&a)[NB], u64 (&b)[NB], Source& src, int r) {
  u64 k[NB]{};
  src.template next<R>(r, k);
  for (std::size_t i = 0; i < NB; ++i) {
    a[i] = sbox<R>(a[i]) ^ k[i];
    b[i] = sbox<R>(b[i]) ^ row2_constant<R>();
    mix(a[i], b[i]);
  }
}

template <std::size_t NB, class Source>
LWC_HD LWC_ALWAYS_INLINE constexpr void encrypt(u64 (&a)[NB], u64 (&b)[NB], Source& src) {
  for (std::size_t i = 0; i < NB; ++i) {
    a[i] = ~apply_map<map_kind::enter>(a[i]);
    b[i] = ~apply_map<map_kind::enter>(b[i]);
  }
  for (int q = 0; q < 40; q += 8) {
    round<0>(a, b, src, q);
    round<1>(a, b, src, q + 1);
    round<2>(a, b, src, q + 2);
    round<3>(a, b, src, q + 3);
    round<4>(a, b, src, q + 4);
    round<5>(a, b, src, q + 5);
    round<6>(a, b, src, q + 6);
    round<7>(a, b, src, q + 7);
  }
  for (std::size_t i = 0; i < NB; ++i) {
    a[i] = apply_map<map_kind::leave>(~a[i]);
    b[i] = apply_map<map_kind::leave>(~b[i]);
  }
}

// Round words: a fixed schedule, a live TK1 whose rows 2 and 3 are zero (Romulus' block counter
// and domain byte: it only adds to even rounds) and optionally a live TK2.
template <bool LiveTk2>
struct counter_source {
  const schedule* fixed;
  u64 tk1;  // even-round word
  live_words tk2;

  template <int R, std::size_t NB>
  LWC_HD LWC_ALWAYS_INLINE constexpr void next(int r, u64 (&k)[NB]) {
    u64 w = fixed->w[r];
    if constexpr (R % 2 == 0) {
      w ^= tk1;
      tk1 = step_word<1, R>(tk1);
    }
    if constexpr (LiveTk2) w ^= take_word<2, R>(tk2);
    for (std::size_t i = 0; i < NB; ++i) k[i] = w;
  }
};

// All three arrays live and shared by the blocks (the Hirose compression function).
struct hash_source {
  const schedule* constants;
  live_words tk1, tk2, tk3;

  template <int R, std::size_t NB>
  LWC_HD LWC_ALWAYS_INLINE constexpr void next(int r, u64 (&k)[NB]) {
    const u64 w = constants->w[r] ^ take_word<1, R>(tk1) ^ take_word<2, R>(tk2) ^
                  take_word<3, R>(tk3);
    for (std::size_t i = 0; i < NB; ++i) k[i] = w;
  }
};

// Blocks with their own counter TK1 (rows 2, 3 zero) and a shared live TK3 (Romulus-T, whose
// key stream and next key come from two calls that differ in the domain byte).
template <std::size_t NB>
struct counter_tk3_source {
  const schedule* constants;
  u64 tk1[NB];
  live_words tk3;

  template <int R>
  LWC_HD LWC_ALWAYS_INLINE constexpr void next(int r, u64 (&k)[NB]) {
    const u64 w = constants->w[r] ^ take_word<3, R>(tk3);
    for (std::size_t i = 0; i < NB; ++i) {
      k[i] = w;
      if constexpr (R % 2 == 0) {
        k[i] ^= tk1[i];
        tk1[i] = step_word<1, R>(tk1[i]);
      }
    }
  }
};

// The block counter: a 56-bit LFSR (x^56 + x^7 + x^4 + x^2 + 1) in bytes 0..6 of TK1, byte 0
// least significant, starting at 1.
LWC_HD LWC_ALWAYS_INLINE constexpr u64 next_counter(u64 c) {
  return (c << 1 & 0x00ffffffffffffffull) ^ ((u64{0} - (c >> 55 & 1)) & 0x95);
}

// TK1 of a Romulus call: the 56-bit counter (bytes 0..6), the domain byte, then zeros; as the
// word it adds in round 0.
LWC_HD LWC_ALWAYS_INLINE constexpr u64 counter_word(u64 counter, std::uint8_t domain) {
  return apply_map<map_kind::first_even>(counter | u64{domain} << 56);
}

}  // namespace lwc::romulus::detail
