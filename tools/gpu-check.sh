#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# On a machine with an NVIDIA GPU: runs the CUDA engine's GPU tests, the Python device="cuda"
# tests (CuPy and PyTorch arrays, where the module was built), a compute-sanitizer pass and
# the GPU benchmark, and writes logs and results to OUTDIR (default build/gpu/results).
#
#   tools/gpu-check.sh [OUTDIR]                 builds build/gpu for this GPU first (nvcc, CMake)
#   LWC_GPU_PREBUILT=1 tools/gpu-check.sh ...   uses build/gpu as it is (built on another
#       machine with the same CUDA toolkit for this GPU's architecture, e.g. sm_90 for H100/H200)
#
# Exits non-zero when no GPU is found, the build fails, or a GPU test fails or is skipped; a
# failing step is reported and the later steps still run. Each step has a time limit, and the
# steps after the build share LWC_GPU_BUDGET seconds (default 420): a step that would not fit
# is cut short or skipped, and said so.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-build/gpu/results}
build=build/gpu
start=$SECONDS

fail() {
  echo "gpu-check: $*" >&2
  exit 1
}
problems=()
problem() {
  echo "gpu-check: $*" >&2
  problems+=("$*")
}
# Seconds a step may take: its own cap, or what is left of the budget.
budget_end=0
limit() {
  local left=$((budget_end - SECONDS - 5))
  echo $(($1 < left ? $1 : left))
}

if ! command -v nvidia-smi >/dev/null 2>&1; then
  fail "no NVIDIA GPU found: nvidia-smi is not installed (run this on a machine with a GPU and its driver)"
fi
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  fail "no NVIDIA GPU found: nvidia-smi lists no device"
fi
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
mkdir -p "$out"
out=$(cd "$out" && pwd)
{
  nvidia-smi -L
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  command -v nvcc >/dev/null && nvcc --version | tail -2
  nproc
} | tee "$out/gpu.txt"

if [ "${LWC_GPU_PREBUILT:-0}" != 1 ]; then
  command -v nvcc >/dev/null || fail "nvcc not found (install the CUDA toolkit or put it on PATH)"
  [ -f tools/ensure-deps.sh ] && source tools/ensure-deps.sh
  echo "== build ($build)"
  timeout 600 cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DLWC_ENABLE_CUDA=ON \
    -DLWC_BUILD_TESTS=ON -DLWC_BUILD_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=native >"$out/configure.log" 2>&1 ||
    { tail -20 "$out/configure.log"; fail "configure failed (see $out/configure.log)"; }
  timeout 900 cmake --build $build -j"$(nproc)" --target lwc_cuda_tests lwc_cuda_bench >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; fail "build failed or CUDA was not enabled (see $out/build.log)"; }
  echo "   built in $((SECONDS - start)) s"
fi
tests=$build/tests/cuda/lwc_cuda_tests
bench=$build/bench/cuda/lwc_cuda_bench
[ -x "$tests" ] && [ -x "$bench" ] || fail "$tests or $bench is missing"
budget_end=$((SECONDS + ${LWC_GPU_BUDGET:-420}))
# The KAT files of this tree (the binary may have been built where the tree had another path).
export LWC_VECTOR_DIR=$root/tests/vectors

echo "== GPU tests (sharded over the CPU cores: the CPU computes every expected result)"
shards=$(( $(nproc) > 2 ? $(nproc) - 1 : 1 ))
pids=()
t0=$SECONDS
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "$(limit 200)" "$tests" \
    --gtest_output="xml:$out/gpu_tests.$i.xml" >"$out/gpu_tests.$i.log" 2>&1 &
  pids+=($!)
done
test_rc=0
for pid in "${pids[@]}"; do wait "$pid" || test_rc=$?; done
cat "$out"/gpu_tests.*.log >"$out/gpu_tests.log"
echo "   $shards shards, $((SECONDS - t0)) s"
if grep -q "no CUDA device" "$out/gpu_tests.log"; then
  fail "the CUDA runtime sees no usable device although nvidia-smi does (driver too old for this toolkit?)"
fi
passed=$(grep -h -E '^\[  PASSED  \] [0-9]+ test' "$out"/gpu_tests.*.log | awk '{s += $4} END {print s + 0}')
failed=$(grep -h -E '^\[  FAILED  \] [^ ]+\.' "$out"/gpu_tests.*.log | sort -u || true)
# Only the test of the no-device error may skip here.
skipped=$(grep -ho '\[  SKIPPED \] [A-Za-z][^ ,]*' "$out"/gpu_tests.*.log | sort -u | grep -v NoDeviceIsReportedAsSuch || true)
echo "   passed: $passed"
[ -z "$failed" ] || { echo "$failed"; problem "GPU tests failed (see $out/gpu_tests.log)"; }
[ -z "$skipped" ] || { echo "$skipped"; problem "GPU tests were skipped on a GPU machine"; }
[ "$test_rc" -eq 0 ] || problem "a GPU test shard exited with status $test_rc (124: its time limit; see $out/gpu_tests.log)"

