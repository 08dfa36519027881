// SPDX-License-Identifier: MIT OR Apache-2.0
// Side-by-side timing of formulations of the Ascon round on one state (no batching), to see
// how far the single-message permutation is from what this CPU allows:
//   lwc        the library's lwc::ascon::permute (the form in permutation.hpp: one statement per
//              instruction, their order pinned)
//   unpinned   the same S-box and linear layer with the order and the XOR association left
//              to the compiler (the library's round before the order was pinned)
//   nested     the nested-rotation linear layer t ^ ror(t ^ ror(t, b - a), a) with the
//              complement applied after the layer, the form of the designers' 64-bit C code
//   spec       the specification's order: constant, S-box with a separate complement, then
//              t ^ ror(t, a) ^ ror(t, b)
//   asm_bmi    (x86-64 with BMI1 and BMI2 only) one round as hand-ordered assembly using andn
//              and rorx, with the complement folded into the next round's constant
//   xmm_ternlog (x86-64 with AVX-512VL only) the state in vector registers, one word each,
//              with vpternlogq and vprorq
// Two kinds of benchmark per form: p12/<form> chains p^12 calls (items = rounds), and
// aead128_4KiB/<form> runs the permutation calls of an Ascon-AEAD128 encryption of 4 KiB with
// 32 bytes of AD (p^12, two AD blocks, 256 message blocks with load/XOR/store, p^12): the
// bytes per second of the real mode with that round, minus the key and tag handling.
// Build it twice (default flags and -march=native, targets lwc_round_forms and
// lwc_round_forms_native) to see what BMI1/BMI2 change.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <time.h>
#include <x86intrin.h>
#endif

#include <lwc/ascon/permutation.hpp>

namespace {

using word = std::uint64_t;

constexpr word rotr(word x, unsigned n) { return (x >> n) | (x << (64 - n)); }
constexpr word constant(int i) { return (static_cast<word>(0xf - i) << 4) | static_cast<word>(i); }

struct lwc_form {
  static constexpr const char* name = "lwc";
  template <int R>
  static void permute(word (&x)[5]) {
    lwc::ascon::state s{{x[0], x[1], x[2], x[3], x[4]}};
    lwc::ascon::permute<R>(s);
    std::memcpy(x, s.x, sizeof x);
  }
};

struct unpinned_form {
  static constexpr const char* name = "unpinned";
  template <int R>
  static void permute(word (&s)[5]) {
    word x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4];
#pragma GCC unroll 12
    for (int i = 12 - R; i < 12; ++i) {
      x2 ^= constant(i);
      x0 ^= x4;
      x4 ^= x3;
      x2 ^= x1;
      word t0 = x0 ^ (~x1 & x2);
      word t1 = x1 ^ (~x2 & x3);
      const word t2 = x2 ^ (~x3 & x4);
      word t3 = x3 ^ (~x4 & x0);
      const word t4 = x4 ^ (~x0 & x1);
      t1 ^= t0;
      t0 ^= t4;
      t3 ^= t2;
      x0 = t0 ^ (rotr(t0, 19) ^ rotr(t0, 28));
      x1 = t1 ^ (rotr(t1, 61) ^ rotr(t1, 39));
      x2 = ~(t2 ^ (rotr(t2, 1) ^ rotr(t2, 6)));
      x3 = t3 ^ (rotr(t3, 10) ^ rotr(t3, 17));
      x4 = t4 ^ (rotr(t4, 7) ^ rotr(t4, 41));
    }
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3, s[4] = x4;
  }
};

struct nested_form {
  static constexpr const char* name = "nested";
  template <int R>
  static void permute(word (&s)[5]) {
    word x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4];
#pragma GCC unroll 12
    for (int i = 12 - R; i < 12; ++i) {
      x2 ^= constant(i);
      x0 ^= x4;
      x4 ^= x3;
      x2 ^= x1;
      word t0 = x0 ^ (~x1 & x2), t2 = x2 ^ (~x3 & x4), t4 = x4 ^ (~x0 & x1);
      word t1 = x1 ^ (~x2 & x3), t3 = x3 ^ (~x4 & x0);
      t1 ^= t0;
      t3 ^= t2;
      t0 ^= t4;
      x2 = t2 ^ rotr(t2, 6 - 1);
      x3 = t3 ^ rotr(t3, 17 - 10);
      x4 = t4 ^ rotr(t4, 41 - 7);
      x0 = t0 ^ rotr(t0, 28 - 19);
      x1 = t1 ^ rotr(t1, 61 - 39);
      x2 = t2 ^ rotr(x2, 1);
      x3 = t3 ^ rotr(x3, 10);
      x4 = t4 ^ rotr(x4, 7);
      x0 = t0 ^ rotr(x0, 19);
      x1 = t1 ^ rotr(x1, 39);
      x2 = ~x2;
    }
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3, s[4] = x4;
  }
};

