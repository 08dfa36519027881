# The whole C++/C suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cmake -S . -B build/ci-asan -DCMAKE_BUILD_TYPE=Debug -DLWC_SANITIZE=ON -DLWC_BUILD_BENCH=OFF \
  -DLWC_ENABLE_CUDA=OFF -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 >/dev/null
cmake --build build/ci-asan -j"${LWC_JOBS:-$(nproc)}"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/ci-asan --output-on-failure -j"${LWC_JOBS:-$(nproc)}"