# Benchmark in three passes: the warp-kernel algorithms over the whole grid, every algorithm at
# three sizes, and end to end from host memory for the two headline algorithms.
echo "== GPU benchmark"
mkdir -p "$out/bench-warp" "$out/bench-all" "$out/bench-e2e"
run_bench() {
  local dir=$1 cap=$2
  shift 2
  local t
  t=$(limit "$cap")
  if [ "$t" -lt 15 ]; then problem "no time left for the benchmark pass $dir"; return; fi
  echo "-- $dir (up to $t s)"
  timeout "$t" "$bench" --out "$out/$dir" "$@" 2>"$out/$dir/bench.log" | tee "$out/$dir/summary.txt" ||
    { tail -5 "$out/$dir/bench.log"; problem "benchmark pass $dir failed or ran out of time (see $out/$dir/bench.log)"; }
}
run_bench bench-warp 70 --no-e2e --reps 5 --max-bytes 1073741824 \
  --algorithms ascon-aead128,ascon-128,ascon-128a,ascon-hash256,ascon-xof128
run_bench bench-all 110 --no-e2e --reps 3 --max-bytes 268435456 --sizes 64,1024,16384 --counts 16384,131072

# Python: the module of this build (scikit-build-core, or a CMake build with -DSKBUILD=ON for
# this machine's Python) next to the package's .py files; CuPy and PyTorch arrays where installed.
module=$(ls $build/python/_lwc*.so 2>/dev/null | head -1 || true)
if [ -n "$module" ]; then
  echo "== Python device=\"cuda\" tests ($(basename "$module"))"
  pkg=$(mktemp -d)
  cp -r python/lwc "$pkg/lwc"
  cp "$module" "$pkg/lwc/"
  py=${LWC_PYTHON:-python3}
  PYTHONPATH=$pkg timeout "$(limit 90)" "$py" -m pytest tests/python/test_batch_cuda.py -p no:cacheprovider -q -rs \
    >"$out/python_cuda.log" 2>&1 || { tail -40 "$out/python_cuda.log"; problem "Python CUDA tests failed"; }
  tail -1 "$out/python_cuda.log"
  if grep -q "SKIPPED.*\(CuPy\|PyTorch\|GPU\)" "$out/python_cuda.log"; then
    grep "SKIPPED" "$out/python_cuda.log" | head -5
  fi
else
  echo "== Python: no module in $build/python (build it with -DSKBUILD=ON to test device=\"cuda\")"
fi

run_bench bench-e2e 60 --reps 3 --max-bytes 268435456 --sizes 1024,16384 --counts 16384,262144 \
  --algorithms ascon-aead128,ascon-hash256

if command -v compute-sanitizer >/dev/null 2>&1; then
  echo "== compute-sanitizer on small batches"
  filter='Cuda/GpuAead.RandomBatchesThroughDevicePointers/ascon_aead128:Cuda/GpuAead.RandomBatchesThroughDevicePointers/gift_cofb:Cuda/GpuSponge.KnownAnswerFiles/ascon_hash256:Cuda/GpuSponge.KnownAnswerFiles/esch384:GpuForm.AsyncHashesWithKeysCustomizationAndLengths'
  for tool in memcheck racecheck; do
    t=$(limit 60)
    if [ "$t" -lt 20 ]; then problem "no time left for compute-sanitizer --tool $tool"; continue; fi
    if timeout "$t" compute-sanitizer --tool $tool --error-exitcode 99 "$tests" --gtest_filter="$filter" \
      >"$out/sanitizer_$tool.log" 2>&1; then
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED" "$out/sanitizer_$tool.log" | tail -2
    else
      tail -30 "$out/sanitizer_$tool.log"
      problem "compute-sanitizer --tool $tool reported errors or ran out of time (see $out/sanitizer_$tool.log)"
    fi
  done
fi

if [ ${#problems[@]} -gt 0 ]; then
  printf 'gpu-check: %s\n' "${problems[@]}" >&2
  echo "gpu-check: FAILED after $((SECONDS - start)) s; results in $out"
  exit 1
fi
echo "gpu-check: done in $((SECONDS - start)) s; results in $out"
