#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""CPU seconds (user + system) of every compiler call of a build, heaviest first.

Wall times in .ninja_log mislead on a shared machine; CPU time does not. Used as the build's
compiler launcher, this script runs the compiler and appends one line per call to a log; then
it summarizes the log:

  rm -f /tmp/cpu.log
  LWC_COMPILE_CPU_LOG=/tmp/cpu.log cmake -S . -B build/x -G Ninja -DCMAKE_BUILD_TYPE=Release \\
      -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/tools/compile-cpu.py
  LWC_COMPILE_CPU_LOG=/tmp/cpu.log cmake --build build/x -j2 --target lwc_batch lwc_registry
  tools/compile-cpu.py --report /tmp/cpu.log

A pip build takes the launcher the same way:
  LWC_COMPILE_CPU_LOG=/tmp/cpu.log pip install . \\
      -C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=$PWD/tools/compile-cpu.py
"""
import os
import resource
import subprocess
import sys


def output_name(args):
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            return args[i + 1]
    return "?"


def run_compiler(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.call(args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log = os.environ.get("LWC_COMPILE_CPU_LOG")
    if log:
        # One short line per call in append mode: concurrent calls do not interleave.
        with open(log, "a") as f:
            f.write(f"{cpu:.2f}\t{output_name(args)}\n")
    return rc


def report(path):
    rows = []
    with open(path) as f:
        for line in f:
            cpu, name = line.rstrip("\n").split("\t", 1)
            rows.append((float(cpu), name))
    rows.sort(reverse=True)
    for cpu, name in rows:
        print(f"{cpu:8.1f}  {name}")
    print(f"{sum(c for c, _ in rows):8.1f}  total CPU seconds, {len(rows)} calls")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--report":
        report(sys.argv[2])
    elif len(sys.argv) < 2:
        sys.exit(__doc__)
    else:
        sys.exit(run_compiler(sys.argv[1:]))
