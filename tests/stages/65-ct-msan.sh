# SPDX-License-Identifier: MIT OR Apache-2.0
# Constant time under MemorySanitizer: the two constant-time programs of tests/constant_time
# built with clang -fsanitize=memory (LWC_CT_MSAN=ON, the library at -O3 as released) and run
# natively, so that the AVX-512 code valgrind cannot run (the batch engine's avx512 backend,
# the single-message AVX-512 cores) is checked too; the batch check must reach avx512 where
# the CPU has it. Stage 10 runs the same programs under valgrind on the GCC build. About 2 to 3
# minutes on two cores, nearly all of it the build.
#
# LWC_CT_MSAN=0 skips it (a local run without the time; CI runs it).
set -euo pipefail
source tools/cmake-generator.sh
if [ "${LWC_CT_MSAN:-1}" = 0 ]; then
  echo "constant time under MemorySanitizer: skipped (LWC_CT_MSAN=0)"
  exit 0
fi
if ! command -v clang++ >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
fi
build=build/ci-ct-msan
CC=clang CXX=clang++ cmake -S . -B "$build" $(lwc_generator "$build") -DCMAKE_BUILD_TYPE=Release -DLWC_CT_MSAN=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O3 -DNDEBUG -g1" -DCMAKE_C_FLAGS_RELEASE="-O3 -DNDEBUG -g1" \
  -DLWC_BUILD_BENCH=OFF -DLWC_BUILD_EXAMPLES=OFF -DLWC_BUILD_CAPI=OFF -DLWC_ENABLE_CUDA=OFF \
  >/dev/null
cmake --build "$build" -j"${LWC_JOBS:-$(nproc)}" \
  --target lwc_msan_intrinsics_test lwc_ct_check lwc_batch_ct_check
ctest --test-dir "$build" -R '^constant_time_msan' --output-on-failure
# What was covered, for the log.
"$build/tests/constant_time/lwc_ct_check" | tail -1
"$build/tests/constant_time/lwc_batch_ct_check" | tail -4
