// SPDX-License-Identifier: MIT OR Apache-2.0
// The C ABI: thin, exception-free wrappers over the registry's checked entry points. Every
// argument error becomes -1 with a message for lwc_error_message(); nothing throws across
// the C boundary.
#include "lwc.h"

#include <atomic>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>

#include <lwc/common/checked.hpp>
#include <lwc/common/overlap.hpp>
#include <lwc/registry.hpp>

#include "error.hpp"

namespace {

int fail(const std::string& message) {
  lwc::capi::set_error(message);
  return -1;
}

// Runs f, turning exceptions into -1 and a message.
template <class F>
int guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("unexpected error");
  }
}

const lwc::algorithm* lookup(const char* alg) {
  if (alg == nullptr) return nullptr;
  return lwc::find_algorithm(alg);
}

const lwc::algorithm& require(const char* alg) {
  if (alg == nullptr) throw std::invalid_argument("algorithm name is NULL");
  return lwc::get_algorithm(alg);
}

// A view of n bytes at p, where p may be NULL only when n == 0.
lwc::bytes_view view(const std::uint8_t* p, std::size_t n, const char* what) {
  if (p == nullptr && n != 0) throw std::invalid_argument(std::string(what) + " is NULL");
  return {p, n};
}
lwc::bytes_span span(std::uint8_t* p, std::size_t n, const char* what) {
  if (p == nullptr && n != 0) throw std::invalid_argument(std::string(what) + " is NULL");
  return {p, n};
}
lwc::bytes_view key_view(const lwc::algorithm& a, const std::uint8_t* k, std::size_t n,
                         const char* what) {
  if (k == nullptr) throw std::invalid_argument(std::string(a.name) + ": " + what + " is NULL");
  return {k, n};
}

int decrypt_failed(const lwc::algorithm& a) {
  return fail(std::string(a.name) + ": authentication failed");
}

// The default verifiers take the full tag only: a shorter one would let whoever supplies the
// tag choose how many bytes are checked (4 bytes are forged in 2^32 tries).
void require_full_tag(const lwc::algorithm& a, std::size_t taglen, const char* truncated_call) {
  if (taglen != a.tag_size)
    throw std::invalid_argument(std::string(a.name) + ": tag must be the full " +
                                std::to_string(a.tag_size) + " bytes, got " +
                                std::to_string(taglen) + " (a truncated tag is verified only by " +
                                truncated_call + ")");
}

// The truncated verifiers' range: the shortest tag the algorithm allows up to the full tag
// (a PRF's up to 64 bytes).
void require_truncated_tag(const lwc::algorithm& a, std::size_t taglen) {
  const std::size_t max = a.max_verified_tag_size();
  if (taglen < a.min_tag_size || taglen > max)
    throw std::invalid_argument(std::string(a.name) + ": tag must be " +
                                std::to_string(a.min_tag_size) + " to " +
                                std::to_string(max) + " bytes, got " + std::to_string(taglen));
}

// A named output range and the inputs it must not share memory with; `same` may start at the
// output's first byte (in place: the cores read each input byte before writing it).
struct range {
  const void* p;
  std::size_t n;
  const char* name;
};
void require_disjoint(const lwc::algorithm& a, range out, range same,
                      std::initializer_list<range> inputs) {
  const auto refuse = [&](const range& in) {
    throw std::invalid_argument(std::string(a.name) + ": the " + out.name + " overlaps the " +
                                in.name + " (only exactly in place is allowed)");
  };
  if (lwc::bad_in_place(out.p, out.n, same.p, same.n)) refuse(same);
  for (const range& in : inputs)
    if (lwc::ranges_overlap(out.p, out.n, in.p, in.n)) refuse(in);
}

// ---- the incremental hash state --------------------------------------------------------
// The caller's lwc_hash_state holds a word that says whether it holds a live hasher, then
// the hasher's storage. The word is changed atomically: a call claims the state (idle ->
// busy) for its duration, so a second thread using the same state, or a freed or failed one,
// is refused with a message instead of reading a half-updated or destroyed object.

constexpr std::uint64_t state_idle = 0x6c77632d68617368;  // "lwc-hash"
constexpr std::uint64_t state_busy = state_idle ^ 1;
constexpr std::uint64_t state_invalid = 0;

struct hash_slot {
  std::uint64_t word;
  alignas(lwc::hasher) unsigned char storage[sizeof(lwc::hasher)];
};
static_assert(sizeof(hash_slot) <= LWC_HASH_STATE_BYTES);
static_assert(alignof(hash_slot) <= alignof(std::uint64_t));
static_assert(std::is_trivially_destructible_v<hash_slot>);

