#!/bin/sh
# Quick start, command 2: set up, build, run every test through ctest.
# With SANITIZE=1 the build uses -fsanitize=address,undefined (in its own folder).
set -e
cd "$(dirname "$0")/.."
sh scripts/setup.sh
dir=build/tests
flags=""
if [ "${SANITIZE:-0}" = 1 ]; then dir=build/asan; flags="-DKOMA_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo"; fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags
cmake --build "$dir" -j 2
cd "$dir" && ctest --output-on-failure -j 2
