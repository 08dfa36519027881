# SPDX-License-Identifier: MIT OR Apache-2.0
# libFuzzer smoke run: builds the fuzz targets (clang, ASan + UBSan, LWC_FUZZ=ON), writes the
# seed corpus from the KAT files, then runs each target for a fixed time (LWC_FUZZ_SECONDS,
# 20 s by default) on the seeds. A crash, a sanitizer report or a broken property fails the
# stage, and the input that caused it is left in build/ci-fuzz/findings/. Long runs:
# docs/TESTING.md.
#
# LWC_FUZZ_SMOKE=0 skips it (a local run without the time; CI runs it): the clang + ASan build
# of the targets takes about 3 minutes on two cores, since the registry's entry points are
# compiled once (src/registry).
set -euo pipefail
source tools/cmake-generator.sh
if [ "${LWC_FUZZ_SMOKE:-1}" = 0 ]; then
  echo "fuzz smoke: skipped (LWC_FUZZ_SMOKE=0)"
  exit 0
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! command -v clang++ >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
fi
# libFuzzer's runtime is a package of its own, only recommended by clang's.
probe=$(mktemp -d)
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
  major=$(clang++ -dumpversion | cut -d. -f1)
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "libclang-rt-$major-dev" >/dev/null
fi
rm -rf "$probe"
build=${LWC_FUZZ_BUILD:-build/ci-fuzz}
seconds=${LWC_FUZZ_SECONDS:-20}
CC=clang CXX=clang++ cmake -S . -B "$build" $(lwc_generator "$build") -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DLWC_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
  -DLWC_BUILD_TESTS=OFF -DLWC_BUILD_BENCH=OFF -DLWC_BUILD_EXAMPLES=OFF -DLWC_BUILD_CAPI=OFF \
  -DLWC_ENABLE_CUDA=OFF >/dev/null
cmake --build "$build" -j"${LWC_JOBS:-$(nproc)}" --target fuzz_aead fuzz_hash fuzz_parsers fuzz_stream fuzz_seeds
mkdir -p "$build/findings"
# Each target runs alone in its process for the full time; two run at once, one per core of
# the two-core CI machine, so the four take two slots of LWC_FUZZ_SECONDS.
smoke() {
  local target=$1 corpus="$build/corpus/$1"
  mkdir -p "$corpus"
  # New inputs go to the corpus folder, the seeds stay as generated; a finding is written to
  # findings/ and makes libFuzzer exit non-zero, which fails the stage.
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/findings/$target-" "$corpus" "$build/fuzz/seeds/$target" \
    >"$build/fuzz_$target.log" 2>&1
}
report() {
  local target=$1 rc=$2
  echo "--- fuzz_$target: ${seconds} s"
  grep -E "INITED|DONE|stat::number_of_executed_units|stat::average_exec_per_sec" \
    "$build/fuzz_$target.log" || true
  if [ "$rc" -ne 0 ]; then tail -60 "$build/fuzz_$target.log"; return 1; fi
}
failed=0
for pair in "aead hash" "parsers stream"; do
  set -- $pair
  rc1=0 rc2=0
  smoke "$1" & p1=$!
  smoke "$2" & p2=$!
  wait "$p1" || rc1=$?
  wait "$p2" || rc2=$?
  report "$1" "$rc1" || failed=1
  report "$2" "$rc2" || failed=1
done
if [ "$failed" -ne 0 ]; then exit 1; fi
echo "fuzz smoke: ok"
