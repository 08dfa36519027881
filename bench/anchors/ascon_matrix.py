#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc's Ascon core under each compiler and flag set, against ascon-c, in one process.

    python3 bench/anchors/ascon_matrix.py --ascon-c DIR [--build-dir build/ascon-matrix]
        [--configs 'g++:-O2,g++:-O3,...'] [--repetitions 11] [--min-ms 20]
        [--only aead128-encrypt] [--save run.json]
    python3 bench/anchors/ascon_matrix.py --load run.json [--before old.json]
        # the table of an earlier run (with --before: each cell "old -> run")

Builds bench/anchors/ascon_side.cpp (Ascon-AEAD128, Ascon-Hash256, Ascon-XOF128) once per
compiler and flag set, and ascon-c's opt64 and avx512 code (avx512 only where -march=native
provides AVX-512) with gcc -O3 -march=native, its best case. Each object keeps only its entry
points global, so the builds share nothing at link time; all are linked into one program
(ascon_matrix.cpp) that checks every build against the first and then times them in
alternating runs. DIR is a source tree of github:ascon/ascon-c (docs/PERFORMANCE.md says how
to get one); without it the script says so and exits 0.

A flag set may add -I DIR to time another copy of the headers (an earlier commit's include/)
side by side with this one.

The table: per lwc build, its ratio to the faster anchor at each operation and size (above 1:
lwc faster), the median over the repetitions of the ratio within each repetition. Ratios, not absolute MB/s, are the figure to
quote from a shared machine.
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import cpu_model  # noqa: E402  (the same machine line as the anchor tables)
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_CONFIGS = ("g++:-O2,g++:-O3,g++:-O3 -march=native,"
                   "clang++:-O2,clang++:-O3,clang++:-O3 -march=native")
ANCHOR_CC = "gcc"
ANCHOR_FLAGS = ["-O3", "-march=native"]
# (folder in ascon-c, symbol part, entry points) per algorithm.
ANCHOR_ALGORITHMS = [
    ("crypto_aead/asconaead128", "aead128", ["crypto_aead_encrypt:encrypt",
                                             "crypto_aead_decrypt:decrypt"]),
    ("crypto_hash/asconhash256", "hash256", ["crypto_hash:hash"]),
    ("crypto_hash/asconxof128", "xof128", ["crypto_hash:hash"]),
]
ANCHOR_VARIANTS = [("opt64", None), ("avx512", "__AVX512F__")]


def sh(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def out(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def symbol_of(compiler, flags):
    name = os.path.basename(compiler) + "_" + "_".join(flags.split())
    return "".join(c if c.isalnum() else "_" for c in name)


def keep_only(objects, keep, rename, target):
    """Partially links objects into target with only `keep` symbols global, renamed."""
    partial = target + ".partial.o"
    sh(["ld", "-r", "-o", partial] + objects)
    sh(["objcopy"] + [f"--keep-global-symbol={k}" for k in keep] + [partial, target + ".local.o"])
    redefine = []
    for old, new in rename:
        redefine += ["--redefine-sym", f"{old}={new}"]
    sh(["objcopy"] + redefine + [target + ".local.o", target])


def defines_macro(compiler, flags, macro):
    probe = out([compiler] + flags + ["-dM", "-E", "-x", "c", "/dev/null"])
    return f"#define {macro} " in probe


def build_anchors(ascon_c, build_dir):
    objects, entries = [], []
    for variant, isa in ANCHOR_VARIANTS:
        if isa and not defines_macro(ANCHOR_CC, ANCHOR_FLAGS, isa):
            print(f"ascon-c {variant}: left out, -march=native lacks {isa}", file=sys.stderr)
            continue
        for folder, alg, points in ANCHOR_ALGORITHMS:
            src = os.path.join(ascon_c, folder, variant)
            target = os.path.join(build_dir, f"anchor_{variant}_{alg}.o")
            if os.path.exists(target) and os.path.getmtime(target) > os.path.getmtime(src):
                objects.append(target)  # built by an earlier run from the same tree
                continue
            sources = sorted(f for f in os.listdir(src)
                             if f.endswith(".c") and not f.startswith(("genkat", "printstate")))
            objs = []
            for f in sources:
                o = os.path.join(build_dir, f"anchor_{variant}_{alg}_{f}.o")
                sh([ANCHOR_CC] + ANCHOR_FLAGS + ["-w", "-c", "-I", src, "-I",
                    os.path.join(HERE, "include"), os.path.join(src, f), "-o", o])
                objs.append(o)
            names = [p.split(":") for p in points]
            keep_only(objs, [n for n, _ in names],
                      [(n, f"anchor_{variant}_{alg}_{e}") for n, e in names], target)
            objects.append(target)
        entries.append(f'ANCHOR_BUILD({variant}, "ascon-c {variant}")')
    return objects, entries


def build_side(compiler, flags, build_dir):
    sym = symbol_of(compiler, flags)
    o = os.path.join(build_dir, f"lwc_{sym}.o")
    sh([compiler, "-std=c++20"] + flags.split() + [
        f"-DLWC_SIDE={sym}", "-I", os.path.join(ROOT, "include"), "-c",
        os.path.join(HERE, "ascon_side.cpp"), "-o", o + ".raw.o"])
    # The headers' inline functions sit in COMDAT groups, which the linker would merge across
    # builds whatever their binding: every defined symbol gets a prefix of this build, and the
    # undefined ones (the C++ runtime) get their names back.
    prefix = f"b_{sym}_"
    sh(["objcopy", f"--prefix-symbols={prefix}", o + ".raw.o", o + ".prefixed.o"])
    undefined = out(["nm", "-u", "--format=posix", o + ".prefixed.o"]).split("\n")
    restore = [(u.split()[0], u.split()[0][len(prefix):]) for u in undefined if u.strip()]
    keep = [f"lwc_{sym}_{op}" for op in ("encrypt", "decrypt", "hash256", "xof128")]
    keep_only([o + ".prefixed.o"], [prefix + k for k in keep] + [u for _, u in restore],
              [(prefix + k, k) for k in keep] + restore, o)
    version = out([compiler, "--version"]).splitlines()[0]
    return o, f'LWC_BUILD({sym}, "lwc {os.path.basename(compiler)} {flags}")', version


def build(args):
    os.makedirs(args.build_dir, exist_ok=True)
    objects, anchor_entries = build_anchors(args.ascon_c, args.build_dir)
    side_entries, versions = [], {}
    for config in args.configs.split(","):
        compiler, flags = config.split(":", 1)
        if not shutil.which(compiler):
            print(f"{compiler}: not found, left out", file=sys.stderr)
            continue
        print(f"building lwc with {compiler} {flags}", file=sys.stderr)
        o, entry, version = build_side(compiler, flags, args.build_dir)
        objects.append(o)
        side_entries.append(entry)
        versions[os.path.basename(compiler)] = version
    with open(os.path.join(args.build_dir, "matrix_sides.inc"), "w") as f:
        f.write("// Generated by ascon_matrix.py; the first build is the reference.\n")
        f.write("\n".join(side_entries + anchor_entries) + "\n")
    program = os.path.join(args.build_dir, "ascon_matrix")
    sh(["g++", "-std=c++20", "-O2", "-I", args.build_dir,
        os.path.join(HERE, "ascon_matrix.cpp")] + objects + ["-o", program])
    versions["anchors"] = f"{out([ANCHOR_CC, '--version']).splitlines()[0]}, " + \
        " ".join(ANCHOR_FLAGS)
    return program, versions


def commit_of(ascon_c, given):
    if given:
        return given
    try:
        return out(["git", "-C", ascon_c, "rev-parse", "HEAD"])
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def ratio_cell(reps, med, anchor_builds, op, n, build):
    """lwc / the anchor with the higher median, as the median of the ratios within each
    repetition: both sides of a ratio ran within the same shuffled round, so a burst of load
    that slows one round moves both."""
    anchors = [a for a in anchor_builds if (op, n, a) in med]
    if not anchors or (op, n, build) not in reps:
        return "-"
    best = max(anchors, key=lambda a: med[(op, n, a)])
    ratios = [x / y for x, y in zip(reps[(op, n, build)], reps[(op, n, best)])]
    return f"{statistics.median(ratios):.2f}"


def indexed(data):
    med, reps = {}, {}
    for r in data["results"]:
        key = (r["operation"], r["bytes"], r["build"])
        med[key] = statistics.median(r["bytes_per_second"])
        reps[key] = r["bytes_per_second"]
    return med, reps


def table(data, before=None):
    """With `before` (an earlier run), each ratio cell reads "before -> now"."""
    rows = data["results"]
    med, reps = indexed(data)
    old = indexed(before) if before else None
    ops = list(dict.fromkeys(r["operation"] for r in rows))
    sizes = sorted({r["bytes"] for r in rows})
    lwc_builds = list(dict.fromkeys(r["build"] for r in rows if not r["anchor"]))
    anchor_builds = list(dict.fromkeys(r["build"] for r in rows if r["anchor"]))
    info = data.get("machine", {})
    lines = [f"Machine: {info.get('cpu', '?')}; {info.get('date', '?')}; load average before / "
             f"after: {info.get('load', ['?', '?'])[0]} / {info.get('load', ['?', '?'])[1]}"]
    for k, v in info.get("compilers", {}).items():
        lines.append(f"- {k}: {v}")
    lines.append(f"- github:ascon/ascon-c `{info.get('ascon_c_commit', '?')}`")
    lines.append(f"{data['repetitions']} repetitions in one process, each timing every build "
                 "once in a random order (CPU time of the thread); ratio = lwc / the ascon-c "
                 "build with the higher median at that cell, the median of the ratios within "
                 "each repetition; anchors: median MB/s.")
    lines.append("")
    def label(n):
        return f"{n // 1024} KiB" if n >= 1024 else f"{n} B"
    for op in ops:
        lines.append(f"**{op}**")
        lines.append("")
        lines.append("| lwc built with | " + " | ".join(label(n) for n in sizes) + " |")
        lines.append("|---|" + "---:|" * len(sizes))
        for b in lwc_builds:
            cells = []
            for n in sizes:
                cell = ratio_cell(reps, med, anchor_builds, op, n, b)
                if old:
                    cell = f"{ratio_cell(old[1], old[0], anchor_builds, op, n, b)} → {cell}"
                cells.append(cell)
            lines.append(f"| {b.removeprefix('lwc ')} | " + " | ".join(cells) + " |")
        for a in anchor_builds:
            cells = [f"{med[(op, n, a)] / 1e6:.0f}" if (op, n, a) in med else "-"
                     for n in sizes]
            lines.append(f"| {a}, MB/s | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ascon-c", default=os.environ.get("LWC_ANCHOR_ASCON_C_DIR", ""),
                   help="source tree of github:ascon/ascon-c (default: $LWC_ANCHOR_ASCON_C_DIR)")
    p.add_argument("--ascon-c-commit", default="",
                   help="its commit id, for an exported tree without .git")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build", "ascon-matrix"))
    p.add_argument("--configs", default=DEFAULT_CONFIGS,
                   help="comma-separated compiler:flags; the first is the reference build")
    p.add_argument("--repetitions", type=int, default=11)
    p.add_argument("--min-ms", type=float, default=20, help="CPU ms per timing")
    p.add_argument("--only", help="one operation: aead128-encrypt, aead128-decrypt, hash256, xof128")
    p.add_argument("--save", help="write the results (with the machine information) here")
    p.add_argument("--load", help="print the table of a file written by --save; builds nothing")
    p.add_argument("--before", help="an earlier --save file: cells read 'before -> now'")
    args = p.parse_args()
    before = json.load(open(args.before)) if args.before else None
    if args.load:
        print(table(json.load(open(args.load)), before))
        return 0
    if not args.ascon_c or not os.path.isdir(os.path.join(args.ascon_c, "crypto_aead")):
        print("ascon_matrix: skipped, no ascon-c source tree (--ascon-c or "
              "LWC_ANCHOR_ASCON_C_DIR; docs/PERFORMANCE.md says how to get one)", file=sys.stderr)
        return 0
    program, versions = build(args)
    cmd = [program, f"--repetitions={args.repetitions}", f"--min-ms={args.min_ms}"]
    if args.only:
        cmd.append(f"--only={args.only}")
    load_before = os.getloadavg()[0]
    data = json.loads(subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout)
    data["machine"] = {
        "cpu": cpu_model(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
        "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "compilers": versions,
        "configs": args.configs,
        "ascon_c_commit": commit_of(args.ascon_c, args.ascon_c_commit),
    }
    if args.save:
        with open(args.save, "w") as f:
            json.dump(data, f, indent=1)
    print(table(data, before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
