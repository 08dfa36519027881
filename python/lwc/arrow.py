# SPDX-License-Identifier: MIT OR Apache-2.0
"""Apache Arrow columns in, Arrow columns out: lwc's CPU batch engine over whole columns.

Needs ``pyarrow`` (``pip install "lwc-crypto[arrow]"``) and ``numpy``.

>>> import pyarrow as pa, lwc.arrow
>>> keys = pa.array([bytes(16), bytes([1]) * 16], pa.binary(16))
>>> nonces = pa.array([bytes(16), bytes(16)], pa.binary(16))
>>> sealed = lwc.arrow.encrypt("ascon-aead128", keys, nonces, pa.array([b"hello", None]))
>>> sealed[0].as_py() == lwc.AsconAEAD128(bytes(16)).encrypt(bytes(16), b"hello", None)
True
>>> sealed[1].as_py() is None
True
>>> plain, ok = lwc.arrow.decrypt("ascon-aead128", keys, nonces, sealed)
>>> plain.to_pylist(), ok.to_pylist()
([b'hello', None], [True, False])

Inputs:

- messages, ciphertexts, associated data: ``pa.BinaryArray`` or ``pa.LargeBinaryArray`` (also
  ``pa.StringArray`` / ``pa.LargeStringArray``, read as their UTF-8 bytes), sliced arrays
  included, or a ``pa.ChunkedArray`` of those: it is processed chunk by chunk and the result is
  chunked the same way.
- keys (and ``second_keys``): a ``pa.FixedSizeBinaryArray`` of exactly the algorithm's size,
  one row per message, or one bytes-like value used for every row.
- nonces: a ``pa.FixedSizeBinaryArray``, one nonce per row. One bytes value for every row is
  refused when encrypting more than one row: the rows would share a keystream. Draw the
  nonces at random (``lwc.arrow.random_nonces(name, n)``, ``os.urandom``) and store them
  next to the ciphertexts.

Zero copy in: the engine reads a column's values and offsets buffers, and the key and nonce
rows, in place. Zero copy out: encrypt and decrypt write the result's values and offsets
straight into buffers from the Arrow memory pool (ciphertext || tag of a row is written where
the row's result goes), and the result is built with ``pa.Array.from_buffers`` on them, with no
Python object per row. The engine runs once per chunk, over as many threads as ``threads``
asks (all cores by default), and splits the rows itself. The copies that remain: a chunked key
or nonce column is combined first, one key for every row is repeated per row, rows that do not
run (a null message, key or nonce, a ciphertext shorter than the tag) make the encrypt or
decrypt gather the other rows first, hashes gather the non-null rows when some rows are null (a
column whose null rows hold bytes, which Arrow allows and pyarrow does not produce, is
compacted first), and decrypt moves the verified plaintexts down over the rows that did not
verify.

Nulls: null in, null out. A row is null in the result when its message (ciphertext), key or
nonce is null; such rows are not given to the engine at all (nothing is encrypted, hashed or
decrypted for them). A null associated-data entry means no associated data (the same as b"").

Nulls are not authenticated by default: anyone who can write to the storage can null a
ciphertext, and decryption cannot tell that from a row that was null to begin with. Such a
row decrypts to null with ``ok`` False, so ``ok`` is False for every row that did not verify
(``pc.all(ok)`` and ``ok.to_pandas().all()`` see no nulls to skip). To authenticate null
rows, encrypt and decrypt with ``authenticate_nulls=True``: every row is then framed with
one marker byte (null or not) before encryption, a null message is encrypted as an
authenticated marker, and decryption gives it back as null with ``ok`` True; a row nulled in
storage still gives ``ok`` False. Both sides must use the same setting.

Decryption does not raise on a bad tag: it returns ``(plaintexts, ok)``. A row whose tag did
not verify, a ciphertext shorter than the tag, or a null ciphertext, key or nonce, is null in
``plaintexts`` and False in ``ok``, and nothing of it is released (its bytes are not in the
result's buffers). Never use a plaintext without checking ``ok``. Never reuse a nonce with
the same key.

Result types: ``pa.binary()`` (``pa.large_binary()`` when the input was large, or when a
result would not fit 32-bit offsets; a chunked result is then large in every chunk); hashes
give ``pa.binary(length)`` (``FixedSizeBinaryArray``).
"""

from __future__ import annotations

