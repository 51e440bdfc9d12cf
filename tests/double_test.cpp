// Double moves (docs/descriptor.md, "Double moves: double"): two steps in one
// turn, each of which may capture — chu shogi's lion, horned falcon and
// soaring eagle — on a 9x9 board with shogi square names.
#include <doctest/doctest.h>

#include <algorithm>

#include "support.hpp"

namespace {

using Strings = std::vector<std::string>;

// A two-seat variant on 9x9 with kings and the piece T (`moves`, `double`),
// S (one step ahead) as something to take; `setup` places them, `rules` adds
// top-level keys.
std::shared_ptr<const koma::Variant> doubles(const std::string& moves, const std::string& dbl,
                                             const std::string& setup,
                                             const std::string& rules = "") {
  return koma::Variant::parse(
      "koma: 1\nname: doubles\nboard: {width: 9, height: 9}\nseats:\n"
      "  - {name: A, facing: up}\n  - {name: B, facing: down}\n"
      "pieces:\n  K: {name: King, moves: K, royal: true}\n"
      "  S: {name: Stone, moves: fW}\n"
      "  T: {name: Test, moves: '" +
          moves + "', double: '" + dbl + "'}\nsetup: " + setup + "\ndead_squares: allowed\n" +
          rules,
      "doubles.yaml");
}

// The moves of the piece on `from` in the start position, as text.
Strings moves_from(const std::shared_ptr<const koma::Variant>& v, const std::string& from) {
  Strings out;
  for (const std::string& m : test::sorted_texts(koma::Game(v)))
    if (m.rfind(from, 0) == 0) out.push_back(m);
  return out;
}

// The double moves among `moves` (text of three squares).
Strings doubles_among(Strings moves) {
  moves.erase(std::remove_if(moves.begin(), moves.end(),
                             [](const std::string& m) { return m.size() != 6; }),
              moves.end());
  return moves;
}

std::size_t count_double(const Strings& moves) {
  return static_cast<std::size_t>(std::count_if(
      moves.begin(), moves.end(), [](const std::string& m) { return m.size() == 6; }));
}

const char* const kAlone = "{A: {K: 9i, T: 5e}, B: {K: 2a}}";

}  // namespace

TEST_CASE("pieces.T.double: a lone lion has 24 single moves and 8 x 8 double ones") {
  const Strings moves = moves_from(doubles("KNAD", "KaK", kAlone), "5e");
  CHECK(moves.size() == 88);
  CHECK(count_double(moves) == 64);
  // A step out and back (jitto), a step on, a step aside, in 6-square text.
  for (const char* m : {"5e4d5e", "5e5d5c", "5e5d4d", "5e6f7g", "5e5d4c"}) {
    CAPTURE(m);
    CHECK(std::find(moves.begin(), moves.end(), m) != moves.end());
  }
  // Each path is a move of its own: 5c is reached by a jump and by three paths.
  CHECK(std::count_if(moves.begin(), moves.end(), [](const std::string& m) {
          return m.size() >= 4 && m.substr(m.size() - 2) == "5c";
        }) == 4);
}

TEST_CASE("pieces.T.double: the falcon's and the eagle's go straight on or back") {
  // The horned falcon: one step forward, then on or back.
  CHECK(doubles_among(moves_from(doubles("BsRbRfWfD", "fWavW", kAlone), "5e")) ==
        Strings{"5e5d5c", "5e5d5e"});
  // The soaring eagle: one step diagonally forward, then on along it or back.
  CHECK(doubles_among(moves_from(doubles("RbBfFfA", "fFavF", kAlone), "5e")) ==
        Strings{"5e4d3c", "5e4d5e", "5e6d5e", "5e6d7c"});
  // Facing down, forward is down the board.
  auto down = doubles("BsRbRfWfD", "fWavW", "{A: {K: 8i}, B: {K: 1a, T: 5e}}");
  koma::Game g(down->start_position(2));
  CHECK(test::has_move(g, "5e5f5g"));
  CHECK_FALSE(test::has_move(g, "5e5d5c"));
}

