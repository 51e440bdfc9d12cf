"""Shared helpers of the koma pytest suite.

Paths come from the environment that ctest sets (bindings/python/CMakeLists.txt):
KOMA_SOURCE (the source tree; default: the repository holding this file),
KOMA_PERFT, KOMA_REPLAY and KOMA_MATCH (the drivers; a test that needs a
driver whose variable is unset or names no file is skipped, saying why).
"""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import koma

SOURCE = Path(os.environ.get("KOMA_SOURCE") or Path(__file__).resolve().parents[3])
DATA = SOURCE / "tests" / "data"
VARIANTS_DIR = SOURCE / "variants"

SHOGI_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def jsonl(name):
    """The rows of tests/data/<name>, one dict a line."""
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def shipped():
    """The shipped-variant table, tests/data/variants.jsonl: one row a
    descriptor of variants/ (tests/data/README.md)."""
    return jsonl("variants.jsonl")


def shipped_row(name):
    """The table's row of the shipped variant `name`."""
    return next(row for row in shipped() if row["variant"] == name)


# The data files' modes: mode -> (variant, options), from the `modes` of the
# table's rows.
MODES = {mode: (row["variant"], options) for row in shipped()
         for mode, options in row.get("modes", {}).items()}


def mode_variant(mode, **more):
    """The variant a data file's mode names, with `more` options added."""
    name, options = MODES[mode]
    return koma.Variant.load(name, **options, **more)


def driver(variable):
    """The path of a driver named by an environment variable, or a skip."""
    path = os.environ.get(variable)
    if not path:
        pytest.skip(f"{variable} is not set (ctest sets it to the driver's path)")
    if not os.path.isfile(path):
        pytest.skip(f"{variable}={path} is not a file")
    return path


def koma_path():
    """PYTHONPATH with the directory koma was imported from first."""
    root = str(Path(koma.__file__).resolve().parents[1])
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]
    return os.pathsep.join([root] + rest)


def fresh_python(code, *args, timeout=60):
    """Runs `code` in a new interpreter that imports this koma (for what only
    shows on a first use, or may crash or hang); returns the CompletedProcess.
    A hang fails the calling test with subprocess.TimeoutExpired."""
    env = dict(os.environ, PYTHONPATH=koma_path())
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def koma_perft():
    return driver("KOMA_PERFT")


@pytest.fixture
def koma_replay():
    return driver("KOMA_REPLAY")


@pytest.fixture(scope="session")
def shogi():
    """Two-player shogi as the published counts know it (no impasse rule)."""
    return koma.Variant.load("shogi", impasse="none")


def texts(moves):
    return sorted(str(m) for m in moves)


def is_capture(position, move):
    if move.is_drop:
        return False
    piece = position.at(move.to_square)
    return piece is not None


def random_playout(game, rng, plies, capture_bias=0.6, drop_bias=0.3):
    """Plays up to `plies` random legal moves (fewer if the game ends) and
    returns the moves played. Captures and drops are preferred, so that hands
    fill and empty: with probability capture_bias a capture is chosen when
    there is one, else with probability drop_bias a drop."""
    played = []
    for _ in range(plies):
        if game.over:
            break
        moves = game.legal_moves()
        if not moves:
            break
        position = game.position
        captures = [m for m in moves if is_capture(position, m)]
        drops = [m for m in moves if m.is_drop]
        if captures and rng.random() < capture_bias:
            move = rng.choice(captures)
        elif drops and rng.random() < drop_bias:
            move = rng.choice(drops)
        else:
            move = rng.choice(moves)
        game.play(move)
        played.append(move)
    return played


def random_positions(variant, seed, count=60, plies=40):
    """`count` games of `variant`: every ply of seeded random playouts of at
    most `plies` plies, as many playouts as it takes."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = koma.Game(variant)
        out.append(g.copy())
        for _ in range(plies):
            if g.over or len(out) >= count:
                break
            random_playout(g, rng, 1)
            out.append(g.copy())
    return out


FACINGS = ["up", "right", "down", "left"]
MARKS = {"up": "^", "right": ">", "down": "v", "left": "<"}


def quarter_turns(variant):
    """The turns of a square board, clockwise as drawn on screen, as
    {quarter turns: square -> square}."""
    w, h = variant.width, variant.height
    assert w == h
    turns = {
        1: lambda x, y: (w - 1 - y, x),
        2: lambda x, y: (w - 1 - x, h - 1 - y),
        3: lambda x, y: (y, h - 1 - x),
    }
    return {n: (lambda sq, f=f: (lambda x, y: y * w + x)(*f(sq % w, sq // w)))
            for n, f in turns.items()}


def generic_text(position, square=None, seat=None, turns=0):
    """The generic position text of docs/notation.md, written from the
    position's public accessors (not from Position.generic_text); with
    `square` (square -> square), `seat` (seat -> seat) and `turns` (quarter
    turns clockwise of every piece's facing), the text of its image."""
    v = position.variant
    square = square or (lambda sq: sq)
    seat = seat or (lambda s: s)
    kinds = v.kinds
    tokens = {}
    for sq in range(v.squares):
        piece = position.at(sq) if v.is_square(sq) else None
        if piece is None:
            continue
        owner = seat(piece.owner)
        if piece.overturned:
            token = f"X{owner}"
        else:
            token = f"{kinds[piece.kind].letter}{owner}"
            facing = FACINGS[(FACINGS.index(piece.facing) + turns) % 4]
            if facing != v.seat_facing(owner):
                token += MARKS[facing]
        tokens[square(sq)] = token
    rows = []
    for y in range(v.height):
        row, empty = "", 0
        for x in range(v.width):
            sq = y * v.width + x
            token = "*" if not v.is_square(sq) else tokens.get(sq)
            if token is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += token
        if empty:
            row += str(empty)
        rows.append(row)
    hands = []
    for owner, hand in sorted((seat(s), hand) for s, hand in position.hands.items()):
        if hand:
            hands.append(f"{owner}:" + "".join((str(n) if n > 1 else "") + letter
                                               for letter, n in hand.items()))
    eliminated = ",".join(str(seat(s)) for s in position.eliminated) or "-"
    return " ".join(["/".join(rows), str(seat(position.to_move)), ",".join(hands) or "-",
                     str(position.ply), eliminated])
