"""The basics of the API (docs/python.md, "API"): moves, positions, variants,
games and players."""
import pytest

import koma
from conftest import SHOGI_START, VARIANTS_DIR, texts


def test_module_names():
    for name in koma.__all__:
        assert hasattr(koma, name)
    assert isinstance(koma.WIN_SCORE, int) and koma.WIN_SCORE > 0
    assert koma.variants() == sorted(koma.variants())
    assert {"shogi", "yonin", "shipley-individual"} <= set(koma.variants())


# --- Move -----------------------------------------------------------------------

def test_moves_text_repr_and_fields():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    m = g.position.parse_move("7g7f")
    assert str(m) == m.text == "7g7f"
    assert repr(m) == "Move('7g7f')"
    assert (m.from_square, m.to_square, m.kind, m.promote, m.is_drop) == \
        (56, 47, None, False, False)
    assert "7g7f" in texts(g.legal_moves())
    assert all(str(x) == x.text and repr(x) == f"Move('{x.text}')" for x in g.legal_moves())
    bare = koma.Move.board(56, 47)
    assert bare == m and hash(bare) == hash(m)
    assert bare.text == "" and repr(bare) == str(bare) == "Move.board(56, 47)"
    assert repr(koma.Move.board(64, 16, promote=True)) == "Move.board(64, 16, promote=True)"
    drop = koma.Move.drop(12, 40)
    assert repr(drop) == "Move.drop(12, 40)"
    assert (drop.from_square, drop.to_square, drop.kind, drop.promote, drop.is_drop) == \
        (None, 40, 12, False, True)
    assert g.position.move_text(drop) == "P*5e"
    assert g.position.move_text(koma.Move.board(64, 16, True)) == "8h2b+"
    assert g.position.parse_move("P*5e") == drop
    assert koma.Move.board(56, 47, True) != m
    assert len({m, bare, koma.Move.board(56, 47), drop}) == 2
    g.play(bare)
    assert g.history == ["7g7f"]


# --- Position ---------------------------------------------------------------------

def test_positions_compare_and_hash_by_content():
    v = koma.Variant.load("shogi")
    a, b = koma.Game(v), koma.Game(v)
    for text in ["7g7f", "3c3d", "2g2f"]:
        a.play(text)
    for text in ["2g2f", "3c3d", "7g7f"]:
        b.play(text)
    assert a.position == b.position and hash(a.position) == hash(b.position)
    assert a.history != b.history
    # The ply is not compared.
    c = koma.Position.from_text(v, a.position.text.replace(" 4", " 40"))
    assert c.ply == 40 and c == a.position and hash(c) == hash(a.position)
    assert a.position != v.start_position()
    assert v.start_position() == koma.Position.from_text(v, SHOGI_START)
    assert {a.position, b.position, c, v.start_position()} == {a.position, v.start_position()}
    # Positions of different variant objects differ.
    other = koma.Variant.load("shogi", impasse="none")
    assert other is not v
    assert other.start_position() != v.start_position()
    assert str(v.start_position()) == v.start_position().text == SHOGI_START
    assert repr(v.start_position()) == f"Position('shogi', '{SHOGI_START}')"
    assert v.start_position().generic_text == (
        "L2N2S2G2K2G2S2N2L2/1R25B21/P2P2P2P2P2P2P2P2P2/9/9/9/P1P1P1P1P1P1P1P1P1/1B15R11/"
        "L1N1S1G1K1G1S1N1L1 1 - 1 -")
    assert koma.Position.from_text(v, v.start_position().generic_text) == v.start_position()


def test_position_accessors():
    v = koma.Variant.load("shogi")
    p = v.start_position()
    assert p.variant is v and p.to_move == 1 and p.ply == 1
    pawn = p.at(v.parse_square("7g"))
    assert (pawn.kind, pawn.owner, pawn.facing, pawn.overturned) == (12, 1, "up", False)
    assert repr(pawn) == "Piece(kind=12, owner=1, facing='up')"
    assert p.at(v.parse_square("3c")) == koma.Position.from_text(v, SHOGI_START).at(20)
    assert p.at(v.parse_square("3c")).facing == "down"
    assert p.at(40) is None
    assert p.hands == {1: {}, 2: {}}
    assert p.in_hand(1, 12) == 0
    assert p.active(1) and p.active(2) and p.eliminated == []
    assert not p.in_check() and not p.in_check(2) and p.seats_in_check == []
    assert p.result is None
    assert texts(p.legal_moves()) == texts(koma.Game(v).legal_moves())
    assert len(p.legal_moves()) == 30
    assert p.is_legal("7g7f") and not p.is_legal("7g7e")
    assert p.parse_move("7g7f").text == "7g7f"
    score = p.score(1)
    assert (score.mates, score.last_mate) == (0, 0) and score.pieces == 20


