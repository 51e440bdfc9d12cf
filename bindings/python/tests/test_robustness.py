"""Inputs that once crashed the interpreter or broke a documented contract
(an adversarial review of the binding): each now raises the documented
exception or behaves as docs/python.md says."""
import copy
import pickle
import threading
import time

import pytest

import koma
from conftest import fresh_python


@pytest.fixture(scope="module")
def shogi():
    return koma.Variant.load("shogi")


def test_none_for_a_variant_is_a_type_error(shogi):
    with pytest.raises(TypeError):
        koma.Game(None)
    with pytest.raises(TypeError):
        koma.Position.from_text(None, "x")
    with pytest.raises(TypeError):
        koma.Player(None, "easy")
    with pytest.raises(TypeError):
        koma._restore("Game._restore", (None, "", [], "koma", None))


def test_a_depth_beyond_the_limit_is_refused(shogi):
    # A fixed-depth search 300 plies deep overflowed the stack.
    with pytest.raises(koma.Error, match="from 0 to 64"):
        koma.Player(shogi, "normal", depth=300, nodes=1000)
    koma.Player(shogi, "medium", depth=64, nodes=200).choose(koma.Game(shogi))


def test_one_player_is_used_by_one_thread_at_a_time(shogi):
    player = koma.Player(shogi, "expert", seconds=30)
    game = koma.Game(shogi)
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("move", player.choose(game)))
    thread.start()
    time.sleep(0.3)
    with pytest.raises(koma.Error, match="another thread"):
        player.choose(game)
    player.stop()
    thread.join(10)
    assert game.is_legal(out["move"])
    # Once free, the player serves again.
    assert game.is_legal(koma.Player(shogi, "easy").choose(game))


def test_the_position_of_an_ended_two_player_game_copies_but_does_not_pickle():
    v = koma.Variant.load("minishogi")
    g = koma.Game(v, "2+B2/G3k/2g2/1SbRp/KP2s b R 91")
    g.play("2d2a+")
    assert g.result == koma.Result([1, 2], "checkmate")
    assert copy.copy(g.position) == g.position
    assert copy.deepcopy(g.position) == g.position
    with pytest.raises(koma.Error, match="pickle the Game"):
        pickle.dumps(g.position)
    again = pickle.loads(pickle.dumps(g))
    assert again.result == g.result and again.position == g.position


@pytest.mark.parametrize("places", [[2, 2], [1, 1, 2, 3], [4, 4, 4, 4], [1, 3, 3, 3]])
def test_adjudicated_places_are_competition_ranks(places):
    v = koma.Variant.load("shogi" if len(places) == 2 else "yonin")
    g = koma.Game(v)
    with pytest.raises(koma.IllegalMove, match="competition ranks"):
        g.adjudicate(places)
    assert not g.over and g.history == []


def test_an_empty_reason_is_no_reason(shogi):
    with pytest.raises(ValueError):
        koma.Game(shogi).adjudicate([1, 2], "")
    with pytest.raises(ValueError):
        koma.Result([1, 2], "")


def test_text_that_is_not_utf8_raises_koma_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"koma: 1\nname: x\n\xff: 1\n")
    with pytest.raises(koma.DescriptorError) as e:
        koma.Variant.load(str(bad))
    assert e.value.file == str(bad) and e.value.line == 3
    with pytest.raises(TypeError):
        koma.Game(koma.Variant.load("shogi")).play("\udcff")


def test_options_that_come_to_the_same_rules_give_the_same_variant(shogi):
    assert koma.Variant.load("shogi", max_plies=shogi.options["max_plies"]) is shogi
    assert koma.Variant.load("shogi", first_seat=1) is shogi
    other = koma.Variant.load("shogi", impasse="none")
    assert other is not shogi
    g = koma.Game(koma.Variant.load("shogi", first_seat=1))
    assert g.is_legal(koma.Player(shogi, "easy").choose(g))


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_variants_no_longer_used_are_freed(shogi):
    with open(shogi.path, encoding="utf-8") as f:
        text = f.read()
    before = resident_bytes()
    for i in range(300):
        v = koma.Variant.parse(text + f"\n# {i}\n")
        koma.Game(v).play("7g7f")
    del v
    # Each variant is about 190 KB: kept, 300 would take over 50 MB.
    assert resident_bytes() - before < 20 << 20


