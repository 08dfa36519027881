# libFuzzer smoke run: builds the fuzz targets (clang, ASan + UBSan, LWC_FUZZ=ON), writes the
# seed corpus from the KAT files, then runs each target for a fixed time (LWC_FUZZ_SECONDS,
# 20 s by default) on the seeds. A crash, a sanitizer report or a broken property fails the
# stage, and the input that caused it is left in build/ci-fuzz/findings/. Long runs:
# docs/TESTING.md.
#
# Opt-in (LWC_FUZZ_SMOKE=1): the clang + ASan build of every target over the whole registry
# takes 10-20 minutes on two cores, which would push ./test.sh past its time budget.
set -euo pipefail
if [ "${LWC_FUZZ_SMOKE:-0}" != 1 ]; then
  echo "fuzz smoke: skipped (LWC_FUZZ_SMOKE=1 runs it)"
  exit 0
fi
if ! command -v clang++ >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null
fi
build=${LWC_FUZZ_BUILD:-build/ci-fuzz}
seconds=${LWC_FUZZ_SECONDS:-20}
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DLWC_FUZZ=ON \
  -DLWC_BUILD_TESTS=OFF -DLWC_BUILD_BENCH=OFF -DLWC_BUILD_EXAMPLES=OFF -DLWC_BUILD_CAPI=OFF \
  -DLWC_ENABLE_CUDA=OFF >/dev/null
cmake --build "$build" -j"${LWC_JOBS:-$(nproc)}" --target fuzz_aead fuzz_hash fuzz_parsers fuzz_stream fuzz_seeds
mkdir -p "$build/findings"
for target in aead hash parsers stream; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  echo "--- fuzz_$target: ${seconds} s"
  # New inputs go to the corpus folder, the seeds stay as generated; a finding is written to
  # findings/ and makes libFuzzer exit non-zero, which stops the stage.
  rc=0
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$build/findings/$target-" "$corpus" "$build/fuzz/seeds/$target" \
    >"$build/fuzz_$target.log" 2>&1 || rc=$?
  grep -E "INITED|DONE|stat::number_of_executed_units|stat::average_exec_per_sec" \
    "$build/fuzz_$target.log" || true
  if [ "$rc" -ne 0 ]; then tail -60 "$build/fuzz_$target.log"; exit 1; fi
done
echo "fuzz smoke: ok"
