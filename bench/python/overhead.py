#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""What the Python layer adds: lwc.batch on lists against a loop of single calls and against
numpy arrays, and one-shot calls against the C++ core and hashlib, side by side in one process.

Printed, as medians over rounds (each round measures every case once, in the same order):

- Ascon-AEAD128, 16384 messages of 64 bytes (keys and nonces per message, no AD):
  ``lwc.batch.encrypt`` on lists of bytes, the same on N x L numpy arrays, and the plain
  Python loop ``[lwc.AsconAEAD128(k).encrypt(n, m, None) for ...]``; the same for 1024
  messages of 16 KiB, and decryption of the list batch. Batches run with the default
  threads (all cores), as a new user would call them, so they are timed in wall time;
  CPU time (all threads) is printed next to it.
- 64-byte one-shots, in CPU time (time.process_time; google-benchmark's cpu_time):
  ``lwc.ascon_hash256_digest(m)``, ``lwc.ascon_hash256(m).digest()`` and
  ``hashlib.sha256(m).digest()`` against ``ascon-hash256/hash/64`` of the C++ benchmark
  (bench/algorithms_bench.cpp: init, absorb, squeeze through the registry, the same calls
  the one-shot function makes); ``AsconAEAD128.encrypt`` (32 bytes of AD) against
  ``ascon-aead128/encrypt/64``. Each C++ figure is taken in the same round as the Python
  figures it is compared with.

    python -m pip install .                         # the package under test
    python bench/python/bench.py --build            # builds the C++ benchmark (build/py-bench)
    python bench/python/overhead.py --rounds 9
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import sys
import time
import timeit
from pathlib import Path

import numpy as np

import lwc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import LWC_BENCH, compiler, cpu_model, run_cxx  # noqa: E402


def per_call(stmt: str, ns: dict, min_time: float, timer=time.process_time) -> float:
    """Seconds per execution of stmt: the best of 3 runs of about min_time each."""
    t = timeit.Timer(stmt, timer=timer, globals=ns)
    number, elapsed = t.autorange()
    number = max(1, round(number * min_time / max(elapsed, 1e-9)))
    return min(t.repeat(3, number)) / number


def batch_time(stmt: str, ns: dict, repeat: int) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of stmt: the medians of `repeat` runs."""
    code = compile(stmt, "<batch>", "eval")
    eval(code, ns)  # warm-up: the first run of a shape sizes the allocators' free lists
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        eval(code, ns)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def batch_inputs(n: int, length: int) -> dict:
    rng = np.random.default_rng(n + length)
    K = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    N = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    M = rng.integers(0, 256, (n, length), dtype=np.uint8)
    keys, nonces, msgs = [k.tobytes() for k in K], [x.tobytes() for x in N], [m.tobytes() for m in M]
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs)
    return {"lwc": lwc, "K": K, "N": N, "M": M, "S": np.array([np.frombuffer(s, np.uint8) for s in sealed]),
            "keys": keys, "nonces": nonces, "msgs": msgs, "sealed": sealed}


BATCH_CASES = {
    "loop": "[lwc.AsconAEAD128(k).encrypt(n, m, None) for k, n, m in zip(keys, nonces, msgs)]",
    "list": "lwc.batch.encrypt('ascon-aead128', keys, nonces, msgs)",
    "numpy": "lwc.batch.encrypt('ascon-aead128', K, N, M)",
    "list decrypt": "lwc.batch.decrypt('ascon-aead128', keys, nonces, sealed)",
    "numpy decrypt": "lwc.batch.decrypt('ascon-aead128', K, N, S)",
}
SHAPES = ((16384, 64), (1024, 16384))


def size_name(shape: tuple[int, int]) -> str:
    n, length = shape
    return f"{n} x {length // 1024} KiB" if length >= 1024 else f"{n} x {length} B"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--min-time", type=float, default=0.2, help="seconds per one-shot measurement")
    p.add_argument("--repeat", type=int, default=9, help="runs per batch measurement (median)")
    p.add_argument("--lwc-bench", type=Path, default=LWC_BENCH, help="the C++ benchmark program")
    p.add_argument("--baseline-batch", type=Path,
                   help="another lwc/batch.py (e.g. from `git show REV:python/lwc/batch.py`) run on the "
                        "same extension: its numpy path is timed next to the current one")
    args = p.parse_args()
    if not args.lwc_bench.exists():
        sys.exit(f"{args.lwc_bench} is missing: run bench/python/bench.py --build first")

    m, ad = bytes([5]) * 64, bytes([3]) * 32
    aead = lwc.AsconAEAD128(bytes([1]) * 16)
    one = {"lwc": lwc, "hashlib": hashlib, "m": m, "ad": ad, "a": aead, "nonce": bytes([2]) * 16,
           "pt": bytes([4]) * 64, "f": lwc.ascon_hash256_digest, "H": lwc.ascon_hash256}
    assert one["f"](m) == one["H"](m).digest()
    oneshots = {
        "lwc.ascon_hash256_digest(m)": "f(m)",
        "lwc.ascon_hash256(m).digest()": "H(m).digest()",
        "hashlib.sha256(m).digest()": "hashlib.sha256(m).digest()",
        "AsconAEAD128.encrypt(nonce, pt, ad)": "a.encrypt(nonce, pt, ad)",
    }
    cxx_names = ["ascon-hash256/hash/64", "ascon-aead128/encrypt/64"]
    inputs = {shape: batch_inputs(*shape) for shape in SHAPES}
    if args.baseline_batch:
        import importlib.util

        spec = importlib.util.spec_from_file_location("lwc._baseline_batch", args.baseline_batch)
        baseline = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(baseline)
        for ns in inputs.values():
            ns["baseline"] = baseline
        BATCH_CASES["numpy, baseline layer"] = "baseline.encrypt('ascon-aead128', K, N, M)"
        BATCH_CASES["numpy decrypt, baseline layer"] = "baseline.decrypt('ascon-aead128', K, N, S)"

    samples: dict[str, list] = {}
    for r in range(args.rounds):
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
        cxx = run_cxx(args.lwc_bench, cxx_names, args.min_time)
        for name in cxx_names:
            samples.setdefault(name, []).append(cxx[name])
        for label, stmt in oneshots.items():
            samples.setdefault(label, []).append(per_call(stmt, one, args.min_time))
        for shape in SHAPES:
            for label, stmt in BATCH_CASES.items():
                if label == "loop" and shape[1] > 64:
                    continue  # the loop is compared at 64 bytes only
                samples.setdefault((shape, label), []).append(batch_time(stmt, inputs[shape], args.repeat))

    med = statistics.median
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs visible; {platform.system()} {platform.release()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"- compiler: {compiler()}; Python {platform.python_version()}; numpy {np.__version__}; "
          f"lwc {lwc.__version__}; batch backend {lwc.batch.default_backend()}")
    print(f"- method: {args.rounds} rounds, medians over rounds (ratios: medians of the per-round ratios); "
          f"batches: median of {args.repeat} runs per round, default threads; one-shots: CPU time, "
          f">= {args.min_time} s per measurement")
    print()
    print("| batch (Ascon-AEAD128) | wall time | CPU time (all threads) |")
    print("|---|---|---|")
    for shape in SHAPES:
        for label in BATCH_CASES:
            if (shape, label) in samples:
                runs = samples[(shape, label)]
                print(f"| {size_name(shape)}, {label} | {med(r[0] for r in runs) * 1e3:.2f} ms | "
                      f"{med(r[1] for r in runs) * 1e3:.2f} ms |")
    print()
    print("| speed (x times as fast) | wall time | CPU time | target |")
    print("|---|---|---|---|")

    def speed(shape, label, other, k):  # per round: other's time / label's time
        return med(b[k] / a[k] for a, b in zip(samples[(shape, label)], samples[(shape, other)]))

    comparisons = [(SHAPES[0], "list", "loop", ">= 3x"), (SHAPES[0], "list", "numpy", ""),
                   (SHAPES[1], "list", "numpy", ">= 0.8x"), (SHAPES[0], "list decrypt", "numpy decrypt", ""),
                   (SHAPES[1], "list decrypt", "numpy decrypt", "")]
    if args.baseline_batch:
        comparisons += [(shape, f"numpy{d}", f"numpy{d}, baseline layer", "no regression")
                        for shape in SHAPES for d in ("", " decrypt")]
    for shape, label, other, target in comparisons:
        print(f"| {size_name(shape)}: {label} vs {other} | {speed(shape, label, other, 0):.2f}x | "
              f"{speed(shape, label, other, 1):.2f}x | {target} |")
    print()
    print("| one-shot, 64 bytes | Python (CPU) | C++ core (CPU) | Python - C++ (median of pairs) | vs hashlib.sha256 |")
    print("|---|---|---|---|---|")
    sha = samples["hashlib.sha256(m).digest()"]
    for label in oneshots:
        py = samples[label]
        cxx_name = "ascon-aead128/encrypt/64" if "AEAD" in label else "ascon-hash256/hash/64"
        if label.startswith("hashlib"):
            print(f"| `{label}` | {med(py) * 1e9:.0f} ns | - | - | - |")
            continue
        diff = med(a - b for a, b in zip(py, samples[cxx_name]))
        vs_sha = "-" if "AEAD" in label else f"{med(a / b for a, b in zip(py, sha)):.2f}x its time"
        print(f"| `{label}` | {med(py) * 1e9:.0f} ns | {med(samples[cxx_name]) * 1e9:.0f} ns "
              f"(`{cxx_name}`) | {diff * 1e9:+.0f} ns | {vs_sha} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
