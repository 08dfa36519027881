# SPDX-License-Identifier: MIT OR Apache-2.0
"""Many independent messages at once: lwc's CPU batch engine (SIMD lanes and threads), or its
CUDA engine with ``device="cuda"``.

Every job has its own key, nonce, associated data and length; results are byte for byte
those of the single-message classes. Inputs are lists (or tuples) of bytes-like objects, or
numpy arrays: keys and nonces as N x size uint8 arrays, equal-length messages as an N x L
uint8 array (then the result is an array too). Lists are read in place by the extension, with
no joining or copying in Python, and each result is a bytes object of its own. A list batch
runs a few thousand jobs at a time with the GIL released, so other threads run meanwhile: the
call uses the items the lists held when it was called and reads no item appended since, and a
list that gets shorter meanwhile raises RuntimeError.

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

``detached=True`` (encrypt) returns ciphertexts and tags apart, and ``tags=`` (decrypt) takes
them apart; ciphertexts then hold no tag.

>>> cts, tags = lwc.batch.encrypt("ascon-aead128", keys, nonces, [b"hello", b"world!"], detached=True)
>>> cts[0] + tags[0] == sealed[0]
True
>>> lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, tags=tags)
([b'hello', b'world!'], [True, True])

On the GPU: ``device="cuda"`` runs the jobs on lwc's CUDA engine, for the algorithms of
``cuda_algorithms()``, with the same results. Host inputs (lists, numpy arrays) are staged
through pinned buffers and the call returns host results, as with ``device="cpu"``. CUDA
arrays (CuPy arrays, PyTorch CUDA tensors, or anything exposing ``__cuda_array_interface__``
or DLPack on a CUDA device; N x L uint8 arrays, all on one device) are processed where they
are: the results are arrays of the messages' library on the same device (ok flags too), the
work is queued on that library's current stream, and the call returns without waiting, like
the library's own operations (reading ``ok``, e.g. with ``.cpu()`` or ``.get()``, waits).
Joining ciphertexts and tags (encrypt) or splitting sealed rows (decrypt) costs one copy on
the device, which ``detached=True`` and ``tags=`` avoid. Without a usable GPU, or where the CUDA
engine (the optional module ``lwc._lwc_cuda``, not part of a plain install) is missing,
``device="cuda"`` raises RuntimeError saying which and how to get it; ``cuda_available()``
tells beforehand. Host and CUDA inputs cannot be mixed in one call
(TypeError), and CUDA arrays need ``device="cuda"``.
"""

from __future__ import annotations

import sys as _sys
from itertools import accumulate

from . import _lwc

# Loaded when first needed, not by `import lwc`: typing (annotations are strings, read by type
# checkers, which take TYPE_CHECKING as true), the array module (the offsets of messages given
# as an iterable) and lwc._cuda_arrays (CUDA inputs and the optional CUDA module).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, Optional, Tuple

_cuda_arrays_module = None


def _cuda():
    """lwc._cuda_arrays, imported on first use."""
    global _cuda_arrays_module
    if _cuda_arrays_module is None:
        from . import _cuda_arrays
        _cuda_arrays_module = _cuda_arrays
    return _cuda_arrays_module


__all__ = ["encrypt", "decrypt", "hash", "algorithms", "backends", "default_backend", "lanes",
           "has_lanes", "cuda_available", "cuda_devices", "cuda_algorithms"]


def algorithms() -> list:
    """Names of the algorithms the batch engine runs."""
    return _lwc._batch_algorithms()


def backends() -> list:
    """Backends this CPU can run, fastest first (e.g. ['avx512', 'avx2', 'portable'], or ['neon', 'portable'] on AArch64)."""
    return _lwc._batch_backends()


def default_backend() -> str:
    """The backend used when none is given (the fastest, or the one named by LWC_BACKEND)."""
    return _lwc._batch_default_backend()


def lanes(backend: str) -> int:
    """Messages processed side by side per thread by a backend."""
    return _lwc._batch_lanes(backend)


