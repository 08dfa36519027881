# SPDX-License-Identifier: MIT OR Apache-2.0
# The OpenSSL 3 provider lwc.so: its EVP tests, the openssl tool with it (list, dgst against
# lwc hash) and Python's hashlib loading it through an OPENSSL_CONF file. Uses stage 10's
# release build when it exists (lwc.so and the lwc tool are built there already), else
# configures its own. Skipped with a message where OpenSSL 3 development files are missing.
set -euo pipefail
source tools/cmake-generator.sh
build=${LWC_PROVIDER_BUILD:-build/ci-release}  # any configured build folder
if [ ! -f "$build/CMakeCache.txt" ]; then
  build=build/ci-provider
  cmake -S . -B "$build" $(lwc_generator "$build") -DCMAKE_BUILD_TYPE=Release -DLWC_ENABLE_CUDA=OFF \
    -DLWC_BUILD_BENCH=OFF -DLWC_BUILD_EXAMPLES=OFF -DLWC_BUILD_CAPI=OFF >/dev/null
fi
if [ ! -d "$build/provider/tests" ]; then  # provider/ skipped itself at configuration
  echo "openssl provider: skipped (no OpenSSL 3 development files, or LWC_BUILD_OPENSSL_PROVIDER=OFF)"
  exit 0
fi
cmake --build "$build" -j"${LWC_JOBS:-$(nproc)}" --target lwc_provider lwc_provider_tests lwc_cli
dir=$build/provider
"$dir/tests/lwc_provider_tests" --gtest_brief=1
bash provider/tests/openssl_cli_test.sh "$dir" "$build/cli/lwc"

# hashlib: the one configuration file a user writes (docs/openssl.md), with the lwc package
# of stage 40 as the reference where its virtual environment exists.
conf=$(mktemp)
trap 'rm -f "$conf"' EXIT
cat >"$conf" <<CONF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
[provider_sect]
default = default_sect
lwc = lwc_sect
[default_sect]
activate = 1
[lwc_sect]
module = $(pwd)/$dir/lwc.so
activate = 1
CONF
py=python3
if [ -x build/py-venv/bin/python ] && build/py-venv/bin/python -c 'import lwc' 2>/dev/null; then
  py=build/py-venv/bin/python
fi
OPENSSL_CONF=$conf LWC_TOOL=$build/cli/lwc "$py" provider/tests/hashlib_test.py
echo "openssl provider: ok"
