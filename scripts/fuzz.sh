#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz (KOMA_FUZZ=ON, clang, ASan +
# UBSan) in build/fuzz and runs each for SECONDS_PER_TARGET seconds (default
# 60), one after the other. Each target starts from its seeds in
# tests/fuzz/corpus/<target>/, copied to build/fuzz/corpus/<target>/, where
# what the fuzzer finds accumulates (the repository's corpus stays small).
# Crashes, hangs and leaks go to build/fuzz/artifacts/<target>/. Prints per
# target the seconds run, the inputs executed, the crashes found and the slow
# inputs (over 10 s) seen.
#   sh scripts/fuzz.sh [SECONDS_PER_TARGET]
# Environment: TARGETS="descriptor move" runs only those; CLANG_VERSION
# (default: the version Debian's clang package names, 14 on bookworm);
# JOBS (build parallelism, default 1). Exits 1 if any target found a crash.
set -e
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=${TARGETS:-descriptor position sfen move usi record}

# clang and libFuzzer's runtime (libclang-rt-N-dev) of the packaged version.
if [ -z "$CLANG_VERSION" ]; then
  CLANG_VERSION=$(apt-cache policy clang 2>/dev/null |
    sed -n 's/^ *Candidate: [0-9]*:\([0-9][0-9]*\)\..*/\1/p')
  CLANG_VERSION=${CLANG_VERSION:-14}
fi
export CLANG_VERSION
sh scripts/setup.sh fuzz

dir=build/fuzz
# The "fuzz" preset of CMakePresets.json (clang++-$CLANG_VERSION).
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${JOBS:-1}"

root=$(pwd)
status=0
printf '%-11s %8s %12s %8s %6s\n' target seconds executions crashes slow >"$dir/summary.txt"
# Crashes, sanitizer reports, failed checks, uncaught exceptions (crash-*),
# hangs (timeout-*), leaks and memory blow-ups; slow-unit-* (over 10 s, under
# the hang limit) are counted apart: worth a look, not a failure.
count() {
  find "$1" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' \) |
    wc -l
}
count_slow() { find "$1" -type f -name 'slow-unit-*' | wc -l; }
for t in $targets; do
  corpus="$root/$dir/corpus/$t"
  artifacts="$root/$dir/artifacts/$t"
  work="$root/$dir/run/$t"
  mkdir -p "$corpus" "$artifacts" "$work"
  cp -R tests/fuzz/corpus/"$t"/. "$corpus"/
  dict=""
  [ -f "tests/fuzz/$t.dict" ] && dict="-dict=$root/tests/fuzz/$t.dict"
  before=$(count "$artifacts")
  slow_before=$(count_slow "$artifacts")
  start=$(date +%s)
  # -jobs=1 -workers=1: one fuzzing process, its output in $work/fuzz-0.log.
  # A hang is an input that takes more than 20 s.
  (cd "$work" && rm -f fuzz-0.log &&
    "$root/$dir/tests/fuzz/fuzz_$t" -jobs=1 -workers=1 -max_total_time="$seconds" \
      -timeout=20 -print_final_stats=1 -artifact_prefix="$artifacts/" $dict "$corpus" \
      >/dev/null 2>&1) || true
  end=$(date +%s)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz-0.log" | tail -n 1)
  crashes=$(($(count "$artifacts") - before))
  slow=$(($(count_slow "$artifacts") - slow_before))
  [ "$crashes" -eq 0 ] || status=1
  printf '%-11s %8s %12s %8s %6s\n' "$t" $((end - start)) "${runs:-?}" "$crashes" "$slow" \
    >>"$dir/summary.txt"
  if [ "$crashes" -gt 0 ] || [ "$slow" -gt 0 ]; then
    echo "fuzz_$t: $crashes crash(es), $slow slow input(s) in $artifacts; log: $work/fuzz-0.log"
  fi
done
cat "$dir/summary.txt"
exit $status
