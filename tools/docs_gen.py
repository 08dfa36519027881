# SPDX-License-Identifier: MIT OR Apache-2.0
"""Pages of the documentation site that are generated from the sources (docs/conf.py runs
this before Sphinx reads anything; `python3 tools/docs_gen.py --check` runs only the checks).

- algorithms/: one page per family, from the registry (the built `lwc` module), the KAT
  files in tests/vectors/, the batch engine's lane queries, the CUDA warp-kernel trait and the
  RTL test bench;
- reference/c-*.rst: the C headers, each function with the comment written above it;
- reference/cpp*.{md,rst}: the public C++ headers, every public name and class member with
  its comment, and the algorithm classes with the members they share;
- reference/csharp.md: the XML documentation that the C# compiler writes;
- performance.md: tables from the benchmark JSON kept in docs/data/;
- more.md: the top-level pages of docs/ that no other table of contents lists.

Nothing here holds a figure or a name of its own: a page that falls behind its source is
regenerated on the next build.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

PUBLIC_C_HEADERS = ["include/lwc.h", "include/lwc/batch.h", "include/lwc/stream.h"]

# Top-level pages that the index's own tables of contents list; every other docs/*.md page
# goes into the generated "more" table of contents, so a page added by anyone is on the site.
LISTED_TOP_LEVEL = {"index", "cli", "stream-format", "batch", "cuda", "openssl", "HARDWARE",
                    "SECURITY", "PERFORMANCE", "performance-batch",
                    "TESTING", "limitations", "performance-acorn-grain", "performance-cli",
                    "performance-cuda", "performance-python"}

FAMILY_TITLES = {
    "ascon": "Ascon", "acorn": "Acorn", "grain": "Grain-128AEAD", "xoodyak": "Xoodyak",
    "sparkle": "SPARKLE (Schwaemm and Esch)", "tinyjambu": "TinyJAMBU", "elephant": "Elephant",
    "gift-cofb": "GIFT-COFB", "romulus": "Romulus", "photon-beetle": "PHOTON-Beetle",
    "isap": "ISAP",
}


def project_version(root: Path) -> str:
    text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(lwc VERSION ([0-9.]+)", text)
    return m.group(1) if m else "unknown"


def write_if_changed(path: Path, text: str) -> None:
    """Rewrites a page only when its text changed, so Sphinx rereads only what changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


# ---- C headers ----------------------------------------------------------------------------

_API_MACRO = re.compile(r"\bLWC_(?:BATCH_|STREAM_)?API\s+")


def _comment_text(block: str) -> str:
    """The words of a /* ... */ comment, its leading stars and the delimiters removed."""
    body = block.strip()
    body = body[2:-2] if body.startswith("/*") and body.endswith("*/") else body
    lines = [re.sub(r"^\s*\*?\s?", "", ln) for ln in body.splitlines()]
    return "\n".join(lines).strip()


def c_header_chunks(text: str) -> list[tuple[str, str]]:
    """Splits a header into (comment, code) pairs: a comment and the declarations that follow
    it up to the next blank line or comment. Code without a comment gets an empty one."""
    chunks: list[tuple[str, str]] = []
    comment, code = "", []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("/*"):
            if code:
                chunks.append((comment, "\n".join(code)))
                comment, code = "", []
            block = [line]
            while "*/" not in lines[i]:
                i += 1
                block.append(lines[i])
            comment = _comment_text("\n".join(block))
        elif not stripped:
            if code:
                chunks.append((comment, "\n".join(code)))
            comment, code = "", []
        else:
            code.append(line)
        i += 1
    if code:
        chunks.append((comment, "\n".join(code)))
    return chunks


def c_functions(code: str) -> list[tuple[str, str, str]]:
    """(name, declaration, trailing comment) of each exported function in a piece of code."""
    found = []
    for m in re.finditer(r"LWC_(?:BATCH_|STREAM_)?API\s+([^;]*?\(.*?\))\s*;([^\n]*)", code, re.S):
        decl = " ".join(m.group(1).split())
        name = re.search(r"(\w+)\s*\(", decl).group(1)
        found.append((name, decl, _comment_text(m.group(2)) if "/*" in m.group(2) else ""))
    return found


def undocumented_c_functions(root: Path) -> list[str]:
    """Exported functions of the public C headers with no comment above them (a comment may
    cover the run of declarations that follows it without a blank line) and none after."""
    missing = []
    for header in PUBLIC_C_HEADERS:
        for comment, code in c_header_chunks((root / header).read_text(encoding="utf-8")):
            for name, _, trailing in c_functions(code):
                if not comment and not trailing:
                    missing.append(f"{header}: {name}")
    return missing


def _rst_inline(text: str) -> str:
    """Comment words on one line, with nothing in them read as markup."""
    text = " ".join(text.split())
    text = text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace("|", "\\|")
    return re.sub(r"(\w)_(?!\w)", r"\1\\_", text)


def _rst_text(text: str, indent: str = "") -> str:
    """Comment prose as a reStructuredText line block: the header's line breaks and indented
    lists stay as written, and nothing in it is read as markup."""
    out = []
    for ln in text.splitlines():
        ln = ln.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace("|", "\\|")
        ln = re.sub(r"(\w)_(?!\w)", r"\1\\_", ln)
        out.append(f"{indent}| {ln}" if ln.strip() else f"{indent}|")
    return "\n".join(out)


def _is_plumbing(code: str) -> bool:
    """Include guards, export macros, includes and extern "C": not part of the interface."""
    first = code.lstrip().split("\n", 1)[0]
    return (first.startswith(("#ifndef", "#ifdef", "#if ", "#if(", "#include", "#endif", "}",
                              "extern", "#elif", "#else"))
            or re.match(r"#define LWC_\w*(H|API)\b", first) is not None)


def c_reference_page(root: Path, header: str) -> str:
    text = (root / header).read_text(encoding="utf-8")
    include = header.removeprefix("include/")
    title = f"<{include}>"
    lines = [f".. This page is generated by tools/docs_gen.py from {header}; edit the header.", "",
             title, "=" * len(title), ""]
    for comment, code in c_header_chunks(text):
        if "SPDX-License-Identifier" in comment:
            continue
        if comment.startswith("----"):
            # A section rule: its words title the declarations that follow.
            lines += [".. rubric:: " + _rst_inline(comment.strip("- ")), ""]
            comment = ""
        if _is_plumbing(code) and not c_functions(code):
            code = ""
        functions = c_functions(code)
        if functions:
            lines.append(".. c:function:: " + "\n                ".join(
                _API_MACRO.sub("", d) for _, d, _ in functions))
            lines.append("")
            if comment:
                lines += [_rst_text(comment, "   "), ""]
            for name, _, trailing in functions:
                if trailing:
                    lines += [f"   ``{name}``: " + _rst_inline(trailing), ""]
            continue
        if comment:
            lines += [_rst_text(comment), ""]
        if code.strip():
            lines += [".. code-block:: c", ""] + ["   " + ln for ln in code.splitlines()] + [""]
    return "\n".join(lines) + "\n"


# ---- C++ headers ---------------------------------------------------------------------------
#
# The C++ reference is read from the public headers by a small parser written for the way
# they are written: `//` comments, one declaration per statement, bodies in braces. A comment
# documents the declarations directly below it, up to a blank line or the next comment; a
# comment after a declaration on its own line (and the comment lines below it at the same
# column) documents that declaration alone. Anything at namespace or public class scope the
# parser does not recognise stops the build with the header and line, rather than leaving a
# name out of the reference.

# The headers a program includes; the rest of include/lwc/ is what they are built from.
PUBLIC_CPP_HEADERS = ["lwc.hpp", "ascon.hpp", "common/aead_span_forms.hpp",
                      "common/encryptor_calls.hpp", "registry.hpp",
                      "batch.hpp", "jobs.hpp", "packed_jobs.hpp", "stream.hpp",
                      "stream/format.hpp", "cuda.hpp", "algorithm_list.hpp", "common/span.hpp",
                      "common/kind.hpp"]

# Headers whose namespace is lwc::detail but whose members every algorithm class re-exports:
# they are the shared shape of those classes, documented once.
_SHARED_SHAPE_HEADERS = {"common/aead_span_forms.hpp", "common/encryptor_calls.hpp"}

