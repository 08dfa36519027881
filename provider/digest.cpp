// SPDX-License-Identifier: MIT OR Apache-2.0
// Every hash, XOF and CXOF of the registry as an EVP digest. XOFs are flagged as such, so that
// EVP_DigestFinalXOF (and the "xoflen" parameter) takes any output length; a CXOF takes its
// customization string as the "custom" parameter, at init or before the first update.
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>

#include "common.hpp"

namespace lwc::provider {
namespace {

constexpr const char* custom_param = "custom";

struct digest_ctx {
  const provider_ctx* prov;
  const algorithm* alg;
  bool started = false;   // the state is constructed (it takes the customization string)
  bool finished = false;
  std::size_t absorbed = 0;
  std::size_t out_len;
  wiping_buffer custom;
  alignas(8) std::uint8_t state[max_hash_state_size];

  digest_ctx(const provider_ctx* p, const algorithm* a) : prov(p), alg(a), out_len(a->output_size) {}
  digest_ctx(const digest_ctx& o)
      : prov(o.prov), alg(o.alg), started(o.started), finished(o.finished),
        absorbed(o.absorbed), out_len(o.out_len), custom(o.custom) {
    if (started) alg->copy(state, o.state);
  }
  ~digest_ctx() { reset(); }

  void reset() {
    if (started) alg->destroy(state);  // wipes
    started = finished = false;
    absorbed = 0;
  }
  void start() {
    if (started) return;
    alg->init(state, nullptr, custom.data(), custom.size());
    started = true;
  }
  bool is_xof() const { return alg->max_output_size == 0; }
  const char* name() const { return alg->name.data(); }
};

int set_ctx_params(void* vctx, const OSSL_PARAM params[]) {
  auto& d = *static_cast<digest_ctx*>(vctx);
  if (params == nullptr) return 1;
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_DIGEST_PARAM_XOFLEN);
  if (p != nullptr) {
    std::size_t n = 0;
    if (!d.is_xof()) {
      raise_error(d.prov, invalid_argument, "%s: not an XOF; the digest is %zu bytes", d.name(),
                  d.alg->output_size);
      return 0;
    }
    if (!OSSL_PARAM_get_size_t(p, &n)) {
      raise_error(d.prov, invalid_argument, "%s: xoflen is a size", d.name());
      return 0;
    }
    d.out_len = n;
  }
  p = OSSL_PARAM_locate_const(params, custom_param);
  if (p != nullptr) {
    if (d.alg->max_customization_size == 0) {
      raise_error(d.prov, invalid_argument, "%s: takes no customization string", d.name());
      return 0;
    }
    if (d.started) {
      raise_error(d.prov, refused, "%s: the customization string comes before the data",
                  d.name());
      return 0;
    }
    const void* data = nullptr;
    std::size_t n = 0;
    if (p->data_type == OSSL_PARAM_OCTET_STRING || p->data_type == OSSL_PARAM_UTF8_STRING) {
      data = p->data;
      n = p->data_size;
    } else {
      raise_error(d.prov, invalid_argument, "%s: custom is an octet or UTF-8 string", d.name());
      return 0;
    }
    if (n > d.alg->max_customization_size) {
      raise_error(d.prov, invalid_argument,
                  "%s: the customization string is at most %zu bytes, got %zu", d.name(),
                  d.alg->max_customization_size, n);
      return 0;
    }
    return guarded(d.prov, [&] {
      d.custom.clear();
      return d.custom.append(static_cast<const std::uint8_t*>(data), n) ? 1 : 0;
    });
  }
  return 1;
}

int init(void* vctx, const OSSL_PARAM params[]) {
  auto& d = *static_cast<digest_ctx*>(vctx);
  d.reset();
  d.custom.clear();
  d.out_len = d.alg->output_size;
  return set_ctx_params(vctx, params);
}

int update(void* vctx, const unsigned char* in, std::size_t inl) {
  auto& d = *static_cast<digest_ctx*>(vctx);
  if (d.finished) {
    raise_error(d.prov, refused, "%s: update after final; init again", d.name());
    return 0;
  }
  if (inl == 0) return 1;
  if (in == nullptr) {
    raise_error(d.prov, invalid_argument, "%s: no input", d.name());
    return 0;
  }
  std::size_t total = 0;
  if (!add_fits(d.absorbed, inl, total) || total > d.alg->max_input_size) {
    raise_error(d.prov, invalid_argument, "%s: the input is at most %zu bytes", d.name(),
                d.alg->max_input_size);
    return 0;
  }
  d.start();
  d.alg->absorb(d.state, in, inl);
  d.absorbed = total;
  return 1;
}

int final(void* vctx, unsigned char* out, std::size_t* outl, std::size_t outsize) {
  auto& d = *static_cast<digest_ctx*>(vctx);
  *outl = 0;
  if (d.finished) {
    raise_error(d.prov, refused, "%s: final called twice; init again", d.name());
    return 0;
  }
  if (outsize < d.out_len || (out == nullptr && d.out_len != 0)) {
    raise_error(d.prov, invalid_argument, "%s: output buffer of %zu bytes for %zu", d.name(),
                outsize, d.out_len);
    return 0;
  }
  d.start();
  d.alg->squeeze(d.state, out, d.out_len);
  d.alg->destroy(d.state);  // nothing follows the output: the state goes now
  d.started = false;
  d.finished = true;
  *outl = d.out_len;
  return 1;
}

const OSSL_PARAM* gettable_params(void*) {
  static const OSSL_PARAM types[] = {
      OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_BLOCK_SIZE, nullptr),
      OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_SIZE, nullptr),
      OSSL_PARAM_int(OSSL_DIGEST_PARAM_XOF, nullptr),
      OSSL_PARAM_int(OSSL_DIGEST_PARAM_ALGID_ABSENT, nullptr),
      OSSL_PARAM_END,
  };
  return types;
}