def test_a_position_outlives_its_python_variant():
    p = koma.Variant.parse(open(koma.Variant.load("shogi").path).read() + "\n# alone\n").start_position()
    assert p.variant.name == "shogi"
    assert p.observation(1).shape == p.variant.observation_shape
    assert koma.Game(p.variant, position=p).legal_moves()


def test_record_errors_read_whole():
    r = koma.Record()
    r.variant = "shogi"
    r.moves = ["a\x00b"]
    with pytest.raises(koma.RecordError) as e:
        koma.Game.from_record(r)
    message = str(e.value)
    assert message.startswith("move 1 'a\\x00b' is illegal: ")
    assert not message.endswith("()")
    assert e.value.move == "a\x00b" and e.value.index == 1


def test_kinds_and_scores_compare_by_value(shogi):
    assert shogi.kinds[0] == koma.Variant.load("shogi").kinds[0]
    assert shogi.kinds[0] != shogi.kinds[1]
    p = shogi.start_position()
    assert p.score(1) == p.score(1)
    assert len({shogi.kinds[0], shogi.kinds[0]}) == 1


# --- objects whose __init__ never ran --------------------------------------

# Made by Type.__new__(Type), an object holds no C++ value: every method and
# property (and every function given it) must raise TypeError naming the type
# and saying __init__ was not called, never read the memory. Each class runs
# in its own interpreter, so that a crash fails the test instead of pytest.
UNINITIALISED = r"""
import copy, pickle, sys
import koma

name = sys.argv[1]
cls = getattr(koma, name)
o = cls.__new__(cls)

def outcome(call):
    try:
        call()
    except TypeError as e:
        return "TypeError: " + str(e)
    except BaseException as e:
        return type(e).__name__ + ": " + str(e)
    return "no error"

def report(what, result):
    print(what + "\t" + result.replace("\n", " | "), flush=True)

for member, value in sorted(vars(cls).items()):
    if member in ("__init__", "__new__", "__doc__", "__module__", "__dict__", "__weakref__"):
        continue
    if value is None or isinstance(value, staticmethod):  # __hash__ = None: unhashable
        continue
    if isinstance(value, property):
        report(member + " (get)", outcome(lambda: getattr(o, member)))
        if value.fset is not None:
            report(member + " (set)", outcome(lambda: setattr(o, member, None)))
        continue
    # The right number of arguments, whatever they are: self is read first.
    results = [outcome(lambda: getattr(o, member)(*[None] * n)) for n in range(4)]
    ours = [r for r in results if "__init__" in r]
    report(member, ours[0] if ours else results[0])
for what, call in [("repr", lambda: repr(o)), ("str", lambda: str(o)), ("hash", lambda: hash(o)),
                   ("==", lambda: o == o), ("copy", lambda: copy.copy(o)),
                   ("deepcopy", lambda: copy.deepcopy(o))]:
    report(what, outcome(call))
for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
    report(f"pickle {protocol}", outcome(lambda: pickle.dumps(o, protocol)))
print("done", flush=True)
"""

def survived(code, *args):
    """The lines `code` printed in a fresh interpreter, which must have lived
    to print "done" last."""
    out = fresh_python(code, *args)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and lines[-1:] == ["done"], (
        f"the interpreter died (status {out.returncode}) after: {lines[-1:]}; {out.stderr[-300:]}")
    return lines


CLASSES = ["Game", "Position", "Variant", "Player", "Record", "Result", "Move", "Kind", "Piece",
           "SeatScore"]