# Macros of the declarations that are not part of the C++ a reader needs (LWC_HD marks
# functions that also compile for the GPU).
_CPP_DROPPED_MACROS = re.compile(r"\bLWC_HD\s+")


class CppParseError(SystemExit):
    pass


@dataclass
class CppEntity:
    kind: str             # function, class, struct, enum, var, type, concept, alias-namespace
    name: str
    scope: str            # enclosing namespace and classes: "lwc::batch", "lwc::hasher"
    signature: str        # what follows the Sphinx directive
    comment: str = ""     # the comment above its group of declarations
    trailing: str = ""    # the comment after it
    group: int = 0        # entities with one group number share the comment above them
    line: int = 0
    special: bool = False  # a copy/move/destructor or an override: the language documents it
    members: list = field(default_factory=list)  # class members, or (name, comment) enumerators
    reexport_of: str = ""  # `using ns::name;`: the name it brings in

    @property
    def qualified(self) -> str:
        return f"{self.scope}::{self.name}" if self.scope else self.name

    @property
    def documented(self) -> bool:
        return bool(self.comment.strip() or self.trailing.strip())


@dataclass
class CppHeader:
    path: str             # relative to include/lwc/
    opening: str          # the comment that opens the header
    items: list           # ("rubric", text), ("prose", (scope, text)), ("entity", CppEntity)


def _cpp_error(path: str, text: str, pos: int, what: str) -> CppParseError:
    line = text.count("\n", 0, pos) + 1
    return CppParseError(f"include/lwc/{path}:{line}: {what} (tools/docs_gen.py reads the "
                         "public C++ headers; write the declaration the way the others are, or "
                         "teach the parser)")


