# SPDX-License-Identifier: MIT OR Apache-2.0
"""lwc: lightweight cryptography: the ten NIST LWC finalists (Ascon with NIST SP 800-232 and
the legacy Ascon v1.2 family) and Acorn-128.

AEADs, one class per algorithm, in the style of pyca/cryptography::

    aead = lwc.AsconAEAD128(key)              # the standard; Ascon128, Ascon128a, Ascon80pq are legacy v1.2
    ct = aead.encrypt(nonce, data, associated_data)       # ciphertext || tag
    pt = aead.decrypt(nonce, ct, associated_data)         # raises lwc.InvalidTag

Hashes, XOFs, MACs and PRFs in the style of hashlib::

    lwc.ascon_hash256(data).hexdigest()
    lwc.ascon_xof128(data).digest(64)
    lwc.ascon_mac_v13(key, data).verify(tag)  # full tag; raises lwc.InvalidTag

and in one call, with no object (the fastest for short messages)::

    lwc.ascon_hash256_digest(data)            # == lwc.ascon_hash256(data).digest()
    lwc.ascon_xof128_digest(data, 64)
    lwc.ascon_mac_v13_digest(key, data); lwc.ascon_mac_v13_verify(key, data, tag)

Verifiers (``MAC.verify``, ``PRF.verify``, ``*_verify``) expect the full tag; a tag of any other length
fails. A truncated tag is accepted only when its length is named: verify(tag, tag_length=8).

Names marked "legacy (Ascon v1.2)" (Ascon128, ascon_hash, ascon_xof, ascon_mac, ...) are
superseded by NIST SP 800-232 (AsconAEAD128, ascon_hash256, ascon_xof128) and, for MACs and
PRFs, Ascon v1.3 (ascon_mac_v13, ascon_prf_v13); use them only to interoperate.
AlgorithmInfo.legacy says which.

Generic access: ``lwc.new(name, data, **options)``, ``lwc.aead(name, key, **options)``,
``lwc.algorithms_available``, ``lwc.algorithms()``.

Never encrypt two messages with the same key and nonce. Decryption releases nothing unless
the tag verified.

The classes are created from the C++ algorithm registry when the module is imported, so every
registered algorithm appears here under a name derived from its registry name.
"""

from __future__ import annotations

# `import lwc` loads nothing it does not use (typing alone would add a third to its import
# time): annotations here are strings (the annotations import above) read only by type
# checkers, which take TYPE_CHECKING as true; the published types are in __init__.pyi.
import os as _os
from collections import namedtuple as _namedtuple

from . import _lwc
from ._lwc import AEAD, MAC, PRF, XOF, Hash, HashBase, InvalidTag

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

__version__: str = _lwc.__version__

_ALGORITHM_INFO_FIELDS = {
    "name": "The registry name, e.g. 'ascon-aead128'.",
    "kind": '"aead", "hash", "xof", "cxof", "mac" or "prf".',
    "family": "The algorithm family, e.g. 'ascon'.",
    "standard": "The specification it follows.",
    "key_size": "Key size in bytes (0: unkeyed).",
    "second_key_size": "Second key (nonce masking) size in bytes; 0 when there is none.",
    "nonce_size": "Nonce size in bytes.",
    "tag_size": "Full tag size in bytes.",
    "min_tag_size": "The shortest tag tag_length= accepts, in bytes.",
    "output_size": "Usual output size in bytes.",
    "digest_size": "digest_size of the hash object; 0 for extendable output.",
    "max_output_size": "The largest output in bytes; None: unbounded.",
    "max_input_size": "The largest input in bytes; None: unbounded.",
    "max_customization_size": "The longest customization string in bytes.",
    "block_size": "Rate of the sponge (or block) in bytes.",
    "python_name": "The class or constructor name in this module.",
    "legacy": "Superseded by a standard (Ascon v1.2): prefer the standard algorithm.",
}
AlgorithmInfo = _namedtuple("AlgorithmInfo", _ALGORITHM_INFO_FIELDS, defaults=(False,))
AlgorithmInfo.__doc__ = "One registry entry: the algorithm's name, kind and sizes in bytes."
for _field, _field_doc in _ALGORITHM_INFO_FIELDS.items():
    getattr(AlgorithmInfo, _field).__doc__ = _field_doc
