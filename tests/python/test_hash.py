# SPDX-License-Identifier: MIT OR Apache-2.0
"""Hash, XOF, MAC and PRF objects: the hashlib (PEP 452) interface, incremental == one-shot,
copy(), the read() stream, verify(), lwc.new(), and bad input."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lwc

INFOS = [i for i in lwc.algorithms() if i.kind != "aead"]
ids = [i.name for i in INFOS]


def make(info: lwc.AlgorithmInfo, data=b"", **options):
    cls = getattr(lwc, info.python_name)
    if info.key_size:
        return cls(options.pop("key", bytes(range(info.key_size))), data)
    return cls(data, **options)


def out(h, n=None):
    return h.digest() if h.digest_size else h.digest(n or 32)


def test_expected_constructors_exist():
    for name in ["ascon_hash256", "ascon_xof128", "ascon_cxof128", "ascon_hash", "ascon_hasha",
                 "ascon_xof", "ascon_xofa", "ascon_mac", "ascon_prf", "ascon_prfshort"]:
        assert isinstance(getattr(lwc, name)(*([bytes(16)] if "mac" in name or "prf" in name else [])),
                          lwc.HashBase)


@pytest.mark.parametrize("info", INFOS, ids=ids)
def test_attributes(info):
    cls = getattr(lwc, info.python_name)
    h = make(info)
    assert h.name == cls.name == info.name
    assert h.block_size == cls.block_size == info.block_size > 0
    fixed = info.kind in ("hash", "mac")
    assert h.digest_size == cls.digest_size == (info.output_size if fixed else 0)
    assert isinstance(h, {"hash": lwc.Hash, "xof": lwc.XOF, "cxof": lwc.XOF,
                          "mac": lwc.MAC, "prf": lwc.PRF}[info.kind])
    assert info.name in repr(h) or info.python_name in repr(h)
    assert type(h).__module__ == "lwc"


@pytest.mark.parametrize("info", INFOS, ids=ids)
@given(data=st.data())
def test_incremental_equals_one_shot(info, data):
    limit = info.max_input_size if info.max_input_size is not None else 300
    msg = data.draw(st.binary(max_size=limit))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(msg)), max_size=4)))
    h = make(info)
    prev = 0
    for c in cuts + [len(msg)]:
        h.update(msg[prev:c])
        prev = c
    assert out(h) == out(make(info, msg))
    assert h.hexdigest(*([] if h.digest_size else [32])) == out(h).hex()


@pytest.mark.parametrize("info", INFOS, ids=ids)
def test_digest_is_repeatable_and_copy_is_independent(info):
    short = info.max_input_size is not None
    h = make(info, b"abc")
    first = out(h)
    assert out(h) == first  # digest() does not finalize, as in hashlib
    c = h.copy()
    assert type(c) is type(h) and out(c) == first
    c.update(b"d")
    assert out(h) == first and out(c) == out(make(info, b"abcd"))
    h.update(b"" if short else b"x" * 100)
    assert out(h) == (first if short else out(make(info, b"abc" + b"x" * 100)))


@pytest.mark.parametrize("info", [i for i in INFOS if not i.max_output_size], ids=lambda i: i.name)
@given(msg=st.binary(max_size=100), a=st.integers(0, 70), b=st.integers(0, 70))
def test_xof_stream(info, msg, a, b):
    h = make(info, msg)
    whole = h.digest(a + b)
    assert h.digest(a) == whole[:a]
    assert h.hexdigest(a + b) == whole.hex()
    first = h.read(a)
    c = h.copy()  # carries the read position
    assert first + h.read(b) == whole
    assert c.read(b) == whole[a:]
    assert h.digest(a + b) == whole  # digest() still starts from the beginning
    with pytest.raises(ValueError, match="after read"):
        h.update(b"more")


def test_cxof_customization():
    h0 = lwc.ascon_cxof128(b"msg")
    assert h0.digest(32) == lwc.ascon_cxof128(b"msg", customization=b"").digest(32)
    assert h0.digest(32) != lwc.ascon_cxof128(b"msg", customization=b"z").digest(32)
    assert lwc.ascon_cxof128(customization=bytes(256)).digest(8)
    with pytest.raises(ValueError, match="at most 256 bytes"):
        lwc.ascon_cxof128(customization=bytes(257))
    with pytest.raises(TypeError):
        lwc.ascon_cxof128(customization="z")
    with pytest.raises(TypeError, match="no customization"):
        lwc.ascon_xof128(customization=b"z")
    assert (lwc.new("ascon-cxof128", b"msg", customization=b"z").digest(16)
            == lwc.ascon_cxof128(b"msg", customization=b"z").digest(16))


@pytest.mark.parametrize("info", [i for i in INFOS if i.key_size], ids=lambda i: i.name)
@given(msg=st.binary(max_size=16), key=st.binary(min_size=16, max_size=16), data=st.data())
def test_mac_verify(info, msg, key, data):
    m = make(info, msg, key=key)
    tag = m.tag()
    assert tag == out(m, info.output_size) and len(tag) == info.output_size
    m.verify(tag)
    m.verify(memoryview(tag)[:4], tag_length=4)  # a named truncation compares with the prefix
    bit = data.draw(st.integers(0, 8 * len(tag) - 1))
    forged = bytearray(tag)
    forged[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(lwc.InvalidTag):
        m.verify(bytes(forged))
    with pytest.raises(lwc.InvalidTag):
        make(info, msg + b"\0" if info.max_input_size is None or len(msg) < 16 else msg[:-1],
             key=key).verify(tag)
    # The tag length is the configured one, never the given tag's: other lengths fail.
    for n in (0, 3, 4, len(tag) - 1):
        with pytest.raises(lwc.InvalidTag):
            m.verify(tag[:n])
    with pytest.raises(lwc.InvalidTag):
        m.verify(tag + b"\0")
    with pytest.raises(ValueError):
        m.verify(tag[:3], tag_length=3)
    with pytest.raises(ValueError):
        m.verify(bytes((info.max_output_size or 64) + 1), tag_length=(info.max_output_size or 64) + 1)
    with pytest.raises(TypeError):
        m.verify(tag.hex())
    m.verify(tag)  # verify() did not change the object


def test_prf_output_lengths():
    key = bytes(16)
    p = lwc.ascon_prf(key, b"m")
    assert p.tag() == p.digest(16) and p.tag(40) == p.digest(40)
    p.verify(p.digest(64), tag_length=64)
    with pytest.raises(lwc.InvalidTag):
        p.verify(p.digest(64))
    assert lwc.ascon_mac(key, b"m").digest() == lwc.ascon_mac(key, b"m").tag()


def test_prfshort_input_limit():
    for cls in (lwc.ascon_prfshort, lwc.ascon_prfshort_v13):
        h = cls(bytes(16), bytes(10))
        h.update(bytes(6))
        with pytest.raises(ValueError, match="at most 16 bytes"):
            h.update(b"x")
        with pytest.raises(ValueError, match="at most 16 bytes"):
            cls(bytes(16), bytes(17))
        assert h.digest() == cls(bytes(16), bytes(16)).digest()


def test_generic_new():
    for spelling in ["ascon-hash256", "ascon_hash256", "ASCON_HASH256"]:
        assert type(lwc.new(spelling)) is lwc.ascon_hash256
    assert lwc.new("ascon-hash256", b"abc").digest() == lwc.ascon_hash256(b"abc").digest()
    assert lwc.new("ascon-xof", data=b"abc").digest(7) == lwc.ascon_xof(b"abc").digest(7)
    assert lwc.new("ascon-mac", b"abc", key=bytes(16)).digest() == lwc.ascon_mac(bytes(16), b"abc").digest()
    with pytest.raises(TypeError, match="key"):
        lwc.new("ascon-mac", b"abc")
    with pytest.raises(ValueError, match="unsupported hash type"):
        lwc.new("sha256")
    with pytest.raises(ValueError, match="AEAD"):
        lwc.new("ascon-aead128")
    assert lwc.algorithms_available == {i.name for i in lwc.algorithms()}
    for name in lwc.algorithms_available:
        info = next(i for i in lwc.algorithms() if i.name == name)
        if info.kind == "aead":
            assert isinstance(lwc.aead(name, bytes(info.key_size)), lwc.AEAD)
        else:
            assert isinstance(lwc.new(name, **({"key": bytes(16)} if info.key_size else {})), lwc.HashBase)


@pytest.mark.parametrize("info", INFOS, ids=ids)
def test_bad_input(info):
    h = make(info)
    for bad in ["text", None, 5, [1, 2]]:
        with pytest.raises(TypeError):
            h.update(bad)
        with pytest.raises(TypeError):
            make(info, bad)
    if info.key_size:
        cls = getattr(lwc, info.python_name)
        with pytest.raises(ValueError, match=f"key must be {info.key_size} bytes, got 15"):
            cls(bytes(15))
        with pytest.raises(TypeError):
            cls("k" * 16)
        with pytest.raises(TypeError):
            cls(None)
    if not h.digest_size:
        with pytest.raises(ValueError):
            h.digest(-1)
        with pytest.raises(TypeError):
            h.digest(1.5)
        with pytest.raises(TypeError):
            h.read("4")
        assert h.digest(0) == b""


def test_base_classes_cannot_be_instantiated():
    for base in (lwc.Hash, lwc.XOF):
        with pytest.raises(TypeError, match="base class"):
            base(b"")
    for base in (lwc.MAC, lwc.PRF):
        with pytest.raises(TypeError, match="base class"):
            base(bytes(16))
    with pytest.raises(TypeError):
        lwc.HashBase()


def test_buffers_of_every_kind():
    msg = bytes(range(64))
    expected = lwc.ascon_hash256(msg).digest()
    for wrapped in [bytearray(msg), memoryview(msg), np.frombuffer(msg, dtype=np.uint8),
                    np.frombuffer(msg, dtype=np.uint64), memoryview(b"x" + msg)[1:]]:
        assert lwc.ascon_hash256(wrapped).digest() == expected
        h = lwc.ascon_hash256()
        h.update(wrapped)
        assert h.digest() == expected


def test_works_where_hashlib_objects_do():
    def fingerprint(h, chunks):
        for c in chunks:
            h.update(c)
        snapshot = h.copy()
        return (h.name, h.digest_size, h.block_size, snapshot.hexdigest(), h.digest().hex())

    chunks = [b"a" * 10, b"b" * 1000, b""]
    name, size, block, hexd, d = fingerprint(lwc.ascon_hash256(), chunks)
    assert (name, size, block) == ("ascon-hash256", 32, 8) and hexd == d
    ref = fingerprint(hashlib.sha256(), chunks)
    assert len(ref[3]) == len(hexd)


def test_large_update_and_read():
    n = 5 * lwc._lwc.GIL_RELEASE_THRESHOLD + 3
    msg = bytes(range(256)) * (n // 256)
    h = lwc.ascon_xof128()
    h.update(msg[:7])
    h.update(msg[7:])
    stream = h.read(n)
    assert stream == lwc.ascon_xof128(msg).digest(n)
    assert stream[:32] == lwc.ascon_xof128(msg).read(32)


@pytest.mark.parametrize("info", [i for i in INFOS if not i.key_size], ids=lambda i: i.name)
def test_usedforsecurity_is_accepted_as_by_hashlib(info):
    expected = out(make(info, b"abc"))
    cls = getattr(lwc, info.python_name)
    assert out(cls(b"abc", usedforsecurity=False)) == expected
    assert out(cls(b"abc", usedforsecurity=True)) == expected
    assert out(lwc.new(info.name, b"abc", usedforsecurity=False)) == expected


def test_usedforsecurity_with_lwc_new_on_a_mac():
    key = bytes(range(16))
    assert lwc.new("ascon-mac", b"abc", key=key, usedforsecurity=False).digest() == \
        lwc.ascon_mac(key, b"abc").digest()


# ---- one-shot functions --------------------------------------------------------------------


def oneshot_digest(info: lwc.AlgorithmInfo):
    return getattr(lwc, info.python_name + "_digest")


@pytest.mark.parametrize("info", INFOS, ids=ids)
def test_one_shot_functions_equal_the_objects(info):
    f = oneshot_digest(info)
    assert f.__name__ in lwc.__all__ and f.__module__ == "lwc"
    key = bytes(range(info.key_size))
    limit = info.max_input_size if info.max_input_size is not None else 5000
    for n in sorted({n for n in (0, 1, 15, 16, 64) if n <= limit} | {limit}):
        data = bytes((7 * i + n) & 0xFF for i in range(n))
        if info.kind == "hash":
            assert f(data) == make(info, data).digest()
        elif info.kind == "mac":
            assert f(key, data) == make(info, data, key=key).digest()
        elif info.kind == "prf":
            assert f(key, data) == make(info, data, key=key).digest(info.output_size)
            assert f(key, data, 41) == f(key, data, length=41) == make(info, data, key=key).digest(41)
        else:
            assert f(data) == make(info, data).digest(info.output_size)
            assert f(data, 0) == b"" and f(data, length=77) == make(info, data).digest(77)
            if info.kind == "cxof":
                custom = b"custom" * n
                custom = custom[:info.max_customization_size]
                assert f(data, 50, customization=custom) == make(info, data, customization=custom).digest(50)


@pytest.mark.parametrize("info", [i for i in INFOS if i.key_size], ids=[i.name for i in INFOS if i.key_size])
def test_one_shot_verify(info):
    f, verify = oneshot_digest(info), getattr(lwc, info.python_name + "_verify")
    key, data = bytes(range(info.key_size)), b"message"[: info.max_input_size or None]
    tag = f(key, data)
    assert verify(key, data, tag) is None
    verify(key, data, bytearray(tag[:8]), tag_length=8)  # a named truncation compares with the prefix
    with pytest.raises(lwc.InvalidTag):
        verify(key, data, bytearray(tag[:8]))
    forged = bytes([tag[0] ^ 1]) + tag[1:]
    with pytest.raises(lwc.InvalidTag):
        verify(key, data, forged)
    with pytest.raises(lwc.InvalidTag):
        verify(bytes([key[0] ^ 1]) + key[1:], data, tag)
    with pytest.raises(lwc.InvalidTag):
        verify(key, data, tag[:3])
    with pytest.raises(ValueError, match="tag_length must be"):
        verify(key, data, tag[:3], tag_length=3)


def test_one_shot_bad_input():
    with pytest.raises(TypeError, match="not 'str'"):
        lwc.ascon_hash256_digest("text")
    with pytest.raises(TypeError, match="bytes-like"):
        lwc.ascon_hash256_digest(None)
    with pytest.raises(TypeError, match="missing required argument 'data'"):
        lwc.ascon_hash256_digest()
    with pytest.raises(TypeError, match="at most 1 positional"):
        lwc.ascon_hash256_digest(b"a", 32)
    with pytest.raises(TypeError, match="unexpected keyword argument 'lenght'"):
        lwc.ascon_xof128_digest(b"a", lenght=3)
    with pytest.raises(TypeError, match="multiple values for argument 'length'"):
        lwc.ascon_xof128_digest(b"a", 3, length=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'data'"):
        lwc.ascon_hash256_digest(data=b"a")  # positional only, as in the stubs
    with pytest.raises(ValueError, match="non-negative"):
        lwc.ascon_xof128_digest(b"a", -1)
    with pytest.raises(TypeError, match="must be an int"):
        lwc.ascon_xof128_digest(b"a", 2.0)
    with pytest.raises(ValueError, match="key must be 16 bytes, got 15"):
        lwc.ascon_mac_digest(bytes(15), b"a")
    with pytest.raises(ValueError, match="at most 16 bytes, got 17"):
        lwc.ascon_prfshort_digest(bytes(16), bytes(17))
    with pytest.raises(ValueError, match="customization must be at most 256 bytes"):
        lwc.ascon_cxof128_digest(b"a", customization=bytes(257))
    with pytest.raises(TypeError, match="at most 2 positional"):
        lwc.ascon_cxof128_digest(b"a", 32, b"customization is keyword only")


def test_one_shot_signatures_and_large_inputs():
    import inspect

    assert str(inspect.signature(lwc.ascon_hash256_digest)) == "(data, /)"
    assert str(inspect.signature(lwc.ascon_cxof128_digest)) == "(data, /, length=None, *, customization=None)"
    assert str(inspect.signature(lwc.ascon_prf_verify)) == "(key, data, tag, /, *, tag_length=None)"
    big = np.arange(3 * lwc._lwc.GIL_RELEASE_THRESHOLD, dtype=np.uint16).astype(np.uint8)
    assert lwc.ascon_hash256_digest(big) == lwc.ascon_hash256(big).digest()
    assert lwc.ascon_xof128_digest(b"x", 100000) == lwc.ascon_xof128(b"x").digest(100000)


def test_constructors_take_the_documented_arguments():
    """The registry's classes are built by a constructor of their own (module.cpp,
    fast_constructor): the same arguments and checks as __init__, which subclasses keep."""
    m = b"abc"
    assert lwc.ascon_hash256(data=m).digest() == lwc.ascon_hash256(m).digest() == lwc.ascon_hash256_digest(m)
    assert lwc.ascon_hash256(m, usedforsecurity=False).digest() == lwc.ascon_hash256_digest(m)
    assert lwc.ascon_cxof128(m, customization=b"c").digest(9) == lwc.ascon_cxof128_digest(m, 9, customization=b"c")
    assert lwc.ascon_mac(key=bytes(16), data=m).digest() == lwc.ascon_mac_digest(bytes(16), m)
    assert lwc.ascon_prf(bytes(16)).digest(5) == lwc.ascon_prf_digest(bytes(16), b"", 5)
    # The stable-ABI module (CPython 3.12 and later) has no constructors of its own: there the
    # classes' __init__ refuses the same calls, in nanobind's words.
    fast = hasattr(lwc._lwc, "_fast_constructor")
    generic = "incompatible function arguments"
    with pytest.raises(TypeError, match="missing required argument 'key'" if fast else generic):
        lwc.ascon_mac()
    with pytest.raises(TypeError, match="unexpected keyword argument 'key'" if fast else generic):
        lwc.ascon_hash256(key=bytes(16))
    with pytest.raises(TypeError, match="at most 1 positional" if fast else generic):
        lwc.ascon_xof128(m, b"customization is keyword only")
    with pytest.raises(TypeError, match="bytes-like"):
        lwc.ascon_hash256(None)
    with pytest.raises(TypeError, match="takes no customization"):
        lwc.ascon_xof128(m, customization=b"c")

    class Mine(lwc.ascon_hash256):
        __slots__ = ()

    h = Mine(m)
    assert type(h) is Mine and h.digest() == lwc.ascon_hash256_digest(m) and type(h.copy()) is Mine
