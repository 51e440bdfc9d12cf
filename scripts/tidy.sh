#!/bin/sh
# clang-tidy with the repository's .clang-tidy; fails on any finding.
#   sh scripts/tidy.sh            every lib/*.cpp, then every header of include/koma/ and lib/
#   sh scripts/tidy.sh FILE...    only these (paths from the repository root)
# A source is checked with the headers of include/koma/ and lib/ it includes
# (HeaderFilterRegex in .clang-tidy). A header given here is checked on its
# own, through a one-line source that includes it (so it must be
# self-contained). Compile commands come from build/tidy, configured here with
# CMAKE_EXPORT_COMPILE_COMMANDS (nothing is compiled). Needs clang-tidy:
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
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
[ $# -gt 0 ] || set -- lib/*.cpp include/koma/*.hpp include/koma/detail/*.hpp lib/*.hpp
rm -rf "$dir/headers"
failed=""
for f in "$@"; do
  [ -f "$f" ] || { echo "tidy.sh: no file $f" >&2; exit 2; }
  src=$f
  case "$f" in
    *.hpp | *.h)
      # Takes its flags from the closest entry of compile_commands.json.
      src=$dir/headers/$(echo "$f" | tr / _).cpp
      mkdir -p "$dir/headers"
      echo "#include \"$root/$f\"" >"$src"
      ;;
  esac
  echo "clang-tidy $f"
  # Findings go to standard output; of standard error, the count of warnings
  # (mostly in system headers, never reported) is left out.
  "$tidy" -p "$dir" --quiet "$src" 2>"$dir/stderr" || failed="$failed $f"
  grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$' "$dir/stderr" >&2 || true
done
if [ -n "$failed" ]; then
  echo "tidy.sh: findings in:$failed" >&2
  exit 1
fi
echo "tidy.sh: clean ($# files)"