hash_slot* slot_of(lwc_hash_state* st) {
  return std::launder(reinterpret_cast<hash_slot*>(st->opaque.bytes));
}
std::atomic_ref<std::uint64_t> word_of(hash_slot* s) { return std::atomic_ref<std::uint64_t>(s->word); }
lwc::hasher& hasher_of(hash_slot* s) {
  return *std::launder(reinterpret_cast<lwc::hasher*>(s->storage));
}

// Exclusive use of a live state for one call.
class hash_claim {
 public:
  explicit hash_claim(const lwc_hash_state* st, const char* call) {
    if (st == nullptr) throw std::invalid_argument(std::string(call) + ": hash state is NULL");
    slot_ = slot_of(const_cast<lwc_hash_state*>(st));
    std::uint64_t expected = state_idle;
    if (!word_of(slot_).compare_exchange_strong(expected, state_busy, std::memory_order_acquire))
      throw std::invalid_argument(
          std::string(call) +
          (expected == state_busy
               ? ": the hash state is in use by another call (a state is not shared between "
                 "threads)"
               : ": the hash state is not initialised (lwc_hash_init failed, was not called, "
                 "or lwc_hash_free already ran)"));
  }
  hash_claim(const hash_claim&) = delete;
  hash_claim& operator=(const hash_claim&) = delete;
  ~hash_claim() { word_of(slot_).store(state_idle, std::memory_order_release); }
  lwc::hasher& hasher() { return hasher_of(slot_); }

 private:
  hash_slot* slot_;
};

// Marks st invalid, then builds a hasher in it with make(storage); st becomes valid only
// when that succeeded.
template <class Make>
void build_state(lwc_hash_state* st, Make&& make) {
  // Whatever the memory held (a state that was never freed included) goes first.
  lwc::secure_wipe(st->opaque.bytes, sizeof st->opaque.bytes);
  hash_slot* s = ::new (st->opaque.bytes) hash_slot;
  word_of(s).store(state_invalid, std::memory_order_relaxed);
  make(static_cast<void*>(s->storage));
  word_of(s).store(state_idle, std::memory_order_release);
}

}  // namespace

