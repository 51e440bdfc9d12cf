#!/bin/sh
# Builds the WebAssembly module (scripts/wasm.sh, without its tests), puts the
# page of examples/web/ beside it in build/web/, and serves that folder on
# 127.0.0.1 (PORT, default 8000) until interrupted. SERVE=0 only builds.
set -e
cd "$(dirname "$0")/.."
WASM_TESTS=0 sh scripts/wasm.sh
out=build/web
rm -rf "$out" && mkdir -p "$out"
cp examples/web/index.html examples/web/app.js examples/web/worker.js examples/web/style.css "$out/"
cp build/wasm/koma.js build/wasm/koma.wasm "$out/"
port=${PORT:-8000}
echo "the page is in $out"
[ "${SERVE:-1}" = 0 ] && exit 0
echo "serving it at http://127.0.0.1:$port/ (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out"
