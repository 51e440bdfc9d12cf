#!/bin/sh
# Installs the Debian packages koma needs, if any is missing (run as root).
#   sh scripts/setup.sh        what building and testing need
#   sh scripts/setup.sh tidy   that and clang-tidy, for scripts/tidy.sh (CI)
#   sh scripts/setup.sh fuzz   that and clang-$CLANG_VERSION with libFuzzer's runtime
#                              (libclang-rt-N-dev), for scripts/fuzz.sh
#   sh scripts/setup.sh wasm   that and emscripten, node and what `apt-get source`
#                              needs (dpkg-dev, a deb-src entry), for scripts/wasm.sh
#   sh scripts/setup.sh browser  that, chromium and npm, for scripts/browser-test.sh
#   sh scripts/setup.sh python   that and what the Python module needs to build,
#                              install and test (pybind11, numpy, pip, venv,
#                              pytest, distributed), for /usr/bin/python3
set -e
packages="g++ cmake make libboost-container-dev libboost-program-options-dev libyaml-cpp-dev doctest-dev"
for extra in "$@"; do
  case "$extra" in
    tidy) packages="$packages clang-tidy" ;;
    fuzz) packages="$packages clang-${CLANG_VERSION:?} libclang-rt-$CLANG_VERSION-dev" ;;
    wasm) packages="$packages emscripten nodejs dpkg-dev" ;;
    # npm comes with some nodejs builds (not Debian's): only missing, it is installed.
    browser) packages="$packages chromium"; command -v npm >/dev/null 2>&1 || packages="$packages npm" ;;
    python) packages="$packages python3-dev python3-pybind11 python3-numpy python3-pip python3-venv python3-pytest python3-distributed" ;;
    *) echo "setup.sh: unknown extra '$extra'; extras: tidy, fuzz, wasm, browser, python" >&2; exit 2 ;;
  esac
done
need=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# scripts/wasm.sh builds yaml-cpp from Debian's source package: apt-get
# source needs a deb-src entry.
src_list=/etc/apt/sources.list.d/koma-deb-src.sources
case " $* " in
  *" wasm "*)
    if ! grep -rqs '^deb-src\|^Types:.*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
      codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
      printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$codename" >"$src_list"
      need="$need (deb-src)"
    fi ;;
esac
if [ -n "$need" ]; then
  echo "installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  pkgs=$(echo "$need" | sed 's/(deb-src)//')
  [ -z "$(echo "$pkgs" | tr -d ' ')" ] || apt-get install -y -qq $pkgs
fi
