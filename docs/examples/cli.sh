#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The command-line getting-started example; the documentation's test stage runs it in an
# empty folder with the built `lwc` first on PATH.
set -euo pipefail
printf 'quarterly figures\n' > report.txt

lwc keygen -o my.key                                 # a 256-bit key file, mode 0600
lwc encrypt -k my.key -o report.txt.lwc report.txt   # ascon-aead128 in chunks
lwc decrypt -k my.key -o report.out report.txt.lwc   # appears only once everything verified
cmp report.txt report.out

lwc hash report.txt report.txt.lwc > SUMS            # like sha256sum / b3sum
lwc hash -c SUMS
lwc hash -a ascon-xof128 -l 64 report.txt            # any registered hash or XOF

printf 'X' | dd of=report.txt.lwc bs=1 seek=70 conv=notrunc status=none
if lwc decrypt -k my.key -o tampered.out report.txt.lwc; then exit 1; fi
test ! -e tampered.out                               # nothing was written
