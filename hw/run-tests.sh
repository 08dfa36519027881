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

# The configurations to build and run: NAME TOP FAMILY PARAMETER=VALUE RANDOM-JOBS.
models=()
vectors_named=$#
# add_models FAMILY NAME-PREFIX PARAMETER "SETTINGS" KAT-COUNT: one configuration per setting,
# the first with the default number of random jobs; none when vectors were named and none of
# them is this core's.
add_models() {
  local family=$1 prefix=$2 parameter=$3 settings=$4 kats=$5 n first=1 v
  [ "$kats" -gt 0 ] || [ "$vectors_named" -eq 0 ] || return 0
  for v in $settings; do
    n=$random_other; [ "$first" = 1 ] && n=$random_default; first=0
    models+=("$family-$prefix$v lwc_${family}_stream $family $parameter=$v $n")
  done
}
add_models ascon r ROUNDS_PER_CLOCK "$ascon_settings" ${#ascon_kats[@]}
add_models acorn w BITS_PER_CLOCK "$acorn_settings" ${#acorn_kats[@]}
[ ${#models[@]} -gt 0 ] || { echo "no configuration to run"; exit 2; }

# Building. Only the Verilated model differs between the configurations of a core: Verilator's
# runtime (verilated.cpp, most of a model's compile time), the test bench (one object per core
# family: every configuration has the same model interface) and the reference side (lwc's
# header-only core) are compiled once, under hw/build/shared, and linked into every program.
# All compiles, shared or per model, run side by side, LWC_JOBS at a time.
shared=$build/shared
mkdir -p "$shared"
# stale TARGET FILE...: TARGET is missing or older than one of the files.
stale() {
  local target=$1; shift
  [ ! -e "$target" ] || [ -n "$(find "$@" -newer "$target" | head -1)" ]
}
rtl_sources() {  # rtl_sources TOP FAMILY
  echo "hw/rtl/$1.v hw/rtl/lwc_$2_core.v hw/rtl/lwc_commit_fifo.v"
  if [ "$2" = ascon ]; then echo hw/rtl/lwc_ascon_rounds.v; fi
}
verilator_flags=(-Wno-fatal -Wno-lint -Wno-UNOPTFLAT -Wno-WIDTH --x-assign fast --x-initial fast
                 -CFLAGS "-std=c++20 -O1")
compiles=()   # shell commands, each writing one object or archive
families=()   # FAMILY:TOP, one per core
for m in "${models[@]}"; do
  read -r name top family param _ <<<"$m"
  dir=$build/$name
  read -r -a sources <<<"$(rtl_sources "$top" "$family" | tr '\n' ' ')"
  [[ " ${families[*]} " == *" $family:$top "* ]] || families+=("$family:$top")
  if stale "$dir/V${top}__ALL.a" "${sources[@]}" hw/run-tests.sh; then
    # Verilating a core takes about a second; its C++ is compiled below, beside the rest.
    echo "verilating $name"
    rm -rf "$dir"
    mkdir -p "$dir"
    verilator --cc --Mdir "$dir/obj" --top-module "$top" -G"$param" "${verilator_flags[@]}" \
      "${sources[@]}" >"$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
    compiles+=("make -C '$dir/obj' -f V$top.mk V${top}__ALL.a >>'$dir.log' 2>&1 && cp -p '$dir/obj/V${top}__ALL.a' '$dir/' || { cat '$dir.log'; exit 1; }")
  fi
done
# Compiler, flags and runtime units as Verilator's own makefile (verilated.mk) has them, read
# from the first model's generated makefile, so the shared objects are what Verilator would
# have built into each model.
read -r first_name first_top _ <<<"${models[0]}"
make_var() {
  make -s -C "$build/$first_name/obj" -f "V$first_top.mk" -f <(printf 'print-%%:\n\t@echo $(%s)\n' "$1") "print-$1"
}
cxx=$(make_var CXX)
cxxflags="$(make_var CXXFLAGS) $(make_var CPPFLAGS)"
ldlibs=$(make_var LDLIBS)
verilator_include=$(verilator --getenv VERILATOR_ROOT)/include
runtime_objs=()
for unit in $(make_var VK_GLOBAL_OBJS); do
  runtime_objs+=("$shared/$unit")
  stale "$shared/$unit" "$verilator_include/${unit%.o}.cpp" "$verilator_include/verilated.mk" hw/run-tests.sh &&
    compiles=("$cxx $cxxflags $(make_var OPT_GLOBAL) -c -o '$shared/$unit' '$verilator_include/${unit%.o}.cpp'" "${compiles[@]}")
done
for ft in "${families[@]}"; do
  family=${ft%%:*} top=${ft#*:}
  for m in "${models[@]}"; do  # any configuration of the core: they share the interface header
    read -r name t _ <<<"$m"
    [ "$t" = "$top" ] && break
  done
  stale "$shared/tb_$family.o" hw/tb/tb_main.cpp hw/tb/reference.hpp hw/run-tests.sh "$build/$name/obj/V$top.h" \
      "$verilator_include/verilated.mk" &&
    compiles=("$cxx $cxxflags -I'$root/hw/tb' -I'$build/$name/obj' -DTB_TOP=V$top -DTB_FAMILY_ID=$family $(make_var OPT_FAST) -c -o '$shared/tb_$family.o' hw/tb/tb_main.cpp" "${compiles[@]}")
done
# The software side: lwc's header-only core, every algorithm of the registry. It is the longest
# compile here, and computing the expected outputs is a small part of the simulations' time,
# so it is built at -O1 (a third less compile time than -O2).
if stale "$shared/reference.o" hw/tb/reference.cpp $(find include hw/tb tests/support -name '*.hpp'); then
  compiles=("g++ -std=c++20 -O1 -I include -I tests -c hw/tb/reference.cpp -o '$shared/reference.o'" "${compiles[@]}")
fi
if [ ${#compiles[@]} -gt 0 ]; then
  echo "building: ${#compiles[@]} compiles, $jobs at a time"
  printf '%s\0' "${compiles[@]}" | xargs -0 -n 1 -P "$jobs" bash -c || { echo "hw: a compile failed"; exit 1; }
fi
for m in "${models[@]}"; do
  read -r name top family _ <<<"$m"
  dir=$build/$name
  if stale "$dir/V$top" "$dir/V${top}__ALL.a" "$shared"/*.o; then
    # Each configuration names itself in the test bench's output.
    printf 'extern const char tb_config_name[];\nconst char tb_config_name[] = "%s";\n' "$name" >"$dir/config_name.cpp"
    $cxx -c -o "$dir/config_name.o" "$dir/config_name.cpp"
    $cxx -o "$dir/V$top" "$shared/tb_$family.o" "$dir/config_name.o" "$dir/V${top}__ALL.a" \
      "${runtime_objs[@]}" "$shared/reference.o" $ldlibs
  fi
done

# Running: each program is single-threaded, so LWC_JOBS of them run side by side; each one's
# output is printed, in order, once they have all finished.
running=()
for m in "${models[@]}"; do
  read -r name top family _ n <<<"$m"
  kats=("${ascon_kats[@]}")
  [ "$family" = acorn ] && kats=("${acorn_kats[@]}")
  if [ ${#running[@]} -ge "$jobs" ]; then
    wait "${running[0]}" || true
    running=("${running[@]:1}")
  fi
  "$build/$name/V$top" --random "$n" --seed 2026 --cycles "${protocol[@]}" "${kats[@]}" \
    >"$build/$name.out" 2>&1 &
  running+=($!)
done
wait || true
passed=0; failed=0
for m in "${models[@]}"; do
  read -r name _ <<<"$m"
  log=$build/$name.out
  cat "$log"
  last=$(tail -n 1 "$log")
  if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  else
    echo "$name: no result line"; failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
