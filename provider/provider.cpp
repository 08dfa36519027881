// SPDX-License-Identifier: MIT OR Apache-2.0
// lwc.so, an OpenSSL 3 provider: every algorithm of the registry through EVP, named as in the
// registry (OpenSSL compares names without case, so "ASCON-AEAD128" fetches ascon-aead128).
// AEADs are EVP ciphers, hashes and XOFs EVP digests, MACs and PRFs EVP MACs. The provider
// claims no FIPS approval. docs/openssl.md describes loading, use and the decryption design.
#include <openssl/core_names.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include <cstdarg>
#include <cstdlib>
#include <string>
#include <vector>

#include "common.hpp"

#ifndef LWC_PROVIDER_VERSION
#error "the build defines LWC_PROVIDER_VERSION (the project version)"
#endif

namespace lwc::provider {

void raise_error(const provider_ctx* p, int reason, const char* format, ...) {
  if (p == nullptr || p->new_error == nullptr || p->vset_error == nullptr) return;
  p->new_error(p->handle);
  if (p->set_error_debug != nullptr) p->set_error_debug(p->handle, "lwc.so", 0, "lwc");
  va_list args;
  va_start(args, format);
  p->vset_error(p->handle, reason, format, args);
  va_end(args);
}

bool wiping_buffer::append(const std::uint8_t* p, std::size_t n) {
  std::size_t needed = 0;
  if (!add_fits(size_, n, needed)) return false;
  if (needed > capacity_) {
    std::size_t grown = 0;
    if (!mul_fits(capacity_, 2, grown) || grown < needed) grown = needed;
    if (grown < 64) grown = 64;
    auto* fresh = static_cast<std::uint8_t*>(std::malloc(grown));
    if (fresh == nullptr) throw std::bad_alloc();
    if (size_ != 0) std::memcpy(fresh, data_, size_);
    release();  // the old copy is wiped before it is freed
    data_ = fresh;
    capacity_ = grown;
    size_ = needed - n;
  }
  if (n != 0) std::memcpy(data_ + size_, p, n);
  size_ = needed;
  return true;
}

void wiping_buffer::release() noexcept {
  secure_wipe(data_, size_);
  std::free(data_);
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

namespace {

const OSSL_ITEM reason_strings[] = {
    {invalid_argument, const_cast<char*>("invalid argument")},
    {refused, const_cast<char*>("call refused")},
    {verification_failed, const_cast<char*>("tag verification failed")},
    {out_of_memory, const_cast<char*>("out of memory")},
    {0, nullptr},
};

// The algorithm tables OpenSSL queries, one per operation, built once from the registry.
struct algorithm_tables {
  std::vector<std::string> names;  // the registry names, null-terminated
  std::string all_names;           // for the "algorithms" provider parameter
  std::vector<OSSL_ALGORITHM> ciphers, digests, macs;

  algorithm_tables() {
    names.reserve(algorithm_count);
    for (const algorithm& a : algorithms()) names.emplace_back(a.name);
    for (std::size_t i = 0; i < algorithm_count; ++i) {
      const algorithm& a = registry_table[i];
      const OSSL_ALGORITHM entry{names[i].c_str(), "provider=lwc", nullptr,
                                 a.legacy ? "legacy definition, superseded by a standard"
                                          : nullptr};
      if (a.is_aead()) {
        ciphers.push_back(entry);
        ciphers.back().implementation = cipher_functions(i);
      } else if (is_digest_kind(a.kind)) {
        digests.push_back(entry);
        digests.back().implementation = digest_functions(i);
      } else if (is_mac_kind(a.kind)) {
        macs.push_back(entry);
        macs.back().implementation = mac_functions(i);
      }
      if (!all_names.empty()) all_names += ' ';
      all_names += names[i];
    }
    for (auto* table : {&ciphers, &digests, &macs}) table->push_back({nullptr, nullptr, nullptr, nullptr});
  }
};

const algorithm_tables& tables() {
  static const algorithm_tables t;  // thread-safe initialisation
  return t;
}

constexpr const char* provider_name = "lwc: lightweight cryptography (Ascon, NIST LWC finalists)";
constexpr const char* provider_buildinfo =
    "lwc " LWC_PROVIDER_VERSION ", built against " OPENSSL_VERSION_TEXT "; not FIPS validated";

const OSSL_PARAM provider_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, nullptr, 0),
    OSSL_PARAM_DEFN("algorithms", OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM* gettable_params(void*) { return provider_param_types; }

int get_params(void*, OSSL_PARAM params[]) {
  const bool ok = answer(params, OSSL_PROV_PARAM_NAME, provider_name) &&
                  answer(params, OSSL_PROV_PARAM_VERSION, LWC_PROVIDER_VERSION) &&
                  answer(params, OSSL_PROV_PARAM_BUILDINFO, provider_buildinfo) &&
                  answer(params, OSSL_PROV_PARAM_STATUS, 1) &&
                  answer(params, "algorithms", tables().all_names.c_str());
  return ok ? 1 : 0;
}

const OSSL_ALGORITHM* query_operation(void*, int operation_id, int* no_cache) {
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_CIPHER: return tables().ciphers.data();
    case OSSL_OP_DIGEST: return tables().digests.data();
    case OSSL_OP_MAC: return tables().macs.data();
    default: return nullptr;
  }
}

const OSSL_ITEM* get_reason_strings(void*) { return reason_strings; }

void teardown(void* provctx) { delete static_cast<provider_ctx*>(provctx); }

const OSSL_DISPATCH provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, dispatch_fn(&teardown)},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, dispatch_fn(&gettable_params)},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, dispatch_fn(&get_params)},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, dispatch_fn(&query_operation)},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, dispatch_fn(&get_reason_strings)},
    {0, nullptr},
};

}  // namespace
}  // namespace lwc::provider

extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(
    const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in, const OSSL_DISPATCH** out,
    void** provctx) {
  using namespace lwc::provider;
  return guarded(nullptr, [&] {
    auto* ctx = new provider_ctx;
    ctx->handle = handle;
    for (; in != nullptr && in->function_id != 0; ++in) {
      switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
          ctx->new_error = OSSL_FUNC_core_new_error(in);
          break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
          ctx->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
          break;
        case OSSL_FUNC_CORE_VSET_ERROR:
          ctx->vset_error = OSSL_FUNC_core_vset_error(in);
          break;
        default:
          break;
      }
    }
    (void)tables();  // built now, so that a failure shows at loading
    *out = provider_functions;
    *provctx = ctx;
    return 1;
  });
}