def has_lanes(algorithm: str, backend: str) -> bool:
    """True when ``backend`` runs ``algorithm`` in SIMD lanes, False when it runs it job by job
    (one message after the other per thread, with the single-message code; same results, only
    slower). ``backend`` is one of ``backends()`` ("portable", "avx2", "avx512", "neon"). Raises
    ValueError for an algorithm the engine does not know, or a backend this build and CPU do
    not run.

    >>> has_lanes("ascon-aead128", "portable")
    True
    """
    return _lwc._batch_has_lanes(algorithm, backend)


def cuda_available() -> bool:
    """True when lwc's CUDA engine is installed and the CUDA runtime finds a usable GPU."""
    engine = _cuda().engine()
    return engine is not None and not engine._cuda_unavailable_reason()


def cuda_devices() -> list:
    """The usable GPUs, e.g. ['NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)']; [] when there is none."""
    engine = _cuda().engine()
    return engine._cuda_devices() if engine is not None else []


def cuda_algorithms() -> list:
    """Names of the algorithms device="cuda" runs; [] when the CUDA engine is not installed."""
    engine = _cuda().engine()
    return engine._cuda_algorithms() if engine is not None else []


def _on_gpu(device: str, **inputs: Any) -> bool:
    """Checks `device` and where the inputs are; True when they are CUDA arrays."""
    if not isinstance(device, str) or device not in ("cpu", "cuda"):
        raise ValueError(f"device must be 'cpu' or 'cuda', got {device!r}")
    given = {what: x for what, x in inputs.items() if x is not None}
    for what, x in given.items():
        if isinstance(x, (list, tuple)) and x and _cuda().is_cuda_array(x[0]):
            raise TypeError(f"{what}: a list of CUDA arrays; pass one N x L array on the device instead")
    on_gpu = [what for what, x in given.items() if _cuda().is_cuda_array(x)]
    if on_gpu and len(on_gpu) != len(given):
        in_host = [what for what in given if what not in on_gpu]
        raise TypeError(f"mixed host and device inputs: {', '.join(on_gpu)} on a CUDA device, "
                        f"{', '.join(in_host)} in host memory; put them all on the same side")
    if on_gpu and device != "cuda":
        raise TypeError(f"{', '.join(on_gpu)}: CUDA arrays need device='cuda' (or copy them to the host)")
    return bool(on_gpu)


def _require_cuda(name: str, threads: Optional[int], backend: Optional[str]) -> None:
    if threads is not None or backend is not None:
        raise ValueError("threads= and backend= choose how the CPU engine runs; leave them out with device='cuda'")
    engine = _cuda().engine()
    if engine is None:
        raise RuntimeError("device='cuda': " + _cuda().NOT_INSTALLED)
    if name not in _cuda().engine_algorithms():
        raise ValueError(f"the CUDA engine does not run {name!r} (see lwc.batch.cuda_algorithms())")
    reason = engine._cuda_unavailable_reason()
    if reason:
        if "cudaErrorInsufficientDriver" in reason:  # also what the runtime says without any driver
            reason += "; either no NVIDIA driver is installed or it is older than the CUDA runtime lwc was built with"
        raise RuntimeError(f"device='cuda': {reason}")


def _is_array(x: Any) -> bool:
    return hasattr(x, "__array_interface__") and hasattr(x, "ndim")


def _check_bytes_like(item: Any, what: str, i: int) -> None:
    if isinstance(item, str):
        raise TypeError(f"{what}[{i}] must be a bytes-like object, not 'str' (encode text first)")
    if item is None:
        raise TypeError(f"{what}[{i}] must be a bytes-like object, not None")


def _check_contiguous(items: Any, what: str) -> None:
    """Arrays are read in place: a strided or broadcast one (which may claim any shape without
    the memory behind it) is refused before its shape is used to size anything."""
    try:
        contiguous = memoryview(items).c_contiguous
    except (TypeError, ValueError, BufferError):
        contiguous = False
    if not contiguous:
        raise TypeError(f"{what}: the array is not C-contiguous (numpy.ascontiguousarray copies it)")


