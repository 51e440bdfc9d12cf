// Annan shogi (variants/annanshogi.yaml): a piece moves as the friendly piece
// directly behind it (moves_as: behind), a pawn drop in front of the king
// may not end the game (drops.P.mate: in_front), and impasse is judged at
// the start of each turn (end.impasse.judged: turn_start). Counts of the
// hand-built positions are derived below from the rules; shogiops 0.18.0
// (the reference, outside the repository) gives the same.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "support.hpp"

namespace {

koma::Game annan(const std::string& sfen) {
  return koma::Game(koma::Position::from_text(test::variant("annanshogi.yaml"), sfen));
}

}  // namespace

TEST_CASE("moves_as: behind: a pawn with a rook behind it moves as a rook and promotes as a pawn") {
  // Sente's pawn on 5g has the rook behind it (5h), the rook has the king
  // behind it (5i). The pawn, as a rook: up the file to 5a (6 squares, the
  // three in the zone with and without promotion: 9) and along rank g (8):
  // 17. The rook, as a king: 6 squares around 5h but 5g and 5i. The king,
  // nothing behind it: 4. 17 + 6 + 4 = 27.
  koma::Game g = annan("8k/9/9/9/9/9/4P4/4R4/4K4 b - 1");
  CHECK(koma::perft(g, 1) == 27);
  CHECK(test::has_move(g, "5g9g"));
  CHECK(test::has_move(g, "5h4g"));
  CHECK_FALSE(test::has_move(g, "5h5f"));  // not as a rook: as the king behind it
  // The pawn that moved as a rook promotes to a tokin, its own promotion.
  g.play("5g5b+");
  CHECK(g.position().text() == "8k/4+P4/9/9/9/9/9/4R4/4K4 w - 2");
}

TEST_CASE("moves_as: behind: a borrowed check is parried by taking the piece that lends") {
  // Gote's pawn on 5c has Gote's rook behind it (5b, toward Gote's side):
  // as a rook it checks the king on 5i down the file. Sente's answers: the
  // king to 4h, 6h, 4i, 6i (5h stays on the file); the bishop blocks on 5h,
  // or takes the rook on 5b (with or without promotion), after which the
  // pawn moves as a pawn and the check is gone: 7.
  koma::Game g = annan("k8/4r4/4p4/9/1B7/9/9/9/4K4 b - 1");
  CHECK(g.position().in_check(1));
  CHECK(koma::perft(g, 1) == 7);
  CHECK(test::has_move(g, "8e5b"));
  CHECK(test::has_move(g, "8e5b+"));
  CHECK(test::has_move(g, "8e5h"));
  CHECK_FALSE(test::has_move(g, "5i5h"));
  g.play("8e5b");
  CHECK_FALSE(g.position().in_check(1));
}

TEST_CASE("moves_as: behind: a pinned piece may leave the line by taking the pinner's lender") {
  // Gote's pawn on 5c has Gote's bishop behind it (5b) and moves as a
  // bishop: down the diagonal 4d, 3e, 2f it pins Sente's knight on 4d to
  // the king on 2f. The knight's jumps leave the line: 3b exposes the king,
  // 5b takes the lender (with or without promotion), after which the pawn
  // moves as a pawn. The king: not 2e or 1f (the bishop's diagonal), 3e
  // behind the knight is safe: 6 squares. 2 + 6 = 8.
  koma::Game g = annan("k8/4b4/4p4/5N3/9/7K1/9/9/9 b - 1");
  CHECK(koma::perft(g, 1) == 8);
  CHECK(test::has_move(g, "4d5b"));
  CHECK(test::has_move(g, "4d5b+"));
  CHECK_FALSE(test::has_move(g, "4d3b"));
  CHECK_FALSE(test::has_move(g, "4d3b+"));
  CHECK_FALSE(test::has_move(g, "2f2e"));
  CHECK(test::has_move(g, "2f3e"));
}

