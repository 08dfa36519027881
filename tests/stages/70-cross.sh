# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross-architecture run: the C++ suites that carry the algorithms (KATs, properties,
# registry, Wycheproof, Acorn/Grain, the batch engine, the C ABI from C) built at -O2 with
# Debian's cross compilers and run under qemu-user on s390x (big-endian) and aarch64; about 2-3
# minutes per architecture on two cores. The batch suite runs every backend the target has: the
# portable one on s390x, NEON and portable on aarch64, where the default-backend tests run
# with NEON forced (LWC_BACKEND=neon) and once more with the portable backend, and the NEON
# object's symbols are checked as the native build checks the x86 ones. Part of every
# ./test.sh and of CI; LWC_CROSS=0 skips it on a machine without the time (never in CI), and
# LWC_CROSS_ARCHS picks the architectures ("s390x aarch64" by default). Missing compilers or
# qemu are installed.
set -euo pipefail
source tools/cmake-generator.sh
if [ "${LWC_CROSS:-1}" = 0 ]; then
  echo "cross-architecture stage skipped (LWC_CROSS=0)"
  exit 0
fi
archs=${LWC_CROSS_ARCHS:-"s390x aarch64"}
missing=()
command -v qemu-s390x >/dev/null || missing+=(qemu-user)
for arch in $archs; do
  command -v "$arch-linux-gnu-g++" >/dev/null || missing+=("g++-$arch-linux-gnu")
done
[ -d /usr/src/googletest ] || missing+=(libgtest-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
root=$(pwd)
stream_pids=()
stream_logs=()
# run_arch_stream ARCH SYSROOT BUILD NAME "[VAR=VALUE]... PROGRAM ARGS"...: the programs one
# after the other under qemu-ARCH (the VAR=VALUE words set in the program's environment), in
# the background, stopping at the first failure; output to a log.
run_arch_stream() {
  local arch=$1 sysroot=$2 build=$3 name=$4
  shift 4
  local log="$build/qemu-$name.log"
  (
    set -f  # the words are split, never globbed (gtest filters have stars)
    for cmd in "$@"; do
      set -- $cmd
      local env=() shown=""
      while [[ $1 == *=* ]]; do
        env+=(-E "$1")
        shown+="$1 "
        shift
      done
      echo "--- $arch: $shown$(basename "$1")"
      "qemu-$arch" -L "$sysroot" "${env[@]}" "$@" ||
        { echo "--- $arch: $shown$(basename "$1") FAILED"; exit 1; }
    done
    echo "--- $arch: stream $name passed"
  ) >"$log" 2>&1 &
  stream_pids+=($!)
  stream_logs+=("$log")
}
for arch in $archs; do
  start=$(date +%s)
  build=build/cross-$arch
  sysroot=/usr/$arch-linux-gnu
  cross=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$arch"
         -DCMAKE_C_COMPILER="$arch-linux-gnu-gcc" -DCMAKE_CXX_COMPILER="$arch-linux-gnu-g++"
         "-DCMAKE_CROSSCOMPILING_EMULATOR=qemu-$arch;-L;$sysroot" -DCMAKE_BUILD_TYPE=Release
         # -O2, the other optimization level users build with (the native stages use -O3), and
         # about 40 % less compile time than -O3 for the largest units.
         "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG")
  # GCC 12's cross compilers inline the sponge buffers' tail loops differently and report
  # impossible offsets there (-Wstringop-overflow, a known false-positive family); the warning
  # stays on, as an error, in the native builds.
  lwc_flags=(-DCMAKE_CXX_FLAGS=-Wno-error=stringop-overflow)
  # GoogleTest for the target, from the sources Debian ships with libgtest-dev.
  if [ ! -f "$build/gtest/lib/cmake/GTest/GTestConfig.cmake" ]; then
    cmake -S /usr/src/googletest -B "$build/gtest-build" "${cross[@]}" -DBUILD_GMOCK=OFF \
      -DCMAKE_INSTALL_PREFIX="$root/$build/gtest" >/dev/null
    cmake --build "$build/gtest-build" -j"${LWC_JOBS:-$(nproc)}" >/dev/null
    cmake --install "$build/gtest-build" >/dev/null
  fi
  cmake -S . -B "$build/lwc" $(lwc_generator "$build/lwc") "${cross[@]}" "${lwc_flags[@]}" -DGTest_DIR="$root/$build/gtest/lib/cmake/GTest" \
    -DLWC_BUILD_BENCH=OFF -DLWC_BUILD_EXAMPLES=OFF -DLWC_ENABLE_CUDA=OFF >/dev/null
  targets=(lwc_core_tests lwc_wycheproof_tests lwc_acorn_grain_tests lwc_batch_tests lwc_capi_test)
  batch_runs=("$build/lwc/tests/batch/lwc_batch_tests --gtest_brief=1")
  if [ "$arch" = aarch64 ]; then
    # The backend cases run for NEON with one thread only: how threads share a batch is the
    # same code on every backend (the s390x run and every native run check it with 1-3
    # threads), and so is the portable backend (checked on s390x, big-endian, and natively).
    targets+=(lwc_batch_env_test)
    one_thread_neon="--gtest_filter=-Backends/*/neon_2threads:Backends/*/neon_3threads:Backends/*/portable_*"
    batch_runs=("LWC_BACKEND=neon $build/lwc/tests/batch/lwc_batch_tests --gtest_brief=1 $one_thread_neon"
                "LWC_BACKEND=neon $build/lwc/tests/batch/lwc_batch_env_test --gtest_brief=1"
                "LWC_BACKEND=portable $build/lwc/tests/batch/lwc_batch_env_test --gtest_brief=1")
  fi
  cmake --build "$build/lwc" -j"${LWC_JOBS:-$(nproc)}" --target "${targets[@]}"
  echo "$arch: built in $(( $(date +%s) - start )) s"
  if [ "$arch" = aarch64 ]; then
    # The NEON backend must exist here, and none of its code may leave its namespace.
    symbols=$(ctest --test-dir "$build/lwc" -R '^batch_backend_symbols$' -V 2>&1) ||
      { echo "$symbols"; exit 1; }
    grep -q 'neon: [0-9]* external symbols, all in lwc::simd::neon' <<<"$symbols" ||
      { echo "$symbols"; echo "aarch64: the build has no NEON backend"; exit 1; }
  fi
  # The runs under qemu (single-threaded) go to the background, in two streams (the batch
  # suite, the longest, beside the others), while the next architecture builds; each stream's
  # output is printed, and its status checked, at the end.
  run_arch_stream "$arch" "$sysroot" "$build" batch "${batch_runs[@]}"
  run_arch_stream "$arch" "$sysroot" "$build" rest \
    "$build/lwc/tests/lwc_core_tests --gtest_brief=1" \
    "$build/lwc/tests/wycheproof/lwc_wycheproof_tests --gtest_brief=1" \
    "$build/lwc/tests/acorn_grain/lwc_acorn_grain_tests --gtest_brief=1" \
    "$build/lwc/tests/lwc_capi_test"
done
failed=0
for i in "${!stream_pids[@]}"; do
  wait "${stream_pids[$i]}" || failed=1
  cat "${stream_logs[$i]}"
done
if [ "$failed" -ne 0 ]; then
  echo "cross-architecture stage: a run under qemu failed (its output is above)"
  exit 1
fi
echo "cross-architecture stage: every suite passed on: $archs"
