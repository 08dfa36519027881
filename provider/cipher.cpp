// SPDX-License-Identifier: MIT OR Apache-2.0
// Every AEAD of the registry as an EVP cipher.
//
// The protocol (docs/openssl.md): key and nonce at init; associated data in any number of
// update calls with a NULL output; then the message; final.
//  - decryption takes the whole message in ONE update call. It needs the tag
//    (OSSL_CIPHER_PARAM_AEAD_TAG) before the message, verifies it in that update with the
//    registry's one-shot entry point and writes plaintext only when it verified; otherwise the
//    output is zeros and the update (and final) fail. No unverified plaintext ever leaves the
//    provider, and no ciphertext is buffered.
//  - encryption takes the message in any number of updates where the algorithm's class offers
//    incremental encryption (an `encryptor`, found by a concept over the list: no
//    per-algorithm code), else in one update. The "incremental-encrypt" cipher parameter says
//    which. Most messages come in one update followed by final, and the one-shot entry point
//    is faster than the encryptor (dispatched code, no block held back), so a first update of
//    at most `replay_limit` bytes is encrypted in one shot and its plaintext kept; when a
//    second update comes, the encryptor replays that plaintext (the same bytes under the same
//    nonce: the same message, not a second one) and continues. EVP gives no sign that an
//    update is the last, and each update must write its ciphertext, so this is the only way
//    to use the one-shot call without refusing a later update.
//  - the tag length is configuration: the full tag unless "taglen" (or the tag parameter with
//    no data, OpenSSL's EVP_CTRL_AEAD_SET_TAG form) names a shorter one; a tag of another
//    length is refused, never taken as the length.
//  - a nonce encrypts one message: after it, the context encrypts again only after an init
//    that sets a nonce, and not the same one under the same key. A duplicated encryption
//    context needs its own nonce.
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "common.hpp"

