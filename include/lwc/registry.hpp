// SPDX-License-Identifier: MIT OR Apache-2.0
// The algorithm registry: each algorithm of algorithm_list.hpp described at run time (name,
// kind, sizes, and type-erased entry points generated from its C++ class), so that the KAT
// driver, the benchmarks, the C ABI, the Python package, the CLI and the engines' front ends
// iterate one table instead of naming algorithms. Nothing here names an algorithm: the table
// is generated from the list.
//
// The generic functions below check every size and throw std::invalid_argument with a
// message naming the expected size; the typed classes in ascon.hpp check with LWC_REQUIRE.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "algorithm_list.hpp"
#include "common/checked.hpp"
#include "common/kind.hpp"
#include "common/secure.hpp"
#include "common/span.hpp"

namespace lwc {

// One algorithm of the registry: what it is, its sizes in bytes, and type-erased entry points.
// Get one with get_algorithm() or find_algorithm(), or iterate algorithms().
struct algorithm {
  std::string_view name;      // the spec name in kebab case: the public identifier everywhere
  algorithm_kind kind;        // aead, hash, xof, cxof, mac or prf
  std::string_view family;    // "ascon", ...
  std::string_view standard;  // where the definition comes from
  bool legacy;                // superseded by a standard (Ascon v1.2): say "legacy" wherever listed
  std::size_t key_size;       // 0 for unkeyed hashes
  std::size_t second_key_size;  // AEAD nonce-masking key, 0 if not supported
  std::size_t nonce_size;     // 0 for hashes
  std::size_t tag_size;       // AEAD: full tag; MAC: tag; 0 otherwise
  std::size_t min_tag_size;   // shortest truncated tag accepted
  std::size_t output_size;    // hash digest, MAC tag, or the default XOF/PRF output length
  std::size_t max_output_size;  // 0 when unbounded (XOF, PRF)
  std::size_t max_input_size;   // SIZE_MAX unless the algorithm limits it (PRFShort: 16)
  std::size_t max_customization_size;  // CXOF: longest customization string; 0 otherwise
  std::size_t block_size;     // rate in bytes
  // One message's initialization and finalization, in bytes' worth of its message processing
  // (an algorithm class may state it as `setup_cost`; 64 otherwise). With the bytes of a
  // batch it decides how many threads the batch engine starts.
  std::size_t setup_cost;

  // AEAD entry points (null for other kinds). Sizes are checked by the callers below.
  void (*encrypt)(const std::uint8_t* key, const std::uint8_t* second_key,
                  const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                  const std::uint8_t* pt, std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                  std::size_t tag_len);
  bool (*decrypt)(const std::uint8_t* key, const std::uint8_t* second_key,
                  const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                  const std::uint8_t* ct, std::size_t ct_len, const std::uint8_t* tag,
                  std::size_t tag_len, std::uint8_t* pt);

  // Incremental hashing entry points (null for AEADs): construct in caller storage of
  // state_size bytes (aligned to 8), absorb, squeeze, copy-construct, destroy (wipes).
  std::size_t state_size;
  void (*init)(void* st, const std::uint8_t* key, const std::uint8_t* custom,
               std::size_t custom_len);
  void (*absorb)(void* st, const std::uint8_t* data, std::size_t len);
  void (*squeeze)(void* st, std::uint8_t* out, std::size_t len);
  void (*copy)(void* dst, const void* src);
  void (*destroy)(void* st);
  // One-shot hashing: init, absorb all of `in` and squeeze out_len bytes in one call, with the
  // state in the callee's locals (arguments checked by lwc::digest).
  void (*digest)(const std::uint8_t* key, const std::uint8_t* custom, std::size_t custom_len,
                 const std::uint8_t* in, std::size_t len, std::uint8_t* out, std::size_t out_len);

