#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the documentation site into build/docs/html, with every Sphinx warning as an error.
#   tools/docs.sh            the site
#   tools/docs.sh doctest    also run the Python examples of the pages (Sphinx doctest)
# Needs: Python 3 with venv, the built `lwc` Python package, Mono's mcs (for the C# reference).
# The Python interpreter: $LWC_DOCS_PYTHON if set; else the test stage's build/py-venv when it
# has lwc installed (the Sphinx tools are added to it); else build/docs-work/venv, where
# `pip install ".[dask]"` builds the package with what lwc.arrow and lwc.dask import (the
# Python reference imports them): several minutes on 2 cores the first time (about an hour
# on a heavily loaded machine), then incremental in build/docs-work/skbuild.
set -euo pipefail
cd "$(dirname "$0")/.."
work=build/docs-work
out=build/docs
mkdir -p "$work" "$out"

install_debian() {
  echo "installing: $*"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

if [ -n "${LWC_DOCS_PYTHON:-}" ]; then
  py=$LWC_DOCS_PYTHON
elif [ -x build/py-venv/bin/python ] && build/py-venv/bin/python -c 'import lwc' 2>/dev/null; then
  py=build/py-venv/bin/python
else
  python3 -c 'import ensurepip, venv' 2>/dev/null || install_debian python3-venv python3-dev
  [ -x "$work/venv/bin/python" ] || python3 -m venv "$work/venv"
  py=$work/venv/bin/python
  echo "building the lwc Python package into $work/venv"
  CMAKE_BUILD_PARALLEL_LEVEL=${LWC_JOBS:-$(nproc)} "$py" -m pip install --quiet \
    -C build-dir="$work/skbuild" -C cmake.define.LWC_ENABLE_CUDA="${LWC_DOCS_CUDA:-OFF}" ".[dask]"
fi
"$py" -m pip install --quiet --disable-pip-version-check -r docs/requirements.txt
echo "$py" > "$work/python"

# The C# reference: the XML documentation the compiler writes (the native library is not
# needed to compile).
command -v mcs >/dev/null || install_debian mono-devel
mkdir -p "$work/csharp"
mcs -nologo -unsafe -target:library -out:"$work/csharp/Lwc.dll" -doc:"$work/csharp/Lwc.xml" \
  -nowarn:1591 bindings/csharp/src/*.cs
export LWC_DOCS_CSHARP_XML=$PWD/$work/csharp/Lwc.xml

"$py" -m sphinx -E -W --keep-going -q -b html -d "$work/doctrees" docs "$out/html"
echo "site: $out/html/index.html"
if [ "${1:-}" = doctest ]; then
  "$py" -m sphinx -W --keep-going -q -b doctest -d "$work/doctrees" docs "$work/doctest"
fi
