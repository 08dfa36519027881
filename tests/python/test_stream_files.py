# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc.stream's file writers under faults: the input given as output (same path, symbolic link,
hard link), a failure after the output was opened, a symbolic link at the output, a full disk
(a 64 KiB tmpfs; skipped where mounting is not permitted) and a writer killed in the middle.
The destination always holds its old content or the complete new one, and a failure the
process survives leaves no temporary file behind."""

import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time

import pytest

import lwc
import lwc.stream

KEY = bytes(range(32))
DATA = random.Random(17).randbytes(200001)


def names(folder):
    return sorted(os.listdir(folder))


@pytest.fixture
def files(tmp_path):
    (tmp_path / "plain").write_bytes(DATA)
    lwc.stream.encrypt_file(tmp_path / "plain", tmp_path / "plain.lwc", key=KEY, chunk_size=1024)
    return tmp_path


def test_input_as_output_is_refused_under_any_name(files):
    plain, enc = files / "plain", files / "plain.lwc"
    ct = enc.read_bytes()
    os.symlink("plain", files / "sym")
    os.link(plain, files / "hard")
    for out in (plain, files / "sym", files / "hard", files / "." / "plain"):
        with pytest.raises(OSError, match="input"):
            lwc.stream.encrypt_file(plain, out, key=KEY, overwrite=True)
        assert plain.read_bytes() == DATA
    os.symlink(enc, files / "enc-link")
    for out in (enc, files / "enc-link"):
        with pytest.raises(OSError, match="input"):
            lwc.stream.decrypt_file(enc, out, key=KEY, overwrite=True)
        assert enc.read_bytes() == ct
    assert os.path.islink(files / "sym") and os.path.islink(files / "enc-link")
    assert names(files) == ["enc-link", "hard", "plain", "plain.lwc", "sym"]


def test_a_failure_after_the_output_was_opened_keeps_the_old_output(files):
    out = files / "out"
    out.write_bytes(b"old content")
    ct = (files / "plain.lwc").read_bytes()
    changed = bytearray(ct)
    changed[len(ct) // 2] ^= 1
    for bad in (ct[:-100], bytes(changed)):
        (files / "bad.lwc").write_bytes(bad)
        with pytest.raises(lwc.InvalidTag):
            lwc.stream.decrypt_file(files / "bad.lwc", out, key=KEY, overwrite=True)
        assert out.read_bytes() == b"old content"
    # A misspelt algorithm is refused before anything is created or removed.
    with pytest.raises(ValueError):
        lwc.stream.encrypt_file(files / "plain", out, key=KEY, algorithm="ascon-aead-128",
                                overwrite=True)
    assert out.read_bytes() == b"old content"
    with pytest.raises(ValueError):
        lwc.stream.open(out, "wb", key=KEY, algorithm="ascon-aead-128")
    assert out.read_bytes() == b"old content"
    # A writer left by an exception, and one aborted: the path keeps its old content.
    with pytest.raises(KeyError):
        with lwc.stream.open(out, "wb", key=KEY) as f:
            f.write(DATA)
            raise KeyError("stop")
    assert out.read_bytes() == b"old content"
    f = lwc.stream.open(out, "wb", key=KEY)
    f.write(DATA)
    f.abort()
    assert out.read_bytes() == b"old content"
    assert names(files) == ["bad.lwc", "out", "plain", "plain.lwc"]
    # Completed, each replaces it.
    lwc.stream.decrypt_file(files / "plain.lwc", out, key=KEY, overwrite=True)
    assert out.read_bytes() == DATA
    with lwc.stream.open(out, "wb", key=KEY) as f:
        f.write(b"new")
    with lwc.stream.open(out, "rb", key=KEY) as f:
        assert f.read() == b"new"
    assert names(files) == ["bad.lwc", "out", "plain", "plain.lwc"]


def test_xb_refuses_an_existing_file_and_wb_keeps_a_pipe(files):
    (files / "out").write_bytes(b"old content")
    with pytest.raises(FileExistsError):
        lwc.stream.open(files / "out", "xb", key=KEY)
    assert (files / "out").read_bytes() == b"old content"
    # A file that appears while an "xb" writer runs is not replaced either.
    f = lwc.stream.open(files / "new", "xb", key=KEY)
    f.write(b"data")
    (files / "new").write_bytes(b"appeared")
    with pytest.raises(FileExistsError):
        f.close()
    assert (files / "new").read_bytes() == b"appeared"
    assert names(files) == ["new", "out", "plain", "plain.lwc"]
    # Not a regular file: written to directly, as before.
    r, w = os.pipe()
    with lwc.stream.open(f"/proc/self/fd/{w}", "wb", key=KEY) as f:
        f.write(b"through a pipe")
    os.close(w)
    with os.fdopen(r, "rb") as pipe, lwc.stream.open(pipe, "rb", key=KEY) as f:
        assert f.read() == b"through a pipe"


def test_a_symlink_at_the_output_is_replaced_not_followed(files):
    target, link = files / "target", files / "link"
    target.write_bytes(b"target content")
    os.symlink("target", link)
    with pytest.raises(OSError, match="exists"):
        lwc.stream.encrypt_file(files / "plain", link, key=KEY)
    with pytest.raises(OSError, match="exists"):
        lwc.stream.save_key(link, KEY)
    os.symlink("nowhere", files / "dangling")
    with pytest.raises(OSError, match="exists"):
        lwc.stream.decrypt_file(files / "plain.lwc", files / "dangling", key=KEY)
    assert not os.path.lexists(files / "nowhere")
    lwc.stream.encrypt_file(files / "plain", link, key=KEY, overwrite=True)
    assert not os.path.islink(link) and target.read_bytes() == b"target content"
    os.remove(link)
    os.symlink("target", link)
    lwc.stream.save_key(link, KEY, overwrite=True)
    assert not os.path.islink(link) and target.read_bytes() == b"target content"
    assert lwc.stream.load_key(link) == KEY
    os.remove(link)
    os.symlink("target", link)
    with lwc.stream.open(link, "wb", key=KEY) as f:
        f.write(b"x")
    assert not os.path.islink(link) and target.read_bytes() == b"target content"


def test_a_replaced_key_file_is_a_new_private_file(tmp_path):
    path = tmp_path / "key"
    first = lwc.stream.generate_key()
    lwc.stream.save_key(path, first)
    with open(path, "rb") as old:
        os.chmod(path, 0o640)
        lwc.stream.save_key(path, KEY, overwrite=True)
        assert old.read() == b"lwc-key-v1 " + first.hex().encode() + b"\n"
    assert lwc.stream.load_key(path) == KEY
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert names(tmp_path) == ["key"]


@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "small"
    mnt.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command; the full-disk case needs a 64 KiB tmpfs")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a 64 KiB tmpfs here ({r.stderr.strip()}); the full-disk "
                    "case needs root or CAP_SYS_ADMIN")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_full_disk_keeps_the_old_output(files, small_disk):
    out, key = small_disk / "out", small_disk / "key"
    out.write_bytes(b"old content")
    lwc.stream.save_key(key, KEY)
    with pytest.raises(OSError):
        lwc.stream.encrypt_file(files / "plain", out, key=KEY, overwrite=True)
    assert out.read_bytes() == b"old content"
    with pytest.raises(OSError):
        lwc.stream.decrypt_file(files / "plain.lwc", out, key=KEY, overwrite=True)
    assert out.read_bytes() == b"old content"
    with pytest.raises(OSError):
        with lwc.stream.open(out, "wb", key=KEY) as f:
            f.write(DATA)
    assert out.read_bytes() == b"old content"
    assert names(small_disk) == ["key", "out"]
    with open(small_disk / "fill", "wb", buffering=0) as fill:
        try:
            while fill.write(b"x" * 4096):
                pass
        except OSError:
            pass
    with pytest.raises(OSError):
        lwc.stream.save_key(key, lwc.stream.generate_key(), overwrite=True)
    assert lwc.stream.load_key(key) == KEY
    assert names(small_disk) == ["fill", "key", "out"]


def _run_and_kill(tmp_path, script, ready):
    """Runs `script` in a child Python, SIGKILLs it once ready() is true."""
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not ready(child):
            assert child.poll() is None, "the child ended before it was killed"
            assert time.monotonic() < deadline, "the child never got ready"
            time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    assert child.returncode == -signal.SIGKILL


def _temp_with_data(folder, name):
    for n in os.listdir(folder):
        if n.startswith("." + name + ".") and os.stat(folder / n).st_size > 0:
            return True
    return False


def test_a_killed_stream_writer_leaves_the_old_output(tmp_path):
    out = tmp_path / "out"
    out.write_bytes(b"old content")
    script = f"""
        import lwc.stream
        f = lwc.stream.open("out", "wb", key=bytes(range(32)))
        for i in range(64):
            f.write(bytes([i]) * 65536)
        f.flush()
        import time
        while True:
            time.sleep(1)
    """
    _run_and_kill(tmp_path, script, lambda c: _temp_with_data(tmp_path, "out"))
    assert out.read_bytes() == b"old content"


def test_a_killed_encrypt_file_leaves_the_old_output(tmp_path):
    out = tmp_path / "out"
    out.write_bytes(b"old content")
    os.mkfifo(tmp_path / "input")
    script = """
        import lwc.stream
        lwc.stream.encrypt_file("input", "out", key=bytes(range(32)), overwrite=True, threads=1)
    """
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while True:  # opening a fifo blocks until a reader comes: wait without blocking
            try:
                fd = os.open(tmp_path / "input", os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                assert child.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as fifo:
            fifo.write(DATA * 20)  # 4 MB, blocks until the child read most of it
            fifo.flush()
            while not _temp_with_data(tmp_path, "out"):
                assert child.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
            child.send_signal(signal.SIGKILL)
            child.wait()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert out.read_bytes() == b"old content"
