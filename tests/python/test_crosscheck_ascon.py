# SPDX-License-Identifier: MIT OR Apache-2.0
"""Cross-check against the `ascon` package from PyPI (the designers' pure-Python Ascon v1.2
code, a test dependency) on random inputs of random lengths. It is first checked against our
KAT files, so that a mismatch later points at lwc and not at the oracle."""

from __future__ import annotations

import ascon
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lwc
from conftest import files_for, read_kat

AEAD_VARIANTS = {"ascon-128": "Ascon-128", "ascon-128a": "Ascon-128a", "ascon-80pq": "Ascon-80pq"}
HASH_VARIANTS = {"ascon-hash": "Ascon-Hash", "ascon-hasha": "Ascon-Hasha",
                 "ascon-xof": "Ascon-Xof", "ascon-xofa": "Ascon-Xofa"}
MAC_VARIANTS = {"ascon-mac": "Ascon-Mac", "ascon-maca": "Ascon-Maca", "ascon-prf": "Ascon-Prf",
                "ascon-prfa": "Ascon-Prfa", "ascon-prfshort": "Ascon-PrfShort"}


def info(name: str) -> lwc.AlgorithmInfo:
    return next(i for i in lwc.algorithms() if i.name == name)


def sample(records: list, k: int = 12) -> list:
    """First, last and evenly spread records: empty and long inputs of both kinds."""
    step = max(1, len(records) // k)
    return records[::step] + records[-1:]


@pytest.mark.parametrize("name", AEAD_VARIANTS)
def test_oracle_reproduces_our_aead_kats(name):
    (path,) = files_for(name)
    for r in sample(read_kat(path)):
        key, nonce, ad, pt = r.bytes("Key"), r.bytes("Nonce"), r.bytes("AD"), r.bytes("PT")
        assert ascon.encrypt(key, nonce, ad, pt, AEAD_VARIANTS[name]) == r.bytes("CT")
        assert ascon.decrypt(key, nonce, ad, r.bytes("CT"), AEAD_VARIANTS[name]) == pt


@pytest.mark.parametrize("name", {**HASH_VARIANTS, **MAC_VARIANTS})
def test_oracle_reproduces_our_hash_kats(name):
    (path,) = files_for(name)
    for r in sample(read_kat(path)):
        if name in MAC_VARIANTS:
            tag = r.bytes("Tag")
            got = ascon.mac(r.bytes("Key"), r.bytes("Msg"), MAC_VARIANTS[name], len(tag))
            assert got == tag
        else:
            assert ascon.hash(r.bytes("Msg"), HASH_VARIANTS[name], len(r.bytes("MD"))) == r.bytes("MD")


@pytest.mark.parametrize("name", AEAD_VARIANTS)
@settings(max_examples=150)
@given(data=st.data())
def test_aead_matches_oracle(name, data):
    i = info(name)
    key = data.draw(st.binary(min_size=i.key_size, max_size=i.key_size))
    nonce = data.draw(st.binary(min_size=16, max_size=16))
    ad = data.draw(st.binary(max_size=90))
    pt = data.draw(st.binary(max_size=200))
    ours = lwc.aead(name, key).encrypt(nonce, pt, ad)
    assert ours == ascon.encrypt(key, nonce, ad, pt, AEAD_VARIANTS[name])
    assert ascon.decrypt(key, nonce, ad, ours, AEAD_VARIANTS[name]) == pt


@pytest.mark.parametrize("name", HASH_VARIANTS)
@settings(max_examples=150)
@given(msg=st.binary(max_size=200), length=st.integers(1, 100))
def test_hash_matches_oracle(name, msg, length):
    h = lwc.new(name, msg)
    if h.digest_size:
        assert h.digest() == ascon.hash(msg, HASH_VARIANTS[name], 32)
    else:
        assert h.digest(length) == ascon.hash(msg, HASH_VARIANTS[name], length)


@pytest.mark.parametrize("name", MAC_VARIANTS)
@settings(max_examples=100)
@given(data=st.data())
def test_mac_matches_oracle(name, data):
    i = info(name)
    key = data.draw(st.binary(min_size=16, max_size=16))
    msg = data.draw(st.binary(max_size=i.max_input_size if i.max_input_size is not None else 200))
    length = 16 if i.max_output_size else data.draw(st.integers(1, 64))
    h = lwc.new(name, msg, key=key)
    ours = h.digest() if h.digest_size else h.digest(length)
    assert ours == ascon.mac(key, msg, MAC_VARIANTS[name], length)
