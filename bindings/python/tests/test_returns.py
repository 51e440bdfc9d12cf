"""Game.returns(): a seat at place p of n scores (n + 1 - 2p) / (n - 1),
averaged over the places a tie spans; all zero until the game is over."""
import pytest

import koma


def test_two_players_checkmate_by_either_side():
    shogi = koma.Variant.load("shogi")
    g = koma.Game(shogi, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert g.returns() == [0.0, 0.0]
    g.play("G*5b")
    assert g.result == koma.Result([1, 2], "checkmate")
    assert g.returns() == [1.0, -1.0]
    # Gote mates sente: the other order.
    g = koma.Game(shogi, position="4k4/9/9/9/9/9/4p4/9/4K4 w g 1")
    g.play("G*5h")
    assert g.result == koma.Result([2, 1], "checkmate")
    assert g.returns() == [-1.0, 1.0]
    assert g.to_move == 0


def test_resignation_and_draw():
    g = koma.Game(koma.Variant.load("shogi"))
    g.play("7g7f")
    g.resign()  # gote resigns
    assert g.result == koma.Result([1, 2], "resignation")
    assert g.returns() == [1.0, -1.0]
    g = koma.Game(koma.Variant.load("shogi"))
    g.adjudicate([1, 1], "adjudicated")
    assert g.over
    assert g.returns() == [0.0, 0.0]


@pytest.mark.parametrize("places,expected", [
    ([1, 1, 3, 4], [2 / 3, 2 / 3, -1 / 3, -1.0]),
    ([1, 2, 3, 4], [1.0, 1 / 3, -1 / 3, -1.0]),
    ([4, 3, 2, 1], [-1.0, -1 / 3, 1 / 3, 1.0]),
    ([1, 2, 2, 4], [1.0, 0.0, 0.0, -1.0]),
    ([1, 2, 2, 2], [1.0, -1 / 3, -1 / 3, -1 / 3]),
    ([1, 1, 1, 4], [1 / 3, 1 / 3, 1 / 3, -1.0]),
    ([1, 1, 1, 1], [0.0, 0.0, 0.0, 0.0]),
    ([3, 1, 3, 1], [-2 / 3, 2 / 3, -2 / 3, 2 / 3]),
])
def test_four_players(places, expected):
    g = koma.Game(koma.Variant.load("yonin"))
    g.play("5g5f")
    assert g.returns() == [0.0] * 4
    g.adjudicate(places)
    assert g.result == koma.Result(places, "adjudicated")
    assert g.returns() == pytest.approx(expected, abs=1e-12)
    assert sum(g.returns()) == pytest.approx(0.0, abs=1e-12)
    g.undo()  # takes the adjudication back
    assert not g.over
    assert g.returns() == [0.0] * 4


def test_three_players():
    g = koma.Game(koma.Variant.load("yonin-three"))
    g.adjudicate([2, 3, 1])
    assert g.returns() == pytest.approx([0.0, -1.0, 1.0])
    g.undo()
    g.adjudicate([1, 1, 3])
    assert g.returns() == pytest.approx([0.5, 0.5, -1.0])
