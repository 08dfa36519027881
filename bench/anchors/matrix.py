#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""One family of lwc's cores under each compiler and flag set, against its anchors, in one process.

    python3 bench/anchors/matrix.py --family ascon|sparkle|xoodyak|tinyjambu
        [--ascon-c DIR] [--nist DIR] [--rweather DIR] [--build-dir build/matrix-FAMILY]
        [--configs 'g++:-O2,g++:-O3,...'] [--anchor-flags '-O3 -march=native,-O3']
        [--repetitions 11] [--min-ms 20] [--sizes 64,1024,...] [--only esch256,...]
        [--busy-cpu N] [--save run.json]
    python3 bench/anchors/matrix.py --load run.json [--before old.json]
        # the table of an earlier run (with --before: each cell "old -> run")

Builds bench/anchors/matrix_side.cpp (the family's algorithms) once per compiler and flag set,
and the family's anchors with gcc under each --anchor-flags set: the designers' code listed in
anchors.def (ascon-c for Ascon, github:usnistgov/Lightweight-Cryptography-Benchmarking for the
finalists) and rweather/lwc-finalists' src/combined files of the family. An anchor written with
intrinsics is built only where the flags provide them. Each object keeps only its entry points
global, so the builds share nothing at link time; all are linked into one program (matrix.cpp)
that checks every implementation against the first lwc build and then times them in
alternating runs. The source trees come from the options or LWC_ANCHOR_<TREE>_DIR
(docs/PERFORMANCE.md says how to get them); a tree that is absent leaves its anchors out, and
with none of the family's trees the script says so and exits 0.

A flag set may add -I DIR to time another copy of the headers (an earlier commit's include/)
side by side with this one.

The table: per lwc build, its ratio to the faster anchor at each operation and size (above 1:
lwc faster), the median over the repetitions of the ratio within each repetition. Ratios, not
absolute MB/s, are the figure to quote from a shared machine.
"""
import argparse
import datetime
import json
import os
import re
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
TREES = {  # option name, environment variable, what the tree is
    "ASCON_C": ("ascon_c", "LWC_ANCHOR_ASCON_C_DIR", "github:ascon/ascon-c"),
    "NIST": ("nist", "LWC_ANCHOR_NIST_DIR",
             "github:usnistgov/Lightweight-Cryptography-Benchmarking"),
    "RWEATHER": ("rweather", "LWC_ANCHOR_RWEATHER_DIR", "github:rweather/lwc-finalists"),
}


def aead(name, key, nonce, tag, rweather=None):
    return {"name": name, "aead": True, "key": key, "nonce": nonce, "tag": tag,
            "digest": 0, "rweather": rweather}


def hash_(name, digest, rweather=None):
    return {"name": name, "aead": False, "key": 0, "nonce": 0, "tag": 0, "digest": digest,
            "rweather": rweather}


# Per family: its algorithms (with the prefix of rweather's functions for each), the
# rweather/lwc-finalists files that hold them, the anchors' default flag sets and the sizes.
# The designers' code of each algorithm comes from anchors.def.
FAMILIES = {
    "ascon": {
        "algorithms": [aead("ascon-aead128", 16, 16, 16), hash_("ascon-hash256", 32),
                       hash_("ascon-xof128", 64)],
        "rweather_sources": [],
        "anchor_flags": "-O3 -march=native",
        "sizes": "64,256,1024,4096,16384,65536",
    },
    "sparkle": {
        "algorithms": [
            aead("schwaemm256-128", 16, 32, 16, "schwaemm_256_128_aead"),
            aead("schwaemm192-192", 24, 24, 24, "schwaemm_192_192_aead"),
            aead("schwaemm128-128", 16, 16, 16, "schwaemm_128_128_aead"),
            aead("schwaemm256-256", 32, 32, 32, "schwaemm_256_256_aead"),
            hash_("esch256", 32, "esch_256_hash"),
            hash_("esch384", 48, "esch_384_hash"),
        ],
        "rweather_sources": ["sparkle-aead.c", "sparkle-hash.c", "internal-sparkle.c",
                             "internal-util.c"],
        "anchor_flags": "-O3 -march=native,-O3",
        "sizes": "64,1024,16384,65536",
    },
    "xoodyak": {
        "algorithms": [aead("xoodyak", 16, 16, 16, "xoodyak_aead"),
                       hash_("xoodyak-hash", 32, "xoodyak_hash")],
        "rweather_sources": ["xoodyak-aead.c", "xoodyak-hash.c", "internal-xoodoo.c",
                             "internal-util.c"],
        "anchor_flags": "-O3 -march=native,-O3",
        "sizes": "64,1024,16384,65536",
    },
    "tinyjambu": {
        "algorithms": [aead("tinyjambu-128", 16, 12, 8, "tiny_jambu_128_aead"),
                       aead("tinyjambu-192", 24, 12, 8, "tiny_jambu_192_aead"),
                       aead("tinyjambu-256", 32, 12, 8, "tiny_jambu_256_aead")],
        "rweather_sources": ["tinyjambu-aead.c", "internal-tinyjambu.c", "internal-util.c"],
        "anchor_flags": "-O3 -march=native,-O3",
        "sizes": "64,1024,16384,65536",
    },
}
# The designers' code: anchors.def's ANCHOR(symbol, TREE, "path", api, "lwc name", "id", ...)
ANCHOR_LINE = re.compile(r'^ANCHOR\((\w+), *(\w+), *"([^"]*)", *(\w+), *"([^"]*)", *"([^"]*)",'
                         r' *\d+, *"([^"]*)"\)')
ENTRY_POINTS = {"aead": [("crypto_aead_encrypt", "encrypt"), ("crypto_aead_decrypt", "decrypt")],
                "hash": [("crypto_hash", "hash")]}


def c_name(text):
    return "".join(c if c.isalnum() else "_" for c in text)


def sh(cmd, **kw):
    subprocess.run(cmd, check=True, **kw)


def out(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def symbol_of(compiler, flags):
    return c_name(os.path.basename(compiler) + "_" + "_".join(flags.split()))


def keep_only(objects, keep, rename, target):
    """Partially links objects into target with only `keep` symbols global, renamed."""
    partial = target + ".partial.o"
    sh(["ld", "-r", "-o", partial] + objects)
    sh(["objcopy"] + [f"--keep-global-symbol={k}" for k in keep] + [partial, target + ".local.o"])
    redefine = []
    for old, new in rename:
        redefine += ["--redefine-sym", f"{old}={new}"]
    sh(["objcopy"] + redefine + [target + ".local.o", target])


def defines_macros(compiler, flags, macros):
    probe = out([compiler] + flags + ["-dM", "-E", "-x", "c", "/dev/null"])
    return all(f"#define {m} " in probe for m in macros)


def up_to_date(target, sources):
    return os.path.exists(target) and all(
        os.path.getmtime(target) > os.path.getmtime(s) for s in sources)


def compile_c(sources, includes, flags, stem, build_dir):
    objs = []
    for src in sources:
        o = os.path.join(build_dir, f"{stem}_{c_name(os.path.basename(src))}.o")
        sh([ANCHOR_CC] + flags + ["-w", "-c"] + [a for d in includes for a in ("-I", d)] +
           [src, "-o", o])
        objs.append(o)
    return objs


def designers_anchors(family, trees):
    """(symbol, tree, folder, api, algorithm, benchmark id, ISA macros) from anchors.def."""
    names = {a["name"] for a in FAMILIES[family]["algorithms"]}
    found = []
    with open(os.path.join(HERE, "anchors.def")) as f:
        for line in f:
            m = ANCHOR_LINE.match(line)
            if m and m.group(5) in names and m.group(2) in trees:
                found.append(m.groups())
    return found


class Program:
    """The generated matrix_sides.inc: declarations and the two tables of matrix.cpp."""

    def __init__(self, algorithms):
        self.algorithms = algorithms
        self.index = {a["name"]: i for i, a in enumerate(algorithms)}
        self.declarations, self.rows = [], []

    def add(self, label, is_anchor, alg, prefix):
        """An implementation whose entry points are <prefix>_encrypt/_decrypt or _hash."""
        a = self.algorithms[self.index[alg]]
        if a["aead"]:
            self.declarations += [
                f"int {prefix}_encrypt(u8*, ull*, const u8*, ull, const u8*, ull, const u8*, "
                "const u8*, const u8*);",
                f"int {prefix}_decrypt(u8*, ull*, u8*, const u8*, ull, const u8*, ull, "
                "const u8*, const u8*);"]
            entries = f"{prefix}_encrypt, {prefix}_decrypt, nullptr"
        else:
            self.declarations.append(f"int {prefix}_hash(u8*, const u8*, ull);")
            entries = f"nullptr, nullptr, {prefix}_hash"
        self.rows.append(f'  {{"{label}", {str(is_anchor).lower()}, {self.index[alg]}, '
                         f'{entries}}},')

    def write(self, path):
        algs = [f'  {{"{a["name"]}", {str(a["aead"]).lower()}, {a["key"]}, {a["nonce"]}, '
                f'{a["tag"]}, {a["digest"]}}},' for a in self.algorithms]
        with open(path, "w") as f:
            f.write("// Generated by matrix.py.\n")
            f.write('extern "C" {\n' + "\n".join(self.declarations) + '\n}\n')
            f.write("namespace {\nconst algorithm algorithms[] = {\n" + "\n".join(algs) +
                    "\n};\nconst implementation implementations[] = {\n" +
                    "\n".join(self.rows) + "\n};\n}  // namespace\n")


def build_designers(args, trees, flags, tag, program, build_dir):
    objects = []
    for symbol, tree, folder, api, alg, bench_id, isa in designers_anchors(args.family, trees):
        src = os.path.join(trees[tree], folder)
        if isa and not defines_macros(ANCHOR_CC, flags, isa.split()):
            print(f"{bench_id} {alg} {' '.join(flags)}: left out, the flags lack {isa}",
                  file=sys.stderr)
            continue
        if not os.path.isdir(src):
            print(f"{bench_id} {alg}: left out, no folder {src}", file=sys.stderr)
            continue
        # Left out: the NIST framework's wrappers, KAT generators and debug mains.
        sources = sorted(os.path.join(src, f) for f in os.listdir(src)
                         if f.endswith(".c") and not re.match(
                             r"(lwc_crypto_[a-z]+\.c|genkat.*|printstate.*|.*_dbg\.c)$", f))
        name = f"anchor_{symbol}_{tag}"
        target = os.path.join(build_dir, name + ".o")
        if not up_to_date(target, sources):
            objs = compile_c(sources, [src, os.path.join(HERE, "include")], flags, name,
                             build_dir)
            points = ENTRY_POINTS[api]
            keep_only(objs, [p for p, _ in points], [(p, f"{name}_{e}") for p, e in points],
                      target)
        objects.append(target)
        program.add(f"{bench_id} gcc {' '.join(flags)}", True, alg, name)
    return objects


def build_rweather(args, tree, flags, tag, program, build_dir):
    """rweather's functions take size_t lengths and no nsec: a generated adapter gives them
    the crypto_aead / crypto_hash shape."""
    fam = FAMILIES[args.family]
    if not fam["rweather_sources"]:
        return []
    src = os.path.join(tree, "src", "combined")
    sources = [os.path.join(src, f) for f in fam["rweather_sources"]]
    if not all(os.path.exists(s) for s in sources):
        print(f"rweather: left out, {src} lacks one of {fam['rweather_sources']}",
              file=sys.stderr)
        return []
    name = f"anchor_rweather_{tag}"
    adapter = os.path.join(build_dir, name + "_adapter.c")
    lines = ["#include <stddef.h>", "typedef unsigned char u8;",
             "typedef unsigned long long ull;"]
    keep = []
    for a in fam["algorithms"]:
        fn, entry = a["rweather"], f"{name}_{c_name(a['name'])}"
        if a["aead"]:
            lines += [
                f"int {fn}_encrypt(u8*, size_t*, const u8*, size_t, const u8*, size_t, "
                "const u8*, const u8*);",
                f"int {fn}_decrypt(u8*, size_t*, const u8*, size_t, const u8*, size_t, "
                "const u8*, const u8*);",
                f"int {entry}_encrypt(u8* c, ull* clen, const u8* m, ull mlen, const u8* ad, "
                "ull adlen, const u8* nsec, const u8* npub, const u8* k) {",
                f"  size_t n; int r = {fn}_encrypt(c, &n, m, mlen, ad, adlen, npub, k);"
                " *clen = n; return r; }",
                f"int {entry}_decrypt(u8* m, ull* mlen, u8* nsec, const u8* c, ull clen, "
                "const u8* ad, ull adlen, const u8* npub, const u8* k) {",
                f"  size_t n; int r = {fn}_decrypt(m, &n, c, clen, ad, adlen, npub, k);"
                " *mlen = n; return r; }"]
            keep += [f"{entry}_encrypt", f"{entry}_decrypt"]
        else:
            lines += [f"int {fn}(u8*, const u8*, size_t);",
                      f"int {entry}_hash(u8* out, const u8* in, ull n) {{ return {fn}(out, in, n); }}"]
            keep.append(f"{entry}_hash")
        program.add(f"rweather gcc {' '.join(flags)}", True, a["name"], entry)
    with open(adapter, "w") as f:
        f.write("\n".join(lines) + "\n")
    target = os.path.join(build_dir, name + ".o")
    objs = compile_c(sources + [adapter], [src], flags, name, build_dir)
    keep_only(objs, keep, [], target)
    return [target]


def build_side(family, algorithms, compiler, flags, program, build_dir):
    sym = symbol_of(compiler, flags)
    o = os.path.join(build_dir, f"lwc_{sym}.o")
    sh([compiler, "-std=c++20"] + flags.split() + [
        f"-DLWC_SIDE={sym}", f"-DLWC_FAMILY_{family.upper()}", "-I",
        os.path.join(ROOT, "include"), "-c", os.path.join(HERE, "matrix_side.cpp"),
        "-o", o + ".raw.o"])
    # The headers' inline functions sit in COMDAT groups, which the linker would merge across
    # builds whatever their binding: every defined symbol gets a prefix of this build, and the
    # undefined ones (the C++ runtime) get their names back.
    prefix = f"b_{sym}_"
    sh(["objcopy", f"--prefix-symbols={prefix}", o + ".raw.o", o + ".prefixed.o"])
    undefined = out(["nm", "-u", "--format=posix", o + ".prefixed.o"]).split("\n")
    restore = [(u.split()[0], u.split()[0][len(prefix):]) for u in undefined if u.strip()]
    keep = []
    for a in algorithms:
        entry = f"lwc_{sym}_{c_name(a['name'])}"
        keep += [f"{entry}_encrypt", f"{entry}_decrypt"] if a["aead"] else [f"{entry}_hash"]
        program.add(f"lwc {os.path.basename(compiler)} {flags}", False, a["name"], entry)
    keep_only([o + ".prefixed.o"], [prefix + k for k in keep] + [u for _, u in restore],
              [(prefix + k, k) for k in keep] + restore, o)
    return o, out([compiler, "--version"]).splitlines()[0]


def build(args, trees):
    build_dir = args.build_dir or os.path.join(ROOT, "build", f"matrix-{args.family}")
    os.makedirs(build_dir, exist_ok=True)
    algorithms = FAMILIES[args.family]["algorithms"]
    program = Program(algorithms)
    objects, versions = [], {}
    for config in args.configs.split(","):
        compiler, flags = config.split(":", 1)
        if not shutil.which(compiler):
            print(f"{compiler}: not found, left out", file=sys.stderr)
            continue
        print(f"building lwc with {compiler} {flags}", file=sys.stderr)
        o, version = build_side(args.family, algorithms, compiler, flags, program, build_dir)
        objects.append(o)
        versions[os.path.basename(compiler)] = version
    anchor_flags = args.anchor_flags or FAMILIES[args.family]["anchor_flags"]
    for flag_set in anchor_flags.split(","):
        flags, tag = flag_set.split(), c_name(flag_set)
        print(f"building the anchors with {ANCHOR_CC} {flag_set}", file=sys.stderr)
        objects += build_designers(args, trees, flags, tag, program, build_dir)
        if "RWEATHER" in trees:
            objects += build_rweather(args, trees["RWEATHER"], flags, tag, program, build_dir)
    program.write(os.path.join(build_dir, "matrix_sides.inc"))
    binary = os.path.join(build_dir, "matrix")
    sh(["g++", "-std=c++20", "-O2", "-I", build_dir, os.path.join(HERE, "matrix.cpp")] +
       objects + ["-o", binary])
    versions["anchors"] = f"{out([ANCHOR_CC, '--version']).splitlines()[0]}, " + anchor_flags
    return binary, versions


def commit_of(tree, given):
    if given:
        return given
    marker = tree.rstrip("/") + ".commit"  # written next to an exported tree without .git
    if os.path.exists(marker):
        return open(marker).read().strip()
    try:
        return out(["git", "-C", tree, "rev-parse", "HEAD"])
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
             f"after: {info.get('load', ['?', '?'])[0]} / {info.get('load', ['?', '?'])[1]}"
             + (f"; CPU {info['busy_cpu']} kept busy" if info.get("busy_cpu") is not None
                else "")]
    for k, v in info.get("compilers", {}).items():
        lines.append(f"- {k}: {v}")
    commits = info.get("anchor_commits") or {"github:ascon/ascon-c":
                                             info.get("ascon_c_commit", "?")}
    for tree, commit in commits.items():
        lines.append(f"- {tree} `{commit}`")
    lines.append(f"{data['repetitions']} repetitions in one process, each timing every build "
                 "once in a random order (CPU time of the thread); ratio = lwc / the anchor "
                 "with the higher median at that cell, the median of the ratios within "
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
            if not any((op, n, a) in med for n in sizes):
                continue
            cells = [f"{med[(op, n, a)] / 1e6:.0f}" if (op, n, a) in med else "-"
                     for n in sizes]
            lines.append(f"| {a}, MB/s | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def compact_table(data):
    """One row per operation, one column per lwc build; a cell lists the ratios at every size
    (smallest first), and any below 1.0 is in bold."""
    rows = data["results"]
    med, reps = indexed(data)
    ops = list(dict.fromkeys(r["operation"] for r in rows))
    sizes = sorted({r["bytes"] for r in rows})
    lwc_builds = list(dict.fromkeys(r["build"] for r in rows if not r["anchor"]))
    anchor_builds = list(dict.fromkeys(r["build"] for r in rows if r["anchor"]))
    lines = ["| operation | " + " | ".join(b.removeprefix("lwc ") for b in lwc_builds) + " |",
             "|---|" + "---:|" * len(lwc_builds)]
    below, count = [], 0
    for op in ops:
        cells = []
        for b in lwc_builds:
            ratios = []
            for n in sizes:
                r = ratio_cell(reps, med, anchor_builds, op, n, b)
                count += r != "-"
                if r != "-" and float(r) < 1.0:
                    below.append(f"{op} {n} B {b.removeprefix('lwc ')}: {r}")
                    r = f"**{r}**"
                ratios.append(r)
            cells.append(" ".join(ratios))
        lines.append(f"| {op} | " + " | ".join(cells) + " |")
    return "\n".join(lines), below, count


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--family", choices=sorted(FAMILIES), default="ascon")
    for tree, (opt, env, what) in TREES.items():
        p.add_argument("--" + opt.replace("_", "-"), default=os.environ.get(env, ""),
                       help=f"source tree of {what} (default: ${env})")
        p.add_argument(f"--{opt.replace('_', '-')}-commit", default="",
                       help="its commit id, for an exported tree without .git "
                            "(default: DIR.commit, else git)")
    p.add_argument("--build-dir", default="", help="default: build/matrix-FAMILY")
    p.add_argument("--configs", default=DEFAULT_CONFIGS,
                   help="comma-separated compiler:flags; the first is the reference build")
    p.add_argument("--anchor-flags", default="",
                   help="comma-separated gcc flag sets for the anchors (the family's default: "
                        "'-O3 -march=native' for Ascon, also '-O3' for the finalists)")
    p.add_argument("--repetitions", type=int, default=11)
    p.add_argument("--min-ms", type=float, default=20, help="CPU ms per timing")
    p.add_argument("--sizes", help="comma-separated message bytes (the family's default: "
                                   "64 B to 64 KiB)")
    p.add_argument("--only", help="comma-separated operations (esch256, xoodyak-encrypt ...) "
                                  "or algorithms")
    p.add_argument("--busy-cpu", type=int,
                   help="keep this CPU busy with integer work and time on another one: on a VM "
                        "whose vCPUs are sibling threads of one core, the figures of a shared "
                        "machine (lwc's ratios moved with such a neighbour, not with size)")
    p.add_argument("--save", help="write the results (with the machine information) here")
    p.add_argument("--load", help="print the table of a file written by --save; builds nothing")
    p.add_argument("--before", help="an earlier --save file: cells read 'before -> now'")
    p.add_argument("--compact", action="store_true",
                   help="with --load: one row per operation, the ratios at every size in a "
                        "cell, then the cells below 1.0")
    args = p.parse_args()
    before = json.load(open(args.before)) if args.before else None
    if args.load and args.compact:
        text, below, cells = compact_table(json.load(open(args.load)))
        print(text + f"\n\nCells below 1.0: {len(below)} of {cells}")
        return 0
    if args.load:
        print(table(json.load(open(args.load)), before))
        return 0
    wanted = {t for _, t, *_ in designers_anchors(args.family, TREES)}
    if FAMILIES[args.family]["rweather_sources"]:
        wanted.add("RWEATHER")
    trees = {t: getattr(args, TREES[t][0]) for t in sorted(wanted)
             if getattr(args, TREES[t][0]) and os.path.isdir(getattr(args, TREES[t][0]))}
    for t in sorted(wanted - set(trees)):
        print(f"matrix: no {TREES[t][2]} source tree (--{TREES[t][0].replace('_', '-')} or "
              f"{TREES[t][1]}); its anchors are left out", file=sys.stderr)
    if not trees:
        print(f"matrix: skipped, no anchor source tree for {args.family} "
              "(docs/PERFORMANCE.md says how to get them)", file=sys.stderr)
        return 0
    if args.busy_cpu is not None and (args.busy_cpu not in os.sched_getaffinity(0) or
                                      not os.sched_getaffinity(0) - {args.busy_cpu}):
        print(f"matrix: --busy-cpu {args.busy_cpu} needs that CPU and another one to time on",
              file=sys.stderr)
        return 2
    binary, versions = build(args, trees)
    cmd = [binary, f"--repetitions={args.repetitions}", f"--min-ms={args.min_ms}",
           f"--sizes={args.sizes or FAMILIES[args.family]['sizes']}"]
    if args.only:
        cmd.append(f"--only={args.only}")
    load_before = os.getloadavg()[0]
    spinner, pin = None, None
    if args.busy_cpu is not None:
        cpus = sorted(os.sched_getaffinity(0) - {args.busy_cpu})
        pin = cpus[0]
        spinner = subprocess.Popen([binary, "--spin"],
                                   preexec_fn=lambda: os.sched_setaffinity(0, {args.busy_cpu}))
    try:
        data = json.loads(subprocess.run(
            cmd, check=True, stdout=subprocess.PIPE, text=True,
            preexec_fn=(lambda: os.sched_setaffinity(0, {pin})) if pin is not None else None
        ).stdout)
    finally:
        if spinner:
            spinner.kill()
            spinner.wait()
    data["machine"] = {
        "cpu": cpu_model(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
        "load": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "compilers": versions,
        "configs": args.configs,
        "busy_cpu": args.busy_cpu,
        "anchor_commits": {TREES[t][2]: commit_of(d, getattr(args, TREES[t][0] + "_commit"))
                           for t, d in trees.items()},
    }
    data["command"] = "python3 bench/anchors/matrix.py " + " ".join(
        a if not os.path.isabs(a) else "DIR" for a in sys.argv[1:])
    if args.save:
        with open(args.save, "w") as f:
            json.dump(data, f, indent=1)
    print(table(data, before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