import os
from typing import Any, Optional, Tuple, Union

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _lwc
from . import batch as _batch

__all__ = ["encrypt", "decrypt", "hash", "random_nonces"]

ArrayLike = Union[pa.Array, pa.ChunkedArray]

_INT32_MAX = 2**31 - 1
_MAX_SIZE = 2**63 - 1  # the largest Python object size (sys.maxsize on 64-bit)
_VARIABLE = (pa.binary(), pa.large_binary(), pa.string(), pa.large_string())


# ---- input checking and views of Arrow buffers ---------------------------------------------

def _check_variable(arr: Any, what: str) -> None:
    if not isinstance(arr, (pa.Array, pa.ChunkedArray)):
        raise TypeError(f"{what} must be a pyarrow BinaryArray, LargeBinaryArray, StringArray or "
                        f"ChunkedArray of those, not {type(arr).__name__!r}")
    if arr.type not in _VARIABLE:
        raise TypeError(f"{what} must be binary, large_binary, string or large_string, not {arr.type}")


def _bytes_view(buf: Optional[pa.Buffer]) -> Any:
    return b"" if buf is None else buf


def _offsets(arr: pa.Array) -> np.ndarray:
    """The n + 1 offsets of a (possibly sliced) binary/string array, as uint64, absolute into
    its values buffer (the engine takes absolute offsets: no rebasing needed)."""
    large = arr.type in (pa.large_binary(), pa.large_string())
    buf = arr.buffers()[1]
    n = len(arr)
    if buf is None:  # an array of length 0 may come without buffers
        return np.zeros(1, dtype=np.uint64)
    raw = np.frombuffer(buf, dtype=np.int64 if large else np.int32)
    return raw[arr.offset: arr.offset + n + 1].astype(np.uint64)


def _validity(arr: pa.Array) -> Optional[np.ndarray]:
    """A bool array of the non-null rows, or None when there are no nulls."""
    if arr.null_count == 0:
        return None
    return arr.is_valid().to_numpy(zero_copy_only=False)


def _and(a: Optional[np.ndarray], b: Optional[np.ndarray]) -> Optional[np.ndarray]:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


class _Var:
    """A binary column's values buffer and uint64 offsets, restricted to the selected rows."""

    __slots__ = ("data", "offsets", "lengths")

    def __init__(self, arr: pa.Array, rows: Optional[np.ndarray], what: str) -> None:
        off = _offsets(arr)
        if rows is not None:
            starts, ends = off[:-1][rows], off[1:][rows]
            if len(starts) and not np.array_equal(starts[1:], ends[:-1]):
                # Rows left out hold bytes: compact (a copy of the selected rows).
                arr = arr.filter(pa.array(rows))
                off = _offsets(arr)
            else:
                off = np.concatenate((starts, ends[-1:])) if len(starts) else np.zeros(1, np.uint64)
        self.data = _bytes_view(arr.buffers()[2])
        self.offsets = np.ascontiguousarray(off, dtype=np.uint64)
        self.lengths = np.diff(self.offsets)


def _fixed(arr: Any, n: int, size: int, what: str) -> Tuple[Any, Optional[np.ndarray]]:
    """(n x size uint8 rows, validity) of a FixedSizeBinaryArray, or one value broadcast."""
    if isinstance(arr, (bytes, bytearray, memoryview)):
        value = bytes(arr)
        if len(value) != size:
            raise ValueError(f"{what} must be {size} bytes, got {len(value)}")
        return np.broadcast_to(np.frombuffer(value, dtype=np.uint8), (n, size)), None
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if not isinstance(arr, pa.Array):
        raise TypeError(f"{what} must be a pyarrow FixedSizeBinaryArray of {size}-byte values "
                        f"(pa.binary({size})) or one bytes value, not {type(arr).__name__!r}")
    if not pa.types.is_fixed_size_binary(arr.type):
        raise TypeError(f"{what} must be a FixedSizeBinaryArray (pa.binary({size})), not {arr.type}")
    if arr.type.byte_width != size:
        raise ValueError(f"{what} must be {size} bytes wide for this algorithm, got "
                         f"pa.binary({arr.type.byte_width})")
    if len(arr) != n:
        raise ValueError(f"{what}: {len(arr)} rows for {n} messages (one per message, or one "
                         f"bytes value for all)")
    buf = arr.buffers()[1]
    if buf is None:
        rows = np.zeros((n, size), dtype=np.uint8)
    else:
        rows = np.frombuffer(buf, dtype=np.uint8)[arr.offset * size:(arr.offset + n) * size]
        rows = rows.reshape(n, size)
    return rows, _validity(arr)