def _skip_balanced(text: str, pos: int) -> int:
    """The position after the bracket that closes the one at `pos`, skipping strings,
    character literals and comments."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[pos]]]
    i = pos + 1
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if c != stack.pop():
                raise ValueError(f"unbalanced {c!r}")
            if not stack:
                return i + 1
        i += 1
    raise ValueError("unclosed bracket")


def _skip_literal(text: str, i: int) -> int:
    quote = text[i]
    if quote == "'" and i > 0 and text[i - 1].isalnum():
        return i + 1  # a digit separator
    j = i + 1
    while j < len(text) and text[j] != quote:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _statement_end(text: str, pos: int) -> tuple[int, str]:
    """From `pos`, the position of the first ';' or '{' outside brackets, and which it is."""
    i = pos
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
        elif text.startswith("//", i):
            i = text.find("\n", i)
        elif c in "([":
            i = _skip_balanced(text, i)
        elif c in ";{}":
            return i, c
        else:
            i += 1
    raise ValueError("statement without an end")


def _template_prefix(head: str) -> tuple[str, str]:
    """Splits `template <...> [requires (...)]` off the front of a declaration."""
    m = re.match(r"template\s*<", head)
    if not m:
        return "", head
    depth, i = 1, m.end()
    while depth:
        depth += {"<": 1, ">": -1}.get(head[i], 0)
        i += 1
    prefix = head[:i]
    rest = head[i:].lstrip()
    if rest.startswith("requires"):
        j = len("requires")
        while rest[j].isspace():
            j += 1
        if rest[j] == "(":
            j = _skip_balanced(rest, j)
        else:
            j = re.match(r"requires\s+[\w:<>, ]+?(?=\s+(?:struct|class|\w+\s*\())", rest).end()
        prefix += " " + rest[:j]
        rest = rest[j:].lstrip()
    return " ".join(prefix.split()), rest


def _split_top_level_commas(text: str) -> list[str]:
    parts, depth, angle, cur = [], 0, 0, ""
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "<" and i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
            angle += 1
        elif c == ">" and angle:
            angle -= 1
        if c == "," and depth == 0 and angle == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    return parts + [cur]


def _function_parts(head: str) -> tuple[str, str] | None:
    """(name, signature) when a declaration head (template prefix removed) is a function."""
    i = 0
    while True:
        i = head.find("(", i)
        if i < 0:
            return None
        before = head[:i].rstrip()
        if re.search(r"\boperator\s*$", before) and head.startswith("()", i):
            i += 2  # operator(): the parameter list is the next one
            continue
        break
    if "=" in re.sub(r"operator\s*\S+|==|<=|>=|!=", "", before):
        return None  # a variable whose initializer calls something
    m = re.search(r"(~?\w+|operator\s*\S+?)\s*$", before)
    if not m or m.group(1) in ("alignas", "decltype", "sizeof", "static_assert"):
        return None
    if head[i + 1:].lstrip().startswith("*"):
        return None  # a pointer to function: a variable
    name = " ".join(m.group(1).split())
    close = _skip_balanced(head, i)
    rest = head[close:]
    # the qualifiers: up to a constructor's member initializers (" : ") or the end
    init = re.search(r"(?<!:):(?!:)", rest)
    if init:
        rest = rest[:init.start()]
    return name, " ".join((head[:close] + rest).split())


def _var_declarators(head: str) -> list[tuple[str, str]]:
    """(name, signature) of each variable a declaration head declares; initializers longer
    than a short value are left out of the signature."""
    parts = _split_top_level_commas(head)
    first = parts[0]
    m = re.match(r"(.*?)(\b\w+)\s*(\[[^\]]*\])?\s*(=.*|\{.*)?$", first, re.S)
    if not m:
        return []
    type_part = m.group(1)
    out = []
    for k, part in enumerate(parts):
        decl = part if k == 0 else type_part + part.strip()
        m = re.match(r"(.*?)(\b\w+)\s*(\[[^\]]*\])?\s*(=.*|\{.*)?$", decl, re.S)
        if not m:
            return []
        init = " ".join((m.group(4) or "").split())
        sig = " ".join((m.group(1) + m.group(2) + (m.group(3) or "")).split())
        if init and len(init) <= 40 and "(" not in re.sub(r'"[^"]*"', '""', init):
            sig += (" " if init.startswith("=") else "") + init
        out.append((m.group(2), sig))
    return out


def _is_special_member(name: str, sig: str, class_name: str) -> bool:
    if name.startswith("~") or name.startswith("operator=") or re.search(r"\boverride\b", sig):
        return True
    if name == class_name:  # a copy or move constructor
        params = sig[sig.index("(") + 1:sig.rindex(")")].strip()
        return re.fullmatch(rf"(const\s+)?{class_name}\s*&&?\s*\w*", params) is not None
    return False


class _CppReader:
    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        self.items: list = []
        self.groups = 0

    def fail(self, pos: int, what: str) -> CppParseError:
        return _cpp_error(self.path, self.text, pos, what)

    def read(self, public_detail: bool = False) -> CppHeader:
        self.public_detail = public_detail
        self._scope(0, [], None, self.items)
        return CppHeader(self.path, _opening_comment(self.text), self.items)

    def _trailing(self, end: int) -> tuple[str, int]:
        """The comment after a declaration that ends at `end` on its line, with the comment
        lines below it at the same column; and the position after them."""
        nl = self.text.find("\n", end)
        nl = len(self.text) if nl < 0 else nl
        rest = self.text[end:nl]
        m = re.match(r"\s*//(.*)", rest)
        if not m:
            return "", end
        column = end - (self.text.rfind("\n", 0, end) + 1) + rest.index("//")
        lines = [m.group(1).strip()]
        pos = nl
        while pos < len(self.text):
            nxt = self.text.find("\n", pos + 1)
            nxt = len(self.text) if nxt < 0 else nxt
            line = self.text[pos + 1:nxt]
            if line.startswith(" " * column + "//") and line[:column].strip() == "":
                lines.append(line[column + 2:].strip())
                pos = nxt
            else:
                break
        words = "\n".join(lines)
        return ("" if words.startswith("NOLINT") else words), pos

    def _scope(self, pos: int, scope: list[str], class_kind: str | None, out: list) -> int:
        """Reads declarations from `pos` to the '}' that closes the scope (or the end of the
        header); returns the position after that brace."""
        text = self.text
        comment: list[str] = []          # the comment lines read since the last declaration
        group, group_comment = None, ""  # the run of declarations below one comment
        access = "private" if class_kind == "class" else "public"

        def flush():
            nonlocal comment
            if comment:
                out.append(self._free_comment(scope, comment))
            comment = []

        while True:
            ws = re.compile(r"\s*").match(text, pos)
            pos = ws.end()
            if ws.group(0).count("\n") >= 2:  # a blank line ends a comment and its run
                flush()
                group = None
            if pos >= len(text):
                if class_kind is not None or scope:
                    raise self.fail(pos, "the header ends inside a scope")
                flush()
                return pos
            if text.startswith("//", pos):
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                group = None  # a comment after declarations starts a new run
                comment.append(text[pos + 2:end].removeprefix(" "))
                pos = end
                continue
            if text.startswith("/*", pos):
                raise self.fail(pos, "a /* */ comment; the C++ headers use // comments")
            if text.startswith("#", pos):
                end = pos
                while True:
                    end = text.find("\n", end + 1)
                    end = len(text) if end < 0 else end
                    if not text[:end].rstrip().endswith("\\"):
                        break
                pos = end
                comment, group = [], None
                continue
            if text.startswith("}", pos):
                if not scope:
                    raise self.fail(pos, "a '}' that closes nothing")
                flush()
                return pos + 1
            if class_kind is not None:
                label = re.compile(r"(public|private|protected)\s*:(?!:)").match(text, pos)
                if label:
                    access = label.group(1)
                    pos = label.end()
                    comment, group = [], None
                    continue
            try:
                end, what = _statement_end(text, pos)
            except ValueError as e:
                raise self.fail(pos, str(e))
            head = text[pos:end].strip()
            if re.fullmatch(r"namespace\s+[\w:]+", head):
                flush()  # words above a namespace describe what follows
                group = None
            elif group is None:
                self.groups += 1
                group, group_comment = self.groups, "\n".join(comment).strip()
                comment = []
            hidden = access != "public"
            pos, entities = self._statement(pos, end, what, head, scope, class_kind, hidden)
            trailing, pos = self._trailing(pos)
            if entities and not hidden:
                for e in entities:
                    e.comment, e.group = group_comment, group
                entities[-1].trailing = entities[-1].trailing or trailing
                out += [("entity", e) for e in entities]

    def _free_comment(self, scope: list[str], lines: list[str]):
        text = "\n".join(lines).strip()
        if re.match(r"-{3,}", text):
            title, _, rest = text.partition("\n")
            item = ("rubric", title.strip("- "))
            if rest.strip():
                return ("section", (title.strip("- "), "::".join(scope), rest.strip()))
            return item
        return ("prose", ("::".join(scope), text))

    def _statement(self, pos, end, what, head, scope, class_kind, hidden):
        """Reads the declaration from `pos` whose head ends at `end` with `what` (';' or '{');
        returns the position after it and its entities (none for what the reference skips)."""
        text = self.text
        line = text.count("\n", 0, pos) + 1
        qual = "::".join(scope)
        class_name = scope[-1] if class_kind else ""
        head = _CPP_DROPPED_MACROS.sub("", head)
        ns = re.fullmatch(r"namespace\s+([\w:]+)", head)
        if ns and what == "{":
            if class_kind:
                raise self.fail(pos, "a namespace inside a class")
            inner = ns.group(1).split("::")
            if (any(p == "detail" or p.startswith("_") for p in inner)
                    and not self.public_detail):
                try:
                    return _skip_balanced(text, end), []
                except ValueError as e:
                    raise self.fail(pos, str(e))
            return self._scope(end + 1, scope + inner, None, self.items), []
        if what == "}":
            raise self.fail(pos, "a declaration without ';'")
        if re.match(r"namespace\s+\w+\s*=", head) and what == ";":
            name = re.match(r"namespace\s+(\w+)", head).group(1)
            return end + 1, [CppEntity("alias-namespace", name, qual, " ".join(head.split()),
                                       line=line)]
        if head.startswith(("static_assert", "friend")) or re.match(r"using\s+namespace\b", head):
            return self._finish(pos, end, what), []
        template, rest = _template_prefix(head)
        tpl = template + " " if template else ""
        m = re.fullmatch(r"using\s+(\w+)\s*=\s*(.+)", rest, re.S)
        if m and what == ";":
            target = " ".join(m.group(2).split())
            shown = m.group(1) + (" = " + target if len(target) <= 80 else "")  # not a whole list
            return end + 1, [CppEntity("type", m.group(1), qual, tpl + shown, line=line)]
        m = re.fullmatch(r"using\s+(?:typename\s+)?([\w:]+)::(\w+)", rest)
        if m and what == ";":
            if class_kind:  # re-exported members and inherited constructors
                return end + 1, [] if m.group(2) != m.group(1).split("::")[-1] else [
                    CppEntity("function", class_name, qual, f"{class_name}(...)", line=line,
                              special=True)]
            return end + 1, [CppEntity("type", m.group(2), qual,
                                       f"{m.group(2)} = {m.group(1)}::{m.group(2)}", line=line,
                                       reexport_of=f"{m.group(1)}::{m.group(2)}")]
        m = re.fullmatch(r"concept\s+(\w+)\s*=.*", rest, re.S)
        if m:
            return self._finish(pos, end, what), [
                CppEntity("concept", m.group(1), qual, f"{tpl}{m.group(1)}", line=line)]
        m = re.fullmatch(r"(class|struct|union)\s+(\w+)(\s*<.*?>)?\s*(final\s*)?(:\s*(.+))?", rest,
                         re.S)
        if m:
            kind, name, specialization = m.group(1), m.group(2), m.group(3)
            if specialization or (what == ";" and not template):
                return self._finish(pos, end, what), []  # a forward declaration or a specialization
            if what == ";":  # a template declared here and defined by its specializations
                return end + 1, [CppEntity("struct" if kind == "struct" else "class", name, qual,
                                           tpl + name, line=line)]
            bases = " ".join((m.group(6) or "").split())
            sig = tpl + name + (" : " + bases if bases else "")
            entity = CppEntity("struct" if kind == "struct" else "class", name, qual, sig,
                               line=line)
            if hidden:
                return self._finish(pos, end, what), [entity]
            after = self._scope(end + 1, scope + [name], kind, entity.members)
            semi = re.compile(r"\s*;").match(text, after)
            if not semi:
                raise self.fail(after, f"'{name}' is followed by declarators; declare them apart")
            return semi.end(), [entity]
        m = re.fullmatch(r"enum\s+(class\s+|struct\s+)?(\w+)(\s*:\s*[\w:]+)?", rest)
        if m:
            if what != "{":
                return end + 1, []
            close = _skip_balanced(text, end)
            entity = CppEntity("enum-class" if m.group(1) else "enum", m.group(2), qual,
                               m.group(2) + (m.group(3) or ""), line=line)
            entity.members = self._enumerators(end + 1, close - 1)
            semi = re.compile(r"\s*;").match(text, close)
            if not semi:
                raise self.fail(close, "an enum followed by declarators")
            return semi.end(), [entity]
        fn = _function_parts(rest)
        if fn:
            name, sig = fn
            after = self._finish(pos, end, what)
            special = bool(class_kind) and _is_special_member(name, sig, class_name)
            return after, [CppEntity("function", name, qual, tpl + sig, line=line,
                                     special=special)]
        after = self._finish(pos, end, what)
        pointer = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", rest)
        if pointer:  # a pointer to function
            return after, [CppEntity("var", pointer.group(1), qual, " ".join(rest.split()),
                                     line=line)]
        decl = text[pos:after].rstrip().rstrip(";")
        decl = _CPP_DROPPED_MACROS.sub("", decl)
        found = _var_declarators(_template_prefix(" ".join(decl.split()))[1])
        if not found:
            raise self.fail(pos, "a declaration the parser does not know")
        return after, [CppEntity("var", name, qual, tpl + sig, line=line) for name, sig in found]

    def _finish(self, pos: int, end: int, what: str) -> int:
        """The position after a statement whose head ends at `end`: after its ';', or after
        its body (and the ';' of a braced initializer)."""
        text = self.text
        while what == "{":
            try:
                close = _skip_balanced(text, end)
            except ValueError as e:
                raise self.fail(pos, str(e))
            head = text[pos:end]
            if (_function_parts(_template_prefix(" ".join(head.split()))[1])
                    and "=" not in re.sub(r"operator\s*\S+", "", head).split("(", 1)[0]):
                return close  # a function body
            end, what = _statement_end(text, close)
        return end + 1

    def _enumerators(self, start: int, stop: int) -> list:
        found, above = [], []
        for raw in self.text[start:stop].splitlines():
            code, _, comment = raw.partition("//")
            names = [n.split("=")[0].strip() for n in code.split(",") if n.strip()]
            if not names:
                if comment.strip():
                    above.append(comment.strip())
                continue
            for k, n in enumerate(names):
                words = "\n".join(above) if k == 0 else ""
                if k == len(names) - 1 and comment.strip():
                    words = (words + "\n" + comment.strip()).strip()
                value = re.search(rf"\b{n}\s*=\s*([^,]+)", code)
                found.append((n + (" = " + value.group(1).strip() if value else ""), words))
            above = []
        return found


def read_cpp_header(root: Path, name: str) -> CppHeader:
    text = (root / "include/lwc" / name).read_text(encoding="utf-8")
    return _CppReader(name, text).read(public_detail=name in _SHARED_SHAPE_HEADERS)


def cpp_public_entities(items: list, owner=None) -> list:
    """(entity, class it is a member of or None) for every public declaration of a header."""
    out = []
    for kind, value in items:
        if kind != "entity":
            continue
        out.append((value, owner))
        if value.kind in ("class", "struct"):
            out += cpp_public_entities(value.members, value)
    return out


_CPP_DIRECTIVES = {"function": "cpp:function", "class": "cpp:class", "struct": "cpp:struct",
                   "enum": "cpp:enum", "enum-class": "cpp:enum-class", "var": "cpp:var",
                   "type": "cpp:type", "concept": "cpp:concept"}


def _cpp_runs(items: list) -> list:
    """Items with entities gathered into runs that one directive shows: consecutive
    declarations of one kind below one comment (overloads, a row of constants)."""
    out: list = []
    for kind, value in items:
        if kind == "entity":
            prev = out[-1] if out else None
            if (prev and prev[0] == "run" and prev[1][-1].group == value.group
                    and prev[1][-1].kind == value.kind and not prev[1][-1].trailing
                    and value.kind not in ("class", "struct", "enum", "enum-class")
                    and not value.trailing):
                prev[1].append(value)
            else:
                out.append(("run", [value]))
        else:
            out.append((kind, value))
    return out


def _reexported_as(root: Path, e: CppEntity) -> CppEntity:
    """A `using ns::name;` of a constant is shown as that constant (the directive of a type
    would call it a type); of anything else, as the type alias it is."""
    scope = e.scope.split("::")
    for k in range(len(scope), -1, -1):
        target = _cpp_index(root).get("::".join(scope[:k] + [e.reexport_of]))
        if target is not None and target.kind == "var":
            return CppEntity("var", e.name, e.scope, target.signature, e.comment, e.trailing,
                             e.group, e.line)
    return e


@functools.lru_cache(maxsize=None)
def _cpp_index(root: Path) -> dict:
    """Every public entity of the public headers by qualified name."""
    return {e.qualified: e for name in PUBLIC_CPP_HEADERS
            for e, _ in cpp_public_entities(read_cpp_header(root, name).items)}


def _cpp_render(items: list, indent: str, in_class: bool, namespace: list[str],
                root: Path) -> list[str]:
    lines: list[str] = []
    shown_groups: set[int] = set()
    items = [(k, _reexported_as(root, v) if k == "entity" and v.reexport_of else v)
             for k, v in items]
    runs = _cpp_runs(items)
    # a comment over declarations of several kinds is a paragraph above their directives
    run_groups = [v[0].group for k, v in runs if k == "run" and v[0].comment]
    split_groups = {g for g in run_groups if run_groups.count(g) > 1}
    for kind, value in runs:
        if kind == "rubric":
            lines += [f"{indent}.. rubric:: {_rst_inline(value)}", ""]
            continue
        if kind == "section":
            title, scope, text = value
            lines += [f"{indent}.. rubric:: {_rst_inline(title)}", "", _rst_text(text, indent), ""]
            continue
        if kind == "prose":
            scope, text = value
            if not in_class and scope and scope != namespace[0]:
                namespace[0] = scope
                lines += [f".. cpp:namespace:: {scope}", ""]
            lines += [_rst_text(text, indent), ""]
            continue
        run = value
        first = run[0]
        if first.kind == "alias-namespace":
            if not in_class and first.scope != namespace[0]:
                namespace[0] = first.scope
                lines += [f".. cpp:namespace:: {first.scope}", ""]
            lines += [f"{indent}``{first.signature}``", ""]
            if first.comment or first.trailing:
                lines += [_rst_text((first.comment + "\n" + first.trailing).strip(), indent), ""]
            continue
        if not in_class and first.scope != namespace[0]:
            namespace[0] = first.scope
            lines += [f".. cpp:namespace:: {first.scope}", ""]
        if first.group in split_groups and first.group not in shown_groups:
            shown_groups.add(first.group)
            lines += [_rst_text(first.comment, indent), ""]
        directive = _CPP_DIRECTIVES[first.kind]
        if directive == "cpp:var" and in_class:
            directive = "cpp:member"
        head = f"{indent}.. {directive}:: "
        lines.append(head + ("\n" + " " * len(head)).join(e.signature for e in run))
        # Declarations stay out of the pages' contents: every page's navigation is computed
        # from every page's entries, and hundreds of declarations made the site's build
        # half again as slow; a reader finds them on the header's page and in the search.
        lines.append(f"{indent}   :no-contents-entry:")
        lines.append("")
        body = indent + "   "
        words = []
        if first.comment and first.group not in shown_groups:
            words.append(first.comment)
        shown_groups.add(first.group)
        if run[-1].trailing:
            words.append(run[-1].trailing)
        if words:
            lines += [_rst_text("\n".join(words), body), ""]
        if first.kind in ("enum", "enum-class"):
            for name, comment in first.members:
                lines += [f"{body}.. cpp:enumerator:: {name}", f"{body}   :no-contents-entry:", ""]
                if comment:
                    lines += [_rst_text(comment, body + "   "), ""]
        elif first.kind in ("class", "struct"):
            lines += _cpp_render(first.members, body, True, namespace, root)
    return lines


def cpp_header_page(root: Path, name: str) -> str:
    header = read_cpp_header(root, name)
    title = f"<lwc/{name}>"
    lines = [f".. This page is generated by tools/docs_gen.py from include/lwc/{name}; edit the "
             "header.", "", title, "=" * len(title), ""]
    if header.opening:
        lines += [_rst_text(header.opening), ""]
    namespace = [""]
    body = _cpp_render(header.items, "", False, namespace, root)
    if not any(ln.startswith(".. cpp:") and "namespace" not in ln for ln in body):
        lines += ["It declares nothing of its own.", ""]
    lines += body
    if namespace[0]:
        lines += [".. cpp:namespace:: 0", ""]  # each page starts at global scope
    return "\n".join(lines) + "\n"


def cpp_page_name(header: str) -> str:
    return "cpp-" + header.removesuffix(".hpp").replace("/", "-").replace("_", "-")


def undocumented_cpp_names(root: Path) -> list[str]:
    """Public names of the public C++ headers (and the algorithm classes of the list) with no
    comment: none above their run of declarations, none after them, and, for a class
    member, not named in its class's comment. Copy, move and destructor members and
    overrides are the language's."""
    missing = []
    for name in PUBLIC_CPP_HEADERS:
        for e, owner in cpp_public_entities(read_cpp_header(root, name).items):
            if e.special or e.documented:
                continue
            if owner is not None and re.search(rf"\b{re.escape(e.name)}\b",
                                               owner.comment + "\n" + owner.trailing):
                continue
            missing.append(f"C++: {e.qualified} (<lwc/{name}>)")
    for cls in _list_types(root):
        found = algorithm_class_comment(root, cls)
        if found is None:
            raise SystemExit(f"lwc::{cls}: the declaration of this class of algorithm_list.hpp "
                             "was not found in its family's folder")
        if not found[1]:
            missing.append(f"C++: lwc::{cls} (<lwc/{found[0]}>)")
    return sorted(set(missing))


