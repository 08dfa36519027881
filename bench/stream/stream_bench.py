#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Throughput of the lwc stream format through its three faces, side by side, on one file in
the page cache: `lwc encrypt` (the tool), the C++ API pushed in 64 KiB pieces
(lwc_stream_api_bench), and Python's shutil.copyfileobj into lwc.stream.open(..., "wb"). Each
round runs every variant once, in alternation, each in its own process (wall time here, CPU
time and peak resident memory from /usr/bin/time); medians over the rounds and ratios to the
tool. Put --dir on a tmpfs (/dev/shm) to measure the stream rather than the disk.

    python3 bench/stream/stream_bench.py --lwc build/rel/cli/lwc \\
        --api build/rel/bench/stream/lwc_stream_api_bench --python build/py-venv/bin/python \\
        [--size 1G] [--rounds 5] [--dir /tmp] [--decrypt]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# The copy itself is timed inside the process (interpreter start-up and `import lwc` are
# not the stream's cost) and printed; the process's wall time is reported next to it.
PY_ENCRYPT = """
import shutil, sys, time, lwc.stream
key = lwc.stream.load_key(sys.argv[1])
t0 = time.perf_counter()
with open(sys.argv[2], "rb") as src, lwc.stream.open(sys.argv[3], "wb", key=key) as dst:
    shutil.copyfileobj(src, dst)
print(time.perf_counter() - t0)
"""
PY_DECRYPT = """
import shutil, sys, time, lwc.stream
key = lwc.stream.load_key(sys.argv[1])
t0 = time.perf_counter()
with lwc.stream.open(sys.argv[2], "rb", key=key) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
print(time.perf_counter() - t0)
"""


def run(cmd):
    """(wall, peak RSS MiB, user, sys, the time the process printed or None). The peak RSS
    comes from /usr/bin/time: wait4's would include the forked copy of this driver."""
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M %U %S", *cmd], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    printed, err = p.communicate()
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed: {cmd}: {err.decode(errors='replace')}")
    rss_kb, user, sys_ = err.decode().strip().splitlines()[-1].split()
    inner = float(printed) if printed.strip() else None
    return wall, int(rss_kb) / 1024.0, float(user), float(sys_), inner


def size_of(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lwc", required=True)
    ap.add_argument("--api", required=True)
    ap.add_argument("--python", default=sys.executable, help="'none' leaves Python out")
    ap.add_argument("--size", default="1G")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--decrypt", action="store_true")
    a = ap.parse_args()
    n = size_of(a.size)
    with tempfile.TemporaryDirectory(dir=a.dir, prefix="lwc-stream-bench-") as d:
        key, plain, enc = os.path.join(d, "key"), os.path.join(d, "plain"), os.path.join(d, "enc")
        subprocess.run([a.lwc, "keygen", "-o", key], check=True)
        with open(plain, "wb") as f:
            for _ in range(n >> 20):
                f.write(os.urandom(1 << 20))
            f.write(os.urandom(n & ((1 << 20) - 1)))
        subprocess.run([a.lwc, "encrypt", "-k", key, "-o", enc, plain], check=True)
        src = enc if a.decrypt else plain
        op = "decrypt" if a.decrypt else "encrypt"
        out = os.path.join(d, "out")
        with open(src, "rb") as f:  # into the page cache
            while f.read(1 << 24):
                pass
        variants = {
            f"lwc {op} -o": [a.lwc, op, "-f", "--no-progress", "-k", key, "-o", out, src],
            f"C++ API, 64 KiB pieces": [a.api, op, key, src, out],
            f"Python copyfileobj": [a.python, "-c", PY_DECRYPT if a.decrypt else PY_ENCRYPT,
                                    key, src, out],
        }
        if a.python == "none":
            del variants["Python copyfileobj"]
        results = {k: [] for k in variants}
        for r in range(a.rounds):
            for name, cmd in variants.items():
                results[name].append(run(cmd))
        base = statistics.median(x[0] for x in results[f"lwc {op} -o"])
        print(f"{op}, {n / 2**20:.0f} MiB in the page cache, {a.rounds} rounds, medians "
              "(Python: the copy timed in the process; its process wall time in brackets)")
        print(f"| variant | wall (s), rounds | MB/s | vs. lwc {op} | CPU user+sys (s) | "
              f"CPU vs. lwc {op} | peak RSS (MiB) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        base_cpu = statistics.median(x[2] + x[3] for x in results[f"lwc {op} -o"])
        for name, rs in results.items():
            timed = [x[4] if x[4] is not None else x[0] for x in rs]
            wall = statistics.median(timed)
            if rs[0][4] is not None:
                name += f" (process {statistics.median(x[0] for x in rs):.3f} s)"
            rss = max(x[1] for x in rs)
            cpu = statistics.median(x[2] + x[3] for x in rs)
            walls = " / ".join(f"{t:.2f}" for t in timed)
            print(f"| {name} | {wall:.3f} ({walls}) | {n / wall / 1e6:.0f} | "
                  f"**{base / wall * 100:.0f} %** | {cpu:.2f} | {base_cpu / cpu * 100:.0f} % | "
                  f"{rss:.1f} |")


if __name__ == "__main__":
    main()