TEST_CASE("pieces.T.double: both steps capture, igui takes without moving, undo restores") {
  // B's stones on 5d and 5c; a stone of A's own on 4d.
  auto v = doubles("KNAD", "KaK", "{A: {K: 9i, T: 5e, S: 4d}, B: {K: 1a, S: [5d, 5c]}}");
  const int stone = 1;  // the kind index of S
  koma::Game g(v);
  const std::string before = g.position().text();
  CHECK_FALSE(test::has_move(g, "5e4d3c"));  // onto its own stone first
  CHECK_FALSE(test::has_move(g, "5e5d4d"));  // then onto its own stone
  auto square = [&](const char* name) { return *g.position().variant().parse_square(name); };
  g.play("5e5d5c");  // takes both: the piece on 5c, both stones in A's hand
  CHECK(g.position().in_hand(1, stone) == 2);
  CHECK(g.position().at(square("5c"))->kind == 2);
  CHECK_FALSE(g.position().at(square("5d")).has_value());
  CHECK_FALSE(g.position().at(square("5e")).has_value());
  g.undo();
  CHECK(g.position().text() == before);
  g.play("5e5d5e");  // igui: takes on 5d and stays on 5e
  CHECK(g.position().in_hand(1, stone) == 1);
  CHECK(g.position().at(square("5e"))->kind == 2);
  CHECK_FALSE(g.position().at(square("5d")).has_value());
  CHECK(g.position().at(square("5c")).has_value());
  g.undo();
  CHECK(g.position().text() == before);
  // Jitto: out to an empty square and back, a pass.
  g.play("5e6d5e");
  auto board = [](const std::string& text) { return text.substr(0, text.find(' ')); };
  CHECK(board(g.position().generic_text()) == board(before));
  CHECK(g.position().ply() == 2);
}

TEST_CASE("pieces.T.double: moves text names the step a bad double move gets wrong") {
  auto v = doubles("KNAD", "KaK", kAlone);
  koma::Game g(v);
  const std::string before = g.position().text();
  // A truncated last square is no square; a middle square a step cannot
  // reach, or a last square the second step cannot, is an illegal move.
  CHECK_THROWS_WITH_AS(g.play("5e4d3"), doctest::Contains("(the second step's square)"),
                       koma::NotationError);
  CHECK_THROWS_WITH_AS(g.play("5e3c2b"),
                       "the first step: the Test on 5e cannot step to 3c "
                       "in a double move",
                       koma::IllegalMove);
  CHECK_THROWS_WITH_AS(g.play("5e4d2b"), "the second step: the Test cannot step from 4d to 2b",
                       koma::IllegalMove);
  CHECK(g.position().text() == before);
  // A piece without a double move.
  CHECK_THROWS_WITH_AS(g.play("9i8h7g"), doctest::Contains("the King on 9i has no double move"),
                       koma::IllegalMove);
  CHECK(g.position().text() == before);
}

TEST_CASE("pieces.T.double: written as <first>a<second>, capturing only where its moves do") {
  auto error = [](const std::string& moves, const std::string& dbl) {
    try {
      doubles(moves, dbl, kAlone);
    } catch (const koma::DescriptorError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("KNAD", "KK").find("a double move is written <first step>a<second step>") !=
        std::string::npos);
  CHECK(error("KNAD", "KaKaK").find("one 'a' only") != std::string::npos);
  CHECK(error("KNAD", "RaK").find("the first step of a double move is one step") !=
        std::string::npos);
  CHECK(error("KNAD", "fWavF").find("the first one's shape (W)") != std::string::npos);
  CHECK(error("KNAD", "fWalW").find("'l' is no direction of a second step") != std::string::npos);
  CHECK(error("KNAD", "KaN").find("W, F or K") != std::string::npos);
  // The lion's double move reaches two steps away: K alone does not capture there.
  CHECK(error("K", "KaK").find("where its moves 'K' do not capture") != std::string::npos);
  CHECK(error("KNmAD", "KaK").find("do not capture") != std::string::npos);
  CHECK(error("KNAD", "KaK") == "no error");
}

TEST_CASE("pieces.T.double: where royals may not be left attacked, each is judged") {
  // A's lion on 5h shields its king on 5i from B's rook on 5a (R: a rook).
  auto v = koma::Variant::parse(
      "koma: 1\nname: doubles\nboard: {width: 9, height: 9}\nseats:\n"
      "  - {name: A, facing: up}\n  - {name: B, facing: down}\n"
      "pieces:\n  K: {name: King, moves: K, royal: true}\n  R: {name: Rook, moves: R}\n"
      "  T: {name: Lion, moves: KNAD, double: KaK}\n"
      "setup: {A: {K: 5i, T: 5h}, B: {K: 1a, R: 5a}}\n",
      "doubles.yaml");
  koma::Game g(v);
  CHECK(test::has_move(g, "5h4g5h"));        // out and back: the line stays shut
  CHECK(test::has_move(g, "5h5g5f"));        // along the line
  CHECK_FALSE(test::has_move(g, "5h4g3f"));  // off the line: the king is left attacked
  CHECK(g.why_illegal(g.position().parse_move("5h4g3f")) == "it leaves seat 1's king in check");
}
