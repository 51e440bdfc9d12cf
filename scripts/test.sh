#!/bin/sh
# Quick start, command 2: set up, build, run every test through ctest (the
# Python module's pytest suite among them, the ctest test "python"), then
# build the WebAssembly module and run its node tests (scripts/wasm.sh).
# SANITIZE=1 builds with -fsanitize=address,undefined (in build/asan) and runs
# every test; SANITIZE=thread builds with -fsanitize=thread (in build/tsan)
# and runs the tests labelled "threads" (ctest -L threads). JOBS sets the
# build's and ctest's parallelism (default 2).
set -e
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
dir=build/tests
# The bindings are tested once, in the plain build (not under the sanitizers).
flags="-DKOMA_PYTHON=ON"
targets=""
select=""
case "${SANITIZE:-0}" in
  0) sh scripts/setup.sh python ;;
  1) sh scripts/setup.sh; dir=build/asan; flags="-DKOMA_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo" ;;
  thread)
    sh scripts/setup.sh
    dir=build/tsan
    flags="-DKOMA_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo"
    # What the "threads" tests run (koma-perft checks the USI engine's moves).
    targets="--target koma_tests koma-match koma-usi koma-perft"
    select="-L threads"
    ;;
  *) echo "test.sh: SANITIZE takes 1 (address,undefined) or thread, not '$SANITIZE'" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags
cmake --build "$dir" -j "$jobs" $targets
(cd "$dir" && ctest --output-on-failure -j "$jobs" $select)
# The JavaScript module's tests, once: its counts are checked against this
# build's koma-perft.
if [ "${SANITIZE:-0}" = 0 ]; then
  KOMA_PERFT=$(pwd)/$dir/koma-perft JOBS=$jobs sh scripts/wasm.sh
fi
