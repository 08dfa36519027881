# SPDX-License-Identifier: MIT OR Apache-2.0
# Release build of everything with all warnings as errors, then every C++/C test.
set -euo pipefail
# The CUDA kernels (when nvcc is found) for sm_90 here and as compute_80 PTX in the Python
# stage: each architecture of the default set (80 and 90) is compiled once per run, and no
# test here needs a GPU. No device code runs here either, so the device passes optimize at
# level 1 (the host code keeps -O3): CI checks that every kernel compiles, assembles and
# links, and that nvcc's host pass picks the kernels its device pass compiled; the kernels'
# speed and results are checked on a GPU by tools/gpu-check.sh, with the default flags. Kernel
# shard 2 took 94 s at -O3 and 18 s so (nvcc 13.0, one core).
source tools/cmake-generator.sh
cmake -S . -B build/ci-release $(lwc_generator build/ci-release) -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_BENCH=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 "-DCMAKE_CUDA_FLAGS=-Xcicc -O1 -Xptxas -O1" >/dev/null
cmake --build build/ci-release -j"${LWC_JOBS:-$(nproc)}"
ctest --test-dir build/ci-release --output-on-failure -j"${LWC_JOBS:-$(nproc)}"
