// The C ABI: thin, exception-free wrappers over the registry's checked entry points. Every
// argument error becomes -1 with a message for lwc_error_message(); nothing throws across
// the C boundary.
#include "lwc.h"

#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <lwc/registry.hpp>

#include "error.hpp"

namespace {

thread_local std::string last_error = "no error";

int fail(std::string message) {
  last_error = std::move(message);
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

struct hash_slot {
  lwc::hasher h;
};
static_assert(sizeof(hash_slot) <= LWC_HASH_STATE_BYTES);
static_assert(alignof(hash_slot) <= alignof(std::uint64_t));

hash_slot* slot(lwc_hash_state* st) {
  if (st == nullptr) throw std::invalid_argument("hash state is NULL");
  return std::launder(reinterpret_cast<hash_slot*>(st->opaque.bytes));
}

}  // namespace

void lwc::capi::set_error(std::string message) { last_error = std::move(message); }

extern "C" {

const char* lwc_version_string(void) { return LWC_VERSION_STRING; }
const char* lwc_error_message(void) { return last_error.c_str(); }

size_t lwc_algorithm_count(void) { return lwc::algorithms().size(); }
const char* lwc_algorithm_name(size_t index) {
  // Names in the registry are string literals, hence NUL-terminated.
  return index < lwc::algorithms().size() ? lwc::algorithms()[index].name.data() : nullptr;
}
int lwc_algorithm_kind(const char* alg) {
  const auto* a = lookup(alg);
  return a ? static_cast<int>(a->kind) : -1;
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
    lwc::aead_encrypt(a, key_view(a, k, a.key_size, "key"), key_view(a, npub, a.nonce_size, "nonce"),
                      view(ad, adlen, "ad"), view(m, mlen, "message"), {c, mlen},
                      {c + mlen, a.tag_size});
    if (clen) *clen = mlen + a.tag_size;
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
    const bool ok = lwc::aead_decrypt(
        a, key_view(a, k, a.key_size, "key"), key_view(a, npub, a.nonce_size, "nonce"),
        view(ad, adlen, "ad"), view(c, n, "ciphertext"), {c + n, a.tag_size},
        span(m, n, "output"));
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
    const lwc::bytes_view second =
        second_key ? lwc::bytes_view(second_key, a.second_key_size ? a.second_key_size : 1)
                   : lwc::bytes_view{};
    lwc::aead_encrypt(a, key_view(a, k, a.key_size, "key"), key_view(a, npub, a.nonce_size, "nonce"),
                      view(ad, adlen, "ad"), view(m, mlen, "message"), span(c, mlen, "output"),
                      span(tag, taglen, "tag"), second);
    return 0;
  });
}

int lwc_aead_decrypt_detached(const char* alg, uint8_t* m, const uint8_t* c, size_t clen,
                              const uint8_t* tag, size_t taglen, const uint8_t* ad, size_t adlen,
                              const uint8_t* npub, const uint8_t* k, const uint8_t* second_key) {
  return guarded([&] {
    const auto& a = require(alg);
    const lwc::bytes_view second =
        second_key ? lwc::bytes_view(second_key, a.second_key_size ? a.second_key_size : 1)
                   : lwc::bytes_view{};
    const bool ok = lwc::aead_decrypt(
        a, key_view(a, k, a.key_size, "key"), key_view(a, npub, a.nonce_size, "nonce"),
        view(ad, adlen, "ad"), view(c, clen, "ciphertext"), view(tag, taglen, "tag"),
        span(m, clen, "output"), second);
    return ok ? 0 : decrypt_failed(a);
  });
}

int lwc_hash(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen) {
  return guarded([&] {
    lwc::digest(require(alg), view(in, inlen, "input"), span(out, outlen, "output"));
    return 0;
  });
}

int lwc_cxof(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen,
             const uint8_t* custom, size_t customlen) {
  return guarded([&] {
    lwc::digest(require(alg), view(in, inlen, "input"), span(out, outlen, "output"), {},
                view(custom, customlen, "customization"));
    return 0;
  });
}

int lwc_mac(const char* alg, uint8_t* out, size_t outlen, const uint8_t* in, size_t inlen,
            const uint8_t* k) {
  return guarded([&] {
    const auto& a = require(alg);
    lwc::digest(a, view(in, inlen, "input"), span(out, outlen, "output"),
                key_view(a, k, a.key_size, "key"));
    return 0;
  });
}

int lwc_mac_verify(const char* alg, const uint8_t* tag, size_t taglen, const uint8_t* in,
                   size_t inlen, const uint8_t* k) {
  return guarded([&] {
    const auto& a = require(alg);
    lwc::hasher h(a, key_view(a, k, a.key_size, "key"));
    h.update(view(in, inlen, "input"));
    return h.verify(view(tag, taglen, "tag")) ? 0 : fail(std::string(a.name) + ": tag mismatch");
  });
}

int lwc_hash_init(lwc_hash_state* st, const char* alg, const uint8_t* key, size_t keylen,
                  const uint8_t* custom, size_t customlen) {
  return guarded([&] {
    if (st == nullptr) throw std::invalid_argument("hash state is NULL");
    ::new (st->opaque.bytes) hash_slot{lwc::hasher(require(alg), view(key, keylen, "key"),
                                                   view(custom, customlen, "customization"))};
    return 0;
  });
}

int lwc_hash_update(lwc_hash_state* st, const uint8_t* in, size_t inlen) {
  return guarded([&] {
    slot(st)->h.update(view(in, inlen, "input"));
    return 0;
  });
}

int lwc_hash_squeeze(lwc_hash_state* st, uint8_t* out, size_t outlen) {
  return guarded([&] {
    slot(st)->h.squeeze(span(out, outlen, "output"));
    return 0;
  });
}

int lwc_hash_verify(lwc_hash_state* st, const uint8_t* tag, size_t taglen) {
  return guarded([&] {
    auto& h = slot(st)->h;
    return h.verify(view(tag, taglen, "tag")) ? 0
                                              : fail(std::string(h.info().name) + ": tag mismatch");
  });
}

int lwc_hash_copy(lwc_hash_state* dst, const lwc_hash_state* src) {
  return guarded([&] {
    if (dst == nullptr || src == nullptr) throw std::invalid_argument("hash state is NULL");
    const auto* from = std::launder(reinterpret_cast<const hash_slot*>(src->opaque.bytes));
    ::new (dst->opaque.bytes) hash_slot{from->h};
    return 0;
  });
}

void lwc_hash_free(lwc_hash_state* st) {
  if (st == nullptr) return;
  slot(st)->~hash_slot();
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
