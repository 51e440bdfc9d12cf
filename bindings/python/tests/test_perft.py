"""perft through the Python API against koma-perft, published counts and the
independent implementation's counts of tests/data."""
import subprocess

import pytest

import koma
from conftest import VARIANTS_DIR, jsonl, mode_variant, shipped, shipped_row, texts

# A depth per shipped variant, its row's depth.python (tests/data/variants.jsonl):
# one that counts a few hundred thousand to a few million leaves.
DEPTHS = {row["variant"]: row["depth"]["python"] for row in shipped()}


def driver_count(perft, variant_file, depth, *args):
    out = subprocess.run([perft, "--variant", str(variant_file), "--depth", str(depth), *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("nodes "), out.stdout
    return int(lines[-1].split()[1]), lines[:-1]


def test_the_shipped_variants_are_the_source_trees():
    assert koma.variants() == sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))
    assert set(koma.variants()) == set(DEPTHS)


@pytest.mark.parametrize("name", koma.variants())
def test_start_perft_equals_koma_perft(name, koma_perft):
    depth = DEPTHS[name]
    expected, _ = driver_count(koma_perft, VARIANTS_DIR / f"{name}.yaml", depth)
    assert expected > 1000
    v = koma.Variant.load(name)
    assert koma.perft(v, depth) == expected
    assert koma.perft(koma.Game(v), depth) == expected
    # Playing every leaf counts the same (one ply less, to keep it quick).
    assert koma.perft(v, depth - 1, mode="full") == koma.perft(v, depth - 1)


@pytest.mark.parametrize("name", ["minishogi", "shipley-team-diagonal", "yonin"])
def test_start_perft_with_first_seat_equals_koma_perft(name, koma_perft):
    v = koma.Variant.load(name)
    for seat in range(2, v.seats + 1):
        expected, _ = driver_count(koma_perft, VARIANTS_DIR / f"{name}.yaml", 4,
                                   "--first-seat", str(seat))
        assert koma.perft(koma.Variant.load(name, first_seat=seat), 4) == expected
        assert koma.perft(v, 4, position=v.start_position(first_seat=seat)) == expected


def test_perft_divide_equals_koma_perft_divide(koma_perft, shogi):
    _, lines = driver_count(koma_perft, VARIANTS_DIR / "shogi.yaml", 3, "--option",
                            "impasse=none", "--divide")
    expected = {m: int(n) for m, n in (line.split() for line in lines
                                       if not line.startswith("time "))}
    assert len(expected) == 30
    assert koma.perft_divide(shogi, 3) == expected


def test_shogi_published_counts(shogi):
    # docs/api.md#perft: 30, 900, 25 470, 719 731 (impasse=none), shogi's row.
    counts = shipped_row("shogi")["perft"]
    assert {d: koma.perft(shogi, int(d)) for d in counts} == counts
    assert koma.perft(shogi, 0) == 1


# Fairy-Stockfish's start-position counts: the rows with `reference:
# fairy-stockfish` (tests/data/variants.jsonl).
FAIRY = {row["variant"]: row for row in shipped() if row.get("reference") == "fairy-stockfish"}


@pytest.mark.parametrize("name", sorted(FAIRY))
def test_family_start_counts_equal_fairy_stockfish(name):
    v = koma.Variant.load(name)
    counts = FAIRY[name]["perft"]
    assert {d: koma.perft(v, int(d)) for d in counts} == counts


