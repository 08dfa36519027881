# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.arrow against the single-message classes: random columns of mixed lengths (0..16 KiB)
with nulls, sliced and chunked arrays, tampering, and bad input."""

import random

import pytest

pa = pytest.importorskip("pyarrow")
np = pytest.importorskip("numpy")

import lwc  # noqa: E402
import lwc.arrow  # noqa: E402

AEADS = ["ascon-aead128", "xoodyak", "grain-128aead", "romulus-n"]
ALL_AEADS = [n for n in lwc.batch.algorithms()
             if any(a.name == n and a.kind == "aead" for a in lwc.algorithms())]
ALL_HASHES = [n for n in lwc.batch.algorithms() if n not in ALL_AEADS]


def info(name):
    return next(a for a in lwc.algorithms() if a.name == name)


def sizes(rng, n, max_len=16384):
    return [min(max_len, rng.choice([0, 1, 15, 16, 17, 64, rng.randrange(1024), rng.randrange(max_len + 1)]))
            for _ in range(n)]


def random_column(rng, n, null_rate=0.2, large=False, max_len=16384):
    values = [None if rng.random() < null_rate else rng.randbytes(s) for s in sizes(rng, n, max_len)]
    return values, pa.array(values, pa.large_binary() if large else pa.binary())


def fixed_column(rng, n, size, null_rate=0.0):
    values = [None if rng.random() < null_rate else rng.randbytes(size) for _ in range(n)]
    return values, pa.array(values, pa.binary(size))


def expected_encrypt(name, keys, nonces, msgs, ads=None):
    out = []
    for i, m in enumerate(msgs):
        if m is None or keys[i] is None or nonces[i] is None:
            out.append(None)
        else:
            ad = None if ads is None else ads[i]
            out.append(lwc.aead(name, keys[i]).encrypt(nonces[i], m, ad))
    return out


@pytest.mark.parametrize("name", AEADS)
@pytest.mark.parametrize("large", [False, True])
def test_encrypt_decrypt_match_single_message_classes(name, large):
    rng = random.Random(f"arrow-{name}-{large}")
    a = info(name)
    n = 120
    msgs, col = random_column(rng, n, large=large)
    keys, key_col = fixed_column(rng, n, a.key_size, null_rate=0.05)
    nonces, nonce_col = fixed_column(rng, n, a.nonce_size)
    ads, ad_col = random_column(rng, n, null_rate=0.3, max_len=64)
    sealed = lwc.arrow.encrypt(name, key_col, nonce_col, col, ad_col)
    assert sealed.type == (pa.large_binary() if large else pa.binary())
    sealed.validate(full=True)
    assert sealed.to_pylist() == expected_encrypt(name, keys, nonces, msgs, ads)
    plain, ok = lwc.arrow.decrypt(name, key_col, nonce_col, sealed, ad_col)
    plain.validate(full=True)
    want = [None if m is None or k is None else m for m, k in zip(msgs, keys)]
    assert plain.to_pylist() == want
    assert ok.type == pa.bool_()
    assert ok.to_pylist() == [w is not None for w in want]  # a null row did not verify


@pytest.mark.parametrize("name", ALL_AEADS)
def test_every_batch_aead(name):
    rng = random.Random(f"every-{name}")
    a = info(name)
    n = 20
    msgs, col = random_column(rng, n, max_len=300)
    keys, key_col = fixed_column(rng, n, a.key_size)
    nonces, nonce_col = fixed_column(rng, n, a.nonce_size)
    sealed = lwc.arrow.encrypt(name, key_col, nonce_col, col)
    assert sealed.to_pylist() == expected_encrypt(name, keys, nonces, msgs)
    plain, ok = lwc.arrow.decrypt(name, key_col, nonce_col, sealed)
    assert plain.to_pylist() == msgs


def test_broadcast_key_and_string_columns():
    key = bytes(range(16))
    texts = ["héllo", None, "", "world" * 100]
    nonces = [bytes([i]) * 16 for i in range(4)]
    nonce_col = pa.array(nonces, pa.binary(16))
    col = pa.array(texts, pa.string())
    sealed = lwc.arrow.encrypt("ascon-aead128", key, nonce_col, col, pa.array(["a", "b", None, "d"]))
    aead = lwc.AsconAEAD128(key)
    ads = [b"a", b"b", None, b"d"]
    assert sealed.to_pylist() == [None if t is None else aead.encrypt(nonces[i], t.encode(), ads[i])
                                  for i, t in enumerate(texts)]
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key, nonce_col, sealed, pa.array(ads, pa.binary()))
    assert plain.to_pylist() == [None if t is None else t.encode() for t in texts]
    # A null associated-data entry is the same as none at all; a null row did not verify.
    assert ok.to_pylist() == [True, False, True, True]


def test_sliced_arrays():
    rng = random.Random("sliced")
    n = 200
    msgs, col = random_column(rng, n)
    keys, key_col = fixed_column(rng, n, 16)
    nonces, nonce_col = fixed_column(rng, n, 16)
    ads, ad_col = random_column(rng, n, max_len=40)
    s, m = 37, 101
    # Each column sliced at its own place: the rows still line up one to one.
    sealed = lwc.arrow.encrypt("xoodyak", key_col.slice(s, m), nonce_col.slice(s, m), col.slice(s, m),
                               ad_col.slice(s, m))
    assert sealed.to_pylist() == expected_encrypt("xoodyak", keys[s:s + m], nonces[s:s + m],
                                                  msgs[s:s + m], ads[s:s + m])
    sliced_sealed = sealed.slice(5, 50)
    plain, ok = lwc.arrow.decrypt("xoodyak", key_col.slice(s + 5, 50), nonce_col.slice(s + 5, 50),
                                  sliced_sealed, ad_col.slice(s + 5, 50))
    assert plain.to_pylist() == msgs[s + 5:s + 55]
    digests = lwc.arrow.hash("ascon-hash256", col.slice(s, m))
    assert digests.to_pylist() == [None if x is None else lwc.ascon_hash256_digest(x) for x in msgs[s:s + m]]


def test_chunked_arrays():
    rng = random.Random("chunked")
    parts = [random_column(rng, k) for k in (30, 0, 45, 1)]
    msgs = [v for values, _ in parts for v in values]
    col = pa.chunked_array([c for _, c in parts], type=pa.binary())
    n = len(msgs)
    keys, key_col = fixed_column(rng, n, 16)
    nonces, nonce_col = fixed_column(rng, n, 16)
    # Keys chunked differently from the messages, nonces in one piece.
    key_chunked = pa.chunked_array([key_col.slice(0, 10), key_col.slice(10)])
    sealed = lwc.arrow.encrypt("ascon-aead128", key_chunked, nonce_col, col)
    assert isinstance(sealed, pa.ChunkedArray)
    assert [len(c) for c in sealed.chunks] == [30, 0, 45, 1]
    assert sealed.to_pylist() == expected_encrypt("ascon-aead128", keys, nonces, msgs)
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key_col, nonce_col, sealed)
    assert isinstance(plain, pa.ChunkedArray) and isinstance(ok, pa.ChunkedArray)
    assert plain.to_pylist() == msgs
    assert ok.to_pylist() == [m is not None for m in msgs]
    digests = lwc.arrow.hash("ascon-xof128", col, 48)
    assert isinstance(digests, pa.ChunkedArray) and digests.type == pa.binary(48)
    assert digests.to_pylist() == [None if m is None else lwc.ascon_xof128_digest(m, 48) for m in msgs]


def test_tampered_rows_fail_alone_and_release_nothing():
    rng = random.Random("tamper")
    n = 60
    msgs = [rng.randbytes(s) for s in sizes(rng, n, 2000)]
    keys, key_col = fixed_column(rng, n, 16)
    nonces, nonce_col = fixed_column(rng, n, 16)
    sealed = lwc.arrow.encrypt("ascon-aead128", key_col, nonce_col, pa.array(msgs, pa.binary())).to_pylist()
    bad = {3, 17, 18, 59}
    for i in bad:
        b = bytearray(sealed[i])
        b[rng.randrange(len(b))] ^= 0x01
        sealed[i] = bytes(b)
    sealed[40] = sealed[40][:5]  # shorter than the tag: rejected, alone
    bad.add(40)
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key_col, nonce_col, pa.array(sealed, pa.binary()))
    plain.validate(full=True)
    assert ok.to_pylist() == [i not in bad for i in range(n)]
    assert plain.to_pylist() == [None if i in bad else msgs[i] for i in range(n)]
    # The values buffer holds exactly the released plaintexts, nothing of the rejected rows.
    released = b"".join(msgs[i] for i in range(n) if i not in bad)
    data = plain.buffers()[2]
    assert (b"" if data is None else data.to_pybytes()) == released


def test_all_rows_rejected_or_null():
    key_col = pa.array([bytes(16)] * 3, pa.binary(16))
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key_col, key_col, pa.array([b"x" * 20, None, b""]))
    assert plain.to_pylist() == [None, None, None]
    assert ok.to_pylist() == [False, False, False]
    empty = lwc.arrow.encrypt("ascon-aead128", bytes(16), bytes(16), pa.array([], pa.binary()))
    assert len(empty) == 0 and empty.type == pa.binary()
    nulls = lwc.arrow.encrypt("ascon-aead128", bytes(16), lwc.arrow.random_nonces("ascon-aead128", 2),
                              pa.array([None, None], pa.binary()))
    assert nulls.to_pylist() == [None, None]


@pytest.mark.parametrize("name,length", [("ascon-hash256", None), ("xoodyak-hash", None),
                                         ("ascon-xof128", 100), ("ascon-xof128", None)])
def test_hash_matches_single_message_functions(name, length):
    rng = random.Random(f"hash-{name}-{length}")
    msgs, col = random_column(rng, 80)
    digests = lwc.arrow.hash(name, col, length)
    size = length or info(name).output_size
    assert digests.type == pa.binary(size)
    digests.validate(full=True)
    xof = info(name).kind == "xof"
    assert digests.to_pylist() == [None if m is None else lwc.new(name, m).digest(*([size] if xof else []))
                                   for m in msgs]


@pytest.mark.parametrize("name", ALL_HASHES)
def test_every_batch_hash(name):
    rng = random.Random(f"every-hash-{name}")
    a = info(name)
    msgs, col = random_column(rng, 15, max_len=min(300, a.max_input_size or 300))
    keyed = a.kind in ("mac", "prf")
    key = rng.randbytes(a.key_size) if keyed else None
    kwargs = {"keys": key} if keyed else {}
    digests = lwc.arrow.hash(name, col, **kwargs)
    want = lwc.batch.hash(name, [m if m is not None else b"" for m in msgs],
                          **({"keys": [key] * len(msgs)} if keyed else {}))
    assert digests.to_pylist() == [None if m is None else w for m, w in zip(msgs, want)]


def test_bad_input():
    n = 3
    msgs = pa.array([b"a", b"b", b"c"])
    k16 = pa.array([bytes(16)] * n, pa.binary(16))
    k12 = pa.array([bytes(12)] * n, pa.binary(12))
    with pytest.raises(ValueError, match="keys must be 16 bytes wide"):
        lwc.arrow.encrypt("ascon-aead128", k12, k16, msgs)
    with pytest.raises(ValueError, match="nonces must be 16 bytes wide"):
        lwc.arrow.encrypt("ascon-aead128", k16, k12, msgs)
    with pytest.raises(ValueError, match="nonces must be 16 bytes"):
        lwc.arrow.encrypt("ascon-aead128", k16, bytes(12), msgs)
    with pytest.raises(ValueError, match="keys: 2 rows for 3 messages"):
        lwc.arrow.encrypt("ascon-aead128", k16.slice(1), k16, msgs)
    with pytest.raises(ValueError, match="associated_data: 2 rows for 3 messages"):
        lwc.arrow.encrypt("ascon-aead128", k16, k16, msgs, pa.array([b"", b""]))
    with pytest.raises(ValueError, match="unknown AEAD algorithm 'nope'"):
        lwc.arrow.encrypt("nope", k16, k16, msgs)
    with pytest.raises(ValueError, match="unknown hash"):
        lwc.arrow.hash("ascon-aead128", msgs)
    with pytest.raises(ValueError, match="the output is 32 bytes"):
        lwc.arrow.hash("ascon-hash256", msgs, 16)
    with pytest.raises(TypeError, match="messages must be a pyarrow"):
        lwc.arrow.encrypt("ascon-aead128", k16, k16, [b"a", b"b", b"c"])
    with pytest.raises(TypeError, match="messages must be binary"):
        lwc.arrow.encrypt("ascon-aead128", k16, k16, pa.array([1, 2, 3]))
    with pytest.raises(TypeError, match="keys must be a FixedSizeBinaryArray"):
        lwc.arrow.encrypt("ascon-aead128", pa.array([bytes(16)] * n), k16, msgs)
    with pytest.raises(TypeError, match="keys must be a pyarrow FixedSizeBinaryArray"):
        lwc.arrow.encrypt("ascon-aead128", [bytes(16)] * n, k16, msgs)
    with pytest.raises(ValueError, match="keys are required"):
        lwc.arrow.hash("ascon-mac", msgs)
    with pytest.raises(ValueError, match="takes no key"):
        lwc.arrow.hash("ascon-hash256", msgs, keys=bytes(16))


def test_results_are_built_on_the_engine_buffer():
    """No copy out when nothing is null or rejected: the result's values buffer is the one the
    engine filled (one allocation of exactly the output size)."""
    msgs = pa.array([b"x" * 100] * 50)
    sealed = lwc.arrow.encrypt("ascon-aead128", bytes(16), lwc.arrow.random_nonces("ascon-aead128", 50), msgs)
    assert sealed.buffers()[2].size == 50 * 116
    assert sealed.buffers()[0] is None


def test_parquet_roundtrip_example_runs(tmp_path):
    pytest.importorskip("pyarrow.parquet")
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "parquet_roundtrip.py"),
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "all tags verified" in done.stdout
    assert "after swapping two rows: 2 rows rejected" in done.stdout
    assert (tmp_path / "sealed.parquet").exists()


def test_module_examples_run():
    import doctest

    result = doctest.testmod(lwc.arrow)
    assert result.attempted > 0 and result.failed == 0


def test_null_rows_that_hold_bytes_are_skipped():
    """Arrow allows a null slot to span bytes; those bytes are neither encrypted nor hashed,
    and associated data of rows left out does not shift the others."""
    data = pa.py_buffer(b"aaabbbccc")
    offsets = pa.py_buffer(np.array([0, 3, 6, 9], dtype=np.int32))
    validity = pa.py_buffer(np.packbits(np.array([1, 0, 1], dtype=bool), bitorder="little"))
    col = pa.Array.from_buffers(pa.binary(), 3, [validity, offsets, data])
    ads = pa.array([b"x", b"yy", b"z"])
    key, nonces = bytes(16), [bytes([i]) * 16 for i in range(3)]
    nonce = pa.array(nonces, pa.binary(16))
    sealed = lwc.arrow.encrypt("ascon-aead128", key, nonce, col, ads)
    aead = lwc.AsconAEAD128(key)
    assert sealed.to_pylist() == [aead.encrypt(nonces[0], b"aaa", b"x"), None,
                                  aead.encrypt(nonces[2], b"ccc", b"z")]
    assert lwc.arrow.hash("ascon-hash256", col).to_pylist() == [
        lwc.ascon_hash256_digest(b"aaa"), None, lwc.ascon_hash256_digest(b"ccc")]
    # A null key or nonce makes the row null too.
    keys = pa.array([key, key, None], pa.binary(16))
    assert lwc.arrow.encrypt("ascon-aead128", keys, nonce, col, ads).to_pylist() == [sealed[0].as_py(), None, None]


def test_tag_length_and_second_keys():
    rng = random.Random("options")
    msgs, col = random_column(rng, 30, max_len=500)
    keys, key_col = fixed_column(rng, 30, 16)
    nonces, nonce_col = fixed_column(rng, 30, 16)
    second = rng.randbytes(16)
    sealed = lwc.arrow.encrypt("ascon-aead128", key_col, nonce_col, col, tag_length=8, second_keys=second)
    assert sealed.to_pylist() == [
        None if m is None else lwc.AsconAEAD128(k, tag_length=8, second_key=second).encrypt(nn, m, None)
        for k, nn, m in zip(keys, nonces, msgs)]
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key_col, nonce_col, sealed, tag_length=8,
                                  second_keys=pa.array([second] * 30, pa.binary(16)))
    assert plain.to_pylist() == msgs
    with pytest.raises(ValueError, match="second keys"):
        lwc.arrow.encrypt("xoodyak", key_col, nonce_col, col, second_keys=second)
    with pytest.raises(ValueError, match="tag_length"):
        lwc.arrow.encrypt("ascon-aead128", key_col, nonce_col, col, tag_length=2)


def test_rows_across_chunks_and_threads():
    """More rows than the C++ side takes per chunk (2048), with one and two threads: nulls,
    rows that do not verify and ciphertexts shorter than the tag in different chunks, against
    the single-message class."""
    rng = random.Random("chunks")
    n = 5000
    msgs = [None if rng.random() < 0.05 else rng.randbytes(rng.choice([0, 1, 16, 64, 100]))
            for _ in range(n)]
    keys, key_col = fixed_column(rng, n, 16, null_rate=0.02)
    nonces, nonce_col = fixed_column(rng, n, 16)
    want = expected_encrypt("ascon-aead128", keys, nonces, msgs)
    for threads in (1, 2, None):
        sealed = lwc.arrow.encrypt("ascon-aead128", key_col, nonce_col, pa.array(msgs, pa.binary()),
                                   threads=threads)
        sealed.validate(full=True)
        assert sealed.to_pylist() == want
    live = [i for i in range(n) if want[i] is not None]
    bad = {live[0], live[-1]} | set(rng.sample(live, 40))
    short = set(rng.sample([i for i in live if i not in bad], 5))
    tampered = list(want)
    for i in bad:
        b = bytearray(tampered[i])
        b[rng.randrange(len(b))] ^= 0x80
        tampered[i] = bytes(b)
    for i in short:
        tampered[i] = tampered[i][:15]
    for threads in (1, 2):
        plain, ok = lwc.arrow.decrypt("ascon-aead128", key_col, nonce_col, pa.array(tampered, pa.binary()),
                                      threads=threads)
        plain.validate(full=True)
        rejected = bad | short
        assert ok.to_pylist() == [want[i] is not None and i not in rejected for i in range(n)]
        expect = [None if (want[i] is None or i in rejected) else msgs[i] for i in range(n)]
        assert plain.to_pylist() == expect
        assert plain.buffers()[2].to_pybytes() == b"".join(m for m in expect if m is not None)


def test_null_associated_data_entries_are_empty():
    """A null associated-data entry is no associated data, even where its slot spans bytes."""
    ad_data = pa.py_buffer(b"xxyyzz")
    ad_offsets = pa.py_buffer(np.array([0, 2, 4, 6], dtype=np.int32))
    ad_validity = pa.py_buffer(np.packbits(np.array([1, 0, 1], dtype=bool), bitorder="little"))
    ads = pa.Array.from_buffers(pa.binary(), 3, [ad_validity, ad_offsets, ad_data])
    key, nonces = bytes(16), [bytes([i]) * 16 for i in range(3)]
    nonce = pa.array(nonces, pa.binary(16))
    msgs = pa.array([b"a", b"b", b"c"])
    aead = lwc.AsconAEAD128(key)
    sealed = lwc.arrow.encrypt("ascon-aead128", key, nonce, msgs, ads)
    assert sealed.to_pylist() == [aead.encrypt(nonces[0], b"a", b"xx"), aead.encrypt(nonces[1], b"b", None),
                                  aead.encrypt(nonces[2], b"c", b"zz")]
    plain, ok = lwc.arrow.decrypt("ascon-aead128", key, nonce, sealed, ads)
    assert plain.to_pylist() == [b"a", b"b", b"c"] and ok.to_pylist() == [True] * 3


def test_malformed_offsets_raise():
    """Arrow's cheap validation lets decreasing offsets through: they are refused, not read."""
    col = pa.Array.from_buffers(pa.binary(), 3, [None, pa.py_buffer(np.array([0, 5, 3, 9], dtype=np.int32)),
                                                 pa.py_buffer(b"x" * 9)])
    with pytest.raises(ValueError, match="offsets decrease"):
        lwc.arrow.encrypt("ascon-aead128", bytes(16), lwc.arrow.random_nonces("ascon-aead128", 3), col)
    with pytest.raises(ValueError, match="offsets decrease"):
        lwc.arrow.decrypt("ascon-aead128", bytes(16), bytes(16), col)


