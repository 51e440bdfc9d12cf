#!/bin/sh
# Browser tests of the web page: builds it (scripts/web.sh), serves it on
# 127.0.0.1, and drives Debian's chromium headless with puppeteer-core from
# npm (installed into build/browser-test) through examples/web/test.
set -e
cd "$(dirname "$0")/.."
root=$(pwd)
sh scripts/setup.sh browser
SERVE=0 sh scripts/web.sh
dir=build/browser-test
mkdir -p "$dir"
cp examples/web/test/package.json examples/web/test/page.test.mjs "$dir/"
(cd "$dir" && npm install --silent --no-audit --no-fund)
port=${PORT:-8765}
python3 -m http.server "$port" --bind 127.0.0.1 --directory build/web >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null' EXIT
# Wait for the server to answer.
for i in 1 2 3 4 5 6 7 8 9 10; do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.5
done
PAGE_URL=http://127.0.0.1:$port/ CHROMIUM=/usr/bin/chromium node --test "$root/$dir/page.test.mjs"
