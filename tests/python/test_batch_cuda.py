# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.batch with device="cuda", and the detached form of the tags.

Without a GPU: the device argument, the RuntimeError of an installation without the CUDA module
(lwc._lwc_cuda) or of a machine without a usable GPU, mixed host and device inputs, the extension's glue against
lwc::cuda's own argument checks (CUDA builds), and the whole CUDA-array path of
lwc._cuda_arrays run on host memory posing as device memory, with an engine that computes on
the CPU. With a GPU (and CuPy or PyTorch for CUDA arrays): results equal device="cpu" byte for
byte. Those tests skip with the reason when what they need is missing.
"""

import contextlib
import ctypes
import random

import numpy as np
import pytest

import lwc
from lwc import _cuda_arrays, _lwc

# lwc._lwc_cuda, the optional CUDA module; None where this installation has none.
CUDA_MODULE = _cuda_arrays.engine()
REGISTRY = {a.name: a for a in lwc.algorithms()}
BATCH_AEADS = [n for n in lwc.batch.algorithms() if REGISTRY[n].kind == "aead"]
BATCH_HASHES = [n for n in lwc.batch.algorithms() if REGISTRY[n].kind != "aead"]
CUDA_BUILT = bool(lwc.batch.cuda_algorithms())
# The GPU tests run the CUDA engine's algorithms; in a build without it they are listed under
# the CPU engine's names and skip.
GPU_AEADS = [n for n in lwc.batch.cuda_algorithms() if REGISTRY[n].kind == "aead"] or BATCH_AEADS
GPU_HASHES = [n for n in lwc.batch.cuda_algorithms() if REGISTRY[n].kind != "aead"] or BATCH_HASHES


def unkeyed(names):
    """The hashes, XOFs and CXOFs among `names`: CUDA arrays carry no keys (MACs, PRFs)."""
    return [n for n in names if REGISTRY[n].kind in ("hash", "xof", "cxof")]


def out_length(name, xof_length):
    a = REGISTRY[name]
    return a.output_size if a.max_output_size else xof_length


def hash_jobs(rng, name, n, max_len):
    """Messages (within the algorithm's input limit), keys (MACs and PRFs) and customization
    strings (CXOFs) for n jobs of `name`."""
    a = REGISTRY[name]
    limit = min(max_len, a.max_input_size) if a.max_input_size is not None else max_len
    msgs = [rng.randbytes(rng.randrange(limit + 1)) for _ in range(n - 1)] + [b""]
    keys = [rng.randbytes(a.key_size) for _ in msgs] if a.kind in ("mac", "prf") else None
    custom = [rng.randbytes(rng.randrange(30)) for _ in msgs] if a.kind == "cxof" else None
    return msgs, keys, custom


def no_gpu_reason():
    if not CUDA_BUILT:
        return "this installation of lwc has no CUDA engine"
    if not lwc.batch.cuda_available():
        return "no usable GPU: " + CUDA_MODULE._cuda_unavailable_reason()
    return None


needs_gpu = pytest.mark.skipif(no_gpu_reason() is not None, reason=str(no_gpu_reason()))
without_gpu = pytest.mark.skipif(lwc.batch.cuda_available(), reason="a GPU is present")


def random_jobs(rng, name, n, max_len=300):
    a = REGISTRY[name]
    keys = [rng.randbytes(a.key_size) for _ in range(n)]
    nonces = [rng.randbytes(a.nonce_size) for _ in range(n)]
    msgs = [rng.randbytes(rng.choice([0, 1, 7, 8, 15, 16, 17, 31, 33, rng.randrange(max_len)])) for _ in range(n)]
    ads = [rng.randbytes(rng.randrange(40)) for _ in range(n)]
    return keys, nonces, msgs, ads


def random_rows(seed, name, n, length, ad_length=0):
    a = REGISTRY[name]
    rng = np.random.default_rng(seed)
    rows = lambda width: rng.integers(0, 256, (n, width), dtype=np.uint8)  # noqa: E731
    return rows(a.key_size), rows(a.nonce_size), rows(length), rows(ad_length) if ad_length else None


# ---- the device argument and the missing GPU ---------------------------------------------------


@pytest.mark.parametrize("device", ["bogus", "CUDA", "gpu", "cuda:0", "", None, 0])
def test_device_must_be_cpu_or_cuda(device):
    k, v = [bytes(16)], [bytes(16)]
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda'"):
        lwc.batch.encrypt("ascon-aead128", k, v, [b"x"], device=device)
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda'"):
        lwc.batch.decrypt("ascon-aead128", k, v, [bytes(17)], device=device)
    with pytest.raises(ValueError, match="device must be 'cpu' or 'cuda'"):
        lwc.batch.hash("ascon-hash256", [b"x"], device=device)


def test_device_cpu_is_the_default():
    rng = random.Random(1)
    keys, nonces, msgs, ads = random_jobs(rng, "ascon-aead128", 9)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads)
    assert lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, device="cpu") == sealed
    assert lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, ads, device="cpu") == (msgs, [True] * 9)
    assert lwc.batch.hash("ascon-hash256", msgs, device="cpu") == lwc.batch.hash("ascon-hash256", msgs)


def test_cuda_queries_agree():
    assert isinstance(lwc.batch.cuda_available(), bool)
    assert lwc.batch.cuda_available() == bool(lwc.batch.cuda_devices())
    assert set(lwc.batch.cuda_algorithms()) <= set(REGISTRY)
    if not CUDA_BUILT:
        assert not lwc.batch.cuda_available()


@without_gpu
def test_cuda_without_a_usable_gpu_is_a_clear_runtime_error():
    # Which of the two: a build without the CUDA engine, or no GPU/driver for the runtime.
    why = "no CUDA device is available" if CUDA_BUILT else "has no CUDA engine .*LWC_PYTHON_CUDA=ON"
    k, v = [bytes(16)], [bytes(16)]
    with pytest.raises(RuntimeError, match=why):
        lwc.batch.encrypt("ascon-aead128", k, v, [b"x"], device="cuda")
    with pytest.raises(RuntimeError, match=why):
        lwc.batch.decrypt("ascon-aead128", k, v, [bytes(17)], device="cuda")
    with pytest.raises(RuntimeError, match=why):
        lwc.batch.hash("ascon-hash256", [b"x"], device="cuda")
    with pytest.raises(RuntimeError, match=why):
        lwc.batch.hash("ascon-hash256", np.zeros((2, 3), np.uint8), device="cuda")
    with pytest.raises(RuntimeError, match=why):  # CUDA arrays in (a stand-in), same answer
        lwc.batch.hash("ascon-hash256", DeviceStandIn.of(np.zeros((2, 3), np.uint8)), device="cuda")


def test_cuda_refuses_the_cpu_engine_options():
    k, v = [bytes(16)], [bytes(16)]
    with pytest.raises(ValueError, match="threads= and backend="):
        lwc.batch.encrypt("ascon-aead128", k, v, [b"x"], device="cuda", threads=2)
    with pytest.raises(ValueError, match="threads= and backend="):
        lwc.batch.hash("ascon-hash256", [b"x"], device="cuda", backend="portable")


@pytest.mark.skipif(not CUDA_BUILT, reason="this installation of lwc has no CUDA engine")
def test_algorithms_the_cuda_engine_does_not_run_are_value_errors():
    missing = [n for n in lwc.batch.algorithms() if n not in lwc.batch.cuda_algorithms()]
    if not missing:
        pytest.skip("the CUDA engine runs every batch algorithm")
    a = REGISTRY[missing[0]]
    with pytest.raises(ValueError, match="the CUDA engine does not run"):
        if a.kind == "aead":
            lwc.batch.encrypt(a.name, [bytes(a.key_size)], [bytes(a.nonce_size)], [b"x"], device="cuda")
        else:
            lwc.batch.hash(a.name, [b"x"], device="cuda")


@pytest.mark.skipif(not CUDA_BUILT, reason="this installation of lwc has no CUDA engine")
@without_gpu
def test_extension_glue_passes_the_engines_argument_checks():
    # lwc::cuda checks every size before it looks for a GPU: arguments it accepts end in the
    # missing-device RuntimeError, wrong ones in ValueError.
    from array import array

    index = {a.name: i for i, a in enumerate(lwc.algorithms())}
    aead, hash256 = index["ascon-aead128"], index["ascon-hash256"]
    msgs = (bytes(5), array("q", [0, 3, 5]))
    no_device = pytest.raises(RuntimeError, match="no CUDA device")
    with no_device:
        _lwc._batch_aead(False, aead, bytes(32), bytes(32), msgs, (bytes(4), array("q", [0, 1, 4])),
                         bytes(32), None, None, False, None, None, True)
    with no_device:
        _lwc._batch_aead(True, aead, bytes(32), bytes(32), msgs, None, None, bytes(8), 4, False, None,
                         None, True)
    with pytest.raises(ValueError, match="tag column"):
        _lwc._batch_aead(True, aead, bytes(32), bytes(32), msgs, None, None, bytes(31), None, False, None,
                         None, True)
    with pytest.raises(ValueError, match="key column"):
        _lwc._batch_aead(False, aead, bytes(31), bytes(32), msgs, None, None, None, None, False, None,
                         None, True)
    with no_device:
        _lwc._batch_hash(hash256, msgs, 32, None, None, None, None, True)
    with pytest.raises(ValueError, match="output column"):
        _lwc._batch_hash(hash256, msgs, 31, None, None, None, None, True)
    # CUDA arrays: fixed-stride columns (address, bytes, row length) of the packed job form, at
    # addresses that are never read (the checks come first) and do not overlap.
    cols = dict(keys=(0x1000, 32, 16), nonces=(0x2000, 32, 16), ad=(0, 0, 0), second_keys=(0, 0, 0),
                data=(0x3000, 10, 5), out=(0x4000, 10, 5), tags=(0x5000, 32, 16), ok=0, tag_len=16,
                appended=False, stream=0)
    with no_device:
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 2, **cols)
    with no_device:
        CUDA_MODULE._cuda_aead_async(True, "ascon-aead128", 2, **{**cols, "ok": 0x6000})
    with no_device:  # sealed rows: the tags appended to the ciphertexts
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 2, **{**cols, "out": (0x4000, 42, 21), "tags": (0, 0, 0),
                                                                   "appended": True})
    with pytest.raises(ValueError, match="output column: stride must be 21 bytes, got 5"):
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 2, **{**cols, "tags": (0, 0, 0), "appended": True})
    with pytest.raises(ValueError, match="tag column: 2 elements of 16 bytes need 32 bytes, got 31"):
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 2, **{**cols, "tags": (0x5000, 31, 16)})
    with pytest.raises(ValueError, match=r"key column: stride must be 16 bytes \(the key size\), got 8"):
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 4, **{**cols, "keys": (0x1000, 32, 8)})
    with pytest.raises(ValueError, match="output column overlaps the key column"):
        CUDA_MODULE._cuda_aead_async(False, "ascon-aead128", 2, **{**cols, "out": (0x1000, 10, 5)})
    with pytest.raises(ValueError, match="unknown-algorithm"):
        CUDA_MODULE._cuda_aead_async(False, "unknown-algorithm", 2, **cols)
    with no_device:
        CUDA_MODULE._cuda_hash_async("ascon-xof128", 2, data=(0x3000, 10, 5), out=(0x4000, 14, 7), stream=0)
    with pytest.raises(ValueError, match="output column: 2 elements of 7 bytes need 14 bytes, got 13"):
        CUDA_MODULE._cuda_hash_async("ascon-xof128", 2, data=(0x3000, 10, 5), out=(0x4000, 13, 7), stream=0)
    with pytest.raises(ValueError, match=r"output column: stride must be 32 bytes \(the output size\), got 7"):
        CUDA_MODULE._cuda_hash_async("ascon-hash256", 2, data=(0x3000, 10, 5), out=(0x4000, 14, 7), stream=0)


# ---- detached tags (every device) ----------------------------------------------------------------


@pytest.mark.parametrize("name", BATCH_AEADS)
def test_detached_tags_lists(name):
    rng = random.Random(2)
    keys, nonces, msgs, ads = random_jobs(rng, name, 23)
    sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    cts, tags = lwc.batch.encrypt(name, keys, nonces, msgs, ads, detached=True)
    tag = REGISTRY[name].tag_size
    assert cts == [s[:len(s) - tag] for s in sealed] and tags == [s[len(s) - tag:] for s in sealed]
    assert lwc.batch.decrypt(name, keys, nonces, cts, ads, tags=tags) == (msgs, [True] * 23)
    tags[4] = bytes([tags[4][0] ^ 0x80]) + tags[4][1:]
    plain, ok = lwc.batch.decrypt(name, keys, nonces, cts, ads, tags=tags)
    assert ok == [i != 4 for i in range(23)] and plain[4] is None


def test_detached_tags_arrays():
    keys, nonces, msgs, _ = random_rows(3, "ascon-aead128", 40, 50)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, tag_length=12)
    cts, tags = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, tag_length=12, detached=True)
    assert cts.shape == (40, 50) and tags.shape == (40, 12)
    assert np.array_equal(np.concatenate((cts, tags), axis=1), sealed)
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, tag_length=12, tags=tags)
    assert ok.all() and np.array_equal(plain, msgs)
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, tag_length=12, tags=list(map(bytes, tags)))
    assert ok.all() and np.array_equal(plain, msgs)


def test_detached_tags_bad_input():
    k, v = [bytes(16)] * 2, [bytes(16)] * 2
    with pytest.raises(ValueError, match=r"tags\[1\] must be 16 bytes, got 15"):
        lwc.batch.decrypt("ascon-aead128", k, v, [b"a", b"b"], tags=[bytes(16), bytes(15)])
    with pytest.raises(ValueError, match="tags: expected 2 entries"):
        lwc.batch.decrypt("ascon-aead128", k, v, [b"a", b"b"], tags=[bytes(16)])
    with pytest.raises(TypeError, match="not one message"):
        lwc.batch.decrypt("ascon-aead128", k, v, b"ab", tags=[bytes(16)] * 2)


# ---- where the inputs are ------------------------------------------------------------------------


class DeviceStandIn(np.ndarray):
    """Host memory that presents itself as a CUDA array (DLPack device and
    __cuda_array_interface__)."""

    @classmethod
    def of(cls, a):
        return None if a is None else np.ascontiguousarray(a).view(cls)

    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA, device 0

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": "|u1", "data": (self.ctypes.data, False), "version": 3}


class DLPackOnCuda:
    def __dlpack_device__(self):
        return (2, 0)


class CudaArrayInterfaceOnly:
    __cuda_array_interface__ = {"shape": (1, 1), "typestr": "|u1", "data": (0, False), "version": 3}


class DLPackOnCpu(CudaArrayInterfaceOnly):
    def __dlpack_device__(self):
        return (1, 0)


def test_what_counts_as_a_cuda_array():
    assert _cuda_arrays.is_cuda_array(DeviceStandIn.of(np.zeros((2, 2), np.uint8)))
    assert _cuda_arrays.is_cuda_array(DLPackOnCuda())
    assert _cuda_arrays.is_cuda_array(CudaArrayInterfaceOnly())  # Numba device arrays
    assert not _cuda_arrays.is_cuda_array(DLPackOnCpu())  # DLPack says where the memory is
    for host in (np.zeros((2, 2), np.uint8), b"ab", bytearray(2), memoryview(b"ab"), [b"a"], None, "ab"):
        assert not _cuda_arrays.is_cuda_array(host)


def test_mixed_host_and_device_inputs_are_type_errors():
    keys, nonces, msgs, _ = random_rows(4, "ascon-aead128", 3, 5)
    dev = DeviceStandIn.of
    for device in ("cpu", "cuda"):
        with pytest.raises(TypeError, match="mixed host and device inputs: messages on a CUDA device, keys, nonces in host"):
            lwc.batch.encrypt("ascon-aead128", keys, nonces, dev(msgs), device=device)
        with pytest.raises(TypeError, match="keys on a CUDA device, nonces, messages in host memory"):
            lwc.batch.encrypt("ascon-aead128", dev(keys), nonces, msgs, device=device)
        with pytest.raises(TypeError, match="tags on a CUDA device, keys, nonces, ciphertexts in host"):
            lwc.batch.decrypt("ascon-aead128", keys, nonces, msgs, tags=dev(np.zeros((3, 16), np.uint8)), device=device)
        with pytest.raises(TypeError, match="associated_data on a CUDA device"):
            lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, dev(msgs), device=device)
        with pytest.raises(TypeError, match="a list of CUDA arrays"):
            lwc.batch.hash("ascon-hash256", [dev(msgs[0])], device=device)


def test_cuda_arrays_need_device_cuda():
    keys, nonces, msgs, _ = random_rows(5, "ascon-aead128", 3, 5)
    dev = DeviceStandIn.of
    with pytest.raises(TypeError, match=r"keys, nonces, messages: CUDA arrays need device='cuda'"):
        lwc.batch.encrypt("ascon-aead128", dev(keys), dev(nonces), dev(msgs))
    with pytest.raises(TypeError, match="need device='cuda'"):
        lwc.batch.hash("ascon-hash256", dev(msgs))


# ---- the CUDA-array path on host memory ----------------------------------------------------------


class NumpyPosingAsDevice:
    """lwc._cuda_arrays' array-library interface over numpy: host memory stands in for device
    memory, addresses are host addresses."""

    def adopt(self, x):
        return np.asarray(x)

    def device_of(self, x):
        return 0

    def on_device(self, device):
        return contextlib.nullcontext()

    def stream(self, device):
        return 0

    def empty(self, shape, device):
        return np.full(shape, 0xA5, np.uint8)  # garbage: bytes the engine does not write show

    def itemsize(self, x):
        return x.itemsize

    def contiguous(self, x):
        return np.ascontiguousarray(x)

    def address(self, x):
        return x.ctypes.data

    def nbytes(self, x):
        return x.nbytes

    def flags(self, ok):
        return ok.astype(bool)


def host_memory(span, dtype=np.uint8):
    """The numpy view of (address, count) as the engine gets it."""
    address, count = span
    if count == 0:
        return np.empty(0, dtype)
    ctype = {np.uint8: ctypes.c_uint8, np.uint64: ctypes.c_uint64}[dtype]
    return np.ctypeslib.as_array((ctype * count).from_address(address))


def column_rows(column, n):
    """The n rows of a fixed-stride column (address, bytes, row length) as the engine gets it."""
    address, size, width = column
    assert size == n * width, "a fixed column holds exactly n rows"
    return [bytes(r) for r in host_memory((address, size)).reshape(n, width)] if n else []


class CpuEngine:
    """_cuda_aead_async and _cuda_hash_async with lwc::cuda's packed-form semantics (fixed-stride
    columns, tags appended or detached), computed by the CPU engine on host memory. In a CUDA build without a GPU each call first goes to the real glue,
    whose argument checks must pass (it then stops at the missing device)."""

    def __init__(self):
        self.calls = 0
        self.check_with_real_glue = CUDA_BUILT and not lwc.batch.cuda_available()

    def real_glue_accepts(self, name):
        return self.check_with_real_glue and name in CUDA_MODULE._cuda_algorithms()

    def _cuda_aead_async(self, decrypt, name, count, *, keys, nonces, ad, second_keys, data, out, tags, ok,
                         tag_len, appended, stream):
        self.calls += 1
        if self.real_glue_accepts(name):
            with pytest.raises(RuntimeError, match="no CUDA device"):
                CUDA_MODULE._cuda_aead_async(decrypt, name, count, keys=keys, nonces=nonces, ad=ad,
                                             second_keys=second_keys, data=data, out=out, tags=tags, ok=ok,
                                             tag_len=tag_len, appended=appended, stream=stream)
        a = REGISTRY[name]
        n = count
        rows = lambda column: column_rows(column, n)  # noqa: E731
        assert keys[2] == a.key_size and nonces[2] == a.nonce_size
        args = (name, rows(keys), rows(nonces), rows(data), rows(ad) if ad[1] else None)
        seconds = rows(second_keys) if second_keys[1] else None
        out_mem = host_memory(out[:2])
        width = out[2]
        if decrypt:
            tag_rows = None if appended else rows(tags)
            plain, flags = lwc.batch.decrypt(*args, tag_length=tag_len, second_keys=seconds, tags=tag_rows)
            for i in range(n):
                out_mem[i * width:(i + 1) * width] = np.frombuffer(plain[i] or bytes(width), np.uint8)
            host_memory((ok, n))[:] = flags
        else:
            cts, tag_list = lwc.batch.encrypt(*args, tag_length=tag_len, second_keys=seconds, detached=True)
            for i in range(n):
                sealed = cts[i] + tag_list[i] if appended else cts[i]
                out_mem[i * width:(i + 1) * width] = np.frombuffer(sealed, np.uint8)
            if not appended:
                host_memory(tags[:2])[:] = np.frombuffer(b"".join(tag_list), np.uint8)

    def _cuda_hash_async(self, name, count, *, data, out, stream):
        self.calls += 1
        if self.real_glue_accepts(name):
            with pytest.raises(RuntimeError, match="no CUDA device"):
                CUDA_MODULE._cuda_hash_async(name, count, data=data, out=out, stream=stream)
        msgs = column_rows(data, count)
        digests = lwc.batch.hash(name, msgs, length=None if REGISTRY[name].max_output_size else out[2])
        host_memory(out[:2])[:] = np.frombuffer(b"".join(digests), np.uint8)


@pytest.fixture
def emulated_gpu(monkeypatch):
    """lwc.batch's CUDA-array path with NumpyPosingAsDevice and CpuEngine in place of a GPU."""
    engine = CpuEngine()
    monkeypatch.setattr(_cuda_arrays, "_library_of", lambda messages: NumpyPosingAsDevice())
    monkeypatch.setattr(_cuda_arrays, "engine", lambda: engine)
    monkeypatch.setattr(lwc.batch, "_require_cuda", lambda name, threads, backend: None)
    return engine