del _field, _field_doc


_REGISTRY: tuple[AlgorithmInfo, ...] = tuple(AlgorithmInfo(**d) for d in _lwc.registry())
_BASES = {"aead": AEAD, "hash": Hash, "xof": XOF, "cxof": XOF, "mac": MAC, "prf": PRF}
_AEADS: dict[str, type] = {}
_HASHES: dict[str, type] = {}


def algorithms() -> tuple[AlgorithmInfo, ...]:
    """Every registered algorithm, in registry order."""
    return _REGISTRY


class _TagSize:
    """The tag size in bytes: the instance's tag_length, or on the class the full tag size."""

    __slots__ = ("full",)

    def __init__(self, full: int) -> None:
        self.full = full

    def __get__(self, obj: Any, owner: Any = None) -> int:
        return self.full if obj is None else obj._tag_length


def _generate_key(cls: type) -> bytes:
    """A new random key of key_size bytes (os.urandom)."""
    return _os.urandom(cls.key_size)


def _sizes(info: AlgorithmInfo) -> str:
    if info.kind == "aead":
        tags = (
            f"{info.tag_size}"
            if info.min_tag_size == info.tag_size
            else f"{info.tag_size} (tag_length={info.min_tag_size}..{info.tag_size})"
        )
        s = f"key {info.key_size}, nonce {info.nonce_size}, tag {tags} bytes"
        if info.second_key_size:
            s += f"; second_key (nonce masking) {info.second_key_size} bytes"
        return s
    parts = []
    if info.key_size:
        parts.append(f"key {info.key_size} bytes")
    parts.append(
        f"output {info.output_size} bytes"
        if info.max_output_size
        else "output of any length (digest(length), read(n))"
    )
    if info.max_input_size is not None:
        parts.append(f"input at most {info.max_input_size} bytes")
    if info.max_customization_size:
        parts.append(f"customization string at most {info.max_customization_size} bytes")
    return ", ".join(parts)


_USAGE = {
    "aead": (
        "    aead = lwc.{py}(key)\n"
        "    ct = aead.encrypt(nonce, data, associated_data)   # ciphertext || tag\n"
        "    pt = aead.decrypt(nonce, ct, associated_data)     # raises lwc.InvalidTag\n\n"
        "Never encrypt two messages with the same key and nonce."
    ),
    "hash": "    lwc.{py}(data).digest()",
    "xof": "    h = lwc.{py}(data); h.digest(64); h.read(16); h.read(16)",
    "cxof": "    h = lwc.{py}(data, customization=b'...'); h.digest(64)",
    "mac": "    lwc.{py}(key, data).digest(); lwc.{py}(key, data).verify(tag)  # raises lwc.InvalidTag",
    "prf": "    lwc.{py}(key, data).digest(32); lwc.{py}(key, data).verify(tag)  # raises lwc.InvalidTag",
}


def _successor(info: AlgorithmInfo) -> AlgorithmInfo:
    """The current algorithm that replaces a legacy one: its "-v13" version where there is one,
    else the first standard algorithm of the same family and kind."""
    current = [i for i in _REGISTRY if not i.legacy and i.family == info.family]
    for i in current:
        if i.name == info.name + "-v13":
            return i
    return next((i for i in current if i.kind == info.kind), current[0] if current else info)


def _doc(info: AlgorithmInfo) -> str:
    what = {
        "aead": "authenticated encryption",
        "hash": "hash",
        "xof": "extendable-output function",
        "cxof": "customizable extendable-output function",
        "mac": "message authentication code",
        "prf": "pseudorandom function (keyed XOF)",
    }[info.kind]
    if info.legacy:
        title = f"{info.name}: {what}, legacy (Ascon v1.2).\n\n"
        successor = _successor(info)
        title += (f"Superseded by {successor.standard}; use it only to read or check existing "
                  f"data. New designs: lwc.{successor.python_name}.\n\n")
    else:
        title = f"{info.name}: {what} ({info.standard}).\n\n"
    return (
        title
        + f"Sizes: {_sizes(info)}.\n\n"
        + _USAGE[info.kind].format(py=info.python_name) + "\n"
    )


