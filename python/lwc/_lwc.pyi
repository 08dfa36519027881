from typing import Any, Optional

from _typeshed import ReadableBuffer, WriteableBuffer
from typing_extensions import Self

__version__: str
GIL_RELEASE_THRESHOLD: int

class InvalidTag(Exception): ...

def registry() -> list[dict[str, Any]]: ...
def class_name(name: str) -> str: ...
def function_name(name: str) -> str: ...

class AEAD:
    name: str
    key_size: int
    nonce_size: int
    tag_size: int
    @property
    def _tag_length(self) -> int: ...
    def __init__(
        self,
        key: ReadableBuffer,
        tag_length: Optional[int] = None,
        *,
        second_key: Optional[ReadableBuffer] = None,
    ) -> None: ...
    def encrypt(
        self,
        nonce: ReadableBuffer,
        data: ReadableBuffer,
        associated_data: Optional[ReadableBuffer] = None,
    ) -> bytes: ...
    def decrypt(
        self,
        nonce: ReadableBuffer,
        data: ReadableBuffer,
        associated_data: Optional[ReadableBuffer] = None,
    ) -> bytes: ...
    def encrypt_into(
        self,
        nonce: ReadableBuffer,
        data: ReadableBuffer,
        associated_data: Optional[ReadableBuffer],
        buf: WriteableBuffer,
    ) -> int: ...
    def decrypt_into(
        self,
        nonce: ReadableBuffer,
        data: ReadableBuffer,
        associated_data: Optional[ReadableBuffer],
        buf: WriteableBuffer,
    ) -> int: ...

class HashBase:
    name: str
    digest_size: int
    block_size: int
    def update(self, data: ReadableBuffer, /) -> None: ...

class Hash(HashBase):
    def __init__(self, data: ReadableBuffer = b"", *, usedforsecurity: bool = True) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def copy(self) -> Self: ...

class XOF(HashBase):
    def __init__(
        self,
        data: ReadableBuffer = b"",
        *,
        customization: Optional[ReadableBuffer] = None,
        usedforsecurity: bool = True,
    ) -> None: ...
    def digest(self, length: int) -> bytes: ...
    def hexdigest(self, length: int) -> str: ...
    def read(self, length: int) -> bytes: ...
    def copy(self) -> Self: ...

class MAC(Hash):
    def __init__(self, key: ReadableBuffer, data: ReadableBuffer = b"") -> None: ...  # type: ignore[override]
    def tag(self) -> bytes: ...
    def verify(self, tag: ReadableBuffer) -> None: ...

class PRF(XOF):
    def __init__(self, key: ReadableBuffer, data: ReadableBuffer = b"") -> None: ...  # type: ignore[override]
    def tag(self, length: Optional[int] = None) -> bytes: ...
    def verify(self, tag: ReadableBuffer) -> None: ...