@pytest.mark.parametrize("length", [0, 1, 16, 33, 200])
@pytest.mark.parametrize("name", BATCH_AEADS)
def test_emulated_cuda_arrays_aead(emulated_gpu, name, length):
    dev = DeviceStandIn.of
    n = 37
    keys, nonces, msgs, ads = random_rows(length, name, n, length, ad_length=length % 7)
    want = lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    sealed = lwc.batch.encrypt(name, dev(keys), dev(nonces), dev(msgs), dev(ads), device="cuda")
    assert np.array_equal(sealed, want)
    cts, tags = lwc.batch.encrypt(name, dev(keys), dev(nonces), dev(msgs), dev(ads), device="cuda", detached=True)
    assert np.array_equal(cts, want[:, :length]) and np.array_equal(tags, want[:, length:])
    forged = sealed.copy()
    forged[5, 0] ^= 1
    plain, ok = lwc.batch.decrypt(name, dev(keys), dev(nonces), dev(forged), dev(ads), device="cuda")
    assert ok.dtype == bool and ok.tolist() == [i != 5 for i in range(n)]
    assert not plain[5].any() and np.array_equal(np.delete(plain, 5, axis=0), np.delete(msgs, 5, axis=0))
    plain, ok = lwc.batch.decrypt(name, dev(keys), dev(nonces), dev(cts), dev(ads), device="cuda", tags=dev(tags))
    assert ok.all() and np.array_equal(plain, msgs)
    assert emulated_gpu.calls == 4