@pytest.mark.parametrize("name", CLASSES)
def test_an_object_whose_init_did_not_run_refuses_every_use(name):
    lines = survived(UNINITIALISED, name)
    results = dict(line.split("\t", 1) for line in lines[:-1])
    cls = getattr(koma, name)
    defined = {m for m, v in vars(cls).items() if v is not None and not isinstance(v, staticmethod)}
    # What the builtins call; Python's own repr, hash and == read nothing of the object.
    dunders = {"repr": {"__repr__"}, "str": {"__str__", "__repr__"}, "hash": {"__hash__"},
               "==": {"__eq__"}}
    wrong = {}
    for what, result in results.items():
        member = what.split(" ")[0]
        if member in defined or dunders.get(what, {"__reduce__"}) & defined:
            ok = result.startswith("TypeError: ") and f"koma.{name} " in result and \
                f"{name}.__init__ was not called" in result
        elif what == "hash" and vars(cls).get("__hash__", 0) is None:
            ok = result.startswith("TypeError: unhashable type")
        else:
            ok = result == "no error"
        if not ok:
            wrong[what] = result
    assert not wrong, wrong
    assert {"repr", "copy", "pickle 0", "pickle 5"} <= results.keys()


USED_AS_ARGUMENTS = r"""
import koma

def empty(cls):
    return cls.__new__(cls)

v = koma.Variant.load("shogi")
g = koma.Game(v)
calls = {
    "Game(variant)": lambda: koma.Game(empty(koma.Variant)),
    "Game(position)": lambda: koma.Game(v, position=empty(koma.Position)),
    "Game.play": lambda: g.play(empty(koma.Move)),
    "Game.is_legal": lambda: g.is_legal(empty(koma.Move)),
    "Position.move_text": lambda: v.start_position().move_text(empty(koma.Move)),
    "Variant.move_to_action": lambda: v.move_to_action(empty(koma.Move)),
    "Game.from_record": lambda: koma.Game.from_record(empty(koma.Record)),
    "Player.choose": lambda: koma.Player(v, "easy").choose(empty(koma.Game)),
    "Player(variant)": lambda: koma.Player(empty(koma.Variant), "easy"),
    "perft(game)": lambda: koma.perft(empty(koma.Game), 1),
    "perft(variant)": lambda: koma.perft(empty(koma.Variant), 1),
    "Position.from_text": lambda: koma.Position.from_text(empty(koma.Variant), "x"),
}
for what, call in calls.items():
    try:
        call()
        print(what + "\tno error", flush=True)
    except Exception as e:
        print(what + "\t" + type(e).__name__ + ": " + str(e), flush=True)
print("done", flush=True)
"""


def test_an_object_whose_init_did_not_run_is_refused_as_an_argument():
    lines = survived(USED_AS_ARGUMENTS)
    results = dict(line.split("\t", 1) for line in lines[:-1])
    assert len(results) == 12
    for what, result in results.items():
        assert result.startswith("TypeError: ") and "__init__ was not called" in result, (
            what, result)


# Kind, Piece, SeatScore and Player define no pickling: Python's protocols 0
# and 1 then made an instance of pybind11's base class, which aborted.
PICKLED = r"""
import copy, pickle
import koma

v = koma.Variant.load("shogi")
p = v.start_position()
for what, o in [("Kind", v.kinds[0]), ("Piece", p.at(0)), ("SeatScore", p.score(1)),
                ("Player", koma.Player(v, "easy"))]:
    for how, call in [(f"pickle {n}", lambda n=n: pickle.dumps(o, n))
                      for n in range(pickle.HIGHEST_PROTOCOL + 1)] + [
            ("copy", lambda: copy.copy(o)), ("__reduce__", lambda: o.__reduce__())]:
        try:
            call()
            print(what, how, "no error", flush=True)
        except TypeError as e:
            print(what, how, "TypeError:", e, flush=True)
print("done", flush=True)
"""


def test_values_without_pickling_refuse_every_protocol():
    lines = survived(PICKLED)
    assert len(lines) == 4 * (pickle.HIGHEST_PROTOCOL + 3) + 1
    for line in lines[:-1]:
        what = line.split(" ")[0]
        assert f"TypeError: koma.{what} objects do not pickle" in line, line


def test_objects_returned_by_reference_are_initialised():
    # A Record's result comes back as a reference into the record (no holder
    # of its own): in use, not refused as an object whose __init__ never ran.
    r = koma.Record()
    r.result = koma.Result([2, 1], "checkmate")
    assert r.result.places == [2, 1] and r.result.reason == "checkmate"
    assert r.result == koma.Result([2, 1], "checkmate")
