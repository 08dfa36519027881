#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Static estimates (llvm-mca) of the batch engine's lane loops on AArch64 cores.

No AArch64 machine is needed: the NEON and portable backend units are compiled to assembly with
the cross compiler for each -mcpu, the steady-state loop of a few lane kernels is cut out of
that assembly, and llvm-mca reports its cycles per iteration on that core's scheduling model.
Cycles per byte = cycles per iteration / (block bytes per lane x lanes). These are model
figures for a loop in the caches, never measurements; docs/performance-neon.md says what they
leave out.

  tools/neon-mca.py [--cpus cortex-a72,neoverse-v1] [--cxx aarch64-linux-gnu-g++]
                    [--mca llvm-mca-19] [--work build/neon/mca] [--show-loops]

The loop of a kernel is found by its shape, not by a label: the innermost loop of the engine's
steps function that holds the most instructions (the permutation, fully unrolled into the
block loop). --show-loops prints the instruction mix of every loop it chose, to check that
choice. The compiler is the one the cross stage builds with (GCC 12); llvm-mca 19 has the
Neoverse-V1 scheduling model, which llvm-mca 14 lacks.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Lanes per step of each backend (src/batch/backend_*.cpp): 64-bit kernels, 32-bit kernels.
LANES = {"neon": (4, 4), "portable": (2, 4)}

# Kernel: a regular expression for the demangled name of the function that holds its lane loop
# (the engine's steps(k): k blocks on every lane), the lane width its kernel uses, the bytes one
# lane takes per loop iteration, and the loop's work. Ascon-Hash256's sponge engine is named by
# its IV (hash256_params in include/lwc/ascon/hash.hpp).
KERNELS = [
    ("ascon-aead128 encrypt", r"lwc::ascon::detail::aead128_traits, false>( >)?::steps\(", 64, 16,
     "16-byte block + p^8"),
    ("ascon-hash256", rf"unkeyed_params<lwc::ascon::little_endian_lanes, {0x0000080100cc0002}ul, 12>, "
     r"false>( >)?::steps\(", 64, 8, "8-byte block + p^12"),
    ("xoodyak encrypt", r"xoodyak_lanes::aead_family<[^<>]*(<\d+ul>)?, false> >::steps\(", 32, 24,
     "24-byte block + Xoodoo[12]"),
    ("xoodyak-hash", r"xoodyak_lanes::hash_family<[^<>]*(<\d+ul> ?)?> >::steps\(", 32, 16,
     "16-byte block + Xoodoo[12]"),
]

# GCC writes conditional branches as bne, LLVM as b.ne.
BRANCH = re.compile(r"^\s*(b\.?(?:eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)|b|cbz|cbnz|tbz|tbnz)"
                    r"\s+(?:[^,]+,\s*)*(\.L\w+)\s*$")
LABEL = re.compile(r"^(\.L\w+):")


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def compile_all(cxx, cpus, work, keep):
    """Assembly of every backend for every CPU, the stale ones compiled side by side."""
    paths, jobs = {}, []
    newest = newest_source()
    for cpu in cpus:
        for backend in LANES:
            out = os.path.join(work, f"backend_{backend}.{cpu}.s")
            paths[backend, cpu] = out
            if os.path.exists(out) and (keep or os.path.getmtime(out) >= newest):
                continue
            src = os.path.join(ROOT, "src", "batch", f"backend_{backend}.cpp")
            # The Release build's flags (CMake: -O3 -DNDEBUG, position independent).
            cmd = [cxx, "-std=gnu++20", "-O3", "-DNDEBUG", "-fPIC", f"-mcpu={cpu}",
                   "-DLWC_REGISTRY_COMPILED=1", "-I", os.path.join(ROOT, "include"), "-S",
                   "-o", out + ".tmp", src]
            jobs.append((subprocess.Popen(cmd), out))
    for proc, out in jobs:
        if proc.wait() != 0:
            sys.exit(f"compiling {out} failed")
        os.replace(out + ".tmp", out)
    return paths