def test_emulated_cuda_arrays_tag_length_masking_and_odd_layouts(emulated_gpu):
    dev = DeviceStandIn.of
    keys, nonces, msgs, _ = random_rows(6, "ascon-aead128", 20, 24)
    second = np.random.default_rng(7).integers(0, 256, (20, 16), dtype=np.uint8)
    want = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, tag_length=5, second_keys=second)
    # A non-contiguous message array is made contiguous first.
    wide = np.zeros((20, 48), np.uint8)
    wide[:, ::2] = msgs
    got = lwc.batch.encrypt("ascon-aead128", dev(keys), dev(nonces), dev(wide)[:, ::2], tag_length=5,
                            second_keys=dev(second), device="cuda")
    assert np.array_equal(got, want)
    plain, ok = lwc.batch.decrypt("ascon-aead128", dev(keys), dev(nonces), dev(got), tag_length=5,
                                  second_keys=dev(second), device="cuda")
    assert ok.all() and np.array_equal(plain, msgs)
    _, ok = lwc.batch.decrypt("ascon-aead128", dev(keys), dev(nonces), dev(got), tag_length=5, device="cuda")
    assert not ok.any()
    no_ad = dev(np.zeros((20, 0), np.uint8))  # rows of no associated data: none at all
    plain, ok = lwc.batch.decrypt("ascon-aead128", dev(keys), dev(nonces), dev(got), no_ad, tag_length=5,
                                  second_keys=dev(second), device="cuda")
    assert ok.all() and np.array_equal(plain, msgs)


