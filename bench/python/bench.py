#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Per-call time and throughput of the lwc Python package next to the C++ core.

Runs the C++ benchmark (build/py-bench/cmake/bench/lwc_bench, names
<algorithm>/<operation>/<bytes>) and the same operations through the Python API, each Python measurement paired with
a C++ measurement of the same operation taken next to it, so that both sides of a comparison
see the same machine noise; prints the medians as a Markdown table.

Same inputs as bench/algorithms_bench.cpp: key bytes 0x01, nonce 0x02, 32 bytes of associated
data 0x03, message 0x04 (hashes: 0x05, 32 bytes of output). Both sides are timed in CPU time
(google-benchmark's cpu_time, time.process_time for timeit): on a shared, oversubscribed
machine wall time mostly measures the other processes. Python timings include the
interpreter's call overhead; MB = 10^6 bytes.

    python -m pip install .                      # the package under test
    python bench/python/bench.py --build         # builds the C++ side into build/py-bench
    python bench/python/bench.py --rounds 9 --algorithms all --json out.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

import lwc

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "py-bench"
LWC_BENCH = BUILD / "cmake" / "bench" / "lwc_bench"
SIZES = (64, 65536, 1 << 20)
DEFAULT_ALGORITHMS = "ascon-aead128,ascon-128,ascon-128a,ascon-80pq,ascon-hash256,ascon-xof128"
PURE_PYTHON_VARIANTS = {"ascon-128": "Ascon-128", "ascon-128a": "Ascon-128a",
                        "ascon-80pq": "Ascon-80pq", "ascon-hash": "Ascon-Hash",
                        "ascon-xof": "Ascon-Xof"}


def build_cxx(jobs: int) -> None:
    cmake_dir = BUILD / "cmake"
    subprocess.run(
        ["cmake", "-S", str(ROOT), "-B", str(cmake_dir), "-DCMAKE_BUILD_TYPE=Release",
         "-DLWC_BUILD_TESTS=OFF", "-DLWC_BUILD_EXAMPLES=OFF", "-DLWC_BUILD_CAPI=OFF",
         "-DLWC_BUILD_CLI=OFF", "-DLWC_ENABLE_CUDA=OFF", "-DLWC_BUILD_BENCH=ON"],
        check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(cmake_dir), "--target", "lwc_bench", f"-j{jobs}"],
                   check=True)


