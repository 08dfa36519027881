// SPDX-License-Identifier: MIT OR Apache-2.0
// The host emulation of the CUDA kernels for every algorithm of the list (src/cuda/emulate.hpp),
// compiled once for the emulation and pipeline tests.
#define LWC_CUDA_EMULATION_DEFINITIONS
#include "../../src/cuda/emulate.hpp"
