# SPDX-License-Identifier: MIT OR Apache-2.0
"""The rules at the edges of the Python API: verifiers take their tag length from
configuration, sizes never wrap, *_into refuses overlapping buffers and never shows
unverified plaintext, columns never share a nonce and never report a nulled row as verified,
legacy algorithms say so."""

from __future__ import annotations

import os
import sys

import pytest

import lwc

MACS = [i for i in lwc.algorithms() if i.kind == "mac"]
PRFS = [i for i in lwc.algorithms() if i.kind == "prf"]
KEYED = MACS + PRFS


# ---- verifiers: the tag length comes from configuration -------------------------------------

@pytest.mark.parametrize("info", KEYED, ids=lambda i: i.name)
def test_truncated_tag_needs_an_explicit_tag_length(info):
    cls = getattr(lwc, info.python_name)
    one_shot_digest = getattr(lwc, info.python_name + "_digest")
    one_shot_verify = getattr(lwc, info.python_name + "_verify")
    key, data = bytes(range(info.key_size)), b"message"
    full = one_shot_digest(key, data)
    assert len(full) == info.output_size
    cls(key, data).verify(full)
    one_shot_verify(key, data, full)
    short = full[: info.min_tag_size]
    # A prefix of the right tag: accepted only when its length is named.
    with pytest.raises(lwc.InvalidTag):
        cls(key, data).verify(short)
    with pytest.raises(lwc.InvalidTag):
        one_shot_verify(key, data, short)
    cls(key, data).verify(short, tag_length=len(short))
    one_shot_verify(key, data, short, tag_length=len(short))
    # The named length must match the tag given.
    with pytest.raises(lwc.InvalidTag):
        cls(key, data).verify(full, tag_length=len(short))
    with pytest.raises(lwc.InvalidTag):
        one_shot_verify(key, data, full[:-1])
    with pytest.raises(lwc.InvalidTag):
        cls(key, data).verify(b"")
    for bad in (0, info.min_tag_size - 1, 65, 2**31, 2**63, 2**64):
        with pytest.raises(ValueError):
            cls(key, data).verify(short, tag_length=bad)
        with pytest.raises(ValueError):
            one_shot_verify(key, data, short, tag_length=bad)
    with pytest.raises(TypeError):
        cls(key, data).verify(short, tag_length="4")


# ---- size arithmetic ----------------------------------------------------------------------

HUGE = [2**63 - 1, 2**63, 2**64 - 1, 2**64]


def _refused_cleanly(call):
    """The call raises a Python exception about the size (never a crash, never success)."""
    with pytest.raises((ValueError, OverflowError, MemoryError, TypeError)):
        call()


@pytest.mark.parametrize("length", HUGE + [-1, -(2**63)])
def test_output_lengths_near_the_limits(length):
    xof = lwc.ascon_xof128(b"x")
    for call in (
        lambda: xof.digest(length),
        lambda: xof.hexdigest(length),
        lambda: xof.read(length),
        lambda: lwc.ascon_xof128_digest(b"x", length),
        lambda: lwc.ascon_prf(bytes(16), b"x").tag(length),
        lambda: lwc.ascon_prf_digest(bytes(16), b"x", length),
    ):
        _refused_cleanly(call)


@pytest.mark.parametrize("length", [2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1])
def test_tag_lengths_near_the_limits(length):
    with pytest.raises(ValueError):
        lwc.AsconAEAD128(bytes(16), tag_length=length)
    with pytest.raises(ValueError):
        lwc.batch.encrypt("ascon-aead128", [bytes(16)], [bytes(16)], [b"m"], tag_length=length)


@pytest.mark.parametrize("length", [2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1])
def test_column_tag_and_output_lengths_near_the_limits(length):
    pa = pytest.importorskip("pyarrow")
    import lwc.arrow

    msgs = pa.array([b"a"])
    with pytest.raises(ValueError):
        lwc.arrow.encrypt("ascon-aead128", bytes(16), bytes(16), msgs, tag_length=length)
    with pytest.raises(ValueError):
        lwc.arrow.decrypt("ascon-aead128", bytes(16), bytes(16), msgs, tag_length=length)
    if length < 0 or length > 2**62:
        with pytest.raises((ValueError, OverflowError)):
            lwc.arrow.hash("ascon-xof128", pa.array([b"a", b"b"]), length)
        dd = pytest.importorskip("dask.dataframe")
        pd = pytest.importorskip("pandas")
        import lwc.dask

        ddf = dd.from_pandas(pd.DataFrame({"p": pd.Series([b"a"], dtype=pd.ArrowDtype(pa.binary()))}),
                             npartitions=1)
        with pytest.raises((ValueError, OverflowError)):
            lwc.dask.hash_column(ddf, "p", "ascon-xof128", length)


