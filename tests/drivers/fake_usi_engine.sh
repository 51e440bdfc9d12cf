#!/bin/sh
# A USI engine that breaks the rules or the protocol, for koma-match's
# forfeit tests (tests/CMakeLists.txt, match.usi_*):
#   fake_usi_engine.sh illegal   answers every go with `bestmove 1a1b` (a
#                                square with none of its pieces)
#   fake_usi_engine.sh exit      exits at the first go, as a crash would
#   fake_usi_engine.sh silent    never answers go
#   fake_usi_engine.sh bare      answers go with a bare `bestmove`, no move
#   fake_usi_engine.sh flood FILE SIDE
#                                prints usiok, readyok and, at once, a
#                                bestmove for each move of side SIDE (1 or 2)
#                                of the game in FILE (moves separated by
#                                spaces), then never reads its input again
#   fake_usi_engine.sh orphan FILE [silent]
#                                starts a child process that outlives it,
#                                appends its own and the child's process ids
#                                to FILE, resigns at every go (never answers
#                                with silent), ignores quit and, at the end
#                                of its input, waits for the child
mode=$1
case "$mode" in
  flood)
    echo usiok
    echo readyok
    tr ' ' '\n' < "$2" | awk -v side="$3" 'NF && NR % 2 == side % 2 { print "bestmove " $1 }'
    exec sleep 300 ;;
  orphan)
    sleep 300 &
    echo "$$ $!" >> "$2" ;;
esac
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name fake-$mode"; echo usiok ;;
    isready) echo readyok ;;
    go*)
      case "$mode" in
        illegal) echo "info depth 1 nodes 7"; echo "bestmove 1a1b" ;;
        exit) exit 3 ;;
        bare) echo "bestmove" ;;
        orphan) [ "$3" = silent ] || echo "bestmove resign" ;;
      esac ;;
    quit) [ "$mode" = orphan ] || exit 0 ;;
  esac
done
[ "$mode" = orphan ] && wait
