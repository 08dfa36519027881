# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.batch on lists with more than one thread: the extension reads the next chunk of the list
(4096 jobs, when its messages average under 512 bytes) while the engine runs the current one on
the pool; chunks of larger messages run one after another on every thread. Results,
errors and the objects held must not depend on that: every case here is compared with the
one-thread run, on lists whose length is not a multiple of the chunk.

When no worker took a chunk by the time the next one was read (a busy machine), a call stops
handing chunks over; LWC_PYTHON_LISTS_ALWAYS_PIPELINED=1 keeps them pipelined, so that these
tests reach the overlapped paths on a loaded CI machine too."""

import random
import struct
import sys
import threading

import pytest

import lwc

CHUNK = 4096
N = 3 * CHUNK + 17  # three full chunks and a short one


@pytest.fixture(autouse=True)
def always_pipelined(monkeypatch):
    monkeypatch.setenv("LWC_PYTHON_LISTS_ALWAYS_PIPELINED", "1")


def jobs(rng, n, lengths):
    keys = [rng.randbytes(16) for _ in range(n)]
    nonces = [rng.randbytes(16) for _ in range(n)]
    msgs = [rng.randbytes(rng.choice(lengths)) for _ in range(n)]
    ads = [rng.randbytes(rng.randrange(24)) for _ in range(n)]
    return keys, nonces, msgs, ads


def flip_first_byte(b):
    return bytes([b[0] ^ 1]) + b[1:]


@pytest.mark.parametrize("always", [True, False], ids=["always-pipelined", "adaptive"])
@pytest.mark.parametrize("lengths", [(0, 1, 15, 16, 33, 64), (16000, 16384, 17000)], ids=["small", "16KiB"])
def test_aead_lists_equal_one_thread(lengths, always, monkeypatch):
    """Small messages make pipelined chunks of 4096 jobs, 16 KiB ones run on every thread
    without overlap: both must line up results, tags and ok flags with the one-thread run (and
    the single-message class)."""
    if not always:
        monkeypatch.delenv("LWC_PYTHON_LISTS_ALWAYS_PIPELINED")
    rng = random.Random(7)
    n = N if lengths[0] < 100 else 3 * 256 + 17
    keys, nonces, msgs, ads = jobs(rng, n, lengths)
    exported = n // 2  # a buffer export held by a chunk that runs on the pool
    msgs[exported] = bytearray(msgs[exported])
    one = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, threads=1)
    two = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, threads=2)
    assert two == one
    for i in {0, 255, 256, 511, 512, CHUNK - 1, CHUNK, 2 * CHUNK + 1, n - 1} & set(range(n)):
        assert one[i] == lwc.AsconAEAD128(keys[i]).encrypt(nonces[i], bytes(msgs[i]), ads[i])

    cts, tags = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, detached=True, threads=2)
    assert (cts, tags) == lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, detached=True, threads=1)
    assert [c + t for c, t in zip(cts, tags)] == one

    forged = {0, 5, 256, 513, CHUNK - 1, CHUNK, 2 * CHUNK + 7, n - 1} & set(range(n))
    sealed = [flip_first_byte(c) if i in forged and c else c for i, c in enumerate(one)]
    bad_tags = [flip_first_byte(t) if i in forged else t for i, t in enumerate(tags)]
    expected_plain = [None if i in forged else bytes(m) for i, m in enumerate(msgs)]
    expected_ok = [i not in forged for i in range(n)]
    for threads in (1, 2):
        plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, ads, threads=threads)
        assert ok == expected_ok and plain == expected_plain
        plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, ads, tags=bad_tags, threads=threads)
        assert ok == expected_ok and plain == expected_plain
    msgs[exported].extend(b"!")  # its export was released with its chunk


def test_hash_lists_equal_one_thread():
    rng = random.Random(8)
    keys, _, msgs, custom = jobs(rng, N, (0, 3, 40, 200))
    for name, kwargs in [("ascon-hash256", {}), ("ascon-mac", {"keys": keys}),
                         ("ascon-cxof128", {"customization": custom, "length": 20})]:
        one = lwc.batch.hash(name, msgs, threads=1, **kwargs)
        assert lwc.batch.hash(name, msgs, threads=2, **kwargs) == one
        assert lwc.batch.hash(name, tuple(msgs), threads=None, **kwargs) == one
    assert one[2 * CHUNK + 9] == lwc.ascon_cxof128_digest(msgs[2 * CHUNK + 9], 20, customization=custom[2 * CHUNK + 9])


def test_error_in_a_late_chunk():
    """A wrong item in chunk 2 is found while chunk 1 runs on the pool: the same ValueError as
    with one thread, nothing held afterwards, and the next call is unaffected."""
    rng = random.Random(9)
    keys, nonces, msgs, _ = jobs(rng, N, (64,))
    probe = bytes(range(64))
    # Chunk 0 has run when the error comes, chunk 1 is running: both must be let go of.
    msgs[:2 * CHUNK] = [probe] * CHUNK + [probe if i % 2 else bytearray(probe) for i in range(CHUNK)]
    bad_keys = list(keys)
    bad_keys[2 * CHUNK + 5] = bytes(15)
    before = sys.getrefcount(probe)
    messages = set()
    for threads in (1, 2, 1, 2):
        with pytest.raises(ValueError, match=r"keys\[8197\] must be 16 bytes, got 15") as e:
            lwc.batch.encrypt("ascon-aead128", bad_keys, nonces, msgs, threads=threads)
        messages.add(str(e.value))
        assert sys.getrefcount(probe) == before
        again = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, threads=threads)
        assert again == lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, threads=1)
    assert len(messages) == 1
    for b in msgs[CHUNK:2 * CHUNK:2]:
        b.extend(b"!")  # no export left behind

    # An error the engine finds (not the extension) in a chunk that runs on the pool.
    custom = [b""] * N
    custom[2 * CHUNK + 5] = bytes(257)
    engine_errors = set()
    for threads in (1, 2):
        with pytest.raises(ValueError, match="customization string must be at most 256") as e:
            lwc.batch.hash("ascon-cxof128", msgs, customization=custom, threads=threads)
        engine_errors.add(str(e.value))
        assert sys.getrefcount(probe) == before
    assert len(engine_errors) == 1


@pytest.mark.parametrize("threads", [1, 2])
def test_list_shrunk_by_another_thread_raises(threads):
    """The other thread gets the GIL only between chunks (while this thread waits for the
    engine), and, when chunks are pipelined, only once it asked for the GIL for a switch
    interval. The call must notice that the list is shorter than it was and raise, not read
    past its end. Once in a few tries the other thread may come too late: then it tries again."""
    n = 200_000
    raised = False
    for _ in range(5):
        msgs = [struct.pack("<I", i) * 4 for i in range(n)]
        go = threading.Event()

        def shrink():
            go.wait()
            del msgs[10:]

        t = threading.Thread(target=shrink)
        t.start()
        go.set()
        try:
            out = lwc.batch.hash("ascon-hash256", msgs, threads=threads)
            assert len(out) == n
        except RuntimeError as e:
            assert f"messages: the list changed size during the call (fewer than its {n} items left)" in str(e)
            raised = True
        finally:
            t.join()
        assert len(msgs) == 10
        if raised:
            break
    assert raised


def test_items_replaced_by_another_thread_are_held_until_their_chunk_ran():
    """Every job uses an object the list held at index i when the call read it: each message
    names its index and generation, so a job that read a freed object (reused for another
    message) gives a plaintext naming another index or a mix of two."""
    n = N
    keys, nonces = [bytes([1]) * 16] * n, [bytes([2]) * 16] * n

    def message(i, generation):
        return struct.pack("<II", i, generation) * 8

    msgs = [message(i, 0) for i in range(n)]
    stop = threading.Event()

    def churn():
        g = 0
        while not stop.is_set():
            g += 1
            for i in range(0, n, 7):
                msgs[i] = message(i, g)

    t = threading.Thread(target=churn)
    t.start()
    try:
        for _ in range(10):
            sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, threads=2)
            plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, threads=1)
            assert all(ok)
            for i, p in enumerate(plain):
                assert p == message(i, struct.unpack_from("<I", p, 4)[0])
    finally:
        stop.set()
        t.join()