extern "C" {

const char* lwc_version_string(void) { return LWC_VERSION_STRING; }
const char* lwc_error_message(void) { return lwc::capi::last_error(); }

size_t lwc_algorithm_count(void) { return lwc::algorithms().size(); }
const char* lwc_algorithm_name(size_t index) {
  // Names in the registry are string literals, hence NUL-terminated.
  return index < lwc::algorithms().size() ? lwc::algorithms()[index].name.data() : nullptr;
}
int lwc_algorithm_kind(const char* alg) {
  const auto* a = lookup(alg);
  return a ? static_cast<int>(a->kind) : -1;
}
int lwc_algorithm_is_legacy(const char* alg) {
  const auto* a = lookup(alg);
  return a ? (a->legacy ? 1 : 0) : -1;
}
size_t lwc_keybytes(const char* alg) { const auto* a = lookup(alg); return a ? a->key_size : 0; }
size_t lwc_secondkeybytes(const char* alg) { const auto* a = lookup(alg); return a ? a->second_key_size : 0; }
size_t lwc_npubbytes(const char* alg) { const auto* a = lookup(alg); return a ? a->nonce_size : 0; }
size_t lwc_abytes(const char* alg) { const auto* a = lookup(alg); return a ? a->tag_size : 0; }
size_t lwc_abytes_min(const char* alg) { const auto* a = lookup(alg); return a ? a->min_tag_size : 0; }
size_t lwc_outputbytes(const char* alg) { const auto* a = lookup(alg); return a ? a->output_size : 0; }
size_t lwc_outputbytes_max(const char* alg) { const auto* a = lookup(alg); return a ? a->max_output_size : 0; }

int lwc_aead_encrypt(const char* alg, uint8_t* c, size_t* clen, const uint8_t* m, size_t mlen,
                     const uint8_t* ad, size_t adlen, const uint8_t* npub, const uint8_t* k) {
  return guarded([&] {
    const auto& a = require(alg);
    if (c == nullptr) throw std::invalid_argument(std::string(a.name) + ": output is NULL");
    const std::size_t total = lwc::checked_add(mlen, a.tag_size, a.name);
    const lwc::bytes_view message = view(m, mlen, "message"), assoc = view(ad, adlen, "ad");
    const lwc::bytes_view key = key_view(a, k, a.key_size, "key");
    const lwc::bytes_view nonce = key_view(a, npub, a.nonce_size, "nonce");
    // In place means c == m: the ciphertext then overwrites the message, the tag follows it.
    require_disjoint(a, {c, total, "output"}, {m, mlen, "message"},
                     {{ad, adlen, "associated data"},
                      {npub, a.nonce_size, "nonce"}, {k, a.key_size, "key"}});
    lwc::aead_encrypt(a, key, nonce, assoc, message, {c, mlen}, {c + mlen, a.tag_size});
    if (clen) *clen = total;
    return 0;
  });
}

int lwc_aead_decrypt(const char* alg, uint8_t* m, size_t* mlen, const uint8_t* c, size_t clen,
                     const uint8_t* ad, size_t adlen, const uint8_t* npub, const uint8_t* k) {
  return guarded([&] {
    const auto& a = require(alg);
    if (mlen) *mlen = 0;
    if (clen < a.tag_size)
      return fail(std::string(a.name) + ": ciphertext of " + std::to_string(clen) +
                  " bytes is shorter than the " + std::to_string(a.tag_size) + "-byte tag");
    const std::size_t n = clen - a.tag_size;
    const lwc::bytes_view sealed = view(c, clen, "ciphertext"), assoc = view(ad, adlen, "ad");
    const lwc::bytes_span out = span(m, n, "output");
    const lwc::bytes_view key = key_view(a, k, a.key_size, "key");
    const lwc::bytes_view nonce = key_view(a, npub, a.nonce_size, "nonce");
    const lwc::bytes_view tag = sealed.subspan(n);
    require_disjoint(a, {m, n, "output"}, {c, n, "ciphertext"},
                     {{tag.data(), tag.size(), "tag"},
                      {ad, adlen, "associated data"},
                      {npub, a.nonce_size, "nonce"}, {k, a.key_size, "key"}});
    const bool ok = lwc::aead_decrypt(a, key, nonce, assoc, sealed.first(n), tag, out);
    if (!ok) return decrypt_failed(a);
    if (mlen) *mlen = n;
    return 0;
  });
}

int lwc_aead_encrypt_detached(const char* alg, uint8_t* c, uint8_t* tag, size_t taglen,
                              const uint8_t* m, size_t mlen, const uint8_t* ad, size_t adlen,
                              const uint8_t* npub, const uint8_t* k, const uint8_t* second_key) {
  return guarded([&] {
    const auto& a = require(alg);
    const std::size_t second_len = a.second_key_size ? a.second_key_size : 1;
    const lwc::bytes_view second =
        second_key ? lwc::bytes_view(second_key, second_len) : lwc::bytes_view{};
    const lwc::bytes_view key = key_view(a, k, a.key_size, "key");
    const lwc::bytes_view nonce = key_view(a, npub, a.nonce_size, "nonce");
    const lwc::bytes_view assoc = view(ad, adlen, "ad"), message = view(m, mlen, "message");
    const lwc::bytes_span out = span(c, mlen, "output"), tag_out = span(tag, taglen, "tag");
    const std::initializer_list<range> inputs = {{ad, adlen, "associated data"},
                                                 {npub, a.nonce_size, "nonce"},
                                                 {k, a.key_size, "key"},
                                                 {second_key, second_len, "second key"}};
    require_disjoint(a, {c, mlen, "output"}, {m, mlen, "message"}, inputs);
    require_disjoint(a, {tag, taglen, "tag"}, {nullptr, 0, ""}, inputs);
    require_disjoint(a, {tag, taglen, "tag"}, {nullptr, 0, ""},
                     {{m, mlen, "message"}, {c, mlen, "output"}});
    lwc::aead_encrypt(a, key, nonce, assoc, message, out, tag_out, second);
    return 0;
  });
}

namespace {
int decrypt_detached(const char* alg, uint8_t* m, const uint8_t* c, size_t clen,
                     const uint8_t* tag, size_t taglen, const uint8_t* ad, size_t adlen,
                     const uint8_t* npub, const uint8_t* k, const uint8_t* second_key,
                     bool truncated) {
  return guarded([&] {
    const auto& a = require(alg);
    const bool length_ok = truncated ? taglen >= a.min_tag_size && taglen <= a.tag_size
                                     : taglen == a.tag_size;
    if (!length_ok) {
      // Fails as a wrong tag does: nothing of the output is left.
      if (m != nullptr) lwc::secure_wipe(m, clen);
      if (truncated) require_truncated_tag(a, taglen);
      require_full_tag(a, taglen, "lwc_aead_decrypt_detached_truncated()");
    }
    const std::size_t second_len = a.second_key_size ? a.second_key_size : 1;
    const lwc::bytes_view second =
        second_key ? lwc::bytes_view(second_key, second_len) : lwc::bytes_view{};
    const lwc::bytes_view key = key_view(a, k, a.key_size, "key");
    const lwc::bytes_view nonce = key_view(a, npub, a.nonce_size, "nonce");
    const lwc::bytes_view assoc = view(ad, adlen, "ad"), sealed = view(c, clen, "ciphertext");
    const lwc::bytes_view tag_in = view(tag, taglen, "tag");
    const lwc::bytes_span out = span(m, clen, "output");
    require_disjoint(a, {m, clen, "output"}, {c, clen, "ciphertext"},
                     {{tag, taglen, "tag"},
                      {ad, adlen, "associated data"},
                      {npub, a.nonce_size, "nonce"},
                      {k, a.key_size, "key"},
                      {second_key, second_len, "second key"}});
    const bool ok =
        lwc::aead_decrypt_truncated(a, key, nonce, assoc, sealed, tag_in, out, second);
    return ok ? 0 : decrypt_failed(a);
  });
}

int mac_verify(const char* alg, const uint8_t* tag, size_t taglen, const uint8_t* in,
               size_t inlen, const uint8_t* k, bool truncated) {
  return guarded([&] {
    const auto& a = require(alg);
    if (!a.is_keyed()) throw std::invalid_argument(std::string(a.name) + ": not a MAC or PRF");
    if (truncated) require_truncated_tag(a, taglen);
    else require_full_tag(a, taglen, "lwc_mac_verify_truncated()");
    lwc::hasher h(a, key_view(a, k, a.key_size, "key"));
    h.update(view(in, inlen, "input"));
    return h.verify_truncated(view(tag, taglen, "tag"))
               ? 0
               : fail(std::string(a.name) + ": tag mismatch");
  });
}

int hash_verify(lwc_hash_state* st, const uint8_t* tag, size_t taglen, bool truncated) {
  return guarded([&] {
    hash_claim claim(st, truncated ? "lwc_hash_verify_truncated" : "lwc_hash_verify");
    auto& h = claim.hasher();
    const auto& a = h.info();
    if (!a.is_keyed()) throw std::invalid_argument(std::string(a.name) + ": not a MAC or PRF");
    if (truncated) require_truncated_tag(a, taglen);
    else require_full_tag(a, taglen, "lwc_hash_verify_truncated()");
    return h.verify_truncated(view(tag, taglen, "tag"))
               ? 0
               : fail(std::string(a.name) + ": tag mismatch");
  });
}
}  // namespace

int lwc_aead_decrypt_detached(const char* alg, uint8_t* m, const uint8_t* c, size_t clen,
                              const uint8_t* tag, size_t taglen, const uint8_t* ad, size_t adlen,
                              const uint8_t* npub, const uint8_t* k, const uint8_t* second_key) {
  return decrypt_detached(alg, m, c, clen, tag, taglen, ad, adlen, npub, k, second_key, false);
}

int lwc_aead_decrypt_detached_truncated(const char* alg, uint8_t* m, const uint8_t* c,
                                        size_t clen, const uint8_t* tag, size_t taglen,
                                        const uint8_t* ad, size_t adlen, const uint8_t* npub,
                                        const uint8_t* k, const uint8_t* second_key) {
  return decrypt_detached(alg, m, c, clen, tag, taglen, ad, adlen, npub, k, second_key, true);
}

int lwc_hash(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen) {
  return guarded([&] {
    const auto& a = require(alg);
    require_disjoint(a, {out, outlen, "output"}, {nullptr, 0, ""}, {{in, inlen, "input"}});
    lwc::digest(a, view(in, inlen, "input"), span(out, outlen, "output"));
    return 0;
  });
}

int lwc_cxof(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen,
             const uint8_t* custom, size_t customlen) {
  return guarded([&] {
    const auto& a = require(alg);
    require_disjoint(a, {out, outlen, "output"}, {nullptr, 0, ""},
                     {{in, inlen, "input"}, {custom, customlen, "customization string"}});
    lwc::digest(a, view(in, inlen, "input"), span(out, outlen, "output"), {},
                view(custom, customlen, "customization"));
    return 0;
  });
}

int lwc_mac(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen,
            const uint8_t* k) {
  return guarded([&] {
    const auto& a = require(alg);
    require_disjoint(a, {out, outlen, "output"}, {nullptr, 0, ""},
                     {{in, inlen, "input"}, {k, a.key_size, "key"}});
    lwc::digest(a, view(in, inlen, "input"), span(out, outlen, "output"),
                key_view(a, k, a.key_size, "key"));
    return 0;
  });
}

int lwc_mac_verify(const char* alg, const uint8_t* tag, size_t taglen, const uint8_t* in,
                   size_t inlen, const uint8_t* k) {
  return mac_verify(alg, tag, taglen, in, inlen, k, false);
}

int lwc_mac_verify_truncated(const char* alg, const uint8_t* tag, size_t taglen,
                             const uint8_t* in, size_t inlen, const uint8_t* k) {
  return mac_verify(alg, tag, taglen, in, inlen, k, true);
}

int lwc_hash_init(lwc_hash_state* st, const char* alg, const uint8_t* key, size_t keylen,
                  const uint8_t* custom, size_t customlen) {
  return guarded([&] {
    if (st == nullptr) throw std::invalid_argument("lwc_hash_init: hash state is NULL");
    build_state(st, [&](void* storage) {
      ::new (storage) lwc::hasher(require(alg), view(key, keylen, "key"),
                                  view(custom, customlen, "customization"));
    });
    return 0;
  });
}

int lwc_hash_update(lwc_hash_state* st, const uint8_t* in, size_t inlen) {
  return guarded([&] {
    hash_claim claim(st, "lwc_hash_update");
    claim.hasher().update(view(in, inlen, "input"));
    return 0;
  });
}

int lwc_hash_squeeze(lwc_hash_state* st, uint8_t* out, size_t outlen) {
  return guarded([&] {
    hash_claim claim(st, "lwc_hash_squeeze");
    if (lwc::ranges_overlap(out, outlen, st, sizeof *st))
      throw std::invalid_argument("lwc_hash_squeeze: the output overlaps the hash state");
    claim.hasher().squeeze(span(out, outlen, "output"));
    return 0;
  });
}

int lwc_hash_verify(lwc_hash_state* st, const uint8_t* tag, size_t taglen) {
  return hash_verify(st, tag, taglen, false);
}

int lwc_hash_verify_truncated(lwc_hash_state* st, const uint8_t* tag, size_t taglen) {
  return hash_verify(st, tag, taglen, true);
}

int lwc_hash_copy(lwc_hash_state* dst, const lwc_hash_state* src) {
  return guarded([&] {
    if (dst == nullptr) throw std::invalid_argument("lwc_hash_copy: destination is NULL");
    if (dst == src) throw std::invalid_argument("lwc_hash_copy: destination is the source");
    if (lwc::ranges_overlap(dst, sizeof *dst, src, sizeof *src))
      throw std::invalid_argument("lwc_hash_copy: destination overlaps the source");
    hash_claim claim(src, "lwc_hash_copy");
    const std::uint64_t w = word_of(slot_of(dst)).load(std::memory_order_acquire);
    if (w == state_idle || w == state_busy)
      throw std::invalid_argument(
          "lwc_hash_copy: the destination holds a live state (lwc_hash_free it first)");
    build_state(dst, [&](void* storage) { ::new (storage) lwc::hasher(claim.hasher()); });
    return 0;
  });
}

void lwc_hash_free(lwc_hash_state* st) {
  if (st == nullptr) return;
  hash_slot* s = slot_of(st);
  std::uint64_t expected = state_idle;
  if (!word_of(s).compare_exchange_strong(expected, state_invalid, std::memory_order_acquire)) {
    // Freed already, never initialised, or in use by another call: nothing of ours to
    // destroy (a state in use is left to its user).
    lwc::capi::set_error(expected == state_busy
                             ? "lwc_hash_free: the hash state is in use by another call"
                             : "lwc_hash_free: the hash state is not initialised or was freed");
    return;
  }
  hasher_of(s).~hasher();
  lwc::secure_wipe(st->opaque.bytes, sizeof st->opaque.bytes);
}

int lwc_memcmp(const void* a, const void* b, size_t len) {
  return lwc::ct_equal(static_cast<const std::uint8_t*>(a), static_cast<const std::uint8_t*>(b), len)
             ? 0
             : -1;
}

void lwc_memzero(void* p, size_t len) {
  if (p) lwc::secure_wipe(p, len);
}

}  // extern "C"
