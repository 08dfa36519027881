# Release build of everything with all warnings as errors, then every C++/C test.
set -euo pipefail
# The CUDA kernels (when nvcc is found) for sm_90 here and as compute_80 PTX in the Python
# stage: each architecture of the default set (80 and 90) is compiled once per run, and no
# test here needs a GPU.
cmake -S . -B build/ci-release -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_BENCH=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build build/ci-release -j"${LWC_JOBS:-$(nproc)}"
ctest --test-dir build/ci-release --output-on-failure -j"${LWC_JOBS:-$(nproc)}"
