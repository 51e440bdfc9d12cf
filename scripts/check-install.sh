#!/bin/sh
# Checks that another CMake project can use koma after `cmake --install`
# (find_package; and that each installed header compiles on its own) and
# through add_subdirectory. Prints "30" twice.
# What is installed is scripts/test.sh's Release build (build/tests, the
# "tests" preset; configured and brought up to date here). The
# add_subdirectory consumer compiles koma itself, as such a project does, in
# its own build type: Debug (not optimized, so it compiles in about half the
# time of Release), as a unity build (clang-tidy compiles each source of
# lib/ on its own, scripts/tidy.sh).
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
sh scripts/setup.sh python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f build/tests/CMakeCache.txt ] || cmake --preset tests >/dev/null
cmake --build --preset tests -j "${JOBS:-2}" >/dev/null
cmake --install build/tests --prefix "$tmp/prefix" >/dev/null
# Each public header compiles on its own, too (tests/consumer/CMakeLists.txt).
cmake -S tests/consumer -B "$tmp/c1" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DKOMA_HEADERS="$tmp/prefix/include/koma" >/dev/null
cmake --build "$tmp/c1" -j "${JOBS:-2}" >/dev/null
"$tmp/c1/consumer" "$tmp/prefix/share/koma/variants/shogi.yaml"
cmake -S tests/consumer -B "$tmp/c2" -DKOMA_SOURCE_DIR="$root" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build "$tmp/c2" -j "${JOBS:-2}" >/dev/null
"$tmp/c2/consumer" "$root/variants/shogi.yaml"
