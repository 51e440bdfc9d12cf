#!/bin/sh
# Quick start, command 1: set up, build in Release, run the main demo.
set -e
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DKOMA_BUILD_TESTS=OFF
cmake --build build/release -j 2
echo "== perft on two-player shogi from the start position (impasse off, as published counts) =="
./build/release/koma-perft --variant variants/shogi.yaml --option impasse=none --depth 5