struct spec_form {
  static constexpr const char* name = "spec";
  template <int R>
  static void permute(word (&s)[5]) {
    word x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4];
#pragma GCC unroll 12
    for (int i = 12 - R; i < 12; ++i) {
      x2 ^= constant(i);
      x0 ^= x4;
      x4 ^= x3;
      x2 ^= x1;
      const word t0 = ~x0 & x1, t1 = ~x1 & x2, t2 = ~x2 & x3, t3 = ~x3 & x4, t4 = ~x4 & x0;
      x0 ^= t1;
      x1 ^= t2;
      x2 ^= t3;
      x3 ^= t4;
      x4 ^= t0;
      x1 ^= x0;
      x0 ^= x4;
      x3 ^= x2;
      x2 = ~x2;
      x0 ^= rotr(x0, 19) ^ rotr(x0, 28);
      x1 ^= rotr(x1, 61) ^ rotr(x1, 39);
      x2 ^= rotr(x2, 1) ^ rotr(x2, 6);
      x3 ^= rotr(x3, 10) ^ rotr(x3, 17);
      x4 ^= rotr(x4, 7) ^ rotr(x4, 41);
    }
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3, s[4] = x4;
  }
};

#if defined(__x86_64__) && defined(__BMI__) && defined(__BMI2__)
// One round on x0..x4 where x2 already carries this round's constant; K = ~(next constant)
// (or ~0 after the last round) finishes x2's complement and adds the next constant at once.
#define LWC_ASM_ROUND(K)                                                                 \
  asm("xor %[x4], %[x0]\n\t"                                                             \
      "xor %[x3], %[x4]\n\t"                                                             \
      "xor %[x1], %[x2]\n\t"                                                             \
      "andn %[x4], %[x3], %[n2]\n\t"                                                     \
      "andn %[x0], %[x4], %[n3]\n\t"                                                     \
      "andn %[x1], %[x0], %[n4]\n\t"                                                     \
      "andn %[x2], %[x1], %[n0]\n\t"                                                     \
      "andn %[x3], %[x2], %[n1]\n\t"                                                     \
      "xor %[x2], %[n2]\n\t"                                                             \
      "xor %[x3], %[n3]\n\t"                                                             \
      "xor %[x4], %[n4]\n\t"                                                             \
      "xor %[x0], %[n0]\n\t"                                                             \
      "xor %[x1], %[n1]\n\t"                                                             \
      "xor %[n2], %[n3]\n\t"                                                             \
      "rorx $1, %[n2], %[x2]\n\t"                                                        \
      "rorx $6, %[n2], %[x3]\n\t"                                                        \
      "xor %[n0], %[n1]\n\t"                                                             \
      "xor %[n4], %[n0]\n\t"                                                             \
      "rorx $7, %[n4], %[x4]\n\t"                                                        \
      "rorx $41, %[n4], %[x0]\n\t"                                                       \
      "xor %[x3], %[x2]\n\t"                                                             \
      "xor %[x0], %[x4]\n\t"                                                             \
      "xor %[n2], %[x2]\n\t"                                                             \
      "xor %[n4], %[x4]\n\t"                                                             \
      "rorx $10, %[n3], %[x3]\n\t"                                                       \
      "rorx $17, %[n3], %[n2]\n\t"                                                       \
      "rorx $19, %[n0], %[x0]\n\t"                                                       \
      "rorx $28, %[n0], %[n4]\n\t"                                                       \
      "xor %[n2], %[x3]\n\t"                                                             \
      "xor %[n4], %[x0]\n\t"                                                             \
      "rorx $61, %[n1], %[x1]\n\t"                                                       \
      "rorx $39, %[n1], %[n2]\n\t"                                                       \
      "xor %[n3], %[x3]\n\t"                                                             \
      "xor %[n0], %[x0]\n\t"                                                             \
      "xor %[n2], %[x1]\n\t"                                                             \
      "xor %[n1], %[x1]\n\t"                                                             \
      "xor %[k], %[x2]\n\t"                                                              \
      : [x0] "+r"(x0), [x1] "+r"(x1), [x2] "+r"(x2), [x3] "+r"(x3), [x4] "+r"(x4),       \
        [n0] "=&r"(n0), [n1] "=&r"(n1), [n2] "=&r"(n2), [n3] "=&r"(n3), [n4] "=&r"(n4) \
      : [k] "i"(K))