def _select(rows: Any, keep: Optional[np.ndarray]) -> np.ndarray:
    """The kept rows of an n x size array, contiguous (read in place when nothing is dropped)."""
    if keep is not None:
        rows = rows[keep]
    return np.ascontiguousarray(rows)


def _pieces(arr: ArrayLike):
    """(start row, chunk) of a column: one piece for a plain array."""
    if isinstance(arr, pa.ChunkedArray):
        start = 0
        for chunk in arr.chunks:
            yield start, chunk
            start += len(chunk)
    else:
        yield 0, arr


def _rows(arr: Any, start: int, n: int) -> Any:
    """Rows start..start+n of a companion column (keys, nonces, associated data) as one array."""
    if isinstance(arr, pa.ChunkedArray):
        piece = arr.slice(start, n)
        return piece.chunk(0) if piece.num_chunks == 1 else piece.combine_chunks()
    if isinstance(arr, pa.Array):
        return arr.slice(start, n) if (start, n) != (0, len(arr)) else arr
    return arr


def _check_threads(threads: Any) -> None:
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 0):
        raise ValueError(f"threads must be None (all cores) or an int >= 0, got {threads!r}")


def _check_length(arr: Any, n: int, what: str) -> None:
    if isinstance(arr, (pa.Array, pa.ChunkedArray)) and len(arr) != n:
        raise ValueError(f"{what}: {len(arr)} rows for {n} messages (one per message)")


def _chunked(results: list, chunked: bool) -> ArrayLike:
    if not chunked:
        return results[0]
    types = {r.type for r in results}
    if len(types) > 1:  # some chunk needed 64-bit offsets
        results = [r.cast(pa.large_binary()) for r in results]
    return pa.chunked_array(results, type=results[0].type if results else pa.binary())


def _validity_buffer(valid: Optional[np.ndarray]) -> Optional[pa.Buffer]:
    if valid is None or valid.all():
        return None
    return pa.py_buffer(np.packbits(valid, bitorder="little"))


def _binary_result(data: Any, lengths: np.ndarray, valid: Optional[np.ndarray], large: bool) -> pa.Array:
    """A binary array of len(lengths) rows, back to back in `data`."""
    n = len(lengths)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if not large and offsets[-1] > _INT32_MAX:
        large = True
    typ = pa.large_binary() if large else pa.binary()
    offsets_buf = pa.py_buffer(offsets if large else offsets.astype(np.int32))
    null_count = -1 if valid is None else int(n - np.count_nonzero(valid))
    validity = _validity_buffer(valid)
    return pa.Array.from_buffers(typ, n, [validity, offsets_buf, pa.py_buffer(data)],
                                 null_count=null_count if validity is not None else 0)


def _is_large(arr: pa.Array) -> bool:
    return arr.type in (pa.large_binary(), pa.large_string())


# ---- AEAD ------------------------------------------------------------------------------------

def _aead_setup(name: str, tag_length: Optional[int]) -> Tuple[dict, int]:
    info = _batch._aead_info(name)  # the batch engine runs every registered algorithm
    return info, _batch._tag_length(info, tag_length)


def _offsets_buffer(arr: pa.Array) -> Tuple[Any, bool]:
    """The n + 1 Arrow offsets of a (possibly sliced) binary/string array as they are stored
    (int32, or int64 when large), without a copy; and whether they are 64-bit."""
    large = _is_large(arr)
    width = 8 if large else 4
    buf = arr.buffers()[1]
    if buf is None:  # an array of length 0 may come without buffers
        return np.zeros(len(arr) + 1, dtype=np.int64 if large else np.int32), large
    return buf.slice(arr.offset * width, (len(arr) + 1) * width), large


def _fixed_buffer(arr: Any, n: int, size: int, what: str,
                  one_for_all: bool = True) -> Tuple[Any, Optional[np.ndarray]]:
    """(n x size bytes, or one value of size bytes for every row; validity) of keys or nonces,
    read in place. one_for_all=False: one value is accepted for a single row only."""
    if isinstance(arr, (bytes, bytearray, memoryview)):
        value = bytes(arr)
        if len(value) != size:
            raise ValueError(f"{what} must be {size} bytes, got {len(value)}")
        if not one_for_all and n > 1:
            raise ValueError(f"{what}: one value for {n} rows would encrypt every row under the same "
                             f"key and nonce; give one nonce per row (lwc.arrow.random_nonces)")
        return value, None
    rows, valid = _fixed(arr, n, size, what)
    return rows, valid


