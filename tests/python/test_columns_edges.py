# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.arrow and lwc.dask: no nonce shared by two rows, nulled rows never reported as
verified, authenticated nulls on request, partitions whose key ids are all null."""

from __future__ import annotations

import os

import pytest

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.compute")

import lwc  # noqa: E402
import lwc.arrow  # noqa: E402

NAME = "ascon-aead128"
KEY = bytes(range(16))


def test_one_nonce_for_many_rows_is_refused():
    msgs = pa.array([b"attack at dawn", b"attack at dusk"])
    with pytest.raises(ValueError, match="nonce"):
        lwc.arrow.encrypt(NAME, KEY, bytes(16), msgs)
    # One row with one nonce is fine, and so is one key for every row.
    lwc.arrow.encrypt(NAME, KEY, bytes(16), pa.array([b"one"]))
    sealed = lwc.arrow.encrypt(NAME, KEY, lwc.arrow.random_nonces(NAME, 2), msgs)
    assert len(sealed) == 2
    # Chunked input: each chunk is a piece of its own, still refused.
    with pytest.raises(ValueError, match="nonce"):
        lwc.arrow.encrypt(NAME, KEY, bytes(16), pa.chunked_array([msgs, msgs]))
    one_row_chunks = pa.chunked_array([pa.array([b"x"]), pa.array([b"y"])])
    with pytest.raises(ValueError, match="nonce"):
        lwc.arrow.encrypt(NAME, KEY, bytes(16), one_row_chunks)


def test_random_nonces_are_fresh():
    a, b = lwc.arrow.random_nonces(NAME, 100), lwc.arrow.random_nonces(NAME, 100)
    assert a.type == pa.binary(16)
    values = a.to_pylist() + b.to_pylist()
    assert len(set(values)) == 200


def _sealed_with_nonces(msgs):
    nonces = lwc.arrow.random_nonces(NAME, len(msgs))
    return nonces, lwc.arrow.encrypt(NAME, KEY, nonces, msgs)


def test_nulled_ciphertext_nonce_or_key_is_not_ok():
    msgs = pa.array([b"a", b"b", b"c", b"d"])
    nonces, sealed = _sealed_with_nonces(msgs)
    # Someone with write access to the storage nulls row 1's ciphertext.
    tampered = pa.array([v if i != 1 else None for i, v in enumerate(sealed.to_pylist())], pa.binary())
    plain, ok = lwc.arrow.decrypt(NAME, KEY, nonces, tampered)
    assert ok.null_count == 0
    assert ok.to_pylist() == [True, False, True, True]
    assert plain.to_pylist() == [b"a", None, b"c", b"d"]
    assert not pc.all(ok).as_py()
    # A nulled nonce, a nulled key.
    null_nonce = pa.array([None] + nonces.to_pylist()[1:], pa.binary(16))
    _, ok = lwc.arrow.decrypt(NAME, KEY, null_nonce, sealed)
    assert ok.to_pylist() == [False, True, True, True]
    keys = pa.array([KEY, KEY, None, KEY], pa.binary(16))
    _, ok = lwc.arrow.decrypt(NAME, keys, nonces, sealed)
    assert ok.to_pylist() == [True, True, False, True]


def test_authenticated_nulls_round_trip_and_detect_nulling():
    msgs = pa.array([b"x", None, b"", b"yz"])
    nonces = lwc.arrow.random_nonces(NAME, 4)
    sealed = lwc.arrow.encrypt(NAME, KEY, nonces, msgs, authenticate_nulls=True)
    assert sealed.null_count == 0  # the null row is an authenticated marker
    plain, ok = lwc.arrow.decrypt(NAME, KEY, nonces, sealed, authenticate_nulls=True)
    assert plain.to_pylist() == [b"x", None, b"", b"yz"]
    assert ok.to_pylist() == [True, True, True, True]
    # Nulling a stored value in storage is detected.
    tampered = pa.array([None] + sealed.to_pylist()[1:], pa.binary())
    plain, ok = lwc.arrow.decrypt(NAME, KEY, nonces, tampered, authenticate_nulls=True)
    assert ok.to_pylist() == [False, True, True, True]
    # Swapping in the null row's ciphertext for another row does not verify either.
    swapped = pa.array([sealed[1].as_py(), sealed[1].as_py()] + sealed.to_pylist()[2:], pa.binary())
    _, ok = lwc.arrow.decrypt(NAME, KEY, nonces, swapped, authenticate_nulls=True)
    assert ok.to_pylist() == [False, True, True, True]
    # Without the option on both sides, rows do not decrypt as authenticated nulls.
    plain, ok = lwc.arrow.decrypt(NAME, KEY, nonces, lwc.arrow.encrypt(NAME, KEY, nonces, msgs),
                                  authenticate_nulls=True)
    assert ok.to_pylist() == [False, False, False, False]
    # String and chunked inputs.
    chunked = pa.chunked_array([pa.array(["a", None]), pa.array(["b"])])
    nonces3 = lwc.arrow.random_nonces(NAME, 3)
    sealed = lwc.arrow.encrypt(NAME, KEY, nonces3, chunked, authenticate_nulls=True)
    plain, ok = lwc.arrow.decrypt(NAME, KEY, nonces3, sealed, authenticate_nulls=True)
    assert plain.to_pylist() == [b"a", None, b"b"]
    assert ok.to_pylist() == [True, True, True]


# ---- lwc.dask ---------------------------------------------------------------------------

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

import lwc.dask  # noqa: E402

KEYS = {"k1": bytes(range(16)), "k2": bytes(range(1, 17))}


def lookup(key_id):
    return KEYS[key_id]


def _frame(values, ids=None, partitions=1):
    data = {"payload": pd.Series(values, dtype=pd.ArrowDtype(pa.binary()))}
    if ids is not None:
        data["kid"] = pd.Series(ids, dtype="string")
    return dd.from_pandas(pd.DataFrame(data), npartitions=partitions)


def test_dask_reencryption_draws_new_nonces():
    ddf = _frame([b"a", b"b", b"c"])
    enc = lwc.dask.encrypt_column(ddf, "payload", NAME, key_lookup=lookup, key_id="k1")
    decrypted = lwc.dask.decrypt_column(enc, "payload", NAME, key_lookup=lookup, key_id="k1")
    decrypted = decrypted.drop(columns=["payload_ok"]).compute(scheduler="sync")
    old = list(decrypted["nonce"])
    # The decrypted frame still has its nonce column: encrypting it again draws new nonces.
    again = lwc.dask.encrypt_column(dd.from_pandas(decrypted, npartitions=1), "payload", NAME,
                                    key_lookup=lookup, key_id="k1").compute(scheduler="sync")
    assert not set(old) & set(again["nonce"])
    back = lwc.dask.decrypt_column(dd.from_pandas(again, npartitions=1), "payload", NAME,
                                   key_lookup=lookup, key_id="k1").compute(scheduler="sync")
    assert list(back["payload"]) == [b"a", b"b", b"c"] and back["payload_ok"].all()
    # The stored nonces are used only when asked for.
    kept = lwc.dask.encrypt_column(dd.from_pandas(decrypted, npartitions=1), "payload", NAME,
                                   key_lookup=lookup, key_id="k1", use_existing_nonces=True)
    assert list(kept.compute(scheduler="sync")["nonce"]) == old


def test_dask_nulled_rows_are_not_ok():
    ddf = _frame([b"a", b"b", b"c"])
    enc = lwc.dask.encrypt_column(ddf, "payload", NAME, key_lookup=lookup, key_id="k1")
    stored = enc.compute(scheduler="sync")
    stored.loc[1, "payload"] = None
    dec = lwc.dask.decrypt_column(dd.from_pandas(stored, npartitions=1), "payload", NAME,
                                  key_lookup=lookup, key_id="k1").compute(scheduler="sync")
    assert list(dec["payload_ok"]) == [True, False, True]
    assert not dec["payload_ok"].all()


def test_dask_authenticated_nulls():
    ddf = _frame([b"a", None, b"c"])
    enc = lwc.dask.encrypt_column(ddf, "payload", NAME, key_lookup=lookup, key_id="k1",
                                  authenticate_nulls=True)
    dec = lwc.dask.decrypt_column(enc, "payload", NAME, key_lookup=lookup, key_id="k1",
                                  authenticate_nulls=True).compute(scheduler="sync")
    assert list(dec["payload_ok"]) == [True, True, True]
    assert dec["payload"].isna().tolist() == [False, True, False]


def test_dask_partition_with_only_null_key_ids():
    ddf = _frame([b"a", b"b", b"c", b"d"], ids=[None, None, "k1", "k2"], partitions=2)
    enc = lwc.dask.encrypt_column(ddf, "payload", NAME, key_lookup=lookup, key_id_column="kid")
    stored = enc.compute(scheduler="sync")
    assert stored["payload"].isna().tolist() == [True, True, False, False]
    dec = lwc.dask.decrypt_column(enc, "payload", NAME, key_lookup=lookup,
                                  key_id_column="kid").compute(scheduler="sync")
    assert list(dec["payload_ok"]) == [False, False, True, True]
    assert list(dec["payload"])[2:] == [b"c", b"d"]