def test_perft_of_a_game_modes_and_divide(shogi):
    g = koma.Game(shogi)
    for text in ["7g7f", "3c3d", "8h2b+"]:
        g.play(text)
    position = g.position
    bulk = koma.perft(g, 3)
    assert bulk == koma.perft(shogi, 3, position=position)
    assert bulk == koma.perft(shogi, 3, position=position.text)
    assert koma.perft(g, 3, mode="full") == bulk
    assert koma.perft(g, 3, mode="bulk") == bulk
    divide = koma.perft_divide(g, 3)
    assert sum(divide.values()) == bulk
    assert sorted(divide) == texts(g.legal_moves())
    assert koma.perft_divide(shogi, 3, position=position) == divide
    # Divide at depth 1: every move counts 1.
    assert set(koma.perft_divide(g, 1).values()) == {1}
    # A game that is over counts nothing; depth 0 counts the root.
    mate = koma.Game(shogi, position="4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
    mate.play("G*5b")
    assert mate.over
    assert koma.perft(mate, 1) == 0
    assert koma.perft(mate, 2) == 0
    assert koma.perft(g, 0) == 1


def test_perft_sees_the_games_history():
    # Minishogi loses on the fourth occurrence (the mover's opponent wins, no
    # draw): after three rounds back to the start minus the last move, the
    # last move of the round ends the game and has no children.
    v = koma.Variant.load("minishogi")
    g = koma.Game(v)
    rnd = ["1e1d", "5a5b", "1d1e", "5b5a"]
    for _ in range(2):
        for m in rnd:
            g.play(m)
    for m in rnd[:3]:
        g.play(m)
    fresh = koma.Game(v, position=g.position)
    assert koma.perft(g, 2) < koma.perft(fresh, 2)
    assert koma.perft(g, 1) == koma.perft(fresh, 1)


# --- the independent implementation's positions -----------------------------

def position_rows():
    rows = []
    for name in ["yonin-positions.jsonl", "shipley-positions.jsonl"]:
        for i, r in enumerate(jsonl(name)):
            rows.append(pytest.param(r["mode"], r["position"], r["legal"], r["perft"],
                                     id=f"{name}:{i + 1}"))
    for i, r in enumerate(jsonl("shogi-rule-edges.jsonl")):
        rows.append(pytest.param("shogi", r["sfen"], r["legal"], r["perft"],
                                 id=f"shogi-rule-edges.jsonl:{i + 1}"))
    return rows


@pytest.mark.parametrize("mode,text,legal,counts", position_rows())
def test_data_positions_legal_moves_and_perft(mode, text, legal, counts):
    if mode == "shogi":
        v = koma.Variant.load("shogi", impasse="none")
    else:
        v = mode_variant(mode)
    g = koma.Game(v, position=text)
    assert g.position.text == text
    assert texts(g.legal_moves()) == legal
    assert texts(g.position.legal_moves()) == legal
    for depth, count in counts.items():
        assert koma.perft(v, int(depth), position=text) == count
        assert koma.perft(g, int(depth), mode="full") == count
    depth = max(int(d) for d in counts)
    divide = koma.perft_divide(v, depth, position=text)
    assert sorted(divide) == legal
    assert sum(divide.values()) == counts[str(depth)]


def test_data_files_are_all_read():
    assert len(position_rows()) == 40 + 24 + 22


# --- Fairy-Stockfish's positions of the two-player family -------------------

def algebraic_square(usi, width, height):
    digits = len(usi) - len(usi.lstrip("0123456789"))
    file, rank = int(usi[:digits]), ord(usi[digits]) - ord("a")
    return chr(ord("a") + width - file) + str(height - rank)


def in_notation(usi, v):
    """A USI move in the variant's notation (algebraic squares above 9x9)."""
    if v.width <= 9 and v.height <= 9:
        return usi
    promote = usi.endswith("+")
    body = usi[:-1] if promote else usi
    if "*" in body:
        letter, square = body.split("*")
        out = letter + "*" + algebraic_square(square, v.width, v.height)
    else:
        cut = len(body) - len(body.lstrip("0123456789")) + 1
        out = (algebraic_square(body[:cut], v.width, v.height)
               + algebraic_square(body[cut:], v.width, v.height))
    return out + ("+" if promote else "")


def fsf_rows():
    return [pytest.param(r, id=f"{r['variant']}:{i + 1}")
            for i, r in enumerate(jsonl("fsf-family-positions.jsonl"))]


@pytest.mark.parametrize("row", fsf_rows())
def test_fairy_stockfish_positions(row):
    name = row["variant"]
    v = koma.Variant.load(name)
    # Fairy-Stockfish lists a pawn drop that mates; the same rules with such
    # drops allowed count as it does (cannon shogi allows them already).
    drop_mate = FAIRY[name].get("drop_mate")
    listed = koma.Variant.parse(
        f"koma: 1\nextends: {name}.yaml\nname: listed\n"
        f"drops: {{{drop_mate}: {{mate: allowed}}}}\n", origin="listed.yaml") if drop_mate else v
    wide = "moves_usi10" in row
    moves = row["moves_usi10"] if wide else row["moves"]
    divide1 = row["divide1_usi10"] if wide else row["divide1"]
    start = row.get("start_sfen")
    g = koma.Game(v, position=start) if start else koma.Game(v)
    other = koma.Game(listed, position=start) if start else koma.Game(listed)
    for m in moves:
        g.play(in_notation(m, v))
        other.play(in_notation(m, v))
    if v.uses_sfen:
        assert koma.Position.from_text(v, row["sfen"]) == g.position
    expected = {in_notation(m, v): n for m, n in divide1.items()}
    assert koma.perft_divide(other, 2) == expected
    for d in range(1, 4):
        assert koma.perft(other, d) == row["perft"][d - 1]
        assert koma.perft(g, d) <= row["perft"][d - 1]
