#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Tables of docs/HARDWARE.md from what the scripts printed.

    hw/synth/table.py RESULTS.txt... [--cycles hw/build/*.out]

RESULTS.txt: lines of hw/synth.sh; the .out files: hw/run-tests.sh's per-configuration output,
whose "cycles" lines give the clocks of single jobs. The designers' clock counts are the ones
published in their README (github.com/rprimas/ascon-verilog, Performance): 1 KiB message and
1 KiB associated data. Every other number is computed from those inputs as stated below.
"""
import math
import re
import sys

# Published by the designers: (cycles for x=0,y=0), (x=1024, y=1024) per variant.
DESIGNERS = {"V1": (41, 1587, 1, 32), "V2": (29, 1059, 2, 32), "V3": (23, 795, 4, 32),
             "V4": (35, 1325, 1, 64), "V5": (23, 797, 2, 64), "V6": (17, 533, 4, 64)}


def main(argv):
    results, cycles, files = {}, {}, []
    it = iter(argv)
    mode = "results"
    for a in it:
        if a == "--cycles":
            mode = "cycles"
            continue
        files.append((mode, a))
    for mode, path in files:
        for line in open(path):
            if mode == "results":
                m = re.match(r"(\S+)\s+ice40_lut4=(\d+)\s+ice40_ff=(\d+)\s+xc7_lut=(\d+)\s+xc7_ff=(\d+)\s+hx8k_fmax_mhz=(\S+)", line)
                if m:
                    results[m.group(1)] = m.groups()[1:]
            else:
                m = re.match(r"(\S+): cycles (\S+) ad=(\d+) msg=(\d+): (\d+)", line)
                if m:
                    cycles[(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)))] = int(m.group(5))

    def fmt(x, nd=0):
        return "-" if x is None else f"{x:,.{nd}f}"

    print("| core | rounds/clock | iCE40 LUT4 | iCE40 FF | HX8K fmax (MHz) | 7-series LUT | 7-series FF "
          "| clocks per 16-B block | clocks, 1 KiB msg + 1 KiB AD | Mbit/s at fmax | kbit/s per LUT4 "
          "| bits per clock per 1000 LUT4 | bits per clock per 1000 7-series LUTs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows, metrics = [], {}
    for r in (1, 2, 3, 4, 6):
        name = f"lwc-ascon-r{r}"
        c = cycles.get((f"ascon-r{r}", "ascon-aead128", 1024, 1024))
        rows.append((name, r, f"{math.ceil(8 / r)}", c))
    for v, (c0, c1, urol, ccw) in DESIGNERS.items():
        rows.append((f"designers-{v} ({ccw}-bit bus)", urol, f"{(c1 - c0) / 128:.2f}", c1))
    for name, r, per_block, c in rows:
        key = name.split(" ")[0]
        if key not in results:
            continue
        lut, ff, xlut, xff, fmax = results[key]
        f = float(fmax) if re.match(r"^[0-9.]+$", fmax) else None
        mbps = 2048 * 8 / c * f if (c and f) else None
        per_lut = mbps / int(lut) * 1000 if mbps else None
        per_xlut = 2048 * 8 / c / int(xlut) * 1000 if c else None
        per_lut_clock = 2048 * 8 / c / int(lut) * 1000 if c else None
        metrics[key] = (per_lut, per_lut_clock, per_xlut)
        print(f"| {name} | {r} | {int(lut):,} | {int(ff):,} | {fmax if f else fmax} | {int(xlut):,} | {int(xff):,} "
              f"| {per_block} | {fmt(c)} | {fmt(mbps, 1)} | {fmt(per_lut, 1)} | {fmt(per_lut_clock, 2)} "
              f"| {fmt(per_xlut, 2)} |")

    print()
    print("| lwc : designers, equal unrolling | throughput per LUT4 at fmax | bits per clock per LUT4 "
          "| bits per clock per 7-series LUT |")
    print("|---|---:|---:|---:|")
    for r, variants in ((1, ("V1", "V4")), (2, ("V2", "V5")), (4, ("V3", "V6"))):
        mine = metrics.get(f"lwc-ascon-r{r}")
        for v in variants:
            theirs = metrics.get(f"designers-{v}")
            if not mine or not theirs:
                continue
            ratio = [f"{a / b:.2f}x" if (a and b) else "-" for a, b in zip(mine, theirs)]
            print(f"| {r} round(s): lwc-ascon-r{r} : designers-{v} | " + " | ".join(ratio) + " |")

    print()
    print("| core | bits/clock | iCE40 LUT4 | iCE40 FF | HX8K fmax (MHz) | 7-series LUT | 7-series FF "
          "| clocks, 4 KiB msg + 32 B AD | MB/s at fmax (4 KiB + 32 B) | clocks, 64 B msg + 32 B AD | MB/s at fmax (64 B + 32 B) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for w in (8, 16, 32, 64):
        key = f"lwc-acorn-w{w}"
        if key not in results:
            continue
        lut, ff, xlut, xff, fmax = results[key]
        f = float(fmax) if re.match(r"^[0-9.]+$", fmax) else None
        c4 = cycles.get((f"acorn-w{w}", "acorn-128", 32, 4096))
        c64 = cycles.get((f"acorn-w{w}", "acorn-128", 32, 64))
        mb4 = 4096 / c4 * f if (c4 and f) else None
        mb64 = 64 / c64 * f if (c64 and f) else None
        print(f"| {key} | {w} | {int(lut):,} | {int(ff):,} | {fmax} | {int(xlut):,} | {int(xff):,} "
              f"| {fmt(c4)} | {fmt(mb4, 1)} | {fmt(c64)} | {fmt(mb64, 1)} |")


if __name__ == "__main__":
    main(sys.argv[1:])
