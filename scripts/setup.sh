#!/bin/sh
# Installs the Debian packages koma needs, if any is missing (run as root).
#   sh scripts/setup.sh        what building and testing need
#   sh scripts/setup.sh tidy   that and clang-tidy, for scripts/tidy.sh (CI)
#   sh scripts/setup.sh fuzz   that and clang-$CLANG_VERSION with libFuzzer's runtime
#                              (libclang-rt-N-dev), for scripts/fuzz.sh
set -e
packages="g++ cmake make libboost-container-dev libboost-program-options-dev libyaml-cpp-dev doctest-dev"
for extra in "$@"; do
  case "$extra" in
    tidy) packages="$packages clang-tidy" ;;
    fuzz) packages="$packages clang-${CLANG_VERSION:?} libclang-rt-$CLANG_VERSION-dev" ;;
    *) echo "setup.sh: unknown extra '$extra'; extras: tidy, fuzz" >&2; exit 2 ;;
  esac
done
need=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  echo "installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $need
fi
