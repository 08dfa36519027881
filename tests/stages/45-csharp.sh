# SPDX-License-Identifier: MIT OR Apache-2.0
# The C# binding (bindings/csharp): Mono's mcs when missing, liblwc.so and the lwc tool (from
# stage 10's build when it is there), Lwc.dll, the console test runner (every KAT file, tamper
# and bad-input tests, lwc files in both directions with the tool, fault tests: lying input
# streams, pooled buffers, invalid paths, disposal, tag lengths, file writers under failure; the
# full-disk test mounts a small tmpfs and says it skipped when mounting is not permitted), the
# README's example, and a build of the benchmark.
set -euo pipefail
if ! command -v mcs >/dev/null; then
  echo "installing: mono-devel"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq mono-devel >/dev/null
fi

jobs=${LWC_JOBS:-$(nproc)}
if [ -f build/ci-release/CMakeCache.txt ]; then
  bdir=build/ci-release
else
  bdir=build/ci-csharp
  cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DLWC_ENABLE_CUDA=OFF -DLWC_BUILD_BENCH=OFF \
    -DLWC_BUILD_TESTS=OFF -DLWC_BUILD_EXAMPLES=OFF >/dev/null
fi
cmake --build "$bdir" -j"$jobs" --target lwc_c lwc_cli >/dev/null
libdir=$(pwd)/$bdir/src/capi
cli=$(pwd)/$bdir/cli/lwc

out=build/ci-csharp-out
rm -rf "$out"
bindings/csharp/build.sh "$out" "$libdir"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MONO_PATH="$(pwd)/$out"

mcs -nologo -r:"$out/Lwc.dll" -r:System.Core -r:System.Web.Extensions -out:"$out/Tests.exe" bindings/csharp/tests/*.cs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mono "$out/Tests.exe" tests/vectors "$cli" "$tmp"

# The README's example, as written.
awk '/^```csharp$/{on=1; next} /^```$/{on=0} on' bindings/csharp/README.md >"$out/Example.cs"
mcs -nologo -r:"$out/Lwc.dll" -out:"$out/Example.exe" "$out/Example.cs"
mono "$out/Example.exe"

mcs -nologo -optimize+ -r:"$out/Lwc.dll" -out:"$out/Bench.exe" bindings/csharp/bench/Bench.cs
echo "C# binding: ok"
