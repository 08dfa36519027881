# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.stream: the documented vectors, file-object behaviour, tampering, key files, and the
lwc tool on the other side when one is found (LWC_BIN, PATH, or a build folder)."""

import gc
import glob
import io
import os
import random
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import lwc
import lwc.stream

ROOT = Path(__file__).resolve().parents[2]
HEADER, TAG = 60, 16
KEY = bytes(range(32))


def documented_vectors():
    text = (ROOT / "docs" / "stream-format.md").read_text()
    out = []
    for block in text.split("```text\n")[1:]:
        fields, key = {}, None
        for line in block.split("```")[0].splitlines():
            if not line.strip():
                continue
            if not line.startswith(" "):
                key, _, value = line.partition(":")
                fields[key] = value.strip()
            elif not line.strip().startswith("("):
                fields[key] += line.strip()
        out.append(fields)
    return out


def encrypt(data, pieces=None, **kw):
    buf = io.BytesIO()
    with lwc.stream.open(buf, "wb", key=kw.pop("key", KEY), **kw) as f:
        if pieces is None:
            f.write(data)
        else:
            pos = 0
            while pos < len(data):
                n = pieces()
                f.write(data[pos:pos + n])
                pos += n
    return buf.getvalue()


def decrypt(ct, key=KEY, size=-1):
    with lwc.stream.open(io.BytesIO(ct), "rb", key=key) as f:
        if size == -1:
            return f.read()
        parts = []
        while True:
            b = f.read(size() if callable(size) else size)
            if not b:
                assert f.finished
                return b"".join(parts)
            parts.append(b)


def test_documented_vectors():
    vectors = documented_vectors()
    assert len(vectors) == 4
    rng = random.Random(1)
    for v in vectors:
        assert v["key file"] == "lwc-key-v1 " + KEY.hex()
        pt = b"" if v["plaintext"] == "(none)" else bytes.fromhex(v["plaintext"])
        ct = bytes.fromhex(v["ciphertext"])
        assert decrypt(ct) == pt
        assert decrypt(ct, size=lambda: rng.randint(1, 100)) == pt
        bad = bytearray(ct)
        bad[-1] ^= 1
        with pytest.raises(lwc.InvalidTag, match="failed authentication"):
            decrypt(bytes(bad))


@pytest.mark.parametrize("alg", lwc.stream.algorithms())
def test_every_algorithm_round_trips_in_random_pieces(alg):
    rng = random.Random(alg)
    for n in (0, 1, 63, 64, 65, 3000):
        data = rng.randbytes(n)
        ct = encrypt(data, pieces=lambda: rng.randint(0, 90), algorithm=alg, chunk_size=64)
        tag = next(a.tag_size for a in lwc.algorithms() if a.name == alg)
        assert len(ct) == HEADER + n + tag * (n // 64 + 1)
        assert decrypt(ct, size=lambda: rng.randint(1, 200)) == data
        assert decrypt(ct) == data


def test_algorithms_are_the_admitted_aeads():
    names = lwc.stream.algorithms()
    assert "ascon-aead128" in names and "grain-128aead" not in names
    assert all(lwc.algorithms()[[a.name for a in lwc.algorithms()].index(n)].kind == "aead"
               for n in names)
    with pytest.raises(ValueError, match="nonce"):
        lwc.stream.open(io.BytesIO(), "wb", key=KEY, algorithm="grain-128aead")
    with pytest.raises(ValueError, match="chunk_size"):
        lwc.stream.open(io.BytesIO(), "wb", key=KEY, chunk_size=1000)
    with pytest.raises(ValueError, match="32 bytes"):
        lwc.stream.open(io.BytesIO(), "wb", key=b"short")
    with pytest.raises(TypeError):
        lwc.stream.open(io.BytesIO(), "wb", key="a string")
    with pytest.raises(ValueError, match="mode"):
        lwc.stream.open(io.BytesIO(), "ab", key=KEY)


def test_large_stream_in_random_pieces_equals_one_shot():
    rng = random.Random(7)
    data = rng.randbytes(3 << 20)
    ct = encrypt(data, pieces=lambda: rng.randint(1, 300000), chunk_size=4096)
    assert decrypt(ct, size=lambda: rng.randint(1, 300000)) == data
    assert decrypt(ct) == data


def test_behaves_like_a_file(tmp_path):
    text = b"".join(b"line %d\n" % i for i in range(5000))
    path = tmp_path / "t.lwc"
    with lwc.stream.open(path, "wb", key=KEY) as f:
        assert f.writable() and not f.readable()
        f.write(text[:100])
        f.write(memoryview(text)[100:])
    assert f.closed
    with pytest.raises(ValueError):
        f.write(b"more")
    with lwc.stream.open(path, "rb", key=KEY) as f:
        assert f.readable() and not f.writable()
        assert f.read(5) == b"line "
        assert f.read(0) == b""
        assert next(iter(f)) == b"0\n"
        assert f.readline() == b"line 1\n"
        rest = list(f)
        assert rest[-1] == b"line 4999\n" and len(rest) == 4998
        assert f.read() == b"" and f.read(10) == b""
    with pytest.raises(ValueError):
        f.read(1)
    with lwc.stream.open(str(path), "rb", key=KEY) as f:
        b = bytearray(10)
        assert f.readinto(b) == 10 and bytes(b) == text[:10]
    # shutil.copyfileobj both ways
    src, enc, out = io.BytesIO(text), io.BytesIO(), io.BytesIO()
    w = lwc.stream.open(enc, "wb", key=KEY)
    shutil.copyfileobj(src, w)
    w.close()
    w.close()  # closing twice is fine
    shutil.copyfileobj(lwc.stream.open(io.BytesIO(enc.getvalue()), "rb", key=KEY), out)
    assert out.getvalue() == text


def test_a_with_block_left_by_an_exception_leaves_a_refused_file():
    buf = io.BytesIO()
    with pytest.raises(RuntimeError):
        with lwc.stream.open(buf, "wb", key=KEY) as f:
            f.write(b"x" * 200000)
            raise RuntimeError("stop")
    with pytest.raises(lwc.InvalidTag, match="truncated"):
        decrypt(buf.getvalue())


def test_a_writer_that_was_not_closed_never_completes_the_stream():
    data = random.Random(4).randbytes(2 << 20)  # several batches: some chunks are written

    def dropped():
        buf = io.BytesIO()
        w = lwc.stream.open(buf, "wb", key=KEY, chunk_size=1024)
        w.write(data)
        del w  # the last reference
        return buf

    def in_a_cycle():
        buf = io.BytesIO()
        w = lwc.stream.open(buf, "wb", key=KEY, chunk_size=1024)
        w.write(data)
        w.itself = w
        del w
        gc.collect()
        return buf

    def left_by_an_exception():
        buf = io.BytesIO()

        def work():
            w = lwc.stream.open(buf, "wb", key=KEY, chunk_size=1024)  # no with block
            w.write(data)
            raise KeyError("stop")

        with pytest.raises(KeyError):
            work()
        return buf

    for make in (dropped, in_a_cycle, left_by_an_exception):
        buf = make()
        gc.collect()
        assert len(buf.getvalue()) > HEADER, make.__name__
        with pytest.raises(lwc.InvalidTag, match="truncated"):
            decrypt(buf.getvalue())


def test_a_writer_still_open_at_interpreter_exit_is_not_completed(tmp_path):
    script = textwrap.dedent("""
        import lwc.stream
        key = bytes(range(32))
        f = open("given.lwc", "wb")
        w = lwc.stream.StreamWriter(f, key=key, chunk_size=1024)
        w.write(b"x" * (2 << 20))
        p = lwc.stream.open("path.lwc", "wb", key=key, chunk_size=1024)
        p.write(b"y" * (2 << 20))
    """)
    (tmp_path / "path.lwc").write_bytes(b"old content")
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
    given = (tmp_path / "given.lwc").read_bytes()
    assert len(given) > HEADER
    with pytest.raises(lwc.InvalidTag, match="truncated"):
        decrypt(given)
    assert (tmp_path / "path.lwc").read_bytes() == b"old content"
    assert sorted(os.listdir(tmp_path)) == ["given.lwc", "path.lwc"]


def test_tampering_is_refused_at_the_right_point():
    chunk = 64
    slot = chunk + TAG
    data = random.Random(3).randbytes(3 * chunk + 20)
    ct = encrypt(data, chunk_size=chunk)
    for n in range(len(ct)):
        with pytest.raises(lwc.InvalidTag) as e:
            decrypt(ct[:n], size=lambda: 7)
        if n == 0:
            assert "empty" in str(e.value)
        elif n < 8:
            assert "not an lwc" in str(e.value)
        elif n <= HEADER or (n - HEADER) % slot < TAG:
            assert "truncated" in str(e.value)
        else:
            assert "failed authentication" in str(e.value)
    for i in range(0, len(ct), 3):
        bad = bytearray(ct)
        bad[i] ^= 4
        with pytest.raises(lwc.InvalidTag):
            decrypt(bytes(bad))
    h = ct[:HEADER]
    c = [ct[HEADER + i * slot:HEADER + (i + 1) * slot] for i in range(4)]
    for chunks in ([c[1], c[0], c[2], c[3]], [c[0], c[0], c[1], c[2], c[3]], [c[0], c[2], c[3]],
                   [c[0], c[1], c[2]], c + [b"\0"], c + [c[3]], c + [ct]):
        with pytest.raises(lwc.InvalidTag):
            decrypt(h + b"".join(chunks))
    with pytest.raises(lwc.InvalidTag, match="wrong key"):
        decrypt(ct, key=bytes(32))
    with pytest.raises(lwc.InvalidTag, match="not an lwc"):
        decrypt(b"plain text, not a stream" * 5)


def test_a_later_failure_comes_after_verified_data_only():
    data = random.Random(5).randbytes((4 << 20) + 1000)
    ct = bytearray(encrypt(data))
    ct[-1] ^= 1
    got = bytearray()
    with lwc.stream.open(io.BytesIO(bytes(ct)), "rb", key=KEY) as f:
        with pytest.raises(lwc.InvalidTag):
            while True:
                b = f.read(65536)
                if not b:
                    break
                got += b
        assert not f.finished
    assert 0 < len(got) < len(data) and data.startswith(bytes(got))


def test_key_files(tmp_path):
    k = lwc.stream.generate_key()
    assert len(k) == 32 and k != lwc.stream.generate_key()
    p = tmp_path / "key"
    lwc.stream.save_key(p, k)
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o600
    assert p.read_text() == "lwc-key-v1 " + k.hex() + "\n"
    assert lwc.stream.load_key(p) == k
    with pytest.raises(OSError, match="exists"):
        lwc.stream.save_key(p, k)
    lwc.stream.save_key(p, KEY, overwrite=True)
    assert lwc.stream.load_key(str(p)) == KEY
    os.chmod(p, 0o644)
    with pytest.raises(ValueError, match="chmod 600"):
        lwc.stream.load_key(p)
    for name, text, message in [("short", "lwc-key-v1 " + "00" * 31, "found 62"),
                                ("hex", "lwc-key-v1 " + "g" * 64, "not a hex digit"),
                                ("two", ("lwc-key-v1 " + "00" * 32 + "\n") * 2, "more than one"),
                                ("raw", "\x01" * 32, "not an lwc key file")]:
        q = tmp_path / name
        q.write_text(text)
        os.chmod(q, 0o600)
        with pytest.raises(ValueError, match=message):
            lwc.stream.load_key(q)


def test_file_helpers(tmp_path):
    data = random.Random(9).randbytes(300001)
    (tmp_path / "p").write_bytes(data)
    lwc.stream.encrypt_file(tmp_path / "p", tmp_path / "p.lwc", key=KEY, algorithm="xoodyak")
    lwc.stream.decrypt_file(tmp_path / "p.lwc", tmp_path / "out", key=KEY)
    assert (tmp_path / "out").read_bytes() == data
    assert decrypt((tmp_path / "p.lwc").read_bytes()) == data
    with pytest.raises(OSError, match="exists"):
        lwc.stream.decrypt_file(tmp_path / "p.lwc", tmp_path / "out", key=KEY)
    ct = (tmp_path / "p.lwc").read_bytes()
    (tmp_path / "bad.lwc").write_bytes(ct[:-1])
    before = sorted(os.listdir(tmp_path))
    with pytest.raises(lwc.InvalidTag):
        lwc.stream.decrypt_file(tmp_path / "bad.lwc", tmp_path / "out2", key=KEY)
    assert sorted(os.listdir(tmp_path)) == before


def find_cli():
    candidates = [os.environ.get("LWC_BIN"), shutil.which("lwc")]
    candidates += sorted(glob.glob(str(ROOT / "build" / "*" / "cli" / "lwc")))
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    return None


@pytest.mark.skipif(find_cli() is None, reason="no lwc tool built (set LWC_BIN)")
def test_interoperates_with_the_cli(tmp_path):
    cli = find_cli()
    keyf = tmp_path / "key"
    lwc.stream.save_key(keyf, KEY)
    data = random.Random(11).randbytes(150000)
    with lwc.stream.open(tmp_path / "a.lwc", "wb", key=KEY, algorithm="ascon-128a") as f:
        f.write(data)
    r = subprocess.run([cli, "decrypt", "-k", str(keyf), str(tmp_path / "a.lwc")],
                       capture_output=True, check=True)
    assert r.stdout == data
    (tmp_path / "p").write_bytes(data)
    subprocess.run([cli, "encrypt", "-k", str(keyf), "-a", "acorn-128", "-o",
                    str(tmp_path / "b.lwc"), str(tmp_path / "p")], check=True)
    with lwc.stream.open(tmp_path / "b.lwc", "rb", key=lwc.stream.load_key(keyf)) as f:
        assert f.read() == data


def test_readme_stream_example_runs(tmp_path, monkeypatch):
    import re
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"<!-- python-stream:begin -->(.*?)<!-- python-stream:end -->", text, re.S)
    assert section, "README has no python-stream section"
    blocks = re.findall(r"```python\n(.*?)```", section.group(1), re.S)
    assert blocks
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    assert (tmp_path / "notes.txt").read_bytes() == b"first line\n" + b"more data\n" * 1000
