// SPDX-License-Identifier: MIT OR Apache-2.0
// Shared pieces of lwc.so, the OpenSSL 3 provider: the provider context, error reporting into
// OpenSSL's error queue, a growable buffer that wipes what it held, and the per-algorithm
// dispatch tables that the three operation files (cipher, digest, MAC) generate from the
// registry. Contexts follow OpenSSL's rule: one context is used by one thread at a time; the
// tables and the provider context are read-only after loading.
#pragma once

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/params.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include <lwc/registry.hpp>

namespace lwc::provider {

// What lwc.so keeps per loading (one per OpenSSL library context): the core's error functions.
struct provider_ctx {
  const OSSL_CORE_HANDLE* handle = nullptr;
  OSSL_FUNC_core_new_error_fn* new_error = nullptr;
  OSSL_FUNC_core_set_error_debug_fn* set_error_debug = nullptr;
  OSSL_FUNC_core_vset_error_fn* vset_error = nullptr;
};

// The reason codes of lwc.so's errors (their texts are in provider.cpp's reason table).
enum reason : int {
  invalid_argument = 1,     // a size, length or parameter the algorithm does not take
  refused = 2,              // a call the protocol does not allow now (order, reuse, twice)
  verification_failed = 3,  // the tag did not verify; the output is zeros
  out_of_memory = 4,
};

// Puts an error on the calling thread's OpenSSL error queue; `p` may be null (no context yet),
// and then nothing is reported beyond the failing return value.
void raise_error(const provider_ctx* p, int reason, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

// Runs f, turning an allocation failure into an error on the queue and a 0 return: no C++
// exception may cross into OpenSSL.
template <class F>
int guarded(const provider_ctx* p, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    raise_error(p, out_of_memory, "out of memory");
  } catch (...) {
    raise_error(p, invalid_argument, "unexpected failure");
  }
  return 0;
}

// A growable byte buffer (associated data, customization strings) whose old and final
// storage is wiped; sizes are added through the checked helper.
class wiping_buffer {
 public:
  wiping_buffer() = default;
  wiping_buffer(const wiping_buffer& other) {
    if (!append(other.data_, other.size_)) throw std::bad_alloc();
  }
  wiping_buffer& operator=(const wiping_buffer&) = delete;
  ~wiping_buffer() { release(); }

  // False (nothing changed) when the new size would not fit in size_t; throws bad_alloc.
  [[nodiscard]] bool append(const std::uint8_t* p, std::size_t n);
  void clear() noexcept {
    secure_wipe(data_, size_);
    size_ = 0;
  }
  const std::uint8_t* data() const noexcept { return data_; }
  std::uint8_t* data() noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void release() noexcept;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// A context object made (or copied) without letting an exception into OpenSSL: null and an
// error on the queue when memory runs out.
template <class Ctx, class... Args>
void* new_context(const provider_ctx* p, Args&&... args) noexcept {
  try {
    return new Ctx(static_cast<Args&&>(args)...);
  } catch (...) {
    raise_error(p, out_of_memory, "out of memory");
    return nullptr;
  }
}

// newctx, freectx and dupctx of an operation whose context is Ctx, made from
// (const provider_ctx*, const algorithm*) and copied by its copy constructor, which decides
// what a copy keeps.
template <class Ctx>
struct context_functions {
  static void* newctx(const algorithm* a, void* provctx) {
    const auto* p = static_cast<const provider_ctx*>(provctx);
    return new_context<Ctx>(p, p, a);
  }
  static void freectx(void* vctx) { delete static_cast<Ctx*>(vctx); }
  static void* dupctx(void* vctx) {
    const auto* src = static_cast<const Ctx*>(vctx);
    return new_context<Ctx>(src->prov, *src);
  }
};

// Answers the parameter `key` when params asks for it; false only when it asks with a type
// that cannot hold the value.
inline bool answer(OSSL_PARAM params[], const char* key, std::size_t value) {
  OSSL_PARAM* p = OSSL_PARAM_locate(params, key);
  return p == nullptr || OSSL_PARAM_set_size_t(p, value) != 0;
}
inline bool answer(OSSL_PARAM params[], const char* key, int value) {
  OSSL_PARAM* p = OSSL_PARAM_locate(params, key);
  return p == nullptr || OSSL_PARAM_set_int(p, value) != 0;
}
inline bool answer(OSSL_PARAM params[], const char* key, unsigned value) {
  OSSL_PARAM* p = OSSL_PARAM_locate(params, key);
  return p == nullptr || OSSL_PARAM_set_uint(p, value) != 0;
}
inline bool answer(OSSL_PARAM params[], const char* key, const char* value) {
  OSSL_PARAM* p = OSSL_PARAM_locate(params, key);
  return p == nullptr || OSSL_PARAM_set_utf8_ptr(p, value) != 0;
}

// OpenSSL's newctx and get_params are not told which algorithm they serve, so one instance per
// registry index binds it; Operation provides newctx(const algorithm*, void* provctx) and
// get_params(const algorithm&, OSSL_PARAM[]).
template <class Operation, std::size_t I>
void* newctx_for(void* provctx) {
  return Operation::newctx(&registry_table[I], provctx);
}
template <class Operation, std::size_t I>
int get_params_for(OSSL_PARAM params[]) {
  return Operation::get_params(registry_table[I], params);
}

// Entry `index`'s dispatch table, or null when Operation does not take it: Operation provides
// takes(const algorithm&) and functions<I>(), entry I's table.
template <class Operation>
const OSSL_DISPATCH* dispatch_for(std::size_t index) {
  return [index]<std::size_t... I>(std::index_sequence<I...>) {
    static const OSSL_DISPATCH* const tables[] = {
        (Operation::takes(registry_table[I]) ? Operation::template functions<I>() : nullptr)...};
    return tables[index];
  }(std::make_index_sequence<algorithm_count>{});
}

// The dispatch table of registry entry `index` for its operation (null for entries of other
// kinds): cipher for AEADs, digest for hashes and XOFs, MAC for MACs and PRFs.
const OSSL_DISPATCH* cipher_functions(std::size_t index);
const OSSL_DISPATCH* digest_functions(std::size_t index);
const OSSL_DISPATCH* mac_functions(std::size_t index);

// The largest of one size field over the registry: storage for keys, nonces and tags.
template <class Field>
constexpr std::size_t registry_max(Field field) {
  std::size_t m = 0;
  for (const algorithm& a : registry_table) m = a.*field > m ? a.*field : m;
  return m;
}

inline bool is_digest_kind(algorithm_kind k) {
  return k == algorithm_kind::hash || k == algorithm_kind::xof || k == algorithm_kind::cxof;
}
inline bool is_mac_kind(algorithm_kind k) {
  return k == algorithm_kind::mac || k == algorithm_kind::prf;
}

// Casts an implementation to the generic pointer type of OSSL_DISPATCH.
template <class Fn>
inline void (*dispatch_fn(Fn* f))(void) {
  return reinterpret_cast<void (*)(void)>(f);
}

}  // namespace lwc::provider
