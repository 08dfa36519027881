# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every KAT file the C++ suite uses (tests/vectors/**), driven through the Python API."""

from __future__ import annotations

import pytest

import lwc
from conftest import KatRecord, all_vector_files, files_for, read_kat

CASES = [(info, path) for info in lwc.algorithms() for path in files_for(info.name)]


def test_every_algorithm_has_a_vector_file():
    for info in lwc.algorithms():
        assert files_for(info.name), f"no KAT file for {info.name}"


def test_every_vector_file_belongs_to_an_algorithm():
    for path in all_vector_files():
        assert path.stem.split(".")[0] in lwc.algorithms_available, path


def run_aead(info: lwc.AlgorithmInfo, r: KatRecord) -> None:
    cls = getattr(lwc, info.python_name)
    key, nonce, ad = r.bytes("Key"), r.bytes("Nonce"), r.bytes("AD")
    ct = r.bytes("CT")
    if "Tag" in r:
        tag = r.bytes("Tag")
        if "TagLen" in r:
            assert int(r["TagLen"]) == 8 * len(tag)
    else:  # CT holds ciphertext || full tag
        ct, tag = ct[: -info.tag_size], ct[-info.tag_size :]
    options = {"tag_length": len(tag)}
    if "SecondKey" in r:
        options["second_key"] = r.bytes("SecondKey")
    aead = cls(key, **options)
    must_fail = r.get("TestPassed") == "False"
    decrypt_only = r.get("Direction") == "decrypt" or "TestPassed" in r

    if not decrypt_only:
        pt = r.bytes("PT")
        assert aead.encrypt(nonce, pt, ad) == ct + tag, f"record at line {r.line}"
        buf = bytearray(len(pt) + len(tag))
        assert aead.encrypt_into(nonce, pt, ad, buf) == len(buf)
        assert buf == ct + tag
    out = bytearray(b"\xaa" * len(ct))
    if must_fail:
        with pytest.raises(lwc.InvalidTag):
            aead.decrypt(nonce, ct + tag, ad)
        with pytest.raises(lwc.InvalidTag):
            aead.decrypt_into(nonce, ct + tag, ad, out)
        assert out == bytes(len(ct)), f"output not wiped, record at line {r.line}"
    else:
        assert aead.decrypt(nonce, ct + tag, ad).hex().upper() == r["PT"], f"line {r.line}"
        assert aead.decrypt_into(nonce, ct + tag, ad, out) == len(ct)
        assert out.hex().upper() == r["PT"]


def run_hash(info: lwc.AlgorithmInfo, r: KatRecord) -> None:
    cls = getattr(lwc, info.python_name)
    keyed = info.key_size != 0
    msg = r.bytes("Msg")
    expected = r.bytes("Tag" if keyed else "MD")
    if "OutLen" in r:
        assert int(r["OutLen"]) == 8 * len(expected)
    options = {"customization": r.bytes("Z")} if "Z" in r else {}

    def make(data: bytes = b"") -> lwc.HashBase:
        return cls(r.bytes("Key"), data) if keyed else cls(data, **options)

    def output(h: lwc.HashBase) -> bytes:
        if h.digest_size:
            assert len(expected) <= h.digest_size
            return h.digest()[: len(expected)]
        return h.digest(len(expected))

    assert output(make(msg)) == expected, f"record at line {r.line}"
    # The same through update() in three pieces, and through the generic constructor.
    h = make()
    third = len(msg) // 3
    h.update(msg[:third])
    h.update(memoryview(msg)[third : 2 * third])
    h.update(bytearray(msg[2 * third :]))
    assert output(h) == expected
    generic = lwc.new(info.name, msg, **({"key": r.bytes("Key")} if keyed else options))
    assert output(generic) == expected
    if not h.digest_size:  # XOF/PRF: the stream read in two pieces
        half = len(expected) // 2
        assert h.read(half) + h.read(len(expected) - half) == expected
    if keyed and 4 <= len(expected) <= (info.max_output_size or 64):
        # The KAT's length is this test's configuration (tag_length=), not the tag's.
        make(msg).verify(expected, tag_length=len(expected))
        forged = expected[:-1] + bytes([expected[-1] ^ 1])
        with pytest.raises(lwc.InvalidTag):
            make(msg).verify(forged, tag_length=len(expected))


@pytest.mark.parametrize(
    "info,path", CASES, ids=[f"{p.name}" for _, p in CASES]
)
def test_kat_file(info: lwc.AlgorithmInfo, path):
    records = read_kat(path)
    assert records, f"{path} has no records"
    run = run_aead if info.kind == "aead" else run_hash
    for r in records:
        run(info, r)
