# SPDX-License-Identifier: MIT OR Apache-2.0
"""Columns of a ``dask.dataframe``, partition by partition, through ``lwc.arrow``.

Needs ``dask[dataframe]`` (``pip install "lwc-crypto[dask]"``). Columns are Arrow-backed
pandas columns (``pd.ArrowDtype(pa.binary())``); each partition's column is handed to
``lwc.arrow`` as the Arrow array it already is, and the result is put back as an
Arrow-backed column, so bytes are not turned into Python objects.

Keys never travel in the task graph. Pass a key *id* (``key_id="orders-2026"``, or a column of
ids with ``key_id_column=``) and a ``key_lookup`` callable that maps an id to the key bytes;
the callable runs on the workers, once per distinct id in each partition, so the raw key
exists only in the worker that reads it (from a KMS, a file only the workers can read, an
environment variable, ...). ``key_lookup`` itself is pickled into the graph: make it
something that *fetches* the key, never a closure or object that holds it::

    def lookup(key_id: str) -> bytes:        # a module-level function, importable on the workers
        return my_kms.get_data_key(key_id)

    ddf = lwc.dask.encrypt_column(ddf, "payload", "ascon-aead128", key_lookup=lookup,
                                  key_id="orders-2026", nonce_column="nonce")
    back = lwc.dask.decrypt_column(ddf, "payload", "ascon-aead128", key_lookup=lookup,
                                   key_id="orders-2026", nonce_column="nonce")
    # back["payload"] is the plaintext, back["payload_ok"] says which rows verified.

Encryption draws a fresh random nonce per row on the worker (``os.urandom``) and stores it in
``nonce_column``, replacing the values of an existing column of that name: encrypting a
decrypted frame again never reuses its old nonces. Only ``use_existing_nonces=True`` takes the
nonces from the existing column (it must then be ``pd.ArrowDtype(pa.binary(nonce_size))``,
and the caller guarantees that no nonce repeats under the same key). A recomputed partition
draws new nonces, which is safe: the nonces and ciphertexts of a partition are always
produced together.

Nulls: a null row stays null and is not authenticated (see ``lwc.arrow``): after decryption
its ``ok`` is False, like any row that did not verify, so ``ok.all()`` is True only when every
row verified. ``authenticate_nulls=True`` (on both sides) encrypts null rows as an
authenticated marker; they then decrypt to null with ``ok`` True. A null key id gives a null
ciphertext, and ``ok`` False when decrypting.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

import numpy as np
import pandas as pd
import pyarrow as pa

from . import arrow as _arrow
from . import batch as _batch

__all__ = ["encrypt_column", "decrypt_column", "hash_column"]

KeyLookup = Callable[[Any], bytes]


def _arrow_of(series: pd.Series, what: str) -> pa.Array:
    """The Arrow data of a pandas column (read in place for ArrowDtype columns)."""
    arr = pa.array(series.array) if isinstance(series.dtype, pd.ArrowDtype) else pa.array(series, from_pandas=True)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.chunk(0) if arr.num_chunks == 1 else arr.combine_chunks()
    if arr.type == pa.null():
        arr = arr.cast(pa.binary())
    return arr


def _series(arr: Any, index: pd.Index, name: str) -> pd.Series:
    return pd.Series(pd.arrays.ArrowExtensionArray(arr), index=index, name=name)


def _keys(partition: pd.DataFrame, info: dict, key_lookup: KeyLookup, key_id: Any,
          key_id_column: Optional[str]) -> Any:
    """One key for every row, or a pa.binary(key_size) array from per-row key ids."""
    size = info["key_size"]

    def fetch(kid: Any) -> bytes:
        key = key_lookup(kid)
        if not isinstance(key, (bytes, bytearray, memoryview)) or len(key) != size:
            raise ValueError(f"key_lookup({kid!r}) must return {size} bytes for {info['name']}")
        return bytes(key)

    if (key_id is None) == (key_id_column is None):
        raise ValueError("give exactly one of key_id= (one key id) and key_id_column= (per-row ids)")
    if key_id_column is None:
        return fetch(key_id)
    ids = partition[key_id_column]
    codes, uniques = pd.factorize(ids, use_na_sentinel=True)
    # One spare row of zeros: rows with a null id point at it (and are null in the result),
    # also when every id of the partition is null.
    table = np.zeros((max(len(uniques), 1), size), dtype=np.uint8)
    for i, kid in enumerate(uniques):
        table[i] = np.frombuffer(fetch(kid), dtype=np.uint8)
    rows = np.ascontiguousarray(table[np.maximum(codes, 0)])
    null = codes < 0  # a null key id: the row is null in the result
    validity = pa.py_buffer(np.packbits(~null, bitorder="little")) if null.any() else None
    return pa.Array.from_buffers(pa.binary(size), len(rows), [validity, pa.py_buffer(rows)],
                                 null_count=int(null.sum()))


def _random_nonces(n: int, size: int) -> pa.Array:
    return pa.Array.from_buffers(pa.binary(size), n, [None, pa.py_buffer(os.urandom(n * size))])


def _ad(partition: pd.DataFrame, ad_column: Optional[str]) -> Any:
    return None if ad_column is None else _arrow_of(partition[ad_column], ad_column)


def _encrypt_partition(partition: pd.DataFrame, column: str, name: str, key_lookup: KeyLookup,
                       key_id: Any, key_id_column: Optional[str], nonce_column: str,
                       ad_column: Optional[str], out_column: str, threads: Optional[int],
                       use_existing_nonces: bool = False,
                       authenticate_nulls: bool = False) -> pd.DataFrame:
    info = _batch._aead_info(name)
    n = len(partition)
    if use_existing_nonces:
        nonces = _arrow_of(partition[nonce_column], nonce_column)
    else:
        nonces = _random_nonces(n, info["nonce_size"])
    keys = _keys(partition, info, key_lookup, key_id, key_id_column)
    sealed = _arrow.encrypt(name, keys, nonces, _arrow_of(partition[column], column),
                            _ad(partition, ad_column), threads=threads,
                            authenticate_nulls=authenticate_nulls)
    out = partition.copy(deep=False)
    out[nonce_column] = _series(nonces, partition.index, nonce_column)
    out[out_column] = _series(sealed, partition.index, out_column)
    return out


def _decrypt_partition(partition: pd.DataFrame, column: str, name: str, key_lookup: KeyLookup,
                       key_id: Any, key_id_column: Optional[str], nonce_column: str,
                       ad_column: Optional[str], out_column: str, ok_column: str,
                       threads: Optional[int], authenticate_nulls: bool = False) -> pd.DataFrame:
    info = _batch._aead_info(name)
    keys = _keys(partition, info, key_lookup, key_id, key_id_column)
    plain, ok = _arrow.decrypt(name, keys, _arrow_of(partition[nonce_column], nonce_column),
                               _arrow_of(partition[column], column), _ad(partition, ad_column),
                               threads=threads, authenticate_nulls=authenticate_nulls)
    out = partition.copy(deep=False)
    out[out_column] = _series(plain, partition.index, out_column)
    out[ok_column] = _series(ok, partition.index, ok_column)
    return out


def _hash_partition(partition: pd.DataFrame, column: str, name: str, length: Optional[int],
                    out_column: str, threads: Optional[int]) -> pd.DataFrame:
    digests = _arrow.hash(name, _arrow_of(partition[column], column), length, threads=threads)
    out = partition.copy(deep=False)
    out[out_column] = _series(digests, partition.index, out_column)
    return out


def _meta_with(ddf: Any, columns: dict) -> pd.DataFrame:
    meta = ddf._meta.copy(deep=False)
    for col, dtype in columns.items():
        meta[col] = pd.Series([], dtype=dtype, index=meta.index[:0])
    return meta


def encrypt_column(ddf: Any, column: str, name: str, *, key_lookup: KeyLookup, key_id: Any = None,
                   key_id_column: Optional[str] = None, nonce_column: str = "nonce",
                   ad_column: Optional[str] = None, out_column: Optional[str] = None,
                   threads: Optional[int] = None, use_existing_nonces: bool = False,
                   authenticate_nulls: bool = False) -> Any:
    """Encrypts ``ddf[column]`` partition by partition; returns a new dask DataFrame whose
    ``out_column`` (default: ``column`` itself) holds ciphertext || tag and whose
    ``nonce_column`` holds the nonces, drawn at random on the workers (an existing column of
    that name is replaced, unless ``use_existing_nonces=True`` takes the nonces from it).
    ``authenticate_nulls``: see the module documentation. The key is ``key_lookup(key_id)`` (or per row ``key_lookup(id)`` for the ids in
    ``key_id_column``), called on the workers. ``threads``: the batch engine's threads per
    partition (default: all cores of the worker's machine; 1 where each worker process has a
    core of its own)."""
    info = _batch._aead_info(name)
    _arrow._check_threads(threads)
    out_column = out_column or column
    meta = _meta_with(ddf, {nonce_column: pd.ArrowDtype(pa.binary(info["nonce_size"])),
                            out_column: pd.ArrowDtype(pa.binary())})
    if use_existing_nonces and nonce_column not in ddf.columns:
        raise ValueError(f"use_existing_nonces=True: there is no column {nonce_column!r}")
    return ddf.map_partitions(_encrypt_partition, column, name, key_lookup, key_id, key_id_column,
                              nonce_column, ad_column, out_column, threads, bool(use_existing_nonces),
                              bool(authenticate_nulls), meta=meta)


def decrypt_column(ddf: Any, column: str, name: str, *, key_lookup: KeyLookup, key_id: Any = None,
                   key_id_column: Optional[str] = None, nonce_column: str = "nonce",
                   ad_column: Optional[str] = None, out_column: Optional[str] = None,
                   ok_column: Optional[str] = None, threads: Optional[int] = None,
                   authenticate_nulls: bool = False) -> Any:
    """Verifies and decrypts ``ddf[column]``: ``out_column`` (default ``column``) gets the
    plaintexts (null where the row did not verify) and ``ok_column`` (default
    ``out_column + "_ok"``) the verification flags, False for every row that did not verify
    (null rows included). Keys, ``threads`` and ``authenticate_nulls`` as in
    ``encrypt_column``."""
    _batch._aead_info(name)
    _arrow._check_threads(threads)
    out_column = out_column or column
    ok_column = ok_column or f"{out_column}_ok"
    meta = _meta_with(ddf, {out_column: pd.ArrowDtype(pa.binary()), ok_column: pd.ArrowDtype(pa.bool_())})
    return ddf.map_partitions(_decrypt_partition, column, name, key_lookup, key_id, key_id_column,
                              nonce_column, ad_column, out_column, ok_column, threads,
                              bool(authenticate_nulls), meta=meta)


def hash_column(ddf: Any, column: str, name: str, length: Optional[int] = None, *,
                out_column: Optional[str] = None, threads: Optional[int] = None) -> Any:
    """Hashes ``ddf[column]`` into ``out_column`` (default ``column + "_" + name``), a
    ``pd.ArrowDtype(pa.binary(length))`` column. Unkeyed hashes and XOFs. ``threads`` as in
    ``encrypt_column``."""
    info = _batch._INFOS.get(name)
    if info is None or info["kind"] not in ("hash", "xof", "cxof"):
        raise ValueError(f"unknown unkeyed hash or XOF {name!r}")
    length = _arrow._hash_length(info, length)
    _arrow._check_threads(threads)
    out_column = out_column or f"{column}_{name}"
    meta = _meta_with(ddf, {out_column: pd.ArrowDtype(pa.binary(length))})
    return ddf.map_partitions(_hash_partition, column, name, length, out_column, threads, meta=meta)