def test_positions_of_a_yonin_game():
    v = koma.Variant.load("yonin")
    g = koma.Game(v)
    assert g.position.text == ("2S3G3K3G3S32/3P3R3P33/S23P33S4/G2P25P4G4/K2R2P23P4R4K4/"
                               "G2P25P4G4/S23P13S4/3P1R1P13/2S1G1K1G1S12 1 - 1 -")
    assert g.position.text == g.position.generic_text
    west_king = g.position.at(v.parse_square("9e"))
    assert (west_king.kind, west_king.owner, west_king.facing) == (0, 2, "right")


# --- Variant -----------------------------------------------------------------------

def test_shogi_variant():
    v = koma.Variant.load("shogi")
    assert koma.Variant.load("shogi") is v
    assert koma.Variant.load("shogi.yaml") is v
    assert repr(v) == "Variant('shogi')"
    assert (v.name, v.seats, v.turn_order, v.width, v.height, v.squares) == \
        ("shogi", 2, [1, 2], 9, 9, 81)
    assert [v.seat_name(s) for s in (1, 2)] == ["Sente", "Gote"]
    assert [v.seat_facing(s) for s in (1, 2)] == ["up", "down"]
    assert [k.letter for k in v.kinds] == ["K", "R", "+R", "B", "+B", "G", "S", "+S", "N", "+N",
                                           "L", "+L", "P", "+P"]
    assert (v.kind_by_letter("P"), v.kind_by_letter("+P"), v.kind_by_letter("Z")) == (12, 13, None)
    rook, dragon, king = v.kinds[1], v.kinds[2], v.kinds[0]
    assert (rook.name, rook.promotes_to, rook.promoted, rook.royal) == ("Rook", 2, False, False)
    assert (dragon.promotes_to, dragon.demotes_to, dragon.promoted) == (None, 1, True)
    assert king.royal and king.kanji == "玉"
    assert repr(v.kinds[12]) == "Kind('P', 'Pawn')"
    assert [v.square_name(sq) for sq in (0, 8, 9, 40, 56, 80)] == \
        ["9a", "1a", "9b", "5e", "7g", "1i"]
    assert v.uses_sfen and v.has_check and v.has_resignation and v.captures_to_hand
    assert not v.has_declaration and not v.places_by_score
    assert koma.Variant.load("shogi", impasse="csa27").has_declaration
    assert v.options == {"first_seat": "1", "impasse": "both_kings_entered_24", "max_plies": "0"}
    assert v.path.endswith("shogi.yaml")
    by_path = koma.Variant.load(str(VARIANTS_DIR / "shogi.yaml"))
    assert by_path is not v and by_path.path == str(VARIANTS_DIR / "shogi.yaml")
    assert koma.Variant.load(str(VARIANTS_DIR / "shogi.yaml")) is by_path


@pytest.mark.parametrize("name", koma.variants())
def test_square_names_round_trip(name):
    v = koma.Variant.load(name)
    names = set()
    for sq in range(v.squares):
        if v.is_square(sq):
            assert v.parse_square(v.square_name(sq)) == sq
            names.add(v.square_name(sq))
        else:
            assert v.square_name(sq) == "?"
    assert len(names) == sum(v.is_square(sq) for sq in range(v.squares))
    assert not v.is_square(-1) and not v.is_square(v.squares)


def test_four_player_variants():
    y = koma.Variant.load("yonin")
    assert [y.seat_name(s) for s in range(1, 5)] == ["South", "West", "North", "East"]
    assert [y.seat_facing(s) for s in range(1, 5)] == ["up", "right", "down", "left"]
    assert not y.uses_sfen
    s = koma.Variant.load("shipley-team-diagonal")
    assert [s.seat_name(x) for x in range(1, 5)] == ["North", "East", "South", "West"]
    assert [s.seat_facing(x) for x in range(1, 5)] == ["down", "left", "up", "right"]
    assert s.turn_order == [1, 3, 2, 4]
    assert (s.width, s.height, s.squares) == (15, 15, 225)
    assert sum(s.is_square(sq) for sq in range(225)) == 189
    assert not s.is_square(0) and s.parse_square("a1") is None
    assert [s.parse_square(n) for n in ("a4", "d1", "h8", "l15")] == \
        [11 * 15 + 0, 14 * 15 + 3, 7 * 15 + 7, 0 * 15 + 11]
    assert not koma.Variant.load("shipley-kings").has_check
    assert koma.Variant.load("yonin-inherit").places_by_score


def test_start_position_first_seat():
    v = koma.Variant.load("yonin")
    for seat in range(1, 5):
        p = v.start_position(first_seat=seat)
        assert p.to_move == seat
        assert koma.Game(koma.Variant.load("yonin", first_seat=seat)).to_move == seat
        assert koma.Game(v, position=p).to_move == seat


# --- Game -------------------------------------------------------------------------