def test_emulated_cuda_arrays_empty_batch(emulated_gpu):
    dev = DeviceStandIn.of
    empty = np.zeros((0, 16), np.uint8)
    sealed = lwc.batch.encrypt("ascon-aead128", dev(empty), dev(empty), dev(np.zeros((0, 9), np.uint8)), device="cuda")
    assert sealed.shape == (0, 25)
    plain, ok = lwc.batch.decrypt("ascon-aead128", dev(empty), dev(empty), dev(sealed), device="cuda")
    assert plain.shape == (0, 9) and ok.shape == (0,)
    assert lwc.batch.hash("ascon-hash256", dev(np.zeros((0, 4), np.uint8)), device="cuda").shape == (0, 32)
    assert emulated_gpu.calls == 0  # nothing queued


@pytest.mark.parametrize("name", unkeyed(BATCH_HASHES))
def test_emulated_cuda_arrays_hash(emulated_gpu, name):
    dev = DeviceStandIn.of
    msgs = np.random.default_rng(8).integers(0, 256, (33, 70), dtype=np.uint8)
    length = out_length(name, 45)
    out = lwc.batch.hash(name, dev(msgs), length=length, device="cuda")
    assert np.array_equal(out, lwc.batch.hash(name, msgs, length=length))


def test_emulated_cuda_arrays_take_no_keys(emulated_gpu):
    msgs = DeviceStandIn.of(np.zeros((2, 3), np.uint8))
    with pytest.raises(ValueError, match="need host inputs"):
        lwc.batch.hash("ascon-mac", msgs, keys=[bytes(16)] * 2, device="cuda")