def test_threads_must_be_a_count():
    msgs = pa.array([b"a"])
    for bad in (-1, 1.0, True, "2"):
        with pytest.raises(ValueError, match="threads must be"):
            lwc.arrow.encrypt("ascon-aead128", bytes(16), bytes(16), msgs, threads=bad)
        with pytest.raises(ValueError, match="threads must be"):
            lwc.arrow.hash("ascon-hash256", msgs, threads=bad)
    assert lwc.arrow.encrypt("ascon-aead128", bytes(16), bytes(16), msgs, threads=0).to_pylist() == \
        [lwc.AsconAEAD128(bytes(16)).encrypt(bytes(16), b"a", None)]


def test_private_entry_refuses_one_nonce_for_many_rows_when_encrypting():
    """lwc.arrow refuses it first; the C++ entry does too, so no caller of it can encrypt two
    rows under one (key, nonce)."""
    from lwc import _lwc

    index = lwc.batch._INFOS["ascon-aead128"]["index"]
    offsets = np.array([0, 3, 6], dtype=np.int32)
    with pytest.raises(ValueError, match="same nonce"):
        _lwc._arrow_aead(False, index, bytes(32), bytes(16), None, b"abcdef", offsets, False, None, None,
                         None, False, None, 16, False, pa.allocate_buffer, None, None)
    # Decrypting under one nonce for every row only reads.
    _lwc._arrow_aead(True, index, bytes(32), bytes(16), None, b"abcdef", offsets, False, None, None,
                     None, False, None, 16, False, pa.allocate_buffer, None, None)


def test_private_entry_checks_the_tag_length():
    """The C++ entry sizes the result from the tag length before the engine sees it."""
    from lwc import _lwc

    offsets = np.array([0, 3], dtype=np.int32)
    for bad in (0, 17):
        with pytest.raises(ValueError, match="tag length"):
            _lwc._arrow_aead(False, lwc.batch._INFOS["ascon-aead128"]["index"], bytes(16), bytes(16), None,
                             b"abc", offsets, False,
                             None, None, None, False, None, bad, False, pa.allocate_buffer, None, None)
