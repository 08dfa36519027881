# SPDX-License-Identifier: MIT OR Apache-2.0
# Sourced by the test stages that configure a build folder (10, 20, 60, 65, 70), also when a
# stage runs alone. lwc_generator DIR: the CMake generator for a new build folder: Ninja, which
# compiles the targets' sources side by side, where make finishes one target's prerequisites
# before it starts the next (the s390x stage-70 build: 110 s against 183 s on 2 cores).
# Nothing for a folder already configured (its generator stays) or without ninja.
# Usage: cmake -S . -B DIR $(lwc_generator DIR) ...
lwc_generator() {
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null; then echo "-GNinja"; fi
}