namespace lwc::provider {
namespace {

// Incremental encryption of one algorithm, type-erased: start constructs its encryptor in the
// caller's storage and absorbs the associated data; finish writes the tag and destroys it
// (the encryptor wipes its state); destroy abandons it. All null where the class has none.
struct incremental_encryption {
  void (*start)(void* st, const std::uint8_t* key, const std::uint8_t* nonce,
                const std::uint8_t* second_key, const std::uint8_t* ad, std::size_t ad_len);
  void (*encrypt)(void* st, const std::uint8_t* in, std::size_t n, std::uint8_t* out);
  void (*finish)(void* st, std::uint8_t* tag, std::size_t tag_len);
  void (*destroy)(void* st);
};

template <class A>
concept has_encryptor = is_aead_v<A> && requires { typename A::encryptor; };

template <class A>
struct encryptor_of {
  using E = typename A::encryptor;
  static void start(void* st, const std::uint8_t* key, const std::uint8_t* nonce,
                    const std::uint8_t* second_key, const std::uint8_t* ad, std::size_t ad_len) {
    E* e;
    // Some modes (Grain-128AEAD) encode the AD length first: the provider knows it by now.
    if constexpr (std::is_constructible_v<E, const std::uint8_t*, const std::uint8_t*,
                                          const std::uint8_t*, std::size_t>)
      e = ::new (st) E(key, nonce, second_key, ad_len);
    else
      e = ::new (st) E(key, nonce, second_key);
    if (ad_len != 0) e->absorb_ad(ad, ad_len);
  }
  static void encrypt(void* st, const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
    static_cast<E*>(st)->encrypt(in, n, out);
  }
  static void finish(void* st, std::uint8_t* tag, std::size_t tag_len) {
    static_cast<E*>(st)->finalize(tag, tag_len);
    destroy(st);
  }
  static void destroy(void* st) { static_cast<E*>(st)->~E(); }
};

template <class Entry>
constexpr incremental_encryption incremental_of() {
  using A = typename Entry::type;
  if constexpr (has_encryptor<A>)
    return {&encryptor_of<A>::start, &encryptor_of<A>::encrypt, &encryptor_of<A>::finish,
            &encryptor_of<A>::destroy};
  else
    return {};
}

template <class... E>
constexpr std::array<incremental_encryption, sizeof...(E)> incremental_table(type_list<E...>) {
  return {incremental_of<E>()...};
}
constexpr auto incremental_by_index = incremental_table(algorithm_list{});

// Storage for the largest encryptor of the list (sizes 0 and alignments 1 where there is none).
template <class Entry, bool Align>
constexpr std::size_t encryptor_extent() {
  using A = typename Entry::type;
  if constexpr (has_encryptor<A>)
    return Align ? alignof(typename A::encryptor) : sizeof(typename A::encryptor);
  else
    return Align ? 1 : 0;
}
template <bool Align, class... E>
constexpr std::size_t max_encryptor_extent(type_list<E...>) {
  return std::max({std::size_t{1}, encryptor_extent<E, Align>()...});
}
constexpr std::size_t encryptor_size = max_encryptor_extent<false>(algorithm_list{});
constexpr std::size_t encryptor_align = max_encryptor_extent<true>(algorithm_list{});

constexpr std::size_t max_key = registry_max(&algorithm::key_size);
constexpr std::size_t max_second_key = registry_max(&algorithm::second_key_size);
constexpr std::size_t max_nonce = registry_max(&algorithm::nonce_size);
constexpr std::size_t max_tag = registry_max(&algorithm::tag_size);

// The parameter that carries the nonce-masking key of SP 800-232 (a second 16-byte key).
constexpr const char* masking_key_param = "nonce-masking-key";
// The cipher parameter that says whether encryption takes the message in several updates.
constexpr const char* incremental_param = "incremental-encrypt";
// The largest first update encrypted in one shot (and copied, in case more follows). Beyond
// it the copy costs more than the encryptor's fixed overhead saves.
constexpr std::size_t replay_limit = 4096;

struct cipher_ctx {
  const provider_ctx* prov;
  const algorithm* alg;
  bool encrypting = true;
  bool key_set = false;
  bool nonce_set = false;
  bool nonce_unused = false;  // the nonce has not encrypted a message yet
  bool second_key_set = false;
  bool message_done = false;  // the message's update (or final, for an empty one) has run
  bool finished = false;      // final has run
  bool failed = false;        // verification failed: every later call fails until an init
  bool tag_set = false;       // decryption: the caller gave the expected tag
  bool last_valid = false;    // last_key/last_nonce hold the pair of the last encryption
  bool key_is_last = false;   // key equals last_key
  bool streaming = false;     // an encryptor lives in `stream`: a message is under way
  bool resumable = false;     // the message so far went in one shot; `replay` holds it
  bool copied_mid_message = false;  // a copy taken in the middle of a message: init first
  const incremental_encryption* incremental;  // null entries where the algorithm has none
  std::size_t tag_len;
  std::uint8_t key[max_key] = {};
  std::uint8_t second_key[max_second_key == 0 ? 1 : max_second_key] = {};
  std::uint8_t nonce[max_nonce] = {};
  std::uint8_t tag[max_tag] = {};
  std::uint8_t last_key[max_key] = {};
  std::uint8_t last_nonce[max_nonce] = {};
  wiping_buffer ad;
  wiping_buffer replay;  // the plaintext of a one-shot first update, while more may follow
  alignas(encryptor_align) std::uint8_t stream[encryptor_size];

