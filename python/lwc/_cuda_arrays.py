# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.batch on CUDA arrays: the jobs run where the arrays are, nothing goes through the host.

Outputs are allocated on the messages' device by the messages' array library (PyTorch for
torch tensors, CuPy for everything else), and the work is queued on that library's current
stream on that device, without waiting, like the library's own operations. Other inputs are
taken as arrays of the same library without copying (DLPack or ``__cuda_array_interface__``).
Inputs that are not C-contiguous are made contiguous first (one copy on the device).

Every array is one fixed-stride column of lwc's packed job form, handed to the CUDA engine's
module (lwc._lwc_cuda) as (device address, bytes, row length): sealed rows are the form's
appended tags, written and read by the kernels in place, so no offsets are built and no tag is
split off or joined on. lwc::cuda checks the columns against each other and only queues the
kernel.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

NOT_INSTALLED = ("this installation of lwc has no CUDA engine (the optional module lwc._lwc_cuda); "
                 "install lwc with it: LWC_PYTHON_CUDA=ON pip install . (needs the CUDA toolkit's "
                 "nvcc; see docs/start/python.md)")

# lwc._lwc_cuda once imported, or False once known to be absent; None before the first look.
# Racing first looks find the same answer.
_engine_module: Any = None


def engine() -> Any:
    """The CUDA engine's module lwc._lwc_cuda, imported on first use; None where this
    installation has none. A module that is present but fails to load raises."""
    global _engine_module
    if _engine_module is None:
        from importlib import import_module

        name = __package__ + "._lwc_cuda"
        try:
            _engine_module = import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
            _engine_module = False
    return _engine_module or None


_engine_algorithms: Optional[frozenset] = None


def engine_algorithms() -> frozenset:
    """The names the CUDA engine runs, asked of it once (its list is fixed when it is built);
    empty where this installation has no engine."""
    global _engine_algorithms
    if _engine_algorithms is None:
        module = engine()
        _engine_algorithms = frozenset(module._cuda_algorithms() if module is not None else ())
    return _engine_algorithms

# DLPack device types of memory a CUDA kernel can read: kDLCUDA, kDLCUDAManaged.
_DLPACK_CUDA = (2, 13)


def is_cuda_array(x: Any) -> bool:
    """True for an array in CUDA device memory (CuPy, a torch CUDA tensor, Numba, JAX, ...)."""
    if x is None or isinstance(x, (bytes, bytearray, memoryview, str, list, tuple)):
        return False
    # DLPack first: torch's __cuda_array_interface__ raises for CPU tensors and for tensors
    # that require grad.
    dlpack_device = getattr(x, "__dlpack_device__", None)
    if dlpack_device is not None:
        return dlpack_device()[0] in _DLPACK_CUDA
    return hasattr(x, "__cuda_array_interface__")


class _Torch:
    """PyTorch tensors."""

    def __init__(self) -> None:
        import torch

        self.torch = torch

    def adopt(self, x: Any) -> Any:
        t = self.torch
        if isinstance(x, t.Tensor):
            return x
        return t.from_dlpack(x) if hasattr(x, "__dlpack__") else t.as_tensor(x)

    def device_of(self, x: Any) -> int:
        return x.device.index

    def on_device(self, device: int) -> Any:
        return self.torch.cuda.device(device)

    def stream(self, device: int) -> int:
        return self.torch.cuda.current_stream(device).cuda_stream

    def empty(self, shape: Tuple[int, ...], device: int) -> Any:
        return self.torch.empty(shape, dtype=self.torch.uint8, device=f"cuda:{device}")

    def itemsize(self, x: Any) -> int:
        return x.element_size()

    def contiguous(self, x: Any) -> Any:
        return x.contiguous()

    def address(self, x: Any) -> int:
        return x.data_ptr()

    def nbytes(self, x: Any) -> int:
        return x.numel() * x.element_size()

    def flags(self, ok: Any) -> Any:
        return ok.bool()


class _CuPy:
    """CuPy arrays, and through them any other CUDA array."""

    def __init__(self) -> None:
        import cupy

        self.cupy = cupy

    def adopt(self, x: Any) -> Any:
        cp = self.cupy
        if isinstance(x, cp.ndarray):
            return x
        return cp.asarray(x) if hasattr(x, "__cuda_array_interface__") else cp.from_dlpack(x)

    def device_of(self, x: Any) -> int:
        return x.device.id

    def on_device(self, device: int) -> Any:
        return self.cupy.cuda.Device(device)

    def stream(self, device: int) -> int:
        return self.cupy.cuda.get_current_stream().ptr  # called under on_device(device)

    def empty(self, shape: Tuple[int, ...], device: int) -> Any:
        return self.cupy.empty(shape, dtype=self.cupy.uint8)  # called under on_device(device)

    def itemsize(self, x: Any) -> int:
        return x.itemsize

    def contiguous(self, x: Any) -> Any:
        return self.cupy.ascontiguousarray(x)

    def address(self, x: Any) -> int:
        return x.data.ptr

    def nbytes(self, x: Any) -> int:
        return x.nbytes

    def flags(self, ok: Any) -> Any:
        return ok.astype(bool)


def _library_of(messages: Any) -> Any:
    if type(messages).__module__.split(".")[0] == "torch":
        return _Torch()
    try:
        return _CuPy()
    except ImportError:
        raise TypeError(
            f"messages: CUDA arrays of type {type(messages).__name__!r} are handled through CuPy, "
            "which is not installed (PyTorch tensors need no CuPy)"
        ) from None