struct asm_bmi_form {
  static constexpr const char* name = "asm_bmi";
  template <int R>
  static void permute(word (&s)[5]) {
    word x0 = s[0], x1 = s[1], x2 = s[2] ^ constant(12 - R), x3 = s[3], x4 = s[4];
    word n0, n1, n2, n3, n4;
    if constexpr (R == 12) {
      LWC_ASM_ROUND(~0xe1);
      LWC_ASM_ROUND(~0xd2);
      LWC_ASM_ROUND(~0xc3);
      LWC_ASM_ROUND(~0xb4);
    }
    LWC_ASM_ROUND(~0xa5);
    LWC_ASM_ROUND(~0x96);
    LWC_ASM_ROUND(~0x87);
    LWC_ASM_ROUND(~0x78);
    LWC_ASM_ROUND(~0x69);
    LWC_ASM_ROUND(~0x5a);
    LWC_ASM_ROUND(~0x4b);
    LWC_ASM_ROUND(~0);
    s[0] = x0, s[1] = x1, s[2] = x2, s[3] = x3, s[4] = x4;
  }
};
#undef LWC_ASM_ROUND
#endif

#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512VL__)
// The state in vector registers, one word per xmm register: vpternlogq does each S-box step
// x ^ (~y & z) and each three-input XOR of the linear layer in one instruction, vprorq the
// rotations (26 instructions per round against 38 scalar ones).
struct xmm_ternlog_form {
  static constexpr const char* name = "xmm_ternlog";
  template <int R>
  static void permute(word (&s)[5]) {
    __m128i x0 = _mm_cvtsi64_si128(static_cast<long long>(s[0]));
    __m128i x1 = _mm_cvtsi64_si128(static_cast<long long>(s[1]));
    __m128i x2 = _mm_cvtsi64_si128(static_cast<long long>(s[2]));
    __m128i x3 = _mm_cvtsi64_si128(static_cast<long long>(s[3]));
    __m128i x4 = _mm_cvtsi64_si128(static_cast<long long>(s[4]));
    constexpr int xor3 = 0x96, xor_andn = 0xd2, xnor3 = 0x69;
#pragma GCC unroll 12
    for (int i = 12 - R; i < 12; ++i) {
      const __m128i c = _mm_set1_epi64x(static_cast<long long>(constant(i)));
      x2 = _mm_ternarylogic_epi64(x2, c, x1, xor3);
      x0 = _mm_xor_si128(x0, x4);
      x4 = _mm_xor_si128(x4, x3);
      __m128i t0 = _mm_ternarylogic_epi64(x0, x1, x2, xor_andn);
      __m128i t1 = _mm_ternarylogic_epi64(x1, x2, x3, xor_andn);
      const __m128i t2 = _mm_ternarylogic_epi64(x2, x3, x4, xor_andn);
      __m128i t3 = _mm_ternarylogic_epi64(x3, x4, x0, xor_andn);
      const __m128i t4 = _mm_ternarylogic_epi64(x4, x0, x1, xor_andn);
      t1 = _mm_xor_si128(t1, t0);
      t0 = _mm_xor_si128(t0, t4);
      t3 = _mm_xor_si128(t3, t2);
      x0 = _mm_ternarylogic_epi64(t0, _mm_ror_epi64(t0, 19), _mm_ror_epi64(t0, 28), xor3);
      x1 = _mm_ternarylogic_epi64(t1, _mm_ror_epi64(t1, 61), _mm_ror_epi64(t1, 39), xor3);
      x2 = _mm_ternarylogic_epi64(t2, _mm_ror_epi64(t2, 1), _mm_ror_epi64(t2, 6), xnor3);
      x3 = _mm_ternarylogic_epi64(t3, _mm_ror_epi64(t3, 10), _mm_ror_epi64(t3, 17), xor3);
      x4 = _mm_ternarylogic_epi64(t4, _mm_ror_epi64(t4, 7), _mm_ror_epi64(t4, 41), xor3);
    }
    s[0] = static_cast<word>(_mm_cvtsi128_si64(x0));
    s[1] = static_cast<word>(_mm_cvtsi128_si64(x1));
    s[2] = static_cast<word>(_mm_cvtsi128_si64(x2));
    s[3] = static_cast<word>(_mm_cvtsi128_si64(x3));
    s[4] = static_cast<word>(_mm_cvtsi128_si64(x4));
  }
};
#endif