def _blank_detail_namespaces(text: str) -> str:
    """The text with every `namespace detail { ... }` body blanked (lines kept)."""
    for m in reversed(list(re.finditer(r"namespace\s+detail\s*\{", text))):
        close = _skip_balanced(text, m.end() - 1)
        body = text[m.end():close - 1]
        text = text[:m.end()] + re.sub(r"[^\n]", " ", body) + text[close - 1:]
    return text


def algorithm_class_comment(root: Path, cls: str) -> tuple[str, str] | None:
    """(header, comment above the declaration) of an algorithm class of the list
    ("ascon::v12::mac"): a class, struct or alias declared in its family's folder. As in the
    public headers, a comment covers the run of declarations below it up to a blank line."""
    parts = cls.split("::")
    folder = root / "include/lwc" / parts[0]
    inner, name = parts[1:-1], parts[-1]
    for path in sorted(folder.glob("*.hpp")):
        text = _blank_detail_namespaces(path.read_text(encoding="utf-8"))
        regions = [(0, len(text))]
        for ns in inner:
            regions = [(m.end(), _skip_balanced(text, m.end() - 1))
                       for start, stop in regions
                       for m in re.finditer(rf"namespace\s+{ns}\s*\{{", text[:stop])
                       if m.start() >= start]
        for start, stop in regions:
            decl = re.compile(rf"^[ \t]*(?:(?:struct|class)\s+{name}\b(?![^\n{{]*;\s*$)|"
                              rf"using\s+{name}\s*=)", re.M).search(text, start, stop)
            if not decl:
                continue
            # up through the run of declarations above it (and the namespace it opens)
            lines = text[:decl.start()].split("\n")[:-1]
            while (lines and lines[-1].strip() and not lines[-1].strip().startswith("//")
                   and not re.match(r"\s*}\s*//\s*namespace", lines[-1])):
                lines.pop()
            comment = []
            while lines and lines[-1].strip().startswith("//"):
                comment.insert(0, lines.pop().strip()[2:].removeprefix(" "))
            rel = str(path.relative_to(root / "include/lwc"))
            return rel, "\n".join(comment).strip()
    return None