class _Batch:
    """One call's array library, device and stream, and the arrays it hands to the extension.

    The messages' device is made current (lib.on_device) before any array is made or copied.
    Every array whose address goes to the extension is kept here until the work is queued:
    a temporary freed earlier could be handed out again by the library before the kernel has
    read it. Once queued, the libraries' stream-ordered allocators keep the memory safe.
    """

    def __init__(self, messages: Any) -> None:
        self.lib = _library_of(messages)
        self.device = self.lib.device_of(self.lib.adopt(messages))
        self.keep: list = []

    def use_rows(self, rows: Any, what: str) -> None:
        """The messages (or ciphertexts): one job per row."""
        self.rows = self.array(rows, what)
        self.n, self.length = (int(d) for d in self.rows.shape)

    def array(self, x: Any, what: str, rows: Optional[int] = None, width: Optional[int] = None) -> Any:
        """x as a C-contiguous 2-D array of 1-byte items on the messages' device."""
        a = self.lib.adopt(x)
        if a.ndim != 2 or self.lib.itemsize(a) != 1:
            raise ValueError(f"{what}: expected an N x L uint8 array, got shape {tuple(a.shape)} of {a.dtype}")
        if rows is not None and int(a.shape[0]) != rows:
            raise ValueError(f"{what}: expected {rows} rows (one per message), got {a.shape[0]}")
        if width is not None and int(a.shape[1]) != width:
            raise ValueError(f"{what}: expected an {rows} x {width} uint8 array, got shape {tuple(a.shape)}")
        if self.lib.device_of(a) != self.device:
            raise ValueError(f"{what} is on CUDA device {self.lib.device_of(a)}, the messages on device {self.device}")
        a = self.lib.contiguous(a)
        self.keep.append(a)
        return a

    def empty(self, *shape: int) -> Any:
        a = self.lib.empty(shape, self.device)
        self.keep.append(a)
        return a

    def column(self, a: Any) -> Tuple[int, int, int]:
        """An N x L array from array() or empty() as a fixed-stride column of the packed job
        form: (address, bytes, L); (0, 0, 0) for None."""
        if a is None:
            return (0, 0, 0)
        return (self.lib.address(a), self.lib.nbytes(a), int(a.shape[1]))

    def stream(self) -> int:
        return self.lib.stream(self.device)


def _aead_inputs(b: _Batch, info: dict, keys: Any, nonces: Any, associated_data: Any,
                 second_keys: Any) -> dict:
    """The columns of the keys, nonces, associated data and second keys."""
    keys = b.array(keys, "keys", b.n, info["key_size"])
    nonces = b.array(nonces, "nonces", b.n, info["nonce_size"])
    ad = None
    if associated_data is not None:
        ad = b.array(associated_data, "associated_data", b.n)
    second = None
    if second_keys is not None:
        if not info["second_key_size"]:
            raise ValueError(f"{info['name']}: nonce masking (second keys) is not supported")
        second = b.array(second_keys, "second_keys", b.n, info["second_key_size"])
    return dict(keys=b.column(keys), nonces=b.column(nonces), ad=b.column(ad), second_keys=b.column(second))


def encrypt(name: str, info: dict, tag_len: int, keys: Any, nonces: Any, messages: Any,
            associated_data: Any, second_keys: Any, detached: bool) -> Any:
    b = _Batch(messages)
    with b.lib.on_device(b.device):
        b.use_rows(messages, "messages")
        inputs = _aead_inputs(b, info, keys, nonces, associated_data, second_keys)
        # Sealed rows: the engine writes each tag right after its ciphertext (appended tags).
        if detached:
            ciphertexts, tags = b.empty(b.n, b.length), b.empty(b.n, tag_len)
        else:
            ciphertexts, tags = b.empty(b.n, b.length + tag_len), None
        if b.n:
            engine()._cuda_aead_async(False, name, b.n, **inputs, data=b.column(b.rows), out=b.column(ciphertexts),
                                      tags=b.column(tags), ok=0, tag_len=tag_len, appended=not detached,
                                      stream=b.stream())
        return (ciphertexts, tags) if detached else ciphertexts


def decrypt(name: str, info: dict, tag_len: int, keys: Any, nonces: Any, ciphertexts: Any,
            tags: Any, associated_data: Any, second_keys: Any) -> Tuple[Any, Any]:
    b = _Batch(ciphertexts)
    with b.lib.on_device(b.device):
        b.use_rows(ciphertexts, "ciphertexts")
        appended = tags is None
        if appended:  # sealed rows: the engine reads each tag from the end of its row
            if b.length < tag_len:
                raise ValueError(f"ciphertexts: rows of {b.length} bytes are shorter than the {tag_len}-byte tag")
            length = b.length - tag_len
        else:
            tags = b.array(tags, "tags", b.n, tag_len)
            length = b.length
        inputs = _aead_inputs(b, info, keys, nonces, associated_data, second_keys)
        plaintexts, ok = b.empty(b.n, length), b.empty(b.n)
        if b.n:
            engine()._cuda_aead_async(True, name, b.n, **inputs, data=b.column(b.rows), out=b.column(plaintexts),
                                      tags=b.column(tags), ok=b.lib.address(ok), tag_len=tag_len,
                                      appended=appended, stream=b.stream())
        return plaintexts, b.lib.flags(ok)


def hash(name: str, out_len: int, messages: Any) -> Any:
    b = _Batch(messages)
    with b.lib.on_device(b.device):
        b.use_rows(messages, "messages")
        out = b.empty(b.n, out_len)
        if b.n:
            engine()._cuda_hash_async(name, b.n, data=b.column(b.rows), out=b.column(out), stream=b.stream())
        return out
