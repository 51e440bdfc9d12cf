"""The fixed action space (docs/python.md, "Actions"): board move
(cell(from) * cells + cell(to)) * 2 + promote, drop 2 * cells^2 + kind * cells
+ cell(to), cells the non-void squares in square order; where pieces have
double moves, then ((cell(from) * 8 + step1) * 8 + step2) * 2 + promote."""
import random

import numpy as np
import pytest

import koma
from conftest import random_positions


def cells_of(v):
    return [sq for sq in range(v.squares) if v.is_square(sq)]


# The eight king steps (dx, dy) in the order of the double moves' actions.
STEPS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def has_doubles(v):
    return any(k.double_move for k in v.kinds)


def expected_action(v, m):
    cells = cells_of(v)
    cell = {sq: i for i, sq in enumerate(cells)}
    n = len(cells)
    if m.is_drop:
        return 2 * n * n + m.kind * n + cell[m.to_square]
    if m.is_double:
        def step(a, b):
            return STEPS.index((b % v.width - a % v.width, b // v.width - a // v.width))
        first = step(m.from_square, m.middle_square)
        second = step(m.middle_square, m.to_square)
        base = 2 * n * n + len(v.kinds) * n
        return base + ((cell[m.from_square] * 8 + first) * 8 + second) * 2 + int(m.promote)
    return (cell[m.from_square] * n + cell[m.to_square]) * 2 + int(m.promote)


@pytest.mark.parametrize("name", koma.variants())
def test_action_space_size(name):
    v = koma.Variant.load(name)
    n = len(cells_of(v))
    doubles = n * 8 * 8 * 2 if has_doubles(v) else 0
    assert v.num_actions == 2 * n * n + len(v.kinds) * n + doubles


def test_double_moves_have_actions():
    # Chu shogi: 144 cells, 39 kinds, and a lion alone on 6g.
    chu = koma.Variant.load("chushogi")
    assert chu.num_actions == 2 * 144 * 144 + 39 * 144 + 144 * 128 == 65520
    g = koma.Game(chu, position="k11/12/12/12/12/12/6N5/12/12/12/12/11K b - 1")
    p = g.position
    m = p.parse_move("6g5f6e")
    assert m.is_double and m.middle_square == p.variant.parse_square("5f")
    assert m == koma.Move.double(p.variant.parse_square("6g"), p.variant.parse_square("5f"),
                                 p.variant.parse_square("6e"))
    # 6g is cell 6 * 12 + 6 = 78; 6g -> 5f is (+1, -1), step 5; 5f -> 6e is (-1, -1), step 0.
    a = chu.move_to_action(m)
    assert a == 2 * 144 * 144 + 39 * 144 + ((78 * 8 + 5) * 8 + 0) * 2
    assert chu.action_to_move(a) == m and str(g.action_to_move(a)) == "6g5f6e"
    assert a in g.legal_actions()
    # 24 single moves and 64 double ones for a lone lion.
    lion = [x for x in g.legal_moves() if x.from_square == p.variant.parse_square("6g")]
    assert len(lion) == 88 and sum(x.is_double for x in lion) == 64
    # A step off the board is an action of no move: illegal.
    corner = koma.Game(chu, position="k11/12/12/12/12/12/12/12/12/12/12/N10K b - 1")
    off = 2 * 144 * 144 + 39 * 144 + ((132 * 8 + 0) * 8 + 0) * 2
    with pytest.raises(koma.IllegalMove):
        corner.apply_action(off)
    assert repr(koma.Move.double(1, 2, 3)) == "Move.double(1, 2, 3)"


def test_hand_computed_actions():
    shogi = koma.Variant.load("shogi")
    assert len(shogi.kinds) == 14
    assert shogi.num_actions == 2 * 81 * 81 + 14 * 81 == 14256
    g = koma.Game(shogi)
    p = g.position
    # 7g = square 56, 7f = 47.
    assert shogi.move_to_action(p.parse_move("7g7f")) == (56 * 81 + 47) * 2 == 9166
    assert shogi.move_to_action(koma.Move.board(56, 47)) == 9166
    assert str(g.action_to_move(9166)) == "7g7f"
    assert shogi.action_to_move(9166) == koma.Move.board(56, 47)
    # 8h = 64, 2b = 16, promoting.
    assert shogi.move_to_action(koma.Move.board(64, 16, promote=True)) == (64 * 81 + 16) * 2 + 1
    assert shogi.action_to_move(10401) == koma.Move.board(64, 16, True)
    # P*5e: the pawn is kind 12, 5e is square 40.
    assert shogi.kind_by_letter("P") == 12
    assert shogi.move_to_action(p.parse_move("P*5e")) == 2 * 81 * 81 + 12 * 81 + 40 == 14134
    assert shogi.action_to_move(14134) == koma.Move.drop(12, 40)
    assert str(g.action_to_move(14134)) == "P*5e"
    assert 9166 in g.legal_actions()
    yonin = koma.Variant.load("yonin")
    assert yonin.num_actions == 2 * 81 * 81 + 8 * 81 == 13770
    # Shipley: 189 cells; the top rows hold 9 cells each (d..l), then 15.
    ship = koma.Variant.load("shipley-team-orthogonal")
    assert ship.num_actions == 2 * 189 * 189 + 14 * 189 == 74088
    h13, h12 = ship.parse_square("h13"), ship.parse_square("h12")
    assert (h13, h12) == (2 * 15 + 7, 3 * 15 + 7)
    # cell(h13) = 9 + 9 + 4 = 22, cell(h12) = 27 + 7 = 34.
    sg = koma.Game(ship)
    m = sg.position.parse_move("h13h12")
    assert sg.is_legal(m)
    assert ship.move_to_action(m) == (22 * 189 + 34) * 2 == 8384
    assert str(sg.action_to_move(8384)) == "h13h12"
    assert 8384 in sg.legal_actions()
    # The last action drops the last kind on the last cell, l1 (m1-o1 are void).
    assert ship.action_to_move(ship.num_actions - 1) == koma.Move.drop(13, 14 * 15 + 11)


def check_position(v, g, rng):
    acts = g.legal_actions()
    moves = g.legal_moves()
    assert acts == sorted(acts)
    assert len(set(acts)) == len(acts) == len(moves)
    assert acts == sorted(v.move_to_action(m) for m in moves)
    assert all(0 <= a < v.num_actions for a in acts)
    mask = g.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (v.num_actions,)
    assert np.flatnonzero(mask).tolist() == acts
    for m in moves:
        a = v.move_to_action(m)
        assert a == expected_action(v, m)
        assert v.action_to_move(a) == m
        assert g.action_to_move(a).text == m.text == str(m)
        assert g.action_to_move(a) == m
    for m in rng.sample(moves, min(len(moves), 4)):
        by_action, by_move = g.copy(), g.copy()
        by_action.apply_action(v.move_to_action(m))
        by_move.play(m)
        assert by_action.position == by_move.position
        assert by_action.position.text == by_move.position.text
        assert by_action.history == by_move.history
        assert by_action.result == by_move.result
    if g.over:
        assert acts == [] and not mask.any()
    # An action that is not legal here is refused, the game unchanged.
    legal = set(acts)
    illegal = next(a for a in iter(lambda: rng.randrange(v.num_actions), None) if a not in legal)
    before, history = g.position, g.history
    with pytest.raises(koma.IllegalMove):
        g.apply_action(illegal)
    assert g.position == before and g.position.text == before.text
    assert g.history == history
    for bad in (-1, v.num_actions, v.num_actions + 1000):
        with pytest.raises(ValueError):
            g.apply_action(bad)
        with pytest.raises(ValueError):
            g.action_to_move(bad)
        with pytest.raises(ValueError):
            v.action_to_move(bad)
    assert g.history == history


@pytest.mark.parametrize("name", koma.variants())
def test_actions_of_random_positions(name):
    v = koma.Variant.load(name)
    rng = random.Random(f"actions:{name}")
    positions = random_positions(v, f"playouts:{name}", count=80, plies=40)
    drops = 0
    for g in positions:
        check_position(v, g, rng)
        drops += sum(m.is_drop for m in g.legal_moves())
    if v.captures_to_hand:
        assert drops > 0


def test_a_finished_game_has_no_actions():
    shogi = koma.Variant.load("shogi")
    g = koma.Game(shogi, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    a = shogi.move_to_action(g.position.parse_move("G*5b"))
    g.apply_action(a)
    assert g.over and g.result == koma.Result([1, 2], "checkmate")
    assert g.legal_actions() == []
    assert not g.legal_actions_mask().any()
    with pytest.raises(koma.IllegalMove):
        g.apply_action(a)
    assert g.history == ["G*5b"]


def test_move_to_action_refuses_moves_of_another_board():
    shogi = koma.Variant.load("shogi")
    with pytest.raises(ValueError):
        shogi.move_to_action(koma.Move.board(81, 0))
    with pytest.raises(ValueError):
        shogi.move_to_action(koma.Move.drop(14, 0))
    ship = koma.Variant.load("shipley-individual")
    assert not ship.is_square(0)
    with pytest.raises(ValueError):
        ship.move_to_action(koma.Move.board(0, 40))
