#!/bin/sh
# A USI engine that breaks the rules or the protocol, for koma-match's
# forfeit tests (tests/CMakeLists.txt, match.usi_*):
#   fake_usi_engine.sh illegal   answers every go with `bestmove 1a1b` (a
#                                square with none of its pieces)
#   fake_usi_engine.sh exit      exits at the first go, as a crash would
#   fake_usi_engine.sh silent    never answers go
mode=$1
while IFS= read -r line; do
  case "$line" in
    usi) echo "id name fake-$mode"; echo usiok ;;
    isready) echo readyok ;;
    go*)
      case "$mode" in
        illegal) echo "info depth 1 nodes 7"; echo "bestmove 1a1b" ;;
        exit) exit 3 ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