def test_emulated_cuda_arrays_bad_shapes(emulated_gpu):
    dev = DeviceStandIn.of
    keys, nonces, msgs, _ = random_rows(9, "ascon-aead128", 4, 8)
    with pytest.raises(ValueError, match=r"keys: expected an 4 x 16 uint8 array, got shape \(4, 15\)"):
        lwc.batch.encrypt("ascon-aead128", dev(keys[:, :15]), dev(nonces), dev(msgs), device="cuda")
    with pytest.raises(ValueError, match="nonces: expected 4 rows"):
        lwc.batch.encrypt("ascon-aead128", dev(keys), dev(nonces[:3]), dev(msgs), device="cuda")
    with pytest.raises(ValueError, match="messages: expected an N x L uint8 array"):
        lwc.batch.encrypt("ascon-aead128", dev(keys), dev(nonces), dev(msgs.reshape(-1)), device="cuda")
    with pytest.raises(ValueError, match="associated_data: expected 4 rows"):
        lwc.batch.encrypt("ascon-aead128", dev(keys), dev(nonces), dev(msgs), dev(msgs[:2]), device="cuda")
    with pytest.raises(ValueError, match="shorter than the 16-byte tag"):
        lwc.batch.decrypt("ascon-aead128", dev(keys), dev(nonces), dev(msgs), device="cuda")
    with pytest.raises(ValueError, match="tags: expected an 4 x 16 uint8 array"):
        lwc.batch.decrypt("ascon-aead128", dev(keys), dev(nonces), dev(msgs), tags=dev(keys[:, :8]), device="cuda")
    if REGISTRY["ascon-128"].second_key_size == 0:
        with pytest.raises(ValueError, match="nonce masking"):
            lwc.batch.encrypt("ascon-128", dev(keys), dev(nonces), dev(msgs), second_keys=dev(keys), device="cuda")
    assert emulated_gpu.calls == 0


