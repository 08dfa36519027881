#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds OUTDIR/Lwc.dll with Mono's C# compiler (mcs; CSC=csc to use another).
#   bindings/csharp/build.sh OUTDIR [LIBDIR]
# LIBDIR: the directory of liblwc.so (default: $LWC_LIBDIR, else the loader's search path).
# The per-algorithm classes are generated from the registry of that liblwc.so: gen/Generate.cs
# queries it and writes OUTDIR/Algorithms.g.cs, which is compiled in (and copied to
# src/Generated/, not tracked, for the .NET SDK build of Lwc.csproj).
set -euo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUTDIR [LIBDIR]" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
out=$1
libdir=${2:-${LWC_LIBDIR:-}}
csc=${CSC:-mcs}
mkdir -p "$out"
if [ -n "$libdir" ]; then export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi

"$csc" -nologo -unsafe -out:"$out/lwc-gen.exe" "$here/gen/Generate.cs" "$here/src/Native.cs" \
  "$here/src/Registry.cs"
mono "$out/lwc-gen.exe" "$out/Algorithms.g.cs"
mkdir -p "$here/src/Generated"
cp "$out/Algorithms.g.cs" "$here/src/Generated/Algorithms.g.cs"
"$csc" -nologo -unsafe -optimize+ -target:library -out:"$out/Lwc.dll" -doc:"$out/Lwc.xml" -nowarn:1591 \
  "$here"/src/*.cs "$out/Algorithms.g.cs"
echo "built $out/Lwc.dll"
