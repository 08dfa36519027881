#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Markdown tables for docs/performance-batch.md from lwc_batch_bench JSON output.

    lwc_batch_bench --benchmark_repetitions=5 --benchmark_format=json > run.json
    python3 bench/batch/tables.py run.json [more.json ...]
    python3 bench/batch/tables.py --summary run.json   # one table, every algorithm

One table per algorithm and operation: a row per message size, a column per backend and
thread count, each cell the median throughput in MB/s (10^6 bytes per second) and its ratio
to the single-message scalar code of the same run. With --summary: one row per algorithm and
operation, one thread, at 64 B, 1 KiB and 16 KiB: the single-message code, the portable
backend (marked "jbj" where it runs the algorithm job by job) and the widest x86 backend with
its ratio to the single-message code.

Single-thread cells use CPU time (robust
to other processes taking the core away on a shared machine); multi-thread cells use wall
time, the only meaningful clock there, so they are only as good as the machine was quiet.
A last table gives each multi-thread run against the single-thread run of the same
configuration, both by wall time.
"""
import json
import statistics
import sys
from collections import defaultdict


def summary(table, lanes):
    """One row per algorithm and operation: single / portable / widest backend, one thread."""
    sizes = ("64", "1024", "16384")
    print("| algorithm, operation | " + " | ".join(
        f"{label}: single | portable | lanes" for label in ("64 B", "1 KiB", "16 KiB")) + " |")
    print("|---|" + "---:|" * (3 * len(sizes)))
    for (alg, op), cells in sorted(table.items()):
        wide = next((b for b in ("avx512", "avx2") if any(k[1] == b for k in cells)), None)
        row = [f"{alg} {op}"]
        for s in sizes:
            base = cells.get((s, "scalar", 1))
            port = cells.get((s, "portable", 1))
            top = cells.get((s, wide, 1)) if wide else None
            row.append(f"{base:.0f}" if base else "–")
            mark = "" if lanes.get((alg, op, s, "portable"), 1) else " jbj"
            row.append(f"{port:.0f}{mark}" if port else "–")
            top_mark = "" if lanes.get((alg, op, s, wide), 1) else " jbj"
            row.append(f"{top:.0f}{top_mark} ({top / base:.1f}x)" if top and base else "–")
        print("| " + " | ".join(row) + " |")


def main(args):
    brief = "--summary" in args
    paths = [a for a in args if a != "--summary"]
    benchmarks = [b for p in paths for b in json.load(open(p))["benchmarks"]]
    runs = defaultdict(list)  # name -> [(real_ns, cpu_ns, bytes)]
    lanes = {}  # (alg, op, size, backend) -> 1 with lanes, 0 job by job
    for b in benchmarks:
        if b.get("run_type") != "iteration":
            continue
        name = b["run_name"].removesuffix("/real_time")
        per_iter = b["bytes_per_second"] * b["real_time"] * 1e-3  # bytes per iteration
        runs[name].append((b["real_time"], b["cpu_time"], per_iter))
        if "lanes" in b:
            _, alg, op, size, backend, _ = name.split("/")
            lanes[(alg, op, size, backend)] = int(b["lanes"])

    table = defaultdict(dict)  # (alg, op) -> {(size, backend, threads): MB/s}
    wall = {}  # (alg, op, size, backend, threads) -> MB/s by wall time
    for name, samples in runs.items():
        _, alg, op, size, backend, threads = name.split("/")
        threads = int(threads)
        byts = samples[0][2]
        clock = [s[1] if threads == 1 else s[0] for s in samples]  # ms
        mbps = byts / (statistics.median(clock) * 1e-3) / 1e6
        table[(alg, op)][(size, backend, threads)] = mbps
        wall[(alg, op, size, backend, threads)] = byts / (statistics.median(s[0] for s in samples) * 1e-3) / 1e6

    if brief:
        summary(table, lanes)
        return
    for (alg, op), cells in table.items():
        sizes = sorted({k[0] for k in cells}, key=lambda s: (s == "mixed", int(s) if s.isdigit() else 0))
        cols = sorted({(k[1], k[2]) for k in cells if k[1] != "scalar"},
                      key=lambda c: (["portable", "avx2", "avx512"].index(c[0]), c[1]))
        print(f"\n#### {alg} {op}\n")
        print("| bytes | scalar | " + " | ".join(f"{b} x{t}" for b, t in cols) + " |")
        print("|---|---|" + "---|" * len(cols))
        for s in sizes:
            base = cells.get((s, "scalar", 1))
            row = [s, f"{base:.0f}" if base else "–"]
            for b, t in cols:
                v = cells.get((s, b, t))
                row.append(f"{v:.0f} ({v / base:.2f}x)" if v and base else "–")
            print("| " + " | ".join(row) + " |")

    scaling = [(k, wall[k] / wall[k[:4] + (1,)]) for k in wall if k[4] > 1 and k[:4] + (1,) in wall]
    if scaling:
        print("\n#### threads: wall-clock throughput relative to one thread, same run\n")
        print("| algorithm | operation | bytes | backend | threads | MB/s | vs 1 thread |")
        print("|---|---|---|---|---|---|---|")
        for k, r in sorted(scaling):
            print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {k[4]} | {wall[k]:.0f} | {r:.2f}x |")


if __name__ == "__main__":
    main(sys.argv[1:])