  // Whether it is an AEAD (else a hash, XOF, CXOF, MAC or PRF), and whether it takes a key.
  constexpr bool is_aead() const { return kind == algorithm_kind::aead; }
  constexpr bool is_keyed() const { return key_size != 0; }
  // The longest tag a truncated (named-length) verifier accepts: the full tag, except for a
  // PRF, whose output has no fixed length, which may be verified on up to 64 bytes.
  constexpr std::size_t max_verified_tag_size() const {
    return kind == algorithm_kind::prf ? 64 : tag_size;
  }
};

// Largest hash state of any registered algorithm; storage for `hasher` and the C ABI.
inline constexpr std::size_t max_hash_state_size = 128;

namespace detail {

template <class A>
constexpr std::size_t setup_cost_of() {
  if constexpr (requires { A::setup_cost; }) return A::setup_cost;
  else return 64;  // Ascon: two p^12 against p^8 per 16-byte block, about 48 bytes' worth
}

// Constructs H in the storage at st from the key or customization string its kind takes.
template <class H>
void construct_hasher(void* st, const std::uint8_t* key, const std::uint8_t* custom,
                      std::size_t custom_len) {
  if constexpr (H::keyed) {
    (void)custom, (void)custom_len;
    ::new (st) H(key);
  } else if constexpr (H::kind == algorithm_kind::cxof) {
    (void)key;
    ::new (st) H(custom, custom_len);
  } else {
    (void)key, (void)custom, (void)custom_len;
    ::new (st) H();
  }
}

// The type-erased entry points of algorithm A that the table points to. Their bodies (below)
// are what makes a translation unit that uses the registry compile every algorithm of the
// list; a build that defines LWC_REGISTRY_COMPILED sees only these declarations and links the
// bodies, compiled once, from its registry library (src/registry/entry_points.cpp). Without
// it, as for every program that simply includes the headers, they are instantiated here.
template <class A>
struct entry_points {
  static void encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                      const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                      const std::uint8_t* pt, std::size_t pt_len, std::uint8_t* ct,
                      std::uint8_t* tag, std::size_t tag_len);
  static bool decrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                      const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                      const std::uint8_t* ct, std::size_t ct_len, const std::uint8_t* tag,
                      std::size_t tag_len, std::uint8_t* pt);
  static void init(void* st, const std::uint8_t* key, const std::uint8_t* custom,
                   std::size_t custom_len);
  static void absorb(void* st, const std::uint8_t* d, std::size_t n);
  static void squeeze(void* st, std::uint8_t* o, std::size_t n);
  static void copy(void* dst, const void* src);
  static void destroy(void* st);
  static void digest(const std::uint8_t* key, const std::uint8_t* custom, std::size_t custom_len,
                     const std::uint8_t* in, std::size_t len, std::uint8_t* out,
                     std::size_t out_len);
};