  cipher_ctx(const provider_ctx* p, const algorithm* a)
      : prov(p), alg(a), incremental(&incremental_by_index[index_of(*a)]),
        tag_len(a->tag_size) {}
  // Everything but the message under way: a running encryptor cannot be copied, and no copy
  // may continue a message (it would encrypt a second message under the same nonce). For the
  // same reason the copy of an encryption context waits for a nonce of its own.
  cipher_ctx(const cipher_ctx& o)
      : prov(o.prov), alg(o.alg), encrypting(o.encrypting), key_set(o.key_set),
        nonce_set(o.nonce_set), nonce_unused(o.nonce_unused && !o.encrypting),
        second_key_set(o.second_key_set),
        message_done(o.message_done), finished(o.finished), failed(o.failed),
        tag_set(o.tag_set), last_valid(o.last_valid), key_is_last(o.key_is_last),
        streaming(false), resumable(false),
        copied_mid_message(o.streaming || o.resumable || o.copied_mid_message),
        incremental(o.incremental), tag_len(o.tag_len), ad(o.ad) {
    std::memcpy(key, o.key, sizeof key);
    std::memcpy(second_key, o.second_key, sizeof second_key);
    std::memcpy(nonce, o.nonce, sizeof nonce);
    std::memcpy(tag, o.tag, sizeof tag);
    std::memcpy(last_key, o.last_key, sizeof last_key);
    std::memcpy(last_nonce, o.last_nonce, sizeof last_nonce);
  }
  void stop_stream() {
    if (streaming) incremental->destroy(stream);  // the encryptor wipes its state
    streaming = false;
    resumable = false;
    replay.clear();
  }
  ~cipher_ctx() {
    stop_stream();
    secure_wipe(key, sizeof key);
    secure_wipe(second_key, sizeof second_key);
    secure_wipe(tag, sizeof tag);
    secure_wipe(last_key, sizeof last_key);
    secure_wipe(nonce, sizeof nonce);
    secure_wipe(last_nonce, sizeof last_nonce);
  }

  const char* name() const { return alg->name.data(); }
};

bool tag_length_allowed(const cipher_ctx& c, std::size_t n) {
  if (n >= c.alg->min_tag_size && n <= c.alg->tag_size) return true;
  if (c.alg->min_tag_size == c.alg->tag_size)
    raise_error(c.prov, invalid_argument, "%s: the tag is %zu bytes, got %zu", c.name(),
                c.alg->tag_size, n);
  else
    raise_error(c.prov, invalid_argument, "%s: the tag length must be %zu to %zu bytes, got %zu",
                c.name(), c.alg->min_tag_size, c.alg->tag_size, n);
  return false;
}

bool before_message(const cipher_ctx& c, const char* what) {
  if (!c.message_done && !c.finished) return true;
  raise_error(c.prov, refused, "%s: %s must be set before the message", c.name(), what);
  return false;
}

bool named(const OSSL_PARAM* p, const char* key) { return std::strcmp(p->key, key) == 0; }

// The tag parameter: the expected tag (decryption), or with no data the tag length
// (OpenSSL's EVP_CTRL_AEAD_SET_TAG form).
bool set_tag(cipher_ctx& c, const OSSL_PARAM& p) {
  if (p.data_type != OSSL_PARAM_OCTET_STRING) {
    raise_error(c.prov, invalid_argument, "%s: the tag is an octet string", c.name());
    return false;
  }
  if (p.data == nullptr) {
    if (!before_message(c, "the tag length") || !tag_length_allowed(c, p.data_size)) return false;
    c.tag_len = p.data_size;
    return true;
  }
  if (c.encrypting) {
    raise_error(c.prov, refused, "%s: a tag is set only to decrypt", c.name());
    return false;
  }
  if (!before_message(c, "the tag")) return false;
  if (p.data_size != c.tag_len) {
    raise_error(c.prov, invalid_argument,
                "%s: the tag must be %zu bytes (the configured length), got %zu; a shorter "
                "tag is verified only after setting taglen",
                c.name(), c.tag_len, p.data_size);
    return false;
  }
  std::memcpy(c.tag, p.data, p.data_size);
  c.tag_set = true;
  return true;
}

int set_ctx_params(void* vctx, const OSSL_PARAM params[]) {
  auto& c = *static_cast<cipher_ctx*>(vctx);
  if (params == nullptr || params[0].key == nullptr) return 1;
  // Decryption sets the tag alone before every message: straight to it.
  if (params[1].key == nullptr && named(&params[0], OSSL_CIPHER_PARAM_AEAD_TAG))
    return set_tag(c, params[0]) ? 1 : 0;
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
  if (p != nullptr) {
    std::size_t n = 0;
    if (!OSSL_PARAM_get_size_t(p, &n) || n != c.alg->key_size) {
      raise_error(c.prov, invalid_argument, "%s: the key is %zu bytes", c.name(), c.alg->key_size);
      return 0;
    }
  }
  p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN);
  if (p != nullptr) {
    std::size_t n = 0;
    if (!OSSL_PARAM_get_size_t(p, &n) || n != c.alg->nonce_size) {
      raise_error(c.prov, invalid_argument, "%s: the nonce (IV) is %zu bytes", c.name(),
                  c.alg->nonce_size);
      return 0;
    }
  }
  p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
  if (p != nullptr) {
    std::size_t n = 0;
    if (!OSSL_PARAM_get_size_t(p, &n)) {
      raise_error(c.prov, invalid_argument, "%s: taglen is a size", c.name());
      return 0;
    }
    if (!before_message(c, "the tag length") || !tag_length_allowed(c, n)) return 0;
    if (c.tag_set && n != c.tag_len) {
      raise_error(c.prov, refused, "%s: a tag of %zu bytes is already set", c.name(), c.tag_len);
      return 0;
    }
    c.tag_len = n;
  }
  p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
  if (p != nullptr && !set_tag(c, *p)) return 0;
  p = OSSL_PARAM_locate_const(params, masking_key_param);
  if (p != nullptr) {
    if (c.alg->second_key_size == 0) {
      raise_error(c.prov, invalid_argument, "%s: no nonce masking", c.name());
      return 0;
    }
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == nullptr ||
        p->data_size != c.alg->second_key_size) {
      raise_error(c.prov, invalid_argument, "%s: the nonce-masking key is %zu bytes", c.name(),
                  c.alg->second_key_size);
      return 0;
    }
    if (!before_message(c, "the nonce-masking key")) return 0;
    std::memcpy(c.second_key, p->data, p->data_size);
    c.second_key_set = true;
  }
  return 1;
}

