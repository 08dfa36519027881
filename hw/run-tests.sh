#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Simulates the RTL cores of hw/ with Verilator and compares every output with lwc's C++ core.
#
#   hw/run-tests.sh                         every KAT file of the cores' algorithms and random
#                                           jobs, on every configuration
#   hw/run-tests.sh ALGORITHM=KATFILE ...   just those vectors (ascon-aead128, ascon-hash256,
#                                           ascon-xof128, acorn-128), on every configuration
#
# Configurations: the Ascon core at 1, 2, 3, 4 and 6 rounds per clock, the Acorn-128 core at
# 32, 8, 16 and 64 bits per clock (LWC_HW_ASCON / LWC_HW_ACORN pick others). The default one of each
# core (1 round, 32 bits) runs LWC_HW_RANDOM random jobs (10000), the others LWC_HW_RANDOM_OTHER
# (2000). Each configuration is built once under hw/build/. Missing tools are installed with apt.
# The last line of output is "N passed, N failed", summed over all configurations.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=$root/hw/build
ascon_settings=${LWC_HW_ASCON:-"1 2 3 4 6"}
acorn_settings=${LWC_HW_ACORN:-"32 8 16 64"}
random_default=${LWC_HW_RANDOM:-10000}
random_other=${LWC_HW_RANDOM_OTHER:-2000}
jobs=${LWC_JOBS:-2}

if ! command -v verilator >/dev/null; then
  echo "installing: verilator"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq verilator >/dev/null
fi

# Vector files: the arguments, or every KAT file of the cores' algorithms. The nonce-masking
# ACVP file needs a second key, which the core does not take.
ascon_kats=(); acorn_kats=()
if [ $# -gt 0 ]; then
  for a in "$@"; do
    case "$a" in
      ascon-aead128=*|ascon-hash256=*|ascon-xof128=*) ascon_kats+=("$a") ;;
      acorn-128=*) acorn_kats+=("$a") ;;
      *) echo "unknown argument '$a' (expected ALGORITHM=KATFILE)" >&2; exit 2 ;;
    esac
    [ -f "${a#*=}" ] || { echo "no such file: ${a#*=}" >&2; exit 2; }
  done
  random_default=0; random_other=0
else
  for f in tests/vectors/ascon/ascon-aead128.txt tests/vectors/ascon/ascon-aead128.*.txt; do
    case "$f" in *noncemask*) continue ;; esac
    ascon_kats+=("ascon-aead128=$f")
  done
  for alg in ascon-hash256 ascon-xof128; do
    for f in tests/vectors/ascon/$alg.txt tests/vectors/ascon/$alg.*.txt; do ascon_kats+=("$alg=$f"); done
  done
  for f in tests/vectors/acorn/acorn-128.txt tests/vectors/acorn/acorn-128.*.txt; do acorn_kats+=("acorn-128=$f"); done
fi

protocol=(--protocol)
[ $# -gt 0 ] && protocol=()
mkdir -p "$build"
# The software side links lwc's header-only core; it is compiled once for every model.
if [ ! -f "$build/reference.o" ] || [ -n "$(find include hw/tb tests/support -newer "$build/reference.o" -name '*.hpp' -o -newer "$build/reference.o" -name 'reference.cpp' | head -1)" ]; then
  echo "building the reference side"
  g++ -std=c++20 -O2 -I include -I tests -c hw/tb/reference.cpp -o "$build/reference.o"
fi

# build NAME TOP FAMILY PARAMETER=VALUE: one Verilator model with the test bench.
build_model() {
  local name=$1 top=$2 family=$3 param=$4 dir=$build/$1
  local sources=(hw/rtl/$top.v hw/rtl/lwc_${family}_core.v hw/rtl/lwc_commit_fifo.v)
  [ "$family" = ascon ] && sources+=(hw/rtl/lwc_ascon_rounds.v)
  local stamp=$dir/obj/V$top
  if [ -x "$stamp" ] && [ -z "$(find "${sources[@]}" hw/tb/tb_main.cpp "$build/reference.o" -newer "$stamp" | head -1)" ]; then
    return
  fi
  echo "building $name"
  mkdir -p "$dir"
  verilator --cc --exe --build -j "$jobs" --Mdir "$dir/obj" --top-module "$top" \
    -G"$param" -Wno-fatal -Wno-lint -Wno-UNOPTFLAT -Wno-WIDTH --x-assign fast --x-initial fast \
    -CFLAGS "-std=c++20 -O1 -I$root/hw/tb -DTB_TOP=V$top -DTB_CONFIG=$name -DTB_FAMILY_ID=$family" \
    "${sources[@]}" "$root/hw/tb/tb_main.cpp" "$build/reference.o" >"$dir.log" 2>&1 \
    || { cat "$dir.log"; exit 1; }
}

passed=0; failed=0
run_model() {
  local name=$1 top=$2 family=$3 count=$4; shift 4
  local log=$build/$name.out
  set +e
  "$build/$name/obj/V$top" --random "$count" --seed 2026 "$@" | tee "$log"
  set -e
  local last
  last=$(tail -n 1 "$log")
  if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  else
    echo "$name: no result line"; failed=$((failed + 1))
  fi
}

first=1
for r in $ascon_settings; do
  [ ${#ascon_kats[@]} -gt 0 ] || [ $# -eq 0 ] || break
  build_model "ascon-r$r" lwc_ascon_stream ascon "ROUNDS_PER_CLOCK=$r"
  n=$random_other; [ "$first" = 1 ] && n=$random_default; first=0
  run_model "ascon-r$r" lwc_ascon_stream ascon "$n" --cycles "${protocol[@]}" "${ascon_kats[@]}"
done
first=1
for w in $acorn_settings; do
  [ ${#acorn_kats[@]} -gt 0 ] || [ $# -eq 0 ] || break
  build_model "acorn-w$w" lwc_acorn_stream acorn "BITS_PER_CLOCK=$w"
  n=$random_other; [ "$first" = 1 ] && n=$random_default; first=0
  run_model "acorn-w$w" lwc_acorn_stream acorn "$n" --cycles "${protocol[@]}" "${acorn_kats[@]}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
