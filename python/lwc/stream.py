# SPDX-License-Identifier: MIT OR Apache-2.0
"""Files in the lwc stream format (docs/stream-format.md), the format of ``lwc encrypt``.

    key = lwc.stream.load_key("my.key")            # or lwc.stream.generate_key()
    with lwc.stream.open("data.lwc", "wb", key=key) as f:
        f.write(b"...")                            # any sizes; chunks are cut inside
    with lwc.stream.open("data.lwc", "rb", key=key) as f:
        shutil.copyfileobj(f, sys.stdout.buffer)

``key`` is the 32-byte master key of a key file; each file derives its own AEAD key from it
and a random salt. Files written here open with ``lwc decrypt`` and the reverse.

What a reader may have handed out before a failure: ``read()`` returns the plaintext of a
chunk only after that chunk's own tag verified, in order, and signals the end (``b""``) only
after the last chunk verified. A later chunk that fails, or a truncated file, raises
``lwc.InvalidTag`` at that point; what was read before is authentic but is only a prefix of the
original (cut at a chunk boundary). Treat it as unconfirmed until the end was reached
(``finished`` is True), or use ``decrypt_file()``, whose output file appears only once the whole
file verified.

A writer is complete only when closed explicitly: ``close()``, or the end of a ``with`` block
that was not left by an exception. In every other case (a ``with`` block left by an exception,
``abort()``, a writer that is garbage-collected or still open at interpreter exit) the last
chunk is never written: the stream is refused by every reader rather than passing for a
shorter complete one, and a path opened with ``open(path, "wb")`` keeps its old content.

Files: ``open(path, "wb")``, ``encrypt_file``, ``decrypt_file`` and ``save_key`` write a
temporary file in the destination's folder and rename it over the destination only once it is
complete and synced; on any failure the destination is untouched and the temporary file is
removed. The input itself is refused as output (also through a symbolic or hard link). A
symbolic link at the destination is replaced by the new file, never written through.

Threads: a reader or writer may be shared between threads; calls run one at a time. A call made
from inside the object's own file callback (the file object's ``write()`` or ``read()``
using the same reader or writer) raises RuntimeError. The file object is given bytes it may
keep (``write()`` receives ``bytes``; ``readinto()`` a fresh buffer).
"""

from __future__ import annotations

import _thread
import builtins
import io
import os
import stat

from . import _lwc

# Not loaded by `import lwc`: tempfile (and the shutil, random and re it imports) on the first
# file written; typing not at all (annotations are strings, read by type checkers, which take
# TYPE_CHECKING as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Optional, Union

    PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

__all__ = [
    "StreamReader", "StreamWriter", "algorithms", "decrypt_file", "encrypt_file",
    "generate_key", "load_key", "open", "save_key",
]

DEFAULT_ALGORITHM = "ascon-aead128"
DEFAULT_CHUNK_SIZE = 65536


def algorithms() -> list[str]:
    """The AEADs the stream format admits (those with an on-disk id), in registry order."""
    return list(_lwc._stream_algorithms())


def _key(key: Any) -> bytes:
    if isinstance(key, str):
        raise TypeError("key must be the 32 key bytes (see lwc.stream.load_key), not 'str'")
    return bytes(key)


def load_key(path: PathLike) -> bytes:
    """The master key of an lwc key file, with the checks of ``lwc``: one line
    ``lwc-key-v1 <64 hex digits>``, and a regular file must be private (mode 0600).
    Raises ValueError naming what is wrong."""
    return _lwc._stream_load_key(os.fsdecode(path))


def save_key(path: PathLike, key: Any, *, overwrite: bool = False) -> None:
    """Writes ``key`` as an lwc key file with mode 0600 (OSError when the file exists and not
    ``overwrite``), synced to disk. The file is written under a temporary name and renamed
    into place: a replaced key file is a new file (descriptors opened on the old one keep
    reading the old key), and a symbolic link at ``path`` is replaced, not followed."""
    _lwc._stream_save_key(os.fsdecode(path), _key(key), overwrite)


def generate_key() -> bytes:
    """A fresh 32-byte master key from the kernel's CSPRNG."""
    return _lwc._stream_generate_key()


def _umask() -> int:
    # Read, not set: os.umask() would change it for every thread for a moment.
    try:
        with builtins.open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o077


