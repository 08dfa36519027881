# SPDX-License-Identifier: MIT OR Apache-2.0
# The documentation site: builds it with every warning as an error (tools/docs.sh), runs the
# Python examples of its pages (Sphinx doctest), compiles and runs the C, C++, C# and
# command-line examples the pages show, fails when a public C function, C++ name, C# member or
# Python name has no documentation (beyond the gaps listed in docs/undocumented.txt), checks every
# internal link and anchor, and loads the index, an API page per language, an algorithm page
# and the search page in headless Chromium, with a screenshot of each in
# build/docs/screenshots/. Reuses the Python package of stage 40 (build/py-venv) and the
# library and tool of stage 10 (build/ci-release) when they are there.
set -euo pipefail
install_debian() {
  echo "installing: $*"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}
command -v chromium >/dev/null || install_debian chromium
command -v mcs >/dev/null || install_debian mono-devel

# The README is an introduction that a newcomer reads in two minutes; the rest is the site's.
readme_lines=$(wc -l < README.md)
[ "$readme_lines" -lt 150 ] || { echo "README.md has $readme_lines lines: keep it under 150, move the rest into docs/"; exit 1; }

tools/docs.sh doctest
py=$(cat build/docs-work/python)
"$py" tools/docs_gen.py --check --python --csharp-xml build/docs-work/csharp/Lwc.xml \
  --known docs/undocumented.txt
"$py" tools/docs_site_check.py links build/docs/html

# The C++ check can fail: in a copy of the headers, a removed comment is reported by name, and
# a declaration the header parser cannot read stops it.
scratch=$(mktemp -d)
cp -r include "$scratch/"
sed -i '/^  \/\/ The algorithm this object computes\.$/d' "$scratch/include/lwc/registry.hpp"
if "$py" tools/docs_gen.py --check --root "$scratch" > "$scratch/report"; then
  echo "the documentation check missed an undocumented C++ name"; exit 1
fi
grep -q "C++: lwc::hasher::info " "$scratch/report" ||
  { echo "the documentation check did not name lwc::hasher::info:"; cat "$scratch/report"; exit 1; }
cp include/lwc/registry.hpp "$scratch/include/lwc/registry.hpp"
sed -i 's|^namespace lwc::batch {$|&\n/* a comment the parser refuses */|' "$scratch/include/lwc/batch.hpp"
if "$py" tools/docs_gen.py --check --root "$scratch" > "$scratch/report" 2>&1; then
  echo "the C++ header parser read a declaration it does not know"; exit 1
fi
grep -q "include/lwc/batch.hpp:[0-9]*: a /\* \*/ comment" "$scratch/report" ||
  { echo "the C++ header parser failed without naming the line:"; cat "$scratch/report"; exit 1; }
rm -rf "$scratch"
echo "documentation check: a removed C++ comment and an unreadable declaration are reported"

# The library and the tool for the examples: stage 10's, else a build of our own.
if [ -n "${LWC_DOCS_BUILD:-}" ]; then
  bdir=$LWC_DOCS_BUILD
elif [ -e build/ci-release/src/capi/liblwc.so ] && [ -x build/ci-release/cli/lwc ]; then
  bdir=build/ci-release
else
  bdir=build/docs-work/cmake
  cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_TESTS=OFF -DLWC_BUILD_BENCH=OFF \
    -DLWC_BUILD_EXAMPLES=OFF -DLWC_ENABLE_CUDA=OFF >/dev/null
  cmake --build "$bdir" -j"${LWC_JOBS:-$(nproc)}" --target lwc_c lwc_cli >/dev/null
fi
libdir=$(cd "$bdir/src/capi" && pwd)
clidir=$(cd "$bdir/cli" && pwd)
ex=$(mktemp -d)
trap 'rm -rf "$ex"' EXIT
echo "examples (library and tool of $bdir):"
g++ -std=c++20 -O1 -Iinclude examples/quickstart.cpp -o "$ex/quickstart"
"$ex/quickstart" | sed 's/^/  quickstart.cpp: /'
# The CUDA example is compiled only: running it needs the CUDA engine and a GPU.
g++ -std=c++20 -Wall -Werror -Iinclude -fsyntax-only docs/examples/cuda_host.cpp
echo "  cuda_host.cpp: compiled"
for c in hello batch; do
  cc -std=c99 -Wall -Werror -Iinclude "docs/examples/$c.c" -L"$libdir" -llwc \
    -Wl,-rpath,"$libdir" -o "$ex/$c"
  "$ex/$c" | sed "s/^/  $c.c: /"
done
(mkdir "$ex/cli" && cd "$ex/cli" && PATH="$clidir:$PATH" bash "$OLDPWD/docs/examples/cli.sh") |
  sed 's/^/  cli.sh: /'
mcs -nologo -r:build/docs-work/csharp/Lwc.dll -out:"$ex/Hello.exe" docs/examples/Hello.cs
LD_LIBRARY_PATH="$libdir" MONO_PATH=build/docs-work/csharp mono "$ex/Hello.exe" | sed 's/^/  Hello.cs: /'

"$py" tools/docs_site_check.py browser build/docs/html build/docs/screenshots
echo "docs: ok (build/docs/html, screenshots in build/docs/screenshots)"
