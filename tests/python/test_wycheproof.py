# SPDX-License-Identifier: MIT OR Apache-2.0
"""Project Wycheproof's Ascon AEAD vectors (tests/vectors/wycheproof, 828 vectors) through the
Python API: the pyca-style AEAD classes and the batch functions. Valid vectors must encrypt to
their ciphertext and tag and decrypt back (also as one batch on every CPU backend); invalid ones must raise InvalidTag with the output
buffer wiped, or ValueError where a size is one lwc does not take."""

from __future__ import annotations

import json

import pytest

import lwc
from conftest import VECTORS

WYCHEPROOF = VECTORS / "wycheproof"

# The file's "algorithm" field -> the lwc name, and the published vector count.
FILES = {
    "ascon128_test.json": ("ASCON128", "ascon-128", 192),
    "ascon128a_test.json": ("ASCON128A", "ascon-128a", 192),
    "ascon80pq_test.json": ("ASCON80PQ", "ascon-80pq", 192),
    "ascon_sp800_232_aead128_test.json": ("ASCON-AEAD128", "ascon-aead128", 252),
}


def load(filename: str):
    json_name, name, count = FILES[filename]
    doc = json.loads((WYCHEPROOF / filename).read_text())
    assert doc["algorithm"] == json_name
    assert doc["schema"] == "aead_test_schema_v1.json"
    info = next(a for a in lwc.algorithms() if a.name == name)
    cases = []
    for group in doc["testGroups"]:
        assert group["type"] == "AeadTest"
        tag_bytes = group["tagSize"] // 8
        supported = (
            group["keySize"] == 8 * info.key_size
            and group["ivSize"] == 8 * info.nonce_size
            and group["tagSize"] % 8 == 0
            and info.min_tag_size <= tag_bytes <= info.tag_size
        )
        for t in group["tests"]:
            assert t["result"] in ("valid", "invalid"), t["tcId"]
            cases.append((supported, t))
    assert len(cases) == count == doc["numberOfTests"]
    return name, cases


def test_every_file_is_run():
    assert sorted(p.name for p in WYCHEPROOF.glob("*.json")) == sorted(FILES)
    assert sum(c for _, _, c in FILES.values()) == 828


@pytest.mark.parametrize("filename", sorted(FILES))
def test_aead_classes(filename):
    name, cases = load(filename)
    for supported, t in cases:
        key, nonce, ad = (bytes.fromhex(t[k]) for k in ("key", "iv", "aad"))
        msg, ct, tag = (bytes.fromhex(t[k]) for k in ("msg", "ct", "tag"))
        where = f"{filename} tcId {t['tcId']}"
        if not supported:
            assert t["result"] == "invalid", where
            with pytest.raises(ValueError):
                lwc.aead(name, key, tag_length=len(tag)).decrypt(nonce, ct + tag, ad)
            continue
        aead = lwc.aead(name, key, tag_length=len(tag))
        produced = aead.encrypt(nonce, msg, ad)
        out = bytearray(b"\xa5" * len(ct))
        if t["result"] == "valid":
            assert produced == ct + tag, where
            assert aead.decrypt(nonce, ct + tag, ad) == msg, where
            assert aead.decrypt_into(nonce, ct + tag, ad, out) == len(ct)
            assert out == msg, where
        else:
            assert produced != ct + tag, where
            with pytest.raises(lwc.InvalidTag):
                aead.decrypt(nonce, ct + tag, ad)
            with pytest.raises(lwc.InvalidTag):
                aead.decrypt_into(nonce, ct + tag, ad, out)
            assert out == bytes(len(ct)), f"output not wiped: {where}"


@pytest.mark.parametrize("filename", sorted(FILES))
def test_batch_decrypt(filename):
    name, cases = load(filename)
    cases = [t for supported, t in cases if supported and len(t["tag"]) == 32]
    keys = [bytes.fromhex(t["key"]) for t in cases]
    nonces = [bytes.fromhex(t["iv"]) for t in cases]
    ads = [bytes.fromhex(t["aad"]) for t in cases]
    cts = [bytes.fromhex(t["ct"]) for t in cases]
    tags = [bytes.fromhex(t["tag"]) for t in cases]
    for backend in lwc.batch.backends():
        pts, ok = lwc.batch.decrypt(name, keys, nonces, cts, ads, tags=tags, backend=backend)
        for t, p, o in zip(cases, pts, ok):
            where = f"{filename} tcId {t['tcId']} on {backend}"
            if t["result"] == "valid":
                assert o and p == bytes.fromhex(t["msg"]), where
            else:
                assert not o and p is None, where