// Every form must compute the library's permutation; a wrong form stops the benchmark.
template <class Form>
bool matches_library() {
  word a[5] = {1, 2, 3, 4, 5}, b[5] = {1, 2, 3, 4, 5};
  Form::template permute<12>(a);
  Form::template permute<8>(a);
  lwc_form::permute<12>(b);
  lwc_form::permute<8>(b);
  return std::memcmp(a, b, sizeof a) == 0;
}

template <class Form>
void p12(benchmark::State& state) {
  if (!matches_library<Form>()) return state.SkipWithError("form differs from lwc::ascon");
  word s[5] = {1, 2, 3, 4, 5};
  for (auto _ : state) {
    Form::template permute<12>(s);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * 12);
}

template <class Form>
void aead128_4KiB(benchmark::State& state) {
  if (!matches_library<Form>()) return state.SkipWithError("form differs from lwc::ascon");
  constexpr std::size_t n = 4096;
  std::vector<std::uint8_t> ad(32, 3), pt(n, 4), ct(n);
  for (auto _ : state) {
    word s[5] = {0x00001000808c0001, 1, 2, 3, 4};
    Form::template permute<12>(s);
    for (std::size_t i = 0; i < ad.size(); i += 16) {
      s[0] ^= lwc::load_le64(&ad[i]);
      s[1] ^= lwc::load_le64(&ad[i + 8]);
      Form::template permute<8>(s);
    }
    s[4] ^= word{1} << 63;
    for (std::size_t i = 0; i < n; i += 16) {
      s[0] ^= lwc::load_le64(&pt[i]);
      s[1] ^= lwc::load_le64(&pt[i + 8]);
      lwc::store_le64(&ct[i], s[0]);
      lwc::store_le64(&ct[i + 8], s[1]);
      Form::template permute<8>(s);
    }
    Form::template permute<12>(s);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(ct.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

template <class Form>
void register_form() {
  benchmark::RegisterBenchmark((std::string("p12/") + Form::name).c_str(), p12<Form>);
  benchmark::RegisterBenchmark((std::string("aead128_4KiB/") + Form::name).c_str(),
                               aead128_4KiB<Form>);
}

#if defined(__x86_64__)
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The clocks behind cycle figures: the time-stamp counter's rate (over 200 ms of wall time),
// and the core clock from a chain of dependent 64-bit multiplies (3 cycles each on current
// x86-64 cores) timed in thread CPU time, so that sharing the core does not skew it.
void add_clock_context() {
  const auto w0 = std::chrono::steady_clock::now();
  const unsigned long long c0 = __rdtsc();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const unsigned long long c1 = __rdtsc();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  benchmark::AddCustomContext("tsc_ghz", std::to_string((c1 - c0) / wall / 1e9));

  std::uint64_t x = 3, n = 100'000'000;
  const double t0 = thread_cpu_seconds();
  asm volatile(
      "1:\n\t"
      "imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"
      "sub $1, %1\n\tjnz 1b"
      : "+r"(x), "+r"(n));
  const double cpu = thread_cpu_seconds() - t0;
  benchmark::AddCustomContext("core_ghz_imul_chain", std::to_string(1.2 / cpu));
}
#endif

}  // namespace

int main(int argc, char** argv) {
#if defined(__x86_64__)
  add_clock_context();
#endif
  register_form<lwc_form>();
  register_form<unpinned_form>();
  register_form<nested_form>();
  register_form<spec_form>();
#if defined(__x86_64__) && defined(__BMI__) && defined(__BMI2__)
  register_form<asm_bmi_form>();
#endif
#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512VL__)
  register_form<xmm_ternlog_form>();
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