def _registry_reads(root: Path, function: str, param: str) -> list[str]:
    """The members of an algorithm class that a function of registry.hpp reads
    (`A::key_size`, ...): what every class of that kind has."""
    text = (root / "include/lwc/registry.hpp").read_text(encoding="utf-8")
    m = re.search(rf"constexpr algorithm {function}\(.*?\n}}\n", text, re.S)
    if not m:
        raise SystemExit(f"include/lwc/registry.hpp: {function} not found")
    return list(dict.fromkeys(re.findall(rf"\b{param}::(\w+)", m.group(0))))


def cpp_algorithm_classes_page(root: Path) -> str:
    import lwc

    infos = lwc.algorithms()
    types = _list_types(root)
    if len(types) != len(infos):
        raise SystemExit(f"algorithm_list.hpp lists {len(types)} algorithms, the registry {len(infos)}")
    shape = read_cpp_header(root, "common/aead_span_forms.hpp")
    aead_reads = ", ".join(f"``{n}``" for n in _registry_reads(root, "make_aead", "A"))
    hash_reads = ", ".join(f"``{n}``" for n in _registry_reads(root, "make_hash", "H"))
    title = "The algorithm classes"
    lines = [".. This page is generated by tools/docs_gen.py from include/lwc/algorithm_list.hpp, "
             "the family headers and include/lwc/common/aead_span_forms.hpp; edit the headers.", "",
             title, "=" * len(title), "",
             f"Each of the {len(types)} algorithms is a class in namespace ``lwc``, listed once in "
             "``<lwc/algorithm_list.hpp>`` (the order below); ``<lwc/lwc.hpp>`` includes them "
             "all. Classes of one kind share one shape, described once here; the class "
             "entries below give each one's sizes (bytes) and what its header says of it. The "
             "run-time registry (:cpp:func:`lwc::algorithms`) and :cpp:class:`lwc::hasher` "
             "reach every class by name.", "",
             ".. rubric:: AEAD classes", "",
             f"Static constants: {aead_reads}. The raw entry points ``encrypt`` and ``decrypt`` "
             "take pointers and lengths (the registry's :cpp:member:`lwc::algorithm::encrypt` "
             "and :cpp:member:`lwc::algorithm::decrypt` have their signatures); the span "
             "forms below check every size and are what a program calls, for example "
             "``lwc::ascon::aead128::encrypt(key, nonce, ad, pt, ct_and_tag)``.", ""]
    if shape.opening:
        lines += [_rst_text(shape.opening), ""]
    namespace = [""]
    lines += _cpp_render(shape.items, "", False, namespace, root)
    encryptors = [cls for info, cls in zip(infos, types)
                  if info.kind == "aead" and _family_has_encryptor(root, cls)]
    calls = read_cpp_header(root, "common/encryptor_calls.hpp")
    lines += [".. cpp:namespace:: 0", "",
              ".. rubric:: Incremental encryption", "",
              f"{len(encryptors)} AEAD classes have a nested class ``encryptor`` for a message "
              "that arrives in pieces: construct it with the key and the nonce (Grain-128AEAD "
              "also takes the length of the associated data, which it authenticates first), "
              "pass the associated data to ``update_ad`` in any number of pieces, then the "
              "plaintext to ``update`` in any number of pieces (each writes exactly as many "
              "bytes of ciphertext), then ``finalize`` for the tag. The result equals the "
              "one-shot ``encrypt`` for every way of cutting the input. After ``finalize`` the "
              "key and state are wiped and every further call throws; the object cannot be "
              "copied. Decryption has no incremental form: a tag is checked before any "
              "plaintext is released. The classes: "
              + ", ".join(f":cpp:class:`lwc::{cls}`" for cls in encryptors) + ".", ""]
    namespace = [""]  # the directive above went back to the global scope
    lines += _cpp_render(calls.items, "", False, namespace, root)
    lines += [".. cpp:namespace:: 0", "",
              ".. rubric:: Hash, XOF, CXOF, MAC and PRF classes", "",
              f"Static constants: {hash_reads}. An object is one computation: construct it "
              "(with the key for a MAC or PRF, the customization string for a CXOF), "
              "``absorb`` any number of pieces, then ``squeeze`` the output in any number of "
              "pieces; the object wipes its state when destroyed. Many classes also have "
              "``update``, ``finalize`` and a one-shot static ``digest`` (each header says "
              "which); the type-erased "
              ":cpp:class:`lwc::hasher` has the same calls for every class, with every size "
              "checked.", "",
              ".. rubric:: Every class", "",
              ".. list-table::", "   :header-rows: 1", "",
              "   * - C++ class", "     - name", "     - kind", "     - key", "     - nonce",
              "     - tag / output"]
    for info, cls in zip(infos, types):
        out = (str(info.tag_size) if info.kind == "aead"
               else str(info.output_size) if info.max_output_size else f"any ({info.output_size})")
        lines += [f"   * - :cpp:class:`lwc::{cls}`", f"     - ``{info.name}``",
                  f"     - {info.kind}", f"     - {info.key_size or '–'}",
                  f"     - {info.nonce_size or '–'}", f"     - {out}"]
    lines.append("")
    for info, cls in zip(infos, types):
        header, comment = algorithm_class_comment(root, cls) or ("?", "")
        scope, _, short = f"lwc::{cls}".rpartition("::")
        lines += [f".. cpp:namespace:: {scope}", "", f".. cpp:class:: {short}",
                  "   :no-contents-entry:", ""]
        lines += [f"   ``{info.name}`` ({info.kind}, {info.standard}"
                  f"{', legacy' if info.legacy else ''}), ``<lwc/{header}>``.", ""]
        if comment:
            lines += [_rst_text(comment, "   "), ""]
    lines += [".. cpp:namespace:: 0", ""]
    return "\n".join(lines) + "\n"


