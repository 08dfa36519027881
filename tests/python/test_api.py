# SPDX-License-Identifier: MIT OR Apache-2.0
"""The package surface: classes generated from the registry, the naming rule, type stubs and
py.typed, docstrings shown by help(), and the installed distribution."""

from __future__ import annotations

import ast
import importlib.metadata
import pydoc
from pathlib import Path

import pytest

import lwc
from lwc import _lwc

PACKAGE = Path(lwc.__file__).parent


@pytest.mark.parametrize(
    "name,cls",
    [("ascon-aead128", "AsconAEAD128"), ("ascon-128", "Ascon128"), ("ascon-128a", "Ascon128a"),
     ("ascon-80pq", "Ascon80pq"), ("acorn-128", "Acorn128"), ("grain-128aead", "Grain128AEAD"),
     ("xoodyak", "Xoodyak"), ("photon-beetle-aead128", "PhotonBeetleAEAD128")],
)
def test_class_naming_rule(name, cls):
    assert _lwc.class_name(name) == cls


def test_function_naming_rule():
    assert _lwc.function_name("ascon-hash256") == "ascon_hash256"
    assert _lwc.function_name("ascon-prfshort-v13") == "ascon_prfshort_v13"


def test_every_registry_entry_has_its_class():
    kinds = {"aead": lwc.AEAD, "hash": lwc.Hash, "xof": lwc.XOF, "cxof": lwc.XOF,
             "mac": lwc.MAC, "prf": lwc.PRF}
    names = set()
    for info in lwc.algorithms():
        expected = (_lwc.class_name if info.kind == "aead" else _lwc.function_name)(info.name)
        assert info.python_name == expected
        cls = getattr(lwc, expected)
        assert issubclass(cls, kinds[info.kind]) and cls.name == info.name and cls.info == info
        assert cls.__module__ == "lwc" and cls.__qualname__ == expected
        assert expected in lwc.__all__
        names.add(info.name)
    assert lwc.algorithms_available == names
    assert len(names) == len(lwc.algorithms())


def test_version_matches_the_distribution():
    assert lwc.__version__ == importlib.metadata.version("lwc-crypto")


def test_py_typed_and_stubs_are_installed():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_lwc.pyi").is_file()
    stub = ast.parse((PACKAGE / "__init__.pyi").read_text())
    classes = {n.name for n in stub.body if isinstance(n, ast.ClassDef)}
    for info in lwc.algorithms():
        assert info.python_name in classes, f"{info.python_name} missing from __init__.pyi"
    all_node = next(n for n in stub.body if isinstance(n, ast.Assign)
                    and any(getattr(t, "id", None) == "__all__" for t in n.targets))
    assert set(ast.literal_eval(all_node.value)) == set(lwc.__all__)


def test_extension_stub_matches_the_runtime():
    stub = ast.parse((PACKAGE / "_lwc.pyi").read_text())
    for node in stub.body:
        if isinstance(node, ast.ClassDef):
            runtime = getattr(_lwc, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    assert hasattr(runtime, item.name), f"{node.name}.{item.name}"
        elif isinstance(node, ast.FunctionDef):
            assert hasattr(_lwc, node.name)


def test_help_shows_docstrings():
    text = pydoc.render_doc(lwc.AsconAEAD128, renderer=pydoc.plaintext)
    for phrase in ["encrypt(self, nonce", "decrypt_into(self", "InvalidTag",
                   "Never encrypt two messages with the same key and nonce", "tag_length"]:
        assert phrase in text
    text = pydoc.render_doc(lwc.ascon_xof128, renderer=pydoc.plaintext)
    assert "read(self, length" in text and "digest(self, length" in text
    text = pydoc.render_doc(lwc.ascon_mac, renderer=pydoc.plaintext)
    assert "verify(self, tag" in text and "constant time" in text
    assert "hashlib" in (lwc.__doc__ or "")
    assert lwc.InvalidTag.__doc__ and lwc.new.__doc__ and lwc.aead.__doc__
