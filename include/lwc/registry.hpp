// The algorithm registry: each algorithm described once (name, kind, sizes, and type-erased
// entry points generated from its C++ class), so that the KAT driver, the benchmarks, the C
// ABI, the Python package and the CLI all iterate one table instead of naming algorithms.
// Adding an algorithm: its header, one line in `registry_table`, its KAT file.
//
// The generic functions below check every size and throw std::invalid_argument with a
// message naming the expected size; the typed classes in ascon.hpp check with LWC_REQUIRE.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "acorn/acorn128.hpp"
#include "ascon.hpp"
#include "common/kind.hpp"
#include "common/secure.hpp"
#include "common/span.hpp"
#include "grain/grain128aead.hpp"
#include "isap/aead.hpp"
#include "photon_beetle/aead.hpp"
#include "photon_beetle/hash.hpp"

namespace lwc {

struct algorithm {
  std::string_view name;      // the spec name in kebab case: the public identifier everywhere
  algorithm_kind kind;
  std::string_view family;    // "ascon", ...
  std::string_view standard;  // where the definition comes from
  std::size_t key_size;       // 0 for unkeyed hashes
  std::size_t second_key_size;  // AEAD nonce-masking key, 0 if not supported
  std::size_t nonce_size;
  std::size_t tag_size;       // AEAD: full tag; MAC: tag; 0 otherwise
  std::size_t min_tag_size;   // shortest truncated tag accepted
  std::size_t output_size;    // hash digest, MAC tag, or the default XOF/PRF output length
  std::size_t max_output_size;  // 0 when unbounded (XOF, PRF)
  std::size_t max_input_size;   // SIZE_MAX unless the algorithm limits it (PRFShort: 16)
  std::size_t max_customization_size;
  std::size_t block_size;     // rate in bytes

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

