"""Pickling and copying (docs/python.md, "Pickling, copies, threads")."""
import copy
import pickle
import subprocess
import sys

import pytest

import koma
from conftest import VARIANTS_DIR, jsonl, mode_variant

PARSED = "koma: 1\nextends: minishogi.yaml\nname: mini-mover\nend: {repetition: {loser: mover}}\n"


def round_trip(obj):
    return pickle.loads(pickle.dumps(obj))


def test_variants_unpickle_to_the_same_object():
    variants = [
        koma.Variant.load("shogi"),
        koma.Variant.load("yonin", pawn_drop_mate="allowed"),
        koma.Variant.load("shogi", impasse="none", max_plies=300),
        koma.Variant.parse(PARSED),
        koma.Variant.load(str(VARIANTS_DIR / "judkins.yaml")),
    ]
    for v in variants:
        assert round_trip(v) is v
    assert koma.Variant.load("yonin", pawn_drop_mate="allowed") is variants[1]
    assert koma.Variant.load("yonin", pawn_drop_mate="allowed") is not koma.Variant.load("yonin")
    assert koma.Variant.parse(PARSED) is variants[3]
    assert variants[1].options["pawn_drop_mate"] == "allowed"
    assert variants[3].name == "mini-mover"


def test_positions_moves_results_records():
    v = koma.Variant.load("yonin")
    g = koma.Game(v)
    for text in ["5g5f", "7e6e", "5c5d"]:
        g.play(text)
    p = g.position
    q = round_trip(p)
    assert q == p and q.text == p.text and q.ply == p.ply and hash(q) == hash(p)
    assert q.variant is v
    for m in g.legal_moves()[:5]:
        n = round_trip(m)
        assert n == m and n.text == m.text == str(n)
    bare = koma.Move.drop(3, 40)
    assert round_trip(bare) == bare and round_trip(bare).text == ""
    assert round_trip(koma.Move.board(1, 2, True)).promote
    r = koma.Result([1, 1, 3, 4], "adjudicated")
    assert round_trip(r) == r and round_trip(r).places == [1, 1, 3, 4]
    rec = koma.Record()
    rec.variant, rec.options, rec.first_seat = "yonin", {"pawn_drop_mate": "allowed"}, 2
    rec.seats, rec.moves, rec.result = ["human"] * 4, ["5c5d"], r
    assert round_trip(rec) == rec
    assert round_trip(rec).line() == rec.line()
    read = koma.read_record_text(rec.line(), origin="games.jsonl")
    assert round_trip(read) == read


def test_a_pickled_record_keeps_where():
    # Every attribute of a record survives pickling, `where` (not compared by
    # ==) included: where it was read, or "" for a record made in Python.
    read = koma.read_record_text('{"variant": "shogi", "moves": ["7g7f"]}', origin="games.jsonl")
    assert read.where == "games.jsonl:1"
    assert round_trip(read).where == "games.jsonl:1"
    assert round_trip(round_trip(read)).where == "games.jsonl:1"
    assert round_trip(koma.Record()).where == ""


def state(g):
    return (g.variant, g.position, g.position.text, g.position.ply, g.start, g.history, g.result,
            g.over, g.to_move, g.legal_actions(), g.returns(), g.referee, g.rule_ending)


def check_replays(g):
    h = round_trip(g)
    assert h is not g
    assert state(h) == state(g)
    return h