class _ReplacingFile:
    """The destination of ``open(path, "wb"/"xb")``: written to a temporary file in the same
    folder, renamed over ``path`` by commit() only. discard() (or the garbage collector)
    removes the temporary file and leaves ``path`` as it was."""

    def __init__(self, path: PathLike, exclusive: bool) -> None:
        self._path = os.fsdecode(path)
        self._exclusive = exclusive
        self._lock = _thread.allocate_lock()
        folder, base = os.path.split(self._path)
        self._folder = folder or "."
        if not base or base in (".", ".."):
            raise IsADirectoryError(f"{self._path!r} names a directory")
        if os.path.isdir(self._path):
            raise IsADirectoryError(f"{self._path!r} is a directory")
        if exclusive and os.path.lexists(self._path):
            raise FileExistsError(f"{self._path!r} already exists")
        import tempfile

        fd, self._temp = tempfile.mkstemp(prefix="." + base + ".", suffix=".lwc-tmp",
                                          dir=self._folder)  # O_EXCL, mode 0600
        self._file: Optional[BinaryIO] = builtins.open(fd, "wb")

    def write(self, data: Any) -> int:
        if self._file is None:
            raise ValueError("write to a closed lwc.stream output file")
        return self._file.write(data)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def commit(self) -> None:
        with self._lock:
            f, self._file = self._file, None
            if f is None:
                raise ValueError("the lwc.stream output file was already closed")
            try:
                f.flush()
                os.fsync(f.fileno())
                os.fchmod(f.fileno(), 0o666 & ~_umask())
                f.close()
                if self._exclusive:
                    os.link(self._temp, self._path)  # refuses a file that appeared meanwhile
                    os.unlink(self._temp)
                else:
                    os.replace(self._temp, self._path)
            except BaseException:
                f.close()
                _unlink_quietly(self._temp)
                raise
            try:
                folder = os.open(self._folder, os.O_RDONLY | os.O_DIRECTORY)
            except OSError:
                return
            try:
                os.fsync(folder)
            except OSError:
                pass  # the file is in place already; the new name is only less durable
            finally:
                os.close(folder)

    def discard(self) -> None:
        with self._lock:
            f, self._file = self._file, None
            if f is None:
                return
            try:
                f.close()
            finally:
                _unlink_quietly(self._temp)

    def __del__(self) -> None:
        try:
            self.discard()
        except Exception:
            pass


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class StreamWriter(io.BufferedIOBase):
    """Encrypts what is written to it into ``fileobj`` (lwc stream format). The stream is
    complete only after an explicit ``close()`` (or the normal end of a ``with`` block);
    a writer dropped, collected or left by an exception is aborted instead."""

    def __init__(self, fileobj: BinaryIO, *, key: Any, algorithm: str = DEFAULT_ALGORITHM,
                 chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int = 0,
                 close_file: bool = False) -> None:
        super().__init__()
        self._file = fileobj
        self._close_file = close_file
        self._state = _thread.allocate_lock()  # one close() or abort() at a time
        self._w = _lwc._StreamWriter(fileobj, _key(key), algorithm, chunk_size, threads)

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:  # type: ignore[override]
        if self.closed:
            raise ValueError("write to a closed lwc.stream writer")
        return self._w.write(data)

    def flush(self) -> None:
        if self.closed:
            return
        # Output lags the input by up to two batches; only close() writes the rest.
        if hasattr(self._file, "flush"):
            self._file.flush()

    def _refuse_reentry(self) -> None:
        w = getattr(self, "_w", None)
        if w is not None and w.in_callback:
            raise RuntimeError("lwc.stream writer used again from inside its own file object's "
                               "callback (re-entrant call)")

    def close(self) -> None:
        """Writes the last chunk: the stream is complete."""
        self._refuse_reentry()
        with self._state:
            if self.closed:
                return
            complete = False
            try:
                self._w.finish()
                complete = True
            finally:
                try:
                    super().close()  # flushes the file through flush() first
                finally:
                    self._release_file(complete)

    def abort(self) -> None:
        """Closes without writing the last chunk: the stream is then refused by every reader
        (and a path opened with ``open()`` keeps its old content)."""
        self._refuse_reentry()
        with self._state:
            if self.closed:
                return
            self._w.abort()
            try:
                super().close()
            finally:
                self._release_file(False)

    def _release_file(self, complete: bool) -> None:
        if not self._close_file:
            return
        if isinstance(self._file, _ReplacingFile):
            if complete:
                self._file.commit()
            else:
                self._file.discard()
        else:
            self._file.close()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None:
            self.abort()
        else:
            self.close()

    def __del__(self) -> None:
        # io.IOBase would close() here, which would make whatever was written so far look like
        # a complete stream: a writer nobody closed is aborted.
        if getattr(self, "_w", None) is None:  # __init__ failed
            return
        try:
            self.abort()
        except Exception:
            pass


