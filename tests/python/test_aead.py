# SPDX-License-Identifier: MIT OR Apache-2.0
"""AEAD classes: the pyca/cryptography-style API, round trips and tampering on random inputs,
caller buffers, every kind of bytes-like input, and bad input."""

from __future__ import annotations

import array
import os

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lwc

AEADS = [getattr(lwc, i.python_name) for i in lwc.algorithms() if i.kind == "aead"]
MASKING = [c for c in AEADS if c.second_key_size]
ids = [c.__name__ for c in AEADS]


def flip(b: bytes, bit: int) -> bytes:
    out = bytearray(b)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def test_expected_classes_exist():
    for name in ["AsconAEAD128", "Ascon128", "Ascon128a", "Ascon80pq"]:
        assert getattr(lwc, name) in AEADS


@pytest.mark.parametrize("cls", AEADS, ids=ids)
def test_attributes(cls):
    info = cls.info
    assert cls.name == info.name and cls.key_size == info.key_size
    assert cls.nonce_size == info.nonce_size and cls.tag_size == info.tag_size
    key = cls.generate_key()
    assert isinstance(key, bytes) and len(key) == cls.key_size
    assert key != cls.generate_key()
    a = cls(key)
    assert (a.name, a.key_size, a.nonce_size, a.tag_size) == (
        cls.name, cls.key_size, cls.nonce_size, cls.tag_size)
    assert isinstance(a, lwc.AEAD) and type(a).__module__ == "lwc"
    assert cls.__name__ in repr(a) and key.hex() not in repr(a)
    short = cls(key, tag_length=cls.min_tag_size)
    assert short.tag_size == cls.min_tag_size and cls.tag_size == info.tag_size


@pytest.mark.parametrize("cls", AEADS, ids=ids)
@given(data=st.data())
def test_round_trip_and_tampering(cls, data):
    key = data.draw(st.binary(min_size=cls.key_size, max_size=cls.key_size))
    nonce = data.draw(st.binary(min_size=cls.nonce_size, max_size=cls.nonce_size))
    ad = data.draw(st.binary(max_size=100))
    pt = data.draw(st.binary(max_size=300))
    tag_length = data.draw(st.integers(cls.min_tag_size, cls.tag_size))
    options = {"tag_length": tag_length}
    if cls.second_key_size and data.draw(st.booleans()):
        options["second_key"] = data.draw(
            st.binary(min_size=cls.second_key_size, max_size=cls.second_key_size))
    a = cls(key, **options)
    sealed = a.encrypt(nonce, pt, ad)
    assert len(sealed) == len(pt) + tag_length
    assert a.decrypt(nonce, sealed, ad) == pt
    assert lwc.aead(cls.name, key, **options).decrypt(nonce, sealed, ad) == pt

    # Any single bit flip in the nonce, the associated data, the ciphertext or the tag.
    parts = {"nonce": nonce, "ad": ad, "ct": sealed[: len(pt)], "tag": sealed[len(pt) :]}
    part = data.draw(st.sampled_from([k for k, v in parts.items() if v]))
    bit = data.draw(st.integers(0, 8 * len(parts[part]) - 1))
    parts[part] = flip(parts[part], bit)
    bad_nonce, bad_ad, bad_sealed = parts["nonce"], parts["ad"], parts["ct"] + parts["tag"]
    with pytest.raises(lwc.InvalidTag):
        a.decrypt(bad_nonce, bad_sealed, bad_ad)
    buf = bytearray(b"\x55" * len(pt))
    with pytest.raises(lwc.InvalidTag):
        a.decrypt_into(bad_nonce, bad_sealed, bad_ad, buf)
    assert buf == bytes(len(pt))


@pytest.mark.parametrize("cls", AEADS, ids=ids)
@given(pt=st.binary(max_size=64), cut=st.integers(1, 16))
def test_truncated_or_extended_ciphertext_is_rejected(cls, pt, cut):
    a = cls(bytes(cls.key_size))
    nonce = bytes(cls.nonce_size)
    sealed = a.encrypt(nonce, pt)
    with pytest.raises(lwc.InvalidTag):
        a.decrypt(nonce, sealed[:-cut])
    with pytest.raises(lwc.InvalidTag):
        a.decrypt(nonce, sealed + bytes(cut))