def games():
    shogi = koma.Variant.load("shogi")
    out = {}
    g = koma.Game(shogi)
    for text in ["7g7f", "3c3d", "8h2b+", "3a2b"]:
        g.play(text)
    out["shogi"] = g
    g = koma.Game(shogi)
    g.play("7g7f")
    g.play("resign")
    out["resigned"] = g
    g = koma.Game(shogi)
    g.play("2g2f")
    g.adjudicate([1, 1], "adjudicated")
    out["drawn"] = g
    g = koma.Game(koma.Variant.load("yonin", pawn_drop_mate="allowed"))
    for m in ["5g5f", "7e6e", "5c5d", "3e4e"]:
        g.play(m)
    g.adjudicate([2, 1, 4, 2], "max_plies")
    out["yonin-adjudicated"] = g
    g = koma.Game(koma.Variant.load("yonin"))
    g.play("5g5f")
    g.play("resign")  # West resigns, the game goes on
    assert not g.over and g.eliminated == [2]
    out["yonin-resigned"] = g
    g = koma.Game(koma.Variant.load("shogi", impasse="csa27"))
    g.play("win")  # a declaration that fails loses
    assert g.result == koma.Result([2, 1], "declaration")
    out["declared"] = g
    g = koma.Game(koma.Variant.parse(PARSED))
    for m in ["1e1d", "5a5b", "1d1e", "5b5a"] * 3:
        g.play(m)
    assert g.result == koma.Result([1, 2], "repetition")  # gote made the fourth
    out["parsed"] = g
    g = koma.Game(shogi, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    g.play("G*5b")
    out["from-position"] = g
    g = koma.Game(koma.Variant.load("minishogi"), referee="outside")
    for m in ["1e1d", "5a5b", "1d1e", "5b5a"] * 3 + ["1e1d"]:
        g.play(m)
    assert not g.over and g.rule_ending is not None
    out["outside"] = g
    row = jsonl("shipley-games.jsonl")[1]
    g = koma.Game(mode_variant(row["mode"], first_seat=row["first_seat"]))
    for m in row["moves"]:
        g.play(m)
    out["shipley"] = g
    return out


@pytest.mark.parametrize("name", list(games()))
def test_games_replay_when_unpickled(name):
    g = games()[name]
    h = check_replays(g)
    # The copy plays on as the original does.
    if not g.over:
        m = g.legal_moves()[-1]
        g.play(m)
        h.play(str(m))
        assert state(h) == state(g)
    else:
        g.undo()
        h.undo()
        assert state(h) == state(g)


def test_resigned_and_adjudicated_games_stay_finished():
    g = games()
    assert round_trip(g["resigned"]).result == koma.Result([1, 2], "resignation")
    assert round_trip(g["resigned"]).history == ["7g7f", "resign"]
    assert round_trip(g["drawn"]).result == koma.Result([1, 1], "adjudicated")
    assert round_trip(g["drawn"]).returns() == [0.0, 0.0]
    assert round_trip(g["yonin-adjudicated"]).result == koma.Result([2, 1, 4, 2], "max_plies")
    assert round_trip(g["yonin-adjudicated"]).variant.options["pawn_drop_mate"] == "allowed"


def test_a_game_unpickles_in_another_process():
    g = games()["yonin-adjudicated"]
    code = ("import pickle, sys, koma\n"
            "g = pickle.loads(sys.stdin.buffer.read())\n"
            "print(g.variant.name, g.variant.options['pawn_drop_mate'])\n"
            "print(g.position.text)\n"
            "print(' '.join(g.history))\n"
            "print(g.result.places, g.result.reason)\n")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(g),
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    lines = out.stdout.decode().splitlines()
    assert lines == ["yonin allowed", g.position.text, " ".join(g.history),
                     "[2, 1, 4, 2] max_plies"]


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, lambda g: g.copy()])
def test_copies_are_independent(how):
    g = koma.Game(koma.Variant.load("shogi"))
    g.play("7g7f")
    h = how(g)
    assert h is not g and h.variant is g.variant
    assert h.position == g.position and h.history == g.history
    h.play("3c3d")
    assert g.history == ["7g7f"] and h.history == ["7g7f", "3c3d"]
    g.play("8c8d")
    assert h.history == ["7g7f", "3c3d"]
    assert h.position != g.position
    g.undo()
    g.undo()
    assert h.history == ["7g7f", "3c3d"]
    with pytest.raises(koma.IllegalMove):
        g.undo()
    assert len(h.history) == 2
    # A container of games deep-copies each.
    games_list = [g, h]
    copied = copy.deepcopy(games_list)
    copied[1].play("2g2f")
    assert h.history == ["7g7f", "3c3d"]