def _aead_piece(decrypting: bool, info: dict, tag: int, keys: Any, nonces: Any, data: pa.Array,
                ad: Any, second_keys: Any, threads: Optional[int], backend: Optional[str]):
    # The rows go to the C++ side (arrow_columns.cpp) as the column's own buffers; it writes
    # the result's offsets and values into buffers from the Arrow memory pool.
    n = len(data)
    key_rows, key_valid = _fixed_buffer(keys, n, info["key_size"], "keys")
    nonce_rows, nonce_valid = _fixed_buffer(nonces, n, info["nonce_size"], "nonces",
                                            one_for_all=decrypting)
    second_rows = None
    if second_keys is not None:
        second_rows, second_valid = _fixed_buffer(second_keys, n, info["second_key_size"], "second_keys")
        if second_valid is not None:
            raise ValueError("second_keys: null entries are not allowed")
    valid = _and(_and(_validity(data), key_valid), nonce_valid)
    offsets, large = _offsets_buffer(data)
    ad_values = ad_offsets = ad_valid = None
    ad_large = False
    if ad is not None:
        ad_offsets, ad_large = _offsets_buffer(ad)
        ad_values = ad.buffers()[2]
        ad_valid = _validity(ad)  # a null entry is no associated data, whatever its offsets span
    values, out_offsets, ok, used, out_large = _lwc._arrow_aead(
        decrypting, info["index"], key_rows, nonce_rows, second_rows, data.buffers()[2], offsets,
        large, valid, ad_values, ad_offsets, ad_large, ad_valid, tag, large, pa.allocate_buffer,
        threads, backend)
    typ = pa.large_binary() if out_large else pa.binary()
    if not decrypting:
        validity = _validity_buffer(valid)
        return pa.Array.from_buffers(typ, n, [validity, out_offsets, values],
                                     null_count=0 if validity is None else int(n - np.count_nonzero(valid)))
    ok_flags = np.frombuffer(ok, dtype=np.bool_)
    released = _validity_buffer(ok_flags)  # rows that did not verify (or did not run): null
    if used != values.size:
        values = values.slice(0, used)
    plain = pa.Array.from_buffers(typ, n, [released, out_offsets, values],
                                  null_count=0 if released is None else int(n - np.count_nonzero(ok_flags)))
    # A null row did not verify: False, never null, so that all() cannot skip it.
    return plain, pa.array(ok_flags, type=pa.bool_())


_NULL_MARK, _VALUE_MARK = b"\x00", b"\x01"


def _as_binary(data: ArrayLike) -> ArrayLike:
    if data.type == pa.string():
        return data.cast(pa.binary())
    if data.type == pa.large_string():
        return data.cast(pa.large_binary())
    return data


def _frame_nulls(data: ArrayLike) -> ArrayLike:
    """Every row prefixed with one marker byte: null rows become the null marker alone."""
    data = _as_binary(data)
    marks = pc.if_else(pc.is_valid(data), pa.scalar(_VALUE_MARK, data.type), pa.scalar(_NULL_MARK, data.type))
    return pc.binary_join_element_wise(marks, data.fill_null(b""), pa.scalar(b"", data.type))


def _unframe_piece(plain: pa.Array, ok: pa.Array) -> Tuple[pa.Array, pa.Array]:
    n = len(plain)
    off = _offsets(plain)
    values = np.frombuffer(_bytes_view(plain.buffers()[2]), dtype=np.uint8)
    starts, lengths = off[:-1], np.diff(off)
    verified = ok.to_numpy(zero_copy_only=False).astype(bool)
    first = np.full(n, -1, dtype=np.int16)
    nonempty = lengths > 0
    first[nonempty] = values[starts[nonempty]]
    is_null = verified & (lengths == 1) & (first == _NULL_MARK[0])
    is_value = verified & (first == _VALUE_MARK[0])
    body_len = np.where(is_value, lengths - 1, 0).astype(np.int64)
    # The bytes of every value row but its marker, back to back.
    kept_len = body_len[is_value]
    total = int(kept_len.sum())
    row_start = np.repeat(starts[is_value].astype(np.int64) + 1, kept_len)
    within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(kept_len) - kept_len, kept_len)
    body = values[row_start + within] if total else np.zeros(0, dtype=np.uint8)
    return (_binary_result(body, body_len, is_value, _is_large(plain)),
            pa.array(is_null | is_value, type=pa.bool_()))