#if !defined(LWC_REGISTRY_COMPILED) || defined(LWC_REGISTRY_DEFINE_ENTRY_POINTS)
// An AEAD's class provides encrypt/decrypt, a hash's the incremental interface; each entry
// point is empty for the other kind (only the table's pointers of the right kind are used).
template <class A>
void entry_points<A>::encrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                              const std::uint8_t* nonce, const std::uint8_t* ad,
                              std::size_t ad_len, const std::uint8_t* pt, std::size_t pt_len,
                              std::uint8_t* ct, std::uint8_t* tag, std::size_t tag_len) {
  if constexpr (is_aead_v<A>) A::encrypt(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
}
template <class A>
bool entry_points<A>::decrypt(const std::uint8_t* key, const std::uint8_t* second_key,
                              const std::uint8_t* nonce, const std::uint8_t* ad,
                              std::size_t ad_len, const std::uint8_t* ct, std::size_t ct_len,
                              const std::uint8_t* tag, std::size_t tag_len, std::uint8_t* pt) {
  if constexpr (is_aead_v<A>) return A::decrypt(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
  else return false;
}
template <class A>
void entry_points<A>::init(void* st, const std::uint8_t* key, const std::uint8_t* custom,
                           std::size_t custom_len) {
  if constexpr (!is_aead_v<A>) construct_hasher<A>(st, key, custom, custom_len);
}
template <class A>
void entry_points<A>::absorb(void* st, const std::uint8_t* d, std::size_t n) {
  if constexpr (!is_aead_v<A>) static_cast<A*>(st)->absorb(d, n);
}
template <class A>
void entry_points<A>::squeeze(void* st, std::uint8_t* o, std::size_t n) {
  if constexpr (!is_aead_v<A>) static_cast<A*>(st)->squeeze(o, n);
}
template <class A>
void entry_points<A>::copy(void* dst, const void* src) {
  if constexpr (!is_aead_v<A>) ::new (dst) A(*static_cast<const A*>(src));
}
template <class A>
void entry_points<A>::destroy(void* st) {
  if constexpr (!is_aead_v<A>) static_cast<A*>(st)->~A();
}
template <class A>
void entry_points<A>::digest(const std::uint8_t* key, const std::uint8_t* custom,
                             std::size_t custom_len, const std::uint8_t* in, std::size_t len,
                             std::uint8_t* out, std::size_t out_len) {
  if constexpr (!is_aead_v<A>) {
    alignas(A) std::uint8_t storage[sizeof(A)];
    construct_hasher<A>(storage, key, custom, custom_len);
    A* h = std::launder(reinterpret_cast<A*>(storage));
    if constexpr (requires { h->absorb_and_squeeze(in, len, out, out_len); }) {
      h->absorb_and_squeeze(in, len, out, out_len);  // one call: the state stays in registers
    } else {
      h->absorb(in, len);
      h->squeeze(out, out_len);
    }
    h->~A();
  }
}
#endif

template <class A>
constexpr algorithm make_aead(const provenance& source) {
  algorithm a{};
  a.name = A::name;
  a.kind = algorithm_kind::aead;
  a.family = source.family;
  a.standard = source.standard;
  a.legacy = source.legacy;
  a.key_size = A::key_size;
  a.second_key_size = A::second_key_size;
  a.nonce_size = A::nonce_size;
  a.tag_size = A::tag_size;
  a.min_tag_size = A::min_tag_size;
  a.max_input_size = SIZE_MAX;
  a.block_size = A::block_size;
  a.setup_cost = setup_cost_of<A>();
  a.encrypt = &entry_points<A>::encrypt;
  a.decrypt = &entry_points<A>::decrypt;
  return a;
}

template <class H>
constexpr algorithm make_hash(const provenance& source) {
  static_assert(sizeof(H) <= max_hash_state_size && alignof(H) <= 8);
  algorithm a{};
  a.name = H::name;
  a.kind = H::kind;
  a.family = source.family;
  a.standard = source.standard;
  a.legacy = source.legacy;
  a.key_size = H::key_size;
  a.tag_size = H::keyed ? H::output_size : 0;
  a.min_tag_size = H::keyed ? 4 : 0;
  a.output_size = H::output_size;
  a.max_output_size = H::max_output_size;
  a.max_input_size = H::max_input_size;
  a.max_customization_size = H::max_customization_size;
  a.block_size = H::block_size;
  a.setup_cost = setup_cost_of<H>();
  a.state_size = sizeof(H);
  a.init = &entry_points<H>::init;
  a.absorb = &entry_points<H>::absorb;
  a.squeeze = &entry_points<H>::squeeze;
  a.copy = &entry_points<H>::copy;
  a.destroy = &entry_points<H>::destroy;
  a.digest = &entry_points<H>::digest;
  return a;
}

template <class Entry>
constexpr algorithm make_entry() {
  using A = typename Entry::type;
  if constexpr (is_aead_v<A>) return make_aead<A>(Entry::source);
  else return make_hash<A>(Entry::source);
}

template <class... E>
constexpr std::array<algorithm, sizeof...(E)> make_table(type_list<E...>) {
  return {make_entry<E>()...};
}

}  // namespace detail

// The registry, in the list's order (the order users see in listings).
inline constexpr std::array<algorithm, algorithm_count> registry_table =
    detail::make_table(algorithm_list{});

// Every registered algorithm, in the list's order.
inline constexpr std::span<const algorithm> algorithms() noexcept { return registry_table; }

// Null when the name is not registered.
inline constexpr const algorithm* find_algorithm(std::string_view name) noexcept {
  for (const algorithm& a : registry_table)
    if (a.name == name) return &a;
  return nullptr;
}

// The position of an algorithm in the list (and the table): the index the engines use.
inline constexpr std::size_t index_of(const algorithm& a) noexcept {
  return static_cast<std::size_t>(&a - registry_table.data());
}

namespace detail {
[[noreturn]] inline void invalid(const algorithm& a, std::string_view what) {
  throw std::invalid_argument(std::string(a.name) + ": " + std::string(what));
}
inline void check_size(const algorithm& a, std::string_view what, std::size_t got,
                       std::size_t expected) {
  if (got != expected)
    invalid(a, std::string(what) + " must be " + std::to_string(expected) + " bytes, got " +
                   std::to_string(got));
}
inline void check_tag_size(const algorithm& a, std::size_t got) {
  if (got < a.min_tag_size || got > a.tag_size)
    invalid(a, "tag must be " +
                   (a.min_tag_size == a.tag_size
                        ? std::to_string(a.tag_size)
                        : std::to_string(a.min_tag_size) + " to " + std::to_string(a.tag_size)) +
                   " bytes, got " + std::to_string(got));
}
inline void check_aead_args(const algorithm& a, bytes_view key, bytes_view nonce,
                            bytes_view second_key, std::size_t tag_len) {
  if (!a.is_aead()) invalid(a, "not an AEAD algorithm");
  check_size(a, "key", key.size(), a.key_size);
  check_size(a, "nonce", nonce.size(), a.nonce_size);
  if (!second_key.empty()) {
    if (a.second_key_size == 0) invalid(a, "nonce masking (a second key) is not supported");
    check_size(a, "second key", second_key.size(), a.second_key_size);
  }
  check_tag_size(a, tag_len);
}
inline void check_hash_args(const algorithm& a, bytes_view key, bytes_view customization) {
  if (a.is_aead()) invalid(a, "an AEAD has no hash interface");
  if (a.is_keyed()) check_size(a, "key", key.size(), a.key_size);
  else if (!key.empty()) invalid(a, "takes no key");
  if (customization.size() > a.max_customization_size)
    invalid(a, a.max_customization_size == 0
                   ? std::string("takes no customization string")
                   : "customization string must be at most " +
                         std::to_string(a.max_customization_size) + " bytes");
}
}  // namespace detail

// Throws std::invalid_argument("unknown algorithm ...") when the name is not registered.
inline const algorithm& get_algorithm(std::string_view name) {
  if (const algorithm* a = find_algorithm(name)) return *a;
  throw std::invalid_argument("unknown algorithm '" + std::string(name) + "'");
}

// Detached AEAD encryption: ct.size() == pt.size(); tag.size() picks the tag length.
inline void aead_encrypt(const algorithm& a, bytes_view key, bytes_view nonce, bytes_view ad,
                         bytes_view pt, bytes_span ct, bytes_span tag,
                         bytes_view second_key = {}) {
  detail::check_aead_args(a, key, nonce, second_key, tag.size());
  detail::check_size(a, "ciphertext buffer", ct.size(), pt.size());
  a.encrypt(key.data(), second_key.empty() ? nullptr : second_key.data(), nonce.data(), ad.data(),
            ad.size(), pt.data(), pt.size(), ct.data(), tag.data(), tag.size());
}

// Detached AEAD decryption of a full tag: true when the tag verifies; otherwise pt is all
// zeros. A tag of another size than a.tag_size zeroes pt and throws std::invalid_argument.
[[nodiscard]] inline bool aead_decrypt(const algorithm& a, bytes_view key, bytes_view nonce,
                                       bytes_view ad, bytes_view ct, bytes_view tag, bytes_span pt,
                                       bytes_view second_key = {}) {
  if (a.is_aead() && tag.size() != a.tag_size) {
    secure_wipe(pt.data(), pt.size());  // fails as a wrong tag does: nothing of pt is left
    detail::invalid(a, "tag must be the full " + std::to_string(a.tag_size) + " bytes, got " +
                           std::to_string(tag.size()) +
                           " (truncated tags are verified only by aead_decrypt_truncated)");
  }
  detail::check_aead_args(a, key, nonce, second_key, tag.size());
  detail::check_size(a, "plaintext buffer", pt.size(), ct.size());
  return a.decrypt(key.data(), second_key.empty() ? nullptr : second_key.data(), nonce.data(),
                   ad.data(), ad.size(), ct.data(), ct.size(), tag.data(), tag.size(), pt.data());
}

// The opt-in for truncated tags: tag.size() may be any length from a.min_tag_size to
// a.tag_size, so the caller, not the tag's sender, must fix it (a 4-byte tag is forged in
// 2^32 tries). Otherwise as aead_decrypt.
[[nodiscard]] inline bool aead_decrypt_truncated(const algorithm& a, bytes_view key,
                                                 bytes_view nonce, bytes_view ad, bytes_view ct,
                                                 bytes_view tag, bytes_span pt,
                                                 bytes_view second_key = {}) {
  detail::check_aead_args(a, key, nonce, second_key, tag.size());
  detail::check_size(a, "plaintext buffer", pt.size(), ct.size());
  return a.decrypt(key.data(), second_key.empty() ? nullptr : second_key.data(), nonce.data(),
                   ad.data(), ad.size(), ct.data(), ct.size(), tag.data(), tag.size(), pt.data());
}

// Incremental hash, XOF, CXOF, MAC or PRF over any registered algorithm.
class hasher {
 public:
  // Starts a computation: `key` is the key of a MAC or PRF (exactly its key size; empty for
  // others), `customization` the string of a CXOF. Throws std::invalid_argument for an AEAD, an
  // unknown name, a wrong key size or a customization string the algorithm does not take.
  explicit hasher(const algorithm& a, bytes_view key = {}, bytes_view customization = {})
      : alg_(&a) {
    detail::check_hash_args(a, key, customization);
    a.init(state_, key.data(), customization.data(), customization.size());
  }
  explicit hasher(std::string_view name, bytes_view key = {}, bytes_view customization = {})
      : hasher(get_algorithm(name), key, customization) {}
  hasher(const hasher& other) : alg_(other.alg_), absorbed_(other.absorbed_),
                                squeezed_(other.squeezed_) {
    alg_->copy(state_, other.state_);
  }
  hasher& operator=(const hasher&) = delete;
  ~hasher() { alg_->destroy(state_); }

  // The algorithm this object computes.
  const algorithm& info() const { return *alg_; }

  // Absorbs the next piece of input. Throws std::invalid_argument after output was read, or
  // when the input would pass the algorithm's limit (max_input_size).
  hasher& update(bytes_view data) {
    if (squeezed_ != 0) detail::invalid(*alg_, "update after output was read");
    if (data.size() > alg_->max_input_size - absorbed_)
      detail::invalid(*alg_, "input must be at most " + std::to_string(alg_->max_input_size) +
                                 " bytes");
    absorbed_ += data.size();
    alg_->absorb(state_, data.data(), data.size());
    return *this;
  }
  // The next out.size() bytes of output (for fixed-length algorithms, at most the digest).
  void squeeze(bytes_span out) {
    if (alg_->max_output_size != 0 && out.size() > alg_->max_output_size - squeezed_)
      detail::invalid(*alg_, "output is at most " + std::to_string(alg_->max_output_size) +
                                 " bytes");
    // Saturating: only "anything read yet" and the bound above are asked of the count.
    if (!add_fits(squeezed_, out.size(), squeezed_)) squeezed_ = SIZE_MAX;
    alg_->squeeze(state_, out.data(), out.size());
  }
  // MAC/PRF: constant-time check of the next tag_size output bytes against tag, which must
  // be the full tag (info().tag_size bytes).
  [[nodiscard]] bool verify(bytes_view tag) {
    if (alg_->is_keyed() && tag.size() != alg_->tag_size)
      detail::invalid(*alg_, "tag must be the full " + std::to_string(alg_->tag_size) +
                                 " bytes, got " + std::to_string(tag.size()) +
                                 " (truncated tags are verified only by verify_truncated)");
    return verify_truncated(tag);
  }
  // The opt-in for other lengths: tag.size() from info().min_tag_size to info().tag_size (a
  // PRF, whose output has no fixed length, also up to 64 bytes). The length must be the
  // caller's configuration, never the length of whatever tag arrived.
  [[nodiscard]] bool verify_truncated(bytes_view tag) {
    if (!alg_->is_keyed()) detail::invalid(*alg_, "verify needs a MAC or PRF");
    const std::size_t max = alg_->max_verified_tag_size();
    if (tag.size() < alg_->min_tag_size || tag.size() > max)
      detail::invalid(*alg_, "tag must be " + std::to_string(alg_->min_tag_size) + " to " +
                                 std::to_string(max) + " bytes, got " +
                                 std::to_string(tag.size()));
    std::uint8_t expected[64];
    squeeze({expected, tag.size()});
    const bool ok = ct_equal(expected, tag.data(), tag.size());
    secure_wipe(expected, sizeof expected);
    return ok;
  }

 private:
  const algorithm* alg_;
  std::size_t absorbed_ = 0;
  std::size_t squeezed_ = 0;
  alignas(8) std::uint8_t state_[max_hash_state_size];
};

// One-shot hash/XOF/CXOF/MAC/PRF: out.size() bytes of output.
inline void digest(const algorithm& a, bytes_view data, bytes_span out, bytes_view key = {},
                   bytes_view customization = {}) {
  detail::check_hash_args(a, key, customization);
  if (data.size() > a.max_input_size)
    detail::invalid(a, "input must be at most " + std::to_string(a.max_input_size) + " bytes");
  if (a.max_output_size != 0 && out.size() > a.max_output_size)
    detail::invalid(a, "output is at most " + std::to_string(a.max_output_size) + " bytes");
  a.digest(key.data(), customization.data(), customization.size(), data.data(), data.size(),
           out.data(), out.size());
}

}  // namespace lwc
