// SPDX-License-Identifier: MIT OR Apache-2.0
// Compiled for the baseline CPU: the only place that decides whether an instruction-set
// backend may be called.
#include "dispatch.hpp"

#include <cstdlib>

#include <lwc/common/cpu_features.hpp>

namespace lwc::batch::detail {

namespace {

struct registry {
  const backend_ops* list[4] = {};
  std::size_t count = 0;
  const backend_ops* chosen = nullptr;

  registry() {
    [[maybe_unused]] const lwc::cpu_features& cpu = lwc::host_cpu();
#if defined(LWC_BATCH_HAVE_AVX512)
    if (cpu.avx512) list[count++] = &simd::avx512::ops;
#endif
#if defined(LWC_BATCH_HAVE_AVX2)
    if (cpu.avx2) list[count++] = &simd::avx2::ops;
#endif
#if defined(LWC_BATCH_HAVE_NEON)
    // Advanced SIMD is part of the AArch64 baseline: no feature check.
    list[count++] = &simd::neon::ops;
#endif
    list[count++] = &simd::portable::ops;
    chosen = list[0];
    // Tests and users may force a lower backend; a name the CPU cannot run is ignored, since
    // forcing a higher one would fault.
    if (const char* env = std::getenv("LWC_BACKEND"))
      if (const backend_ops* b = find(env)) chosen = b;
  }

  const backend_ops* find(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < count; ++i)
      if (name == list[i]->name) return list[i];
    return nullptr;
  }
};

const registry& instance() noexcept {
  static const registry r;
  return r;
}

}  // namespace

std::span<const backend_ops* const> runnable_backends() noexcept {
  const registry& r = instance();
  return {r.list, r.count};
}

const backend_ops* find_runnable(std::string_view name) noexcept { return instance().find(name); }

const backend_ops& default_ops() noexcept { return *instance().chosen; }

bool cpu_has_gfni_vbmi() noexcept {
  const lwc::cpu_features& cpu = lwc::host_cpu();
  return cpu.gfni && cpu.avx512vbmi;
}

}  // namespace lwc::batch::detail
