# SPDX-License-Identifier: MIT OR Apache-2.0
"""Pages of the documentation site that are generated from the sources (docs/conf.py runs
this before Sphinx reads anything; `python3 tools/docs_gen.py --check` runs only the checks).

- algorithms/: one page per family, from the registry (the built `lwc` module), the KAT
  files in tests/vectors/, the batch engine's lane queries, the CUDA warp-kernel trait and the
  RTL test bench;
- reference/c-*.rst: the C headers, each function with the comment written above it;
- reference/csharp.md: the XML documentation that the C# compiler writes;
- performance.md: tables from the benchmark JSON kept in docs/data/;
- more.md: the top-level pages of docs/ that no other table of contents lists.

Nothing here holds a figure or a name of its own: a page that falls behind its source is
regenerated on the next build.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
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

# The headers a program includes; the rest of include/lwc/ is what they are built from.
PUBLIC_CPP_HEADERS = ["lwc.hpp", "ascon.hpp", "common/aead_span_forms.hpp", "registry.hpp", "batch.hpp", "jobs.hpp",
                      "packed_jobs.hpp", "stream.hpp", "stream/format.hpp", "cuda.hpp",
                      "algorithm_list.hpp"]


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


def cpp_reference_page(root: Path) -> str:
    inc = root / "include/lwc"
    lines = ["<!-- Generated by tools/docs_gen.py from include/lwc/; edit the headers. -->", "",
             "# C++ reference", "",
             "The public headers of the header-only core and of the engines, each with the "
             "comment that opens it and its full text: the declarations and the comments next "
             "to them are the reference. Link `lwc::lwc` (the core), `lwc::batch`, "
             "`lwc::stream` or `lwc::cuda`.", ""]
    for name in PUBLIC_CPP_HEADERS:
        path = inc / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        lines += [f"## `<lwc/{name}>`", "", _md_prose(_opening_comment(text)), ""]
        lines += [f"```{{literalinclude}} ../../../include/lwc/{name}", ":language: cpp", "```", ""]
    lines += ["## The class of each algorithm", "",
              "Each AEAD class has the calls of `aead_span_forms` above (`encrypt`, `decrypt`, "
              "the detached and `_truncated` forms) and its sizes as constants (`key_size`, "
              "`nonce_size`, `tag_size`); each hash, XOF, MAC and PRF class is an incremental "
              "object (`update`, then `squeeze` or `finalize`), most with a one-shot static "
              "`digest` as well; the header of each says which. The names below are in "
              "namespace `lwc`, in the order of `include/lwc/algorithm_list.hpp`.", "",
              "| algorithm | C++ class |", "|---|---|"]
    try:
        import lwc

        names = [a.name for a in lwc.algorithms()]
    except ImportError:
        names = []
    for name, cls in zip(names, _list_types(root)):
        lines.append(f"| `{name}` | `lwc::{cls}` |")
    lines += ["", "## Algorithm headers", "",
              "One folder per family under `include/lwc/`; `<lwc/lwc.hpp>` includes them all.", ""]
    for folder in sorted(p for p in inc.iterdir() if p.is_dir() and p.name not in ("common", "stream")):
        for path in sorted(folder.glob("*.hpp")):
            comment = _opening_comment(path.read_text(encoding="utf-8"))
            if not comment:
                continue
            lines += [f"### `<lwc/{folder.name}/{path.name}>`", "", _md_prose(comment), ""]
    return "\n".join(lines) + "\n"


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
    return re.findall(r"listed<([\w:]+),", text)


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
                        help="fail when a public C function, C# member or (with --python) "
                             "Python name has no documentation")
    parser.add_argument("--python", action="store_true",
                        help="with --check: also the Python package (imports lwc)")
    parser.add_argument("--csharp-xml", default=None)
    parser.add_argument("--known", default=None,
                        help="with --check: a file of gaps already known (one per line); the "
                             "check fails on any other gap, and on a listed one that is gone")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    if args.check:
        problems = undocumented_c_functions(root)
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
