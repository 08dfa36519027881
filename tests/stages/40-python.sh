# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package: a fresh virtual environment, `pip install .` from the repository root
# (scikit-build-core and nanobind from PyPI, the system CMake) with the test dependencies,
# then the pytest suite in tests/python.
set -euo pipefail
py=${LWC_PYTHON:-python3}
venv=build/py-venv

# Debian ships venv/ensurepip and the C headers in packages of their own.
missing=()
"$py" -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
[ -e "$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ] ||
  missing+=(python3-dev)
# ccache keeps the compiled library for stage 42's wheels and the next run (below).
command -v ccache >/dev/null || missing+=(ccache)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

rm -rf "$venv" build/py-build
"$py" -m venv "$venv" || {
  # Debian's python3 can import ensurepip yet lack its wheels until python3-venv is installed.
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
  rm -rf "$venv"
  "$py" -m venv "$venv"
}
# The CUDA module (lwc._lwc_cuda) is opt-in; it is built here where nvcc exists. Its glue is the
# same for every GPU architecture, and no test here needs a GPU: its kernels are compiled for
# compute_80 as PTX only (80-virtual), the architecture of the default set (80 and 90) that
# stage 10 leaves out, without the machine-code step (ptxas), which stage 10 runs for sm_90,
# and with the device passes at optimization level 1 as there (no device code runs in CI).
cuda=()
if command -v nvcc >/dev/null; then
  cuda=(-C cmake.define.LWC_PYTHON_CUDA=ON -C cmake.define.CMAKE_CUDA_ARCHITECTURES=80-virtual
        -C "cmake.define.CMAKE_CUDA_FLAGS=-Xcicc -O1")
else
  echo "NOTE: no nvcc; lwc._lwc_cuda is not built and its tests check the CPU-only install" >&2
fi
# ccache, when installed, keeps the compiled objects for stage 42 (the library's units do not
# depend on the Python version) and for the next run. The build folder sits two levels below
# the root, as stage 10's does: ccache rewrites the paths under the root relative to the
# compiler's working folder, so only folders at the same depth share objects (pip's default,
# a temporary folder outside the tree, shared none).
build_opts=(-C build-dir=build/py-build)
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/py-ccache} CCACHE_BASEDIR=$PWD CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
  build_opts+=(-C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache -C cmake.define.CMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
CMAKE_BUILD_PARALLEL_LEVEL=${LWC_JOBS:-$(nproc)} "$venv/bin/python" -m pip install --quiet \
  "${cuda[@]}" "${build_opts[@]}" ".[test]"
"$venv/bin/python" -m pytest tests/python -p no:cacheprovider -q

# The Python API fuzzer (fuzz/python/fuzz_api.py, atheris): a short smoke run, 20 s as the C targets'
# (LWC_PY_FUZZ_SECONDS); docs/TESTING.md gives the long run. atheris ships wheels for the
# usual CPythons on x86-64 Linux; elsewhere pip builds it with clang.
if "$venv/bin/python" -m pip install --quiet atheris; then
  fuzz_dir=$(mktemp -d)
  if ! "$venv/bin/python" fuzz/python/fuzz_api.py -max_total_time="${LWC_PY_FUZZ_SECONDS:-20}" \
      -rss_limit_mb=4096 -print_final_stats=1 "$fuzz_dir" >"$fuzz_dir.log" 2>&1; then
    tail -n 80 "$fuzz_dir.log"
    echo "fuzz/python/fuzz_api.py found a crash or an unexpected exception (above)"
    rm -rf "$fuzz_dir" "$fuzz_dir.log"
    exit 1
  fi
  tail -n 12 "$fuzz_dir.log"
  rm -rf "$fuzz_dir" "$fuzz_dir.log"
else
  echo "WARNING: atheris could not be installed; the Python API fuzz smoke run is skipped" >&2
fi
