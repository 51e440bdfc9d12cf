// Pieces (docs/descriptor.md, "pieces" and "Betza moves"): each key of a
// piece on its own. Moves are checked against the tables of Betza atoms and
// modifiers, for one piece alone on a 9x9 board (x to the piece's right, y
// forward; shogi square names, files 9..1 from the left, ranks a..i from the
// top).
#include <doctest/doctest.h>

#include <algorithm>

#include "support.hpp"

namespace {

using Strings = std::vector<std::string>;

// The moves of a piece T with `betza` moves on 5e, owned by A (facing up) or
// B (facing down), on an otherwise empty 9x9 board (the kings on 8i and 2a,
// off its lines). dead_squares: allowed, so that only the moves decide.
Strings moves_of(const std::string& betza, int seat = 1) {
  const std::string setup =
      seat == 1 ? "{A: {K: 8i, T: 5e}, B: {K: 2a}}" : "{A: {K: 8i}, B: {K: 2a, T: 5e}}";
  auto v = koma::Variant::parse(
      "koma: 1\nname: betza\nboard: {width: 9, height: 9}\nseats:\n"
      "  - {name: A, facing: up}\n  - {name: B, facing: down}\n"
      "pieces:\n  K: {name: King, moves: K, royal: true}\n"
      "  T: {name: Test, moves: '" +
          betza + "'}\nsetup: " + setup + "\ndead_squares: allowed\n",
      "betza.yaml");
  Strings out;
  for (const std::string& m : test::sorted_texts(koma::Game(v->start_position(seat))))
    if (m.rfind("5e", 0) == 0) out.push_back(m);
  return out;
}

// The moves of T on 5e as moves_of gives them, with more pieces S (moving
// one step ahead) where `a` (A's, facing up) and `b` (B's) say: "5c 3e".
Strings moves_among(const std::string& betza, const std::string& a, const std::string& b) {
  auto squares = [](const std::string& list) {
    std::string out;
    for (std::size_t i = 0; i < list.size(); i += 3)
      out += (out.empty() ? "" : ", ") + list.substr(i, 2);
    return "[" + out + "]";
  };
  auto v = koma::Variant::parse(
      "koma: 1\nname: betza\nboard: {width: 9, height: 9}\nseats:\n"
      "  - {name: A, facing: up}\n  - {name: B, facing: down}\n"
      "pieces:\n  K: {name: King, moves: K, royal: true}\n"
      "  S: {name: Screen, moves: fW}\n  T: {name: Test, moves: '" +
          betza + "'}\nsetup: {A: {K: 8i, T: 5e, S: " + squares(a) +
          "}, B: {K: 2a, S: " + squares(b) + "}}\ndead_squares: allowed\n",
      "betza.yaml");
  Strings out;
  for (const std::string& m : test::sorted_texts(koma::Game(v->start_position(1))))
    if (m.rfind("5e", 0) == 0) out.push_back(m);
  return out;
}

}  // namespace

TEST_CASE("pieces.T.moves: m moves only, c captures only, p hops over one piece") {
  // A's X on 5c (ahead, two squares up), B's on 3e (two squares right) and
  // on 5a; the board is otherwise empty but for the kings on 8i and 2a.
  const std::string own = "5c", theirs = "3e 5a";
  // m: to the empty squares up to the first piece, taking nothing.
  CHECK(moves_among("mR", own, theirs) ==
        Strings{"5e4e", "5e5d", "5e5f", "5e5g", "5e5h", "5e5i", "5e6e", "5e7e", "5e8e", "5e9e"});
  // c: only the first piece of each line, if it is an enemy.
  CHECK(moves_among("cR", own, theirs) == Strings{"5e3e"});
  // p: past the screen (own 5c, enemy 3e) to the empty squares beyond, and
  // onto the next piece if it is an enemy (5a); no screen to the left or
  // behind, no move there.
  CHECK(moves_among("pR", own, theirs) == Strings{"5e1e", "5e2e", "5e5a", "5e5b"});
  // cp: the hop's captures only; mp: its moves only.
  CHECK(moves_among("cpR", own, theirs) == Strings{"5e5a"});
  CHECK(moves_among("mpR", own, theirs) == Strings{"5e1e", "5e2e", "5e5b"});
  // The gold cannon: moves as a rook, captures by hopping.
  CHECK(moves_among("mRcpR", own, theirs) == Strings{"5e4e", "5e5a", "5e5d", "5e5f", "5e5g", "5e5h",
                                                     "5e5i", "5e6e", "5e7e", "5e8e", "5e9e"});
  // A range counts from the piece, the screen's square included: pB2 jumps
  // an adjacent piece (4d, own; 6d, enemy) to the square right behind it
  // (3c empty: a move; 7c enemy: a capture), and nothing farther.
  CHECK(moves_among("pB2", "4d", "6d 7c 2b") == Strings{"5e3c", "5e7c"});
  CHECK(moves_among("pB", "4d", "6d 7c 2b") == Strings{"5e2b", "5e3c", "5e7c"});
  // The modifiers combine with the directional ones, in any order.
  CHECK(moves_among("fmR", own, theirs) == Strings{"5e5d"});
  CHECK(moves_among("mfR", own, theirs) == Strings{"5e5d"});
  CHECK(moves_among("fpR", own, theirs) == Strings{"5e5a", "5e5b"});
}