int cipher_init(void* vctx, const unsigned char* key, std::size_t keylen, const unsigned char* iv,
                std::size_t ivlen, const OSSL_PARAM params[], bool encrypt) {
  auto& c = *static_cast<cipher_ctx*>(vctx);
  if (key != nullptr && keylen != c.alg->key_size) {
    raise_error(c.prov, invalid_argument, "%s: the key must be %zu bytes, got %zu", c.name(),
                c.alg->key_size, keylen);
    return 0;
  }
  if (iv != nullptr && ivlen != c.alg->nonce_size) {
    raise_error(c.prov, invalid_argument, "%s: the nonce (IV) must be %zu bytes, got %zu",
                c.name(), c.alg->nonce_size, ivlen);
    return 0;
  }
  // Whether the key after this init is the last encryption's: known without a compare for the
  // usual per-message init (a nonce, no key), compared in constant time when a key is given.
  // The nonce is public, so a plain compare does for it.
  const bool key_is_last =
      key != nullptr ? c.last_valid && ct_equal(key, c.last_key, c.alg->key_size) : c.key_is_last;
  if (encrypt && iv != nullptr && key_is_last &&
      std::memcmp(iv, c.last_nonce, c.alg->nonce_size) == 0) {
    raise_error(c.prov, refused,
                "%s: this nonce already encrypted a message under this key; use a new nonce",
                c.name());
    return 0;
  }
  if (key != nullptr) {
    std::memcpy(c.key, key, keylen);
    c.key_set = true;
    c.key_is_last = key_is_last;
  }
  if (iv != nullptr) {
    std::memcpy(c.nonce, iv, ivlen);
    c.nonce_set = true;
    c.nonce_unused = true;
  }
  c.stop_stream();
  c.encrypting = encrypt;
  c.message_done = c.finished = c.failed = c.tag_set = c.copied_mid_message = false;
  secure_wipe(c.tag, sizeof c.tag);
  c.ad.clear();
  return set_ctx_params(vctx, params);
}

