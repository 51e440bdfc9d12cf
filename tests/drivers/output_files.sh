#!/bin/sh
# What the drivers' output options do to the files they name (README.md,
# "Files:"; driver::write_file and driver::Output in examples/common/):
#
#   sh output_files.sh CASE WORK BIN VARIANT
#
# WORK is emptied and made the current folder; BIN holds koma-render,
# koma-play and koma-match; VARIANT is shogi's descriptor. Cases:
#   append_render, append_play, append_match
#       standard output appended to a file that holds a line already; the
#       picture (--out), the saved record (save) or the match record
#       (--record) go to /dev/stdout, /dev/fd/1 or /proc/self/fd/1: the line
#       is still there, followed by what was written (it was replaced)
#   read_only
#       a file of mode 0444 is refused (--out, --record), even to root, and
#       keeps its content and mode
#   hard_link
#       a file with a second hard link is written, and the two names are
#       still one file
#   long_name
#       a file whose name is 250 bytes (the file system takes 255) is written
#       new and replaced
#   owner
#       (root only, else skipped with status 77) a file of another owner and
#       group and mode 0640 keeps its owner, group and mode when replaced
set -u
case_name=$1 work=$2 bin=$3 variant=$4
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
fail() {
  echo "output_files.sh $case_name: $*" >&2
  exit 1
}
# first_line FILE TEXT: FILE's first line is TEXT.
first_line() {
  [ "$(head -n 1 "$1")" = "$2" ] || fail "$1 starts with '$(head -c 80 "$1")', not '$2'"
}
# has_line FILE REGEX: a line of FILE matches REGEX.
has_line() {
  grep -q -- "$2" "$1" || fail "no line of $1 matches '$2': $(head -c 300 "$1")"
}
render() {
  "$bin/koma-render" --variant "$variant" --out "$@"
}

case "$case_name" in
  append_render)
    for out in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
      echo before > log
      render "$out" >> log || fail "koma-render --out $out failed"
      first_line log before
      has_line log '^<svg '
      [ "$(tail -n 1 log)" = "</svg>" ] || fail "--out $out: log does not end with </svg>"
    done ;;
  append_play)
    echo before > log
    printf '7g7f\nsave /dev/stdout\nquit\n' | "$bin/koma-play" --variant "$variant" >> log ||
      fail "koma-play failed"
    first_line log before
    has_line log '^{"variant": "shogi", .*"moves": \["7g7f"\]'
    has_line log '^saved to /dev/stdout$' ;;
  append_match)
    echo before > log
    "$bin/koma-match" --variant "$variant" --seats easy,easy --games 2 --nodes 50 \
      --max-plies 10 --record /dev/stdout >> log || fail "koma-match failed"
    first_line log before
    [ "$(grep -c '^{"variant": "shogi"' log)" -eq 2 ] || fail "log holds not 2 records: $(cat log)"
    has_line log '^total games 2 ' ;;
  read_only)
    echo keep > board.svg
    echo keep > games.jsonl
    chmod 0444 board.svg games.jsonl
    render board.svg 2> err && fail "koma-render wrote a read-only file"
    grep -q "^koma-render: cannot write the picture: Permission denied: its mode 0444 (owner uid [0-9]*) does not let this user (uid [0-9]*) write it (board.svg)\$" err ||
      fail "koma-render says: $(cat err)"
    "$bin/koma-match" --variant "$variant" --seats easy,easy --games 1 --nodes 50 \
      --max-plies 4 --record games.jsonl > out 2> err && fail "koma-match wrote a read-only file"
    grep -q "^koma-match: cannot write the record file: Permission denied: its mode 0444 " err ||
      fail "koma-match says: $(cat err)"
    for f in board.svg games.jsonl; do
      [ "$(cat $f)" = keep ] || fail "$f was changed: $(head -c 80 $f)"
      [ "$(stat -c %a $f)" = 444 ] || fail "$f has mode $(stat -c %a $f) now"
    done ;;
  hard_link)
    echo old > board.svg
    ln board.svg other.svg
    render board.svg || fail "koma-render failed"
    [ "$(stat -c %i board.svg)" = "$(stat -c %i other.svg)" ] ||
      fail "board.svg and other.svg are two files now"
    has_line other.svg '^<svg ' ;;
  long_name)
    name=$(printf '%0250d' 0).svg
    name=${name#????}  # 250 bytes with .svg
    render "$name" || fail "koma-render failed on a new file of a ${#name}-byte name"
    echo old > "$name"
    render "$name" || fail "koma-render failed to replace a file of a ${#name}-byte name"
    has_line "$name" '^<svg '
    [ "$(ls -A | wc -l)" -eq 1 ] || fail "files left beside it: $(ls -A)" ;;
  owner)
    [ "$(id -u)" -eq 0 ] || exit 77
    echo old > board.svg
    chown 12345:12346 board.svg
    chmod 0640 board.svg
    render board.svg || fail "koma-render failed"
    has_line board.svg '^<svg '
    [ "$(stat -c %u:%g:%a board.svg)" = 12345:12346:640 ] ||
      fail "owner, group and mode are $(stat -c %u:%g:%a board.svg), not 12345:12346:640" ;;
  *) fail "unknown case" ;;
esac
exit 0