def cpp_reference_page(root: Path) -> str:
    pages = [cpp_page_name(h) for h in PUBLIC_CPP_HEADERS if h not in _SHARED_SHAPE_HEADERS]
    lines = ["<!-- Generated by tools/docs_gen.py from include/lwc/; edit the headers. -->", "",
             "# C++ reference", "",
             "The public headers of the header-only core and of the engines, read from the "
             "headers themselves: every public function, class, member, enumeration, type and "
             "constant with the comment written above it. The algorithms' own classes share "
             "one shape per kind: [the algorithm classes](cpp-algorithms.rst) lists them with "
             "their sizes. Link `lwc::lwc` (the core), `lwc::batch`, `lwc::stream` or "
             "`lwc::cuda`.", "",
             "| header | what it declares |", "|---|---|"]
    for name in PUBLIC_CPP_HEADERS:
        if name in _SHARED_SHAPE_HEADERS:
            continue
        first = _opening_comment((root / "include/lwc" / name).read_text(encoding="utf-8"))
        first = " ".join(first.split())
        summary = re.split(r"(?<=\.)\s", first, maxsplit=1)[0].rstrip(".")
        if len(summary) > 100:
            summary = summary.split(": ", 1)[0]
        lines.append(f"| [`<lwc/{name}>`]({cpp_page_name(name)}.rst) | {_md_prose(summary)} |")
    lines += ["| [algorithm classes](cpp-algorithms.rst) | the class of each algorithm, and the "
              "members every AEAD class has |", "",
              "```{toctree}", ":hidden:", ""] + pages + ["cpp-algorithms", "```", ""]
    return "\n".join(lines) + "\n"


def _opening_comment(text: str) -> str:
    """The // comment that opens a header, after its SPDX line."""
    lines = []
    for ln in text.splitlines():
        if ln.startswith("//"):
            if "SPDX-License-Identifier" not in ln:
                lines.append(ln[2:].removeprefix(" "))
        elif lines or ln.strip():
            break
    return "\n".join(lines).strip()


def _md_prose(text: str) -> str:
    """Comment prose as Markdown: characters that would start markup are escaped."""
    out = []
    for ln in text.splitlines():
        ln = re.sub(r"([*_<>\\[\]|])", r"\\\1", ln)
        out.append(ln)
    return "\n".join(out)


# ---- C# ------------------------------------------------------------------------------------

def _xml_text(el) -> str:
    """The text of a <summary> or <remarks>, with <see cref=.../> as the name it points to."""
    if el is None:
        return ""
    parts = [el.text or ""]
    for child in el:
        if child.tag in ("see", "seealso"):
            ref = child.get("cref") or child.get("langword") or ""
            parts.append("`" + ref.split(":", 1)[-1].removeprefix("System.") + "`")
        elif child.tag in ("paramref", "typeparamref"):
            parts.append("`" + (child.get("name") or "") + "`")
        elif child.tag == "c":
            parts.append("`" + (child.text or "") + "`")
        else:
            parts.append(_xml_text(child))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def _csharp_signature(member: str) -> tuple[str, str, str]:
    """(kind, type name, member shown) of an XML documentation member id."""
    kind, name = member.split(":", 1)
    args = ""
    if "(" in name:
        name, args = name.split("(", 1)
        args = "(" + ", ".join(_csharp_type(a) for a in _split_args(args.rstrip(")"))) + ")"
    elif kind == "M":
        args = "()"
    if kind == "T":
        return kind, name, name
    owner, _, short = name.rpartition(".")
    short = short.replace("#ctor", owner.rsplit(".", 1)[-1])
    return kind, owner, short + args


_CSHARP_KEYWORDS = {"String": "string", "Byte": "byte", "Int32": "int", "Int64": "long",
                    "UInt32": "uint", "UInt64": "ulong", "Boolean": "bool", "Object": "object",
                    "Void": "void"}


def _csharp_type(xml_type: str) -> str:
    """A parameter type of an XML documentation id as C# writes it: `System.Byte[]@` is
    `ref byte[]` (the id does not tell ref from out), generic braces become angle brackets."""
    by_ref = xml_type.endswith("@")
    t = xml_type.rstrip("@").replace("{", "<").replace("}", ">")
    t = re.sub(r"\b(?:[A-Za-z_]\w*\.)+(\w+)", r"\1", t)
    t = re.sub(r"\b(\w+)\b", lambda m: _CSHARP_KEYWORDS.get(m.group(1), m.group(1)), t)
    return ("ref/out " if by_ref else "") + t


def _split_args(args: str) -> list[str]:
    depth, cur, out = 0, "", []
    for ch in args:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += (ch in "{[") - (ch in "}]")
        cur += ch
    if cur:
        out.append(cur)
    return out


def csharp_reference_page(xml_path: Path) -> str:
    tree = ET.parse(xml_path)
    types: dict[str, dict] = {}
    for m in tree.getroot().iter("member"):
        kind, owner, shown = _csharp_signature(m.get("name"))
        summary = _xml_text(m.find("summary"))
        remarks = _xml_text(m.find("remarks"))
        params = [(p.get("name"), _xml_text(p)) for p in m.findall("param")]
        returns = _xml_text(m.find("returns"))
        exceptions = [(e.get("cref", "").split(":", 1)[-1], _xml_text(e)) for e in m.findall("exception")]
        entry = {"shown": shown, "kind": kind, "summary": summary, "remarks": remarks,
                 "params": params, "returns": returns, "exceptions": exceptions}
        if kind == "T":
            types.setdefault(owner, {"members": []})["type"] = entry
        else:
            types.setdefault(owner, {"members": []})["members"].append(entry)
    kinds = {"M": "method", "P": "property", "F": "field", "E": "event"}
    lines = ["<!-- Generated by tools/docs_gen.py from the XML documentation of Lwc.dll; "
             "edit the /// comments in bindings/csharp/src/. -->", "",
             "# C# reference (`Lwc`)", "",
             "Generated from the XML documentation that the compiler writes for `Lwc.dll` "
             "(`bindings/csharp/build.sh`). The per-algorithm classes (`Lwc.AsconAead128`, ...) "
             "are generated from the registry when the binding is built and follow the generic "
             "`Lwc.Aead` and `Lwc.Hash` calls shown here.", ""]
    for name in sorted(types):
        t = types[name]
        lines += [f"## `{name}`", ""]
        if "type" in t:
            lines += [t["type"]["summary"], ""]
            if t["type"]["remarks"]:
                lines += [t["type"]["remarks"], ""]
        for e in t["members"]:
            lines += [f"### {kinds.get(e['kind'], e['kind'])} `{e['shown']}`", "",
                      e["summary"] or "", ""]
            if e["remarks"]:
                lines += [e["remarks"], ""]
            for p, text in e["params"]:
                lines.append(f"- `{p}`: {text}")
            if e["returns"]:
                lines.append(f"- returns: {e['returns']}")
            for exc, text in e["exceptions"]:
                lines.append(f"- throws `{exc}`: {text}")
            lines.append("")
    return "\n".join(lines) + "\n"


def csharp_undocumented(xml_path: Path) -> list[str]:
    """Members whose XML documentation has no summary (the compiler writes an entry for
    every documented member; a /// block without <summary> still leaves it empty)."""
    return [m.get("name") for m in ET.parse(xml_path).getroot().iter("member")
            if not _xml_text(m.find("summary")) and not _xml_text(m.find("inheritdoc"))
            and m.find("inheritdoc") is None]


# ---- algorithms ----------------------------------------------------------------------------

def _list_types(root: Path) -> list[str]:
    """The C++ class of each entry of include/lwc/algorithm_list.hpp, in registry order."""
    text = (root / "include/lwc/algorithm_list.hpp").read_text(encoding="utf-8")
    the_list = re.search(r"using algorithm_list = type_list<(.*?)>;", text, re.S)
    if not the_list:
        raise SystemExit("include/lwc/algorithm_list.hpp: `using algorithm_list = ...` not found")
    return re.findall(r"listed<([\w:]+),", the_list.group(1))


