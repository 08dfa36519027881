#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc against its anchors: runs lwc_anchor_bench and prints a markdown table of medians.

    python3 bench/anchors/compare.py [--program build/bench/anchors/lwc_anchor_bench]
        [--repetitions 10] [--min-time 0.2] [--filter REGEX] [--save run.json]
    python3 bench/anchors/compare.py --load run.json [--wide]   # the table of an earlier run

Every benchmark runs --repetitions times with Google Benchmark's random interleaving, so lwc
and its anchors alternate on the same machine in one process; each cell is the median over the
repetitions of the throughput by CPU time (robust to other processes taking the core away on a
shared machine), in MB/s (10^6 bytes per second). The ratio is lwc / anchor: above 1, lwc is
faster. The header records the machine, compilers, flags and the anchors' commits.

With --best, each cell is the fastest repetition of each side instead of the median: on a guest
whose neighbours slow it down in bursts longer than a repetition, the fastest repetition is
the speed the code reaches when it has the core, and the ratio of two bests is steadier than
the ratio of two medians that bursts hit unevenly.
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
from collections import defaultdict

TREES = {  # context key -> where the tree comes from
    "anchor_commit_ascon_c": "github:ascon/ascon-c",
    "anchor_commit_nist": "github:usnistgov/Lightweight-Cryptography-Benchmarking",
    "anchor_commit_rweather": "github:rweather/lwc-finalists",
    "anchor_commit_grain": "github:Noxet/Grain-128AEAD",
}


def cpu_model():
    """lscpu's model name, with family and model numbers (virtual machines often report a
    bare "AMD EPYC" or "Intel(R) Xeon(R) Processor")."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        if "Model name" in fields:
            return "{} (family {}, model {})".format(
                fields["Model name"], fields.get("CPU family", "?"), fields.get("Model", "?"))
    except (OSError, subprocess.CalledProcessError):
        pass
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def run(args):
    cmd = [args.program, f"--benchmark_repetitions={args.repetitions}",
           "--benchmark_enable_random_interleaving=true", f"--benchmark_min_time={args.min_time}",
           "--benchmark_format=json"]
    if args.filter:
        cmd.append(f"--benchmark_filter={args.filter}")
    load_before = os.getloadavg()[0]
    # The correctness report goes to stderr, straight to the terminal.
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
    data = json.loads(out)
    data["context"]["compare_py"] = {
        "cpu_model": cpu_model(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
        "load_average": [load_before, os.getloadavg()[0]],
        "command": " ".join(cmd),
    }
    return data


def table(data, wide=False, best=False):
    ctx = data["context"]
    info = ctx.get("compare_py", {})
    rates = defaultdict(list)  # (algorithm, operation, bytes, implementation) -> [B/s]
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or "bytes_per_second" not in b:
            continue
        m = re.fullmatch(r"([^/]+)/([^/]+)/(\d+)/([^/]+)", b["run_name"])
        if m:
            rates[m.groups()].append(b["bytes_per_second"])
    pick = max if best else statistics.median
    med = {k: pick(v) / 1e6 for k, v in rates.items()}
    reps = max((len(v) for v in rates.values()), default=0)

    lines = []
    lines.append(f"Machine: {info.get('cpu_model', 'unknown CPU')}, {ctx.get('num_cpus')} CPUs "
                 f"({ctx.get('mhz_per_cpu')} MHz reported); {info.get('date', ctx.get('date'))}")
    if "load_average" in info:
        lines.append("Load average before / after: {:.2f} / {:.2f}".format(*info["load_average"]))
    lines.append(f"lwc: {ctx.get('lwc_compiler')}, `{ctx.get('lwc_flags')}`; anchors: "
                 f"{ctx.get('anchor_compiler')}, `{ctx.get('anchor_flags')}`")
    for key, repo in TREES.items():
        commit = ctx.get(key, "")
        if commit:
            lines.append(f"- {repo} `{commit}`")
    lines.append(f"Anchors that disagree with lwc (not timed): {ctx.get('anchors_disagreeing', '?')}")
    statistic = "Fastest" if best else "Medians"
    lines.append(f"{statistic} of {reps} interleaved repetitions, throughput by CPU time, MB/s; "
                 "ratio = lwc / anchor (above 1: lwc faster).")
    lines.append("")
    def cell(lwc, v, long):
        if lwc is None:
            return f"- / {v:.1f}" if long else "-"
        return f"{lwc:.1f} / {v:.1f} (**{lwc / v:.2f}**)" if long else f"**{lwc / v:.2f}**"

    # Random interleaving shuffles the JSON: sort by algorithm, anchor, size.
    keys = sorted((k for k in med if k[3] != "lwc"), key=lambda k: (k[0], k[1], k[3], int(k[2])))
    if wide:  # a row per algorithm and anchor, a column per size
        sizes = sorted({int(k[2]) for k in keys})
        lines.append("| algorithm | operation | anchor | " +
                     " | ".join(f"{n} B: lwc / anchor MB/s (ratio)" for n in sizes) + " |")
        lines.append("|---|---|---|" + "---:|" * len(sizes))
        rows = sorted({(k[0], k[1], k[3]) for k in keys})
        for alg, op, impl in rows:
            cells = []
            for n in sizes:
                v = med.get((alg, op, str(n), impl))
                cells.append(cell(med.get((alg, op, str(n), "lwc")), v, True) if v else "")
            lines.append(f"| {alg} | {op} | {impl} | " + " | ".join(cells) + " |")
    else:  # a row per benchmark
        lines.append("| algorithm | operation | bytes | lwc | anchor | anchor MB/s | lwc / anchor |")
        lines.append("|---|---|---:|---:|---|---:|---:|")
        for alg, op, n, impl in sorted(keys, key=lambda k: (k[0], k[1], int(k[2]), k[3])):
            v = med[(alg, op, n, impl)]
            lwc = med.get((alg, op, n, "lwc"))
            lwc_cell = f"{lwc:.1f}" if lwc else "-"
            lines.append(f"| {alg} | {op} | {n} | {lwc_cell} | {impl} | {v:.1f} | {cell(lwc, v, False)} |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--program", default="build/bench/anchors/lwc_anchor_bench")
    p.add_argument("--repetitions", type=int, default=10)
    p.add_argument("--min-time", type=float, default=0.2, help="seconds per repetition")
    p.add_argument("--filter", help="Google Benchmark filter, e.g. '^ascon-aead128/'")
    p.add_argument("--save", help="write the raw JSON (with the machine information) here")
    p.add_argument("--load", help="print the table of a JSON saved by --save; runs nothing")
    p.add_argument("--wide", action="store_true",
                   help="a row per algorithm and anchor, a column per size")
    p.add_argument("--best", action="store_true",
                   help="the fastest repetition of each side instead of the median")
    args = p.parse_args()
    if args.load:
        data = json.load(open(args.load))
    else:
        data = run(args)
        if args.save:
            json.dump(data, open(args.save, "w"), indent=1)
    print(table(data, args.wide, args.best))


if __name__ == "__main__":
    sys.exit(main())
