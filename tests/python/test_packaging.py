# SPDX-License-Identifier: MIT OR Apache-2.0
"""The package as installed: what `import lwc` loads, the optional CUDA module, the typing
marker and the declared metadata (pyproject.toml) against the versions the stages test."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import lwc
from lwc import _cuda_arrays

ROOT = Path(__file__).resolve().parents[2]

# Modules that only the parts using them may load: lwc.arrow/lwc.dask and device="cuda".
LAZY = ["numpy", "pyarrow", "pandas", "dask", "lwc._lwc_cuda", "lwc.arrow", "lwc.dask"]


def test_import_lwc_loads_no_optional_module():
    code = ("import sys, lwc, lwc.batch, lwc.stream; "
            f"print([m for m in {LAZY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ""})
    assert out.stdout.strip() == "[]"


# What `import lwc` itself may not load, beyond the optional modules: the CUDA array helpers
# (device inputs only), typing (annotations are for type checkers), and tempfile with what it
# pulls in (lwc.stream's file writer only). Each is about a tenth of the import time or more.
NOT_AT_IMPORT = LAZY + ["lwc._cuda_arrays", "typing", "tempfile", "shutil", "random", "threading"]


def test_import_lwc_loads_only_what_it_needs():
    # Compared with what this interpreter had loaded before `import lwc` (site and .pth files
    # may load some of these themselves).
    code = ("import sys; before = set(sys.modules); import lwc; "
            f"print(sorted(m for m in {NOT_AT_IMPORT!r} if m in sys.modules and m not in before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": ""})
    assert out.stdout.strip() == "[]"


def test_cuda_queries_do_not_load_numpy():
    code = ("import sys, lwc; lwc.batch.cuda_available(); lwc.batch.cuda_algorithms(); "
            "print([m for m in ('numpy', 'pyarrow', 'dask') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_typing_marker_and_stubs_are_installed():
    package = Path(lwc.__file__).parent
    assert (package / "py.typed").is_file()
    assert (package / "__init__.pyi").is_file()


@pytest.mark.skipif(sys.version_info < (3, 12), reason="CPython 3.9-3.11 get a module of their own")
def test_from_cpython_3_12_the_module_uses_the_stable_abi():
    # pyproject.toml's wheel.py-api: one module for 3.12 and later. nanobind quietly builds a
    # version-specific one where CMake cannot find the stable-ABI library component.
    from lwc import _lwc

    assert Path(_lwc.__file__).name == "_lwc.abi3.so"


CUDA_INSTALLED = importlib.util.find_spec("lwc._lwc_cuda") is not None


@pytest.mark.skipif(CUDA_INSTALLED, reason="this installation has the CUDA module")
def test_without_the_cuda_module_device_cuda_says_how_to_get_it():
    assert _cuda_arrays.engine() is None
    assert lwc.batch.cuda_available() is False
    assert lwc.batch.cuda_devices() == [] and lwc.batch.cuda_algorithms() == []
    with pytest.raises(RuntimeError, match=r"no CUDA engine .*LWC_PYTHON_CUDA=ON pip install"):
        lwc.batch.encrypt("ascon-aead128", [bytes(16)], [bytes(16)], [b"x"], device="cuda")
    with pytest.raises(RuntimeError, match="LWC_PYTHON_CUDA=ON"):
        lwc.batch.hash("ascon-hash256", [b"x"], device="cuda")
    # The core module's host-memory path asks for the CUDA module only when device="cuda".
    from array import array

    from lwc import _lwc

    hash256 = [a.name for a in lwc.algorithms()].index("ascon-hash256")
    msgs = (bytes(5), array("q", [0, 3, 5]))
    with pytest.raises(ImportError, match="_lwc_cuda"):
        _lwc._batch_hash(hash256, msgs, 32, None, None, None, None, True)


@pytest.mark.skipif(not CUDA_INSTALLED, reason="this installation has no CUDA module")
def test_the_cuda_module_matches_the_core_module():
    from lwc import _lwc, _lwc_cuda

    assert _cuda_arrays.engine() is _lwc_cuda
    assert _lwc_cuda.__version__ == _lwc.__version__
    assert set(_lwc_cuda._cuda_algorithms()) <= set(lwc.algorithms_available)


def test_a_broken_cuda_module_is_not_reported_as_absent(monkeypatch):
    # Only a missing lwc._lwc_cuda means "not installed"; another import failure (a missing
    # library, a module from another build) surfaces as itself.
    import importlib

    real_import = importlib.import_module

    def failing_import(name, package=None):
        if name == "lwc._lwc_cuda":
            raise ImportError("libcudart.so.13: cannot open shared object file")
        return real_import(name, package)

    monkeypatch.setattr(_cuda_arrays, "_engine_module", None)
    monkeypatch.setattr(importlib, "import_module", failing_import)
    with pytest.raises(ImportError, match="libcudart"):
        _cuda_arrays.engine()


def pyproject() -> str:
    path = ROOT / "pyproject.toml"
    if not path.is_file():
        pytest.skip("run from an installed wheel without the source tree")
    return path.read_text(encoding="utf-8")


def test_declared_python_versions_are_the_tested_ones():
    text = pyproject()
    floor = re.search(r'requires-python = ">=3\.(\d+)"', text)
    assert floor, "requires-python"
    declared = sorted(int(m) for m in re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', text))
    assert declared and declared[0] == int(floor.group(1))
    assert declared == list(range(declared[0], declared[-1] + 1)), "no gaps in the classifiers"
    stage = (ROOT / "tests" / "stages" / "42-python-wheels.sh").read_text(encoding="utf-8")
    tested = re.search(r'^all_versions="([0-9. ]+)"', stage, re.M)
    assert tested, "the wheel stage's version list"
    assert tested.group(1).split() == [f"3.{m}" for m in declared]


def test_every_extra_is_documented():
    text = pyproject()
    extras = re.findall(r"^([a-z]+) = \[", text.split("[project.optional-dependencies]")[1].split("\n[")[0],
                        re.M)
    assert {"arrow", "dask"} <= set(extras)
    guide = (ROOT / "docs" / "start" / "python.md").read_text(encoding="utf-8")
    for extra in extras:
        if extra != "test":
            assert f'.[{extra}]' in guide, f"extra {extra!r} is not in docs/start/python.md"
