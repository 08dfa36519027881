"""Many independent messages at once: lwc's CPU batch engine (SIMD lanes and threads).

Every job has its own key, nonce, associated data and length; results are byte for byte
those of the single-message classes. Inputs are lists (or tuples) of bytes-like objects, or
numpy arrays: keys and nonces as N x size uint8 arrays, equal-length messages as an N x L
uint8 array (then the result is an array too).

Decryption does not raise on a bad tag: it returns ``(plaintexts, ok)`` so that one forged
packet does not stop a batch. For a job whose tag did not verify, ``ok[i]`` is False and its
plaintext is ``None`` (list input) or a row of zeros (array input); never use a plaintext
without checking ``ok``. Never reuse a nonce with the same key.

>>> import lwc
>>> keys = [bytes(16), bytes([1]) * 16]
>>> nonces = [bytes(16), bytes(16)]
>>> sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"hello", b"world!"])
>>> sealed[0] == lwc.AsconAEAD128(keys[0]).encrypt(nonces[0], b"hello", None)
True
>>> plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed)
>>> plain, ok
([b'hello', b'world!'], [True, True])
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Any, Optional, Sequence, Tuple

from . import _lwc

__all__ = ["encrypt", "decrypt", "hash", "algorithms", "backends", "default_backend", "lanes"]


def algorithms() -> list:
    """Names of the algorithms the batch engine runs."""
    return _lwc._batch_algorithms()


def backends() -> list:
    """Backends this CPU can run, fastest first (e.g. ['avx512', 'avx2', 'portable'])."""
    return _lwc._batch_backends()


def default_backend() -> str:
    """The backend used when none is given (the fastest, or the one named by LWC_BACKEND)."""
    return _lwc._batch_default_backend()


def lanes(backend: str) -> int:
    """Messages processed side by side per thread by a backend."""
    return _lwc._batch_lanes(backend)


def _is_array(x: Any) -> bool:
    return hasattr(x, "__array_interface__") and hasattr(x, "ndim")


def _check_bytes_like(item: Any, what: str, i: int) -> None:
    if isinstance(item, str):
        raise TypeError(f"{what}[{i}] must be a bytes-like object, not 'str' (encode text first)")
    if item is None:
        raise TypeError(f"{what}[{i}] must be a bytes-like object, not None")


def _pack(items: Any, what: str) -> Tuple[Any, array, int, Optional[int]]:
    """Back-to-back data, uint64 offsets, count, and the common length of 2-D array input."""
    if isinstance(items, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"{what} must be a list of messages (or a 2-D array), not one message")
    if _is_array(items):
        if items.ndim != 2 or items.dtype.itemsize != 1:
            raise ValueError(f"{what}: expected an N x L uint8 array, got shape {items.shape} of {items.dtype}")
        n, length = items.shape
        return items, array("Q", range(0, n * length + 1, length) if length else [0] * (n + 1)), n, length
    items = list(items)
    for i, item in enumerate(items):
        _check_bytes_like(item, what, i)
    sizes = [memoryview(item).nbytes for item in items]
    return b"".join(items), array("Q", accumulate(sizes, initial=0)), len(items), None


def _pack_fixed(items: Any, n: int, size: int, what: str) -> Any:
    """n items of exactly `size` bytes each, back to back."""
    if _is_array(items):
        if items.ndim != 2 or items.shape != (n, size) or items.dtype.itemsize != 1:
            raise ValueError(f"{what}: expected an {n} x {size} uint8 array, got shape {items.shape}")
        return items
    items = list(items)
    if len(items) != n:
        raise ValueError(f"{what}: expected {n} entries (one per message), got {len(items)}")
    for i, item in enumerate(items):
        _check_bytes_like(item, what, i)
        got = memoryview(item).nbytes
        if got != size:
            raise ValueError(f"{what}[{i}] must be {size} bytes, got {got}")
    return b"".join(items)


def _aead_info(name: str) -> dict:
    for info in _lwc.registry():
        if info["name"] == name and info["kind"] == "aead":
            return info
    raise ValueError(f"unknown AEAD algorithm {name!r}")


def _tag_length(info: dict, tag_length: Optional[int]) -> int:
    if tag_length is None:
        return info["tag_size"]
    lo, hi = info["min_tag_size"], info["tag_size"]
    if not isinstance(tag_length, int) or not lo <= tag_length <= hi:
        raise ValueError(f"{info['name']}: tag_length must be {lo} to {hi} bytes, got {tag_length!r}")
    return tag_length


def _run_aead(decrypting: bool, name: str, keys: Any, nonces: Any, data: Any,
              associated_data: Any, tag_length: Optional[int], second_keys: Any,
              threads: Optional[int], backend: Optional[str]):
    info = _aead_info(name)
    tag = _tag_length(info, tag_length)
    packed, offsets, n, length = _pack(data, "ciphertexts" if decrypting else "messages")
    key_buf = _pack_fixed(keys, n, info["key_size"], "keys")
    nonce_buf = _pack_fixed(nonces, n, info["nonce_size"], "nonces")
    ad_buf, ad_offsets = None, None
    if associated_data is not None:
        ad_buf, ad_offsets, n_ad, _ = _pack(associated_data, "associated_data")
        if n_ad != n:
            raise ValueError(f"associated_data: expected {n} entries (one per message), got {n_ad}")
    second_buf = None
    if second_keys is not None:
        if not info["second_key_size"]:
            raise ValueError(f"{name}: nonce masking (second keys) is not supported")
        second_buf = _pack_fixed(second_keys, n, info["second_key_size"], "second_keys")
    out, ok = _lwc._batch_aead(decrypting, name, key_buf, nonce_buf, packed, offsets, ad_buf,
                               ad_offsets, second_buf, tag, threads, backend)
    return out, ok, offsets, n, length, tag


def encrypt(name: str, keys: Any, nonces: Any, messages: Any, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None):
    """Encrypts every message under its own key and nonce; returns ciphertext || tag per job.

    List input gives a list of bytes; an N x L array of messages gives an N x (L + tag) array.
    ``threads``: None = all cores, 1 = the calling thread only. ``backend``: None = the best,
    or one of ``backends()``. ``second_keys``: per-job nonce-masking keys (ascon-aead128).
    """
    out, _, offsets, n, length, tag = _run_aead(False, name, keys, nonces, messages, associated_data,
                                                tag_length, second_keys, threads, backend)
    if length is not None:
        import numpy as np
        return np.frombuffer(out, dtype=np.uint8).reshape(n, length + tag).copy()
    base = offsets[0]
    return [out[offsets[i] - base + i * tag: offsets[i + 1] - base + (i + 1) * tag] for i in range(n)]


def decrypt(name: str, keys: Any, nonces: Any, ciphertexts: Any, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None):
    """Verifies and decrypts every job (each ciphertext ends with its tag).

    Returns ``(plaintexts, ok)``. List input: plaintexts is a list with None where the tag did
    not verify, ok a list of bools. Array input (N x L): plaintexts is an N x (L - tag) array
    whose failed rows are zero, ok a numpy bool array.
    """
    out, ok, offsets, n, length, tag = _run_aead(True, name, keys, nonces, ciphertexts,
                                                 associated_data, tag_length, second_keys,
                                                 threads, backend)
    if length is not None:
        import numpy as np
        plain = np.frombuffer(out, dtype=np.uint8).reshape(n, length - tag).copy()
        return plain, np.frombuffer(ok, dtype=np.uint8).astype(bool)
    base = offsets[0]
    flags = [bool(b) for b in ok]
    plain = [out[offsets[i] - base - i * tag: offsets[i + 1] - base - (i + 1) * tag] if flags[i] else None
             for i in range(n)]
    return plain, flags


def hash(name: str, messages: Any, *, length: Optional[int] = None,
         threads: Optional[int] = None, backend: Optional[str] = None):
    """Hashes every message: a list of digests, or an N x length array for array input.

    ``length``: output bytes per message for an XOF (default 32); hashes give their digest size.
    """
    info = next((i for i in _lwc.registry() if i["name"] == name), None)
    if info is None or info["kind"] not in ("hash", "xof"):
        raise ValueError(f"unknown hash or XOF {name!r}")
    if info["kind"] == "hash":
        if length not in (None, info["output_size"]):
            raise ValueError(f"{name}: the digest is {info['output_size']} bytes, got length={length!r}")
        length = info["output_size"]
    elif length is None:
        length = info["output_size"]
    elif not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    packed, offsets, n, common = _pack(messages, "messages")
    out = _lwc._batch_hash(name, packed, offsets, length, threads, backend)
    if common is not None:
        import numpy as np
        return np.frombuffer(out, dtype=np.uint8).reshape(n, length).copy()
    return [out[i * length:(i + 1) * length] for i in range(n)]