class CpuHostEngine:
    """lwc._lwc whose CUDA engine calls for host memory (_batch_aead and _batch_hash with
    cuda=True: the packed job form, tags appended or detached) run on the CPU engine instead; in
    a CUDA build without a GPU each call first goes to the real glue, as in CpuEngine."""

    def __init__(self):
        self.calls = 0

    def __getattr__(self, attr):
        return getattr(_lwc, attr)

    def _through_cpu(self, call, name, args):
        *rest, cuda = args
        if cuda:
            self.calls += 1
            if CUDA_BUILT and not lwc.batch.cuda_available() and name in lwc.batch.cuda_algorithms():
                with pytest.raises(RuntimeError, match="no CUDA device"):
                    call(*args)
        return call(*rest, False)

    def _batch_aead(self, *args):
        return self._through_cpu(_lwc._batch_aead, lwc.algorithms()[args[1]].name, args)

    def _batch_hash(self, *args):
        return self._through_cpu(_lwc._batch_hash, lwc.algorithms()[args[0]].name, args)


@pytest.fixture
def emulated_gpu_host(monkeypatch):
    """lwc.batch's device="cuda" path for host inputs, with CpuHostEngine in place of a GPU."""
    engine = CpuHostEngine()
    monkeypatch.setattr(lwc.batch, "_lwc", engine)
    monkeypatch.setattr(lwc.batch, "_require_cuda", lambda name, threads, backend: None)
    return engine


@pytest.mark.parametrize("name", BATCH_AEADS)
def test_emulated_cuda_host_lists(emulated_gpu_host, name):
    rng = random.Random(19)
    n = 41
    keys, nonces, msgs, ads = random_jobs(rng, name, n)
    want = lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads, device="cuda")
    assert sealed == want
    cts, tags = lwc.batch.encrypt(name, keys, nonces, msgs, ads, device="cuda", detached=True)
    assert [c + t for c, t in zip(cts, tags)] == want
    forged = list(sealed)
    forged[9] = bytes([forged[9][0] ^ 4]) + forged[9][1:]
    plain, ok = lwc.batch.decrypt(name, keys, nonces, forged, ads, device="cuda")
    assert ok == [i != 9 for i in range(n)] and plain[9] is None
    assert [p for i, p in enumerate(plain) if i != 9] == [m for i, m in enumerate(msgs) if i != 9]
    assert lwc.batch.decrypt(name, keys, nonces, cts, ads, device="cuda", tags=tags) == (msgs, [True] * n)
    with pytest.raises(ValueError, match="ciphertext 1 is shorter than the"):
        lwc.batch.decrypt(name, keys[:2], nonces[:2], [sealed[0], b"abc"], device="cuda")
    assert emulated_gpu_host.calls == 5


