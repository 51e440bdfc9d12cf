#!/bin/sh
# Installs the Python module the way docs/python.md tells users to: into a
# venv made with --system-site-packages (Debian's setuptools, pybind11 and
# numpy), `pip install --no-build-isolation .` from this checkout, no network.
# Then, from outside the checkout, imports it and plays: the installed package
# must carry its own descriptors. VENV sets the venv (default build/venv).
# KOMA_BUILD_DIR (setup.py) names a build folder configured with
# -DKOMA_PYTHON=ON whose compiled module pip packs instead of compiling koma
# again: CI passes scripts/test.sh's build/tests.
set -e
cd "$(dirname "$0")/.."
sh scripts/setup.sh python
venv=${VENV:-build/venv}
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
JOBS=${JOBS:-2} "$venv/bin/pip" install --no-build-isolation --no-index --quiet .
venv_python=$(cd "$venv" && pwd)/bin/python
cd /
"$venv_python" - <<'PY'
import os
import koma

assert os.path.isfile(os.path.join(os.path.dirname(koma.__file__), "variants", "yonin.yaml"))
shogi = koma.Variant.load("shogi")
# Shogi's start perft (the well-known counts: 30, 900, 25470).
assert [koma.perft(shogi, d) for d in (1, 2, 3)] == [30, 900, 25470]
g = koma.Game(koma.Variant.load("yonin", pawn_drop_mate="allowed"))
g.play(g.legal_moves()[0])
print("koma", koma.__file__, "installed: shogi perft 3 =", koma.perft(shogi, 3))
PY