def _rows(items: Any, what: str) -> Tuple[Any, int]:
    """A column of messages for the extension, and its length: an N x L array as it is (its
    rows are read in place), other iterables joined, with their int64 offsets."""
    if isinstance(items, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"{what} must be a list of messages (or a 2-D array), not one message")
    if _is_array(items):
        if items.ndim != 2 or items.dtype.itemsize != 1:
            raise ValueError(f"{what}: expected an N x L uint8 array, got shape {items.shape} of {items.dtype}")
        _check_contiguous(items, what)
        return items, items.shape[0]
    items = list(items)
    for i, item in enumerate(items):
        _check_bytes_like(item, what, i)
    sizes = [memoryview(item).nbytes for item in items]
    from array import array

    return (b"".join(items), array("q", accumulate(sizes, initial=0))), len(items)


def _pack_fixed(items: Any, n: int, size: int, what: str, in_place: bool = True) -> Any:
    """n items of exactly `size` bytes each, back to back (an array as it is: read in place
    unless in_place is False, when the caller copies it)."""
    if _is_array(items):
        if items.ndim != 2 or items.shape != (n, size) or items.dtype.itemsize != 1:
            raise ValueError(f"{what}: expected an {n} x {size} uint8 array, got shape {items.shape}")
        if in_place:
            _check_contiguous(items, what)
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


# Each entry knows its registry index: the extension takes the index, so that a batch call
# looks its algorithm's name up once, here.
from . import _REGISTRY  # noqa: E402  (lwc/__init__.py defines it before importing this module)

_INFOS = {info.name: dict(info._asdict(), index=i) for i, info in enumerate(_REGISTRY)}


def _aead_info(name: str) -> dict:
    info = _INFOS.get(name) if isinstance(name, str) else None
    if info is None or info["kind"] != "aead":
        raise ValueError(f"unknown AEAD algorithm {name!r}")
    return info


def _listed(items: Any, what: str) -> Any:
    """Per-job byte strings for the extension's list path: a list or tuple as it is, the rows
    of a 2-D array, any other iterable as a list."""
    if isinstance(items, (bytes, bytearray, memoryview, str)):
        raise TypeError(f"{what} must be a list of messages (or a 2-D array), not one message")
    if isinstance(items, (list, tuple)):
        return items
    if _is_array(items) and (items.ndim != 2 or items.dtype.itemsize != 1):
        raise ValueError(f"{what}: expected an N x L uint8 array, got shape {items.shape} of {items.dtype}")
    return list(items)


def _listed_fixed(items: Any, n: int, size: int, what: str) -> Any:
    """n entries of `size` bytes for the list path: an n x size array (checked here, read as one
    buffer) or a list, whose entries the extension checks."""
    if _is_array(items):
        return _pack_fixed(items, n, size, what)
    return items if isinstance(items, (list, tuple)) else list(items)


def _second_keys_listed(info: dict, second_keys: Any, n: int) -> Any:
    if second_keys is None:
        return None
    if not info["second_key_size"]:
        raise ValueError(f"{info['name']}: nonce masking (second keys) is not supported")
    return _listed_fixed(second_keys, n, info["second_key_size"], "second_keys")


def _tag_length(info: dict, tag_length: Optional[int]) -> int:
    if tag_length is None:
        return info["tag_size"]
    lo, hi = info["min_tag_size"], info["tag_size"]
    if not isinstance(tag_length, int) or not lo <= tag_length <= hi:
        allowed = f"{hi}" if lo == hi else f"{lo} to {hi}"
        raise ValueError(f"{info['name']}: tag_length must be {allowed} bytes, got {tag_length!r}")
    return tag_length


def _aead_setup(name: str, tag_length: Optional[int], device: str, threads: Optional[int],
                backend: Optional[str]) -> Tuple[dict, int]:
    info = _aead_info(name)
    tag = _tag_length(info, tag_length)
    if device == "cuda":
        _require_cuda(name, threads, backend)
    return info, tag


