#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""End-to-end tests of the lwc command-line tool, run by ctest (tests/cli/CMakeLists.txt).

Environment: LWC_BIN (the lwc binary), LWC_SOURCE_DIR (the repository, for the format
document), LWC_BUILD_DIR and CMAKE_COMMAND (for the install test), LWC_SANITIZED=1 in an
ASan/UBSan build (skips the memory bound, which the sanitizers' shadow memory breaks).

    python3 test_cli.py [TestClass ...]         run tests
    python3 test_cli.py --print-vectors         print the vectors of docs/stream-format.md
"""

import hashlib
import json
import os
import random
import pty
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lwc_ref  # noqa: E402

LWC = os.environ.get("LWC_BIN", "lwc")
SOURCE_DIR = os.environ.get(
    "LWC_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SANITIZED = os.environ.get("LWC_SANITIZED") == "1"
CHUNK = 65536
TAG = 16
HEADER = 60


def lwc(*args, stdin=None, input=None, cwd=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=None):
    return subprocess.run([LWC, *args], stdin=stdin, input=input, cwd=cwd, stdout=stdout,
                          stderr=stderr, timeout=600, env=None if env is None else dict(os.environ, **env))


def write(path, data, mode=None):
    with open(path, "wb") as f:
        f.write(data)
    if mode is not None:
        os.chmod(path, mode)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def key_bytes(path):
    return bytes.fromhex(read(path).decode().split()[1])


class Case(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lwc-cli-test-")
        self.dir = self._tmp.name
        self.key = self.path("key")
        r = lwc("keygen", "-o", self.key)
        self.assertEqual(r.returncode, 0, r.stderr)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertFails(self, r, message, code=None):
        """A clear failure: non-zero status, 'lwc: ...' on stderr mentioning `message`."""
        err = r.stderr.decode(errors="replace")
        self.assertNotEqual(r.returncode, 0, "expected a failure, stderr: " + err)
        if code is not None:
            self.assertEqual(r.returncode, code, err)
        self.assertIn("lwc", err)
        self.assertRegex(err, message)

    def assertNoOutput(self, out, before):
        """`out` was not created and nothing else appeared in the directory."""
        self.assertFalse(os.path.exists(out), out + " must not exist")
        self.assertEqual(sorted(os.listdir(self.dir)), before)

    def encrypt(self, data, *extra, key=None, env=None):
        src, dst = self.path("plain"), self.path("plain.lwc")
        for p in (src, dst):
            if os.path.exists(p):
                os.remove(p)
        write(src, data)
        r = lwc("encrypt", "-k", key or self.key, "-o", dst, *extra, src, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, b"")
        return read(dst)


# ---- the Python reference itself ---------------------------------------------------------

def read_kat(path, limit):
    entries, cur = [], {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                if cur:
                    entries.append(cur)
                    cur = {}
                if len(entries) >= limit:
                    break
                continue
            k, _, v = line.partition("=")
            cur[k.strip()] = v.strip()
    if cur and len(entries) < limit:
        entries.append(cur)
    return entries


class ReferenceTest(unittest.TestCase):
    """lwc_ref.py must agree with the published known-answer tests before it judges lwc."""

    def kat(self, name):
        return read_kat(os.path.join(SOURCE_DIR, "tests", "vectors", "ascon", name + ".txt"),
                        1089)[::23]

    def test_aeads(self):
        for name in lwc_ref.AEADS:
            entries = self.kat(name)
            self.assertGreater(len(entries), 40)
            for e in entries:
                key, nonce, pt, ad, ct = (bytes.fromhex(e[x]) for x in ("Key", "Nonce", "PT", "AD", "CT"))
                self.assertEqual(lwc_ref.aead_encrypt(name, key, nonce, ad, pt), ct, (name, e["Count"]))
                self.assertEqual(lwc_ref.aead_decrypt(name, key, nonce, ad, ct), pt)
                bad = bytearray(ct)
                bad[len(bad) // 2] ^= 4
                self.assertIsNone(lwc_ref.aead_decrypt(name, key, nonce, ad, bytes(bad)))

    def test_sponges(self):
        for name in lwc_ref.SPONGES:
            entries = self.kat(name)
            self.assertGreater(len(entries), 40)
            for e in entries:
                md = bytes.fromhex(e["MD"])
                got = lwc_ref.sponge(name, bytes.fromhex(e["Msg"]), len(md), bytes.fromhex(e.get("Z", "")))
                self.assertEqual(got, md, (name, e["Count"]))


# ---- the format document's vectors -------------------------------------------------------

VECTOR_SPECS = [
    # name, algorithm, chunk exponent, plaintext, salt
    ("aead128-three-chunks", "ascon-aead128", 6,
     b"lwc stream format, test vector one: 150 bytes of ASCII text cut into chunks of 64 bytes, "
     b"which makes two full chunks and a last chunk of 22 bytes....\n", bytes(range(0x20, 0x40))),
    ("aead128-exact-chunk", "ascon-aead128", 6, bytes(range(64)), bytes(range(0x40, 0x60))),
    ("aead128-empty", "ascon-aead128", 16, b"", bytes(range(0x60, 0x80))),
    ("80pq-two-chunks", "ascon-80pq", 6, b"Ascon-80pq: a 20-byte key derived from the same master key; 70 bytes.\n",
     bytes(range(0x80, 0xA0))),
]
VECTOR_KEY = bytes(range(32))


def wrap_hex(b, indent):
    h = b.hex()
    if not h:
        return "(none)"
    lines = [h[i:i + 64] for i in range(0, len(h), 64)]
    return ("\n" + " " * indent).join(lines)


def format_vectors():
    blocks = []
    for name, alg, shift, pt, salt in VECTOR_SPECS:
        ct = lwc_ref.stream_encrypt(VECTOR_KEY, pt, alg, shift, salt)
        check, key, prefix = lwc_ref.derive(VECTOR_KEY, ct[:44], alg)
        nonce0 = lwc_ref.chunk_nonce(prefix, 0, len(pt) < (1 << shift))
        rows = [
            ("vector", name),
            ("algorithm", "%s (id %d)" % (alg, lwc_ref.ALGORITHM_IDS[alg])),
            ("chunk size", "%d (exponent %d)" % (1 << shift, shift)),
            ("key file", "lwc-key-v1 " + VECTOR_KEY.hex()),
            ("salt", salt.hex()),
            ("plaintext", wrap_hex(pt, 14) + "\n" + " " * 14 + "(%d bytes)" % len(pt)),
            ("key check", check.hex()),
            ("file key", key.hex()),
            ("nonce prefix", prefix.hex()),
            ("nonce 0", nonce0.hex()),
            ("ciphertext", wrap_hex(ct, 14) + "\n" + " " * 14 + "(%d bytes)" % len(ct)),
        ]
        blocks.append("```text\n" + "\n".join("%-13s %s" % (k + ":", v) for k, v in rows) + "\n```")
    return "\n\n".join(blocks)


def parse_doc_vectors(text):
    vectors = []
    for block in re.findall(r"```text\n(vector:.*?)```", text, re.S):
        fields, last = {}, None
        for line in block.splitlines():
            if line.startswith(" ") and last:
                fields[last] += " " + line.strip()
            else:
                k, _, v = line.partition(":")
                last = k.strip()
                fields[last] = v.strip()
        vectors.append(fields)
    return vectors


def hex_field(v):
    v = re.sub(r"\(.*?\)", "", v)
    return bytes.fromhex(v.replace(" ", "")) if v.strip() else b""


class VectorTest(Case):
    """docs/stream-format.md: its vectors are what the reference computes and lwc decrypts."""

    def doc_vectors(self):
        with open(os.path.join(SOURCE_DIR, "docs", "stream-format.md")) as f:
            vectors = parse_doc_vectors(f.read())
        self.assertEqual(len(vectors), len(VECTOR_SPECS))
        return vectors

    def test_reference_computes_the_documented_bytes(self):
        for v, (name, alg, shift, pt, salt) in zip(self.doc_vectors(), VECTOR_SPECS):
            self.assertEqual(v["vector"], name)
            self.assertEqual(hex_field(v["plaintext"]), pt)
            self.assertEqual(hex_field(v["salt"]), salt)
            ct = hex_field(v["ciphertext"])
            self.assertEqual(ct, lwc_ref.stream_encrypt(VECTOR_KEY, pt, alg, shift, salt), name)
            self.assertEqual(lwc_ref.derive(VECTOR_KEY, ct[:44], alg)[0], hex_field(v["key check"]))

    def test_lwc_decrypts_the_documented_bytes(self):
        for v in self.doc_vectors():
            key = self.path("vector.key")
            write(key, (v["key file"] + "\n").encode(), 0o600)
            write(self.path("vector.lwc"), hex_field(v["ciphertext"]))
            r = lwc("decrypt", "-k", key, self.path("vector.lwc"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout, hex_field(v["plaintext"]), v["vector"])
            # and any change to the vector is refused
            bad = bytearray(hex_field(v["ciphertext"]))
            bad[-1] ^= 0x80
            write(self.path("vector.lwc"), bytes(bad))
            r = lwc("decrypt", "-k", key, self.path("vector.lwc"))
            self.assertFails(r, "failed authentication")
            self.assertEqual(r.stdout, b"")

    def test_reference_decrypts_what_lwc_writes(self):
        ids = lwc("list").stdout.decode()
        data = os.urandom(1000)
        # LWC_BACKEND picks the batch engine's backend where lwc uses the engine for chunks
        # (an unknown or unavailable one falls back to the default); without it, no effect.
        for backend in ("", "portable", "avx2", "avx512"):
            env = {"LWC_BACKEND": backend} if backend else None
            for alg in lwc_ref.AEADS:
                self.assertIn("%s" % alg, ids)
                for size, chunk in ((0, "64"), (64, "64"), (1000, "64"), (1000, "128"), (1000, "64K")):
                    ct = self.encrypt(data[:size], "-a", alg, "--chunk-size", chunk, "-j", "3", env=env)
                    self.assertEqual(ct[9], lwc_ref.ALGORITHM_IDS[alg])
                    self.assertEqual(lwc_ref.stream_decrypt(key_bytes(self.key), ct), data[:size],
                                     (backend, alg, size, chunk))
                    chunk_bytes = 65536 if chunk == "64K" else int(chunk)
                    self.assertEqual(len(ct), HEADER + size + TAG * (size // chunk_bytes + 1))
                    # and lwc opens it with every backend
                    r = lwc("decrypt", "-k", self.key, self.path("plain.lwc"), env=env)
                    self.assertEqual((r.returncode, r.stdout), (0, data[:size]), r.stderr)


# ---- round trips -------------------------------------------------------------------------

class RoundTripTest(Case):
    def roundtrip(self, data, *extra):
        ct = self.encrypt(data, *extra)
        out = self.path("plain.out")
        if os.path.exists(out):
            os.remove(out)
        r = lwc("decrypt", "-k", self.key, "-o", out, self.path("plain.lwc"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(out), data)
        return ct

    def test_sizes_around_the_chunk(self):
        data = os.urandom(5 * CHUNK + 7)
        for size in (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 5 * CHUNK + 7):
            ct = self.roundtrip(data[:size])
            # every chunk but the last is full; the last is shorter than a chunk, maybe empty
            self.assertEqual(len(ct), HEADER + size + TAG * (size // CHUNK + 1), size)

    def test_every_stream_algorithm(self):
        listed = lwc("list").stdout.decode().splitlines()
        # name, kind, key, nonce, tag: each chunk carries the algorithm's full tag
        algs = [(l.split()[0], int(l.split()[4])) for l in listed if "stream id" in l]
        self.assertIn(("ascon-aead128", 16), algs)
        for alg, tag in algs:
            for size in (0, 100, 3000):
                ct = self.roundtrip(os.urandom(size), "-a", alg, "--chunk-size", "1K")
                self.assertEqual(len(ct), HEADER + size + tag * (size // 1024 + 1), alg)

    def test_threads_do_not_change_the_result(self):
        data = os.urandom(40 * 1024 + 3)
        for threads in ("1", "2", "5"):
            self.roundtrip(data, "--chunk-size", "1K", "-j", threads)

    def test_standard_streams(self):
        data = os.urandom(3 * CHUNK + 11)
        enc = lwc("encrypt", "-k", self.key, input=data)
        self.assertEqual(enc.returncode, 0, enc.stderr)
        self.assertEqual(len(enc.stdout), HEADER + len(data) + 4 * TAG)
        dec = lwc("decrypt", "-k", self.key, "-", input=enc.stdout)
        self.assertEqual(dec.returncode, 0, dec.stderr)
        self.assertEqual(dec.stdout, data)
        # a pipe that delivers the input in small pieces
        write(self.path("ct"), enc.stdout)
        pipe = subprocess.Popen(["dd", "if=" + self.path("ct"), "bs=1000", "status=none"],
                                stdout=subprocess.PIPE)
        dec = lwc("decrypt", "-k", self.key, stdin=pipe.stdout)
        pipe.stdout.close()
        pipe.wait()
        self.assertEqual(dec.returncode, 0, dec.stderr)
        self.assertEqual(dec.stdout, data)

    def test_decrypt_to_stdout_larger_than_the_memory_spool(self):
        data = os.urandom(5 * 1024 * 1024 + 5)
        self.encrypt(data)
        env_tmp = self.path("spool")
        os.mkdir(env_tmp)
        r = subprocess.run([LWC, "decrypt", "-k", self.key, self.path("plain.lwc")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, TMPDIR=env_tmp))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(hashlib.sha256(r.stdout).digest(), hashlib.sha256(data).digest())
        self.assertEqual(os.listdir(env_tmp), [])

    def test_replace_with_force(self):
        write(self.path("old"), b"old contents")
        self.encrypt(b"new contents")
        r = lwc("decrypt", "-k", self.key, "-o", self.path("old"), self.path("plain.lwc"))
        self.assertFails(r, "already exists")
        self.assertEqual(read(self.path("old")), b"old contents")
        r = lwc("decrypt", "-k", self.key, "-f", "-o", self.path("old"), self.path("plain.lwc"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(self.path("old")), b"new contents")


def max_rss_kib(args):
    """Runs lwc with args under a small Python parent; returns (returncode, peak RSS in KiB)."""
    probe = ("import resource, subprocess, sys\n"
             "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
             "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", probe, LWC, *args], stdout=subprocess.PIPE,
                         check=True).stdout.split()
    return int(out[0]), int(out[1])


class BigFileTest(Case):
    """A 64 MiB file: round trip, hash, and (outside sanitizer builds) the memory bound."""

    def test_64_mib(self):
        size = 64 * 1024 * 1024 + 3
        src = self.path("big")
        h = hashlib.sha256()
        with open(src, "wb") as f:
            block = os.urandom(1 << 20)
            for i in range(64):
                piece = bytes([i]) + block[1:]
                f.write(piece)
                h.update(piece)
            f.write(b"end")
            h.update(b"end")
        steps = [
            ("encrypt", "-k", self.key, "-o", self.path("big.lwc"), src),
            ("decrypt", "-k", self.key, "-o", self.path("big.out"), self.path("big.lwc")),
            ("hash", src),
        ]
        for args in steps:
            rc, rss = max_rss_kib(args)
            self.assertEqual(rc, 0, args)
            if not SANITIZED:
                self.assertLess(rss, 32 * 1024, "peak RSS of lwc %s: %d KiB" % (args[0], rss))
        self.assertEqual(os.path.getsize(self.path("big.lwc")), HEADER + size + TAG * (size // CHUNK + 1))
        with open(self.path("big.out"), "rb") as f:
            g = hashlib.sha256()
            for piece in iter(lambda: f.read(1 << 20), b""):
                g.update(piece)
        self.assertEqual(g.digest(), h.digest())


# ---- tampering ---------------------------------------------------------------------------

class TamperTest(Case):
    """Every way of changing an encrypted file is refused, with no output at all."""

    def setUp(self):
        super().setUp()
        self.data = os.urandom(3 * CHUNK + 1000)
        self.ct = self.encrypt(self.data)
        self.slot = CHUNK + TAG
        self.before = sorted(os.listdir(self.dir) + ["bad.lwc"])

    def refused(self, bad, message, key=None):
        write(self.path("bad.lwc"), bad)
        out = self.path("out")
        r = lwc("decrypt", "-k", key or self.key, "-o", out, self.path("bad.lwc"))
        self.assertFails(r, message, 1)
        self.assertNoOutput(out, self.before)
        # the same through standard output: not a byte comes out
        with open(self.path("bad.lwc"), "rb") as f:
            r = lwc("decrypt", "-k", key or self.key, stdin=f)
        self.assertFails(r, message, 1)
        self.assertEqual(r.stdout, b"")

    def chunk(self, i):
        return self.ct[HEADER + i * self.slot:HEADER + (i + 1) * self.slot]

    def test_truncation(self):
        ct, s = self.ct, self.slot
        cases = {
            0: "empty", 5: "not an lwc", 30: "header is incomplete", HEADER: "truncated",
            HEADER + 100: "failed authentication", HEADER + s: "truncated",
            HEADER + 3 * s: "truncated", HEADER + 3 * s + 10: "truncated",
            len(ct) - 1: "failed authentication", len(ct) - TAG: "failed authentication",
        }
        for n, message in cases.items():
            with self.subTest(length=n):
                self.refused(ct[:n], message)

    def test_reordering_duplication_and_removal(self):
        h, c = self.ct[:HEADER], [self.chunk(i) for i in range(4)]
        self.assertEqual(HEADER + sum(map(len, c)), len(self.ct))
        for name, chunks in {
            "swap": [c[1], c[0], c[2], c[3]],
            "swap last": [c[0], c[1], c[3], c[2]],
            "duplicate": [c[0], c[1], c[1], c[2], c[3]],
            "drop middle": [c[0], c[2], c[3]],
            "drop first": [c[1], c[2], c[3]],
            "last only": [c[3]],
            "full chunk as last": [c[0], c[1], c[2]],
        }.items():
            with self.subTest(name):
                self.refused(h + b"".join(chunks), "failed authentication|truncated")

    def test_appended_data(self):
        other = self.encrypt(b"another file")
        for name, extra in {
            "one byte": b"\0", "a tag": bytes(16), "a copy of chunk 0": self.chunk(0),
            "the last chunk again": self.chunk(3), "another lwc file": other,
        }.items():
            with self.subTest(name):
                self.refused(self.ct + extra, "failed authentication")

    def test_header_changes(self):
        for i in range(HEADER):
            bad = bytearray(self.ct)
            bad[i] ^= 1
            with self.subTest(byte=i):
                self.refused(bytes(bad), "not an lwc|version|algorithm id|invalid header|wrong key")

    def test_header_of_another_file(self):
        other = self.encrypt(self.data)
        write(self.path("plain.lwc"), self.ct)
        self.refused(other[:HEADER] + self.ct[HEADER:], "failed authentication")

    def test_ciphertext_and_tag_changes(self):
        for pos in (HEADER, HEADER + 1000, HEADER + CHUNK + 3, HEADER + CHUNK - 1 + TAG,
                    len(self.ct) - TAG - 1, len(self.ct) - 1):
            bad = bytearray(self.ct)
            bad[pos] ^= 0x10
            with self.subTest(pos=pos):
                self.refused(bytes(bad), "chunk [0-9]+ failed authentication")

    def test_wrong_key(self):
        other = self.path("other.key")
        self.assertEqual(lwc("keygen", "-o", other).returncode, 0)
        self.before = sorted(self.before + ["other.key"])
        self.refused(self.ct, "wrong key", key=other)


# ---- hashing -----------------------------------------------------------------------------

class HashTest(Case):
    def files(self, sizes):
        names = []
        for i, n in enumerate(sizes):
            name = "f%02d" % i
            write(self.path(name), os.urandom(n))
            names.append(name)
        return names

    def test_digests_match_the_reference(self):
        names = self.files([0, 1, 7, 8, 9, 1000, 5000, 300000] + [i * 37 for i in range(12)])
        r = lwc("hash", "-j", "4", *names, cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.decode().splitlines()
        self.assertEqual(len(lines), len(names))
        for line, name in zip(lines, names):
            expect = lwc_ref.sponge("ascon-hash256", read(self.path(name)), 32).hex()
            self.assertEqual(line, expect + "  " + name)

    def test_many_small_and_some_large_files(self):
        # Small files go through the batch engine in groups, larger ones are streamed; the
        # worker count must not change anything.
        sizes = [random.randrange(0, 3000) for _ in range(150)] + [16384, 16385, 40000, 0]
        random.shuffle(sizes)
        names = self.files(sizes)
        for alg, length in (("ascon-hash256", 32), ("ascon-xof128", 50)):
            extra = ["-l", str(length)] if alg == "ascon-xof128" else []
            expect = [lwc_ref.sponge(alg, read(self.path(n)), length).hex() + "  " + n for n in names]
            for jobs in ("1", "3"):
                r = lwc("hash", "-a", alg, *extra, "-j", jobs, *names, cwd=self.dir)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.decode().splitlines(), expect, (alg, jobs))

    def test_check_with_mixed_algorithms(self):
        # BSD-style lines of different algorithms in one list: groups change algorithm midway.
        names = self.files([random.randrange(0, 2000) for _ in range(40)])
        lines = []
        for i, n in enumerate(names):
            alg = ("ascon-hash256", "ascon-hash", "ascon-hasha")[i % 3]
            r = lwc("hash", "--tag", "-a", alg, n, cwd=self.dir)
            self.assertEqual(r.returncode, 0, r.stderr)
            lines.append(r.stdout.decode())
        write(self.path("MIXED"), "".join(lines).encode())
        for jobs in ("1", "2"):
            r = lwc("hash", "-c", "-j", jobs, "MIXED", cwd=self.dir)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.decode(), "".join(n + ": OK\n" for n in names))
        first = lines[0].split(" = ")[1].strip()
        self.assertEqual(first, lwc_ref.sponge("ascon-hash256", read(self.path(names[0])), 32).hex())

    def test_xof_lengths_and_customization(self):
        write(self.path("m"), b"abc" * 100)
        msg = read(self.path("m"))
        r = lwc("hash", "-a", "ascon-xof128", "-l", "100", "m", cwd=self.dir)
        self.assertEqual(r.stdout.decode(), lwc_ref.sponge("ascon-xof128", msg, 100).hex() + "  m\n")
        r = lwc("hash", "-a", "ascon-cxof128", "--customization", "my app", "-l", "20", "m", cwd=self.dir)
        self.assertEqual(r.stdout.decode(),
                         lwc_ref.sponge("ascon-cxof128", msg, 20, b"my app").hex() + "  m\n")
        r = lwc("hash", "-a", "ascon-hash256", "-l", "20", "m", cwd=self.dir)
        self.assertFails(r, "fixed", 2)
        r = lwc("hash", "-a", "ascon-mac", "m", cwd=self.dir)
        self.assertFails(r, "keyed|unkeyed", 2)
        r = lwc("hash", "-a", "no-such-hash", "m", cwd=self.dir)
        self.assertFails(r, "unknown algorithm", 2)

    def test_stdin_tag_and_escaped_names(self):
        data = b"standard input"
        r = lwc("hash", input=data)
        self.assertEqual(r.stdout.decode(), lwc_ref.sponge("ascon-hash256", data, 32).hex() + "  -\n")
        r = lwc("hash", "--tag", "-", input=data)
        self.assertEqual(r.stdout.decode(),
                         "ascon-hash256 (-) = " + lwc_ref.sponge("ascon-hash256", data, 32).hex() + "\n")
        odd = "new\nline\\back"
        write(self.path(odd), b"x")
        r = lwc("hash", odd, cwd=self.dir)
        self.assertEqual(r.stdout.decode(),
                         "\\" + lwc_ref.sponge("ascon-hash256", b"x", 32).hex() + "  new\\nline\\\\back\n")
        write(self.path("SUMS"), r.stdout)
        r = lwc("hash", "-c", "SUMS", cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_directory_and_missing_file(self):
        os.mkdir(self.path("d"))
        write(self.path("ok"), b"fine")
        r = lwc("hash", "ok", "d", "missing", cwd=self.dir)
        self.assertFails(r, "'d' is a directory", 1)
        self.assertRegex(r.stderr.decode(), "missing.*No such file")
        self.assertEqual(len(r.stdout.decode().splitlines()), 1)

    def test_check(self):
        names = self.files([10, 20, 30, 40])
        r = lwc("hash", *names, cwd=self.dir)
        write(self.path("SUMS"), r.stdout)
        r = lwc("hash", "--tag", *names, cwd=self.dir)
        write(self.path("TAGGED"), r.stdout)
        for lst in ("SUMS", "TAGGED"):
            r = lwc("hash", "-c", lst, cwd=self.dir)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.decode(), "".join(n + ": OK\n" for n in names))
            r = lwc("hash", "-c", "--quiet", lst, cwd=self.dir)
            self.assertEqual((r.returncode, r.stdout), (0, b""))
        r = lwc("hash", "-c", "-", input=read(self.path("SUMS")), cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)

        write(self.path(names[1]), b"changed")
        os.remove(self.path(names[2]))
        r = lwc("hash", "-c", "SUMS", cwd=self.dir)
        self.assertFails(r, "1 computed checksum did NOT match", 1)
        self.assertIn("1 listed file could not be read", r.stderr.decode())
        self.assertEqual(r.stdout.decode().splitlines(),
                         [names[0] + ": OK", names[1] + ": FAILED", names[2] + ": FAILED open or read",
                          names[3] + ": OK"])
        r = lwc("hash", "-c", "--quiet", "SUMS", cwd=self.dir)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.decode().splitlines(),
                         [names[1] + ": FAILED", names[2] + ": FAILED open or read"])

    def test_check_refuses_bad_lists(self):
        write(self.path("a"), b"a")
        good = lwc("hash", "a", cwd=self.dir).stdout.decode()
        for name, text in {
            "garbage": good + "not a checksum line\n",
            "short digest": good + good[:10] + "  a\n",
            "non-hex": good + "z" * 64 + "  a\n",
            "empty list": "",
            "algorithm mismatch": "ascon-hash (a) = " + good[:64] + "\n",
        }.items():
            with self.subTest(name):
                write(self.path("L"), text.encode())
                args = ["hash", "-c", "L"] + (["-a", "ascon-hash256"] if name == "algorithm mismatch" else [])
                r = lwc(*args, cwd=self.dir)
                self.assertFails(r, "improperly formatted|no properly formatted|says", 1)
        r = lwc("hash", "-c", "no-such-list", cwd=self.dir)
        self.assertFails(r, "No such file", 1)
        # a tagged line names its algorithm; -a is then not needed
        r = lwc("hash", "--tag", "-a", "ascon-xof128", "a", cwd=self.dir)
        write(self.path("X"), r.stdout)
        r = lwc("hash", "-c", "X", cwd=self.dir)
        self.assertEqual((r.returncode, r.stdout), (0, b"a: OK\n"), r.stderr)


class HashInputTest(Case):
    """Inputs that are not plain files, and checksum lists written to deceive."""

    def digest(self, data):
        return lwc_ref.sponge("ascon-hash256", data, 32).hex()

    def run_with_timeout(self, args, timeout=30, **kw):
        """lwc with a deadline: a hang fails the test instead of stalling CI."""
        try:
            return subprocess.run([LWC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=timeout, **kw)
        except subprocess.TimeoutExpired:
            self.fail("lwc %s hung (killed after %d s)" % (" ".join(args), timeout))

    def feed_fifo(self, path, data):
        """A thread that opens the FIFO for writing (waiting for a reader), writes, closes."""
        import threading

        def writer():
            try:
                fd = os.open(path, os.O_WRONLY)
            except OSError:
                return
            try:
                os.write(fd, data)
            except OSError:
                pass
            finally:
                os.close(fd)
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        return t

    def test_fifo_is_opened_once(self):
        fifo = self.path("fifo")
        data = b"through a named pipe"
        for extra in ([], ["--no-progress"], ["-j", "1"]):
            with self.subTest(extra=extra):
                os.mkfifo(fifo)
                writer = self.feed_fifo(fifo, data)
                r = self.run_with_timeout(["hash", *extra, fifo])
                # unblock a writer still waiting for a reader (when lwc failed early)
                try:
                    os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
                except OSError:
                    pass
                writer.join(5)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.decode(), self.digest(data) + "  " + fifo + "\n")
                os.remove(fifo)

    def test_fifo_in_a_checksum_list(self):
        fifo = self.path("fifo")
        data = b"listed pipe"
        os.mkfifo(fifo)
        write(self.path("SUMS"), (self.digest(data) + "  fifo\n").encode())
        writer = self.feed_fifo(fifo, data)
        r = self.run_with_timeout(["hash", "-c", "SUMS"], cwd=self.dir)
        try:
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
        writer.join(5)
        self.assertEqual((r.returncode, r.stdout), (0, b"fifo: OK\n"), r.stderr)

    def test_special_files(self):
        data = b"standard input, named"
        r = self.run_with_timeout(["hash", "/dev/stdin"], input=data)
        self.assertEqual(r.stdout.decode(), self.digest(data) + "  /dev/stdin\n", r.stderr)
        r = self.run_with_timeout(["hash", "/dev/null", "-"], input=data)
        self.assertEqual(r.stdout.decode(),
                         self.digest(b"") + "  /dev/null\n" + self.digest(data) + "  -\n", r.stderr)
        # a process substitution's /dev/fd/N: a pipe that only one open can drain
        r = subprocess.run(["bash", "-c", '"$0" hash <(printf %s "$1")', LWC, "pipe data"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.decode().split()[0], self.digest(b"pipe data"))

    def check_refused(self, list_bytes, good_names=()):
        """lwc hash -c on this list: the bad line is refused, counted, and nothing but the good
        names is reported OK; no control character reaches standard output."""
        write(self.path("ok"), b"fine")
        write(self.path("L"), list_bytes + (self.digest(b"fine") + "  ok\n").encode())
        r = self.run_with_timeout(["hash", "-c", "L"], cwd=self.dir)
        err = r.stderr.decode(errors="replace")
        self.assertEqual(r.returncode, 1, err)
        self.assertIn("improperly formatted", err)
        self.assertRegex(err, r"WARNING: 1 line or list is improperly formatted")
        self.assertEqual(r.stdout.decode(errors="replace").splitlines(),
                         [n + ": OK" for n in (*good_names, "ok")])
        self.assertFalse(any(b < 0x20 and b not in (0x0a,) for b in r.stdout), r.stdout)
        return r

    def test_nul_in_a_listed_name(self):
        write(self.path("safe"), b"the file that is there")
        d = self.digest(b"the file that is there")
        self.check_refused((d + "  safe\0-and-another.iso\n").encode())
        self.check_refused(("ascon-hash256 (safe\0.iso) = " + d + "\n").encode())
        self.check_refused((d + "  safe\n" + d + "  safe\0x\n").encode(), ["safe"])

    def test_control_characters_in_a_listed_name(self):
        for name in ("red\x1b[31m", "bell\x07", "cr\rinside", "del\x7f", "vt\x0b"):
            with self.subTest(name=repr(name)):
                write(self.path(name), b"x")
                self.check_refused((self.digest(b"x") + "  " + name + "\n").encode())
                os.remove(self.path(name))

    def test_escaped_names_are_printed_escaped(self):
        # a listed name with a newline, backslash or carriage return comes back escaped,
        # the line starting with a backslash, as coreutils prints it
        for name, shown in (("a\nb", "\\a\\nb"), ("a\\b", "\\a\\\\b"), ("a\rb", "\\a\\rb")):
            with self.subTest(name=repr(name)):
                write(self.path(name), b"x")
                r = lwc("hash", name, cwd=self.dir)
                self.assertEqual(r.stdout.decode(), "\\" + self.digest(b"x") + "  " + shown[1:] + "\n")
                write(self.path("L"), r.stdout)
                r = lwc("hash", "-c", "L", cwd=self.dir)
                self.assertEqual((r.returncode, r.stdout.decode()), (0, shown + ": OK\n"), r.stderr)
                os.remove(self.path(name))
        # escapes other than \\, \n and \r, a trailing backslash, and a raw newline that splits
        # a name in two are refused, never guessed at
        d = self.digest(b"x")
        write(self.path("evil"), b"x")
        for bad in ("\\" + d + "  a\\tb\n", "\\" + d + "  a\\\n", "\\" + d + "  a\\x1b\n",
                    d + "  evil\nname\n"):
            with self.subTest(line=repr(bad)):
                good = ["evil"] if "evil" in bad else []
                self.check_refused(bad.encode(), good)
        # a tab is an ordinary character in a name
        write(self.path("a\tb"), b"x")
        r = lwc("hash", "a\tb", cwd=self.dir)
        write(self.path("L"), r.stdout)
        r = lwc("hash", "-c", "L", cwd=self.dir)
        self.assertEqual((r.returncode, r.stdout), (0, b"a\tb: OK\n"), r.stderr)

    def test_very_long_lines(self):
        write(self.path("a"), b"a")
        good = (self.digest(b"a") + "  a\n").encode()
        # a 64 MiB line (no newline in it), then a good line, then a long last line with no newline
        with open(self.path("L"), "wb") as f:
            f.write(good)
            f.write(b"0" * (64 << 20) + b"  name\n")
            f.write(good)
            f.write(b"f" * (1 << 20))
        rc, rss = max_rss_kib(["hash", "-c", self.path("L")])
        self.assertEqual(rc, 1)
        if not SANITIZED:
            self.assertLess(rss, 32 * 1024, "peak RSS of lwc hash -c: %d KiB" % rss)
        r = self.run_with_timeout(["hash", "-c", "L"], cwd=self.dir)
        self.assertEqual(r.stdout, b"a: OK\na: OK\n")
        err = r.stderr.decode()
        self.assertRegex(err, r"L:2: improperly formatted line \(longer than")
        self.assertRegex(err, r"L:4: improperly formatted line \(longer than")
        self.assertIn("2 lines or lists are improperly formatted", err)


# ---- bad input ---------------------------------------------------------------------------

class BadInputTest(Case):
    def setUp(self):
        super().setUp()
        write(self.path("in"), b"some data")
        self.out = self.path("out")
        self.ct = self.encrypt(b"some data")
        self.before = sorted(os.listdir(self.dir))

    def both_fail(self, args, message, code=1, extra_files=()):
        """encrypt and decrypt with these arguments fail without writing anything."""
        before = sorted(self.before + list(extra_files))
        for cmd, src in (("encrypt", self.path("in")), ("decrypt", self.path("plain.lwc"))):
            a = [x if x != "IN" else src for x in args]
            r = lwc(cmd, *a)
            self.assertFails(r, message, code)
            self.assertNoOutput(self.out, before)
            self.assertEqual(r.stdout, b"")

    def key_file(self, name, text, mode=0o600):
        write(self.path(name), text, mode)
        return self.path(name)

    def test_missing_key_file(self):
        self.both_fail(["-k", self.path("nokey"), "-o", self.out, "IN"], "cannot open key file.*No such file")

    def test_bad_key_files(self):
        hexkey = read(self.key).split()[1]
        for name, text, mode, message in [
            ("short", b"lwc-key-v1 " + hexkey[:62] + b"\n", 0o600, "must be 64 hex digits.*found 62"),
            ("long", b"lwc-key-v1 " + hexkey + b"00\n", 0o600, "must be 64 hex digits.*found 66"),
            ("nonhex", b"lwc-key-v1 " + b"g" * 64 + b"\n", 0o600, "not a hex digit"),
            ("empty", b"", 0o600, "is empty"),
            ("raw", b"\x01" * 32, 0o600, "not an lwc key file"),
            ("bare hex", hexkey + b"\n", 0o600, "not an lwc key file"),
            ("two", b"lwc-key-v1 " + hexkey + b"\nlwc-key-v1 " + hexkey + b"\n", 0o600, "more than one"),
            ("public", b"lwc-key-v1 " + hexkey + b"\n", 0o644, "chmod 600"),
            ("group", b"lwc-key-v1 " + hexkey + b"\n", 0o640, "chmod 600"),
        ]:
            with self.subTest(name):
                k = self.key_file(name, text, mode)
                self.both_fail(["-k", k, "-o", self.out, "IN"], message, extra_files=[name])
                os.remove(k)
        os.mkdir(self.path("keydir"))
        self.both_fail(["-k", self.path("keydir"), "-o", self.out, "IN"], "is a directory",
                       extra_files=["keydir"])

    def test_comment_lines_in_a_key_file_are_allowed(self):
        k = self.key_file("commented", b"# my key\n\n" + read(self.key) + b"\n")
        r = lwc("decrypt", "-k", k, self.path("plain.lwc"))
        self.assertEqual((r.returncode, r.stdout), (0, b"some data"), r.stderr)

    def test_inputs(self):
        os.mkdir(self.path("dir"))
        for cmd in ("encrypt", "decrypt"):
            r = lwc(cmd, "-k", self.key, "-o", self.out, self.path("dir"))
            self.assertFails(r, "is a directory", 1)
            r = lwc(cmd, "-k", self.key, "-o", self.out, self.path("missing"))
            self.assertFails(r, "No such file", 1)
            self.assertNoOutput(self.out, sorted(self.before + ["dir"]))
        write(self.path("empty"), b"")
        r = lwc("decrypt", "-k", self.key, "-o", self.out, self.path("empty"))
        self.assertFails(r, "is empty", 1)
        r = lwc("decrypt", "-k", self.key, "-o", self.out, self.path("in"))
        self.assertFails(r, "not an lwc encrypted file", 1)
        self.assertNoOutput(self.out, sorted(self.before + ["dir", "empty"]))
        # an empty plaintext is fine to encrypt
        r = lwc("encrypt", "-k", self.key, "-o", self.out, self.path("empty"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.path.getsize(self.out), HEADER + TAG)

    def test_outputs(self):
        os.mkdir(self.path("dir"))
        self.before = sorted(self.before + ["dir"])
        r = lwc("encrypt", "-k", self.key, "-o", self.path("dir"), self.path("in"))
        self.assertFails(r, "is a directory", 1)
        r = lwc("encrypt", "-k", self.key, "-o", self.path("in"), self.path("in"))
        self.assertFails(r, "already exists", 1)
        self.assertEqual(read(self.path("in")), b"some data")
        r = lwc("encrypt", "-k", self.key, "-o", self.path("nodir/out"), self.path("in"))
        self.assertFails(r, "No such file", 1)
        self.assertEqual(sorted(os.listdir(self.dir)), self.before)

    def test_input_is_never_the_output(self):
        os.symlink("in", self.path("link-to-in"))
        os.link(self.path("in"), self.path("hardlink-to-in"))
        os.symlink("plain.lwc", self.path("link-to-ct"))
        os.link(self.path("plain.lwc"), self.path("hardlink-to-ct"))
        self.before = sorted(os.listdir(self.dir))
        ct = read(self.path("plain.lwc"))
        for cmd, src, names in (("encrypt", "in", ("in", "link-to-in", "hardlink-to-in")),
                                ("decrypt", "plain.lwc", ("plain.lwc", "link-to-ct", "hardlink-to-ct"))):
            for out in names:
                for force in ([], ["--force"]):
                    with self.subTest(cmd=cmd, out=out, force=force):
                        r = lwc(cmd, "-k", self.key, *force, "-o", self.path(out), self.path(src))
                        self.assertFails(r, "is the input file" if force else "already exists|is the input file")
                        self.assertEqual(read(self.path("in")), b"some data")
                        self.assertEqual(read(self.path("plain.lwc")), ct)
                        self.assertEqual(sorted(os.listdir(self.dir)), self.before)
                        self.assertTrue(os.path.islink(self.path("link-to-in")))
            # standard output appended to the input, and standard input as the output file
            with self.subTest(cmd=cmd, out="stdout"):
                with open(self.path(src), "ab") as same:
                    r = subprocess.run([LWC, cmd, "-k", self.key, self.path(src)], stdout=same,
                                       stderr=subprocess.PIPE, timeout=60)
                self.assertFails(r, "standard output is the input file", 2)
            with self.subTest(cmd=cmd, out="from stdin"):
                with open(self.path(src), "rb") as same:
                    r = subprocess.run([LWC, cmd, "-k", self.key, "--force", "-o", self.path(src)],
                                       stdin=same, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       timeout=60)
                self.assertFails(r, "is the input file", 2)
            self.assertEqual(read(self.path("in")), b"some data")
            self.assertEqual(read(self.path("plain.lwc")), ct)

    def test_key_file_is_never_the_output(self):
        key = read(self.key)
        for cmd, src in (("encrypt", "in"), ("decrypt", "plain.lwc")):
            r = lwc(cmd, "-k", self.key, "--force", "-o", self.key, self.path(src))
            self.assertFails(r, "is the key file", 2)
            self.assertEqual(read(self.key), key)

    def test_thread_counts_out_of_range(self):
        for args in (["bench", "-a", "ascon-hash256", "--sizes", "64", "--time", "0.01", "--batch",
                      "-j", "100000"],
                     ["bench", "-j", "99999999999999999999"],
                     ["hash", "-j", "-1", self.path("in")],
                     ["hash", "-l", "18446744073709551617", "-a", "ascon-xof128", self.path("in")],
                     ["encrypt", "-k", self.key, "-j", "4294967296", self.path("in")],
                     ["encrypt", "-k", self.key, "--chunk-size", "18446744073709551616", self.path("in")]):
            with self.subTest(args=args):
                r = lwc(*args)
                self.assertFails(r, "threads|length|chunk-size|must|not", 2)
        r = lwc("hash", "-j", "1000000", self.path("in"))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_algorithms_and_options(self):
        r = lwc("encrypt", "-k", self.key, "-o", self.out, "-a", "no-such-aead", self.path("in"))
        self.assertFails(r, "unknown algorithm 'no-such-aead'", 2)
        r = lwc("encrypt", "-k", self.key, "-o", self.out, "-a", "ascon-hash256", self.path("in"))
        self.assertFails(r, "not an AEAD", 2)
        for unusable in [l.split()[0] for l in lwc("list").stdout.decode().splitlines() if "not usable" in l]:
            r = lwc("encrypt", "-k", self.key, "-o", self.out, "-a", unusable, self.path("in"))
            self.assertFails(r, "nonce|tag|identifier", 2)
        for size in ("1000", "32", "2M", "x"):
            r = lwc("encrypt", "-k", self.key, "-o", self.out, "--chunk-size", size, self.path("in"))
            self.assertFails(r, "chunk-size", 2)
        r = lwc("encrypt", "-o", self.out, self.path("in"))
        self.assertFails(r, "--key", 2)
        r = lwc("frobnicate")
        self.assertEqual(r.returncode, 2)
        self.assertNoOutput(self.out, self.before)

    def test_ciphertext_is_never_written_to_a_terminal(self):
        master, slave = pty.openpty()
        try:
            r = subprocess.run([LWC, "encrypt", "-k", self.key, self.path("in")], stdout=slave,
                               stderr=subprocess.PIPE, timeout=60)
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        try:
            shown = os.read(master, 65536)
        except (BlockingIOError, OSError):
            shown = b""
        os.close(master)
        self.assertFails(r, "refusing to write binary ciphertext to a terminal", 2)
        self.assertEqual(shown, b"")


class KeygenTest(Case):
    def test_keygen(self):
        st = os.stat(self.key)
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o600)
        text = read(self.key).decode()
        self.assertRegex(text, r"^lwc-key-v1 [0-9a-f]{64}\n$")
        r = lwc("keygen", "-o", self.key)
        self.assertFails(r, "already exists", 1)
        self.assertEqual(read(self.key).decode(), text)
        r = lwc("keygen", "--force", "-o", self.key)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotEqual(read(self.key).decode(), text)
        self.assertEqual(stat.S_IMODE(os.stat(self.key).st_mode), 0o600)
        keys = {lwc("keygen").stdout for _ in range(5)}
        self.assertEqual(len(keys), 5)
        for k in keys:
            self.assertRegex(k.decode(), r"^lwc-key-v1 [0-9a-f]{64}\n$")
        self.assertEqual(sorted(os.listdir(self.dir)), ["key"])


class ProgressTest(Case):
    def test_progress_only_on_a_terminal(self):
        big = self.path("big")
        with open(big, "wb") as f:
            f.truncate(33 * 1024 * 1024)
        # stderr is a pipe: not a byte of progress
        r = lwc("hash", big)
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        r = lwc("encrypt", "-k", self.key, "-o", self.path("big.lwc"), big)
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        # stderr is a terminal: a progress line that is erased at the end
        for args in (["hash", big], ["decrypt", "-k", self.key, "-o", self.path("big.out"), self.path("big.lwc")]):
            master, slave = pty.openpty()
            p = subprocess.Popen([LWC, *args], stdout=subprocess.PIPE, stderr=slave)
            os.close(slave)
            shown = b""
            while True:
                try:
                    piece = os.read(master, 4096)
                except OSError:
                    break
                if not piece:
                    break
                shown += piece
            p.communicate()
            os.close(master)
            self.assertEqual(p.returncode, 0)
            self.assertIn(b"100%", shown, args[0])
            self.assertTrue(shown.endswith(b"\r\x1b[K"), shown[-40:])
        master, slave = pty.openpty()
        r = subprocess.run([LWC, "hash", "--no-progress", big], stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        os.set_blocking(master, False)
        try:
            shown = os.read(master, 4096)
        except OSError:
            shown = b""
        os.close(master)
        self.assertEqual((r.returncode, shown), (0, b""))


# ---- the rest of the surface -------------------------------------------------------------

class SurfaceTest(unittest.TestCase):
    def test_help_and_version(self):
        r = lwc("--help")
        self.assertEqual(r.returncode, 0)
        for cmd in ("list", "hash", "keygen", "encrypt", "decrypt", "bench"):
            self.assertIn(cmd, r.stdout.decode())
            h = lwc(cmd, "--help")
            self.assertEqual(h.returncode, 0, cmd)
            self.assertIn("Usage", h.stdout.decode())
        self.assertIn("--check", lwc("hash", "--help").stdout.decode())
        self.assertRegex(lwc("--version").stdout.decode(), r"^lwc \d+\.\d+\.\d+")
        self.assertRegex(lwc("--version").stdout.decode(), r"\ncode paths: ascon (bmi1\+bmi2|portable), ")
        forced = lwc("--version", env={"LWC_FORCE_PORTABLE": "1"}).stdout.decode()
        self.assertIn("ascon portable, acorn portable, grain portable", forced)
        r = lwc()
        self.assertEqual(r.returncode, 2)

    def test_list(self):
        r = lwc("list")
        self.assertEqual(r.returncode, 0)
        text = r.stdout.decode()
        for name in ("ascon-aead128", "ascon-hash256", "ascon-xof128", "ascon-cxof128", "ascon-128",
                     "ascon-128a", "ascon-80pq", "ascon-mac", "ascon-prfshort-v13"):
            self.assertRegex(text, r"(?m)^%s\s" % re.escape(name))
        self.assertRegex(text, r"(?m)^ascon-aead128\s+aead\s+16\s+16\s+16")
        # every registered AEAD that the stream format can take has an identifier
        for line in text.splitlines():
            f = line.split()
            if len(f) > 4 and f[1] == "aead":
                usable = int(f[3]) >= 16 and int(f[4]) >= 16
                self.assertEqual("stream id" in line, usable, line)

    def test_list_tells_which_batch_path_runs(self):
        text = lwc("list").stdout.decode()
        lines = text.splitlines()
        if "batch engine" not in lwc("--version").stdout.decode():
            self.skipTest("lwc built without the batch engine")
        self.assertIn("batch lanes", lines[0])
        start = lines[0].index("batch lanes")
        rows = lines[1:lines.index("")]
        column = {l.split()[0]: l[start:] for l in rows}
        self.assertEqual(len(column), len(rows))
        order = ["avx512", "avx2", "portable"]  # fastest first, as lwc list writes them
        for name, path in column.items():
            self.assertNotEqual(path, "", name)
            if path == "job by job":
                continue
            backends = path.split(" ")
            self.assertEqual(backends, [b for b in order if b in backends], name)
        # Ascon has lane kernels on every backend; Romulus-T, Acorn-128 and Grain-128AEAD not on
        # the portable one (a CPU without AVX2 lists them as "job by job")
        self.assertTrue(column["ascon-aead128"].endswith("portable"), column["ascon-aead128"])
        for name in ("romulus-t", "acorn-128", "grain-128aead"):
            self.assertNotIn("portable", column[name], name)

    def test_legacy_algorithms_are_labelled(self):
        text = lwc("list").stdout.decode()
        for name in ("ascon-128", "ascon-128a", "ascon-80pq", "ascon-hash", "ascon-hasha", "ascon-xof",
                     "ascon-xofa"):
            self.assertRegex(text, r"(?m)^%s\s.*\slegacy \(Ascon v1\.2\)\s" % re.escape(name))
        for name in ("ascon-aead128", "ascon-hash256", "ascon-xof128", "ascon-cxof128"):
            line = re.search(r"(?m)^%s\s.*$" % re.escape(name), text).group(0)
            self.assertIn("NIST SP 800-232", line)
            self.assertNotIn("legacy", line)
        # in the -a choices, the current algorithms come first and the legacy ones are labelled
        for cmd, current, old in (("hash", "ascon-hash256", "ascon-hash,"), ("encrypt", "ascon-aead128", "ascon-128,")):
            h = " ".join(lwc(cmd, "--help").stdout.decode().split())
            self.assertIn("legacy (Ascon v1.2): ", h)
            self.assertLess(h.index(current), h.index("legacy (Ascon v1.2)"))
            self.assertGreater(h.index(old), h.index("legacy (Ascon v1.2)"))
        top = " ".join(lwc("--help").stdout.decode().split())
        self.assertIn("Acorn and the ten NIST LWC finalists", top)

    def test_bench_json_and_plot(self):
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, "bench.json")
            r = lwc("bench", "-a", "ascon-aead128,ascon-hash256", "--sizes", "64,1K", "--time", "0.01",
                    "--json", js)
            self.assertEqual(r.returncode, 0, r.stderr)
            rows = json.load(open(js))["results"]
            got = sorted((x["algorithm"], x["operation"], x["bytes"]) for x in rows)
            self.assertEqual(got, sorted([("ascon-aead128", "encrypt", 64), ("ascon-aead128", "encrypt", 1024),
                                          ("ascon-aead128", "decrypt", 64), ("ascon-aead128", "decrypt", 1024),
                                          ("ascon-hash256", "hash", 64), ("ascon-hash256", "hash", 1024)]))
            self.assertTrue(all(x["mb_per_s"] > 0 and x["backend"] == "single" for x in rows))
            self.assertEqual(len(r.stdout.decode().splitlines()), 1 + len(rows))
            r = lwc("bench", "-a", "ascon-hash256", "--sizes", "64", "--time", "0.01", "--batch")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(b"batch engine not built" in r.stderr or b"batch" in r.stdout, r.stderr)
            r = lwc("bench", "-a", "nope")
            self.assertEqual(r.returncode, 2)
            # the plot script, where matplotlib is installed
            for py in (sys.executable, "/usr/bin/python3"):
                if os.path.exists(py) and subprocess.run([py, "-c", "import matplotlib"],
                                                         stderr=subprocess.DEVNULL).returncode == 0:
                    png = os.path.join(d, "bench.png")
                    p = subprocess.run([py, os.path.join(SOURCE_DIR, "tools", "plot_bench.py"), js, "-o", png],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    self.assertEqual(p.returncode, 0, p.stderr)
                    self.assertEqual(read(png)[:8], b"\x89PNG\r\n\x1a\n")
                    break

    def test_install(self):
        build, cmake = os.environ.get("LWC_BUILD_DIR"), os.environ.get("CMAKE_COMMAND", "cmake")
        if not build:
            self.skipTest("LWC_BUILD_DIR not set")
        with tempfile.TemporaryDirectory() as prefix:
            r = subprocess.run([cmake, "--install", build, "--component", "lwc_cli", "--prefix", prefix],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertEqual(r.returncode, 0, r.stderr)
            installed = os.path.join(prefix, "bin", "lwc")
            r = subprocess.run([installed, "--version"], stdout=subprocess.PIPE)
            self.assertEqual(r.returncode, 0)
            self.assertEqual(r.stdout, lwc("--version").stdout)


if __name__ == "__main__":
    if sys.argv[1:] == ["--print-vectors"]:
        print(format_vectors())
        sys.exit(0)
    unittest.main(verbosity=2)