int encrypt_init(void* vctx, const unsigned char* key, std::size_t keylen,
                 const unsigned char* iv, std::size_t ivlen, const OSSL_PARAM params[]) {
  return cipher_init(vctx, key, keylen, iv, ivlen, params, true);
}
int decrypt_init(void* vctx, const unsigned char* key, std::size_t keylen,
                 const unsigned char* iv, std::size_t ivlen, const OSSL_PARAM params[]) {
  return cipher_init(vctx, key, keylen, iv, ivlen, params, false);
}

// The nonce has encrypted (or begun to encrypt) a message: remembered, so that an init with
// the same pair is refused.
void spend_nonce(cipher_ctx& c) {
  c.nonce_unused = false;
  std::memcpy(c.last_key, c.key, c.alg->key_size);
  std::memcpy(c.last_nonce, c.nonce, c.alg->nonce_size);
  c.last_valid = true;
  c.key_is_last = true;
}

bool nonce_available(const cipher_ctx& c) {
  if (c.nonce_unused) return true;
  raise_error(c.prov, refused,
              "%s: this nonce already encrypted a message (or the context is a copy); "
              "init with a new nonce",
              c.name());
  return false;
}

// Encrypts or decrypts the whole message (n bytes, maybe none) in one call.
int process_message(cipher_ctx& c, unsigned char* out, const unsigned char* in, std::size_t n) {
  const std::uint8_t* second = c.second_key_set ? c.second_key : nullptr;
  if (c.encrypting) {
    if (!nonce_available(c)) return 0;
    c.alg->encrypt(c.key, second, c.nonce, c.ad.data(), c.ad.size(), in, n, out, c.tag, c.tag_len);
    spend_nonce(c);
  } else {
    if (!c.tag_set) {
      raise_error(c.prov, refused,
                  "%s: set the tag (OSSL_CIPHER_PARAM_AEAD_TAG) before the ciphertext: no "
                  "plaintext is released before the tag verifies",
                  c.name());
      return 0;
    }
    if (!c.alg->decrypt(c.key, second, c.nonce, c.ad.data(), c.ad.size(), in, n, c.tag,
                        c.tag_len, out)) {
      secure_wipe(out, n);  // the core zeroes it too; this keeps the promise local
      c.failed = true;
      raise_error(c.prov, verification_failed, "%s: tag verification failed; output zeroed",
                  c.name());
      return 0;
    }
  }
  c.message_done = true;
  return 1;
}

bool ready(const cipher_ctx& c) {
  if (c.failed) {
    raise_error(c.prov, refused, "%s: verification failed; init again", c.name());
    return false;
  }
  if (!c.key_set || !c.nonce_set) {
    raise_error(c.prov, refused, "%s: set a key and a nonce (IV) first", c.name());
    return false;
  }
  if (c.finished) {
    raise_error(c.prov, refused, "%s: final has run; init again", c.name());
    return false;
  }
  if (c.copied_mid_message) {
    raise_error(c.prov, refused,
                "%s: a copy taken in the middle of an encryption; init with a new nonce",
                c.name());
    return false;
  }
  return true;
}

void start_stream(cipher_ctx& c) {
  c.incremental->start(c.stream, c.key, c.nonce, c.second_key_set ? c.second_key : nullptr,
                       c.ad.data(), c.ad.size());
  c.streaming = true;
}