@pytest.mark.parametrize("cls", AEADS, ids=ids)
def test_data_shorter_than_the_tag(cls):
    a = cls(bytes(cls.key_size))
    nonce = bytes(cls.nonce_size)
    for n in range(cls.tag_size):
        with pytest.raises(lwc.InvalidTag):
            a.decrypt(nonce, bytes(n))
        buf = bytearray(b"\x11" * 4)
        with pytest.raises(lwc.InvalidTag):
            a.decrypt_into(nonce, bytes(n), None, buf)
        assert buf == bytes(4)


@pytest.mark.parametrize("cls", MASKING, ids=[c.__name__ for c in MASKING])
@given(nonce=st.binary(min_size=16, max_size=16), mask=st.binary(min_size=16, max_size=16),
       pt=st.binary(max_size=80), ad=st.binary(max_size=40))
def test_nonce_masking_xors_the_nonce(cls, nonce, mask, pt, ad):
    key = bytes(range(cls.key_size))
    masked = cls(key, second_key=mask)
    plain = cls(key)
    xored = bytes(a ^ b for a, b in zip(nonce, mask))
    assert masked.encrypt(nonce, pt, ad) == plain.encrypt(xored, pt, ad)
    if any(mask):
        with pytest.raises(lwc.InvalidTag):
            plain.decrypt(nonce, masked.encrypt(nonce, pt, ad), ad)


@pytest.mark.parametrize("cls", [c for c in AEADS if c.min_tag_size < c.tag_size])
def test_truncated_tag_is_a_prefix(cls):
    key, nonce, pt = os.urandom(cls.key_size), os.urandom(cls.nonce_size), os.urandom(50)
    full = cls(key).encrypt(nonce, pt, b"ad")
    for t in range(cls.min_tag_size, cls.tag_size + 1):
        assert cls(key, t).encrypt(nonce, pt, b"ad") == full[: len(pt) + t]
        assert cls(key, tag_length=t).decrypt(nonce, full[: len(pt) + t], b"ad") == pt


BUFFER_KINDS = {
    "bytes": bytes,
    "bytearray": bytearray,
    "memoryview": memoryview,
    "numpy-u8": lambda b: np.frombuffer(b, dtype=np.uint8).copy(),
    "numpy-u32": lambda b: np.frombuffer(b, dtype=np.uint32).copy(),
    "array": lambda b: array.array("B", b),
    "memoryview-slice": lambda b: memoryview(b"xx" + b + b"yy")[2:-2],
}


@pytest.mark.parametrize("kind", BUFFER_KINDS)
def test_any_contiguous_buffer(kind):
    wrap = BUFFER_KINDS[kind]
    key, nonce, ad, pt = os.urandom(16), os.urandom(16), os.urandom(24), os.urandom(64)
    a = lwc.AsconAEAD128(key)
    expected = a.encrypt(nonce, pt, ad)
    assert lwc.AsconAEAD128(wrap(key)).encrypt(wrap(nonce), wrap(pt), wrap(ad)) == expected
    assert a.decrypt(wrap(nonce), wrap(expected), wrap(ad)) == pt
    out = np.zeros(len(expected), dtype=np.uint8)
    assert a.encrypt_into(wrap(nonce), wrap(pt), wrap(ad), out) == len(expected)
    assert out.tobytes() == expected


def test_non_contiguous_buffer_is_refused():
    a = lwc.AsconAEAD128(bytes(16))
    strided = memoryview(bytes(64))[::2]
    with pytest.raises((BufferError, TypeError, ValueError)):
        a.encrypt(bytes(16), strided)
    with pytest.raises((BufferError, TypeError, ValueError)):
        a.encrypt(bytes(16), np.zeros((8, 8), dtype=np.uint8)[:, 1])


def test_into_in_place_and_overlap():
    a = lwc.Ascon128a(os.urandom(16))
    nonce, pt = os.urandom(16), os.urandom(100)
    expected = a.encrypt(nonce, pt, b"h")
    buf = bytearray(pt) + bytearray(16)
    assert a.encrypt_into(nonce, memoryview(buf)[:100], b"h", buf) == 116
    assert buf == expected
    assert a.decrypt_into(nonce, buf, b"h", memoryview(buf)[:100]) == 100
    assert buf[:100] == pt
    shifted = bytearray(200)
    shifted[1:101] = pt
    with pytest.raises(ValueError, match="overlap"):
        a.encrypt_into(nonce, memoryview(shifted)[1:101], b"h", memoryview(shifted)[0:116])