int algorithm_params(const algorithm& a, OSSL_PARAM params[]) {
  const bool ok = answer(params, OSSL_DIGEST_PARAM_BLOCK_SIZE, a.block_size) &&
                  answer(params, OSSL_DIGEST_PARAM_SIZE, a.output_size) &&
                  answer(params, OSSL_DIGEST_PARAM_XOF, a.max_output_size == 0 ? 1 : 0) &&
                  answer(params, OSSL_DIGEST_PARAM_ALGID_ABSENT, 0);
  return ok ? 1 : 0;
}

const OSSL_PARAM* settable_ctx_params(void* vctx, void*) {
  static const OSSL_PARAM none[] = {OSSL_PARAM_END};
  static const OSSL_PARAM xof[] = {OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_XOFLEN, nullptr),
                                   OSSL_PARAM_END};
  static const OSSL_PARAM cxof[] = {OSSL_PARAM_size_t(OSSL_DIGEST_PARAM_XOFLEN, nullptr),
                                    OSSL_PARAM_octet_string(custom_param, nullptr, 0),
                                    OSSL_PARAM_END};
  if (vctx == nullptr) return cxof;  // asked of the method: every parameter any context takes
  const auto& d = *static_cast<const digest_ctx*>(vctx);
  if (!d.is_xof()) return none;
  return d.alg->max_customization_size != 0 ? cxof : xof;
}


// The cipher, digest or MAC operation as dispatch_for builds its tables.
struct digest_operation : context_functions<digest_ctx> {
  static bool takes(const algorithm& a) { return is_digest_kind(a.kind); }
  static int get_params(const algorithm& a, OSSL_PARAM params[]) {
    return algorithm_params(a, params);
  }
  template <std::size_t I>
  static const OSSL_DISPATCH* functions() {
    static const OSSL_DISPATCH table[] = {
        {OSSL_FUNC_DIGEST_NEWCTX, dispatch_fn(&newctx_for<digest_operation, I>)},
        {OSSL_FUNC_DIGEST_FREECTX, dispatch_fn(&digest_operation::freectx)},
        {OSSL_FUNC_DIGEST_DUPCTX, dispatch_fn(&digest_operation::dupctx)},
        {OSSL_FUNC_DIGEST_INIT, dispatch_fn(&init)},
        {OSSL_FUNC_DIGEST_UPDATE, dispatch_fn(&update)},
        {OSSL_FUNC_DIGEST_FINAL, dispatch_fn(&final)},
        {OSSL_FUNC_DIGEST_GET_PARAMS, dispatch_fn(&get_params_for<digest_operation, I>)},
        {OSSL_FUNC_DIGEST_GETTABLE_PARAMS, dispatch_fn(&gettable_params)},
        {OSSL_FUNC_DIGEST_SET_CTX_PARAMS, dispatch_fn(&set_ctx_params)},
        {OSSL_FUNC_DIGEST_SETTABLE_CTX_PARAMS, dispatch_fn(&settable_ctx_params)},
        {0, nullptr},
    };
    return table;
  }
};

}  // namespace

const OSSL_DISPATCH* digest_functions(std::size_t index) {
  return dispatch_for<digest_operation>(index);
}

}  // namespace lwc::provider