int update(void* vctx, unsigned char* out, std::size_t* outl, std::size_t outsize,
           const unsigned char* in, std::size_t inl) {
  auto& c = *static_cast<cipher_ctx*>(vctx);
  *outl = 0;
  if (!ready(c)) return 0;
  if (inl != 0 && in == nullptr) {
    raise_error(c.prov, invalid_argument, "%s: no input", c.name());
    return 0;
  }
  return guarded(c.prov, [&] {
    if (out == nullptr) {  // associated data
      if (c.message_done) {
        raise_error(c.prov, refused, "%s: associated data after the message", c.name());
        return 0;
      }
      if (!c.ad.append(in, inl)) {
        raise_error(c.prov, invalid_argument, "%s: associated data too long", c.name());
        return 0;
      }
      return 1;
    }
    if (outsize < inl) {
      raise_error(c.prov, invalid_argument, "%s: output buffer of %zu bytes for %zu", c.name(),
                  outsize, inl);
      return 0;
    }
    // In place is fine; any other overlap would overwrite input before it is read.
    if (out != in && out < in + inl && in < out + inl) {
      raise_error(c.prov, invalid_argument, "%s: input and output overlap", c.name());
      return 0;
    }
    const bool incremental = c.encrypting && c.incremental->start != nullptr;
    if (incremental && !c.message_done && inl <= replay_limit) {
      // Copied first: in place, the plaintext is gone once encrypted.
      if (!c.replay.append(in, inl)) return 0;  // inl <= replay_limit: cannot overflow
      if (!process_message(c, out, in, inl)) {
        c.replay.clear();
        return 0;
      }
      c.resumable = true;
      *outl = inl;
      return 1;
    }
    if (incremental && (c.streaming || c.resumable || !c.message_done)) {
      if (!c.streaming) {
        const bool replaying = c.resumable;
        if (!replaying && !nonce_available(c)) return 0;
        start_stream(c);
        if (replaying) {  // the same plaintext again: the encryptor's state after it
          c.incremental->encrypt(c.stream, c.replay.data(), c.replay.size(), c.replay.data());
          c.replay.clear();
          c.resumable = false;
        } else {
          c.message_done = true;
          spend_nonce(c);
        }
      }
      c.incremental->encrypt(c.stream, in, inl, out);
      *outl = inl;
      return 1;
    }
    if (c.message_done) {
      raise_error(c.prov, refused,
                  "%s: the whole message goes in one update call (a second one came)", c.name());
      return 0;
    }
    if (!process_message(c, out, in, inl)) return 0;
    *outl = inl;
    return 1;
  });
}

int final(void* vctx, unsigned char*, std::size_t* outl, std::size_t) {
  auto& c = *static_cast<cipher_ctx*>(vctx);
  *outl = 0;
  if (!ready(c)) return 0;
  if (c.streaming) {
    c.incremental->finish(c.stream, c.tag, c.tag_len);
    c.streaming = false;
  } else if (c.resumable) {  // the one-shot call wrote the tag; nothing more will come
    c.replay.clear();
    c.resumable = false;
  } else if (!c.message_done) {
    unsigned char none = 0;  // an empty message: AD (if any) and the tag only
    if (!process_message(c, &none, &none, 0)) return 0;
  }
  c.finished = true;
  return 1;
}

const OSSL_PARAM* gettable_params(void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
      OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, nullptr),
      OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, nullptr),
      OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, nullptr),
      OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, nullptr),
      OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, nullptr),
      OSSL_PARAM_int(incremental_param, nullptr),
      OSSL_PARAM_END,
  };
  return types;
}

int algorithm_params(const algorithm& a, OSSL_PARAM params[]) {
  // Mode 0 (a stream cipher) with the AEAD flag, as OpenSSL describes ChaCha20-Poly1305.
  const bool ok = answer(params, OSSL_CIPHER_PARAM_MODE, 0u) &&
                  answer(params, OSSL_CIPHER_PARAM_KEYLEN, a.key_size) &&
                  answer(params, OSSL_CIPHER_PARAM_IVLEN, a.nonce_size) &&
                  answer(params, OSSL_CIPHER_PARAM_BLOCK_SIZE, std::size_t{1}) &&
                  answer(params, OSSL_CIPHER_PARAM_AEAD, 1) &&
                  answer(params, OSSL_CIPHER_PARAM_CUSTOM_IV, 1) &&
                  answer(params, OSSL_CIPHER_PARAM_CTS, 0) &&
                  answer(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0) &&
                  answer(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0) &&
                  answer(params, incremental_param,
                         incremental_by_index[index_of(a)].start != nullptr ? 1 : 0);
  return ok ? 1 : 0;
}

