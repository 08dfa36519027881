# SPDX-License-Identifier: MIT OR Apache-2.0
# RTL cores (hw/): Verilator simulation of the Ascon core at every rounds-per-clock setting and
# of the Acorn-128 core at four widths (8, 16, 32, 64 bits per clock), against every KAT file of their algorithms and random
# jobs compared with lwc's C++ core, protocol cases (every in_bytes value and misplaced in_last,
# decryptions longer than the output FIFO, the 17-byte aliasing forgery; under random stalls,
# each followed by a good job) and, on every clock, a zero output bus while out_valid is low
# (hw/run-tests.sh; Verilator is installed when missing).
# Most of its time is compiling the Verilated models (the Acorn-128 ones are the largest); Verilator's
# runtime, the test bench and the reference side are compiled once for all of them. Synthesis
# (hw/synth.sh) is not part of it. LWC_HW=0 skips it on a machine without the time (never in CI).
set -euo pipefail
if [ "${LWC_HW:-1}" = 0 ]; then
  echo "hardware stage skipped (LWC_HW=0)"
  exit 0
fi
bash hw/run-tests.sh