def _family_has_encryptor(root: Path, cls: str) -> bool:
    """Whether the headers of the class's family (include/lwc/<namespace>/) declare the nested
    class `encryptor`, which every AEAD class of such a family has."""
    family = root / "include/lwc" / cls.split("::")[0]
    return any(re.search(r"^\s*class encryptor\b", h.read_text(encoding="utf-8"), re.M)
               for h in family.glob("*.hpp"))


def _warp_types(root: Path) -> set[str]:
    """Classes with a GPU warp kernel: the specializations of the warp_kernel trait."""
    path = root / "src/cuda/warp_engine.hpp"
    if not path.exists():
        return set()
    text = path.read_text(encoding="utf-8")
    return {t.removeprefix("lwc::") for t in re.findall(r"struct warp_kernel<([\w:]+)>", text)}


def _rtl_algorithms(root: Path) -> dict[str, str]:
    """Algorithms the RTL test bench checks against the C++ core, with the core's file."""
    found: dict[str, str] = {}
    tb = root / "hw/tb/tb_main.cpp"
    if not tb.exists():
        return found
    text = tb.read_text(encoding="utf-8") + (root / "hw/tb/reference.cpp").read_text(encoding="utf-8")
    for rtl in sorted((root / "hw/rtl").glob("*.v")):
        for name in re.findall(r'"((?:ascon|acorn)-[a-z0-9-]+)"', text):
            if name.split("-")[0] in rtl.stem:
                found.setdefault(name, f"hw/rtl/{rtl.name}")
    return found


def _kat_files(root: Path, family: str, name: str) -> list[tuple[str, int]]:
    folder = root / "tests/vectors" / family
    files = []
    for path in sorted(folder.glob(f"{name}.*txt")) + sorted(folder.glob(f"{name}.txt")):
        rest = path.name[len(name):]
        if rest != ".txt" and not re.fullmatch(r"\.[a-z0-9-]+\.txt", rest):
            continue  # another algorithm whose name starts with this one (ascon-hash / -hasha)
        count = len(re.findall(r"^Count\s*=", path.read_text(encoding="utf-8", errors="replace"), re.M))
        files.append((str(path.relative_to(root)), count))
    return sorted(set(files))


