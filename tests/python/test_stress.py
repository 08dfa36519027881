# SPDX-License-Identifier: MIT OR Apache-2.0
"""Stateful objects under threads and re-entry: hash, XOF, MAC and PRF objects, AEAD objects,
*_into calls and batch calls sharing their inputs. Never a crash or a deadlock, results
equal to a serial run, and a clear error where a call cannot be served.

Small inputs keep the GIL, large ones (>= lwc._lwc.GIL_RELEASE_THRESHOLD) release it: both
paths are exercised. The whole file runs in well under 30 s."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import lwc

THRESHOLD = lwc._lwc.GIL_RELEASE_THRESHOLD
SIZES = (0, 1, 63, THRESHOLD - 1, THRESHOLD, 3 * THRESHOLD + 5)
THREADS = 8


def run_threads(target, count=THREADS, *args):
    errors = []
    barrier = threading.Barrier(count)

    def wrapped(i):
        try:
            barrier.wait()
            target(i, *args)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    workers = [threading.Thread(target=wrapped, args=(i,)) for i in range(count)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
        assert not w.is_alive(), "a thread is stuck (deadlock)"
    if errors:
        raise errors[0]


HASH_KINDS = ["ascon-hash256", "ascon-xof128", "ascon-cxof128", "ascon-mac", "ascon-prf"]


def _new(name):
    info = next(i for i in lwc.algorithms() if i.name == name)
    if info.key_size:
        return lwc.new(name, key=bytes(info.key_size))
    return lwc.new(name)


def _out(h):
    return h.digest() if h.digest_size else h.digest(48)


@pytest.mark.parametrize("name", HASH_KINDS)
def test_hash_objects_under_concurrent_update_digest_copy(name):
    h = _new(name)
    # One byte value throughout: every interleaving of whole updates absorbs the same bytes,
    # so the result is known; a torn update or a lost one would change it.
    chunks = [b"\x5a" * s for s in SIZES]
    rounds = 40

    def work(i):
        for _ in range(rounds):
            for c in chunks:
                h.update(c)
                if i % 2:
                    _out(h)
                    h.copy()
                    if h.name in ("ascon-mac", "ascon-prf"):
                        with pytest.raises(lwc.InvalidTag):
                            h.verify(bytes(16))

    run_threads(work)
    whole = _new(name)
    whole.update(b"\x5a" * (sum(SIZES) * rounds * THREADS))
    assert _out(h) == _out(whole)


def test_xof_reads_and_digests_concurrently():
    x = lwc.ascon_xof128(b"seed")
    reference = lwc.ascon_xof128(b"seed").digest(64)
    pieces = []
    lock = threading.Lock()

    def work(i):
        got = []
        for _ in range(30):
            got.append(x.read(THRESHOLD + 7 if i % 2 else 17))
            assert x.digest(64) == reference
        with lock:
            pieces.extend(got)

    run_threads(work)
    total = sum(len(p) for p in pieces)
    stream = lwc.ascon_xof128(b"seed").digest(total)
    assert sorted(pieces) == sorted(_split(stream, pieces))
    with pytest.raises(ValueError):
        x.update(b"more")


def _split(stream, pieces):
    # The reads partition the stream: every piece is a slice of it at some offset. Only the
    # multiset of lengths is known, so rebuild candidate slices greedily by matching.
    out, pos = [], 0
    remaining = list(pieces)
    while pos < len(stream):
        for p in remaining:
            if stream[pos:pos + len(p)] == p:
                out.append(p)
                remaining.remove(p)
                pos += len(p)
                break
        else:
            raise AssertionError(f"no read matches the stream at {pos}")
    return out


@pytest.mark.parametrize("name", ["ascon-aead128", "ascon-128", "xoodyak", "isap-a-128a"])
def test_aead_object_shared_by_threads(name):
    info = next(i for i in lwc.algorithms() if i.name == name)
    aead = lwc.aead(name, os.urandom(info.key_size))
    jobs = [(os.urandom(info.nonce_size), os.urandom(s), os.urandom(s % 30)) for s in SIZES * 6]
    serial = [aead.encrypt(*j) for j in jobs]

    def work(i):
        for (nonce, msg, ad), sealed in zip(jobs, serial):
            assert aead.encrypt(nonce, msg, ad) == sealed
            assert aead.decrypt(nonce, sealed, ad) == msg
            buf = bytearray(len(msg) + aead.tag_size)
            aead.encrypt_into(nonce, msg, ad, buf)
            assert buf == sealed
            out = bytearray(len(msg))
            aead.decrypt_into(nonce, bytes(buf), ad, out)
            assert out == msg

    run_threads(work)


def test_into_with_one_output_buffer_shared_by_threads():
    # Several threads write into the same buffer: the result is garbage, but never a crash,
    # and a failing decrypt_into still leaves zeros or a complete verified plaintext.
    aead = lwc.AsconAEAD128(bytes(16))
    msg = os.urandom(3 * THRESHOLD)
    sealed = aead.encrypt(bytes(16), msg)
    forged = bytearray(sealed)
    forged[-1] ^= 1
    out = bytearray(len(msg))

    def work(i):
        for _ in range(20):
            if i % 2:
                aead.decrypt_into(bytes(16), sealed, None, out)
            else:
                with pytest.raises(lwc.InvalidTag):
                    aead.decrypt_into(bytes(16), bytes(forged), None, out)

    run_threads(work)


def test_batch_calls_sharing_inputs():
    n = 64
    keys = [os.urandom(16) for _ in range(n)]
    nonces = [os.urandom(16) for _ in range(n)]
    msgs = [os.urandom(i * 37) for i in range(n)]
    shared_msgs = [bytearray(m) for m in msgs]  # exported buffers, read without the GIL
    expected = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs)

    def work(i):
        for _ in range(5):
            got = lwc.batch.encrypt("ascon-aead128", keys, nonces, shared_msgs, threads=1 + i % 2)
            assert got == expected
            plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, got)
            assert all(ok) and plain == msgs
            assert lwc.batch.hash("ascon-hash256", shared_msgs) == lwc.batch.hash("ascon-hash256", msgs)

    run_threads(work, 4)


def test_batch_list_mutated_by_another_thread():
    msgs = [os.urandom(100) for _ in range(2000)]
    stop = threading.Event()

    def mutate():
        while not stop.is_set():
            msgs.append(b"x")
            msgs.pop()

    t = threading.Thread(target=mutate)
    t.start()
    try:
        for _ in range(20):
            try:
                out = lwc.batch.hash("ascon-hash256", msgs)
                assert len(out) in (len(msgs), len(msgs) + 1, len(msgs) - 1)
            except RuntimeError as e:
                assert "changed size" in str(e)
    finally:
        stop.set()
        t.join()


# ---- re-entry: callbacks into the object being used -------------------------------------

class ReentrantIndex:
    """An int-like length whose __index__ calls back into the object being used."""

    def __init__(self, action, value):
        self.action, self.value, self.calls = action, value, 0

    def __index__(self):
        self.calls += 1
        self.action()
        return self.value


def test_index_hook_reentering_xof():
    x = lwc.ascon_xof128(b"abc")
    n = ReentrantIndex(lambda: x.update(b"d"), 32)
    assert x.digest(n) == lwc.ascon_xof128(b"abcd").digest(32)
    assert n.calls == 1
    # read() with a length that reads the same object first
    y = lwc.ascon_xof128(b"abc")
    m = ReentrantIndex(lambda: y.read(5), 10)
    assert y.read(m) == lwc.ascon_xof128(b"abc").digest(15)[5:]
    # a hook that starts reading, then update() is refused cleanly
    z = lwc.ascon_xof128(b"abc")
    k = ReentrantIndex(lambda: z.read(1), 4)
    z.digest(k)
    with pytest.raises(ValueError):
        z.update(b"x")


def test_index_hook_reentering_prf_tag():
    p = lwc.ascon_prf(bytes(16), b"m")
    n = ReentrantIndex(lambda: p.update(b"n"), 16)
    assert p.tag(n) == lwc.ascon_prf_digest(bytes(16), b"mn", 16)


def test_index_hook_reentering_from_another_thread_while_busy():
    # The hook waits for another thread that uses the same object: no deadlock, because no
    # lock is held while Python code runs.
    x = lwc.ascon_xof128(b"")

    def hook():
        t = threading.Thread(target=lambda: x.update(b"z" * (2 * THRESHOLD)))
        t.start()
        t.join(timeout=30)
        assert not t.is_alive()

    assert len(x.digest(ReentrantIndex(hook, 8))) == 8


# __init__ constructs in place; run again on a live object it would rebuild the key or the
# object's lock under a thread that is using it. nanobind refuses the call (TypeError).
REINIT_REFUSED = (TypeError, RuntimeError)


@pytest.mark.filterwarnings("ignore:nanobind. attempted to initialize:RuntimeWarning")
def test_init_called_again_is_refused():
    h = lwc.ascon_hash256(b"a")
    with pytest.raises(REINIT_REFUSED):
        h.__init__(b"b")
    assert h.digest() == lwc.ascon_hash256(b"a").digest()
    m = lwc.ascon_mac(bytes(16), b"a")
    with pytest.raises(REINIT_REFUSED):
        m.__init__(bytes([1]) * 16, b"a")
    assert m.digest() == lwc.ascon_mac_digest(bytes(16), b"a")
    a = lwc.AsconAEAD128(bytes(16))
    sealed = a.encrypt(bytes(16), b"x")
    with pytest.raises(REINIT_REFUSED):
        a.__init__(bytes([1]) * 16)
    assert a.encrypt(bytes(16), b"x") == sealed


@pytest.mark.filterwarnings("ignore:nanobind. attempted to initialize:RuntimeWarning")
def test_init_called_again_while_other_threads_use_the_object():
    h = lwc.ascon_xof128()
    a = lwc.AsconAEAD128(bytes(16))
    msg = os.urandom(4 * THRESHOLD)
    sealed = a.encrypt(bytes(16), msg)

    def work(i):
        for _ in range(30):
            if i == 0:
                for obj, args in ((h, (b"",)), (a, (bytes([7]) * 16,))):
                    with pytest.raises(REINIT_REFUSED):
                        obj.__init__(*args)
            else:
                h.update(msg)
                assert a.decrypt(bytes(16), sealed) == msg

    run_threads(work, 4)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="__buffer__ hooks need Python 3.12")
def test_buffer_hook_reentering_hash_update():
    h = lwc.ascon_hash256()

    class Data:
        def __buffer__(self, flags):
            h.update(b"inner")
            return memoryview(b"outer")

    h.update(Data())
    assert h.digest() == lwc.ascon_hash256(b"innerouter").digest()