def test_emulated_cuda_host_arrays(emulated_gpu_host):
    keys, nonces, msgs, ads = random_rows(20, "ascon-aead128", 30, 45, ad_length=3)
    second = np.random.default_rng(21).integers(0, 256, (30, 16), dtype=np.uint8)
    opts = dict(tag_length=9, second_keys=second)
    want = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, **opts)
    sealed = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, device="cuda", **opts)
    assert sealed.shape == (30, 54) and np.array_equal(sealed, want)
    cts, tags = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, ads, device="cuda", detached=True, **opts)
    assert np.array_equal(cts, want[:, :45]) and np.array_equal(tags, want[:, 45:])
    sealed[2, -1] ^= 1
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, sealed, ads, device="cuda", **opts)
    assert ok.tolist() == [i != 2 for i in range(30)] and not plain[2].any()
    assert np.array_equal(np.delete(plain, 2, axis=0), np.delete(msgs, 2, axis=0))
    plain, ok = lwc.batch.decrypt("ascon-aead128", keys, nonces, cts, ads, device="cuda", tags=tags, **opts)
    assert ok.all() and np.array_equal(plain, msgs)


@pytest.mark.parametrize("name", BATCH_HASHES)
def test_emulated_cuda_host_hash(emulated_gpu_host, name):
    rng = random.Random(22)
    msgs, keys, custom = hash_jobs(rng, name, 20, 500)
    length = out_length(name, 50)
    assert (lwc.batch.hash(name, msgs, length=length, keys=keys, customization=custom, device="cuda")
            == lwc.batch.hash(name, msgs, length=length, keys=keys, customization=custom))
    if keys is None and REGISTRY[name].max_input_size is None:
        arr = np.arange(400, dtype=np.uint16).astype(np.uint8).reshape(10, 40)
        assert np.array_equal(lwc.batch.hash(name, arr, length=length, device="cuda"),
                              lwc.batch.hash(name, arr, length=length))


# ---- on a GPU ----------------------------------------------------------------------------------


@needs_gpu
@pytest.mark.parametrize("name", GPU_AEADS)
def test_gpu_host_inputs_equal_cpu(name):
    rng = random.Random(10)
    n = 1000
    keys, nonces, msgs, ads = random_jobs(rng, name, n, max_len=3000)
    sealed = lwc.batch.encrypt(name, keys, nonces, msgs, ads, device="cuda")
    assert sealed == lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    cts, tags = lwc.batch.encrypt(name, keys, nonces, msgs, ads, device="cuda", detached=True)
    assert [c + t for c, t in zip(cts, tags)] == sealed
    forged = list(sealed)
    forged[17] = forged[17][:-1] + bytes([forged[17][-1] ^ 1])
    plain, ok = lwc.batch.decrypt(name, keys, nonces, forged, ads, device="cuda")
    assert ok == [i != 17 for i in range(n)] and plain[17] is None
    assert [p for i, p in enumerate(plain) if i != 17] == [m for i, m in enumerate(msgs) if i != 17]
    assert lwc.batch.decrypt(name, keys, nonces, cts, ads, device="cuda", tags=tags) == (msgs, [True] * n)
    k, v, m, a = random_rows(11, name, 300, 129, ad_length=3)
    assert np.array_equal(lwc.batch.encrypt(name, k, v, m, a, device="cuda"), lwc.batch.encrypt(name, k, v, m, a))


@needs_gpu
@pytest.mark.parametrize("name", GPU_HASHES)
def test_gpu_host_hash_equals_cpu(name):
    rng = random.Random(12)
    msgs, keys, custom = hash_jobs(rng, name, 778, 2000)
    length = out_length(name, 64)
    assert (lwc.batch.hash(name, msgs, length=length, keys=keys, customization=custom, device="cuda")
            == lwc.batch.hash(name, msgs, length=length, keys=keys, customization=custom))


class CupyArrays:
    def __init__(self):
        self.cupy = pytest.importorskip("cupy", reason="CuPy is not installed")

    def to_device(self, a):
        return self.cupy.asarray(a)

    def to_host(self, a):
        assert isinstance(a, self.cupy.ndarray)
        return self.cupy.asnumpy(a)

    def side_stream(self):
        return self.cupy.cuda.Stream(non_blocking=True)

    def current(self, stream):
        return stream

    def synchronize(self, stream):
        stream.synchronize()


