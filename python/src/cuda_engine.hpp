// SPDX-License-Identifier: MIT OR Apache-2.0
// The CUDA engine as lwc._lwc sees it. The kernels live in their own extension, lwc._lwc_cuda,
// built only on request (a CPU install has neither nvcc nor the 30 MB of kernels); _lwc reaches
// it through a table of plain functions in the capsule lwc._lwc_cuda._engine, so that the
// packed job form built by batch.cpp goes to the GPU without a second copy of that code.
//
// Both modules come from one build of one source tree: the table carries the version and its
// own size, and _lwc refuses a table from another build. No exception crosses the boundary:
// each function returns a status and the message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <lwc/batch.hpp>

namespace lwc::python {

enum class cuda_status : int { ok = 0, invalid_argument = 1, cuda_error = 2 };

struct cuda_engine {
  std::size_t table_size;  // sizeof(cuda_engine) in the module that filled it
  const char* version;     // LWC_VERSION of that module
  cuda_status (*encrypt)(std::string_view algorithm, const lwc::batch::packed_aead_jobs& jobs,
                         std::size_t tag_len, std::string& error) noexcept;
  cuda_status (*decrypt)(std::string_view algorithm, const lwc::batch::packed_aead_jobs& jobs,
                         std::span<std::uint8_t> ok, std::size_t tag_len,
                         std::string& error) noexcept;
  cuda_status (*hash)(std::string_view algorithm, const lwc::batch::packed_hash_jobs& jobs,
                      std::string& error) noexcept;
};

inline constexpr const char* cuda_engine_capsule = "lwc._lwc_cuda.engine";

}  // namespace lwc::python
