#!/bin/sh
# Checks that another CMake project can use koma after `cmake --install`
# (find_package) and through add_subdirectory. Prints "30" twice.
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake -S . -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release -DKOMA_BUILD_TESTS=OFF -DKOMA_BUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$tmp/prefix" >/dev/null
cmake --build "$tmp/build" -j "${JOBS:-2}" >/dev/null
cmake --install "$tmp/build" >/dev/null
cmake -S tests/consumer -B "$tmp/c1" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/c1" -j "${JOBS:-2}" >/dev/null
"$tmp/c1/consumer" "$tmp/prefix/share/koma/variants/shogi.yaml"
cmake -S tests/consumer -B "$tmp/c2" -DKOMA_SOURCE_DIR="$root" >/dev/null
cmake --build "$tmp/c2" -j "${JOBS:-2}" >/dev/null
"$tmp/c2/consumer" "$root/variants/shogi.yaml"
