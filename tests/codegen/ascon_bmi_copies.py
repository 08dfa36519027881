#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Checks the generated code of Ascon's BMI1/BMI2 copies under each compiler found.

    ascon_bmi_copies.py --include DIR --source ascon_entry_points.cpp --work DIR COMPILER...

On x86-64 the one-shot Ascon calls run a copy of the whole call compiled for BMI1/BMI2
(`*_bmi2` functions). That copy is only as fast as its least inlined step: a step the compiler
leaves out of line is compiled for the baseline target, runs without andn/rorx, and takes the
state through memory. For each compiler at -O2 and -O3 (no -march, the case the copies are
for), this fails when a `*_bmi2` function calls any other function (an lwc::ascon step left out
of line, or a library call such as memcpy, which a copy of a variable number of tag bytes
became: a fixed cost of every call), or when it does not use andn and rorx. With -mbmi -mbmi2
(what -march=native gives on such a CPU) the portable code already is that copy: there must be
no `*_bmi2` function, so no run-time choice either. A compiler that is not installed is
skipped; none at all is a failure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def functions(disassembly):
    """name -> list of lines, from `objdump -dr -C`."""
    out, name = {}, None
    for line in disassembly.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            name = m.group(1)
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return out


def check(compiler, flags, args):
    obj = os.path.join(args.work, re.sub(r"[^A-Za-z0-9]+", "_", f"{compiler}{flags}") + ".o")
    subprocess.run([compiler, "-std=c++20", *flags.split(), "-I", args.include, "-c",
                    args.source, "-o", obj], check=True)
    dis = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", "-C", obj], check=True,
                         capture_output=True, text=True).stdout
    problems = []
    copies = {n: body for n, body in functions(dis).items()
              if n.startswith("lwc::ascon::") and re.search(r"_bmi2\b", n)}
    if not copies:
        problems.append("no *_bmi2 function in the object")
    for name, body in copies.items():
        short = re.sub(r"\(.*", "", name)
        previous = ""
        for line in body:
            m = re.search(r"R_X86_64_(?:PLT32|PC32)\s+(.*?)(?:[-+]0x[0-9a-f]+)?$", line)
            if m and re.search(r"\s(call|jmp)\s", previous):
                callee = re.sub(r"\(.*", "", m.group(1))
                problems.append(f"{short} calls {callee}")
            if not m:
                previous = line
        text = "\n".join(body)
        for instruction in ("andn", "rorx"):
            if not re.search(rf"\s{instruction}\s", text):
                problems.append(f"{short} has no {instruction}")
    return problems


def check_native(compiler, args):
    """With BMI1/BMI2 allowed by the flags there is nothing to choose at run time."""
    obj = os.path.join(args.work, re.sub(r"[^A-Za-z0-9]+", "_", f"{compiler}_bmi") + ".o")
    subprocess.run([compiler, "-std=c++20", "-O2", "-mbmi", "-mbmi2", "-I", args.include, "-c",
                    args.source, "-o", obj], check=True)
    dis = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", "-C", obj], check=True,
                         capture_output=True, text=True).stdout
    return [f"{re.sub(r'[(].*', '', n)} exists although the flags allow BMI1/BMI2"
            for n in functions(dis) if n.startswith("lwc::ascon::") and re.search(r"_bmi2\b", n)]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--include", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("compilers", nargs="+")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    checked, failed = 0, 0
    seen = set()
    for compiler in args.compilers:
        path = shutil.which(compiler)
        if not path:
            print(f"{compiler}: not installed, skipped")
            continue
        if os.path.realpath(path) in seen:  # c++ is often g++
            continue
        seen.add(os.path.realpath(path))
        for flags in ("-O2", "-O3"):
            problems = check(compiler, flags, args)
            checked += 1
            failed += bool(problems)
            print(f"{compiler} {flags}: " + ("ok" if not problems else "FAILED"))
            for line in dict.fromkeys(problems):
                print(f"  {line}")
        problems = check_native(compiler, args)
        checked += 1
        failed += bool(problems)
        print(f"{compiler} -O2 -mbmi -mbmi2: " + ("ok" if not problems else "FAILED"))
        for line in dict.fromkeys(problems):
            print(f"  {line}")
    if checked == 0:
        print("no compiler to check")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