class TorchArrays:
    def __init__(self):
        self.torch = pytest.importorskip("torch", reason="PyTorch is not installed")
        if not self.torch.cuda.is_available():
            pytest.skip("PyTorch sees no CUDA device (a CPU-only build?)")

    def to_device(self, a):
        return self.torch.from_numpy(np.ascontiguousarray(a)).cuda()

    def to_host(self, a):
        assert isinstance(a, self.torch.Tensor) and a.is_cuda
        return a.cpu().numpy()

    def side_stream(self):
        return self.torch.cuda.Stream()

    def current(self, stream):
        return self.torch.cuda.stream(stream)

    def synchronize(self, stream):
        stream.synchronize()


@pytest.fixture(params=["cupy", "torch"])
def gpu_arrays(request):
    reason = no_gpu_reason()
    if reason is not None:
        pytest.skip(reason)
    return CupyArrays() if request.param == "cupy" else TorchArrays()


@pytest.mark.parametrize("length", [0, 1, 64, 1000])
@pytest.mark.parametrize("name", GPU_AEADS)
def test_gpu_arrays_equal_cpu(gpu_arrays, name, length):
    g = gpu_arrays
    n = 4099  # more than one warp's worth per SM on small GPUs, not a multiple of 32
    keys, nonces, msgs, ads = random_rows(length + 13, name, n, length, ad_length=length % 5)
    want = lwc.batch.encrypt(name, keys, nonces, msgs, ads)
    d = [None if x is None else g.to_device(x) for x in (keys, nonces, msgs, ads)]
    sealed = lwc.batch.encrypt(name, *d, device="cuda")
    assert np.array_equal(g.to_host(sealed), want)
    cts, tags = lwc.batch.encrypt(name, *d, device="cuda", detached=True)
    assert np.array_equal(g.to_host(cts), want[:, :length]) and np.array_equal(g.to_host(tags), want[:, length:])
    plain, ok = lwc.batch.decrypt(name, *d[:2], sealed, d[3], device="cuda")
    assert g.to_host(ok).all() and np.array_equal(g.to_host(plain), msgs)
    plain, ok = lwc.batch.decrypt(name, *d[:2], cts, d[3], tags=tags, device="cuda")
    assert g.to_host(ok).all() and np.array_equal(g.to_host(plain), msgs)


@pytest.mark.parametrize("name", GPU_AEADS)
def test_gpu_arrays_tampered_jobs_fail_alone(gpu_arrays, name):
    g = gpu_arrays
    n, length = 300, 77
    keys, nonces, msgs, _ = random_rows(14, name, n, length)
    forged = lwc.batch.encrypt(name, keys, nonces, msgs)
    bad = [0, 31, 32, 150, n - 1]
    for i in bad:
        forged[i, (i * 7) % forged.shape[1]] ^= 0x40
    plain, ok = lwc.batch.decrypt(name, g.to_device(keys), g.to_device(nonces), g.to_device(forged), device="cuda")
    plain, ok = g.to_host(plain), g.to_host(ok)
    assert ok.tolist() == [i not in bad for i in range(n)]
    assert not plain[bad].any()
    good = [i for i in range(n) if i not in bad]
    assert np.array_equal(plain[good], msgs[good])


def test_gpu_arrays_masking_and_short_tags(gpu_arrays):
    if "ascon-aead128" not in lwc.batch.cuda_algorithms():
        pytest.skip("the CUDA engine does not run ascon-aead128")
    g = gpu_arrays
    keys, nonces, msgs, _ = random_rows(15, "ascon-aead128", 500, 40)
    second = np.random.default_rng(16).integers(0, 256, (500, 16), dtype=np.uint8)
    want = lwc.batch.encrypt("ascon-aead128", keys, nonces, msgs, tag_length=7, second_keys=second)
    d = dict(keys=g.to_device(keys), nonces=g.to_device(nonces))
    got = lwc.batch.encrypt("ascon-aead128", messages=g.to_device(msgs), tag_length=7,
                            second_keys=g.to_device(second), device="cuda", **d)
    assert np.array_equal(g.to_host(got), want)
    _, ok = lwc.batch.decrypt("ascon-aead128", ciphertexts=got, tag_length=7, device="cuda", **d)
    assert not g.to_host(ok).any()  # without the second keys nothing verifies


@pytest.mark.parametrize("name", unkeyed(GPU_HASHES))
def test_gpu_arrays_hash_equals_cpu(gpu_arrays, name):
    g = gpu_arrays
    msgs = np.random.default_rng(17).integers(0, 256, (2049, 300), dtype=np.uint8)
    length = out_length(name, 100)
    out = lwc.batch.hash(name, g.to_device(msgs), length=length, device="cuda")
    assert np.array_equal(g.to_host(out), lwc.batch.hash(name, msgs, length=length))


def test_gpu_arrays_on_the_librarys_current_stream(gpu_arrays):
    g = gpu_arrays
    name = GPU_HASHES[0]
    msgs = np.random.default_rng(18).integers(0, 256, (1 << 14, 1024), dtype=np.uint8)
    want = lwc.batch.hash(name, msgs, length=out_length(name, 16))
    stream = g.side_stream()
    with g.current(stream):
        d = g.to_device(msgs)
        out = lwc.batch.hash(name, d, length=want.shape[1], device="cuda")
    g.synchronize(stream)
    assert np.array_equal(g.to_host(out), want)
