# SPDX-License-Identifier: MIT OR Apache-2.0
# Installs lwc into a scratch prefix and builds three consumers against it: find_package,
# add_subdirectory and pkg-config (plain C). Also checks that the C ABI exports only lwc_*.
set -euo pipefail
source tools/cmake-generator.sh
root=$(pwd)
prefix=$root/build/ci-prefix
rm -rf "$prefix" build/ci-consumer-*
cmake --install build/ci-release --prefix "$prefix" >/dev/null
cmake -S tests/consumer/find-package -B build/ci-consumer-fp -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build/ci-consumer-fp -j"${LWC_JOBS:-$(nproc)}" >/dev/null
./build/ci-consumer-fp/consumer_cpp
LD_LIBRARY_PATH="$prefix/lib" ./build/ci-consumer-fp/consumer_c
# The engines are installed with the core (lwc::batch always, lwc::cuda when nvcc was found).
./build/ci-consumer-fp/consumer_batch
if [ -x build/ci-consumer-fp/consumer_cuda ]; then ./build/ci-consumer-fp/consumer_cuda; fi
# This checks that lwc builds and links as a subproject. Under test.sh's compiler cache a
# Release build reuses stage 10's objects (same sources, same flags; with Ninja, as stage 10:
# ccache missed every object of a Makefile build, whose compile lines differ); without the cache
# it is built unoptimized (Debug), since optimizing the engines again tripled the time (188 s
# of CPU against 55).
sub_type=Debug
[ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] && sub_type=Release
cmake -S tests/consumer/add-subdirectory -B build/ci-consumer-sub $(lwc_generator build/ci-consumer-sub) \
  -DLWC_SOURCE_DIR="$root" \
  -DCMAKE_BUILD_TYPE=$sub_type -DLWC_ENABLE_CUDA=OFF >/dev/null
cmake --build build/ci-consumer-sub -j"${LWC_JOBS:-$(nproc)}" --target consumer_cpp consumer_c consumer_batch >/dev/null
./build/ci-consumer-sub/consumer_cpp
./build/ci-consumer-sub/consumer_c
./build/ci-consumer-sub/consumer_batch
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" cc -std=c99 -Wall -Werror tests/consumer/main.c \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs lwc) -o build/ci-consumer-pc
LD_LIBRARY_PATH="$prefix/lib" ./build/ci-consumer-pc
exported=$(nm -D --defined-only "$prefix/lib/liblwc.so" | awk '{print $3}' | grep -v '^lwc_' || true)
if [ -n "$exported" ]; then echo "liblwc.so exports non-lwc symbols:"; echo "$exported" | head; exit 1; fi
echo "install and consumers: ok"
