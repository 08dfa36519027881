#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.dask.encrypt_column on a distributed.LocalCluster: one worker process against two.

The column (--rows rows of --size bytes in --partitions partitions, Arrow-backed) is made by
each task on its worker (a cheap fill, no random numbers), encrypted there and reduced to a
count of the result's bytes, so that no partition moves between processes: nothing but one
integer per partition comes back to the client. (Partitions persisted on the workers first
were spread unevenly, 6 and 10, and moved between the workers when the scheduler balanced the
load.) A second timed graph only makes and counts the partitions (no encryption), for the
share of the time that is not lwc's. Ascon-AEAD128, one key (looked up on the workers by id),
a fresh random nonce per row drawn on the workers.

Four clusters run side by side, each with one thread per worker process:
1 and 2 workers with the batch engine's default threads (all cores of the machine in each
worker), and 1 and 2 workers with ``threads=1`` (one engine thread per worker). Each round
runs every configuration once, in turn; the figures are medians over the rounds and the
speed-ups medians of the per-round ratios (time with 1 worker / time with 2 workers).

A control runs in the same rounds on the threads=1 clusters: one pure-Python task per
partition (no lwc, no data), so its speed-up is what the machine gives a second worker process
at the time (on a machine shared with other work, less than 2x).

    python bench/python/dask_bench.py [--rounds 5] [--rows 4000000] [--size 64] [--partitions 16]
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import platform
import statistics
import time

import numpy as np
import pandas as pd
import pyarrow as pa

import dask
import dask.dataframe as dd
import distributed

import lwc
import lwc.arrow
import lwc.dask

ALG = "ascon-aead128"


def bench_key(key_id: str) -> bytes:
    # A stand-in for a key service: the benchmark's key is derived from its id on the worker.
    return hashlib.sha256(key_id.encode()).digest()[:16]


def make_partition(seed: int, rows: int, size: int) -> pd.DataFrame:
    data = np.full(rows * size, seed & 0xFF, dtype=np.uint8)
    offsets = np.arange(0, (rows + 1) * size, size, dtype=np.int32)
    col = pa.Array.from_buffers(pa.binary(), rows, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    return pd.DataFrame({"payload": pd.arrays.ArrowExtensionArray(col)})


def sealed_bytes(partition: pd.DataFrame) -> int:
    return int(pa.array(partition["sealed"].array).buffers()[2].size)


def payload_bytes(partition: pd.DataFrame) -> int:
    return int(pa.array(partition["payload"].array).buffers()[2].size)


def spin(i: int) -> int:
    # The control task: pure Python, a fixed amount of work, holding one core.
    x = i
    for k in range(400_000):
        x = (x * 31 + k) & 0xFFFFFFFF
    return x


def control(client: distributed.Client, partitions: int) -> float:
    t = time.perf_counter()
    client.gather(client.map(spin, range(partitions), pure=False))
    return time.perf_counter() - t


def breakdown(per: int, size: int, rounds: int) -> None:
    """In this process, on one partition: the nonces drawn for it and its lwc.arrow.encrypt."""
    part = make_partition(1, per, size)
    col = pa.array(part["payload"].array)
    nonces = lwc.dask._random_nonces(per, 16)
    key = bench_key("bench")
    steps = {"os.urandom nonces": lambda: lwc.dask._random_nonces(per, 16),
             "lwc.arrow.encrypt, threads=1": lambda: lwc.arrow.encrypt(ALG, key, nonces, col, threads=1),
             "the whole partition function, threads=1": lambda: lwc.dask._encrypt_partition(
                 part, "payload", ALG, bench_key, "bench", None, "nonce", None, "sealed", 1)}
    times = {k: [] for k in steps}
    for _ in range(rounds):
        for k, fn in steps.items():
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    print(f"one partition of {per} rows in this process: " +
          ", ".join(f"{k} {statistics.median(v) * 1e3:.1f} ms" for k, v in times.items()))


def run(client: distributed.Client, ddf, threads) -> tuple:
    """(seconds, bytes): make, encrypt and count every partition; threads "none": no encryption."""
    if threads == "none":
        counts = ddf.map_partitions(payload_bytes, meta=(None, "int64"))
    else:
        sealed = lwc.dask.encrypt_column(ddf, "payload", ALG, key_lookup=bench_key, key_id="bench",
                                         out_column="sealed", threads=threads)
        counts = sealed.map_partitions(sealed_bytes, meta=(None, "int64"))
    t = time.perf_counter()
    total = client.compute(counts.sum()).result()
    return time.perf_counter() - t, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rows", type=int, default=4_000_000)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--partitions", type=int, default=16)
    args = ap.parse_args()
    logging.getLogger("distributed").setLevel(logging.ERROR)  # the scheduler runs in this process
    per = args.rows // args.partitions
    rows = per * args.partitions
    print(f"lwc {lwc.__version__}, dask {dask.__version__}, distributed {distributed.__version__}, "
          f"pyarrow {pa.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{rows} rows of {args.size} B ({rows * args.size / 1e6:.0f} MB) in {args.partitions} partitions, "
          f"{ALG}, {args.rounds} rounds, medians")

    configs = [("1 worker, engine threads default", 1, None), ("2 workers, engine threads default", 2, None),
               ("1 worker, engine threads=1", 1, 1), ("2 workers, engine threads=1", 2, 1)]
    clusters, clients, frames = {}, {}, {}
    try:
        for label, workers, _ in configs:
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.ERROR)
            client = distributed.Client(cluster, set_as_default=False)
            ddf = dd.from_map(make_partition, range(args.partitions), rows=per, size=args.size)
            run(client, ddf, None)  # warm-up: imports and the first allocations on every worker
            clusters[label], clients[label], frames[label] = cluster, client, ddf
        times = {label: [] for label, _, _ in configs}
        only_make = {1: [], 2: []}
        controls = {1: [], 2: []}
        expected = rows * (args.size + 16)
        for _ in range(args.rounds):
            for label, _, threads in configs:
                secs, total = run(clients[label], frames[label], threads)
                assert total == expected, (total, expected)
                times[label].append(secs)
            for workers in (1, 2):
                label = f"{workers} worker{'s' if workers > 1 else ''}, engine threads=1"
                secs, total = run(clients[label], frames[label], "none")
                assert total == rows * args.size
                only_make[workers].append(secs)
                controls[workers].append(control(clients[f"{workers} worker{'s' if workers > 1 else ''}, "
                                                         "engine threads=1"], args.partitions))
    finally:
        for label in clients:
            clients[label].close()
            clusters[label].close()

    print(f"{'configuration':36s} {'seconds':>8s} {'MB/s':>8s}")
    for label, _, _ in configs:
        secs = statistics.median(times[label])
        print(f"{label:36s} {secs:8.3f} {rows * args.size / secs / 1e6:8.1f}")
    for kind in ("engine threads default", "engine threads=1"):
        one, two = times[f"1 worker, {kind}"], times[f"2 workers, {kind}"]
        print(f"speed-up 2 workers / 1 worker, {kind}: {statistics.median(a / b for a, b in zip(one, two)):.2f}x")
    print(f"making and counting the partitions only (no lwc): 1 worker {statistics.median(only_make[1]):.3f} s, "
          f"2 workers {statistics.median(only_make[2]):.3f} s")
    breakdown(per, args.size, args.rounds)
    print(f"control (pure Python, no lwc): 1 worker {statistics.median(controls[1]):.3f} s, 2 workers "
          f"{statistics.median(controls[2]):.3f} s, speed-up "
          f"{statistics.median(a / b for a, b in zip(controls[1], controls[2])):.2f}x")


if __name__ == "__main__":
    main()
