// The board and the seats around it (docs/descriptor.md, "board" and "seats,
// turn_order, teams"): each atom on its own, on small descriptors written
// here. Squares are named as docs/descriptor.md, "Square names and regions",
// says: shogi names count files from the right and ranks from the top,
// algebraic names files from the left and ranks from the bottom.
#include <doctest/doctest.h>

#include "support.hpp"

namespace {

// Two kings on a board `board` (a YAML mapping), A facing `a` and B facing
// `b`, placed by `setup`.
std::shared_ptr<const koma::Variant> board_of(const std::string& board, const std::string& setup,
                                              const std::string& a = "up",
                                              const std::string& b = "down",
                                              const koma::Options& options = {}) {
  return koma::Variant::parse("koma: 1\nname: board\nboard: " + board +
                                  "\nseats:\n  - {name: A, facing: " + a +
                                  "}\n  - {name: B, facing: " + b +
                                  "}\npieces:\n  K: {name: King, moves: K, royal: true}\n"
                                  "  P: {name: Pawn, moves: fW}\nsetup: " +
                                  setup + "\n",
                              "board.yaml", options);
}

// Yonin with its seats playing in `order` (YAML's flow list of seat names).
std::shared_ptr<const koma::Variant> yonin_in_order(const std::string& order) {
  return koma::Variant::parse(std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR +
                                  "/yonin.yaml\nname: ordered\nturn_order: " + order + "\n",
                              "ordered.yaml");
}

}  // namespace

TEST_CASE("board.width, board.height: the columns and rows of the board, 1 to 16") {
  // Three columns and five rows: files 3..1, ranks a..e.
  auto v = board_of("{width: 3, height: 5}", "{A: {K: 2e}, B: {K: 2a}}");
  CHECK(v->width() == 3);
  CHECK(v->height() == 5);
  CHECK(v->squares() == 15);
  CHECK(v->square_name(0) == "3a");
  CHECK(v->square_name(14) == "1e");
  CHECK_FALSE(v->parse_square("4a").has_value());
  CHECK_FALSE(v->parse_square("1f").has_value());
  // A's king on the bottom row, in the middle: nothing below it.
  CHECK(test::sorted_texts(koma::Game(v)) ==
        std::vector<std::string>{"2e1d", "2e1e", "2e2d", "2e3d", "2e3e"});
  for (const char* board : {"{width: 0, height: 5}", "{width: 17, height: 5}",
                            "{width: 3, height: 0}", "{width: 3, height: 17}"}) {
    CAPTURE(board);
    CHECK_THROWS_AS(board_of(board, "{A: {K: 2e}, B: {K: 2a}}"), koma::DescriptorError);
  }
}

TEST_CASE("board.squares: shogi names up to 9x9, algebraic above, either where asked") {
  auto shogi = board_of("{width: 3, height: 5}", "{A: {K: 2e}, B: {K: 2a}}");
  CHECK(shogi->square_name(0) == "3a");
  // The same board named algebraically: a5 is the top-left cell, c1 the
  // bottom-right; A's king stands on b1.
  auto algebraic =
      board_of("{width: 3, height: 5, squares: algebraic}", "{A: {K: b1}, B: {K: b5}}");
  CHECK(algebraic->square_name(0) == "a5");
  CHECK(algebraic->square_name(14) == "c1");
  CHECK(algebraic->parse_square("a5") == koma::Square{0});
  CHECK_FALSE(algebraic->parse_square("3a").has_value());
  CHECK(test::has_move(koma::Game(algebraic), "b1a2"));
  // Above 9x9 the names are algebraic without asking.
  auto wide = board_of("{width: 10, height: 10}", "{A: {K: e1}, B: {K: e10}}");
  CHECK(wide->square_name(0) == "a10");
  // Shogi names on a larger board (chu shogi's, as lishogi writes them): the
  // file's number from the right, two digits from the tenth, then the rank's
  // letter from the top. A's king on 6j is in column 12 - 6 = 6, row 9.
  auto chu = board_of("{width: 12, height: 12, squares: shogi}", "{A: {K: 6j}, B: {K: 12a}}");
  CHECK(chu->square_name(0) == "12a");
  CHECK(chu->square_name(143) == "1l");
  CHECK(chu->parse_square("10c") == koma::Square{2 * 12 + 2});
  CHECK(chu->parse_square("6j") == koma::Square{9 * 12 + 6});
  for (const char* bad : {"13a", "0a", "1m", "a1", "012a", "6"}) {
    CAPTURE(bad);
    CHECK_FALSE(chu->parse_square(bad).has_value());
  }
  CHECK(test::has_move(koma::Game(chu), "6j7i"));
}

TEST_CASE("seats[].name: seats are named and numbered in the order listed, each name once") {
  auto v = board_of("{width: 3, height: 3}", "{B: {K: 2a}, A: {K: 2c}}");
  CHECK(v->seats() == 2);
  CHECK(v->seat_name(1) == "A");
  CHECK(v->seat_name(2) == "B");
  // The setup names seats: A's king on 2c, B's on 2a, whatever their order there.
  const koma::Position start = v->start_position();
  CHECK(start.at(*v->parse_square("2c"))->owner == 1);
  CHECK(start.at(*v->parse_square("2a"))->owner == 2);
  CHECK_THROWS_AS(koma::Variant::parse("koma: 1\nname: twice\nboard: {width: 3, height: 3}\n"
                                       "seats:\n  - {name: A, facing: up}\n"
                                       "  - {name: A, facing: down}\n"
                                       "pieces:\n  K: {name: King, moves: K, royal: true}\n"
                                       "setup: 1K21/3/1K11 1 - 1 -\n",
                                       "twice.yaml"),
                  koma::DescriptorError);
}

TEST_CASE("seats[].facing: a seat's pieces move along its facing") {
  // A faces right, B left; each has a pawn (one step forward). A's pawn on 4d
  // steps to 3d (towards file 1), B's on 2b to 3b (towards file 5).
  auto v =
      board_of("{width: 5, height: 5}", "{A: {K: 5a, P: 4d}, B: {K: 1e, P: 2b}}", "right", "left");
  CHECK(v->seat_facing(1) == koma::Facing::right);
  CHECK(v->seat_facing(2) == koma::Facing::left);
  // A's king in the top-left corner: 4a, 4b and 5b.
  CHECK(test::sorted_texts(koma::Game(v)) ==
        std::vector<std::string>{"4d3d", "5a4a", "5a4b", "5a5b"});
  // B to move: its king in the bottom-right corner has 1d, 2d and 2e.
  CHECK(test::sorted_texts(koma::Game(v->start_position(2))) ==
        std::vector<std::string>{"1e1d", "1e2d", "1e2e", "2b3b"});
}

TEST_CASE("turn_order: seats play in the order it lists, not in seat order") {
  // Yonin's seats are South, West, North, East; here North plays second.
  auto v = yonin_in_order("[South, North, West, East]");
  CHECK(v->turn_order() == std::vector<int>{1, 3, 2, 4});
  koma::Game g(v);
  g.play("5g5f");
  CHECK(g.position().to_move() == 3);
  g.play("5c5d");
  CHECK(g.position().to_move() == 2);
  g.play("7e6e");
  CHECK(g.position().to_move() == 4);
  // Yonin itself: West follows South.
  koma::Game yonin(test::variant("yonin.yaml"));
  yonin.play("5g5f");
  CHECK(yonin.position().to_move() == 2);
  // Every seat exactly once.
  CHECK_THROWS_AS(yonin_in_order("[South, North, South, East]"), koma::DescriptorError);
}
