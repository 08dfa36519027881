# SPDX-License-Identifier: MIT OR Apache-2.0
# The whole C++/C suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# Line tables only (-g1): the sanitizers' reports still name function, file and line, and the
# batch backends (every lane kernel inlines a whole algorithm into one function) compile 2.2
# times faster than with full debug information, whose variable tracking is most of their
# cost (the portable backend: 385 s of CPU with -g, 175 s with -g1; src/batch/CMakeLists.txt
# takes it to 68 s).
set -euo pipefail
source tools/cmake-generator.sh
cmake -S . -B build/ci-asan $(lwc_generator build/ci-asan) -DCMAKE_BUILD_TYPE=Debug -DLWC_SANITIZE=ON -DLWC_BUILD_BENCH=OFF \
  -DLWC_ENABLE_CUDA=OFF -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 >/dev/null
cmake --build build/ci-asan -j"${LWC_JOBS:-$(nproc)}"
# The batch backends' cases run with one and three threads here (three splits a batch unevenly;
# a case's name ends in its parameter, "<backend>_2threads  # GetParam() = ...");
# the two-thread cases (61 of 350 s of test CPU time here) run in stage 10, and ThreadSanitizer
# (stage 50) checks the threads themselves.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build/ci-asan --output-on-failure -j"${LWC_JOBS:-$(nproc)}" -E '_2threads( |$)'