def _host_aead(decrypting: bool, info: dict, tag: int, keys: Any, nonces: Any, data: Any,
               associated_data: Any, second_keys: Any, tags: Any, detached: bool,
               threads: Optional[int], backend: Optional[str], device: str):
    """One call of the engine on the packed job form: every column read in place, the results
    (tags appended or detached) written in place."""
    rows, n = _rows(data, "ciphertexts" if decrypting else "messages")
    ad_rows = None
    if associated_data is not None:
        ad_rows, n_ad = _rows(associated_data, "associated_data")
        if n_ad != n:
            raise ValueError(f"associated_data: expected {n} entries (one per message), got {n_ad}")
    second = None
    if second_keys is not None:
        if not info["second_key_size"]:
            raise ValueError(f"{info['name']}: nonce masking (second keys) is not supported")
        second = _pack_fixed(second_keys, n, info["second_key_size"], "second_keys")
    return _lwc._batch_aead(
        decrypting, info["index"], _pack_fixed(keys, n, info["key_size"], "keys"),
        _pack_fixed(nonces, n, info["nonce_size"], "nonces"), rows, ad_rows, second,
        None if tags is None else _pack_fixed(tags, n, tag, "tags"), tag, detached, threads,
        backend, device == "cuda")


def encrypt(name: str, keys: Any, nonces: Any, messages: Any, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None,
            device: Literal["cpu", "cuda"] = "cpu", detached: bool = False):
    """Encrypts every message under its own key and nonce; returns ciphertext || tag per job.

    List input gives a list of bytes; an N x L array of messages gives an N x (L + tag) array.
    ``threads``: None = all cores, 1 = the calling thread only. ``backend``: None = the best,
    or one of ``backends()``. ``second_keys``: per-job nonce-masking keys (ascon-aead128).
    ``detached=True``: returns ``(ciphertexts, tags)`` instead (lists, or N x L and N x tag
    arrays). ``device="cuda"``: on the GPU (see the module documentation); CUDA arrays in give
    CUDA arrays out.
    """
    on_gpu = _on_gpu(device, keys=keys, nonces=nonces, messages=messages,
                     associated_data=associated_data, second_keys=second_keys)
    info, tag = _aead_setup(name, tag_length, device, threads, backend)
    if on_gpu:
        return _cuda().encrypt(name, info, tag, keys, nonces, messages, associated_data,
                                    second_keys, detached)
    if device == "cpu" and not _is_array(messages):
        # Lists: the extension reads every item in place and returns fresh bytes objects.
        messages = _listed(messages, "messages")
        n = len(messages)
        return _lwc._batch_aead_lists(
            False, info["index"], _listed_fixed(keys, n, info["key_size"], "keys"),
            _listed_fixed(nonces, n, info["nonce_size"], "nonces"), messages,
            None if associated_data is None else _listed(associated_data, "associated_data"),
            _second_keys_listed(info, second_keys, n), None, tag, detached, threads, backend)
    return _host_aead(False, info, tag, keys, nonces, messages, associated_data, second_keys,
                      None, detached, threads, backend, device)