def _measured_speed(root: Path, names: list[str]) -> list[str]:
    """The family's rows of the benchmark output kept in docs/data/, with its machine."""
    lines = []
    for path in sorted((root / "docs/data").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        rows = [r for r in doc.get("results", []) if r["algorithm"] in names]
        if not rows:
            continue
        meta = doc.get("meta", {})
        per_cpu = all("mb_per_cpu_s" in r for r in rows)
        sizes = sorted({r["bytes"] for r in rows})
        lines += ["## Measured speed", "",
                  f"From `docs/data/{path.name}` ({meta.get('title', path.stem)}): "
                  f"{meta.get('machine', doc.get('cpu', '?'))}; {meta.get('conditions', '')}. "
                  + ("MB per CPU second. " if per_cpu else "MB per second. ")
                  + "All algorithms: [measured throughput](../performance-tables.md).", "",
                  "| name | operation | path | " + " | ".join(_bytes_label(s) for s in sizes) + " |",
                  "|---|---|---|" + "---:|" * len(sizes)]
        keys = list(dict.fromkeys((r["algorithm"], r["operation"], r["backend"]) for r in rows))
        for alg, op, backend in keys:
            cells = []
            for size in sizes:
                r = next((r for r in rows if (r["algorithm"], r["operation"], r["backend"]) ==
                          (alg, op, backend) and r["bytes"] == size), None)
                cells.append(_fmt_rate(r["mb_per_cpu_s" if per_cpu else "mb_per_s"]) if r else "")
            lines.append(f"| `{alg}` | {op} | {backend} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _plain_links(markdown: str) -> str:
    """Relative links of a SOURCES.md point into the source tree, not the site: keep the words."""
    return re.sub(r"\[([^\]]+)\]\((?!https?:)[^)]*\)", r"\1", markdown)


def _size(n: int) -> str:
    return "–" if not n else str(n)


def algorithm_pages(root: Path, out: Path) -> list[str]:
    import lwc
    import lwc.batch

    infos = lwc.algorithms()
    types = _list_types(root)
    if len(types) != len(infos):
        raise SystemExit(f"algorithm_list.hpp lists {len(types)} algorithms, the registry {len(infos)}")
    warp = _warp_types(root)
    rtl = _rtl_algorithms(root)
    backends = lwc.batch.backends()
    families: dict[str, list] = {}
    for info, cls in zip(infos, types):
        families.setdefault(info.family, []).append((info, cls))
    pages = []
    for family, members in families.items():
        title = FAMILY_TITLES.get(family, family)
        lines = [f"<!-- Generated by tools/docs_gen.py from the registry; edit the sources. -->",
                 "", f"# {title}", "",
                 "## Variants", "",
                 "| name | kind | key | nonce | tag / output | definition |",
                 "|---|---|---:|---:|---|---|"]
        for info, _ in members:
            if info.kind == "aead":
                tag = f"{info.tag_size}"
                if info.min_tag_size and info.min_tag_size < info.tag_size:
                    tag += f" (truncatable to {info.min_tag_size})"
            elif info.max_output_size:
                tag = str(info.output_size)
            else:
                tag = f"any (default {info.output_size})"
            definition = info.standard + (" (legacy)" if info.legacy else "")
            extra = ""
            if getattr(info, "second_key_size", 0):
                extra = f"; nonce-masking key {info.second_key_size}"
            if getattr(info, "max_customization_size", 0):
                extra = f"; customization ≤ {info.max_customization_size}"
            if info.max_input_size and info.max_input_size < 2**32:
                extra += f"; input ≤ {info.max_input_size}"
            lines.append(f"| `{info.name}` | {info.kind.upper()} | {_size(info.key_size)} | "
                         f"{_size(info.nonce_size)} | {tag} | {definition}{extra} |")
        lines += ["", "Sizes in bytes. "
                  "Every surface takes these names: `lwc.new(name)` / `lwc.aead(name, key)` in Python, "
                  "`lwc_aead_encrypt(name, ...)` in C, `lwc -a name` on the command line.", ""]
        lines += ["## Known-answer tests", "",
                  "Each file runs in the C++ KAT driver, and in the Python and C# suites.", "",
                  "| algorithm | file | vectors |", "|---|---|---:|"]
        for info, _ in members:
            for path, count in _kat_files(root, family, info.name):
                lines.append(f"| `{info.name}` | `{path}` | {count} |")
        lines.append("")
        lines += ["## Where it runs", "",
                  "Every algorithm runs in the single-message core (C++, C, Python, C#, the `lwc` tool) "
                  "and in the batch engine on every backend: in SIMD lanes where the algorithm has a "
                  "lane kernel for that backend, job by job otherwise. The CUDA engine runs every "
                  "algorithm, with a warp kernel where the algorithm has one and one thread per "
                  "job otherwise.", "",
                  "| name | batch lanes | CUDA | RTL (`hw/`) |", "|---|---|---|---|"]
        for info, cls in members:
            lanes = ", ".join(b for b in backends if lwc.batch.has_lanes(info.name, b)) or "job by job"
            gpu = "warp kernel" if cls in warp else "thread per job"
            core = f"`{rtl[info.name]}`" if info.name in rtl else "–"
            lines.append(f"| `{info.name}` | {lanes} | {gpu} | {core} |")
        lines += ["", f"Batch backends this page was built on: {', '.join(backends)} "
                  "(a backend the build machine's CPU lacks is not listed).", ""]
        lines += _measured_speed(root, [info.name for info, _ in members])
        sources = root / "tests/vectors" / family / "SOURCES.md"
        if sources.exists():
            text = _plain_links(sources.read_text(encoding="utf-8"))
            text = re.sub(r"^(#+) ", lambda m: "#" * (len(m.group(1)) + 2) + " ", text, flags=re.M)
            lines += ["## Provenance of the test vectors", "",
                      f"From `tests/vectors/{family}/SOURCES.md`:", "", text]
        write_if_changed(out / "algorithms" / f"{family}.md", "\n".join(lines) + "\n")
        pages.append(family)
    index = ["<!-- Generated by tools/docs_gen.py from the registry. -->", "", "# Algorithms", "",
             f"{len(infos)} algorithms in {len(families)} families, in the order of the registry "
             "(`include/lwc/algorithm_list.hpp`). Legacy marks Ascon v1.2, superseded by "
             "NIST SP 800-232: kept to read existing data.", "",
             "| family | algorithms |", "|---|---|"]
    for family, members in families.items():
        names = ", ".join(f"`{i.name}`" for i, _ in members)
        index.append(f"| [{FAMILY_TITLES.get(family, family)}]({family}.md) | {names} |")
    index += ["", "```{toctree}", ":hidden:", ""] + pages + ["```", ""]
    write_if_changed(out / "algorithms" / "index.md", "\n".join(index) + "\n")
    return pages


# ---- performance ---------------------------------------------------------------------------

def _fmt_rate(mb_per_s: float) -> str:
    return f"{mb_per_s / 1000:.2f} GB/s" if mb_per_s >= 1000 else f"{mb_per_s:.0f} MB/s"


def performance_page(root: Path, out: Path) -> None:
    """One table per backend of each benchmark file in docs/data/: a row per algorithm and
    operation, a column per message size."""
    data = sorted((root / "docs/data").glob("*.json"))
    lines = ["<!-- Generated by tools/docs_gen.py from docs/data/*.json; rerun the benchmark "
             "to change it. -->", "", "# Measured throughput", "",
             "Tables generated from the benchmark output kept in `docs/data/`, each with the "
             "machine, compiler and command that printed it. "
             "[Performance](../PERFORMANCE.md) says how to reproduce them.", ""]
    for path in data:
        doc = json.loads(path.read_text(encoding="utf-8"))
        meta = doc.get("meta", {})
        rows = doc.get("results", [])
        per_cpu = all("mb_per_cpu_s" in r for r in rows)
        lines += [f"## {meta.get('title', path.stem)}", "",
                  f"- command: `{meta.get('command', doc.get('tool', '?'))}`",
                  f"- machine: {meta.get('machine', doc.get('cpu', '?'))}",
                  f"- compiler: {doc.get('compiler', meta.get('compiler', '?'))}; "
                  f"lwc {doc.get('lwc_version', '?')}",
                  f"- conditions: {meta.get('conditions', 'not recorded')}",
                  f"- unit: {'MB (10^6 message bytes) per CPU second of the process' if per_cpu else 'MB (10^6 message bytes) per second'}",
                  f"- file: `docs/data/{path.name}`", ""]
        sizes = sorted({r["bytes"] for r in rows})
        backends = list(dict.fromkeys(r["backend"] for r in rows))
        for backend in backends:
            lines += [f"### {backend}", "",
                      "| algorithm | operation | " + " | ".join(_bytes_label(s) for s in sizes) + " |",
                      "|---|---|" + "---:|" * len(sizes)]
            keys = list(dict.fromkeys((r["algorithm"], r["operation"]) for r in rows
                                      if r["backend"] == backend))
            for alg, op in keys:
                cells = []
                for size in sizes:
                    r = next((r for r in rows if r["backend"] == backend and r["algorithm"] == alg
                              and r["operation"] == op and r["bytes"] == size), None)
                    cells.append(_fmt_rate(r["mb_per_cpu_s" if per_cpu else "mb_per_s"]) if r else "")
                lines.append(f"| `{alg}` | {op} | " + " | ".join(cells) + " |")
            lines.append("")
    if not data:
        lines.append("No benchmark output is kept at the moment.")
    write_if_changed(out / "performance-tables.md", "\n".join(lines) + "\n")


def _bytes_label(n: int) -> str:
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


# ---- the rest --------------------------------------------------------------------------------

def more_page(root: Path, out: Path) -> None:
    """A table of contents of the top-level pages no other one lists (pages other people keep,
    such as the batch engine's and the OpenSSL provider's guides, when they exist)."""
    pages = sorted(p.stem for p in (root / "docs").glob("*.md") if p.stem not in LISTED_TOP_LEVEL)
    lines = ["<!-- Generated by tools/docs_gen.py: every top-level page of docs/ that no other "
             "table of contents lists. -->", "", "# More guides", ""]
    if pages:
        lines += ["```{toctree}", ":maxdepth: 1", ""] + [f"../{p}" for p in pages] + ["```"]
    else:
        lines.append("None at the moment.")
    write_if_changed(out / "more.md", "\n".join(lines) + "\n")


def generate_all(root: Path, out: Path, csharp_xml: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for header in PUBLIC_C_HEADERS:
        stem = Path(header).stem if header == "include/lwc.h" else "lwc-" + Path(header).stem
        write_if_changed(out / "reference" / f"c-{stem}.rst", c_reference_page(root, header))
    write_if_changed(out / "reference" / "cpp.md", cpp_reference_page(root))
    for header in PUBLIC_CPP_HEADERS:
        if header not in _SHARED_SHAPE_HEADERS:
            write_if_changed(out / "reference" / f"{cpp_page_name(header)}.rst",
                             cpp_header_page(root, header))
    write_if_changed(out / "reference" / "cpp-algorithms.rst", cpp_algorithm_classes_page(root))
    xml = Path(csharp_xml) if csharp_xml else root / "build/docs-work/csharp/Lwc.xml"
    if not xml.exists():
        raise SystemExit(f"{xml} is missing: tools/docs.sh compiles the C# binding's XML documentation")
    write_if_changed(out / "reference" / "csharp.md", csharp_reference_page(xml))
    algorithm_pages(root, out)
    performance_page(root, out)
    more_page(root, out)


PYTHON_MODULES = ["lwc", "lwc.batch", "lwc.stream", "lwc.arrow", "lwc.dask"]


def python_undocumented() -> list[str]:
    """Public names of the Python package without documentation: a class or function without a
    docstring, a public method without one of its own or of the base class it overrides, a
    constant that its module's docstring does not name."""
    import importlib
    import inspect

    missing = []
    for modname in PYTHON_MODULES:
        module = importlib.import_module(modname)
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for name in names:
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            if not (inspect.isclass(obj) or callable(obj)):
                if name not in (module.__doc__ or ""):
                    missing.append(f"{modname}.{name}")
                continue
            if not (obj.__doc__ or "").strip():
                missing.append(f"{modname}.{name}")
            if not inspect.isclass(obj):
                continue
            for attr, value in vars(obj).items():
                if attr.startswith("_") or not (callable(value) or isinstance(
                        value, (property, staticmethod, classmethod))):
                    continue
                if inspect.getdoc(getattr(obj, attr)):
                    continue
                inherited = [getattr(base, attr, None) for base in obj.__mro__[1:]]
                if not any(getattr(b, "__doc__", None) for b in inherited if b is not None):
                    missing.append(f"{modname}.{name}.{attr}")
    return missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail when a public C function, C++ name, C# member or (with "
                             "--python) Python name has no documentation")
    parser.add_argument("--python", action="store_true",
                        help="with --check: also the Python package (imports lwc)")
    parser.add_argument("--csharp-xml", default=None)
    parser.add_argument("--root", default=None,
                        help="with --check: the source tree to check (default: this one)")
    parser.add_argument("--known", default=None,
                        help="with --check: a file of gaps already known (one per line); the "
                             "check fails on any other gap, and on a listed one that is gone")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    if args.check:
        root = Path(args.root).resolve() if args.root else root
        problems = undocumented_c_functions(root) + undocumented_cpp_names(root)
        if args.csharp_xml:
            problems += [f"C#: {m}" for m in csharp_undocumented(Path(args.csharp_xml))]
        if args.python:
            problems += [f"Python: {m}" for m in python_undocumented()]
        known = set()
        if args.known:
            known = {ln.strip() for ln in Path(args.known).read_text(encoding="utf-8").splitlines()
                     if ln.strip() and not ln.startswith("#")}
        new = [p for p in problems if p not in known]
        fixed = sorted(known - set(problems))
        for p in new:
            print("no documentation:", p)
        for p in fixed:
            print(f"documented now, remove it from {args.known}:", p)
        print(f"documentation check: {len(problems)} known gaps, {len(new)} new, {len(fixed)} fixed")
        return 1 if new or fixed else 0
    generate_all(root, root / "docs/_generated", args.csharp_xml)
    return 0


if __name__ == "__main__":
    sys.exit(main())