const OSSL_PARAM* gettable_ctx_params(void*, void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, nullptr),
      OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
      OSSL_PARAM_END,
  };
  return types;
}

bool read_tag(const cipher_ctx& c, OSSL_PARAM* p) {
  if (!c.encrypting || !c.finished) {
    raise_error(c.prov, refused, "%s: the tag is read after an encryption's final", c.name());
    return false;
  }
  if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != c.tag_len) {
    raise_error(c.prov, invalid_argument,
                "%s: the tag is %zu bytes (the configured length), asked for %zu", c.name(),
                c.tag_len, p->data_size);
    return false;
  }
  return OSSL_PARAM_set_octet_string(p, c.tag, c.tag_len) != 0;
}

// EVP asks for one parameter at a time, twice per message (the IV length at every init, the
// tag after final): one pass over the request, the frequent keys compared first.
int get_ctx_params(void* vctx, OSSL_PARAM params[]) {
  const auto& c = *static_cast<const cipher_ctx*>(vctx);
  for (OSSL_PARAM* p = params; p != nullptr && p->key != nullptr; ++p) {
    bool ok = true;
    if (named(p, OSSL_CIPHER_PARAM_IVLEN))
      ok = OSSL_PARAM_set_size_t(p, c.alg->nonce_size) != 0;
    else if (named(p, OSSL_CIPHER_PARAM_AEAD_TAG))
      ok = read_tag(c, p);
    else if (named(p, OSSL_CIPHER_PARAM_AEAD_TAGLEN))
      ok = OSSL_PARAM_set_size_t(p, c.tag_len) != 0;
    else if (named(p, OSSL_CIPHER_PARAM_KEYLEN))
      ok = OSSL_PARAM_set_size_t(p, c.alg->key_size) != 0;
    if (!ok) return 0;
  }
  return 1;
}

const OSSL_PARAM* settable_ctx_params(void*, void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, nullptr),
      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, nullptr),
      OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
      OSSL_PARAM_octet_string(masking_key_param, nullptr, 0),
      OSSL_PARAM_END,
  };
  return types;
}


// The cipher, digest or MAC operation as dispatch_for builds its tables.
struct cipher_operation : context_functions<cipher_ctx> {
  static bool takes(const algorithm& a) { return a.is_aead(); }
  static int get_params(const algorithm& a, OSSL_PARAM params[]) {
    return algorithm_params(a, params);
  }
  template <std::size_t I>
  static const OSSL_DISPATCH* functions() {
    static const OSSL_DISPATCH table[] = {
        {OSSL_FUNC_CIPHER_NEWCTX, dispatch_fn(&newctx_for<cipher_operation, I>)},
        {OSSL_FUNC_CIPHER_FREECTX, dispatch_fn(&cipher_operation::freectx)},
        {OSSL_FUNC_CIPHER_DUPCTX, dispatch_fn(&cipher_operation::dupctx)},
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, dispatch_fn(&encrypt_init)},
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, dispatch_fn(&decrypt_init)},
        {OSSL_FUNC_CIPHER_UPDATE, dispatch_fn(&update)},
        {OSSL_FUNC_CIPHER_FINAL, dispatch_fn(&final)},
        {OSSL_FUNC_CIPHER_GET_PARAMS, dispatch_fn(&get_params_for<cipher_operation, I>)},
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, dispatch_fn(&gettable_params)},
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, dispatch_fn(&get_ctx_params)},
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, dispatch_fn(&gettable_ctx_params)},
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, dispatch_fn(&set_ctx_params)},
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, dispatch_fn(&settable_ctx_params)},
        {0, nullptr},
    };
    return table;
  }
};

}  // namespace

const OSSL_DISPATCH* cipher_functions(std::size_t index) {
  return dispatch_for<cipher_operation>(index);
}

}  // namespace lwc::provider
