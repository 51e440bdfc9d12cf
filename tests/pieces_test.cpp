// Pieces (docs/descriptor.md, "pieces" and "Betza moves"): each key of a
// piece on its own. Moves are checked against the tables of Betza atoms and
// modifiers, for one piece alone on a 9x9 board (x to the piece's right, y
// forward; shogi square names, files 9..1 from the left, ranks a..i from the
// top).
#include <doctest/doctest.h>

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

}  // namespace

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