def decrypt(name: str, keys: Any, nonces: Any, ciphertexts: Any, associated_data: Any = None, *,
            tag_length: Optional[int] = None, second_keys: Any = None,
            threads: Optional[int] = None, backend: Optional[str] = None,
            device: Literal["cpu", "cuda"] = "cpu", tags: Any = None):
    """Verifies and decrypts every job (each ciphertext ends with its tag).

    Returns ``(plaintexts, ok)``. List input: plaintexts is a list with None where the tag did
    not verify, ok a list of bools. Array input (N x L): plaintexts is an N x (L - tag) array
    whose failed rows are zero, ok a numpy bool array. ``tags``: the tags apart (as from
    ``encrypt(..., detached=True)``); the ciphertexts then hold none. ``device="cuda"``: on
    the GPU (see the module documentation); CUDA arrays in give CUDA arrays out.
    """
    on_gpu = _on_gpu(device, keys=keys, nonces=nonces, ciphertexts=ciphertexts, tags=tags,
                     associated_data=associated_data, second_keys=second_keys)
    info, tag = _aead_setup(name, tag_length, device, threads, backend)
    if on_gpu:
        return _cuda().decrypt(name, info, tag, keys, nonces, ciphertexts, tags,
                                    associated_data, second_keys)
    if device == "cpu" and not _is_array(ciphertexts):
        ciphertexts = _listed(ciphertexts, "ciphertexts")
        n = len(ciphertexts)
        return _lwc._batch_aead_lists(
            True, info["index"], _listed_fixed(keys, n, info["key_size"], "keys"),
            _listed_fixed(nonces, n, info["nonce_size"], "nonces"), ciphertexts,
            None if associated_data is None else _listed(associated_data, "associated_data"),
            _second_keys_listed(info, second_keys, n),
            None if tags is None else _listed_fixed(tags, n, tag, "tags"), tag, False, threads, backend)
    return _host_aead(True, info, tag, keys, nonces, ciphertexts, associated_data, second_keys,
                      tags, False, threads, backend, device)


def hash(name: str, messages: Any, *, length: Optional[int] = None, keys: Any = None,
         customization: Any = None, threads: Optional[int] = None, backend: Optional[str] = None,
         device: Literal["cpu", "cuda"] = "cpu"):
    """Hashes every message: a list of digests, or an N x length array for array input.

    Every hash, XOF, CXOF, MAC and PRF of the registry. ``length``: output bytes per message for
    an XOF or PRF (default: the algorithm's default output size); hashes and MACs give their
    fixed size. ``keys``: MACs and PRFs, one key per message (a list, or an N x key-size array).
    ``customization``: CXOFs, one customization string per message (a list; default none).
    ``device="cuda"``: on the GPU (see the module documentation); CUDA arrays in give CUDA
    arrays out (unkeyed algorithms without customization only).
    """
    on_gpu = _on_gpu(device, messages=messages)
    info = _INFOS.get(name) if isinstance(name, str) else None
    if info is None or info["kind"] == "aead":
        raise ValueError(f"unknown hash, XOF, MAC or PRF {name!r}")
    keyed = info["kind"] in ("mac", "prf")
    if keyed and keys is None:
        raise ValueError(f"{name}: keys are required, one {info['key_size']}-byte key per message")
    if not keyed and keys is not None:
        raise ValueError(f"{name} takes no key")
    if customization is not None and info["kind"] != "cxof":
        raise ValueError(f"{name} takes no customization string")
    if info["max_output_size"] is not None:
        if length not in (None, info["output_size"]):
            raise ValueError(f"{name}: the output is {info['output_size']} bytes, got length={length!r}")
        length = info["output_size"]
    elif length is None:
        length = info["output_size"]
    elif isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a non-negative int, got {length!r}")
    elif length > _sys.maxsize:
        raise OverflowError(f"length={length} is larger than any buffer can be")
    if device == "cuda":
        _require_cuda(name, threads, backend)
    if on_gpu:
        if keys is not None or customization is not None:
            raise ValueError(f"{name}: keys and customization strings need host inputs, not CUDA arrays")
        return _cuda().hash(name, length, messages)
    if device == "cpu" and not _is_array(messages):
        messages = _listed(messages, "messages")
        n = len(messages)
        return _lwc._batch_hash_lists(
            info["index"], messages, length, _listed_fixed(keys, n, info["key_size"], "keys") if keyed else None,
            None if customization is None else _listed(customization, "customization"),
            threads, backend)
    rows, n = _rows(messages, "messages")
    custom = None
    if customization is not None:
        custom, m = _rows(customization, "customization")
        if m != n:
            raise ValueError(f"customization: expected {n} entries (one per message), got {m}")
    key_buf = _pack_fixed(keys, n, info["key_size"], "keys") if keyed else None
    out = _lwc._batch_hash(info["index"], rows, length, key_buf, custom, threads, backend,
                           device == "cuda")
    if _is_array(messages):
        return out
    return [out[i * length:(i + 1) * length] for i in range(n)]
