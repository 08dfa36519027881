# SPDX-License-Identifier: MIT OR Apache-2.0
"""Shared helpers of the Python suite: the KAT reader (same format and file-to-algorithm rule
as tests/support/kat_reader.hpp and tests/kat_test.cpp) and the hypothesis profile."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"

# The machines are shared and noisy: no per-example deadline.
settings.register_profile(
    "lwc", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("lwc")


class KatRecord(dict):
    """Fields of one record; `line` is where it starts in its file."""

    line: int = 0

    def bytes(self, field: str) -> bytes:
        return bytes.fromhex(self[field])


def read_kat(path: Path) -> list[KatRecord]:
    records: list[KatRecord] = []
    cur = KatRecord()
    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                if cur:
                    records.append(cur)
                cur = KatRecord()
                continue
            name, eq, value = line.partition("=")
            if not eq:
                raise ValueError(f"{path}:{lineno}: no '='")
            if not cur:
                cur.line = lineno
            cur[name.strip()] = value.strip()
    if cur:
        records.append(cur)
    return records


def all_vector_files() -> list[Path]:
    return sorted(p for p in VECTORS.rglob("*.txt") if p.is_file())


def files_for(name: str) -> list[Path]:
    """`<name>.txt` and `<name>.<set>.txt` anywhere under tests/vectors."""
    return [p for p in all_vector_files() if p.stem == name or p.stem.startswith(name + ".")]
