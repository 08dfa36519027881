# Release build of everything with all warnings as errors, then every C++/C test.
set -euo pipefail
cmake -S . -B build/ci-release -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_BENCH=ON >/dev/null
cmake --build build/ci-release -j"${LWC_JOBS:-$(nproc)}"
ctest --test-dir build/ci-release --output-on-failure -j"${LWC_JOBS:-$(nproc)}"