def _unframe_nulls(plain: ArrayLike, ok: ArrayLike) -> Tuple[ArrayLike, ArrayLike]:
    """The inverse of _frame_nulls on verified rows; a verified row without a valid frame
    (encrypted without authenticate_nulls) is not ok."""
    if isinstance(plain, pa.Array):
        return _unframe_piece(plain, ok)
    pieces = [_unframe_piece(p, o) for p, o in zip(plain.chunks, ok.chunks)]
    return (_chunked([p for p, _ in pieces], True),
            pa.chunked_array([o for _, o in pieces], type=pa.bool_()))


def random_nonces(name: str, n: int) -> pa.Array:
    """n fresh random nonces (``os.urandom``) for the AEAD ``name``: a
    ``pa.binary(nonce_size)`` column to pass to ``encrypt`` and to store with the ciphertexts."""
    info = _batch._aead_info(name)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a non-negative int, got {n!r}")
    size = info["nonce_size"]
    return pa.Array.from_buffers(pa.binary(size), n, [None, pa.py_buffer(os.urandom(n * size))])


def _aead(decrypting: bool, name: str, keys: Any, nonces: Any, data: ArrayLike, associated_data: Any,
          tag_length: Optional[int], second_keys: Any, threads: Optional[int], backend: Optional[str],
          authenticate_nulls: bool = False):
    what = "ciphertexts" if decrypting else "messages"
    _check_variable(data, what)
    if not isinstance(authenticate_nulls, bool):
        raise TypeError(f"authenticate_nulls must be a bool, not {type(authenticate_nulls).__name__!r}")
    if authenticate_nulls and not decrypting:
        data = _frame_nulls(data)
    _check_threads(threads)
    info, tag = _aead_setup(name, tag_length)
    n = len(data)
    for arr, label in ((keys, "keys"), (nonces, "nonces"), (associated_data, "associated_data"),
                       (second_keys, "second_keys")):
        _check_length(arr, n, label)
    if associated_data is not None:
        _check_variable(associated_data, "associated_data")
    if second_keys is not None and not info["second_key_size"]:
        raise ValueError(f"{name}: nonce masking (second keys) is not supported")
    if not decrypting and n > 1 and isinstance(nonces, (bytes, bytearray, memoryview)):
        # Checked on the whole column: each chunk of a chunked column may hold a single row.
        _fixed_buffer(nonces, n, info["nonce_size"], "nonces", one_for_all=False)
    results = []
    for start, chunk in _pieces(data):
        m = len(chunk)
        results.append(_aead_piece(
            decrypting, info, tag, _rows(keys, start, m), _rows(nonces, start, m), chunk,
            None if associated_data is None else _rows(associated_data, start, m),
            None if second_keys is None else _rows(second_keys, start, m), threads, backend))
    chunked = isinstance(data, pa.ChunkedArray)
    if not decrypting:
        return _chunked(results, chunked)
    plain = _chunked([p for p, _ in results], chunked)
    ok = pa.chunked_array([o for _, o in results], type=pa.bool_()) if chunked else results[0][1]
    if authenticate_nulls:
        plain, ok = _unframe_nulls(plain, ok)
    return plain, ok


def encrypt(name: str, keys: Any, nonces: Any, plaintexts: ArrayLike, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None,
            authenticate_nulls: bool = False) -> ArrayLike:
    """Encrypts every row under its own key and nonce: ciphertext || tag per row.

    ``keys``: a ``pa.binary(key_size)`` array (one row per message) or one bytes key for all
    rows. ``nonces``: a ``pa.binary(nonce_size)`` array, one fresh nonce per row (one bytes
    value is accepted for a single row only; see ``random_nonces``). ``associated_data``: a
    binary/string column or None. Returns a ``pa.BinaryArray`` (a ``pa.ChunkedArray`` for
    chunked input); null rows stay null and are not encrypted, unless
    ``authenticate_nulls=True``, which encrypts them as an authenticated null marker (see the
    module documentation). ``tag_length``, ``second_keys``, ``threads``, ``backend``: as in
    ``lwc.batch.encrypt``.
    """
    return _aead(False, name, keys, nonces, plaintexts, associated_data, tag_length, second_keys,
                 threads, backend, authenticate_nulls)


