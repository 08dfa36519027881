# SPDX-License-Identifier: MIT OR Apache-2.0
"""Atheris fuzzer over lwc's Python API: random calls into lwc, lwc.batch, lwc.stream and
lwc.arrow with random argument types, sizes near the limits and overlapping buffers
(memoryview slices of one bytearray). Any Python exception is fine; a crash (or an
exception outside the expected set, or a round trip that does not hold) is a finding.

    python fuzz/python/fuzz_api.py -max_total_time=60            # CI smoke run
    python fuzz/python/fuzz_api.py -runs=1000000 -jobs=1 corpus/  # long run (docs/TESTING.md)

Needs `pip install atheris` and lwc installed in the same environment.
"""

from __future__ import annotations

import io
import sys

import atheris

import lwc
import lwc.batch
import lwc.stream

try:
    import pyarrow as pa
    import lwc.arrow
except ImportError:  # lwc.arrow needs pyarrow
    pa = None


def _instrument_lwc() -> None:
    """Coverage feedback from lwc's Python layer and this file. Instrumented by function, not
    through atheris' import hook, which misses packages loaded by a custom finder (an editable
    install)."""
    import inspect

    modules = [sys.modules[__name__]] + [m for name, m in sys.modules.items()
                                         if name == "lwc" or name.startswith("lwc.")]
    for module in modules:
        for obj in vars(module).values():
            targets = [obj] if inspect.isfunction(obj) else (
                [v for v in vars(obj).values() if inspect.isfunction(v)] if inspect.isclass(obj) else [])
            for f in targets:
                if getattr(f, "__module__", None) == module.__name__:
                    atheris.instrument_func(f)


INFOS = list(lwc.algorithms())
AEADS = [i for i in INFOS if i.kind == "aead"]
HASHES = [i for i in INFOS if i.kind != "aead"]
BATCH = set(lwc.batch.algorithms())
STREAM_KEY = bytes(32)

# What a caller may get back for bad arguments: never anything else.
EXPECTED = (ValueError, TypeError, OverflowError, lwc.InvalidTag, MemoryError, RuntimeError,
            BufferError, IndexError, KeyError, io.UnsupportedOperation)
if pa is not None:
    EXPECTED = EXPECTED + (pa.ArrowException,)

SIZES_NEAR_LIMITS = [0, 1, 4, 15, 16, 17, 64, 255, 256, 257, 4095, 4096, 2**31 - 1, 2**31,
                     2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1, -(2**63)]
# Output lengths that must be refused before anything is allocated.
REFUSED_LENGTHS = [2**63 - 1, 2**63, 2**64 - 1, 2**64, -1, -(2**63)]
SMALL_OUTPUT = 1 << 16  # other output lengths stay below this


