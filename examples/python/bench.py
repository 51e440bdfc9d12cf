#!/usr/bin/python3
"""Random self-play through the Python module, timed: the loop koma-bench
--random-games runs in C++, so that the two sets of figures side by side give
the cost of the Python layer per move.

    PYTHONPATH=build/tests/python /usr/bin/python3 examples/python/bench.py shogi --games 300
    build/tests/koma-bench --variant shogi --random-games 300

Each game starts from the start position and plays random legal moves to its
end. Three loops are timed: `actions` (legal_actions + apply_action, the
learning interface), `moves` (legal_moves + play(Move)) and `actions,
no choice` (the same as `actions` without the random draw, to separate
Python's random.choice from the module's cost).
"""
import argparse
import random
import time

import koma


def actions(v, games, rng):
    plies = 0
    for _ in range(games):
        g = koma.Game(v)
        while not g.over:
            g.apply_action(rng.choice(g.legal_actions()))
            plies += 1
    return plies


def moves(v, games, rng):
    plies = 0
    for _ in range(games):
        g = koma.Game(v)
        while not g.over:
            g.play(rng.choice(g.legal_moves()))
            plies += 1
    return plies


def actions_no_choice(v, games, rng):
    """The moves of each game are drawn first (untimed), then replayed with
    legal_actions + apply_action: the timed part is the module's alone."""
    lines = []
    for _ in range(games):
        g = koma.Game(v)
        line = []
        while not g.over:
            a = rng.choice(g.legal_actions())
            line.append(a)
            g.apply_action(a)
        lines.append(line)
    plies = 0
    t0 = time.perf_counter()
    for line in lines:
        g = koma.Game(v)
        for a in line:
            g.legal_actions()
            g.apply_action(a)
        plies += len(line)
    return plies, time.perf_counter() - t0


def report(name, games, plies, seconds):
    print(
        f"{name:18} games {games}  plies {plies}  seconds {seconds:.3f}  "
        f"games/s {games / seconds:.1f}  plies/s {plies / seconds:.0f}  "
        f"us/ply {seconds * 1e6 / plies:.3f}"
    )


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", help="a shipped name or a descriptor path")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    v = koma.Variant.load(args.variant)
    for name, loop in (("actions", actions), ("moves", moves)):
        t0 = time.perf_counter()
        plies = loop(v, args.games, random.Random(args.seed))
        report(name, args.games, plies, time.perf_counter() - t0)
    plies, seconds = actions_no_choice(v, args.games, random.Random(args.seed))
    report("actions, no choice", args.games, plies, seconds)


if __name__ == "__main__":
    main()
