#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds and runs the C# benchmark and its C counterpart against BUILDDIR (a CMake build of lwc
# with the lwc_c target built).   bindings/csharp/bench/run.sh BUILDDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)
out=$build/cs-bench
mkdir -p "$out"
"$here/../build.sh" "$out" "$build/src/capi" >/dev/null
mcs -nologo -optimize+ -r:"$out/Lwc.dll" -out:"$out/Bench.exe" "$here/Bench.cs"
cc -O2 -std=c99 -D_POSIX_C_SOURCE=199309L "$here/bench_c.c" -I "$root/include" -L "$build/src/capi" -llwc \
  -o "$out/bench_c"
export LD_LIBRARY_PATH="$build/src/capi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "mono $(mono --version | head -1 | sed 's/.*version \([^ ]*\).*/\1/'), $(uname -m)"
MONO_PATH="$out" mono "$out/Bench.exe"
"$out/bench_c"
