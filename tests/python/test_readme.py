# SPDX-License-Identifier: MIT OR Apache-2.0
"""The README's Python quick start runs as written."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from conftest import ROOT


def quickstart_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(
        r"<!-- python-quickstart:begin -->(.*?)<!-- python-quickstart:end -->", text, re.S)
    assert section, "README has no python-quickstart section"
    return re.findall(r"```python\n(.*?)```", section.group(1), re.S)


def test_readme_python_quickstart_runs():
    blocks = quickstart_blocks()
    assert blocks
    namespace: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)
    import lwc

    printed = out.getvalue().splitlines()
    assert printed[0] == lwc.ascon_hash256(b"hello world").hexdigest()
    assert printed[1] == str(sorted(lwc.algorithms_available))


def test_readme_python_batch_example_runs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- python-batch:begin -->(.*?)<!-- python-batch:end -->", text, re.S)
    assert section, "README has no python-batch section"
    blocks = re.findall(r"```python\n(.*?)```", section.group(1), re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {"__name__": "__readme__"})
    import lwc

    assert out.getvalue().split() == [lwc.batch.default_backend(), "1000"]


def test_readme_arrow_example_runs():
    pytest.importorskip("pyarrow")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- python-arrow:begin -->(.*?)<!-- python-arrow:end -->", text, re.S)
    assert section, "README has no python-arrow section"
    blocks = re.findall(r"```python\n(.*?)```", section.group(1), re.S)
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {"__name__": "__readme__"})
    assert out.getvalue().strip() == "[b'first row', None, b'third row'] [True, False, True]"