class Fuzz:
    def __init__(self, data: bytes) -> None:
        self.fdp = atheris.FuzzedDataProvider(data)
        # One arena: buffers handed to a call may be slices of it, overlapping each other.
        self.arena = bytearray(self.fdp.ConsumeBytes(self.fdp.ConsumeIntInRange(0, 512)))

    def pick(self, seq):
        return seq[self.fdp.ConsumeIntInRange(0, len(seq) - 1)]

    def flag(self) -> bool:
        return self.fdp.ConsumeBool()

    def size(self, usual: int) -> int:
        choice = self.fdp.ConsumeIntInRange(0, 9)
        if choice < 6:
            return usual
        if choice < 8:
            return self.fdp.ConsumeIntInRange(0, 300)
        return self.pick(SIZES_NEAR_LIMITS)

    def small_length(self) -> int:
        n = self.size(32)
        return n if 0 <= n <= SMALL_OUTPUT else self.fdp.ConsumeIntInRange(0, SMALL_OUTPUT)

    def output_length(self) -> int:
        """A small length, or one that must be refused."""
        return self.small_length() if self.flag() else self.pick(REFUSED_LENGTHS)

    def buffer(self, usual: int):
        """bytes, a bytearray, a slice of the arena, a str, None or an int."""
        n = self.size(usual)
        kind = self.fdp.ConsumeIntInRange(0, 9)
        if kind <= 3 or n < 0 or n > 4096:
            return self.fdp.ConsumeBytes(max(0, min(n, 4096)))
        if kind <= 6 and self.arena:
            start = self.fdp.ConsumeIntInRange(0, len(self.arena))
            return memoryview(self.arena)[start:start + n]
        if kind == 7:
            return bytearray(self.fdp.ConsumeBytes(n))
        return self.pick([None, "text", 7, 1.5, [b"x"], object()])

    def out_buffer(self, usual: int):
        if self.arena and self.flag():
            start = self.fdp.ConsumeIntInRange(0, len(self.arena))
            n = usual if self.flag() else self.fdp.ConsumeIntInRange(0, 600)
            return memoryview(self.arena)[start:start + n]
        return bytearray(usual if self.flag() else self.fdp.ConsumeIntInRange(0, 600))

    def messages(self, n: int):
        return [self.buffer(self.fdp.ConsumeIntInRange(0, 64)) for _ in range(n)]

    # ---- the calls ------------------------------------------------------------------------

    def aead_object(self):
        info = self.pick(AEADS)
        key = self.buffer(info.key_size)
        kwargs = {}
        if self.flag():
            kwargs["tag_length"] = self.pick([None, info.min_tag_size, info.tag_size, self.size(info.tag_size)])
        aead = getattr(lwc, info.python_name)(key, **kwargs)
        nonce, msg, ad = self.buffer(info.nonce_size), self.buffer(40), self.buffer(8)
        op = self.fdp.ConsumeIntInRange(0, 3)
        if op == 0:
            sealed = aead.encrypt(nonce, msg, ad)
            assert aead.decrypt(nonce, sealed, ad) == bytes(msg)
        elif op == 1:
            aead.decrypt(nonce, msg, ad)
        elif op == 2:
            out = self.out_buffer(len(memoryview(msg)) + aead.tag_size if _is_buffer(msg) else 40)
            aead.encrypt_into(nonce, msg, ad, out)
        else:
            out = self.out_buffer(max(0, len(memoryview(msg)) - aead.tag_size) if _is_buffer(msg) else 0)
            before = bytes(out) if _is_buffer(out) else None
            try:
                aead.decrypt_into(nonce, msg, ad, out)
            except lwc.InvalidTag:
                # A failed decryption leaves zeros where it wrote (the whole of buf).
                assert before is None or bytes(out) == bytes(len(before))

    def hash_object(self):
        info = self.pick(HASHES)
        cls = getattr(lwc, info.python_name)
        args = [self.buffer(info.key_size)] if info.key_size else []
        if self.flag():
            args.append(self.buffer(20))
        kwargs = {}
        if info.kind == "cxof" and self.flag():
            kwargs["customization"] = self.buffer(10)
        h = cls(*args, **kwargs)
        for _ in range(self.fdp.ConsumeIntInRange(1, 4)):
            op = self.fdp.ConsumeIntInRange(0, 5)
            if op == 0:
                h.update(self.buffer(30))
            elif op == 1:
                h.digest() if info.digest_size else h.digest(self.small_length())
            elif op == 2 and not info.digest_size:
                h.read(self.small_length())
            elif op == 3 and not info.digest_size:
                h.hexdigest(self.output_length())
            elif op == 4 and info.key_size:
                tag = self.buffer(info.output_size)
                kwargs = {"tag_length": self.size(info.output_size)} if self.flag() else {}
                h.verify(tag, **kwargs)
            else:
                h = h.copy()

    def one_shot(self):
        info = self.pick(HASHES)
        digest = getattr(lwc, info.python_name + "_digest")
        args = [self.buffer(info.key_size)] if info.key_size else []
        args.append(self.buffer(50))
        if info.key_size and self.flag():
            verify = getattr(lwc, info.python_name + "_verify")
            kwargs = {"tag_length": self.size(info.output_size)} if self.flag() else {}
            verify(*args, self.buffer(info.output_size), **kwargs)
            return
        if not info.digest_size and self.flag():
            args.append(self.output_length())
        digest(*args)

    def batch_call(self):
        n = self.fdp.ConsumeIntInRange(0, 5)
        if self.flag():
            info = self.pick([i for i in HASHES if i.name in BATCH] or HASHES)
            kwargs = {}
            if info.key_size:
                kwargs["keys"] = [self.buffer(info.key_size) for _ in range(n)]
            if not info.digest_size and self.flag():
                kwargs["length"] = self.output_length()
            msgs = self.messages(n)
            if self.flag():
                try:
                    import numpy as np
                    rows = self.fdp.ConsumeIntInRange(0, 3)
                    msgs = np.zeros((rows, self.fdp.ConsumeIntInRange(0, 8)), np.uint8)
                    if info.key_size:
                        kwargs["keys"] = np.zeros((rows, info.key_size), np.uint8)
                except ImportError:
                    pass
            lwc.batch.hash(info.name, msgs, threads=1, **kwargs)
            return
        info = self.pick([i for i in AEADS if i.name in BATCH] or AEADS)
        keys = [self.buffer(info.key_size) for _ in range(n)]
        nonces = [self.buffer(info.nonce_size) for _ in range(n)]
        msgs = self.messages(n)
        kwargs = {}
        if self.flag():
            kwargs["tag_length"] = self.size(info.tag_size)
        if self.flag():
            kwargs["associated_data"] = self.messages(n)
        sealed = lwc.batch.encrypt(info.name, keys, nonces, msgs, threads=1, **kwargs)
        plain, ok = lwc.batch.decrypt(info.name, keys, nonces, sealed, threads=1, **kwargs)
        assert all(ok) and plain == [bytes(m) for m in msgs]

    def stream_call(self):
        out = io.BytesIO()
        chunk = self.pick([64, 100, 1024])
        with lwc.stream.open(out, "wb", key=STREAM_KEY, chunk_size=chunk, threads=1) as w:
            for _ in range(self.fdp.ConsumeIntInRange(0, 3)):
                w.write(self.buffer(100))
        blob = bytearray(out.getvalue())
        if blob and self.flag():
            blob[self.fdp.ConsumeIntInRange(0, len(blob) - 1)] ^= 1 + self.fdp.ConsumeIntInRange(0, 254)
        if self.flag():
            blob = blob[: self.fdp.ConsumeIntInRange(0, len(blob))]
        with lwc.stream.open(io.BytesIO(bytes(blob)), "rb", key=STREAM_KEY, threads=1) as r:
            r.read(self.pick([-1, 0, 1, 100, self.small_length()]))

    def arrow_call(self):
        if pa is None:
            return
        info = self.pick([i for i in AEADS if i.name in BATCH] or AEADS)
        n = self.fdp.ConsumeIntInRange(0, 4)
        msgs = pa.array([None if self.flag() else self.fdp.ConsumeBytes(20) for _ in range(n)], pa.binary())
        key = self.fdp.ConsumeBytes(info.key_size)
        nonces = lwc.arrow.random_nonces(info.name, n) if self.flag() else self.fdp.ConsumeBytes(info.nonce_size)
        nulls = self.flag()
        sealed = lwc.arrow.encrypt(info.name, key, nonces, msgs, authenticate_nulls=nulls, threads=1)
        plain, ok = lwc.arrow.decrypt(info.name, key, nonces, sealed, authenticate_nulls=nulls, threads=1)
        assert ok.null_count == 0
        if nulls:
            assert plain.to_pylist() == msgs.to_pylist()
        if self.flag():
            h = self.pick([i for i in HASHES if i.name in BATCH and i.kind in ("xof", "hash")] or HASHES)
            length = self.output_length()
            lwc.arrow.hash(h.name, msgs, length if not h.digest_size else None, threads=1)

    # The stream and Arrow calls cost 10-100 times more than the others: picked less often.
    CALLS = ("aead_object",) * 4 + ("hash_object",) * 4 + ("one_shot",) * 3 + ("batch_call",) * 3 + (
        "stream_call", "arrow_call")


def _is_buffer(x) -> bool:
    try:
        memoryview(x)
        return True
    except TypeError:
        return False


def test_one_input(data: bytes) -> None:
    f = Fuzz(data)
    for _ in range(f.fdp.ConsumeIntInRange(1, 3)):
        try:
            getattr(f, f.pick(Fuzz.CALLS))()
        except EXPECTED:
            pass


def main() -> None:
    _instrument_lwc()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