TEST_CASE("drops.P.mate: in_front: a pawn drop in front of the king may not end the game") {
  // The pawn dropped on 5b has the gold (5c) behind it and moves as a gold:
  // it checks the king on 5a and covers 4a, 6a, 4b, 6b; the gold guards it.
  // Mate, so illegal: the other 77 empty squares, 6 gold moves, 5 king
  // moves: 88.
  koma::Game mate = annan("4k4/9/4G4/9/9/9/9/9/4K4 b P 1");
  CHECK(koma::perft(mate, 1) == 88);
  CHECK_FALSE(test::has_move(mate, "P*5b"));
  CHECK_THROWS_WITH_AS(mate.play("P*5b"), doctest::Contains("in front of a king"),
                       koma::IllegalMove);
  // Without the gold the same drop only checks (the king takes it): legal,
  // as is any drop elsewhere: 79 drops, 5 king moves.
  koma::Game check = annan("4k4/9/9/9/9/9/9/9/4K4 b P 1");
  CHECK(koma::perft(check, 1) == 84);
  CHECK(test::has_move(check, "P*5b"));
}

TEST_CASE("end.impasse.judged: turn_start: the side to move wins by its count") {
  // Sente: king on 5c, in its zone, with 10 other pieces there (two rooks
  // and two bishops, 5 points each, and 6 golds and silvers: 26) and two
  // pawns in hand: 28, what Sente needs. Once Gote has moved, Sente's turn
  // starts with the count made: Sente wins (reason impasse).
  const std::string text = "RRBB1GGSS/G7G/4K4/9/9/9/9/9/4k4 w 2P 1";
  koma::Game g = annan(text);
  CHECK_FALSE(g.over());
  CHECK(koma::perft(g, 1) == 5);  // the king's moves
  CHECK(koma::perft(g, 2) == 0);  // each ends the game
  g.play("5i5h");
  REQUIRE(g.over());
  CHECK(g.result() == koma::Result{{1, 2}, koma::Reason::impasse});
  // One pawn fewer (27 points): the game goes on.
  koma::Game short_of = annan("RRBB1GGSS/G7G/4K4/9/9/9/9/9/4k4 w P 1");
  short_of.play("5i5h");
  CHECK_FALSE(short_of.over());
  // Nobody declares: the action `win` does not exist here.
  CHECK_FALSE(g.variant().has_declaration());
}

// Positions reached by seeded random play with shogiops 0.18.0
// (tests/data/shogiops-positions.jsonl, tests/data/README.md): each root
// move's count at depth 2 and the totals at depths 1-3.
TEST_CASE("annan: positions reached by play match shogiops move by move") {
  int rows = 0;
  for (const YAML::Node& row : test::jsonl("shogiops-positions.jsonl")) {
    if (row["variant"].as<std::string>() != "annanshogi") continue;
    const std::string seed = row["seed"].as<std::string>();
    CAPTURE(seed);
    koma::Game g(test::variant("annanshogi.yaml"));
    for (const auto& m : row["moves"]) g.play(m.as<std::string>());
    CHECK(koma::Position::from_text(g.position().variant_ptr(), row["sfen"].as<std::string>()) ==
          g.position());
    std::map<std::string, std::uint64_t> divide, expected;
    for (const auto& [m, n] : koma::perft_divide(g, 2)) divide[g.position().move_text(m)] = n;
    for (const auto& kv : row["divide1"])
      expected[kv.first.as<std::string>()] = kv.second.as<std::uint64_t>();
    CHECK(divide == expected);
    for (int d = 1; d <= 3; ++d)
      CHECK(koma::perft(g, d) == row["perft"][d - 1].as<std::uint64_t>());
    ++rows;
  }
  CHECK(rows >= 50);
}

TEST_CASE("moves_as, end.impasse.judged: wrong values are refused where written") {
  auto parse = [](const std::string& more) { return test::extended("annanshogi.yaml", more); };
  CHECK_THROWS_WITH_AS(parse("moves_as: ahead\n"),
                       doctest::Contains("x.yaml:4:11: moves_as cannot be 'ahead'; allowed: "
                                         "itself, behind"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("end: {impasse: {judged: always}}\n"),
                       doctest::Contains("cannot be 'always'; allowed: on_declaration, turn_start"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("replace: [end]\nend: {impasse: {rule: try, judged: turn_start}}\n"),
                       doctest::Contains("x.yaml:5:36: end.impasse.judged says when a "
                                         "declaration's count is made"),
                       koma::DescriptorError);
  // Itself, the same board is shogi's: a pawn does not move as the rook.
  auto plain = parse("moves_as: itself\n");
  koma::Game g(koma::Position::from_text(plain, "8k/9/9/9/9/9/4P4/4R4/4K4 b - 1"));
  CHECK_FALSE(test::has_move(g, "5g5e"));
  CHECK(test::has_move(g, "5g5f"));
}
