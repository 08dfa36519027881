#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs every test of lwc on a fresh machine: installs what is missing, then runs each stage in
# tests/stages/ in order (C++ release build, sanitizer build, install + consumers, and the
# stages of the other layers). Stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")"
source tools/ensure-deps.sh
start=$SECONDS
for stage in tests/stages/*.sh; do
  echo "=== stage: $(basename "$stage" .sh)"
  t0=$SECONDS
  bash "$stage"
  echo "=== stage $(basename "$stage" .sh): $((SECONDS - t0)) s"
done
echo "=== all stages passed in $((SECONDS - start)) s"
