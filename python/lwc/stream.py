"""Files in the lwc stream format (docs/stream-format.md), the format of ``lwc encrypt``.

    key = lwc.stream.load_key("my.key")            # or lwc.stream.generate_key()
    with lwc.stream.open("data.lwc", "wb", key=key) as f:
        f.write(b"...")                            # any sizes; chunks are cut inside
    with lwc.stream.open("data.lwc", "rb", key=key) as f:
        shutil.copyfileobj(f, sys.stdout.buffer)

``key`` is the 32-byte master key of a key file; each file derives its own AEAD key from it
and a random salt. Files written here open with ``lwc decrypt`` and the reverse.

What a reader may have consumed before a failure: ``read()`` hands out the plaintext of a
chunk only after that chunk's tag verified, in order, and signals the end (``b""``) only after
the last chunk verified. A later chunk that fails, or a truncated file, raises
``lwc.InvalidTag``; what was read before is authentic but is only a prefix of the original
(cut at a chunk boundary). Treat it as unconfirmed until the end was reached, or use
``decrypt_file()``, whose output file appears only once the whole file verified.

A writer must be closed (``close()`` or the end of a ``with`` block): the last chunk is written
then. A ``with`` block left by an exception does not write it, so the partial file is refused
by every reader rather than passing for a shorter complete one.
"""

from __future__ import annotations

import builtins
import io
import os
from typing import Any, BinaryIO, Optional, Union

from . import _lwc

__all__ = [
    "StreamReader", "StreamWriter", "algorithms", "decrypt_file", "encrypt_file",
    "generate_key", "load_key", "open", "save_key",
]

DEFAULT_ALGORITHM = "ascon-aead128"
DEFAULT_CHUNK_SIZE = 65536

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


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
    """Writes ``key`` as an lwc key file with mode 0600 (FileExistsError-like OSError when the
    file exists and not ``overwrite``), synced to disk."""
    _lwc._stream_save_key(os.fsdecode(path), _key(key), overwrite)


def generate_key() -> bytes:
    """A fresh 32-byte master key from the kernel's CSPRNG."""
    return _lwc._stream_generate_key()


class StreamWriter(io.BufferedIOBase):
    """Encrypts what is written to it into ``fileobj`` (lwc stream format)."""

    def __init__(self, fileobj: BinaryIO, *, key: Any, algorithm: str = DEFAULT_ALGORITHM,
                 chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int = 0,
                 close_file: bool = False) -> None:
        super().__init__()
        self._file = fileobj
        self._close_file = close_file
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

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._w.finish()
        finally:
            try:
                super().close()  # flushes the file through flush() first
            finally:
                if self._close_file:
                    self._file.close()

    def abort(self) -> None:
        """Closes without writing the last chunk: the file is then refused by every reader."""
        if self.closed:
            return
        self._w.abort()
        try:
            super().close()
        finally:
            if self._close_file:
                self._file.close()

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is not None:
            self.abort()
        else:
            self.close()


class StreamReader(io.BufferedIOBase):
    """Decrypts ``fileobj`` (lwc stream format); reads return verified plaintext only."""

    def __init__(self, fileobj: BinaryIO, *, key: Any, threads: int = 0,
                 close_file: bool = False) -> None:
        super().__init__()
        self._file = fileobj
        self._close_file = close_file
        self._r = _lwc._StreamReader(fileobj, _key(key), threads)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:  # type: ignore[override]
        if self.closed:
            raise ValueError("read from a closed lwc.stream reader")
        return self._r.readinto(buffer)

    def readinto1(self, buffer: Any) -> int:  # type: ignore[override]
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
        if self.closed:
            return
        try:
            self._r.close()
            if self._close_file:
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
            f.close()
        raise


def encrypt_file(src: PathLike, dst: PathLike, *, key: Any, algorithm: str = DEFAULT_ALGORITHM,
                 chunk_size: int = DEFAULT_CHUNK_SIZE, threads: int = 0,
                 overwrite: bool = False) -> None:
    """Encrypts the file ``src`` into ``dst`` (an error if ``dst`` exists, unless overwrite)."""
    _lwc._stream_encrypt_file(_key(key), os.fsdecode(src), os.fsdecode(dst), algorithm,
                              chunk_size, threads, overwrite)


def decrypt_file(src: PathLike, dst: PathLike, *, key: Any, threads: int = 0,
                 overwrite: bool = False) -> None:
    """Decrypts ``src`` into ``dst``, which appears (mode 0600) only after the whole file
    verified; raises lwc.InvalidTag otherwise and leaves no ``dst``."""
    _lwc._stream_decrypt_file(_key(key), os.fsdecode(src), os.fsdecode(dst), threads, overwrite)
