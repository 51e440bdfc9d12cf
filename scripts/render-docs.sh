#!/bin/sh
# Regenerates docs/images/: one SVG of the start position of every descriptor
# in variants/ (docs/images/<descriptor name>.svg), drawn by koma-render.
# Builds koma-render into build/release first when it is missing or out of
# date, as scripts/demo.sh builds the drivers. JOBS=N sets the build's
# parallelism (default 2).
set -e
cd "$(dirname "$0")/.."
sh scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "${JOBS:-2}" --target koma-render
mkdir -p docs/images
for descriptor in variants/*.yaml; do
  name=$(basename "$descriptor" .yaml)
  # Letters, not kanji: an SVG is drawn with the viewer's fonts, and one
  # without kanji would show empty boxes.
  ./build/release/koma-render --variant "$descriptor" --pieces letters --out "docs/images/$name.svg"
  echo "docs/images/$name.svg"
done
