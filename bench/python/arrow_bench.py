#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.arrow against lwc.batch on numpy arrays and against Python loops of single calls.

Ascon-AEAD128, a key and a nonce per row, no associated data, two shapes: 10^6 rows of
64 bytes and 10^5 rows of 1 KiB. Cases, each timed in wall time:

- arrow encrypt / decrypt: ``lwc.arrow.encrypt`` on a ``pa.binary()`` column with
  ``pa.binary(16)`` key and nonce columns (and decrypt of its result); encrypt also with
  ``threads=1``;
- batch numpy encrypt / decrypt: ``lwc.batch.encrypt`` on N x L, N x 16 uint8 arrays;
- python loop: ``[lwc.AsconAEAD128(k).encrypt(n, m, None) for ...]`` over bytes objects;
- pyca AESGCM loop (when ``cryptography`` is importable): ``AESGCM(k).encrypt(n12, m, None)``
  per row, a 128-bit key and a 12-byte nonce per row, for scale.

Each round runs every case once, in turn, so that a change in the machine's load falls on all
cases alike; the figures are medians over the rounds, and the ratios medians of the ratios
within each round.

Loops run over at most --loop-rows rows (the rate per byte does not depend on the count).
MB/s counts message bytes (10^6 bytes per MB). The batch engine uses all cores.

    python bench/python/arrow_bench.py [--rounds 5] [--loop-rows 200000]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import pyarrow as pa

import lwc
import lwc.arrow

try:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:  # optional comparison
    AESGCM = None

ALG = "ascon-aead128"


def minor_faults():
    # Pages the process touched for the first time (fresh memory from the OS); -1 where unknown.
    try:
        import resource
    except ImportError:
        return -1
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def shape(n, size, rounds, loop_rows):
    rng = np.random.default_rng(size)
    msgs_np = rng.integers(0, 256, (n, size), dtype=np.uint8)
    keys_np = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    nonces_np = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    # Arrow columns over the same bytes (built once, not timed).
    offsets = pa.py_buffer(np.arange(0, (n + 1) * size, size, dtype=np.int32))
    msgs_pa = pa.Array.from_buffers(pa.binary(), n, [None, offsets, pa.py_buffer(msgs_np)])
    keys_pa = pa.Array.from_buffers(pa.binary(16), n, [None, pa.py_buffer(keys_np)])
    nonces_pa = pa.Array.from_buffers(pa.binary(16), n, [None, pa.py_buffer(nonces_np)])
    # The first call: its result buffers are fresh memory from the OS (page faults); later
    # calls reuse what the Arrow memory pool keeps. Printed, not part of the medians.
    faults = minor_faults()
    first = time.perf_counter()
    sealed_pa = lwc.arrow.encrypt(ALG, keys_pa, nonces_pa, msgs_pa)
    first = time.perf_counter() - first
    first_faults = minor_faults() - faults
    faults = minor_faults()
    lwc.arrow.encrypt(ALG, keys_pa, nonces_pa, msgs_pa)
    second_faults = minor_faults() - faults
    sealed_np = lwc.batch.encrypt(ALG, keys_np, nonces_np, msgs_np)
    assert sealed_pa.buffers()[2].to_pybytes() == sealed_np.tobytes()

    m = min(n, loop_rows)
    msgs_b = [bytes(r) for r in msgs_np[:m]]
    keys_b = [bytes(r) for r in keys_np[:m]]
    nonces_b = [bytes(r) for r in nonces_np[:m]]
    nonces12 = [x[:12] for x in nonces_b]

    def loop():
        cls = lwc.AsconAEAD128
        return [cls(k).encrypt(nn, msg, None) for k, nn, msg in zip(keys_b, nonces_b, msgs_b)]

    def aesgcm_loop():
        return [AESGCM(k).encrypt(nn, msg, None) for k, nn, msg in zip(keys_b, nonces12, msgs_b)]

    cases = [
        ("arrow encrypt", n, lambda: lwc.arrow.encrypt(ALG, keys_pa, nonces_pa, msgs_pa)),
        ("arrow encrypt, 1 thread", n, lambda: lwc.arrow.encrypt(ALG, keys_pa, nonces_pa, msgs_pa, threads=1)),
        ("batch numpy encrypt", n, lambda: lwc.batch.encrypt(ALG, keys_np, nonces_np, msgs_np)),
        ("arrow decrypt", n, lambda: lwc.arrow.decrypt(ALG, keys_pa, nonces_pa, sealed_pa)),
        ("batch numpy decrypt", n, lambda: lwc.batch.decrypt(ALG, keys_np, nonces_np, sealed_np)),
        ("python loop encrypt", m, loop),
    ]
    if AESGCM is not None:
        cases.append(("pyca AESGCM loop encrypt", m, aesgcm_loop))
    print(f"\n{n} rows of {size} B ({n * size / 1e6:.0f} MB), {ALG}; loops over {m} rows; "
          f"{rounds} rounds, medians")
    times = {label: [] for label, _, _ in cases}
    for _ in range(rounds):
        for label, _, fn in cases:
            times[label].append(timed(fn))
    rows_of = {label: rows for label, rows, _ in cases}

    def rates(label):  # MB/s of each round
        return [rows_of[label] * size / t / 1e6 for t in times[label]]

    def ratio(a, b):  # median over the rounds of a's rate / b's rate in the same round
        return statistics.median(x / y for x, y in zip(rates(a), rates(b)))

    loop = "python loop encrypt"
    print(f"first arrow encrypt of this shape in the process: {first:.4f} s ({first / n * 1e6:.3f} us/row), "
          f"{first_faults} minor page faults; the call after it: {second_faults}")
    print(f"{'case':28s} {'rows':>8s} {'seconds':>9s} {'MB/s':>9s} {'us/row':>7s} {'vs loop':>8s}")
    for label, rows, _ in cases:
        secs = statistics.median(times[label])
        print(f"{label:28s} {rows:8d} {secs:9.4f} {statistics.median(rates(label)):9.1f} "
              f"{secs / rows * 1e6:7.3f} {ratio(label, loop):7.1f}x")
    print("ratios: arrow/batch encrypt {:.2f}, arrow/batch decrypt {:.2f}, arrow encrypt/python loop {:.1f}"
          .format(ratio("arrow encrypt", "batch numpy encrypt"), ratio("arrow decrypt", "batch numpy decrypt"),
                  ratio("arrow encrypt", loop)), end="")
    if AESGCM is not None:
        print(", arrow encrypt/AESGCM loop {:.1f}".format(ratio("arrow encrypt", "pyca AESGCM loop encrypt")))
    else:
        print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--loop-rows", type=int, default=200_000)
    args = ap.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"lwc {lwc.__version__}, pyarrow {pa.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, backend {lwc.batch.default_backend()}"
          + ("" if AESGCM is None else ", cryptography (pyca) present") + f", load average {load:.2f}")
    shape(1_000_000, 64, args.rounds, args.loop_rows)
    shape(100_000, 1024, args.rounds, args.loop_rows)


if __name__ == "__main__":
    main()
