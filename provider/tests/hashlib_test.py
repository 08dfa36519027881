# SPDX-License-Identifier: MIT OR Apache-2.0
"""Python's hashlib through lwc.so: with OPENSSL_CONF naming a config that loads the provider,
hashlib.new(name) for every hash and XOF of the registry equals lwc's own result on random
data, copy() continues alike, and an XOF's digest(n) takes any length.

The reference is the lwc Python package when it can be imported, else the `lwc hash` tool
named by LWC_TOOL. Usage: OPENSSL_CONF=... [LWC_TOOL=...] python3 hashlib_test.py
"""
import hashlib
import os
import random
import subprocess
import sys
import tempfile

try:
    import lwc
except ImportError:
    lwc = None

rng = random.Random(20260044)


def registry():
    """(name, kind) of every hash, XOF and CXOF."""
    if lwc is not None:
        return [(a.name, a.kind) for a in lwc.algorithms() if a.kind in ("hash", "xof", "cxof")]
    out = subprocess.run([os.environ["LWC_TOOL"], "list"], check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return [(r[0], r[1]) for r in rows if len(r) > 1 and r[1] in ("hash", "xof", "cxof")]


def reference(name, kind, data, length):
    if lwc is not None:
        h = lwc.new(name, data)
        return h.hexdigest(length) if kind != "hash" else h.hexdigest()
    with tempfile.NamedTemporaryFile() as f:
        f.write(data)
        f.flush()
        cmd = [os.environ["LWC_TOOL"], "hash", "-a", name, "--no-progress", f.name]
        if kind != "hash":
            cmd[4:4] = ["-l", str(length)]
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()[0]


def main():
    algorithms = registry()
    assert algorithms, "no hash in the registry"
    checked = 0
    for name, kind in algorithms:
        for size in (0, 1, 17, 1000, rng.randrange(1, 70000)):
            data = rng.randbytes(size)
            length = rng.randrange(1, 100)
            h = hashlib.new(name, data[: size // 2])
            copy = h.copy()
            h.update(data[size // 2 :])
            copy.update(data[size // 2 :])
            want = reference(name, kind, data, length)
            if kind == "hash":
                got, got_copy = h.hexdigest(), copy.hexdigest()
            else:
                got, got_copy = h.hexdigest(length), copy.hexdigest(length)
            assert got == want, f"{name}, {size} bytes: hashlib {got}, lwc {want}"
            assert got_copy == want, f"{name}, {size} bytes: copy() {got_copy}, lwc {want}"
            checked += 1
    print(f"hashlib: {checked} digests of {len(algorithms)} algorithms equal lwc's"
          f" (reference: {'lwc package' if lwc else 'lwc hash'})")


if __name__ == "__main__":
    sys.exit(main())
