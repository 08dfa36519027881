#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds lwc with CUDA (build/gpu, this GPU's architecture),
# runs the emulation and GPU tests and the GPU benchmark, writes logs and results (bench.json,
# bench.md, gpu_tests.xml, summary.txt) to $1 (default build/gpu/results) and prints a short
# table with the targets of docs/cuda.md. Exits non-zero when no GPU is found, the build
# fails, or a GPU test fails or is skipped. Each step has a time limit; the whole run stays
# under about 9 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/gpu/results}
start=$SECONDS

fail() {
  echo "gpu-check: $*" >&2
  exit 1
}
left() { echo $((540 - (SECONDS - start))); }

if ! command -v nvidia-smi >/dev/null 2>&1; then
  fail "no NVIDIA GPU found: nvidia-smi is not installed (run this on a machine with a GPU and its driver)"
fi
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  fail "no NVIDIA GPU found: nvidia-smi lists no device"
fi
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || fail "nvcc not found (install the CUDA toolkit or put it on PATH)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
nvidia-smi -L | tee "$out/gpu.txt"

if [ -f tools/ensure-deps.sh ]; then
  # shellcheck source=/dev/null
  source tools/ensure-deps.sh
fi

echo "== build (build/gpu)"
timeout 280 cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release -DLWC_ENABLE_CUDA=ON \
  -DLWC_BUILD_TESTS=ON -DLWC_BUILD_BENCH=ON -DCMAKE_CUDA_ARCHITECTURES=native >"$out/configure.log" 2>&1 ||
  { tail -20 "$out/configure.log"; fail "configure failed (see $out/configure.log)"; }
timeout 280 cmake --build build/gpu -j"$(nproc)" \
  --target lwc_cuda_emulation_tests lwc_cuda_tests lwc_cuda_bench >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; fail "build failed or CUDA was not enabled (see $out/build.log)"; }
echo "   built in $((SECONDS - start)) s"

echo "== emulation tests (the kernels' logic on the CPU)"
timeout 90 build/gpu/tests/cuda/lwc_cuda_emulation_tests --gtest_brief=1 >"$out/emulation_tests.log" 2>&1 ||
  { tail -30 "$out/emulation_tests.log"; fail "emulation tests failed (see $out/emulation_tests.log)"; }
tail -1 "$out/emulation_tests.log"

echo "== GPU tests"
timeout "$(left)" build/gpu/tests/cuda/lwc_cuda_tests --gtest_output="xml:$out/gpu_tests.xml" \
  >"$out/gpu_tests.log" 2>&1 || { tail -40 "$out/gpu_tests.log"; fail "GPU tests failed (see $out/gpu_tests.log)"; }
head -1 "$out/gpu_tests.log"
if grep -q "no CUDA device" "$out/gpu_tests.log"; then
  fail "the CUDA runtime sees no usable device although nvidia-smi does (driver too old for this toolkit?)"
fi
# Only the test of the no-device error may skip here.
skipped=$(grep -o '\[  SKIPPED \] [^ ]*' "$out/gpu_tests.log" | sort -u | grep -v NoDeviceIsReportedAsSuch || true)
if [ -n "$skipped" ]; then
  echo "$skipped"
  fail "GPU tests were skipped on a GPU machine"
fi
grep -E '^\[  PASSED  \]' "$out/gpu_tests.log" | tail -1

echo "== GPU benchmark (kernel-only and end to end; up to 512 MiB of messages per batch)"
budget=$(left)
[ "$budget" -gt 60 ] || fail "no time left for the benchmark"
timeout "$budget" build/gpu/bench/cuda/lwc_cuda_bench --out "$out" --max-bytes 536870912 --reps 3 \
  2>"$out/bench.log" | tee "$out/summary.txt" || { tail -20 "$out/bench.log"; fail "benchmark failed (see $out/bench.log)"; }

echo "gpu-check: done in $((SECONDS - start)) s; results in $out"
