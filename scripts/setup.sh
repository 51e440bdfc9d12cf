#!/bin/sh
# Installs the Debian packages koma needs, if any is missing (run as root).
set -e
need=""
for p in g++ cmake make libboost-container-dev libboost-program-options-dev libyaml-cpp-dev doctest-dev; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  echo "installing:$need"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $need
fi
