#!/bin/sh
# Quick start, command 2: set up, build, run every test through ctest (the
# Python module's pytest suite among them, the ctest test "python"), then
# build the WebAssembly module and run its node tests (scripts/wasm.sh).
# Configures, builds and tests with the CMake presets of CMakePresets.json:
# "tests" (Release, build/tests) by default; SANITIZE=1 "asan"
# (-fsanitize=address,undefined, build/asan) with every test but those
# labelled "slow" (deeper counts of what the others walk); SANITIZE=thread
# "tsan" (-fsanitize=thread, build/tsan) with the tests labelled "threads"
# (ctest -L threads). JOBS sets the build's and ctest's parallelism (default
# 2); WASM=0 leaves out scripts/wasm.sh (CI runs it as a step of its own).
set -e
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
case "${SANITIZE:-0}" in
  # The bindings are tested once, in the plain build (not under the sanitizers).
  0) preset=tests; sh scripts/setup.sh python ;;
  1) preset=asan; sh scripts/setup.sh ;;
  # The tsan build preset builds what the "threads" tests run (koma-perft
  # checks the USI engine's moves).
  thread) preset=tsan; sh scripts/setup.sh ;;
  *) echo "test.sh: SANITIZE takes 1 (address,undefined) or thread, not '$SANITIZE'" >&2; exit 2 ;;
esac
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$jobs"
ctest --preset "$preset" -j "$jobs"
# The JavaScript module's tests, once: its counts are checked against this
# build's koma-perft.
if [ "$preset" = tests ] && [ "${WASM:-1}" != 0 ]; then
  KOMA_PERFT=$(pwd)/build/tests/koma-perft JOBS=$jobs sh scripts/wasm.sh
fi
