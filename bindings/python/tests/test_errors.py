"""Bad input raises the documented exception with a useful message and leaves
the game as it was (docs/python.md, "Errors"; docs/bindings.md, "Errors")."""
import pytest

import koma

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def snapshot(g):
    return (g.position, g.position.text, g.position.ply, g.history, g.result, g.over, g.to_move,
            g.legal_actions())


@pytest.fixture
def game():
    g = koma.Game(koma.Variant.load("shogi"))
    g.play("7g7f")
    return g


@pytest.fixture
def finished():
    g = koma.Game(koma.Variant.load("shogi"), position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    g.play("G*5b")
    assert g.over
    return g


def test_the_exception_classes():
    for cls in (koma.DescriptorError, koma.NotationError, koma.IllegalMove, koma.RecordError):
        assert issubclass(cls, koma.Error)
        assert cls is not koma.Error
    assert issubclass(koma.Error, Exception)
    assert not issubclass(koma.Error, (ValueError, TypeError, RuntimeError))
    assert koma.DescriptorError.__name__ == "DescriptorError"


@pytest.mark.parametrize("text,message", [
    ("7g", "'7g' is not a move"),
    ("zz", "'zz' is not a move"),
    ("7g7f7e6", "'7g7f7e6' is not a move"),
    ("P*5", "'5' is not a square of this board"),
    ("\x1b[2J7g\x00\n7f", "'\\x1b[2J7g\\x00\\x0a7f' is not a move"),
    ("7f7e" * 5, "move text is longer than 16 characters"),
])
def test_unreadable_moves(game, text, message):
    before = snapshot(game)
    with pytest.raises(koma.NotationError) as e:
        game.play(text)
    assert message in str(e.value)
    assert snapshot(game) == before
    with pytest.raises(koma.NotationError):
        game.is_legal(text)
    with pytest.raises(koma.NotationError):
        game.position.parse_move(text)
    assert snapshot(game) == before


def test_bad_double_moves_name_the_step():
    # Chu shogi, a lion alone on 6f: malformed and illegal double moves.
    g = koma.Game(koma.Variant.load("chushogi"),
                  position="k11/12/12/12/12/6N5/12/12/12/12/12/11K b - 1")
    before = snapshot(g)
    with pytest.raises(koma.NotationError, match=r"'4' is not a square of this board \(the second step's square\)"):
        g.play("6f5e4")
    with pytest.raises(koma.IllegalMove, match="the first step: the Lion on 6f cannot step to 4d"):
        g.play("6f4d3c")
    with pytest.raises(koma.IllegalMove, match="the second step: the Lion cannot step from 5e to 3c"):
        g.play("6f5e3c")
    assert snapshot(g) == before
    # Shogi's pieces have no double move.
    shogi = koma.Game(koma.Variant.load("shogi"))
    with pytest.raises(koma.IllegalMove, match="the Pawn on 7g has no double move"):
        shogi.play("7g7f7e")


def test_unreadable_positions():
    v = koma.Variant.load("shogi")
    with pytest.raises(koma.NotationError, match="SFEN has 4 fields"):
        koma.Position.from_text(v, "xx")
    with pytest.raises(koma.NotationError, match="SFEN has 4 fields"):
        koma.Game(v, position=START + " extra")
    with pytest.raises(koma.NotationError):
        koma.Game(v, position=START.replace(" b ", "  b "))
    y = koma.Variant.load("yonin")
    with pytest.raises(koma.NotationError, match="board has 2 rows; this board has 9"):
        koma.Position.from_text(y, "9/9 1 - 1 -")
    assert v.parse_square("zz") is None
    assert v.parse_square("5e") == 40


@pytest.mark.parametrize("position,text,message", [
    (START, "7g7e", "the Pawn on 7g cannot reach 7e"),
    (START, "3c3d", "the piece on 3c belongs to seat 2, and seat 1 is to move"),
    (START, "5e5d", "there is no piece on 5e"),
    (START, "P*5e", "seat 1 has no Pawn in hand"),
    ("k3r4/9/9/9/9/9/9/4G4/4K4 b - 1", "5h4h", "it leaves seat 1's king in check"),
    ("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5c",
     "nifu: seat 1 already has an unpromoted Pawn on that file"),
])
def test_illegal_moves(position, text, message):
    g = koma.Game(koma.Variant.load("shogi"), position=position)
    before = snapshot(g)
    with pytest.raises(koma.IllegalMove) as e:
        g.play(text)
    assert str(e.value) == message
    assert snapshot(g) == before
    move = g.position.parse_move(text)
    assert g.why_illegal(move) == g.why_illegal(text) == message
    assert not g.is_legal(move) and not g.is_legal(text)
    with pytest.raises(koma.IllegalMove):
        g.play(move)
    assert snapshot(g) == before


def test_moves_of_no_square_are_refused(game):
    before = snapshot(game)
    for move in (koma.Move.board(200, 201), koma.Move.drop(200, 40), koma.Move.drop(0, 40),
                 koma.Move.board(56, 56)):
        assert not game.is_legal(move)
        assert game.why_illegal(move) != ""
        with pytest.raises(koma.IllegalMove):
            game.play(move)
    assert snapshot(game) == before


def test_undo_at_the_start_and_actions_a_variant_lacks():
    g = koma.Game(koma.Variant.load("shogi"))
    with pytest.raises(koma.IllegalMove, match="no move to take back"):
        g.undo()
    with pytest.raises(koma.IllegalMove, match="no impasse declaration"):
        g.declare_win()
    with pytest.raises(koma.IllegalMove, match="no impasse declaration"):
        g.play("win")
    assert g.history == [] and not g.over
    s = koma.Game(koma.Variant.load("shipley-individual"))
    assert not s.variant.has_resignation
    with pytest.raises(koma.IllegalMove, match="no resignation"):
        s.resign()
    with pytest.raises(koma.IllegalMove, match="no resignation"):
        s.play("resign")
    assert s.history == [] and not s.over


def test_a_finished_game_refuses_everything_but_undo(finished):
    before = snapshot(finished)
    calls = [lambda: finished.play("5i5h"), lambda: finished.play(koma.Move.board(76, 67)),
             finished.resign, lambda: finished.play("resign"),
             lambda: finished.adjudicate([1, 2]), lambda: finished.apply_action(0)]
    for call in calls:
        with pytest.raises(koma.IllegalMove, match="the game is over"):
            call()
        assert snapshot(finished) == before
    assert finished.legal_moves() == []
    assert finished.why_illegal("5i5h") == "the game is over"
    finished.undo()
    assert not finished.over and finished.history == []


@pytest.mark.parametrize("places,reason,error,message", [
    ([1], "adjudicated", koma.IllegalMove, "one place per seat (2)"),
    ([1, 2, 3], "adjudicated", koma.IllegalMove, "one place per seat (2)"),
    ([1, 5], "adjudicated", koma.IllegalMove, "places run from 1 to the number of seats"),
    ([0, 1], "adjudicated", koma.IllegalMove, "places run from 1 to the number of seats"),
    ([1, 1], "none", koma.IllegalMove, "a reason other than none"),
    ([1, 1], "bogus", ValueError, "unknown reason 'bogus'"),
])
def test_bad_adjudications(game, places, reason, error, message):
    before = snapshot(game)
    with pytest.raises(error) as e:
        game.adjudicate(places, reason)
    assert message in str(e.value)
    assert snapshot(game) == before


# --- descriptors and options ---------------------------------------------------

@pytest.mark.parametrize("text,line,column,message", [
    ("koma: 1\nname: x\nbogus: 3\n", 3, 1, "unknown key 'bogus' in the descriptor"),
    ("koma: 1\nextends: shogi.yaml\nname: x\nboard: {width: 0, height: 9}\n", 4, 16,
     "board.width must be a whole number from 1 to 16, not '0'"),
    ("koma: 1\nextends: shogi.yaml\nname: x\n  bad: indentation\n", 4, 6, "YAML syntax error"),
    ("koma: 1\nextends: nothere.yaml\nname: x\n", 2, 10, "'extends' names"),
])
def test_malformed_descriptors(text, line, column, message):
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.parse(text, origin="bad.yaml")
    err = e.value
    assert isinstance(err, koma.Error)
    assert (err.file, err.line, err.column) == ("bad.yaml", line, column)
    assert message in err.message
    assert str(err) == f"bad.yaml:{line}:{column}: {err.message}"


def test_unknown_variants_and_bad_options():
    with pytest.raises(koma.DescriptorError, match="cannot be read") as e:
        koma.Variant.load("no-such-variant")
    assert e.value.file == "no-such-variant"
    with pytest.raises(koma.DescriptorError, match="unknown option 'bogus'; options of this "
                                                   "variant: first_seat, impasse, max_plies"):
        koma.Variant.load("shogi", bogus="x")
    with pytest.raises(koma.DescriptorError, match="option impasse cannot be 'x'; allowed: none"):
        koma.Variant.load("shogi", impasse="x")
    with pytest.raises(koma.DescriptorError, match="option impasse cannot be 'true'"):
        koma.Variant.load("shogi", impasse=True)
    with pytest.raises(koma.DescriptorError, match="max_plies must be a whole number"):
        koma.Variant.load("shogi", max_plies="abc")
    with pytest.raises(koma.DescriptorError, match="first_seat must be a whole number from 1 to 2"):
        koma.Variant.load("shogi", first_seat=3)
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.parse("koma: 1\nextends: shogi.yaml\nname: x\n", origin="x.yaml", bogus=1)
    assert "unknown option 'bogus'" in e.value.message
    # Good values of each type.
    assert koma.Variant.load("shogi", max_plies=7).options["max_plies"] == "7"
    assert koma.Variant.load("yonin", resignation="forbidden").has_resignation is False


@pytest.mark.parametrize("value", [["none"], 1.5, None, {"a": 1}, b"none"])
def test_option_values_of_the_wrong_type(value):
    with pytest.raises(TypeError, match="option 'impasse' must be a str, int or bool"):
        koma.Variant.load("shogi", impasse=value)


# --- records ---------------------------------------------------------------------

def test_bad_records(tmp_path):
    with pytest.raises(koma.RecordError) as e:
        koma.read_record_text('{"moves": 3}', origin="x.jsonl")
    assert e.value.where == "x.jsonl:1"
    assert "'moves' must be a list" in str(e.value)
    with pytest.raises(koma.RecordError) as e:
        koma.read_record_text("not json", origin="x.jsonl")
    assert e.value.where == "x.jsonl:1"
    assert "a game is one JSON object" in str(e.value)
    with pytest.raises(koma.RecordError, match="there is no game 2; the record holds 1 game"):
        koma.read_record_text('{"variant": "shogi"}', game=2)
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(koma.RecordError) as e:
        koma.read_record(str(missing))
    assert e.value.where == str(missing)
    with pytest.raises(koma.RecordError, match="not a regular file"):
        koma.read_record(str(tmp_path))
    # A move that cannot be played: its index, text and reason.
    r = koma.Record()
    r.variant, r.moves = "shogi", ["7g7f", "3c3d", "7f7d"]
    with pytest.raises(koma.RecordError) as e:
        koma.Game.from_record(r)
    err = e.value
    assert (err.index, err.move, err.reason) == (3, "7f7d", "the Pawn on 7f cannot reach 7d")
    assert "move 3 '7f7d' is illegal: the Pawn on 7f cannot reach 7d" in str(err)
    assert isinstance(err, koma.Error)


# --- values out of range -------------------------------------------------------

def test_values_out_of_range(game):
    v = game.variant
    p = game.position
    before = snapshot(game)
    calls = {
        "seat": [lambda: v.seat_name(0), lambda: v.seat_name(3), lambda: v.seat_facing(-1),
                 lambda: p.in_hand(3, 0), lambda: p.active(0), lambda: p.in_check(3),
                 lambda: p.score(5), lambda: game.observation(3), lambda: p.observation(0),
                 lambda: v.start_position(first_seat=3)],
        "square": [lambda: p.at(81), lambda: p.at(-1), lambda: v.square_name(81),
                   lambda: v.square_name(-1), lambda: koma.Move.board(0, 255),
                   lambda: koma.Move.board(-1, 3)],
        "kind": [lambda: p.in_hand(1, 14), lambda: p.in_hand(1, -1), lambda: koma.Move.drop(-1, 3)],
        "action": [lambda: game.apply_action(-1), lambda: v.action_to_move(v.num_actions)],
        "other": [lambda: koma.Player(v, "grandmaster"), lambda: koma.Game(v, referee="judge"),
                  lambda: koma.perft(v, -1), lambda: koma.perft(game, -2),
                  lambda: koma.perft_divide(v, 0), lambda: koma.perft(v, 1, mode="fast"),
                  lambda: koma.perft(game, 1, position=START), lambda: koma.Result([1, 2], "won")],
    }
    for group, group_calls in calls.items():
        for call in group_calls:
            with pytest.raises(ValueError) as e:
                call()
            assert str(e.value), group
    assert snapshot(game) == before
    with pytest.raises(ValueError, match="seat 3 is out of range: shogi has seats 1 to 2"):
        p.in_hand(3, 0)
    with pytest.raises(ValueError, match="square 81 is out of range: shogi has squares 0 to 80"):
        p.at(81)
    with pytest.raises(ValueError, match="kind 14 is out of range: shogi has kinds 0 to 13"):
        p.in_hand(1, 14)
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        koma.Player(v, "grandmaster")
    with pytest.raises(ValueError, match="depth must be 0 or more, not -1"):
        koma.perft(v, -1)


def test_objects_of_another_variant():
    shogi, yonin = koma.Variant.load("shogi"), koma.Variant.load("yonin")
    with pytest.raises(ValueError, match="another variant"):
        koma.Game(shogi, position=yonin.start_position())
    with pytest.raises(ValueError, match="another variant"):
        koma.Player(shogi, "easy").choose(koma.Game(yonin))
    with pytest.raises(ValueError, match="another variant"):
        koma.perft(shogi, 1, position=yonin.start_position())


def test_search_limits_out_of_range():
    v = koma.Variant.load("shogi")
    with pytest.raises(koma.Error, match="seconds"):
        koma.Player(v, "expert", seconds=-1)
    with pytest.raises(koma.Error, match="depth"):
        koma.Player(v, "expert", depth=-1)


# --- wrong types ---------------------------------------------------------------

def test_wrong_argument_types(game):
    v = game.variant
    before = snapshot(game)
    calls = [lambda: game.play(None), lambda: game.apply_action("x"),
             lambda: game.apply_action(1.5), lambda: v.move_to_action("7g7f"),
             lambda: koma.Game("shogi"), lambda: game.adjudicate("12"),
             lambda: koma.Player(v, "easy", nodes=-1), lambda: koma.Variant.load(3)]
    for call in calls:
        with pytest.raises(TypeError):
            call()
    assert snapshot(game) == before


@pytest.mark.parametrize("call", [
    lambda g: g.play(3.5),
    lambda g: g.why_illegal(3),
    lambda g: g.position.is_legal(3.5),
    lambda g: koma.Game(g.variant, position=3),
    lambda g: koma.perft("shogi", 2),
    lambda g: koma.perft_divide(g.position, 2),
], ids=["Game.play", "Game.why_illegal", "Position.is_legal", "Game-position", "perft",
        "perft_divide"])
def test_move_and_target_arguments_of_the_wrong_type(game, call):
    # These arguments accept several types (a Move or text; a Variant or a
    # Game; a Position or text): anything else is a TypeError, not the
    # RuntimeError of a failed C++ cast.
    before = snapshot(game)
    with pytest.raises(TypeError):
        call(game)
    assert snapshot(game) == before


def test_comparisons_with_other_types_are_false():
    v = koma.Variant.load("shogi")
    p = v.start_position()
    m = koma.Move.board(56, 47)
    r = koma.Result([1, 2], "checkmate")
    for obj in (p, m, r, koma.Record()):
        assert (obj == None) is False  # noqa: E711
        assert (obj != "x") is True
        assert obj not in [None, 3, "7g7f"]


def test_a_descriptor_error_reads_whole_with_a_nul_in_the_name():
    # str(e) is file:line:column: message (docs/python.md, "Errors"), also
    # when the name holds a NUL: the message must not end there.
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.load("shogi\x00x")
    err = e.value
    assert err.file == "shogi\x00x"
    assert "cannot be read" in err.message
    assert str(err) == f"{err.file}:{err.line}:{err.column}: {err.message}"


# --- text that is not valid Unicode ---------------------------------------------

BAD = "7g\ud800"  # a lone surrogate at index 2: UTF-8 cannot encode it


def set_record(field, value):
    r = koma.Record()
    setattr(r, field, value)


@pytest.mark.parametrize("what, call", [
    ("the variant name or descriptor path", lambda g: koma.Variant.load(BAD)),
    ("the value of option 'impasse'", lambda g: koma.Variant.load("shogi", impasse=BAD)),
    ("an option name", lambda g: koma.Variant.load("shogi", **{BAD: "1"})),
    ("the descriptor text", lambda g: koma.Variant.parse(BAD)),
    ("the origin", lambda g: koma.Variant.parse("x", origin=BAD)),
    ("the base folder", lambda g: koma.Variant.parse("x", base_dir=BAD)),
    ("a square name", lambda g: g.variant.parse_square(BAD)),
    ("a kind letter", lambda g: g.variant.kind_by_letter(BAD)),
    ("position text", lambda g: koma.Position.from_text(g.variant, BAD)),
    ("position text", lambda g: koma.Game(g.variant, position=BAD)),
    ("position text", lambda g: koma.perft(g.variant, 1, position=BAD)),
    ("position text", lambda g: koma.perft_divide(g.variant, 1, position=BAD)),
    ("the referee", lambda g: koma.Game(g.variant, referee=BAD)),
    ("move text", lambda g: g.play(BAD)),
    ("move text", lambda g: g.is_legal(BAD)),
    ("move text", lambda g: g.why_illegal(BAD)),
    ("move text", lambda g: g.position.parse_move(BAD)),
    ("move text", lambda g: g.position.is_legal(BAD)),
    ("the reason", lambda g: g.adjudicate([1, 2], BAD)),
    ("the reason", lambda g: koma.Result([1, 2], BAD)),
    ("the level", lambda g: koma.Player(g.variant, BAD)),
    ("the perft mode", lambda g: koma.perft(g, 1, mode=BAD)),
    ("the record path", lambda g: koma.read_record(BAD)),
    ("the record text", lambda g: koma.read_record_text(BAD)),
    ("the origin", lambda g: koma.read_record_text("{}", origin=BAD)),
    ("the record's variant", lambda g: set_record("variant", BAD)),
    ("the record's descriptor", lambda g: set_record("descriptor", BAD)),
    ("the record's start", lambda g: set_record("start", BAD)),
    ("an option name", lambda g: set_record("options", {BAD: "1"})),
    ("an option value", lambda g: set_record("options", {"impasse": BAD})),
    ("a seat of the record", lambda g: set_record("seats", ["easy", BAD])),
    ("a move of the record", lambda g: set_record("moves", ["7g7f", BAD])),
])
def test_text_that_utf8_cannot_encode_is_named(game, what, call):
    # Not pybind11's "incompatible function arguments" or "Unable to cast":
    # which argument, and why.
    before = snapshot(game)
    with pytest.raises(TypeError) as e:
        call(game)
    assert str(e.value) == (f"{what} must be valid Unicode: U+D800 at index 2 is a lone "
                            "surrogate, which UTF-8 cannot encode ('7g\\ud800')")
    assert snapshot(game) == before


def test_a_long_text_is_shown_near_the_character_that_cannot_be_encoded():
    with pytest.raises(TypeError) as e:
        koma.Variant.parse("a" * 100 + "\udcff" + "b" * 100)
    assert str(e.value) == ("the descriptor text must be valid Unicode: U+DCFF at index 100 is a "
                            "lone surrogate, which UTF-8 cannot encode (..." +
                            repr("a" * 20 + "\udcff" + "b" * 20) + "...)")


# --- errors name what the caller gave, not the build's folders ------------------

def test_an_empty_record_names_no_build_path():
    with pytest.raises(koma.RecordError) as e:
        koma.Game.from_record(koma.Record())
    assert str(e.value) == "the record names no variant: its descriptor and variant are empty"


@pytest.mark.parametrize("name", ["", "nosuch/", "nosuch/shogi/"])
def test_a_name_that_is_no_descriptor_is_named_as_given(name):
    # Variant::locate finds "" and "x/" as its folder of descriptors (in the
    # source tree the module was built from); the error must name the name.
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.load(name)
    assert e.value.file == name
    assert "cannot be read" in e.value.message
    assert "variants" not in str(e.value)
