# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.stream's reader and writer under threads and hostile file objects: several threads on one
object, file callbacks (the sink's write(), the source's read()/readinto()) that re-enter the
object, write to it, close it, raise, or keep what they were given. Nothing may crash; a
re-entrant call raises RuntimeError; what a callback keeps never changes afterwards."""

import gc
import io
import random
import threading
import time

import pytest

import lwc
import lwc.stream

KEY = bytes(range(32))
RECORD = 1000


def records(n, seed):
    rng = random.Random(seed)
    return [b"%08d" % i + rng.randbytes(RECORD - 8) for i in range(n)]


def decrypt(ct):
    with lwc.stream.open(io.BytesIO(ct), "rb", key=KEY) as f:
        return f.read()


class SlowSink(io.RawIOBase):
    """A sink that gives up the GIL in every write, so that other threads run meanwhile."""

    def __init__(self):
        self.buf = io.BytesIO()

    def writable(self):
        return True

    def write(self, data):
        time.sleep(0.0005)
        return self.buf.write(data)


def run_threads(target, n):
    errors = []

    def wrapped(i):
        try:
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_threads_writing_one_writer():
    sink = SlowSink()
    w = lwc.stream.open(sink, "wb", key=KEY, chunk_size=4096, threads=2)
    per_thread = {i: records(300, i) for i in range(6)}

    def write_all(i):
        for r in per_thread[i]:
            w.write(r)

    assert run_threads(write_all, 6) == []
    w.close()
    got = decrypt(sink.buf.getvalue())
    assert len(got) == 6 * 300 * RECORD
    pieces = sorted(got[i:i + RECORD] for i in range(0, len(got), RECORD))
    assert pieces == sorted(r for rs in per_thread.values() for r in rs)


def test_threads_reading_one_reader():
    data = records(3000, 7)
    ct = io.BytesIO()
    with lwc.stream.open(ct, "wb", key=KEY, chunk_size=1024) as w:
        w.write(b"".join(data))
    r = lwc.stream.open(io.BytesIO(ct.getvalue()), "rb", key=KEY, threads=2)
    got = [[] for _ in range(5)]

    def read_all(i):
        while True:
            b = r.read(RECORD)
            if not b:
                return
            got[i].append(b)

    assert run_threads(read_all, 5) == []
    assert r.finished
    r.close()
    assert sorted(b for g in got for b in g) == sorted(data)


def test_a_thread_closing_while_others_write():
    sink = SlowSink()
    w = lwc.stream.open(sink, "wb", key=KEY, chunk_size=1024)
    written = []

    def writer(i):
        if i == 0:
            time.sleep(0.05)
            w.close()
            return
        n = 0
        while True:
            try:
                w.write(b"%d" % i * 500)
            except ValueError as e:
                assert "closed" in str(e)
                break
            n += 1
        written.append((i, n))

    assert run_threads(writer, 4) == []
    got = decrypt(sink.buf.getvalue())  # complete: close() came between whole writes
    assert len(got) == sum(len(b"%d" % i) * 500 * n for i, n in written)


class Reentering(io.RawIOBase):
    """A sink whose write() does something to the writer it belongs to."""

    def __init__(self, action):
        self.action = action
        self.writer = None
        self.buf = io.BytesIO()
        self.errors = []

    def writable(self):
        return True

    def write(self, data):
        if self.writer is not None:
            try:
                self.action(self.writer)
            except RuntimeError as e:
                self.errors.append(e)
                raise
        return self.buf.write(data)


@pytest.mark.parametrize("action", [
    lambda w: w.write(b"more"),
    lambda w: w.close(),
    lambda w: w.abort(),
    lambda w: w._w.finish(),
    lambda w: w._w.write(b"x"),
], ids=["write", "close", "abort", "finish", "raw-write"])
def test_a_sink_that_reenters_its_writer_gets_runtime_error(action):
    sink = Reentering(action)
    w = lwc.stream.StreamWriter(sink, key=KEY, chunk_size=1024)
    sink.writer = w
    with pytest.raises(RuntimeError, match="re-entrant"):
        w.write(b"a" * 5000)
    assert sink.errors and "re-entrant" in str(sink.errors[0])
    assert not w.closed  # the inner call changed nothing
    sink.writer = None
    # The writer failed (its file raised): it refuses more, and what it wrote is refused too.
    with pytest.raises(ValueError):
        w.write(b"b")
    with pytest.raises(ValueError):
        w.close()
    assert w.closed
    with pytest.raises(lwc.InvalidTag):
        decrypt(sink.buf.getvalue())


class Source(io.RawIOBase):
    """A source over `data` whose read() (or readinto()) calls `action` first."""

    def __init__(self, data, action=None):
        self.f = io.BytesIO(data)
        self.action = action
        self.reader = None

    def readable(self):
        return True

    def read(self, n=-1):
        if self.reader is not None and self.action is not None:
            self.action(self.reader)
        return self.f.read(n)


@pytest.mark.parametrize("action", [
    lambda r: r.read(10),
    lambda r: r.readinto(bytearray(10)),
    lambda r: r.close(),
    lambda r: r.finished,
], ids=["read", "readinto", "close", "finished"])
def test_a_source_that_reenters_its_reader_gets_runtime_error(action):
    ct = io.BytesIO()
    with lwc.stream.open(ct, "wb", key=KEY, chunk_size=1024) as w:
        w.write(b"z" * 100000)
    src = Source(ct.getvalue(), action)
    r = lwc.stream.StreamReader(src, key=KEY)
    src.reader = r
    with pytest.raises(RuntimeError, match="re-entrant"):
        r.read(100)
    assert not r.closed
    src.reader = None
    with pytest.raises(ValueError):  # the reader failed: it refuses to go on
        r.read(100)
    r.close()
    assert r.closed


def test_a_sink_writing_to_the_writer_from_another_thread_waits():
    # The callback hands the writer to a second thread and does not wait for it: that thread
    # blocks until the first call is over, then writes.
    sink = SlowSink()
    w = lwc.stream.open(sink, "wb", key=KEY, chunk_size=1024)
    started = []
    orig_write = sink.write

    def write(data):
        if not started:
            t = threading.Thread(target=lambda: w.write(b"second"))
            started.append(t)
            t.start()
        return orig_write(data)

    sink.write = write
    w.write(b"first")
    started[0].join()
    w.close()
    assert decrypt(sink.buf.getvalue()) == b"firstsecond"


class Raising(io.RawIOBase):
    def __init__(self, after, exc):
        self.after, self.exc, self.calls = after, exc, 0
        self.buf = io.BytesIO()

    def writable(self):
        return True

    def readable(self):
        return True

    def write(self, data):
        self.calls += 1
        if self.calls > self.after:
            raise self.exc
        return self.buf.write(data)

    def read(self, n=-1):
        self.calls += 1
        if self.calls > self.after:
            raise self.exc
        return b"\0" * min(n, 100)


# Exception types, not instances: an instance shared by the parametrization outlives the test,
# and the traceback it gets when raised would keep the test's frames, and so its lwc.stream
# objects, alive until the interpreter exits.
@pytest.mark.parametrize("exc_type", [OSError, KeyboardInterrupt, ValueError])
def test_callbacks_that_raise(exc_type):
    exc = exc_type("raised by the file object")
    sink = Raising(2, exc)
    w = lwc.stream.open(sink, "wb", key=KEY, chunk_size=1024)
    with pytest.raises(type(exc)):
        for _ in range(100):
            w.write(b"q" * 300000)
    with pytest.raises(ValueError):
        w.close()
    with pytest.raises(lwc.InvalidTag):
        decrypt(sink.buf.getvalue())
    src = Raising(0, exc)
    r = lwc.stream.open(src, "rb", key=KEY)
    with pytest.raises(type(exc)):
        r.read()
    r.close()


def test_what_a_sink_keeps_never_changes():
    kept = []

    class Keeper(io.RawIOBase):
        def writable(self):
            return True

        def write(self, data):
            # The object itself and a slice of it (a view, if it were a view).
            kept.append((data, data[:], bytes(data)))
            return len(data)

    w = lwc.stream.open(Keeper(), "wb", key=KEY, chunk_size=1024, threads=2)
    for i in range(48):
        w.write(bytes([i]) * 65536)
    w.close()
    assert len(kept) > 3
    for data, piece, copy in kept:
        assert bytes(data) == copy and bytes(piece) == copy
    del w
    gc.collect()
    for data, piece, copy in kept:
        assert bytes(data) == copy and bytes(piece) == copy


def test_what_a_source_keeps_never_changes_and_is_never_plaintext():
    ct = io.BytesIO()
    plain = b"secret plaintext " * 200000
    with lwc.stream.open(ct, "wb", key=KEY, chunk_size=1024) as w:
        w.write(plain)
    ct = ct.getvalue()
    kept = []

    class Keeper:  # only readinto(): the reader must hand it a buffer
        def __init__(self):
            self.pos = 0

        def readinto(self, buf):
            n = min(len(buf), len(ct) - self.pos)
            buf[:n] = ct[self.pos:self.pos + n]
            self.pos += n
            kept.append((buf, buf[:n], ct[self.pos - n:self.pos]))
            return n

    src = Keeper()
    with lwc.stream.open(src, "rb", key=KEY, threads=2) as r:
        assert r.read() == plain
    del r
    gc.collect()
    assert len(kept) > 3
    for buf, piece, copy in kept:
        assert bytes(piece) == copy
        assert b"secret plaintext" not in bytes(buf)


def test_a_writer_dropped_by_a_thread_that_raised():
    sink = io.BytesIO()

    def work():
        w = lwc.stream.open(sink, "wb", key=KEY, chunk_size=1024)
        w.write(b"partial " * 300000)
        raise RuntimeError("stop")

    assert len(run_threads(lambda i: work(), 1)) == 1
    gc.collect()
    with pytest.raises(lwc.InvalidTag, match="truncated"):
        decrypt(sink.getvalue())
