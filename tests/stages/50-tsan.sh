# SPDX-License-Identifier: MIT OR Apache-2.0
# ThreadSanitizer: one shared key and one keyed-hash object used by several threads, and the
# batch engine called from several threads at once on every backend (tests/threads). Only
# that target is built: the rest of the suite is single-threaded or covered by stage 20. Line
# tables only (-g1), as in stage 20: reports keep their file and line, the build its speed.
set -euo pipefail
cmake -S . -B build/ci-tsan -DCMAKE_BUILD_TYPE=Debug -DLWC_SANITIZE_THREAD=ON -DLWC_BUILD_BENCH=OFF \
  -DLWC_BUILD_EXAMPLES=OFF -DLWC_BUILD_CAPI=OFF -DLWC_ENABLE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
cmake --build build/ci-tsan -j"${LWC_JOBS:-$(nproc)}" --target lwc_thread_tests
# halt_on_error: the first race fails the stage, with both stacks printed.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./build/ci-tsan/tests/threads/lwc_thread_tests
# The sanitizer must be able to fail: a deliberate race is reported (and exits non-zero).
if TSAN_OPTIONS="halt_on_error=1" ./build/ci-tsan/tests/threads/lwc_thread_tests \
    --gtest_also_run_disabled_tests --gtest_filter='*DeliberateRace*' >/dev/null 2>&1; then
  echo "ThreadSanitizer did not report the deliberate race"; exit 1
fi
echo "tsan: ok"
