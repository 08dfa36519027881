#!/usr/bin/env python3
"""lwc.dask.encrypt_column on a distributed.LocalCluster: one worker process against two.

The column (--rows rows of --size bytes in --partitions partitions, Arrow-backed) is made on
the workers and persisted before any timing, so that what is timed is the encryption of every
partition where it lies and a count of the result's bytes (nothing but one integer per
partition comes back to the client). Ascon-AEAD128, one key (looked up on the workers by id),
a fresh random nonce per row drawn on the workers.

Four clusters run side by side, each with one thread per worker process:
1 and 2 workers with the batch engine's default threads (all cores of the machine in each
worker), and 1 and 2 workers with ``threads=1`` (one engine thread per worker). Each round
runs every configuration once, in turn; the figures are medians over the rounds and the
speed-ups medians of the per-round ratios (time with 1 worker / time with 2 workers).

    python bench/python/dask_bench.py [--rounds 7] [--rows 4000000] [--size 64] [--partitions 16]
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
import lwc.dask

ALG = "ascon-aead128"


def bench_key(key_id: str) -> bytes:
    # A stand-in for a key service: the benchmark's key is derived from its id on the worker.
    return hashlib.sha256(key_id.encode()).digest()[:16]


def make_partition(seed: int, rows: int, size: int) -> pd.DataFrame:
    data = np.random.default_rng(seed).integers(0, 256, rows * size, dtype=np.uint8)
    offsets = np.arange(0, (rows + 1) * size, size, dtype=np.int32)
    col = pa.Array.from_buffers(pa.binary(), rows, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    return pd.DataFrame({"payload": pd.arrays.ArrowExtensionArray(col)})


def sealed_bytes(partition: pd.DataFrame) -> int:
    return int(pa.array(partition["sealed"].array).buffers()[2].size)


def run(client: distributed.Client, ddf, threads) -> tuple:
    sealed = lwc.dask.encrypt_column(ddf, "payload", ALG, key_lookup=bench_key, key_id="bench",
                                     out_column="sealed", threads=threads)
    counts = sealed.map_partitions(sealed_bytes, meta=(None, "int64"))
    t = time.perf_counter()
    total = client.compute(counts.sum()).result()
    elapsed = time.perf_counter() - t
    return elapsed, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
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
            ddf = client.persist(ddf)
            assert client.compute(ddf.map_partitions(len).sum()).result() == rows  # made and held
            run(client, ddf, None)  # warm-up: imports and the first allocations on every worker
            clusters[label], clients[label], frames[label] = cluster, client, ddf
        times = {label: [] for label, _, _ in configs}
        expected = rows * (args.size + 16)
        for _ in range(args.rounds):
            for label, _, threads in configs:
                secs, total = run(clients[label], frames[label], threads)
                assert total == expected, (total, expected)
                times[label].append(secs)
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


if __name__ == "__main__":
    main()
