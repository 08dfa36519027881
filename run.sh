#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The main job: builds lwc and its command-line tool, then demonstrates the tool end to end
# (keygen, encrypt a sample file, decrypt it, compare, refuse a tampered copy, hash --check)
# and prints a short benchmark table.
set -euo pipefail
cd "$(dirname "$0")"
source tools/ensure-deps.sh
cmake -S . -B build/run -DCMAKE_BUILD_TYPE=Release -DLWC_BUILD_TESTS=OFF -DLWC_ENABLE_CUDA=OFF >/dev/null
cmake --build build/run -j"$LWC_JOBS" --target lwc_cli

lwc=$PWD/build/run/cli/lwc
demo=$(mktemp -d "${TMPDIR:-/tmp}/lwc-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
cd "$demo"
step() { printf '\n--- %s\n' "$*"; }
# Prints the command as a user would type it, then runs it with the built binary.
run() { printf '$ lwc %s\n' "$*"; "$lwc" "$@"; }

step "$("$lwc" --version): the algorithms it knows"
run list

step "a key, a sample file, encryption and decryption"
"$lwc" keygen -o demo.key
printf '$ lwc keygen -o demo.key        # %s\n' "$(stat -c '%A' demo.key)"
{ cat "$OLDPWD/README.md"; head -c 3000000 /dev/urandom; } > sample.bin
run encrypt -k demo.key -o sample.lwc sample.bin
run decrypt -k demo.key -o sample.out sample.lwc
ls -l sample.bin sample.lwc sample.out | awk '{print "  " $5, $9}'
cmp sample.bin sample.out && echo "  decrypted file == original"

step "a changed byte is refused, and no output file appears"
cp sample.lwc tampered.lwc
printf '\x00' | dd of=tampered.lwc bs=1 seek=100000 conv=notrunc status=none
rc=0; run decrypt -k demo.key -o tampered.out tampered.lwc || rc=$?
if [ "$rc" -eq 0 ] || [ -e tampered.out ]; then echo "ERROR: tampered file accepted"; exit 1; fi
echo "  (exit status $rc; tampered.out was not created)"

step "hash and check"
printf '$ lwc hash sample.bin sample.lwc > SUMS\n'
"$lwc" hash sample.bin sample.lwc > SUMS
sed 's/^/  /' SUMS
run hash -c SUMS
printf 'x' >> sample.bin
echo "(one byte appended to sample.bin)"
rc=0; run hash -c SUMS || rc=$?
if [ "$rc" -eq 0 ]; then echo "ERROR: change not detected"; exit 1; fi
echo "  (exit status $rc)"

step "throughput, one thread, short runs: the single-message core and the batch engine"
run bench -a ascon-aead128,ascon-hash256 --operation encrypt,hash --sizes 64,4K,64K --batch --time 0.1
