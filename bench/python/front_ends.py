#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.batch's front ends (lists, numpy arrays, Arrow columns) against the engine itself, and
two builds of the package against each other.

Ascon-AEAD128 encryption, a key and a nonce per message, no associated data, tags appended:
10^5 messages of 64 bytes, 10^4 of 1 KiB, 10^3 of 16 KiB, with 1 and 2 threads. Cases:

- lists: ``lwc.batch.encrypt`` on lists of bytes objects (one bytes object out per message);
- numpy: on N x L and N x 16 uint8 arrays (an N x (L + 16) array out);
- arrow: ``lwc.arrow.encrypt`` on a ``pa.binary()`` column and ``pa.binary(16)`` key and
  nonce columns;
- loop (64 bytes only): ``[AsconAEAD128(k).encrypt(n, m, None) for ...]``, one thread;
- engine (64 bytes only): the same batch through ``lwc::batch::encrypt`` on the packed job
  form in C++ (engine_packed.cpp, compiled here against the given build's engine).

Every case runs in a fresh process per build and round, the builds alternating (old, new,
old, new, ...), so that a change in the machine's load falls on both alike; a process times
each case 5 times and keeps the median; the table gives the medians over the rounds. Two
clocks: wall time (what a caller waits, the batch engine using threads) and the process's CPU
time (all its threads together), which a loaded machine disturbs far less: on a shared machine
compare the one-thread cases by CPU time, and give the load with any wall-time figure. The
last lines give each build's lists-to-loop ratio on both clocks.

    python bench/python/front_ends.py --pkg new=build/python/pkg-rel --pkg old=build/python/pkg-old \\
        --engine-build build/python/rel --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ((100_000, 64), (10_000, 1024), (1_000, 16384))
THREADS = (1, 2)
REPEAT = 5


def _median_time(f) -> list:
    """[wall, cpu]: the medians of REPEAT runs, in seconds."""
    wall, cpu = [], []
    for _ in range(REPEAT):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return [statistics.median(wall), statistics.median(cpu)]


def measure() -> dict:
    """Runs in the child process, with the package under test on sys.path."""
    import numpy as np
    import pyarrow as pa

    import lwc
    import lwc.arrow

    rng = np.random.default_rng(1)
    out = {}
    for n, size in SHAPES:
        keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
        nonces = rng.integers(0, 256, (n, 16), dtype=np.uint8)
        msgs = rng.integers(0, 256, (n, size), dtype=np.uint8)
        key_list = [bytes(k) for k in keys]
        nonce_list = [bytes(x) for x in nonces]
        msg_list = [bytes(m) for m in msgs]
        col = pa.array(msg_list, pa.binary())
        key_col = pa.array(key_list, pa.binary(16))
        nonce_col = pa.array(nonce_list, pa.binary(16))
        for t in THREADS:
            out[f"lists/{size}/{t}"] = _median_time(
                lambda: lwc.batch.encrypt("ascon-aead128", key_list, nonce_list, msg_list, threads=t))
            out[f"numpy/{size}/{t}"] = _median_time(
                lambda: lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, threads=t))
            out[f"arrow/{size}/{t}"] = _median_time(
                lambda: lwc.arrow.encrypt("ascon-aead128", key_col, nonce_col, col, threads=t))
        if size == 64:
            aead = lwc.AsconAEAD128
            out[f"loop/{size}/1"] = _median_time(
                lambda: [aead(k).encrypt(x, m, None) for k, x, m in zip(key_list, nonce_list, msg_list)])
    return out


def engine_binary(build: Path) -> Path:
    """engine_packed.cpp compiled against the static engine libraries of `build`."""
    binary = build / "engine_packed"
    libs = [build / "src" / "batch" / "liblwc_batch.a", build / "src" / "registry" / "liblwc_registry.a"]
    subprocess.run(["c++", "-std=c++20", "-O2", f"-I{ROOT / 'include'}", "-DLWC_REGISTRY_COMPILED=1",
                    str(ROOT / "bench" / "python" / "engine_packed.cpp"), *map(str, libs), "-pthread",
                    "-o", str(binary)], check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pkg", action="append", default=[], metavar="LABEL=DIR",
                        help="a folder holding the lwc package to measure (repeatable)")
    parser.add_argument("--engine-build", type=Path, help="a CMake build folder with the batch engine")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    pkgs = dict(p.split("=", 1) for p in args.pkg)
    binary = engine_binary(args.engine_build) if args.engine_build else None
    results: dict[str, dict[str, list[float]]] = {label: {} for label in pkgs}
    results["engine"] = {}
    for _ in range(args.rounds):
        for label, folder in pkgs.items():
            # numpy's OpenBLAS starts worker threads that spin for a while after import; on a
            # 2-CPU machine they take a CPU from the two-thread cases. Nothing here uses BLAS.
            env = dict(os.environ, PYTHONPATH=str(Path(folder).resolve()), OPENBLAS_NUM_THREADS="1")
            child = subprocess.run([sys.executable, __file__, "--measure"], env=env, check=True,
                                   capture_output=True, text=True)
            for case, (wall, cpu) in json.loads(child.stdout).items():
                results[label].setdefault(case, []).append(wall)
                results[label].setdefault(case + "/cpu", []).append(cpu)
        if binary is not None:
            for t in THREADS:
                r = subprocess.run([str(binary), "100000", "64", str(t), str(REPEAT)], check=True,
                                   capture_output=True, text=True)
                results["engine"].setdefault(f"engine/64/{t}", []).append(float(r.stdout))
    medians = {label: {case: statistics.median(v) for case, v in cases.items()}
               for label, cases in results.items()}
    print(json.dumps(medians, indent=1))
    labels = list(pkgs)
    print("\n| case | " + " | ".join(f"{label} wall ms | {label} cpu ms" for label in labels) + " |")
    print("|---|" + "---|---|" * len(labels))
    nan = float("nan")
    for case in medians[labels[0]]:
        if case.endswith("/cpu"):
            continue
        print(f"| {case} | " + " | ".join(
            f"{medians[label].get(case, nan) * 1e3:.2f} | {medians[label].get(case + '/cpu', nan) * 1e3:.2f}"
            for label in labels) + " |")
    for case, seconds in medians["engine"].items():
        print(f"| {case} | {seconds * 1e3:.2f} (C++) |")
    print()
    for label in labels:
        m = medians[label]
        if "loop/64/1" in m and "lists/64/1" in m:
            print(f"{label}: lists/64/1 is {m['loop/64/1'] / m['lists/64/1']:.2f}x the loop (wall), "
                  f"{m['loop/64/1/cpu'] / m['lists/64/1/cpu']:.2f}x (cpu)")


if __name__ == "__main__":
    main()
