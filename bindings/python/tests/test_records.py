"""Whole games of the independent implementation (tests/data/*-games.jsonl)
replayed through the Python API, and game records written with koma.Record,
read back, replayed by Game.from_record and by koma-replay."""
import subprocess

import pytest

import koma
from conftest import MODES, VARIANTS_DIR, jsonl, mode_variant

REASONS = {"checkmate", "no_legal_move", "last_seat_standing", "two_mates", "team_checkmate",
           "all_kings", "repetition", "perpetual_check", "impasse", "declaration", "try",
           "max_plies", "resignation", "no_seat_can_move", "adjudicated"}


def game_rows():
    rows = []
    for name in ["yonin-games.jsonl", "shipley-games.jsonl"]:
        for i, r in enumerate(jsonl(name)):
            rows.append(pytest.param(r, id=f"{name}:{i + 1}"))
    return rows


def replay(row):
    v = mode_variant(row["mode"], first_seat=row["first_seat"])
    assert v.options["first_seat"] == str(row["first_seat"])
    g = koma.Game(v)
    assert g.to_move == row["first_seat"]
    for i, move in enumerate(row["moves"]):
        assert not g.over, f"the game ended before move {i + 1} ({move})"
        g.play(move)
    return v, g


def check_result(g, row):
    assert g.position.text == row["final_position"]
    places = row["result"]["places"]
    if places is None:
        assert row["result"]["reason"] == "unfinished"
        assert not g.over
        assert g.result is None
    else:
        assert g.over
        assert g.result.places == places
        assert g.result.reason in REASONS


def test_every_game_is_read():
    assert len(game_rows()) == 16 + 8
    assert {r.values[0]["mode"] for r in game_rows()} == set(MODES)


@pytest.mark.parametrize("row", game_rows())
def test_data_game_replays_to_its_result(row):
    _, g = replay(row)
    check_result(g, row)
    assert g.history == row["moves"]


def record_of(row, g, descriptor=""):
    name, options = MODES[row["mode"]]
    r = koma.Record()
    r.variant = name
    r.descriptor = descriptor
    r.options = dict(options)
    r.first_seat = row["first_seat"]
    r.seats = ["human", "easy", "strong", "expert"][:g.variant.seats]
    r.moves = list(g.history)
    r.result = g.result
    return r


@pytest.mark.parametrize("row", game_rows())
def test_data_game_record_round_trips(row, tmp_path):
    v, g = replay(row)
    r = record_of(row, g)
    line = r.line()
    assert "\n" not in line
    # read_record_text and read_record give an equal record.
    again = koma.read_record_text(line, origin="games.jsonl")
    assert again == r
    assert again.where == "games.jsonl:1"
    assert again.moves == row["moves"] and again.first_seat == row["first_seat"]
    assert again.options == MODES[row["mode"]][1]
    path = tmp_path / "games.jsonl"
    other = koma.Record()
    other.variant, other.moves = "shogi", ["7g7f"]
    path.write_text(other.line() + "\n\n" + line + "\n", encoding="utf-8")
    read = koma.read_record(str(path), game=2)
    assert read == r
    assert read.where == f"{path}:3"
    assert koma.read_record(str(path)) == other
    assert read != other
    # The record's options load the same variant object.
    assert read.load_options() == {**MODES[row["mode"]][1], "first_seat": str(row["first_seat"])}
    assert koma.Variant.load(read.variant, **read.load_options()) is v
    # Replayed by Game.from_record: the shipped variant by name, the same game.
    h = koma.Game.from_record(read)
    assert h.variant is v
    assert h.position == g.position
    assert h.history == g.history
    assert h.result == g.result
    check_result(h, row)
    # With a descriptor path the file is loaded instead.
    by_path = koma.Game.from_record(record_of(row, g, str(VARIANTS_DIR / f"{v.name}.yaml")))
    assert by_path.variant.path == str(VARIANTS_DIR / f"{v.name}.yaml")
    check_result(by_path, row)


