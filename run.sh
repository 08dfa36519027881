#!/usr/bin/env bash
# The main job: builds lwc, runs the example program (encrypt, decrypt, hash, XOF) and prints
# a short single-message benchmark table.
set -euo pipefail
cd "$(dirname "$0")"
source tools/ensure-deps.sh
cmake -S . -B build/run -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_TESTS=OFF -DLWC_ENABLE_CUDA=OFF >/dev/null
cmake --build build/run -j"$LWC_JOBS"
echo "--- example: examples/quickstart.cpp"
./build/run/examples/lwc_quickstart
echo "--- single-message throughput (1 core, short run)"
./build/run/bench/lwc_bench --benchmark_filter='^ascon-(aead128/(en|de)crypt|hash256/hash|xof128/xof|128a/encrypt)/(64|4096)$' \
  --benchmark_min_time=0.2