TEST_CASE("pieces.T.moves: a hop needs a rider or a range of at least 2") {
  for (const char* betza : {"pW", "pN", "pK", "pR1", "cpF"}) {
    CAPTURE(betza);
    CHECK_THROWS_WITH_AS(moves_of(betza), doctest::Contains("a hopper ('p') lands beyond"),
                         koma::DescriptorError);
  }
  CHECK_THROWS_WITH_AS(moves_of("xR"), doctest::Contains("m c p (move only, capture only, hop)"),
                       koma::DescriptorError);
}

TEST_CASE("pieces.T.moves: Fairy-Stockfish's runs of directions get koma's spelling") {
  // koma reads a letter pair first (fs, fr): for a rook or a step they mean
  // nothing, and the error names the components that say it.
  CHECK_THROWS_WITH_AS(moves_of("fsW"), doctest::Contains("did you mean 'fWsW'?"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(moves_of("frlR"), doctest::Contains("did you mean 'fRsR'?"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(moves_of("flR2"), doctest::Contains("did you mean 'fR2lR2'?"),
                       koma::DescriptorError);
  // What it names moves as Fairy-Stockfish's spelling does there.
  CHECK(moves_of("fWsW") == Strings{"5e4e", "5e5d", "5e6e"});
}

TEST_CASE("pieces.U.moves: a hopper checks past its screen (cannon shogi)") {
  auto v = test::variant("cannonshogi.yaml");
  auto legal = [&](const std::string& sfen) {
    return test::sorted_texts(koma::Game(koma::Position::from_text(v, sfen)));
  };
  // Gote's silver cannon on 5a, Sente's king on 5i; Sente's pawn on 5e is
  // the one screen: check. The king steps off the file (5h stays on it),
  // or the pawn leaves it (5d keeps it a screen).
  const std::string one_screen = "4a3k/9/9/9/4P4/9/9/9/4K4 b - 1";
  CHECK(koma::Position::from_text(v, one_screen).in_check(1));
  CHECK(legal(one_screen) == Strings{"5e4e", "5e6e", "5i4h", "5i4i", "5i6h", "5i6i"});
  // With a pawn in hand, a second screen anywhere on the file parries too
  // (5b 5c 5d 5f 5g 5h); a drop elsewhere does not.
  const Strings with_drops = legal("4a3k/9/9/9/4P4/9/9/9/4K4 b P 1");
  CHECK(with_drops.size() == 12);
  CHECK(std::count_if(with_drops.begin(), with_drops.end(),
                      [](const std::string& m) { return m.rfind("P*5", 0) == 0; }) == 6);
  // Two screens (pawn 5e, gold 5g): no check, but each must stay on the
  // file: the gold to 5f or 5h, the pawn to 5d.
  Strings screens;
  for (const std::string& m : legal("4a3k/9/9/9/4P4/9/4G4/9/4K4 b - 1"))
    if (m[0] == '5' && (m[1] == 'e' || m[1] == 'g')) screens.push_back(m);
  CHECK(screens == Strings{"5e5d", "5g5f", "5g5h"});
  // No screen: no check; but a pawn dropped between them would be one. The
  // drops: the 78 empty squares but the 7 of file 5 between; and the king's 5.
  const std::string open_file = "4a3k/9/9/9/9/9/9/9/4K4 b P 1";
  CHECK_FALSE(koma::Position::from_text(v, open_file).in_check(1));
  CHECK(legal(open_file).size() == 71 + 5);
  // Gote's silver steps onto the file, between: a check by the cannon.
  koma::Game g(koma::Position::from_text(v, "4a3k/9/3s5/9/9/9/9/9/4K4 w - 1"));
  g.play("6c5d");
  CHECK(g.position().in_check(1));
}

TEST_CASE("pieces.T.moves: Betza atoms, ranges and modifiers as docs/descriptor.md lists them") {
  CHECK(moves_of("W") == Strings{"5e4e", "5e5d", "5e5f", "5e6e"});
  CHECK(moves_of("F") == Strings{"5e4d", "5e4f", "5e6d", "5e6f"});
  CHECK(moves_of("D") == Strings{"5e3e", "5e5c", "5e5g", "5e7e"});
  CHECK(moves_of("A") == Strings{"5e3c", "5e3g", "5e7c", "5e7g"});
  // Ranges: at most two steps; a rook of at most three squares; a rider to the edge.
  CHECK(moves_of("W2") == Strings{"5e3e", "5e4e", "5e5c", "5e5d", "5e5f", "5e5g", "5e6e", "5e7e"});
  CHECK(moves_of("R3") == Strings{"5e2e", "5e3e", "5e4e", "5e5b", "5e5c", "5e5d", "5e5f", "5e5g",
                                  "5e5h", "5e6e", "5e7e", "5e8e"});
  CHECK(moves_of("fR") == Strings{"5e5a", "5e5b", "5e5c", "5e5d"});
  // The nightrider repeats each knight's leap: 4c then 3a, 3d then 1c, ...
  CHECK(moves_of("NN") == Strings{"5e1c", "5e1g", "5e3a", "5e3d", "5e3f", "5e3i", "5e4c", "5e4g",
                                  "5e6c", "5e6g", "5e7a", "5e7d", "5e7f", "5e7i", "5e9c", "5e9g"});
  // Modifiers: forward; the knight's two narrow forward jumps (1 aside, 2
  // ahead); the two wide ones (2 aside, 1 ahead); left-forward narrow (-1, 2)
  // and forward-left wide (-2, 1): left is towards file 9.
  CHECK(moves_of("fW") == Strings{"5e5d"});
  CHECK(moves_of("ffN") == Strings{"5e4c", "5e6c"});
  CHECK(moves_of("fsN") == Strings{"5e3d", "5e7d"});
  CHECK(moves_of("lfN") == Strings{"5e6c"});
  CHECK(moves_of("flN") == Strings{"5e7d"});
  // A piece facing down moves as if the board were turned round: its
  // forward is down the board, its left towards file 1.
  CHECK(moves_of("fW", 2) == Strings{"5e5f"});
  CHECK(moves_of("lfN", 2) == Strings{"5e4g"});
}

TEST_CASE("pieces.R.name, pieces.R.kanji, pieces.R.value: what a kind is called and worth") {
  auto v = test::variant("shogi.yaml");
  const koma::PieceKindInfo& rook = v->kind_info(*v->kind_by_letter("R"));
  CHECK(rook.letter == "R");
  CHECK(rook.name == "Rook");
  CHECK(rook.kanji == "飛");
  CHECK(rook.value == 10);
  const koma::PieceKindInfo& dragon = v->kind_info(*v->kind_by_letter("+R"));
  CHECK(dragon.name == "Dragon");
  CHECK(dragon.kanji == "龍");
  CHECK(dragon.value == 13);
  // Not written: no kanji, value 0.
  auto bare = koma::Variant::parse(
      "koma: 1\nname: bare\nboard: {width: 3, height: 3}\nseats:\n  - {name: A, facing: up}\n"
      "  - {name: B, facing: down}\npieces:\n  K: {name: King, moves: K, royal: true}\n"
      "setup: 1K21/3/1K11 1 - 1 -\n",
      "bare.yaml");
  const koma::PieceKindInfo& king = bare->kind_info(*bare->kind_by_letter("K"));
  CHECK(king.name == "King");
  CHECK(king.kanji.empty());
  CHECK(king.value == 0);
}

TEST_CASE("pieces.K.royal: a royal piece may not be left attacked, another piece may") {
  // A's king K (royal) on 3c and M (the same moves, not royal) on 1c; B's
  // king on 2a attacks rank b. K may only step to 2c; M may go to 1b and 2b
  // as well as 2c.
  auto v = koma::Variant::parse(
      "koma: 1\nname: royal\nboard: {width: 3, height: 3}\nseats:\n  - {name: A, facing: up}\n"
      "  - {name: B, facing: down}\npieces:\n  K: {name: King, moves: K, royal: true}\n"
      "  M: {name: Man, moves: K}\nsetup: {A: {K: 3c, M: 1c}, B: {K: 2a}}\n",
      "royal.yaml");
  CHECK(v->kind_info(*v->kind_by_letter("K")).royal);
  CHECK_FALSE(v->kind_info(*v->kind_by_letter("M")).royal);
  CHECK(test::sorted_texts(koma::Game(v)) == Strings{"1c1b", "1c2b", "1c2c", "3c2c"});
}
