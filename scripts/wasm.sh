#!/bin/sh
# Builds koma for the browser and node (docs/js.md): WebAssembly with
# Debian's emscripten (link-time optimized and with WebAssembly SIMD: each
# makes perft about a fifth faster),
# yaml-cpp compiled from Debian's source package, and
# Boost's header-only parts from the Debian headers. Writes
#   build/wasm/koma.js, build/wasm/koma.wasm   the emscripten module (CommonJS)
#   build/wasm/package/                        the npm package (`npm pack` it)
# then runs the node tests of bindings/js/test with `node --test`
# (WASM_TESTS=0 skips them), which compare with the native koma-perft
# (KOMA_PERFT, else built: see below). JOBS sets the build's parallelism
# (default 2).
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
sh scripts/setup.sh wasm
jobs=${JOBS:-2}
out=build/wasm
deps=$out/deps
mkdir -p "$deps"
# Debian's emcc runs its JavaScript tools with the node on PATH; a node that is
# not Debian's does not see Debian's node modules (acorn) without this.
export NODE_PATH=/usr/share/nodejs
unset EM_CACHE

# yaml-cpp, from the source package of the yaml-cpp Debian ships, compiled
# with its warnings off (-w): they are about Debian's yaml-cpp, not koma, and
# were about 90 lines on the terminal.
yaml=$root/$deps/yaml-cpp
if [ ! -f "$yaml/lib/libyaml-cpp.a" ]; then
  rm -rf "$deps/src" && mkdir -p "$deps/src"
  (cd "$deps/src" && apt-get source -qq yaml-cpp >/dev/null 2>&1)
  src=$(find "$deps/src" -maxdepth 1 -type d -name 'yaml-cpp-*' | head -n 1)
  emcmake cmake -S "$src" -B "$deps/yaml-build" -DCMAKE_BUILD_TYPE=Release \
    -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=OFF \
    -DYAML_BUILD_SHARED_LIBS=OFF "-DCMAKE_CXX_FLAGS=-fwasm-exceptions -w" -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_INSTALL_PREFIX="$yaml" >/dev/null
  cmake --build "$deps/yaml-build" -j "$jobs" --target install >/dev/null
fi

# Boost: only headers (boost/container/small_vector.hpp); an include
# directory holding nothing but boost/, so that the host's C library headers
# stay out of the WebAssembly build.
mkdir -p "$deps/include"
ln -sfn /usr/include/boost "$deps/include/boost"

# The "wasm" preset of CMakePresets.json (its cache names the two folders
# above); emcmake adds emscripten's toolchain.
emcmake cmake --preset wasm >/dev/null
cmake --build --preset wasm -j "$jobs"
cp "$out/cmake/bindings/js/koma.js" "$out/cmake/bindings/js/koma.wasm" "$out/"

# The npm package: the module, an ES-module entry and the TypeScript types.
pkg=$out/package
rm -rf "$pkg" && mkdir -p "$pkg"
# The package is an ES-module package ("type": "module"): the CommonJS
# module goes in as koma.cjs, which index.mjs requires.
cp "$out/koma.js" "$pkg/koma.cjs"
cp "$out/koma.wasm" "$pkg/"
cp bindings/js/package/package.json bindings/js/package/index.mjs bindings/js/package/koma.d.ts \
  bindings/js/package/README.md "$pkg/"
echo "built $out/koma.js, $out/koma.wasm and the package $pkg"

if [ "${WASM_TESTS:-1}" != 0 ]; then
  # The tests compare the module's counts with the native koma-perft's and
  # read its records with koma-replay beside it: KOMA_PERFT names it; else
  # that of build/tests, brought up to date, where scripts/test.sh built one;
  # else it is built in build/release (the "release" preset, as
  # scripts/demo.sh does).
  if [ -z "$KOMA_PERFT" ]; then
    native=release
    [ ! -f build/tests/CMakeCache.txt ] || native=tests
    [ $native = tests ] || cmake --preset release >/dev/null
    cmake --build --preset $native -j "$jobs" --target koma-perft koma-replay >/dev/null
    KOMA_PERFT=$root/build/$native/koma-perft
  fi
  # Node 18+ has fetch, which the module's loader would use for koma.wasm.
  KOMA_PERFT=$KOMA_PERFT KOMA_PACKAGE=$root/$pkg node --no-experimental-fetch --test bindings/js/test/
fi