def decrypt(name: str, keys: Any, nonces: Any, ciphertexts: ArrayLike, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None,
            authenticate_nulls: bool = False) -> Tuple[ArrayLike, ArrayLike]:
    """Verifies and decrypts every row (ciphertext || tag); returns ``(plaintexts, ok)``.

    ``plaintexts`` (``pa.BinaryArray``) is null where the row did not verify, ``ok``
    (``pa.BooleanArray``, never null) False there; a null ciphertext, key or nonce does not
    verify. ``authenticate_nulls=True`` (for columns encrypted with it): a row encrypted from
    null is null in ``plaintexts`` with ``ok`` True. Chunked input gives chunked results.
    """
    return _aead(True, name, keys, nonces, ciphertexts, associated_data, tag_length, second_keys,
                 threads, backend, authenticate_nulls)


# ---- hashes, XOFs, MACs, PRFs ---------------------------------------------------------------

def _hash_length(info: dict, length: Optional[int]) -> int:
    name = info["name"]
    if info["max_output_size"] is not None:
        if length not in (None, info["output_size"]):
            raise ValueError(f"{name}: the output is {info['output_size']} bytes, got length={length!r}")
        return info["output_size"]
    if length is None:
        return info["output_size"]
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    if length > _MAX_SIZE:
        raise OverflowError(f"length={length} is larger than any buffer can be")
    return length


def _hash_piece(info: dict, length: int, data: pa.Array, keys: Any, threads, backend) -> pa.Array:
    n = len(data)
    valid = _validity(data)
    key_rows = None
    if info["kind"] in ("mac", "prf"):
        key_rows, key_valid = _fixed(keys, n, info["key_size"], "keys")
        valid = _and(valid, key_valid)
    msgs = _Var(data, valid, "messages")
    m = len(msgs.lengths)
    if m:
        out = _lwc._batch_hash(info["index"], (msgs.data, msgs.offsets), length,
                               None if key_rows is None else _select(key_rows, valid),
                               None, threads, backend, False)
    else:
        out = b""
    if valid is not None and m != n:
        full = np.zeros((n, length), dtype=np.uint8)
        full[valid] = np.frombuffer(out, dtype=np.uint8).reshape(m, length)
        out = full
    typ = pa.binary(length)
    validity = _validity_buffer(valid)
    return pa.Array.from_buffers(typ, n, [validity, pa.py_buffer(out)],
                                 null_count=0 if validity is None else int(n - m))


def hash(name: str, messages: ArrayLike, length: Optional[int] = None, *, keys: Any = None,
         threads: Optional[int] = None, backend: Optional[str] = None) -> ArrayLike:
    """Hashes every row: a ``pa.FixedSizeBinaryArray`` (``pa.binary(length)``), null where the
    message is null.

    Every hash, XOF, MAC and PRF that the batch engine runs. ``length``: output bytes for an
    XOF or PRF (default: the algorithm's default output size); fixed-size hashes accept only
    their size. ``keys``: MACs and PRFs, a ``pa.binary(key_size)`` array or one bytes key.
    CXOF customization strings are not taken here (use ``lwc.batch.hash``).
    """
    _check_variable(messages, "messages")
    _check_threads(threads)
    info = _batch._INFOS.get(name) if isinstance(name, str) else None
    if info is None or info["kind"] == "aead":
        raise ValueError(f"unknown hash, XOF, MAC or PRF {name!r}")
    keyed = info["kind"] in ("mac", "prf")
    if keyed and keys is None:
        raise ValueError(f"{name}: keys are required, pa.binary({info['key_size']}) rows or one key")
    if not keyed and keys is not None:
        raise ValueError(f"{name} takes no key")
    _check_length(keys, len(messages), "keys")
    length = _hash_length(info, length)
    results = [_hash_piece(info, length, chunk, _rows(keys, start, len(chunk)) if keyed else None,
                           threads, backend)
               for start, chunk in _pieces(messages)]
    if isinstance(messages, pa.ChunkedArray):
        return pa.chunked_array(results, type=pa.binary(length))
    return results[0]
