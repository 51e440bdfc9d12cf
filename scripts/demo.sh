#!/bin/sh
# Quick start, command 1: set up, build in Release, run the main demo: a
# complete four-player Yonin game between CPU seats, shown move by move
# (koma-play), then the move-tree count of two-player shogi (koma-perft).
set -e
cd "$(dirname "$0")/.."
sh scripts/setup.sh
# The "release" preset of CMakePresets.json: build/release, Release, no tests.
cmake --preset release
# Only the two drivers the demo runs (`cmake --build build/release` builds them all).
cmake --build --preset release --target koma-play koma-perft
echo "== Yonin shogi: four CPU seats (strong, normal, normal, easy) play a whole game =="
# --delay paces the moves only when the output is a terminal; --nodes bounds
# each move's search, so the game takes seconds and is the same on every run.
./build/release/koma-play --variant variants/yonin.yaml --seats strong,normal,normal,easy \
  --nodes 2000 --seed 1 --delay 0.05
echo "== perft on two-player shogi from the start position (impasse off, as published counts) =="
./build/release/koma-perft --variant variants/shogi.yaml --option impasse=none --depth 5
