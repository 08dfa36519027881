#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs every test of lwc on a fresh machine: installs what is missing, then runs each stage in
# tests/stages/ in order (C++ release build, sanitizer build, install + consumers, and the
# stages of the other layers). Stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")"
source tools/ensure-deps.sh
# One compiler cache for the run: several stages compile the same sources with the same flags
# in build folders of their own (the release build, the vendored-subdirectory consumer, the
# Python package and its wheels), and compile them once. The cache lives in build/ccache, so a
# fresh clone starts empty; LWC_CCACHE=0 turns it off. The compilers are named once for every
# stage: ccache keys on the path a compiler is called by (c++ and g++ are the same program and
# share nothing), and the newer CMake that pip brings for the Python stages picks g++ where the
# system's picks c++.
if [ "${LWC_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/ccache} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CC=${CC:-cc} CXX=${CXX:-c++}
fi
start=$SECONDS
for stage in tests/stages/*.sh; do
  echo "=== stage: $(basename "$stage" .sh)"
  t0=$SECONDS
  bash "$stage"
  echo "=== stage $(basename "$stage" .sh): $((SECONDS - t0)) s"
done
echo "=== all stages passed in $((SECONDS - start)) s"
if [ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then ccache --show-stats | grep -E 'Hits|Misses' || true; fi