def test_into_sizes_and_writability():
    a = lwc.AsconAEAD128(bytes(16))
    nonce = bytes(16)
    with pytest.raises(ValueError, match="26 bytes"):
        a.encrypt_into(nonce, bytes(10), None, bytearray(25))
    with pytest.raises(ValueError, match="10 bytes"):
        a.decrypt_into(nonce, a.encrypt(nonce, bytes(10)), None, bytearray(11))
    with pytest.raises(TypeError, match="writable"):
        a.encrypt_into(nonce, bytes(10), None, bytes(26))
    with pytest.raises(TypeError, match="writable"):
        a.encrypt_into(nonce, bytes(10), None, "x" * 26)
    with pytest.raises(TypeError):
        a.encrypt_into(nonce, bytes(10), None, None)


@pytest.mark.parametrize("cls", AEADS, ids=ids)
def test_bad_input(cls):
    key, nonce = bytes(cls.key_size), bytes(cls.nonce_size)
    a = cls(key)
    for bad in ["x" * cls.key_size, None, 16, [0] * cls.key_size]:
        with pytest.raises(TypeError):
            cls(bad)
    with pytest.raises(ValueError, match=f"key must be {cls.key_size} bytes, got {cls.key_size - 1}"):
        cls(key[:-1])
    with pytest.raises(ValueError, match=f"{cls.key_size} bytes"):
        cls(key + b"\0")
    with pytest.raises(ValueError, match=f"nonce must be {cls.nonce_size} bytes, got {cls.nonce_size - 1}"):
        a.encrypt(nonce[:-1], b"data")
    with pytest.raises(ValueError, match=f"nonce must be {cls.nonce_size} bytes"):
        a.decrypt(nonce + b"\0", bytes(32))
    for args in [("x" * cls.nonce_size, b"d"), (nonce, "data"), (nonce, b"d", "ad"), (None, b"d"), (nonce, None)]:
        with pytest.raises(TypeError):
            a.encrypt(*args)
        with pytest.raises(TypeError):
            a.decrypt(*args)
    for t in [cls.min_tag_size - 1, cls.tag_size + 1, 0, -1, 2**70]:
        with pytest.raises(ValueError, match="tag_length must be"):
            cls(key, tag_length=t)
    for t in [16.0, "16", True]:
        with pytest.raises(TypeError):
            cls(key, tag_length=t)
    if cls.second_key_size:
        with pytest.raises(ValueError, match=f"second_key must be {cls.second_key_size} bytes"):
            cls(key, second_key=bytes(cls.second_key_size - 1))
        with pytest.raises(TypeError):
            cls(key, second_key="x" * cls.second_key_size)
    else:
        with pytest.raises(TypeError, match="second_key"):
            cls(key, second_key=bytes(16))


def test_base_class_and_generic_access():
    with pytest.raises(TypeError, match="base class"):
        lwc.AEAD(bytes(16))
    key = bytes(16)
    for spelling in ["ascon-aead128", "ascon_aead128", "ASCON-AEAD128", "AsconAEAD128"]:
        assert type(lwc.aead(spelling, key)) is lwc.AsconAEAD128
    assert lwc.aead("ascon-128a", key, tag_length=16).tag_size == 16
    with pytest.raises(ValueError, match="unknown AEAD"):
        lwc.aead("aes-gcm", key)
    with pytest.raises(ValueError, match="not an AEAD"):
        lwc.aead("ascon-hash256", key)
    with pytest.raises(TypeError):
        lwc.aead(b"ascon-aead128", key)


def test_large_inputs_round_trip():
    # Above the GIL-release threshold, and not a multiple of any rate.
    n = 3 * lwc._lwc.GIL_RELEASE_THRESHOLD + 5
    for cls in AEADS:
        a = cls(os.urandom(cls.key_size))
        nonce, pt, ad = os.urandom(cls.nonce_size), os.urandom(n), os.urandom(n // 2)
        sealed = a.encrypt(nonce, pt, ad)
        assert a.decrypt(nonce, sealed, ad) == pt
        with pytest.raises(lwc.InvalidTag):
            a.decrypt(nonce, flip(sealed, 8 * n - 1), ad)
