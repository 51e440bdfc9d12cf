"""Observation tensors (docs/python.md, "Observations"): their layout derived
by hand, and their symmetry under a quarter turn of board and seats."""
import random
import re

import numpy as np
import pytest

import koma
from conftest import (generic_text, is_capture, jsonl, mode_variant, quarter_turns,
                      random_positions)

FACINGS = ["up", "right", "down", "left"]


def relative_facings(v):
    """The relative facings the variant's seats make, in the order forward,
    right, backward, left."""
    seen = set()
    for a in range(1, v.seats + 1):
        for b in range(1, v.seats + 1):
            seen.add((FACINGS.index(v.seat_facing(b)) - FACINGS.index(v.seat_facing(a))) % 4)
    return sorted(seen)


def piece_plane(v, kind, steps, facing):
    """The plane of kind `kind`, owner `steps` seats after the observer in
    the turn order, relative facing `facing` (0 forward, 1 right, 2 backward,
    3 left)."""
    facings = relative_facings(v)
    return (kind * v.seats + steps) * len(facings) + facings.index(facing)


def view(v, seat, sq):
    """Where the square is in `seat`'s view: its forward is up."""
    x, y, w, h = sq % v.width, sq // v.width, v.width, v.height
    return {
        "up": (y, x),
        "down": (h - 1 - y, w - 1 - x),
        "right": (w - 1 - x, y),
        "left": (x, h - 1 - y),
    }[v.seat_facing(seat)]


def ones(plane):
    return sorted(zip(*map(list, np.nonzero(plane))))


def steps_after(v, observer, other):
    order = v.turn_order
    return (order.index(other) - order.index(observer)) % v.seats


# --- layout -------------------------------------------------------------------

@pytest.mark.parametrize("name", koma.variants())
def test_shape_dtype_and_plane_groups(name):
    v = koma.Variant.load(name)
    planes = v.observation_planes
    kinds, n = len(v.kinds), v.seats
    facings = relative_facings(v)
    hand_kinds = [k for k, info in enumerate(v.kinds) if not info.promoted]
    assert planes["facings"] == len(facings)
    assert planes["hand_kinds"] == hand_kinds
    pieces_end = kinds * n * len(facings)
    assert planes["pieces"] == (0, pieces_end)
    assert planes["overturned"] == pieces_end
    hands_end = pieces_end + 1 + n * len(hand_kinds)
    assert planes["hands"] == (pieces_end + 1, hands_end)
    assert planes["to_move"] == (hands_end, hands_end + n)
    assert planes["in_check"] == (hands_end + n, hands_end + 2 * n)
    assert planes["eliminated"] == (hands_end + 2 * n, hands_end + 3 * n)
    assert planes["cells"] == hands_end + 3 * n
    quarter = any(v.seat_facing(s) in ("left", "right") for s in range(1, n + 1))
    side = max(v.width, v.height)
    rows, cols = (side, side) if quarter else (v.height, v.width)
    assert v.observation_shape == (planes["cells"] + 1, rows, cols)
    g = koma.Game(v)
    for seat in range(1, n + 1):
        for obs in (g.observation(seat), g.position.observation(seat)):
            assert obs.dtype == np.float32
            assert obs.shape == v.observation_shape
        # The board's cells: every non-void square, where the seat sees it.
        expected = np.zeros((rows, cols), np.float32)
        for sq in range(v.squares):
            if v.is_square(sq):
                expected[view(v, seat, sq)] = 1
        assert np.array_equal(g.observation(seat)[planes["cells"]], expected)
        # Every piece on its plane, once.
        pieces = g.observation(seat)[:pieces_end]
        assert pieces.sum() == sum(g.position.at(sq) is not None for sq in range(v.squares))
    assert np.array_equal(g.observation(), g.observation(g.to_move))


def test_shogi_counts_80_planes():
    v = koma.Variant.load("shogi")
    assert v.observation_shape == (14 * 2 * 2 + 1 + 2 * 8 + 3 * 2 + 1, 9, 9) == (80, 9, 9)


