# SPDX-License-Identifier: MIT OR Apache-2.0
"""Thread safety (shared AEAD and hash objects) and the release of the GIL on large inputs."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import lwc


def test_shared_aead_object_across_threads():
    a = lwc.AsconAEAD128(os.urandom(16))
    jobs = [(os.urandom(16), os.urandom(n), os.urandom(n % 50)) for n in range(0, 20000, 97)]
    serial = [a.encrypt(*j) for j in jobs]
    with ThreadPoolExecutor(8) as pool:
        parallel = list(pool.map(lambda j: a.encrypt(*j), jobs))
        opened = list(pool.map(lambda jc: a.decrypt(jc[0][0], jc[1], jc[0][2]), zip(jobs, serial)))
    assert parallel == serial
    assert opened == [j[1] for j in jobs]


def test_concurrent_updates_of_one_hash_object():
    # Every thread feeds identical chunks, so any interleaving gives the same digest; a data
    # race inside the object would not.
    for chunk in (b"\x5a" * 40, bytes(range(256)) * 40):  # below and above the GIL threshold
        h = lwc.ascon_hash256()
        threads, rounds = 8, 200

        def feed():
            for _ in range(rounds):
                h.update(chunk)

        workers = [threading.Thread(target=feed) for _ in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        assert h.digest() == lwc.ascon_hash256(chunk * (threads * rounds)).digest()


def test_concurrent_reads_partition_the_stream():
    x = lwc.ascon_xof128(b"seed")
    size, per_thread, threads = 5000, 20, 6
    pieces: list[bytes] = []
    lock = threading.Lock()

    def reader():
        got = [x.read(size) for _ in range(per_thread)]
        with lock:
            pieces.extend(got)

    workers = [threading.Thread(target=reader) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    stream = lwc.ascon_xof128(b"seed").digest(size * per_thread * threads)
    expected = sorted(stream[i : i + size] for i in range(0, len(stream), size))
    assert sorted(pieces) == expected


def test_gil_is_released_for_large_inputs():
    # While one thread encrypts a large message, the main thread keeps running Python code:
    # the longest pause it sees must be far shorter than the encryption. With the GIL held
    # for the whole call, that pause would be the whole call.
    a = lwc.Ascon128(bytes(16))
    nonce = bytes(16)
    data = bytes(1 << 20)
    start = time.perf_counter()
    a.encrypt(nonce, data)
    per_mib = time.perf_counter() - start
    data = bytes(int(max(1, 0.3 / per_mib)) << 20)  # about 0.3 s of work

    window: list[float] = []

    def work():
        window.append(time.perf_counter())
        a.encrypt(nonce, data)
        window.append(time.perf_counter())

    t = threading.Thread(target=work)
    stamps = []
    t.start()
    while t.is_alive():
        stamps.append(time.perf_counter())
    t.join()
    begin, end = window
    seen = [begin] + [s for s in stamps if begin < s < end] + [end]
    longest = max(y - x for x, y in zip(seen, seen[1:]))
    assert longest < (end - begin) / 3, (longest, end - begin)