  constexpr bool is_aead() const { return kind == algorithm_kind::aead; }
  constexpr bool is_keyed() const { return key_size != 0; }
};

// Largest hash state of any registered algorithm; storage for `hasher` and the C ABI.
inline constexpr std::size_t max_hash_state_size = 128;

namespace detail {

template <class A>
constexpr algorithm make_aead(std::string_view family, std::string_view standard) {
  algorithm a{};
  a.name = A::name;
  a.kind = algorithm_kind::aead;
  a.family = family;
  a.standard = standard;
  a.key_size = A::key_size;
  a.second_key_size = A::second_key_size;
  a.nonce_size = A::nonce_size;
  a.tag_size = A::tag_size;
  a.min_tag_size = A::min_tag_size;
  a.max_input_size = SIZE_MAX;
  a.block_size = A::block_size;
  a.encrypt = [](const std::uint8_t* key, const std::uint8_t* second_key,
                 const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                 const std::uint8_t* pt, std::size_t pt_len, std::uint8_t* ct, std::uint8_t* tag,
                 std::size_t tag_len) {
    A::encrypt(key, second_key, nonce, ad, ad_len, pt, pt_len, ct, tag, tag_len);
  };
  a.decrypt = [](const std::uint8_t* key, const std::uint8_t* second_key,
                 const std::uint8_t* nonce, const std::uint8_t* ad, std::size_t ad_len,
                 const std::uint8_t* ct, std::size_t ct_len, const std::uint8_t* tag,
                 std::size_t tag_len, std::uint8_t* pt) {
    return A::decrypt(key, second_key, nonce, ad, ad_len, ct, ct_len, tag, tag_len, pt);
  };
  return a;
}

template <class H>
constexpr algorithm make_hash(std::string_view family, std::string_view standard) {
  static_assert(sizeof(H) <= max_hash_state_size && alignof(H) <= 8);
  algorithm a{};
  a.name = H::name;
  a.kind = H::kind;
  a.family = family;
  a.standard = standard;
  a.key_size = H::key_size;
  a.tag_size = H::keyed ? H::output_size : 0;
  a.min_tag_size = H::keyed ? 4 : 0;
  a.output_size = H::output_size;
  a.max_output_size = H::max_output_size;
  a.max_input_size = H::max_input_size;
  a.max_customization_size = H::max_customization_size;
  a.block_size = H::block_size;
  a.state_size = sizeof(H);
  a.init = [](void* st, const std::uint8_t* key, const std::uint8_t* custom,
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
  };
  a.absorb = [](void* st, const std::uint8_t* d, std::size_t n) {
    static_cast<H*>(st)->absorb(d, n);
  };
  a.squeeze = [](void* st, std::uint8_t* o, std::size_t n) { static_cast<H*>(st)->squeeze(o, n); };
  a.copy = [](void* dst, const void* src) { ::new (dst) H(*static_cast<const H*>(src)); };
  a.destroy = [](void* st) { static_cast<H*>(st)->~H(); };
  return a;
}

inline constexpr std::string_view sp800_232 = "NIST SP 800-232";
inline constexpr std::string_view ascon_v12 = "Ascon v1.2";
inline constexpr std::string_view ascon_v13 = "Ascon v1.3 (ascon-c)";
inline constexpr std::string_view acorn_v3 = "ACORN v3 (CAESAR)";
inline constexpr std::string_view grain_v2 = "Grain-128AEADv2 (NIST LWC final round)";
inline constexpr std::string_view photon_beetle_v11 = "PHOTON-Beetle v1.1 (NIST LWC final round)";
inline constexpr std::string_view isap_v20 = "ISAP v2.0 (NIST LWC final round)";

}  // namespace detail

// The registry. Order is the order users see in listings.
inline constexpr algorithm registry_table[] = {
    detail::make_aead<ascon::aead128>("ascon", detail::sp800_232),
    detail::make_hash<ascon::hash256>("ascon", detail::sp800_232),
    detail::make_hash<ascon::xof128>("ascon", detail::sp800_232),
    detail::make_hash<ascon::cxof128>("ascon", detail::sp800_232),
    detail::make_aead<ascon::v12::ascon128>("ascon", detail::ascon_v12),
    detail::make_aead<ascon::v12::ascon128a>("ascon", detail::ascon_v12),
    detail::make_aead<ascon::v12::ascon80pq>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::hash>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::hasha>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::xof>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::xofa>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::mac>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::prf>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::prfshort>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::maca>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v12::prfa>("ascon", detail::ascon_v12),
    detail::make_hash<ascon::v13::mac>("ascon", detail::ascon_v13),
    detail::make_hash<ascon::v13::prf>("ascon", detail::ascon_v13),
    detail::make_hash<ascon::v13::prfshort>("ascon", detail::ascon_v13),
    detail::make_aead<acorn::acorn128>("acorn", detail::acorn_v3),
    detail::make_aead<grain::grain128aead>("grain", detail::grain_v2),
    detail::make_aead<photon_beetle::aead128>("photon-beetle", detail::photon_beetle_v11),
    detail::make_aead<photon_beetle::aead32>("photon-beetle", detail::photon_beetle_v11),
    detail::make_hash<photon_beetle::hash>("photon-beetle", detail::photon_beetle_v11),
    detail::make_aead<isap::isap_a_128a>("isap", detail::isap_v20),
    detail::make_aead<isap::isap_k_128a>("isap", detail::isap_v20),
    detail::make_aead<isap::isap_a_128>("isap", detail::isap_v20),
    detail::make_aead<isap::isap_k_128>("isap", detail::isap_v20),
};

inline constexpr std::span<const algorithm> algorithms() noexcept { return registry_table; }

// Null when the name is not registered.
inline constexpr const algorithm* find_algorithm(std::string_view name) noexcept {
  for (const algorithm& a : registry_table)
    if (a.name == name) return &a;
  return nullptr;
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

// Detached AEAD decryption: true when the tag verifies; otherwise pt is all zeros.
[[nodiscard]] inline bool aead_decrypt(const algorithm& a, bytes_view key, bytes_view nonce,
                                       bytes_view ad, bytes_view ct, bytes_view tag, bytes_span pt,
                                       bytes_view second_key = {}) {
  detail::check_aead_args(a, key, nonce, second_key, tag.size());
  detail::check_size(a, "plaintext buffer", pt.size(), ct.size());
  return a.decrypt(key.data(), second_key.empty() ? nullptr : second_key.data(), nonce.data(),
                   ad.data(), ad.size(), ct.data(), ct.size(), tag.data(), tag.size(), pt.data());
}

// Incremental hash, XOF, CXOF, MAC or PRF over any registered algorithm.
class hasher {
 public:
  explicit hasher(const algorithm& a, bytes_view key = {}, bytes_view customization = {})
      : alg_(&a) {
    if (a.is_aead()) detail::invalid(a, "an AEAD has no hash interface");
    if (a.is_keyed()) detail::check_size(a, "key", key.size(), a.key_size);
    else if (!key.empty()) detail::invalid(a, "takes no key");
    if (customization.size() > a.max_customization_size)
      detail::invalid(a, a.max_customization_size == 0
                             ? std::string("takes no customization string")
                             : "customization string must be at most " +
                                   std::to_string(a.max_customization_size) + " bytes");
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

  const algorithm& info() const { return *alg_; }

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
    squeezed_ += out.size();
    alg_->squeeze(state_, out.data(), out.size());
  }
  // MAC/PRF: constant-time check of the next tag.size() output bytes against tag.
  [[nodiscard]] bool verify(bytes_view tag) {
    if (!alg_->is_keyed()) detail::invalid(*alg_, "verify needs a MAC or PRF");
    const std::size_t max = alg_->max_output_size ? alg_->max_output_size : 64;
    if (tag.size() < alg_->min_tag_size || tag.size() > max)
      detail::invalid(*alg_, "tag must be " + std::to_string(alg_->min_tag_size) + " to " +
                                 std::to_string(max) + " bytes");
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
  hasher h(a, key, customization);
  h.update(data);
  h.squeeze(out);
}

}  // namespace lwc