def _make_class(info: AlgorithmInfo) -> type:
    base = _BASES[info.kind]
    ns: dict[str, Any] = {
        "__slots__": (),
        "__module__": __name__,
        "__qualname__": info.python_name,
        "__doc__": _doc(info),
        "_lwc_algorithm": info.name,
        "name": info.name,
        "info": info,
    }
    if info.kind == "aead":
        ns.update(
            key_size=info.key_size,
            nonce_size=info.nonce_size,
            tag_size=_TagSize(info.tag_size),
            min_tag_size=info.min_tag_size,
            second_key_size=info.second_key_size,
            generate_key=classmethod(_generate_key),
        )
    else:
        ns.update(digest_size=info.digest_size, block_size=info.block_size)
        if info.key_size:
            ns.update(key_size=info.key_size, generate_key=classmethod(_generate_key))
    return type(base)(info.python_name, (base,), ns)


# One-shot functions (lwc.ascon_hash256_digest(data), lwc.ascon_mac_verify(key, data, tag), ...),
# created by the extension from the registry next to the classes.
_ONESHOTS: list[str] = []
# Absent from the stable-ABI module, whose classes keep CPython's generic construction.
_fast_constructor = getattr(_lwc, "_fast_constructor", None)

for _info in _REGISTRY:
    _cls = _make_class(_info)
    globals()[_info.python_name] = _cls
    (_AEADS if _info.kind == "aead" else _HASHES)[_info.name] = _cls
    if _info.kind != "aead":
        if _fast_constructor is not None:
            _fast_constructor(_cls)
        for _suffix in ("_digest", "_verify") if _info.key_size else ("_digest",):
            globals()[_info.python_name + _suffix] = getattr(_lwc, _info.python_name + _suffix)
            _ONESHOTS.append(_info.python_name + _suffix)
del _info, _cls, _suffix

algorithms_available: frozenset[str] = frozenset(a.name for a in _REGISTRY)


def _canonical(name: str, table: dict[str, type]) -> Optional[type]:
    if not isinstance(name, str):
        raise TypeError(f"algorithm name must be a str, not {type(name).__name__!r}")
    key = name.lower().replace("_", "-")
    if key in table:
        return table[key]
    for cls in table.values():  # class names: "AsconAEAD128"
        if cls.__name__ == name:
            return cls
    return None


def new(name: str, data: Any = b"", **options: Any) -> HashBase:
    """A hash, XOF, MAC or PRF object by name, like hashlib.new.

    name: a registry name ("ascon-hash256") or its Python spelling ("ascon_hash256").
    options: key= (MAC and PRF, required), customization= (CXOF); usedforsecurity= is
    accepted as by hashlib.new and ignored.
    """
    options.pop("usedforsecurity", None)
    cls = _canonical(name, _HASHES)
    if cls is None:
        if _canonical(name, _AEADS) is not None:
            raise ValueError(f"{name!r} is an AEAD algorithm: use lwc.aead(name, key)")
        raise ValueError(f"unsupported hash type {name!r}")
    if issubclass(cls, (MAC, PRF)):
        if "key" not in options:
            raise TypeError(f"{cls.name} is keyed: pass key=")
        key = options.pop("key")
        return cls(key, data, **options)
    return cls(data, **options)


def aead(name: str, key: Any, **options: Any) -> AEAD:
    """An AEAD object by name, e.g. lwc.aead("ascon-aead128", key, tag_length=12).

    options: tag_length=, second_key= (as for the named classes).
    """
    cls = _canonical(name, _AEADS)
    if cls is None:
        if _canonical(name, _HASHES) is not None:
            raise ValueError(f"{name!r} is not an AEAD algorithm: use lwc.new(name)")
        raise ValueError(f"unknown AEAD algorithm {name!r}")
    return cls(key, **options)


from . import batch  # noqa: E402  (needs the classes above for its doctest only)
from . import stream  # noqa: E402

__all__ = [
    "AEAD",
    "MAC",
    "PRF",
    "XOF",
    "AlgorithmInfo",
    "Hash",
    "HashBase",
    "InvalidTag",
    "aead",
    "algorithms",
    "batch",
    "stream",
    "algorithms_available",
    "new",
    *(a.python_name for a in _REGISTRY),
    *_ONESHOTS,
]
