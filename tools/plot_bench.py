#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Plots the JSON written by `lwc bench --json FILE`: throughput (MB/s) against message size,
one line per algorithm, operation and backend.

    lwc bench -a ascon-aead128,ascon-hash256 --sizes 16,64,256,1K,4K,16K,64K --json bench.json
    python3 tools/plot_bench.py bench.json -o docs/bench-cli.png

Needs matplotlib (Debian: python3-matplotlib; pip: matplotlib).
"""

import argparse
import json
import sys


def load(paths):
    rows, meta = [], {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        meta = meta or doc
        rows.extend(doc["results"])
    return rows, meta


def size_label(n):
    for unit, shift in (("M", 20), ("K", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return "%d%s" % (n >> shift, unit)
    return str(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="+", help="files written by lwc bench --json")
    ap.add_argument("-o", "--output", default="bench.png", help="picture to write (PNG, SVG, PDF)")
    ap.add_argument("--title", help="title (default: the CPU named in the JSON)")
    ap.add_argument("--algorithm", action="append", help="only these algorithms (repeatable)")
    ap.add_argument("--operation", action="append", help="only these operations (repeatable)")
    ap.add_argument("--cpu", action="store_true",
                    help="plot MB per CPU second (steady on a shared machine) instead of per "
                         "wall-clock second")
    args = ap.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows, meta = load(args.json)
    series = {}
    for r in rows:
        if args.algorithm and r["algorithm"] not in args.algorithm:
            continue
        if args.operation and r["operation"] not in args.operation:
            continue
        key = (r["algorithm"], r["operation"], r["backend"])
        series.setdefault(key, []).append((r["bytes"], r["mb_per_cpu_s" if args.cpu else "mb_per_s"]))
    if not series:
        sys.exit("plot_bench.py: no results to plot")

    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    backends = sorted({k[2] for k in series})
    styles = ["-", "--", ":", "-."]
    for (alg, op, backend), points in sorted(series.items()):
        points.sort()
        xs, ys = zip(*points)
        label = "%s %s" % (alg, op) + ("" if len(backends) == 1 else " [%s]" % backend)
        ax.plot(xs, ys, marker="o", markersize=3, linestyle=styles[backends.index(backend) % 4],
                label=label)
    sizes = sorted({x for pts in series.values() for x, _ in pts})
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(s) for s in sizes])
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("MB per CPU second" if args.cpu else "MB/s")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    title = args.title or "lwc bench on %s" % meta.get("cpu", "unknown CPU")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=2, loc="upper left")
    fig.text(0.99, 0.01, "lwc %s, %s" % (meta.get("lwc_version", "?"), meta.get("compiler", "?")),
             ha="right", va="bottom", fontsize=6, color="gray")
    fig.tight_layout()
    fig.savefig(args.output)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