def replay_output(koma_replay, variant_file, record_path, game=1):
    out = subprocess.run([koma_replay, "--variant", str(variant_file), "--record",
                          str(record_path), "--game", str(game)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    fields = {}
    for line in out.stdout.splitlines():
        key, _, rest = line.partition(" ")
        fields[key] = rest
    return fields


def test_data_games_replay_in_koma_replay_as_in_python(koma_replay, tmp_path):
    rows = [p.values[0] for p in game_rows()]
    path = tmp_path / "games.jsonl"
    lines = []
    games = []
    for row in rows:
        _, g = replay(row)
        lines.append(record_of(row, g).line())
        games.append(g)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for n, (row, g) in enumerate(zip(rows, games), start=1):
        name = MODES[row["mode"]][0]
        out = replay_output(koma_replay, VARIANTS_DIR / f"{name}.yaml", path, n)
        assert out["position"] == row["final_position"] == g.position.text
        assert int(out["to-move"]) == g.position.to_move
        assert out["eliminated"] == (",".join(map(str, g.eliminated)) or "-")
        if g.over:
            words = out["result"].split()
            assert [int(p) for p in words[:-1]] == g.result.places == row["result"]["places"]
            assert words[-1] == g.result.reason
        else:
            assert "result" not in out


def finished_records():
    """A resigned shogi game and an adjudicated Yonin game, with their records."""
    shogi = koma.Variant.load("shogi")
    resigned = koma.Game(shogi)
    for text in ["7g7f", "3c3d", "resign"]:
        resigned.play(text)
    assert resigned.result == koma.Result([2, 1], "resignation")
    judged = koma.Game(koma.Variant.load("yonin"))
    for _ in range(4):
        judged.play(judged.legal_moves()[0])
    judged.adjudicate([1, 1, 3, 4])
    assert judged.history[-1] == "adjudicate"
    records = []
    for g in (resigned, judged):
        r = koma.Record()
        # A record's moves hold the moves and actions, not the adjudication.
        r.variant, r.moves, r.result = g.variant.name, g.history[:4], g.result
        r.seats = ["human"] * g.variant.seats
        records.append(r)
    return [(resigned, records[0]), (judged, records[1])]


def test_a_resigned_and_an_adjudicated_record(tmp_path):
    path = tmp_path / "two.jsonl"
    games = finished_records()
    path.write_text("".join(r.line() + "\n" for _, r in games), encoding="utf-8")
    for n, (g, r) in enumerate(games, start=1):
        read = koma.read_record(str(path), n)
        assert read == r
        h = koma.Game.from_record(read)
        assert h.over and h.result == g.result
        assert h.position == g.position
        assert h.history == g.history


def test_koma_replay_ends_the_two_records_the_same(koma_replay, tmp_path):
    path = tmp_path / "two.jsonl"
    games = finished_records()
    path.write_text("".join(r.line() + "\n" for _, r in games), encoding="utf-8")
    for n, (g, r) in enumerate(games, start=1):
        out = replay_output(koma_replay, VARIANTS_DIR / f"{r.variant}.yaml", path, n)
        assert out["result"] == " ".join(map(str, g.result.places)) + " " + g.result.reason
        assert out["position"] == g.position.text


def claimed_checkmate():
    r = koma.Record()
    r.variant, r.moves = "shogi", ["7g7f", "3c3d"]
    r.result = koma.Result([1, 2], "checkmate")
    return r


def test_from_record_lets_the_moves_decide_a_result_that_is_not_adjudicated():
    # docs/notation.md, "Game records": a record's result is repeated only if
    # it is `adjudicated`; "Other results are not copied: the moves decide
    # them." These two moves end nothing.
    g = koma.Game.from_record(claimed_checkmate())
    assert g.history == ["7g7f", "3c3d"]
    assert not g.over
    assert g.result is None


def test_koma_replay_lets_the_moves_decide_a_result_that_is_not_adjudicated(koma_replay,
                                                                            tmp_path):
    path = tmp_path / "claimed.jsonl"
    path.write_text(claimed_checkmate().line() + "\n", encoding="utf-8")
    out = replay_output(koma_replay, VARIANTS_DIR / "shogi.yaml", path)
    assert "result" not in out
    assert out["to-move"] == "1"


def test_record_fields():
    r = koma.Record()
    assert (r.variant, r.descriptor, r.options, r.first_seat, r.start, r.seats, r.moves,
            r.result, r.where) == ("", "", {}, None, None, [], [], None, "")
    r.variant = "yonin"
    r.options = {"pawn_drop_mate": "allowed"}
    r.first_seat = 3
    r.start = None
    r.moves = ["5c5d"]
    line = r.line()
    assert line.startswith('{"variant": "yonin", "descriptor": "", '
                           '"options": {"pawn_drop_mate": "allowed"}, "first_seat": 3, '
                           '"start": null')
    g = koma.Game.from_record(koma.read_record_text(line))
    assert g.variant is koma.Variant.load("yonin", pawn_drop_mate="allowed", first_seat=3)
    assert g.history == ["5c5d"]
    assert g.position.to_move == 4
    # A start position is replayed from.
    r = koma.Record()
    r.variant, r.start, r.moves = "shogi", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ["G*5b"]
    g = koma.Game.from_record(koma.read_record_text(r.line()))
    assert g.result == koma.Result([1, 2], "checkmate")
    assert g.start.text == r.start
