// SPDX-License-Identifier: MIT OR Apache-2.0
// Every MAC and PRF of the registry as an EVP MAC. The key comes at EVP_MAC_init (or as the
// "key" parameter); a MAC's output is its tag, a PRF's output length is the "size" parameter
// (its default output length otherwise). Verification is the caller's: EVP_MAC has no verify
// call, so compare the whole tag with CRYPTO_memcmp.
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>

#include "common.hpp"

namespace lwc::provider {
namespace {

constexpr std::size_t max_key = registry_max(&algorithm::key_size);

struct mac_ctx {
  const provider_ctx* prov;
  const algorithm* alg;
  bool key_set = false;
  bool started = false;
  bool finished = false;
  std::size_t absorbed = 0;
  std::size_t out_len;
  std::uint8_t key[max_key] = {};
  alignas(8) std::uint8_t state[max_hash_state_size];

  mac_ctx(const provider_ctx* p, const algorithm* a) : prov(p), alg(a), out_len(a->output_size) {}
  mac_ctx(const mac_ctx& o)
      : prov(o.prov), alg(o.alg), key_set(o.key_set), started(o.started), finished(o.finished),
        absorbed(o.absorbed), out_len(o.out_len) {
    std::memcpy(key, o.key, sizeof key);
    if (started) alg->copy(state, o.state);
  }
  ~mac_ctx() {
    stop();
    secure_wipe(key, sizeof key);
  }
  void stop() {
    if (started) alg->destroy(state);  // wipes
    started = false;
  }
  // A fresh computation under the key held.
  void restart() {
    stop();
    alg->init(state, key, nullptr, 0);
    started = true;
    finished = false;
    absorbed = 0;
  }
  const char* name() const { return alg->name.data(); }
};

bool set_key(mac_ctx& m, const unsigned char* key, std::size_t keylen) {
  if (keylen != m.alg->key_size) {
    raise_error(m.prov, invalid_argument, "%s: the key must be %zu bytes, got %zu", m.name(),
                m.alg->key_size, keylen);
    return false;
  }
  std::memcpy(m.key, key, keylen);
  m.key_set = true;
  m.restart();
  return true;
}

int set_ctx_params(void* vctx, const OSSL_PARAM params[]) {
  auto& m = *static_cast<mac_ctx*>(vctx);
  if (params == nullptr) return 1;
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_SIZE);
  if (p != nullptr) {
    std::size_t n = 0;
    if (!OSSL_PARAM_get_size_t(p, &n)) {
      raise_error(m.prov, invalid_argument, "%s: size is a size", m.name());
      return 0;
    }
    const bool variable = m.alg->kind == algorithm_kind::prf;
    const std::size_t max = m.alg->max_output_size;
    if (variable ? (n == 0 || (max != 0 && n > max)) : n != m.alg->output_size) {
      if (variable)
        raise_error(m.prov, invalid_argument, "%s: the output is 1 to %zu bytes, got %zu",
                    m.name(), max != 0 ? max : SIZE_MAX, n);
      else
        raise_error(m.prov, invalid_argument, "%s: the tag is %zu bytes", m.name(),
                    m.alg->output_size);
      return 0;
    }
    if (m.started && m.absorbed != 0) {
      raise_error(m.prov, refused, "%s: the output size is set before the data", m.name());
      return 0;
    }
    m.out_len = n;
  }
  p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY);
  if (p != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == nullptr) {
      raise_error(m.prov, invalid_argument, "%s: the key is an octet string", m.name());
      return 0;
    }
    if (!set_key(m, static_cast<const unsigned char*>(p->data), p->data_size)) return 0;
  }
  return 1;
}

int init(void* vctx, const unsigned char* key, std::size_t keylen, const OSSL_PARAM params[]) {
  auto& m = *static_cast<mac_ctx*>(vctx);
  if (!set_ctx_params(vctx, params)) return 0;
  if (key != nullptr) return set_key(m, key, keylen) ? 1 : 0;
  if (!m.key_set) {
    raise_error(m.prov, refused, "%s: no key", m.name());
    return 0;
  }
  m.restart();
  return 1;
}