def run_cxx(binary: Path, names: list[str], min_time: float) -> dict[str, float]:
    """Seconds per call for each benchmark name the binary has."""
    if not names:
        return {}
    # google-benchmark's regex dialect rejects Python's escaped '-', so only metacharacters.
    pattern = "^(" + "|".join(re.sub(r"([.+*?()\[\]{}|^$\\])", r"\\\1", n) for n in names) + ")$"
    out = subprocess.run(
        [str(binary), f"--benchmark_filter={pattern}", f"--benchmark_min_time={min_time}",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    return {b["name"]: b["cpu_time"] * scale[b["time_unit"]]
            for b in json.loads(out)["benchmarks"] if b.get("run_type", "iteration") == "iteration"}


class Case:
    """One Python operation: a timeit statement, its namespace, and the C++ name it matches."""

    def __init__(self, name: str, cxx: str, nbytes: int, stmt: str, ns: dict) -> None:
        self.name, self.cxx, self.nbytes = name, cxx, nbytes
        self.timer = timeit.Timer(stmt, timer=time.process_time, globals=ns)
        self.number = 1
        self.samples: list[float] = []
        self.cxx_samples: list[float] = []

    def calibrate(self, min_time: float) -> None:
        number, elapsed = self.timer.autorange()
        self.number = max(1, round(number * min_time / max(elapsed, 1e-9)))

    def run(self) -> None:
        self.samples.append(self.timer.timeit(self.number) / self.number)


def python_cases(info: lwc.AlgorithmInfo) -> list[Case]:
    cases = []
    cls = getattr(lwc, info.python_name)
    for n in SIZES:
        if info.kind == "aead":
            a = cls(bytes([1]) * info.key_size)
            nonce, ad, m = bytes([2]) * info.nonce_size, bytes([3]) * 32, bytes([4]) * n
            c = a.encrypt(nonce, m, ad)
            ns = {"a": a, "nonce": nonce, "ad": ad, "m": m, "c": c,
                  "buf": bytearray(len(c)), "out": bytearray(n)}
            base = f"{info.name}/{{}}/{n}"
            cases.append(Case(base.format("encrypt"), base.format("encrypt"), n,
                              "a.encrypt(nonce, m, ad)", ns))
            cases.append(Case(base.format("decrypt"), base.format("decrypt"), n,
                              "a.decrypt(nonce, c, ad)", ns))
            if n >= 65536:
                cases.append(Case(base.format("encrypt_into"), base.format("encrypt"), n,
                                  "a.encrypt_into(nonce, m, ad, buf)", ns))
                cases.append(Case(base.format("decrypt_into"), base.format("decrypt"), n,
                                  "a.decrypt_into(nonce, c, ad, out)", ns))
        elif info.kind in ("hash", "xof", "cxof"):
            op = "hash" if info.kind == "hash" else "xof"
            stmt = "cls(m).digest()" if info.kind == "hash" else "cls(m).digest(32)"
            name = f"{info.name}/{op}/{n}"
            cases.append(Case(name, name, n, stmt, {"cls": cls, "m": bytes([5]) * n}))
    return cases


def pure_python_cases(info: lwc.AlgorithmInfo) -> list[Case]:
    """The `ascon` package from PyPI, if installed, on the small sizes only (it is slow)."""
    try:
        import ascon
    except ImportError:
        return []
    variant = PURE_PYTHON_VARIANTS.get(info.name)
    if variant is None:
        return []
    cases = []
    for n in (64, 65536):
        if info.kind == "aead":
            ns = {"ascon": ascon, "k": bytes([1]) * info.key_size, "nonce": bytes([2]) * 16,
                  "ad": bytes([3]) * 32, "m": bytes([4]) * n, "v": variant}
            name = f"{info.name}/encrypt/{n}"
            cases.append(Case(name, name, n, "ascon.encrypt(k, nonce, ad, m, v)", ns))
        else:
            ns = {"ascon": ascon, "m": bytes([5]) * n, "v": variant}
            name = f"{info.name}/{'hash' if info.kind == 'hash' else 'xof'}/{n}"
            cases.append(Case(name, name, n, "ascon.hash(m, v, 32)", ns))
    return cases


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"Model name:\s*(.+)", out)
        if m:
            return m.group(1).strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def compiler() -> str:
    try:
        return subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def fmt_time(s: float) -> str:
    return f"{s * 1e9:.0f} ns" if s < 1e-4 else f"{s * 1e6:.0f} µs"


def fmt_rate(nbytes: int, s: float) -> str:
    return f"{nbytes / s / 1e6:.1f} MB/s"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", action="store_true", help="build the C++ side first")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rounds", type=int, default=7, help="rounds of paired measurements (medians)")
    p.add_argument("--min-time", type=float, default=0.2, help="seconds per measurement")
    p.add_argument("--algorithms", default=DEFAULT_ALGORITHMS, help="comma-separated, or 'all'")
    p.add_argument("--no-pure-python", action="store_true", help="skip the `ascon` package")
    p.add_argument("--json", type=Path, help="also write every sample here")
    args = p.parse_args()

    if args.build:
        build_cxx(args.jobs)
    if not LWC_BENCH.exists():
        sys.exit(f"{LWC_BENCH} is missing: run with --build")

    wanted = ([i.name for i in lwc.algorithms()] if args.algorithms == "all"
              else args.algorithms.split(","))
    infos = [i for i in lwc.algorithms() if i.name in wanted]
    cases = [c for i in infos for c in python_cases(i)]
    pure = [] if args.no_pure_python else [c for i in infos for c in pure_python_cases(i)]
    for c in cases + pure:
        c.calibrate(args.min_time)
    # Each Python measurement is paired with a C++ measurement of the same operation taken
    # right before or after it (the order alternates by round), so that the slow drifts of a
    # shared machine hit both sides of a pair alike.
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
        python_first = r % 2 == 1
        for c in cases:
            if python_first:
                c.run()
            c.cxx_samples.append(run_cxx(LWC_BENCH, [c.cxx], args.min_time)[c.cxx])
            if not python_first:
                c.run()
        if r < 3:  # three samples are enough to place the pure-Python code
            for c in pure:
                c.run()

    med = statistics.median
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs visible; {platform.system()} "
          f"{platform.release()}")
    print(f"- compiler: {compiler()}; Python {platform.python_version()}; lwc {lwc.__version__}")
    print(f"- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}")
    print(f"- method: {args.rounds} rounds; in each, every Python measurement is paired with a "
          f"C++ one taken next to it; CPU time; medians over rounds; each measurement >= "
          f"{args.min_time} s")
    print()
    print("| benchmark | C++ (median) | Python (median) | Python vs C++ (median of pairs) |")
    print("|---|---|---|---|")
    for c in cases:
        py, cc = med(c.samples), med(c.cxx_samples)
        label = "" if c.name == c.cxx else f" (C++ `{c.cxx.split('/')[1]}`)"
        if c.nbytes <= 64:
            diff = med(p - q for p, q in zip(c.samples, c.cxx_samples))
            print(f"| `{c.name}`{label} | {fmt_time(cc)} | {fmt_time(py)} | "
                  f"{diff * 1e9:+.0f} ns per call |")
        else:
            ratio = med(q / p for p, q in zip(c.samples, c.cxx_samples))
            print(f"| `{c.name}`{label} | {fmt_rate(c.nbytes, cc)} | {fmt_rate(c.nbytes, py)} | "
                  f"{100 * ratio:.1f} % of the C++ throughput |")
    if pure:
        print()
        print("| benchmark | pure-Python `ascon` (PyPI) | lwc (Python) |")
        print("|---|---|---|")
        by_name = {c.name: c for c in cases}
        for c in pure:
            ours = by_name.get(c.name)
            ours_s = (fmt_time(med(ours.samples)) if ours and c.nbytes <= 64 else
                      fmt_rate(c.nbytes, med(ours.samples)) if ours else "–")
            theirs = (fmt_time(med(c.samples)) if c.nbytes <= 64 else fmt_rate(c.nbytes, med(c.samples)))
            print(f"| `{c.name}` | {theirs} | {ours_s} |")
    if args.json:
        args.json.write_text(json.dumps({
            "cxx": {c.name: c.cxx_samples for c in cases},
            "python": {c.name: c.samples for c in cases},
            "pure_python": {c.name: c.samples for c in pure},
        }, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