def newest_source():
    t = 0.0
    for d in ("src/batch", "src/simd", "include/lwc"):
        for base, _, files in os.walk(os.path.join(ROOT, d)):
            for f in files:
                t = max(t, os.path.getmtime(os.path.join(base, f)))
    return t


def functions(asm_path, cxxfilt):
    """{demangled name: [lines]} of every function in the assembly file."""
    funcs, name, body = {}, None, []
    with open(asm_path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^\s*\.type\s+([^,]+),\s*%function", line)
            if m:
                name, body = m.group(1), []
                continue
            if name and re.match(r"^\s*\.size\s+" + re.escape(name) + r",", line):
                funcs[name] = body
                name = None
                continue
            if name:
                body.append(line)
    names = list(funcs)
    demangled = run([cxxfilt], input="\n".join(names)).splitlines()
    return {d: funcs[n] for n, d in zip(names, demangled)}


def is_instruction(line):
    s = line.strip()
    return bool(s) and not s.startswith((".", "//", "@")) and not LABEL.match(s) and ":" not in s.split()[0]


def loops(body):
    """(start, end) line ranges of the loops: a label and a later branch back to it."""
    where = {}
    found = []
    for i, line in enumerate(body):
        m = LABEL.match(line.strip())
        if m:
            where[m.group(1)] = i
        m = BRANCH.match(line)
        if m and m.group(2) in where:
            found.append((where[m.group(2)], i))
    return found


def lane_loop(body):
    """The innermost loop with the most instructions."""
    spans = loops(body)
    inner = [s for s in spans if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]
    if not inner:
        return None
    best = max(inner, key=lambda s: sum(is_instruction(l) for l in body[s[0]:s[1] + 1]))
    return [l.strip() for l in body[best[0]:best[1] + 1] if is_instruction(l)]


def mix(instrs):
    c = collections.Counter(i.split()[0] for i in instrs)
    return ", ".join(f"{k} {v}" for k, v in c.most_common(8))


def cycles_per_iteration(mca, cpu, instrs, iterations=300):
    out = run([mca, "-mtriple=aarch64-linux-gnu", f"-mcpu={cpu}", f"-iterations={iterations}"],
              input="\n".join(instrs) + "\n")
    total = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
    return total / iterations


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpus", default="cortex-a72,neoverse-v1")
    ap.add_argument("--cxx", default="aarch64-linux-gnu-g++")
    ap.add_argument("--cxxfilt", default="aarch64-linux-gnu-c++filt")
    ap.add_argument("--mca", default="llvm-mca-19")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "neon", "mca"))
    ap.add_argument("--show-loops", action="store_true")
    ap.add_argument("--keep-asm", action="store_true",
                    help="reuse the assembly files in --work even if a source is newer")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    print("| kernel | loop | cpu | portable c/B | neon c/B | portable / neon |")
    print("|---|---|---|---:|---:|---:|", flush=True)
    cpus = args.cpus.split(",")
    asm = compile_all(args.cxx, cpus, args.work, args.keep_asm)
    for cpu in cpus:
        funcs = {b: functions(asm[b, cpu], args.cxxfilt) for b in LANES}
        for label, pattern, width, block, work in KERNELS:
            cpb = {}
            for backend, table in funcs.items():
                names = [n for n in table if re.search(pattern, n)]
                if len(names) != 1:
                    sys.exit(f"{label} on {backend}: expected one function matching {pattern!r}, "
                             f"found {len(names)}")
                instrs = lane_loop(table[names[0]])
                if instrs is None:
                    sys.exit(f"{label} on {backend}: no loop found")
                lanes = LANES[backend][0 if width == 64 else 1]
                cyc = cycles_per_iteration(args.mca, cpu, instrs)
                cpb[backend] = cyc / (block * lanes)
                if args.show_loops:
                    print(f"  {label}, {backend}, {cpu}: {len(instrs)} instructions, "
                          f"{cyc:.0f} cycles per iteration, {lanes} lanes x {block} B: "
                          f"{mix(instrs)}", file=sys.stderr)
            print(f"| {label} | {work} | {cpu} | {cpb['portable']:.2f} | {cpb['neon']:.2f} | "
                  f"{cpb['portable'] / cpb['neon']:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
