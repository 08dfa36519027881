# SPDX-License-Identifier: MIT OR Apache-2.0
# Sourced by run.sh and test.sh: installs the Debian packages lwc builds with, when missing.
lwc_missing=()
command -v cmake >/dev/null || lwc_missing+=(cmake)
command -v g++ >/dev/null || lwc_missing+=(g++)
command -v pkg-config >/dev/null || lwc_missing+=(pkg-config)
command -v ninja >/dev/null || lwc_missing+=(ninja-build)
command -v ccache >/dev/null || lwc_missing+=(ccache)
[ -e /usr/include/gtest/gtest.h ] || lwc_missing+=(libgtest-dev)
[ -e /usr/include/benchmark/benchmark.h ] || lwc_missing+=(libbenchmark-dev)
[ -e /usr/include/CLI/CLI.hpp ] || lwc_missing+=(libcli11-dev)
if [ ${#lwc_missing[@]} -gt 0 ]; then
  echo "installing: ${lwc_missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${lwc_missing[@]}" >/dev/null
fi
unset lwc_missing
export LWC_JOBS=${LWC_JOBS:-$(nproc)}