def test_packed_batch_hash_output_size_does_not_wrap():
    np = pytest.importorskip("numpy")
    # n * length wraps to a small number: the old code allocated that and wrote past it.
    for n, length in ((2, 2**63), (2, 2**62), (2, 2**63 - 1), (3, 2**63 // 3 + 1), (4, 2**62)):
        with pytest.raises(OverflowError):
            lwc.batch.hash("ascon-xof128", np.zeros((n, 1), np.uint8), length=length)
    for length in (2**63, 2**64 - 1):
        with pytest.raises(OverflowError):
            lwc.batch.hash("ascon-xof128", [b"a", b"b"], length=length)


def test_batch_array_shapes_without_memory_behind_them():
    np = pytest.importorskip("numpy")
    # A broadcast array claims 2^40 rows with one byte behind it: refused before its shape
    # sizes anything (offsets, outputs).
    for rows in (2**31, 2**32, 2**40):
        huge = np.broadcast_to(np.zeros((1, 8), np.uint8), (rows, 8))
        with pytest.raises(TypeError, match="contiguous"):
            lwc.batch.hash("ascon-hash256", huge)
        keys = np.broadcast_to(np.zeros((1, 16), np.uint8), (2, 16))
        with pytest.raises(TypeError, match="contiguous"):
            lwc.batch.encrypt("ascon-aead128", keys, np.zeros((2, 16), np.uint8), np.zeros((2, 4), np.uint8))


def test_arrow_hash_output_size_does_not_wrap():
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("lwc.arrow")
    import lwc.arrow

    for length in (2**62, 2**63 - 1, 2**63, 2**64):
        with pytest.raises(OverflowError):
            lwc.arrow.hash("ascon-xof128", pa.array([b"a", b"b"]), length)


def test_batch_extension_rejects_wrapping_key_tables():
    # The packed path straight into the extension, bypassing the Python checks.
    from lwc import _lwc
    from array import array

    index = {a.name: i for i, a in enumerate(lwc.algorithms())}
    one = (b"", array("q", [0, 0]))
    with pytest.raises((ValueError, OverflowError)):
        _lwc._batch_aead(False, index["ascon-aead128"], b"", b"", one, None, None, None, 2**63, False,
                         None, None, False)
    with pytest.raises(OverflowError):
        _lwc._batch_hash(index["ascon-xof128"], (b"", array("q", [0, 0, 0])), 2**63, None, None, None,
                         None, False)


# ---- *_into: overlapping buffers and unverified plaintext ---------------------------------

@pytest.mark.parametrize("name", ["ascon-aead128", "isap-a-128a", "elephant-dumbo", "romulus-t"])
def test_into_refuses_inputs_inside_the_output(name):
    if name not in lwc.algorithms_available:
        pytest.skip(f"{name} is not registered")
    aead = lwc.aead(name, bytes(range(_key_size(name))))
    nsize, tag = aead.nonce_size, aead.tag_size
    msg = b"m" * 40
    # associated data inside buf
    arena = bytearray(200)
    buf = memoryview(arena)[: len(msg) + tag]
    with pytest.raises(ValueError, match="associated_data"):
        aead.encrypt_into(bytes(nsize), msg, memoryview(arena)[10:30], buf)
    # nonce inside buf
    arena[100:100 + nsize] = bytes(nsize)
    with pytest.raises(ValueError, match="nonce"):
        aead.encrypt_into(memoryview(arena)[5:5 + nsize], msg, None, buf)
    # data shifted inside buf
    with pytest.raises(ValueError, match="overlaps data"):
        aead.encrypt_into(bytes(nsize), memoryview(arena)[1:1 + len(msg)], None, buf)
    # decrypt: ad and nonce inside buf
    sealed = aead.encrypt(bytes(nsize), msg, b"ad")
    arena = bytearray(200)
    out = memoryview(arena)[: len(msg)]
    arena[20:22] = b"ad"
    with pytest.raises(ValueError, match="associated_data"):
        aead.decrypt_into(bytes(nsize), sealed, memoryview(arena)[20:22], out)
    with pytest.raises(ValueError, match="nonce"):
        aead.decrypt_into(memoryview(arena)[0:nsize], sealed, b"ad", out)
    # Exact in-place use stays allowed, and round-trips.
    arena = bytearray(len(msg) + tag)
    arena[: len(msg)] = msg
    view = memoryview(arena)
    aead.encrypt_into(bytes(nsize), view[: len(msg)], b"ad", view)
    assert bytes(arena) == sealed
    aead.decrypt_into(bytes(nsize), view, b"ad", view[: len(msg)])
    assert bytes(arena[: len(msg)]) == msg


def _key_size(name):
    return next(i.key_size for i in lwc.algorithms() if i.name == name)


def test_decrypt_into_failure_leaves_zeros():
    aead = lwc.AsconAEAD128(bytes(16))
    msg = os.urandom(10000)  # above the GIL threshold
    sealed = bytearray(aead.encrypt(bytes(16), msg))
    sealed[-1] ^= 1
    out = bytearray(b"\xff" * len(msg))
    with pytest.raises(lwc.InvalidTag):
        aead.decrypt_into(bytes(16), sealed, None, out)
    assert out == bytes(len(msg))


def test_decrypt_into_never_shows_unverified_plaintext_to_other_threads():
    import threading

    aead = lwc.AsconAEAD128(bytes(16))
    msg = b"\x5a" * (1 << 22)  # a forged tag on a real ciphertext: `out` is watched for plaintext
    sealed = bytearray(aead.encrypt(bytes(16), msg))
    sealed[-1] ^= 1
    out = bytearray(len(msg))
    seen = []
    stop = threading.Event()

    def watch():
        view = memoryview(out)
        while not stop.is_set():
            if view[len(out) // 2] or view[1000] or view[-1000]:
                seen.append(True)
                return

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(5):
            with pytest.raises(lwc.InvalidTag):
                aead.decrypt_into(bytes(16), sealed, None, out)
    finally:
        stop.set()
        watcher.join()
    assert not seen


# ---- legacy names ----------------------------------------------------------------------------

def test_legacy_algorithms_are_labelled():
    infos = {i.name: i for i in lwc.algorithms()}
    for legacy in ("ascon-128", "ascon-hash", "ascon-mac"):
        if legacy in infos:
            assert infos[legacy].legacy
            cls = getattr(lwc, infos[legacy].python_name)
            assert "legacy (Ascon v1.2)" in cls.__doc__
    for standard in ("ascon-aead128", "ascon-hash256", "ascon-xof128"):
        assert not infos[standard].legacy
        assert "legacy" not in getattr(lwc, infos[standard].python_name).__doc__.lower()
    assert "Acorn" in lwc.__doc__ and "finalists" in lwc.__doc__
