#!/usr/bin/env python3
"""lwc.arrow against lwc.batch on numpy arrays and against Python loops of single calls.

Ascon-AEAD128, a key and a nonce per row, no associated data, two shapes: 10^6 rows of
64 bytes and 10^5 rows of 1 KiB. Cases, each timed in wall time (best of --rounds):

- arrow encrypt / decrypt: ``lwc.arrow.encrypt`` on a ``pa.binary()`` column with
  ``pa.binary(16)`` key and nonce columns (and decrypt of its result);
- batch numpy encrypt / decrypt: ``lwc.batch.encrypt`` on N x L, N x 16 uint8 arrays;
- python loop: ``[lwc.AsconAEAD128(k).encrypt(n, m, None) for ...]`` over bytes objects;
- pyca AESGCM loop (when ``cryptography`` is importable): ``AESGCM(k).encrypt(n12, m, None)``
  per row, a 128-bit key and a 12-byte nonce per row, for scale.

Loops run over at most --loop-rows rows (the rate per byte does not depend on the count).
MB/s counts message bytes (10^6 bytes per MB). The batch engine uses all cores.

    python bench/python/arrow_bench.py [--rounds 3] [--loop-rows 200000]
"""

from __future__ import annotations

import argparse
import os
import platform
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


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


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
    sealed_pa = lwc.arrow.encrypt(ALG, keys_pa, nonces_pa, msgs_pa)
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
        ("batch numpy encrypt", n, lambda: lwc.batch.encrypt(ALG, keys_np, nonces_np, msgs_np)),
        ("arrow decrypt", n, lambda: lwc.arrow.decrypt(ALG, keys_pa, nonces_pa, sealed_pa)),
        ("batch numpy decrypt", n, lambda: lwc.batch.decrypt(ALG, keys_np, nonces_np, sealed_np)),
        ("python loop encrypt", m, loop),
    ]
    if AESGCM is not None:
        cases.append(("pyca AESGCM loop encrypt", m, aesgcm_loop))
    print(f"\n{n} rows of {size} B ({n * size / 1e6:.0f} MB), {ALG}; loops over {m} rows")
    print(f"{'case':28s} {'rows':>8s} {'seconds':>9s} {'MB/s':>9s} {'vs loop':>8s}")
    rates = {}
    for label, rows, fn in cases:
        secs = best(fn, rounds)
        rates[label] = rows * size / secs / 1e6
        print(f"{label:28s} {rows:8d} {secs:9.4f} {rates[label]:9.1f}", end="")
        print(f" {rates[label] / rates['python loop encrypt']:7.1f}x" if "python loop encrypt" in rates else "")
    loop_rate = rates["python loop encrypt"]
    print("ratios: arrow/batch encrypt {:.2f}, arrow/batch decrypt {:.2f}, arrow encrypt/python loop {:.1f}"
          .format(rates["arrow encrypt"] / rates["batch numpy encrypt"],
                  rates["arrow decrypt"] / rates["batch numpy decrypt"], rates["arrow encrypt"] / loop_rate),
          end="")
    if AESGCM is not None:
        print(", arrow encrypt/AESGCM loop {:.1f}".format(rates["arrow encrypt"] / rates["pyca AESGCM loop encrypt"]))
    else:
        print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--loop-rows", type=int, default=200_000)
    args = ap.parse_args()
    print(f"lwc {lwc.__version__}, pyarrow {pa.__version__}, numpy {np.__version__}, "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, backend {lwc.batch.default_backend()}"
          + ("" if AESGCM is None else ", cryptography (pyca) present"))
    shape(1_000_000, 64, args.rounds, args.loop_rows)
    shape(100_000, 1024, args.rounds, args.loop_rows)


if __name__ == "__main__":
    main()
