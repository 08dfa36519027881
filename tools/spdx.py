#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every source file of lwc names its license in an SPDX line near its top.

    tools/spdx.py          list the tracked source files without the line; exit 1 if any
    tools/spdx.py --add    add the line where it is missing (after a shebang), in the file's
                           own comment syntax

Test vectors copied from elsewhere (tests/vectors/) keep their own terms (their SOURCES.md),
and data and prose files (JSON, Markdown, images) carry none.
"""
import subprocess
import sys
from pathlib import Path

LICENSE = "MIT OR Apache-2.0"
TAG = "SPDX-License-Identifier: " + LICENSE

SLASH = ("//", "")
HASH = ("#", "")
BLOCK = ("/*", " */")
XML = ("<!--", " -->")
BY_SUFFIX = {
    ".hpp": SLASH, ".cpp": SLASH, ".cu": SLASH, ".cuh": SLASH,
    ".h": BLOCK, ".c": BLOCK,  # C headers and tests stay valid C89 for consumers that ask for it
    ".cs": SLASH, ".v": SLASH, ".def": SLASH,
    ".py": HASH, ".pyi": HASH, ".sh": HASH, ".cmake": HASH, ".toml": HASH, ".pc": HASH,
    ".map": BLOCK, ".csproj": XML,
}
BY_NAME = {"CMakeLists.txt": HASH, "run": HASH}
SKIP_DIRS = ("tests/vectors/",)
HEAD_LINES = 5  # the line must stand within the first lines


def comment_style(path: str):
    if path.startswith(SKIP_DIRS):
        return None
    name = Path(path).name
    if name in BY_NAME and (name != "run" or path == ".ci/run"):
        return BY_NAME[name]
    stem = name[:-3] if name.endswith(".in") else name  # templates: lwc.pc.in, x.cu.in
    return BY_SUFFIX.get(Path(stem).suffix)


def tracked_sources(root: Path):
    names = subprocess.run(["git", "ls-files", "-z"], cwd=root, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in names:
        style = comment_style(name) if name else None
        if style and (root / name).is_file():
            yield name, style


def has_tag(text: str) -> bool:
    return any(TAG in line for line in text.splitlines()[:HEAD_LINES])


def add_tag(text: str, style) -> str:
    line = f"{style[0]} {TAG}{style[1]}\n"
    if text.startswith("#!"):
        first, _, rest = text.partition("\n")
        return first + "\n" + line + rest
    return line + text


def main() -> int:
    root = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True,
                               capture_output=True, text=True).stdout.strip())
    add = "--add" in sys.argv[1:]
    missing = []
    for name, style in tracked_sources(root):
        path = root / name
        text = path.read_text(encoding="utf-8")
        if has_tag(text):
            continue
        if add:
            path.write_text(add_tag(text, style), encoding="utf-8")
        else:
            missing.append(name)
    if missing:
        print(f"{len(missing)} source files lack '{TAG}' in their first {HEAD_LINES} lines:")
        for name in missing:
            print("  " + name)
        print("tools/spdx.py --add adds it")
        return 1
    print(f"license lines: every tracked source file names {LICENSE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