def test_cells_of_the_square_boards_and_the_cross():
    shogi = koma.Game(koma.Variant.load("shogi"))
    cells = shogi.variant.observation_planes["cells"]
    for seat in (1, 2):
        assert np.array_equal(shogi.observation(seat)[cells], np.ones((9, 9), np.float32))
    ship = koma.Variant.load("shipley-individual")
    cells = ship.observation_planes["cells"]
    g = koma.Game(ship)
    for seat in range(1, 5):
        plane = g.observation(seat)[cells]
        assert plane.sum() == 189
        for r in (slice(0, 3), slice(12, 15)):
            for c in (slice(0, 3), slice(12, 15)):
                assert not plane[r, c].any()
        assert plane[3:12, :].all() and plane[:, 3:12].all()
    yari = koma.Variant.load("yarishogi")
    assert (yari.width, yari.height) == (7, 9)
    assert yari.observation_shape[1:] == (9, 7)
    for seat in (1, 2):
        plane = koma.Game(yari).observation(seat)[yari.observation_planes["cells"]]
        assert np.array_equal(plane, np.ones((9, 7), np.float32))


def test_shogi_start_as_each_seat_sees_it():
    v = koma.Variant.load("shogi")
    planes = v.observation_planes
    pawn, king = v.kind_by_letter("P"), v.kind_by_letter("K")
    g = koma.Game(v)
    row = lambda r: [(r, c) for c in range(9)]  # noqa: E731
    for seat in (1, 2):
        obs = g.observation(seat)
        # Own pawns on the third row from the bottom, facing forward.
        assert ones(obs[piece_plane(v, pawn, 0, 0)]) == row(6)
        # The opponent's on the third row from the top, facing backward.
        assert ones(obs[piece_plane(v, pawn, 1, 2)]) == row(2)
        assert not obs[piece_plane(v, pawn, 0, 2)].any()
        assert not obs[piece_plane(v, pawn, 1, 0)].any()
        assert ones(obs[piece_plane(v, king, 0, 0)]) == [(8, 4)]
        assert ones(obs[piece_plane(v, king, 1, 2)]) == [(0, 4)]
        # Own rook on the right, bishop on the left, as each sees it.
        assert ones(obs[piece_plane(v, v.kind_by_letter("R"), 0, 0)]) == [(7, 7)]
        assert ones(obs[piece_plane(v, v.kind_by_letter("B"), 0, 0)]) == [(7, 1)]
        assert obs[:planes["pieces"][1]].sum() == 40
        # Seat 1 is to move: zero steps after seat 1, one after seat 2.
        first, end = planes["to_move"]
        to_move = [obs[i].all() for i in range(first, end)]
        assert to_move == ([True, False] if seat == 1 else [False, True])
        assert all(not obs[i].any() for i in range(first, end) if not to_move[i - first])
        assert not obs[planes["hands"][0]:planes["hands"][1]].any()
        assert not obs[planes["in_check"][0]:planes["eliminated"][1]].any()
        assert not obs[planes["overturned"]].any()
    # The start looks the same to both seats but for the seat to move.
    a, b = g.observation(1), g.observation(2)
    first, end = planes["to_move"]
    assert np.array_equal(a[:first], b[:first]) and np.array_equal(a[end:], b[end:])
    assert not np.array_equal(a, b)
    # 7g7f: seat 1 sees its pawn step up; seat 2 sees it from the far side.
    g.play("7g7f")
    assert (5, 2) in ones(g.observation(1)[piece_plane(v, pawn, 0, 0)])
    assert (6, 2) not in ones(g.observation(1)[piece_plane(v, pawn, 0, 0)])
    assert (3, 6) in ones(g.observation(2)[piece_plane(v, pawn, 1, 2)])
    assert g.observation(2)[first].all() and not g.observation(2)[first + 1].any()


def test_hands_after_captures():
    v = koma.Variant.load("shogi")
    planes = v.observation_planes
    hand_kinds = planes["hand_kinds"]
    h0, h1 = planes["hands"]
    per_seat = len(hand_kinds)
    bishop = hand_kinds.index(v.kind_by_letter("B"))
    g = koma.Game(v)
    for text in ["7g7f", "3c3d", "8h2b+"]:
        g.play(text)
    assert g.hands == {1: {"B": 1}, 2: {}}
    mine = g.observation(1)[h0:h1]
    theirs = g.observation(2)[h0:h1]
    assert np.array_equal(mine[bishop], np.ones((9, 9)))
    assert np.array_equal(theirs[per_seat + bishop], np.ones((9, 9)))
    assert mine.sum() == 81 and theirs.sum() == 81
    g.play("3a2b")  # gote's silver takes the horse
    assert g.hands == {1: {"B": 1}, 2: {"B": 1}}
    for seat in (1, 2):
        hands = g.observation(seat)[h0:h1]
        assert hands[bishop].all() and hands[per_seat + bishop].all()
        assert hands.sum() == 2 * 81
    # Counts, not flags.
    p = koma.Position.from_text(v, "lnsgkgsnl/1r5b1/pppppp3/9/9/9/PPPPPPP2/1B5R1/LNSGKGSNL "
                                   "b 2P3p 1")
    pawn = hand_kinds.index(v.kind_by_letter("P"))
    assert (p.in_hand(1, v.kind_by_letter("P")), p.in_hand(2, v.kind_by_letter("P"))) == (2, 3)
    one, two = p.observation(1)[h0:h1], p.observation(2)[h0:h1]
    assert np.array_equal(one[pawn], np.full((9, 9), 2.0))
    assert np.array_equal(one[per_seat + pawn], np.full((9, 9), 3.0))
    assert np.array_equal(two[pawn], np.full((9, 9), 3.0))
    assert np.array_equal(two[per_seat + pawn], np.full((9, 9), 2.0))
    assert one.sum() == 5 * 81


