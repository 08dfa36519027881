#!/usr/bin/env python3
"""Markdown tables for docs/performance-batch.md from lwc_batch_bench JSON output.

    lwc_batch_bench --benchmark_repetitions=5 --benchmark_format=json > run.json
    python3 bench/batch/tables.py run.json

One table per algorithm and operation: a row per message size, a column per backend and
thread count, each cell the median throughput in MB/s (10^6 bytes per second) and its ratio
to the single-message scalar code of the same run. Single-thread cells use CPU time (robust
to other processes taking the core away on a shared machine); multi-thread cells use wall
time, the only meaningful clock there, so they are only as good as the machine was quiet.
"""
import json
import statistics
import sys
from collections import defaultdict


def main(path):
    data = json.load(open(path))
    runs = defaultdict(list)  # name -> [(real_ns, cpu_ns, bytes)]
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b["run_name"].removesuffix("/real_time")
        per_iter = b["bytes_per_second"] * b["real_time"] * 1e-3  # bytes per iteration
        runs[name].append((b["real_time"], b["cpu_time"], per_iter))

    table = defaultdict(dict)  # (alg, op) -> {(size, backend, threads): MB/s}
    for name, samples in runs.items():
        _, alg, op, size, backend, threads = name.split("/")
        threads = int(threads)
        byts = samples[0][2]
        clock = [s[1] if threads == 1 else s[0] for s in samples]  # ms
        mbps = byts / (statistics.median(clock) * 1e-3) / 1e6
        table[(alg, op)][(size, backend, threads)] = mbps

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


if __name__ == "__main__":
    main(sys.argv[1])