def test_game_play_undo_hands_check():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    assert (g.to_move, g.over, g.result, g.in_check, g.history, g.referee) == \
        (1, False, None, False, [], "koma")
    assert repr(g) == "Game('shogi', 0 plies)"
    for text in ["7g7f", "3c3d"]:
        g.play(text)
    g.play(g.position.parse_move("8h2b+"))
    assert g.history == ["7g7f", "3c3d", "8h2b+"]
    assert repr(g) == "Game('shogi', 3 plies)"
    assert g.hands == {1: {"B": 1}, 2: {}} == g.position.hands
    assert g.position.in_hand(1, v.kind_by_letter("B")) == 1
    assert g.to_move == 2 and not g.in_check
    assert g.start == v.start_position()
    g.undo()
    assert g.hands == {1: {}, 2: {}} and g.history == ["7g7f", "3c3d"]
    # A check: gote's king on 5a, sente's rook gives check.
    c = koma.Game(v, position="4k4/9/9/9/9/9/9/R8/4K4 b - 1")
    c.play("9h9a")
    assert c.to_move == 2 and c.in_check and c.position.in_check(2)
    assert c.seats_in_check == [2] and c.position.seats_in_check == [2]
    assert texts(c.legal_moves()) == ["5a4b", "5a5b", "5a6b"]


def test_game_over_and_to_move():
    v = koma.Variant.load("shogi")
    g = koma.Game(v, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert g.is_legal("G*5b") and g.why_illegal("G*5b") == ""
    g.play("G*5b")
    assert g.over and g.to_move == 0 and not g.in_check
    assert g.result == koma.Result([1, 2], "checkmate")
    assert repr(g.result) == "Result(places=[1, 2], reason='checkmate')"
    assert g.result.places == [1, 2] and g.result.reason == "checkmate"
    assert g.position.result == g.result
    assert g.position.eliminated == [2] and not g.position.active(2)
    assert repr(g) == "Game('shogi', 1 plies, over)"
    assert g.legal_moves() == []
    r = koma.Result([1, 1], "adjudicated")
    same = koma.Result([1, 1], "adjudicated")
    assert r == same and hash(r) == hash(same)
    assert r != koma.Result([1, 2], "adjudicated")


def test_an_outside_referee():
    v = koma.Variant.load("minishogi")
    g = koma.Game(v, referee="outside")
    assert g.referee == "outside"
    for m in ["1e1d", "5a5b", "1d1e", "5b5a"] * 3:
        g.play(m)
    assert not g.over
    assert g.rule_ending == koma.Result([2, 1], "repetition")
    assert g.occurrences == 4
    k = koma.Game(v)
    for m in ["1e1d", "5a5b", "1d1e", "5b5a"] * 3:
        k.play(m)
    assert k.over and k.result == g.rule_ending


# --- Player -----------------------------------------------------------------------

def test_player_choose_is_legal_and_deterministic():
    v = koma.Variant.load("shogi")
    g = koma.Game(v)
    g.play("7g7f")
    moves = [koma.Player(v, "expert", nodes=2000, seed=1).choose(g) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0].text == moves[1].text
    assert g.is_legal(moves[0]) and str(moves[0]) in texts(g.legal_moves())
    assert g.history == ["7g7f"]
    p = koma.Player(v, "expert", nodes=2000, seed=1)
    p.choose(g)
    assert p.level == "expert"
    assert set(p.info) == {"depth", "nodes", "seconds", "score", "stopped"}
    assert 0 < p.info["nodes"] <= 2500
    y = koma.Variant.load("yonin")
    yg = koma.Game(y)
    for level in ["easy", "normal", "medium", "strong", "hard", "expert"]:
        m = koma.Player(y, level, nodes=500, seed=3).choose(yg)
        assert yg.is_legal(m) and m.text
    # A player finds the mate in one.
    mate = koma.Game(v, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    assert str(koma.Player(v, "expert", depth=2).choose(mate)) == "G*5b"


def test_variant_load_looks_for_a_file_first_then_the_shipped_name(tmp_path, monkeypatch):
    # docs/python.md, "Variant": a regular file by that path wins; then the
    # package's descriptors; then what Variant::locate finds (a last component
    # in its folders). It said "a shipped variant by name, else a file".
    minishogi = koma.Variant.load("minishogi")
    with open(minishogi.path, encoding="utf-8") as f:
        (tmp_path / "shogi").write_text(f.read(), encoding="utf-8")
    (tmp_path / "folder").mkdir()
    monkeypatch.chdir(tmp_path)
    assert koma.Variant.load("shogi").name == "minishogi"  # the file ./shogi
    assert koma.Variant.load("shogi.yaml").name == "shogi"  # no such file: shipped
    assert koma.Variant.load("./shogi").name == "minishogi"
    assert koma.Variant.load("elsewhere/yonin.yaml").name == "yonin"  # locate's folders
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.load("folder")  # found, but no file
    assert e.value.file == "folder"