def test_check_and_the_end():
    v = koma.Variant.load("shogi")
    planes = v.observation_planes
    c0 = planes["in_check"][0]
    g = koma.Game(v, position="4k4/9/9/9/9/9/9/9/4K3r b - 1")
    assert g.in_check
    assert g.observation(1)[c0].all() and not g.observation(1)[c0 + 1].any()
    assert g.observation(2)[c0 + 1].all() and not g.observation(2)[c0].any()
    mate = koma.Game(v, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    mate.play("G*5b")
    assert mate.over
    t0, t1 = planes["to_move"]
    for seat in (1, 2):
        assert not mate.observation(seat)[t0:t1].any()


def test_yonin_seats_and_eliminations():
    v = koma.Variant.load("yonin")
    planes = v.observation_planes
    king = v.kind_by_letter("K")
    g = koma.Game(v)
    # Every seat sees its king at the bottom middle; the next seat in the turn
    # order on its left, facing right; the one after, opposite, facing it; the
    # last on its right, facing left.
    for seat in range(1, 5):
        obs = g.observation(seat)
        assert ones(obs[piece_plane(v, king, 0, 0)]) == [(8, 4)]
        assert ones(obs[piece_plane(v, king, 1, 1)]) == [(4, 0)]
        assert ones(obs[piece_plane(v, king, 2, 2)]) == [(0, 4)]
        assert ones(obs[piece_plane(v, king, 3, 3)]) == [(4, 8)]
        assert obs[:planes["pieces"][1]].sum() == 4 * 9  # S G K G S, three pawns, rook
    # A finished game of the data: East placed first, the others eliminated
    # in the order 2, 1, 3, their kings overturned.
    row = jsonl("yonin-games.jsonl")[0]
    assert row["final_position"].endswith(" 2,1,3")
    g = koma.Game(mode_variant(row["mode"], first_seat=row["first_seat"]))
    for m in row["moves"]:
        g.play(m)
    assert g.over and g.eliminated == [2, 1, 3]
    overturned = [sq for sq in range(81) if g.position.at(sq) and g.position.at(sq).overturned]
    assert len(overturned) == 3
    e0 = planes["eliminated"][0]
    for seat in range(1, 5):
        obs = g.observation(seat)
        out = [obs[e0 + steps_after(v, seat, s)].all() for s in range(1, 5)]
        assert out == [True, True, True, False]
        assert sum(obs[e0 + i].any() for i in range(4)) == 3
        assert ones(obs[planes["overturned"]]) == sorted(view(v, seat, sq) for sq in overturned)
        assert not obs[planes["to_move"][0]:planes["to_move"][1]].any()


# --- symmetry -----------------------------------------------------------------

SYMMETRIC = ["yonin", "yonin-king-capture", "yonin-inherit", "yonin-doubles",
             "shipley-individual", "shipley-kings", "shipley-team-orthogonal"]


def next_seat(v):
    order = v.turn_order
    return {s: order[(i + 1) % len(order)] for i, s in enumerate(order)}


def turn_to_next_seat(v):
    """The quarter turn (number of clockwise quarters and the square map)
    that takes every seat's pieces at the start onto the next seat's squares."""
    start = v.start_position()
    nxt = next_seat(v)
    found = []
    for n, turn in quarter_turns(v).items():
        if all(start.at(turn(sq)) is not None and start.at(turn(sq)).owner == nxt[p.owner]
               for sq in range(v.squares) if v.is_square(sq)
               for p in [start.at(sq)] if p is not None):
            found.append((n, turn))
    assert len(found) == 1
    return found[0]


def image(move, turn):
    if move.is_drop:
        return koma.Move.drop(move.kind, turn(move.to_square))
    return koma.Move.board(turn(move.from_square), turn(move.to_square), move.promote)


def test_yonin_doubles_teams_are_opposite_seats():
    # Teams South+North and West+East (variants/yonin-doubles.yaml): a quarter
    # turn maps each team onto the other.
    v = koma.Variant.load("yonin-doubles")
    with open(v.path, encoding="utf-8") as f:
        line = next(s for s in f if s.startswith("teams:"))
    teams = [[n.strip() for n in team.split(",")] for team in re.findall(r"\[([^][]*)\]", line)]
    names = {v.seat_name(s): s for s in range(1, 5)}
    teams = [sorted(names[n] for n in team) for team in teams]
    nxt = next_seat(v)
    assert sorted(teams) == [[1, 3], [2, 4]]
    for team in teams:
        assert sorted(nxt[s] for s in team) in teams
        assert sorted(nxt[s] for s in team) != team


@pytest.mark.parametrize("name", SYMMETRIC)
def test_observations_are_symmetric_under_a_quarter_turn(name):
    v = koma.Variant.load(name)
    nxt = next_seat(v)
    turns, turn = turn_to_next_seat(v)
    assert turns == 1
    rng = random.Random(f"symmetry:{name}")
    captures = drops = plies = 0
    for first in (1, 3):
        va = koma.Variant.load(name, first_seat=first)
        vb = koma.Variant.load(name, first_seat=nxt[first])
        a = koma.Game(va)
        text = generic_text(a.position, turn, nxt.get, turns)
        if name.startswith("yonin"):
            # Yonin's setup turns with the seats: B is the start itself.
            assert koma.Position.from_text(vb, text) == vb.start_position()
            b = koma.Game(vb)
        else:
            # Shipley's North and South have the rook on their right, East
            # and West on their left: the turned start is another position.
            assert koma.Position.from_text(vb, text) != vb.start_position()
            b = koma.Game(vb, position=text)
        for _ in range(40):
            if a.over:
                break
            for t in range(1, v.seats + 1):
                oa = a.observation(t)
                assert np.array_equal(oa, b.observation(nxt[t])), (a.history, t)
                for u in range(t + 1, v.seats + 1):
                    assert not np.array_equal(oa, a.observation(u))
            assert koma.Position.from_text(vb, generic_text(a.position, turn, nxt.get, turns)) \
                == b.position
            assert len(a.legal_moves()) == len(b.legal_moves())
            moves = a.legal_moves()
            caps = [m for m in moves if is_capture(a.position, m)]
            drop = [m for m in moves if m.is_drop]
            if caps and rng.random() < 0.5:
                m = rng.choice(caps)
            elif drop and rng.random() < 0.5:
                m = rng.choice(drop)
            else:
                m = rng.choice(moves)
            captures += is_capture(a.position, m)
            drops += m.is_drop
            a.play(m)
            b.play(image(m, turn))
            plies += 1
            assert a.over == b.over
            assert a.returns() == [b.returns()[nxt[t] - 1] for t in range(1, v.seats + 1)]
        for t in range(1, v.seats + 1):
            assert np.array_equal(a.observation(t), b.observation(nxt[t]))
    assert plies >= 60
    assert captures >= 3 and drops >= 3


# --- the documented layout, plane by plane ----------------------------------------

def documented_observation(p, seat):
    """The observation docs/python.md describes, built from the position's
    accessors."""
    v = p.variant
    planes = v.observation_planes
    n, facings = v.seats, relative_facings(v)
    hand_kinds = planes["hand_kinds"]
    obs = np.zeros(v.observation_shape, np.float32)
    mine = FACINGS.index(v.seat_facing(seat))
    for sq in range(v.squares):
        if not v.is_square(sq):
            continue
        at = view(v, seat, sq)
        obs[(planes["cells"],) + at] = 1
        piece = p.at(sq)
        if piece is None:
            continue
        steps = steps_after(v, seat, piece.owner)
        facing = (FACINGS.index(piece.facing) - mine) % 4
        obs[((piece.kind * n + steps) * len(facings) + facings.index(facing),) + at] = 1
        if piece.overturned:
            obs[(planes["overturned"],) + at] = 1
    for other in range(1, n + 1):
        steps = steps_after(v, seat, other)
        for h, kind in enumerate(hand_kinds):
            obs[planes["hands"][0] + steps * len(hand_kinds) + h] = p.in_hand(other, kind)
        if p.in_check(other):
            obs[planes["in_check"][0] + steps] = 1
        if not p.active(other):
            obs[planes["eliminated"][0] + steps] = 1
    if p.result is None:
        obs[planes["to_move"][0] + steps_after(v, seat, p.to_move)] = 1
    return obs


def check_documented(p):
    for seat in range(1, p.variant.seats + 1):
        assert np.array_equal(p.observation(seat), documented_observation(p, seat)), seat


@pytest.mark.parametrize("name", koma.variants())
def test_observations_of_random_positions_follow_the_documented_layout(name):
    v = koma.Variant.load(name)
    for g in random_positions(v, f"layout:{name}", count=40, plies=60):
        check_documented(g.position)
        assert np.array_equal(g.observation(), g.position.observation(g.position.to_move))


def test_observations_of_the_data_follow_the_documented_layout():
    for name in ["yonin-games.jsonl", "shipley-games.jsonl"]:
        for row in jsonl(name):
            g = koma.Game(mode_variant(row["mode"], first_seat=row["first_seat"]))
            for i, m in enumerate(row["moves"]):
                g.play(m)
                if i % 25 == 0:
                    check_documented(g.position)
            check_documented(g.position)
    facing_marks = 0
    for name in ["yonin-positions.jsonl", "shipley-positions.jsonl"]:
        for row in jsonl(name):
            p = koma.Position.from_text(mode_variant(row["mode"]), row["position"])
            check_documented(p)
            facing_marks += any(c in row["position"].split()[0] for c in "^<>v")
    assert facing_marks > 0


SIDEWAYS = """koma: 1
name: sideways
title: Dobutsu shogi turned a quarter, its seats facing right and left
board: {width: 4, height: 3}
seats:
  - {name: Sente, facing: right}
  - {name: Gote, facing: left}
pieces:
  L:  {name: Lion, kanji: 獅, moves: K, royal: true}
  G:  {name: Giraffe, kanji: 麒, moves: W, value: 5}
  E:  {name: Elephant, kanji: 象, moves: F, value: 3}
  C:  {name: Chick, kanji: 雛, moves: fW, promotes_to: +C, value: 1}
  +C: {name: Hen, kanji: 鶏, moves: WfF, value: 6}
setup: "E12G2/L1C1C2L2/G12E2 1 - 1 -"
promotion: {zone: far_rows, depth: 1, by: owner, compulsory: true}
dead_squares: allowed
check: {enabled: false, priority: false}
kings: {capture: eliminates}
mate: none
no_legal_move: eliminate
elimination: {king: keep, pieces: inactive, hand: frozen}
resignation: allowed
places: elimination_order
end:
  last_seat_standing: cause
  to_move: next_seat
  goal: {depth: 1, safe: true}
  repetition: {count: 4, perpetual_check: draw}
"""


def test_a_board_that_is_not_square_turned_a_quarter_is_padded():
    # Dobutsu (3 wide, 4 high) turned a quarter: 4 wide, 3 high, the seats
    # facing right and left. Both see what dobutsu's seats see, in a 4 x 4
    # view whose last column is padding: no piece and no cell there (the
    # planes that fill every cell, hands and seats, fill it too).
    dobutsu = koma.Variant.load("dobutsu")
    sideways = koma.Variant.parse(SIDEWAYS, origin="sideways.yaml")
    assert dobutsu.observation_shape == (36, 4, 3)
    assert sideways.observation_shape == (36, 4, 4)
    assert [koma.perft(sideways, d) for d in range(1, 5)] == [4, 17, 123, 976]

    def turn(sq):  # dobutsu (x, y) -> sideways (3 - y, x)
        x, y = sq % 3, sq // 3
        return x * 4 + (3 - y)

    rng = random.Random("sideways")
    plies = 0
    for _ in range(6):
        a, b = koma.Game(dobutsu), koma.Game(sideways)
        while True:
            for seat in (1, 2):
                oa, ob = a.observation(seat), b.observation(seat)
                assert np.array_equal(ob[:, :, :3], oa), (a.history, seat)
                assert not ob[:sideways.observation_planes["hands"][0], :, 3].any()
                assert not ob[sideways.observation_planes["cells"], :, 3].any()
            check_documented(b.position)
            assert a.over == b.over and a.result == b.result
            if a.over or plies > 200:
                break
            m = rng.choice(a.legal_moves())
            assert len(a.legal_moves()) == len(b.legal_moves())
            a.play(m)
            b.play(image(m, turn))
            plies += 1
    assert plies > 30