int update(void* vctx, const unsigned char* in, std::size_t inl) {
  auto& m = *static_cast<mac_ctx*>(vctx);
  if (!m.started || m.finished) {
    raise_error(m.prov, refused, "%s: %s", m.name(),
                m.finished ? "update after final; init again" : "init with a key first");
    return 0;
  }
  if (inl == 0) return 1;
  std::size_t total = 0;
  if (in == nullptr || !add_fits(m.absorbed, inl, total) || total > m.alg->max_input_size) {
    raise_error(m.prov, invalid_argument, "%s: the input is at most %zu bytes", m.name(),
                m.alg->max_input_size);
    return 0;
  }
  m.alg->absorb(m.state, in, inl);
  m.absorbed = total;
  return 1;
}

int final(void* vctx, unsigned char* out, std::size_t* outl, std::size_t outsize) {
  auto& m = *static_cast<mac_ctx*>(vctx);
  *outl = 0;
  if (!m.started || m.finished) {
    raise_error(m.prov, refused, "%s: %s", m.name(),
                m.finished ? "final called twice; init again" : "init with a key first");
    return 0;
  }
  if (out == nullptr || outsize < m.out_len) {
    raise_error(m.prov, invalid_argument, "%s: output buffer of %zu bytes for %zu", m.name(),
                outsize, m.out_len);
    return 0;
  }
  m.alg->squeeze(m.state, out, m.out_len);
  m.stop();
  m.finished = true;
  *outl = m.out_len;
  return 1;
}

const OSSL_PARAM* gettable_ctx_params(void*, void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
      OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, nullptr),
      OSSL_PARAM_END,
  };
  return types;
}

int get_ctx_params(void* vctx, OSSL_PARAM params[]) {
  const auto& m = *static_cast<const mac_ctx*>(vctx);
  const bool ok = answer(params, OSSL_MAC_PARAM_SIZE, m.out_len) &&
                  answer(params, OSSL_MAC_PARAM_BLOCK_SIZE, m.alg->block_size);
  return ok ? 1 : 0;
}

const OSSL_PARAM* settable_ctx_params(void*, void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, nullptr, 0),
      OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, nullptr),
      OSSL_PARAM_END,
  };
  return types;
}


// The cipher, digest or MAC operation as dispatch_for builds its tables.
struct mac_operation : context_functions<mac_ctx> {
  static bool takes(const algorithm& a) { return is_mac_kind(a.kind); }
  template <std::size_t I>
  static const OSSL_DISPATCH* functions() {
    static const OSSL_DISPATCH table[] = {
        {OSSL_FUNC_MAC_NEWCTX, dispatch_fn(&newctx_for<mac_operation, I>)},
        {OSSL_FUNC_MAC_FREECTX, dispatch_fn(&mac_operation::freectx)},
        {OSSL_FUNC_MAC_DUPCTX, dispatch_fn(&mac_operation::dupctx)},
        {OSSL_FUNC_MAC_INIT, dispatch_fn(&init)},
        {OSSL_FUNC_MAC_UPDATE, dispatch_fn(&update)},
        {OSSL_FUNC_MAC_FINAL, dispatch_fn(&final)},
        {OSSL_FUNC_MAC_GET_CTX_PARAMS, dispatch_fn(&get_ctx_params)},
        {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, dispatch_fn(&gettable_ctx_params)},
        {OSSL_FUNC_MAC_SET_CTX_PARAMS, dispatch_fn(&set_ctx_params)},
        {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, dispatch_fn(&settable_ctx_params)},
        {0, nullptr},
    };
    return table;
  }
};

}  // namespace

const OSSL_DISPATCH* mac_functions(std::size_t index) {
  return dispatch_for<mac_operation>(index);
}

}  // namespace lwc::provider
