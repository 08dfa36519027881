# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.batch against the single-message classes: every batch algorithm, every backend this CPU
runs, one and two threads, lists and numpy arrays, mixed lengths, tampering and bad input."""

import os
import random

import numpy as np
import pytest

import lwc

AEADS = [
    n for n in lwc.batch.algorithms() if any(a.name == n and a.kind == "aead" for a in lwc.algorithms())
]
HASHES = [n for n in lwc.batch.algorithms() if n not in AEADS]
BACKENDS = lwc.batch.backends()


def info(name):
    return next(a for a in lwc.algorithms() if a.name == name)


def random_jobs(rng, name, n, max_len=300):
    a = info(name)
    keys = [rng.randbytes(a.key_size) for _ in range(n)]
    nonces = [rng.randbytes(a.nonce_size) for _ in range(n)]
    msgs = [rng.randbytes(rng.choice([0, 1, 7, 8, 15, 16, 17, rng.randrange(max_len)])) for _ in range(n)]
    ads = [rng.randbytes(rng.randrange(40)) for _ in range(n)]
    return keys, nonces, msgs, ads


def test_batch_lists_algorithms_and_backends():
    assert "ascon-aead128" in lwc.batch.algorithms()
    assert "ascon-hash256" in lwc.batch.algorithms()
    assert "portable" in BACKENDS
    assert lwc.batch.default_backend() in BACKENDS
    assert all(lwc.batch.lanes(b) >= 1 for b in BACKENDS)


def test_has_lanes_tells_which_path_runs():
    for name in lwc.batch.algorithms():
        for backend in BACKENDS:
            assert isinstance(lwc.batch.has_lanes(name, backend), bool)
    # Ascon has lane kernels on every backend; Grain-128AEAD's need AVX-512 (64-bit lanes of
    # 512-bit registers); Acorn-128's need 256-bit registers.
    assert all(lwc.batch.has_lanes("ascon-aead128", b) for b in BACKENDS)
    assert all(lwc.batch.has_lanes("ascon-hash256", b) for b in BACKENDS)
    assert not lwc.batch.has_lanes("grain-128aead", "portable")
    assert not lwc.batch.has_lanes("acorn-128", "portable")
    if "avx2" in BACKENDS:
        assert lwc.batch.has_lanes("acorn-128", "avx2")


@pytest.mark.parametrize("name, backend", [("no-such-algorithm", "portable"), ("ascon-aead128", "no-such-backend"),
                                           ("ascon-aead128", ""), ("", "portable")])
def test_has_lanes_refuses_unknown_names(name, backend):
    with pytest.raises(ValueError, match="no-such|unknown|not available"):
        lwc.batch.has_lanes(name, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", AEADS)
def test_aead_equals_single_message(name, backend, threads):
    rng = random.Random(hash((name, backend, threads)) & 0xFFFF)
    n = 37  # not a multiple of any lane count
    keys, nonces, msgs, ads = random_jobs(rng, name, n)
    sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads, threads=threads, backend=backend)
    for k, nonce, m, ad, s in zip(keys, nonces, msgs, ads, sealed):
        assert s == lwc.aead(name, k).encrypt(nonce, m, ad)
    plain, ok = lwc.batch.decrypt(name, keys, nonces, sealed, ads, threads=threads, backend=backend)
    assert ok == [True] * n
    assert plain == msgs


@pytest.mark.parametrize("name", AEADS)
def test_tampering_one_job_fails_only_that_job(name):
    rng = random.Random(5)
    keys, nonces, msgs, ads = random_jobs(rng, name, 20)
    sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    forged = list(sealed)
    forged[7] = bytes([forged[7][0] ^ 1]) + forged[7][1:]
    plain, ok = lwc.batch.decrypt(name, keys, nonces, forged, ads)
    assert ok == [i != 7 for i in range(20)]
    assert plain[7] is None
    assert [p for i, p in enumerate(plain) if i != 7] == [m for i, m in enumerate(msgs) if i != 7]


def test_truncated_tags_and_nonce_masking():
    rng = random.Random(6)
    keys, nonces, msgs, ads = random_jobs(rng, "ascon-aead128", 9)
    second = [rng.randbytes(16) for _ in range(9)]
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, tag_length=4, second_keys=second)
    for k, s2, nonce, m, ad, s in zip(keys, second, nonces, msgs, ads, sealed):
        assert s == lwc.AsconAEAD128(k, tag_length=4, second_key=s2).encrypt(nonce, m, ad)
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, ads, tag_length=4, second_keys=second)
    assert all(ok) and plain == msgs
    _, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, ads, tag_length=4)
    assert not any(ok)  # without the second keys nothing verifies


def test_numpy_arrays_in_and_out():
    rng = np.random.default_rng(1)
    n, length = 50, 100
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    nonces = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    msgs = rng.integers(0, 256, (n, length), dtype=np.uint8)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs)
    assert sealed.shape == (n, length + 16) and sealed.dtype == np.uint8
    for i in range(n):
        assert sealed[i].tobytes() == lwc.AsconAEAD128(keys[i]).encrypt(nonces[i], msgs[i], None)
    sealed[3, 0] ^= 1
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed)
    assert plain.shape == (n, length) and ok.dtype == bool
    assert not ok[3] and ok.sum() == n - 1
    assert not plain[3].any()  # the failed job is zeroed
    assert np.array_equal(np.delete(plain, 3, axis=0), np.delete(msgs, 3, axis=0))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", HASHES)
def test_hash_equals_single_message(name, backend):
    """Every hash, XOF, CXOF, MAC and PRF: keys and customization strings per message."""
    rng = random.Random(7)
    a = info(name)
    limit = a.max_input_size if a.max_input_size is not None else 600
    msgs = [rng.randbytes(rng.randrange(limit + 1)) for _ in range(29)] + [b""]
    length = a.output_size if a.max_output_size else 45
    keys = [rng.randbytes(a.key_size) for _ in msgs] if a.kind in ("mac", "prf") else None
    custom = [rng.randbytes(rng.randrange(40)) for _ in msgs] if a.kind == "cxof" else None
    digests = lwc.batch.hash(name, msgs, length=length, keys=keys, customization=custom,
                             threads=2, backend=backend)
    for i, (m, d) in enumerate(zip(msgs, digests)):
        options = {}
        if keys is not None:
            options["key"] = keys[i]
        if custom is not None:
            options["customization"] = custom[i]
        h = lwc.new(name, m, **options)
        assert d == (h.digest() if a.max_output_size else h.digest(length)), i
    if keys is None and custom is None and a.max_input_size is None:
        arr = np.arange(330, dtype=np.uint16).astype(np.uint8).reshape(10, 33)
        out = lwc.batch.hash(name, arr, length=length, backend=backend)
        assert out.shape == (10, length)
        assert [row.tobytes() for row in out] == lwc.batch.hash(name, [r.tobytes() for r in arr], length=length)


def test_keyed_hashes_need_their_keys():
    with pytest.raises(ValueError, match="keys are required"):
        lwc.batch.hash("ascon-mac", [b"x"])
    with pytest.raises(ValueError, match="takes no key"):
        lwc.batch.hash("ascon-hash256", [b"x"], keys=[bytes(16)])
    with pytest.raises(ValueError, match="keys"):
        lwc.batch.hash("ascon-mac", [b"x"], keys=[bytes(15)])
    with pytest.raises(ValueError, match="takes no customization"):
        lwc.batch.hash("ascon-xof128", [b"x"], customization=[b"z"])


def test_stream_ciphers_have_their_own_sizes():
    """acorn-128 and grain-128aead run in every backend, with their registry sizes:
    Grain takes 12-byte nonces and gives 8-byte tags, Acorn 16 and 16."""
    assert {"acorn-128", "grain-128aead"} <= set(lwc.batch.algorithms())
    rng = random.Random(8)
    for name, cls, nonce_size, tag_size in [("acorn-128", lwc.Acorn128, 16, 16),
                                            ("grain-128aead", lwc.Grain128AEAD, 12, 8)]:
        keys, nonces, msgs, ads = random_jobs(rng, name, 25, max_len=600)
        assert all(len(n) == nonce_size for n in nonces)
        for backend in BACKENDS:
            sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads, threads=2, backend=backend)
            assert [len(s) - len(m) for s, m in zip(sealed, msgs)] == [tag_size] * 25
            assert sealed == [cls(k).encrypt(n, m, a) for k, n, m, a in zip(keys, nonces, msgs, ads)]
            forged = list(sealed)
            forged[3] = forged[3][:-1] + bytes([forged[3][-1] ^ 0x80])
            plain, ok = lwc.batch.decrypt(name, keys, nonces, forged, ads, threads=2, backend=backend)
            assert ok == [i != 3 for i in range(25)]
            assert plain[3] is None and [p for i, p in enumerate(plain) if i != 3] == msgs[:3] + msgs[4:]

        arr_keys = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(25, 16)
        arr_nonces = np.frombuffer(b"".join(nonces), dtype=np.uint8).reshape(25, nonce_size)
        arr_msgs = np.arange(25 * 40, dtype=np.uint16).astype(np.uint8).reshape(25, 40)
        arr_sealed = lwc.batch.encrypt(name, arr_keys, arr_nonces, arr_msgs)
        assert arr_sealed.shape == (25, 40 + tag_size)
        plain, ok = lwc.batch.decrypt(name, arr_keys, arr_nonces, arr_sealed)
        assert ok.all() and np.array_equal(plain, arr_msgs)

    keys = [bytes(16)] * 2
    with pytest.raises(ValueError, match=r"nonces\[0\] must be 12 bytes, got 16"):
        lwc.batch.encrypt("grain-128aead", keys, [bytes(16)] * 2, [b"a", b"b"])
    with pytest.raises(ValueError, match="tag_length must be 8 bytes, got 16"):
        lwc.batch.encrypt("grain-128aead", keys, [bytes(12)] * 2, [b"a", b"b"], tag_length=16)
    with pytest.raises(ValueError, match="second keys"):
        lwc.batch.encrypt("acorn-128", keys, [bytes(16)] * 2, [b"a", b"b"], second_keys=keys)


def test_bad_input_is_a_clear_error():
    keys, nonces = [bytes(16)] * 2, [bytes(16)] * 2
    with pytest.raises(TypeError, match="str"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, ["text", b"x"])
    with pytest.raises(TypeError):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, b"one message")
    with pytest.raises(ValueError, match=r"keys\[1\] must be 16 bytes, got 15"):
        lwc.batch.encrypt("ascon-aead128", [bytes(16), bytes(15)], nonces, [b"a", b"b"])
    with pytest.raises(ValueError, match="expected 2 entries"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces[:1], [b"a", b"b"])
    with pytest.raises(ValueError, match="unknown AEAD"):
        lwc.batch.encrypt("no-such", keys, nonces, [b"a", b"b"])
    with pytest.raises(ValueError, match="shorter than the 16-byte tag"):
        lwc.batch.decrypt("ascon-aead128", keys, nonces, [bytes(16), bytes(15)])
    with pytest.raises(ValueError, match="tag_length"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a", b"b"], tag_length=3)
    with pytest.raises(ValueError):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a", b"b"], backend="no-such-backend")
    assert lwc.batch.encrypt("ascon-aead128", [], [], []) == []


def test_module_docstring_example_runs():
    import doctest

    result = doctest.testmod(lwc.batch)
    assert result.attempted >= 4 and result.failed == 0


# ---- list input: read in place by the extension ---------------------------------------------


def test_lists_take_any_bytes_like_items_and_any_iterable():
    rng = random.Random(11)
    keys, nonces, msgs, ads = random_jobs(rng, "ascon-aead128", 12)
    expected = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads)
    assert all(type(s) is bytes for s in expected)
    mixed = [bytearray(m) if i % 3 == 0 else memoryview(m) if i % 3 == 1 else np.frombuffer(m, np.uint8)
             for i, m in enumerate(msgs)]
    arr_keys = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(12, 16)
    assert lwc.batch.encrypt("ascon-aead128", arr_keys, tuple(nonces), mixed, iter(ads)) == expected
    assert lwc.batch.encrypt("ascon-aead128", iter(keys), nonces, (m for m in msgs), tuple(ads)) == expected
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, [bytearray(s) for s in expected], ads)
    assert plain == msgs and ok == [True] * 12 and all(type(p) is bytes for p in plain)


def test_lists_detached_tags_both_ways():
    rng = random.Random(12)
    keys, nonces, msgs, ads = random_jobs(rng, "ascon-aead128", 10)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, tag_length=8)
    cts, tags = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, tag_length=8, detached=True)
    assert [c + t for c, t in zip(cts, tags)] == sealed and all(len(t) == 8 for t in tags)
    arr_tags = np.frombuffer(b"".join(tags), dtype=np.uint8).reshape(10, 8)
    for t in (tags, tuple(tags), arr_tags):
        plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, ads, tag_length=8, tags=t)
        assert plain == msgs and all(ok)
    forged = list(tags)
    forged[4] = bytes([forged[4][0] ^ 1]) + forged[4][1:]
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, ads, tag_length=8, tags=forged)
    assert ok == [i != 4 for i in range(10)] and plain[4] is None
    with pytest.raises(ValueError, match=r"tags\[1\] must be 8 bytes, got 7"):
        lwc.batch.decrypt("ascon-aead128", keys[:2], nonces[:2], cts[:2], tag_length=8, tags=[tags[0], tags[1][:7]])
    with pytest.raises(ValueError, match="tags: expected 2 entries"):
        lwc.batch.decrypt("ascon-aead128", keys[:2], nonces[:2], cts[:2], tag_length=8, tags=tags[:1])


def test_lists_hold_no_references_and_leave_the_inputs_alone():
    import sys

    keys, nonces = [bytes(16)] * 3, [bytes(16)] * 3
    msg = bytes(range(40)) + b"refcount probe"
    msgs = [msg, msg, bytearray(msg)]
    before = sys.getrefcount(msg)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs)
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed[:2] + [bytes(20)])
    lwc.batch.hash("ascon-hash256", msgs)
    with pytest.raises(TypeError):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [msg, msg, None])
    assert sys.getrefcount(msg) == before
    assert msgs == [msg, msg, bytearray(msg)] and ok == [True, True, False]
    msgs[2].extend(b"!")  # the bytearray's export was released: it can be resized again


def test_list_items_are_checked_one_by_one():
    keys, nonces = [bytes(16)] * 3, [bytes(16)] * 3
    with pytest.raises(TypeError, match=r"messages\[2\] must be a bytes-like object, not 'NoneType'"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a", b"b", None])
    with pytest.raises(TypeError, match=r"messages\[1\] must be a bytes-like object, not 'int'"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a", 5, b"c"])
    with pytest.raises(TypeError, match=r"associated_data\[0\] must be a bytes-like object, not 'str'"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a"] * 3, ["x", b"", b""])
    with pytest.raises(TypeError, match=r"messages\[0\] must be a contiguous bytes-like object"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [memoryview(bytes(8))[::2], b"", b""])
    with pytest.raises(ValueError, match="associated_data: expected 3 entries"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a"] * 3, [b""] * 2)
    with pytest.raises(ValueError, match=r"second_keys\[0\] must be 16 bytes, got 1"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"a"] * 3, second_keys=[b"x"] * 3)
    with pytest.raises(ValueError, match=r"nonces: expected an 3 x 16 uint8 array"):
        lwc.batch.encrypt("ascon-aead128", keys, np.zeros((3, 12), np.uint8), [b"a"] * 3)
    with pytest.raises(TypeError, match="not C-contiguous"):
        lwc.batch.encrypt("ascon-aead128", np.zeros((3, 32), np.uint8)[:, ::2], nonces, [b"a"] * 3)
    with pytest.raises(TypeError, match="not one message"):
        lwc.batch.hash("ascon-hash256", b"one message")
    with pytest.raises(ValueError, match=r"keys\[1\] must be 16 bytes, got 3"):
        lwc.batch.hash("ascon-mac", [b"a", b"b"], keys=[bytes(16), b"abc"])
    with pytest.raises(ValueError, match="customization: expected 2 entries"):
        lwc.batch.hash("ascon-cxof128", [b"a", b"b"], customization=[b"c"])
    with pytest.raises(ValueError, match="customization string must be at most 256"):
        lwc.batch.hash("ascon-cxof128", [b"a"], customization=[bytes(257)])


def test_lists_longer_than_one_chunk():
    """Lists run a few thousand jobs at a time: results, ok flags, refused items and the
    references held line up across those chunks."""
    import sys

    rng = random.Random(21)
    n = 9000
    keys, nonces, msgs, ads = random_jobs(rng, "ascon-aead128", n, max_len=40)
    msgs[5000] = bytearray(msgs[5000])
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, threads=2)
    assert sealed == [lwc.AsconAEAD128(k).encrypt(x, bytes(m), a) for k, x, m, a in zip(keys, nonces, msgs, ads)]
    forged = {3, 4500, 4096, 8999}
    for i in forged:
        sealed[i] = bytes([sealed[i][0] ^ 1]) + sealed[i][1:]
    plain, ok = lwc.batch.decrypt("ascon-aead128", tuple(keys), nonces, sealed, ads)
    assert ok == [i not in forged for i in range(n)]
    assert plain == [None if i in forged else bytes(m) for i, m in enumerate(msgs)]
    macs = lwc.batch.hash("ascon-mac", msgs, keys=keys)
    assert macs == [lwc.ascon_mac_digest(k, bytes(m)) for k, m in zip(keys, msgs)]
    probe = bytes(range(50))
    before = sys.getrefcount(probe)
    with pytest.raises(TypeError, match=r"messages\[8000\] must be a bytes-like object"):
        lwc.batch.encrypt("ascon-aead128", keys, nonces, [probe] * 8000 + [None] * (n - 8000))
    assert sys.getrefcount(probe) == before


def test_lists_grown_by_another_thread_during_a_batch():
    """Another thread runs while the chunks run without the GIL: items it appends are not
    jobs, and the call hashes the items the list held when it was called."""
    import threading

    msgs = [bytes([i & 0xFF]) * (i % 50) for i in range(20000)]
    stop = threading.Event()

    def grow():
        while not stop.is_set() and len(msgs) < 10**6:
            msgs.append(b"appended")

    t = threading.Thread(target=grow)
    t.start()
    try:
        for _ in range(5):
            out = lwc.batch.hash("ascon-hash256", msgs, threads=2)
            assert len(out) >= 20000
            assert out[:20000] == [lwc.ascon_hash256_digest(m) for m in msgs[:20000]]
    finally:
        stop.set()
        t.join()


def test_hash_lists_with_key_arrays_and_tuples():
    msgs = tuple(bytes([i]) * i for i in range(20))
    keys = np.arange(20 * 16, dtype=np.uint16).astype(np.uint8).reshape(20, 16)
    tags = lwc.batch.hash("ascon-mac", msgs, keys=keys)
    assert tags == [lwc.ascon_mac_digest(k.tobytes(), m) for k, m in zip(keys, msgs)]
    custom = [b"c" * (i % 5) for i in range(20)]
    out = lwc.batch.hash("ascon-cxof128", msgs, length=7, customization=tuple(custom))
    assert out == [lwc.ascon_cxof128_digest(m, 7, customization=c) for m, c in zip(msgs, custom)]
    assert lwc.batch.hash("ascon-xof128", msgs, length=0) == [b""] * 20
    assert lwc.batch.hash("ascon-hash256", []) == []


def test_lists_changed_by_other_threads_during_a_batch():
    """The engine runs without the GIL: another thread may replace the list's items meanwhile.
    Every job then uses the item it was given when the call read it, which stays alive."""
    import threading

    n = 2000
    keys, nonces = [bytes([1]) * 16] * n, [bytes([2]) * 16] * n
    msgs = [bytes([i & 0xFF]) * 300 for i in range(n)]
    expected = {m: lwc.AsconAEAD128(keys[0]).encrypt(nonces[0], m, None) for m in set(msgs)}
    stop = threading.Event()

    def churn():
        i = 0
        while not stop.is_set():
            msgs[i % n] = bytes([i % n & 0xFF]) * 300  # a new object, equal content
            i += 1

    t = threading.Thread(target=churn)
    t.start()
    try:
        for _ in range(20):
            sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, threads=2)
            assert [expected[bytes([i & 0xFF]) * 300] for i in range(n)] == sealed
    finally:
        stop.set()
        t.join()
