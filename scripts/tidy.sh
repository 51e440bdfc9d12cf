#!/bin/sh
# clang-tidy with the repository's .clang-tidy; fails on any finding.
#   sh scripts/tidy.sh            every lib/*.cpp, then every header of include/koma/ and lib/
#   sh scripts/tidy.sh FILE...    only these (paths from the repository root)
# A source is checked with the headers of include/koma/ and lib/ it includes
# (HeaderFilterRegex in .clang-tidy). A header given here is checked on its
# own, through a one-line source that includes it (so it must be
# self-contained); without arguments, the headers are checked together,
# through one source that includes them all (the same findings, the
# standard library and Boost parsed once instead of 35 times; that the
# public headers compile on their own, scripts/check-install.sh checks).
# Compile commands come from build/tidy, configured here with the "tidy" preset (CMAKE_EXPORT_COMPILE_COMMANDS; nothing is compiled). JOBS
# files are checked at a time (default 2). Needs clang-tidy:
# `sh scripts/setup.sh tidy` installs it; CLANG_TIDY names another binary.
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
tidy=${CLANG_TIDY:-}
if [ -z "$tidy" ]; then
  for t in clang-tidy clang-tidy-14; do
    if command -v "$t" >/dev/null 2>&1; then tidy=$t; break; fi
  done
fi
if [ -z "$tidy" ]; then
  echo "tidy.sh: clang-tidy not found; install it with: sh scripts/setup.sh tidy" >&2
  exit 2
fi
dir=build/tidy
cmake --preset tidy >/dev/null
rm -rf "$dir/headers" "$dir/out"
mkdir -p "$dir/headers" "$dir/out"
if [ $# = 0 ]; then
  # Every header, through one source (named as the files it includes).
  together=$dir/headers/all-headers.hpp
  for h in include/koma/*.hpp include/koma/detail/*.hpp lib/*.hpp; do
    echo "#include \"$root/$h\""
  done >"$together"
  set -- lib/*.cpp "$together"
fi
# One line per file: what clang-tidy is given (the file, or a source that
# includes the header) and where its output goes.
n=0
for f in "$@"; do
  [ -f "$f" ] || { echo "tidy.sh: no file $f" >&2; exit 2; }
  n=$((n + 1))
  src=$f
  case "$f" in
    *.hpp | *.h)
      # Takes its flags from the closest entry of compile_commands.json.
      src=$dir/headers/$(echo "$f" | tr / _).cpp
      echo "#include \"$root/$f\"" >"$src"
      ;;
  esac
  echo "$src $dir/out/$n"
done >"$dir/files"
# JOBS files at a time (default 2); each one's findings (standard output),
# standard error and status are kept apart, and shown below in order.
xargs -P "${JOBS:-2}" -L 1 sh -c '"$0" -p "$1" --quiet "$2" >"$3.out" 2>"$3.err"; echo $? >"$3.status"' \
  "$tidy" "$dir" <"$dir/files"
failed=""
n=0
for f in "$@"; do
  n=$((n + 1))
  out=$dir/out/$n
  echo "clang-tidy $f"
  cat "$out.out"
  # Of standard error, the count of warnings (mostly in system headers, never
  # reported) is left out.
  grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' "$out.err" >&2 || true
  [ "$(cat "$out.status")" = 0 ] || failed="$failed $f"
done
if [ -n "$failed" ]; then
  echo "tidy.sh: findings in:$failed" >&2
  exit 1
fi
echo "tidy.sh: clean ($# files)"