class StreamReader(io.BufferedIOBase):
    """Decrypts ``fileobj`` (lwc stream format); reads return verified plaintext only.

    A chunk's plaintext is handed out only after that chunk's own tag verified, in order. A
    failure (a modified chunk, a wrong key, data missing at the end) raises ``lwc.InvalidTag``
    when the read reaches it, and the reader refuses further reads. So before a failure the
    caller may have received a prefix of the plaintext, cut at a chunk boundary, that is
    authentic but not known to be all of it: only the end of the stream (``read()`` returning
    ``b""``, ``finished`` True) confirms that nothing was cut off. A ``readinto()`` that raises
    may have filled part of its buffer with such verified plaintext."""

    def __init__(self, fileobj: BinaryIO, *, key: Any, threads: int = 0,
                 close_file: bool = False) -> None:
        super().__init__()
        self._file = fileobj
        self._close_file = close_file
        self._r = _lwc._StreamReader(fileobj, _key(key), threads)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:  # type: ignore[override]
        """Read verified plaintext into a writable buffer; returns the bytes written, 0 at the
        end of a complete file. Raises ValueError once closed, and ``lwc.InvalidTag`` at a
        chunk that does not verify or a file cut short (the buffer may then hold verified
        plaintext of the chunks before it, never of the failing one)."""
        if self.closed:
            raise ValueError("read from a closed lwc.stream reader")
        return self._r.readinto(buffer)

    def readinto1(self, buffer: Any) -> int:  # type: ignore[override]
        """As readinto (the reader has no separate raw layer to read at most once from)."""
        return self.readinto(buffer)

    def read(self, size: Optional[int] = -1) -> bytes:
        if self.closed:
            raise ValueError("read from a closed lwc.stream reader")
        if size is None or size < 0:
            parts = []
            while True:
                chunk = self.read(1 << 20)
                if not chunk:
                    return b"".join(parts)
                parts.append(chunk)
        buf = bytearray(size)
        n = self._r.readinto(buf)
        del buf[n:]
        return bytes(buf)

    def read1(self, size: int = -1) -> bytes:
        return self.read(size if size is not None and size >= 0 else 1 << 16)

    @property
    def finished(self) -> bool:
        """True once the last chunk verified (the whole file was authentic)."""
        return self._r.finished

    def close(self) -> None:
        r = getattr(self, "_r", None)
        if r is not None and r.in_callback:
            raise RuntimeError("lwc.stream reader used again from inside its own file object's "
                               "callback (re-entrant call)")
        if self.closed:
            return
        try:
            if r is not None and r.close() and self._close_file:
                self._file.close()
        finally:
            super().close()


def open(file: Union[PathLike, BinaryIO], mode: str = "rb", *, key: Any,
         algorithm: str = DEFAULT_ALGORITHM, chunk_size: int = DEFAULT_CHUNK_SIZE,
         threads: int = 0) -> Union[StreamReader, StreamWriter]:
    """A file object that encrypts ("wb", "xb") into or decrypts ("rb") from ``file``, a path
    or a binary file object. ``algorithm`` and ``chunk_size`` apply to writing (a reader takes
    them from the header); ``threads`` workers seal or open chunks (0: one per core).
    Decryption failures of any kind (wrong key, changed, truncated or reordered data) raise
    lwc.InvalidTag."""
    if mode not in ("rb", "wb", "xb", "r", "w", "x"):
        raise ValueError(f"mode must be 'rb', 'wb' or 'xb', not {mode!r}")
    writing = mode[0] in "wx"
    if isinstance(file, (str, bytes, os.PathLike)):
        if writing and _replaceable(file):
            f = _ReplacingFile(file, exclusive=mode[0] == "x")
        else:
            f = builtins.open(file, mode[0] + "b")
        close_file = True
    else:
        f = file
        close_file = False
    try:
        if writing:
            return StreamWriter(f, key=key, algorithm=algorithm, chunk_size=chunk_size,
                                threads=threads, close_file=close_file)
        return StreamReader(f, key=key, threads=threads, close_file=close_file)
    except BaseException:
        if close_file:
            if isinstance(f, _ReplacingFile):
                f.discard()
            else:
                f.close()
        raise


def _replaceable(path: PathLike) -> bool:
    """Whether an output path is written through a temporary file and a rename: anything but
    an existing non-regular file (a pipe, /dev/stdout), which is written to directly."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    return stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)


def encrypt_file(src: PathLike, dst: PathLike, *, key: Any, algorithm: str = DEFAULT_ALGORITHM,
                 chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int = 0,
                 overwrite: bool = False) -> None:
    """Encrypts the file ``src`` into ``dst`` (an error if ``dst`` exists, unless overwrite).
    ``dst`` appears (or is replaced) only once complete; ``src`` itself is refused as ``dst``."""
    _lwc._stream_encrypt_file(_key(key), os.fsdecode(src), os.fsdecode(dst), algorithm,
                              chunk_size, threads, overwrite)


def decrypt_file(src: PathLike, dst: PathLike, *, key: Any, threads: int = 0,
                 overwrite: bool = False) -> None:
    """Decrypts ``src`` into ``dst``, which appears (mode 0600) only after the whole file
    verified; raises lwc.InvalidTag otherwise and leaves ``dst`` as it was (absent, or its old
    content with overwrite)."""
    _lwc._stream_decrypt_file(_key(key), os.fsdecode(src), os.fsdecode(dst), threads, overwrite)
