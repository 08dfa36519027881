# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package as users get it: the wheels (pip wheel ., no CUDA), each installed into a
# fresh virtual environment of each Python it serves, which then runs a fast subset of
# tests/python (KATs through the API, the API surface, batch, stream, Arrow, the packaging
# checks). Stage 40 runs the whole suite on one version.
#
# CPython 3.9-3.11 get a wheel each (cp39 ...); 3.12 and later share one stable-ABI wheel
# (cp312-abi3, pyproject.toml's wheel.py-api), built once with 3.12 and tested on each of them.
# `auditwheel show` prints each wheel's platform standing when auditwheel is installable.
#
# Every supported version is tested (pyproject.toml's requires-python and classifiers name the
# same ones: test_packaging.py checks that); LWC_PY_VERSIONS="3.10 3.12" names a subset for a
# quicker local run. Interpreters are found under pyenv's versions folder or as pythonX.Y on
# PATH.
#
# The library's objects do not depend on the Python version: with ccache (installed when
# missing; test.sh's cache, or build/py-ccache) each wheel compiles only the extension's own
# units and nanobind. Each wheel's build folder sits two levels below the root, as stage 10's
# and stage 40's do, so that ccache's relative paths match theirs.
set -euo pipefail
all_versions="3.9 3.10 3.11 3.12 3.13"
versions=${LWC_PY_VERSIONS:-$all_versions}
work=$PWD/build/py-wheels
dist=$work/dist
rm -rf "$work/venv-"* "$dist" "$PWD"/build/py-wheel-*
mkdir -p "$dist"

SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! command -v ccache >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ccache >/dev/null ||
    echo "WARNING: ccache could not be installed; every wheel compiles the whole library" >&2
fi
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/py-ccache} CCACHE_BASEDIR=$PWD CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
  launcher=(-C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# pyenv's shims are on PATH but fail for versions that are not selected: each candidate must run.
interpreter() {
  local v=$1 p
  for p in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$v".*/bin/python"$v" "$(command -v "python$v")"; do
    [ -x "$p" ] && "$p" -c 'import sys' 2>/dev/null && { echo "$p"; return; }
  done
  return 1
}

# The first minor version served by the stable-ABI wheel, and that wheel's tag.
abi3_minor=12
abi3_tag=cp312-abi3

# A fresh virtual environment of Python $1 (once per run), with a current pip.
venv_of() {
  local v=$1 py venv=$work/venv-$1
  if [ ! -x "$venv/bin/python" ]; then
    py=$(interpreter "$v") || { echo "Python $v not found (PATH or pyenv); it is a supported version" >&2; return 1; }
    "$py" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
  fi
  echo "$venv"
}

# The wheel that serves Python $1, built on first need: its own for 3.9-3.11, the stable-ABI
# one (built with 3.12) from 3.12 on.
wheel_for() {
  local v=$1 build_v=$1 tag=cp${1/./} venv wheel
  if [ "${v#3.}" -ge $abi3_minor ]; then build_v=3.$abi3_minor tag=$abi3_tag; fi
  wheel=$(ls "$dist"/lwc_crypto-*-"$tag"-*.whl 2>/dev/null || true)
  if [ -z "$wheel" ]; then
    venv=$(venv_of "$build_v")
    CMAKE_BUILD_PARALLEL_LEVEL=${LWC_JOBS:-$(nproc)} "$venv/bin/python" -m pip wheel --quiet --no-deps \
      -w "$dist" -C "build-dir=build/py-wheel-$build_v" "${launcher[@]}" . >&2
    wheel=$(ls "$dist"/lwc_crypto-*-"$tag"-*.whl)
    describe_wheel "$venv" "$wheel" "$tag"
  fi
  echo "$wheel"
}

describe_wheel() {
  local venv=$1 wheel=$2 tag=$3
  # A stable-ABI wheel must hold a stable-ABI module (nanobind quietly builds a version-specific
  # one when CMake's FindPython lacks the SABIModule component).
  if [ "$tag" = "$abi3_tag" ] && ! "$venv/bin/python" -m zipfile -l "$wheel" | grep 'lwc/_lwc\.abi3\.so' >/dev/null; then
    echo "$(basename "$wheel") is tagged abi3 but holds no lwc/_lwc.abi3.so" >&2
    exit 1
  fi
  if "$venv/bin/python" -m pip install --quiet auditwheel >&2 2>/dev/null; then
    # Its first paragraph: the platform tag the wheel is consistent with.
    "$venv/bin/python" -m auditwheel show "$wheel" 2>/dev/null |
      awk 'NF == 0 { if (seen) exit; next } { seen = 1; printf "%s ", $0 } END { print "" }' |
      sed 's/^/auditwheel show: /' >&2
  fi
}

# The fast subset: well under a minute per version on 2 cores.
subset=(tests/python/test_kat.py tests/python/test_api.py tests/python/test_batch.py
        tests/python/test_stream.py tests/python/test_arrow.py tests/python/test_packaging.py)

for v in $versions; do
  t0=$SECONDS
  venv=$(venv_of "$v")
  wheel=$(wheel_for "$v")
  "$venv/bin/python" -m pip install --quiet "$wheel" pytest hypothesis numpy
  if ! "$venv/bin/python" -m pip install --quiet "pyarrow>=14"; then
    echo "NOTE: no pyarrow for Python $v; its Arrow tests are skipped" >&2
  fi
  # From a folder outside the source tree, so that the installed wheel is what is imported.
  (cd "$work" && "$venv/bin/python" -m pytest "${subset[@]/#/$OLDPWD/}" -p no:cacheprovider -q \
    --rootdir "$OLDPWD" -rs) | tail -n 6
  echo "Python $v: $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB), $((SECONDS - t0)) s"
done
