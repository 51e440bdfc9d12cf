// Two-player shogi (docs/variants/shogi.md): published perft counts of
// positions (the start's are in tests/data/variants.jsonl), the rule edge
// positions of the independent implementation, and one test per rule.
#include <doctest/doctest.h>

#include "support.hpp"

using koma::Game;
using koma::Position;
using koma::Reason;

namespace {
auto shogi(const std::string& impasse = "none") {
  return test::variant("shogi.yaml", {{"impasse", impasse}});
}
Game from(const std::string& sfen, const std::string& impasse = "none") {
  return Game(Position::from_text(shogi(impasse), sfen));
}
// Shogi without impasse, with `more` (YAML) on top, from `sfen`.
Game from_extended(const std::string& more, const std::string& sfen) {
  auto v = koma::Variant::parse(
      std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR + "/shogi.yaml\nname: x\n" + more,
      "x.yaml", {{"impasse", "none"}});
  return Game(Position::from_text(v, sfen));
}
}  // namespace

TEST_CASE("shogi published perft positions") {
  struct Case {
    const char* sfen;
    std::vector<std::uint64_t> counts;
  };
  const Case cases[] = {
      {"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", {207, 28684}},
      {"R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", {593, 105677}},
      {"9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", {524, 248257}},
      {"8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
       {178, 18041}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.sfen);
    Game g = from(c.sfen);
    for (std::size_t d = 0; d < c.counts.size(); ++d)
      CHECK(koma::perft(g, static_cast<int>(d + 1)) == c.counts[d]);
  }
}

TEST_CASE("shogi published perft positions to depth 3" * doctest::test_suite("slow")) {
  CHECK(koma::perft(from("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"),
                    3) == 4809015);
  CHECK(koma::perft(
            from("8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"),
            3) == 2552846);
}

TEST_CASE("shogi rule edges of the independent implementation: legal lists and perft 1-3") {
  auto records = test::jsonl("shogi-rule-edges.jsonl");
  REQUIRE(records.size() == 22);
  for (const auto& r : records) {
    std::string sfen = r["sfen"].as<std::string>();
    CAPTURE(sfen);
    CAPTURE(r["note"].as<std::string>());
    Game g = from(sfen);
    CHECK(test::sorted_texts(g) == r["legal"].as<std::vector<std::string>>());
    for (int d = 1; d <= 3; ++d)
      CHECK(koma::perft(g, d) == r["perft"][std::to_string(d)].as<std::uint64_t>());
  }
}

TEST_CASE("drops.P.mate: a pawn drop may not mate, a pawn move and other drops may") {
  // King 5a between its lances, sente gold on 5c guarding 4b, 5b and 6b: a
  // piece on 5b checks with the king unable to take it or step aside.
  Game pawn = from("3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1");
  CHECK_FALSE(test::has_move(pawn, "P*5b"));
  CHECK(test::has_move(pawn, "P*5d"));  // a pawn drop elsewhere is fine
  Game gold = from("3lkl3/9/4G4/9/9/9/9/9/4K4 b G 1");
  REQUIRE(test::has_move(gold, "G*5b"));
  gold.play("G*5b");
  REQUIRE(gold.over());
  CHECK(gold.result()->places == std::vector<int>{1, 2});
  CHECK(gold.result()->reason == Reason::checkmate);
  // Same mate given by a pawn that moves there.
  Game push = from("3lkl3/9/3GPG3/9/9/9/9/9/4K4 b - 1");
  REQUIRE(test::has_move(push, "5c5b"));
  push.play("5c5b");
  CHECK(push.result() == koma::Result{{1, 2}, Reason::checkmate});
  // A pawn drop that checks but does not mate is legal (the king takes it).
  Game check = from("3lkl3/9/9/9/9/9/9/9/4K4 b P 1");
  CHECK(test::has_move(check, "P*5b"));
}

TEST_CASE("drops.P.nifu: nifu counts unpromoted pawns only") {
  Game pawn = from("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
  for (char r = 'b'; r <= 'i'; ++r) CHECK_FALSE(test::has_move(pawn, std::string("P*5") + r));
  Game tokin = from("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1");
  CHECK(test::has_move(tokin, "P*5c"));
}

TEST_CASE("dead_squares: no drop where the piece could never move") {
  Game sente = from("4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
  for (char f = '1'; f <= '9'; ++f) {
    std::string file(1, f);
    CHECK_FALSE(test::has_move(sente, "P*" + file + "a"));
    CHECK_FALSE(test::has_move(sente, "L*" + file + "a"));
    CHECK_FALSE(test::has_move(sente, "N*" + file + "a"));
    CHECK_FALSE(test::has_move(sente, "N*" + file + "b"));
    if (f != '5') CHECK(test::has_move(sente, "N*" + file + "c"));
  }
  Game gote = from("4k4/9/9/9/9/9/9/9/4K4 w nlp 1");
  CHECK_FALSE(test::has_move(gote, "P*1i"));
  CHECK_FALSE(test::has_move(gote, "N*1h"));
  CHECK(test::has_move(gote, "N*1g"));
}

TEST_CASE("promotion.zone: forced and optional promotion") {
  // Knight on 3d jumps to 2b or 4b: the last two ranks force promotion.
  Game knight = from("4k4/9/9/6N2/9/9/9/9/4K4 b - 1");
  CHECK(test::has_move(knight, "3d2b+"));
  CHECK_FALSE(test::has_move(knight, "3d2b"));
  // A silver leaving the zone may promote or not.
  Game silver = from("4k4/9/S8/9/9/9/9/9/4K4 b - 1");
  CHECK(test::has_move(silver, "9c8d+"));
  CHECK(test::has_move(silver, "9c8d"));
  // Pawn and lance on the last rank must promote.
  Game pl = from("4k4/P7L/9/L8/9/9/9/9/4K4 b - 1");
  CHECK(test::has_move(pl, "9b9a+"));
  CHECK_FALSE(test::has_move(pl, "9b9a"));
  CHECK(test::has_move(pl, "9d9c"));
  CHECK(test::has_move(pl, "9d9c+"));
}

TEST_CASE("promotion.depth: the zone is that many rows at the far edge") {
  // A silver on 5b: in shogi's three-row zone a move from there may promote;
  // in a zone of one row only a move into rank a may.
  const std::string sfen = "k8/4S4/9/9/9/9/9/9/4K4 b - 1";
  Game three = from(sfen);
  CHECK(test::has_move(three, "5b4c+"));
  CHECK(test::has_move(three, "5b5a+"));
  Game one = from_extended("promotion: {depth: 1}\n", sfen);
  CHECK_FALSE(test::has_move(one, "5b4c+"));
  CHECK(test::has_move(one, "5b4c"));
  CHECK(test::has_move(one, "5b5a+"));
  CHECK(test::has_move(one, "5b5a"));
}

TEST_CASE(
    "end.repetition.count, end.repetition.perpetual_check: fourfold repetition is a draw, a "
    "perpetual checker loses") {
  Game quiet = from("4k4/9/9/9/9/9/9/9/4K4 b - 1");
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(quiet.over());
    for (const char* m : {"5i5h", "5a5b", "5h5i", "5b5a"}) quiet.play(m);
  }
  CHECK(quiet.result() == koma::Result{{1, 1}, Reason::repetition});
  // Sente's rook checks on every one of its moves; the 4th occurrence of the
  // start position ends the game and sente loses.
  Game checks = from("8k/R8/9/9/9/9/9/9/4K4 b - 1");
  for (int i = 0; i < 3; ++i) {
    CHECK_FALSE(checks.over());
    for (const char* m : {"9b9a", "1a1b", "9a9b", "1b1a"}) checks.play(m);
  }
  CHECK(checks.result() == koma::Result{{2, 1}, Reason::perpetual_check});
  checks.undo();
  CHECK_FALSE(checks.over());
}

TEST_CASE(
    "end.impasse.rule, end.impasse.points, end.impasse.lose_below: both kings entered, 24 points") {
  // Sente's king steps into its zone while gote's already stands in its own.
  // Sente counts R+B (10) and 14 minor pieces = 24: not under 24, a draw.
  Game draw = from("9/9/9/4K4/9/9/9/4k4/9 b RB4G4S4N2Lrb2l18p 1", "both_kings_entered_24");
  draw.play("5d5c");
  CHECK(draw.result() == koma::Result{{1, 1}, Reason::impasse});
  // One silver fewer: 23, sente loses.
  Game lose = from("9/9/9/4K4/9/9/9/4k4/9 b RB4G3S4N2Lrb2l18p 1", "both_kings_entered_24");
  lose.play("5d5c");
  CHECK(lose.result() == koma::Result{{2, 1}, Reason::impasse});
  // Without the rule the game goes on.
  Game none = from("9/9/9/4K4/9/9/9/4k4/9 b RB4G3S4N2Lrb2l18p 1", "none");
  none.play("5d5c");
  CHECK_FALSE(none.over());
}

TEST_CASE("end.impasse.win_at, end.impasse.draw_at: declarations csa27, csa24 and try") {
  // Sente: king on 5b, ten pieces in the zone (10 points) and 2R2B in hand
  // (20): 30 points, at least 28 needed under csa27.
  const std::string pos = "GGGG1SSSS/NN2K4/9/9/9/9/9/9/8k b 2R2B 1";
  Game win = from(pos, "csa27");
  win.play("win");
  CHECK(win.result() == koma::Result{{1, 2}, Reason::declaration});
  // csa24 wants 31 to win; 24 to 30 draws.
  Game draw = from(pos, "csa24");
  draw.declare_win();
  CHECK(draw.result() == koma::Result{{1, 1}, Reason::declaration});
  // Short of points: 25 under csa27, the declarer loses.
  Game wrong = from("GGGG1SSSS/NN2K4/9/9/9/9/9/9/8k b 2RB 1", "csa27");
  wrong.declare_win();
  CHECK(wrong.result() == koma::Result{{2, 1}, Reason::declaration});
  // No declaration without a declaration rule.
  Game none = from(pos, "none");
  CHECK_THROWS_AS(none.declare_win(), koma::IllegalMove);
  CHECK_FALSE(none.over());
  // Try rule: the king reaching the opponent king's start square (5a) wins.
  Game tr = from("9/4K4/9/9/9/9/9/9/k8 b - 1", "try");
  tr.play("5b5a");
  CHECK(tr.result() == koma::Result{{1, 2}, Reason::try_rule});
}

TEST_CASE("end.impasse.min_pieces_in_zone: a declaration with too few pieces in the zone loses") {
  // csa27 wants 10 of the declarer's pieces in its zone. Sente's king on 5b
  // with ten (4G 4S 2N) and 2R2B in hand wins; with one knight fewer it has
  // 29 points, enough, but 9 pieces: the declaration is wrong and loses.
  Game ten = from("GGGG1SSSS/NN2K4/9/9/9/9/9/9/8k b 2R2B 1", "csa27");
  ten.declare_win();
  CHECK(ten.result() == koma::Result{{1, 2}, Reason::declaration});
  Game nine = from("GGGG1SSSS/N3K4/9/9/9/9/9/9/8k b 2R2B 1", "csa27");
  nine.declare_win();
  CHECK(nine.result() == koma::Result{{2, 1}, Reason::declaration});
}

TEST_CASE("a side with no legal move loses, checkmate or not") {
  // After 2d2c the gote king on 1a is not in check but every square around it
  // is covered by the golds on 3b and 2c.
  Game g = from("8k/6G2/9/7G1/9/9/9/9/K8 b - 1");
  g.play("2d2c");
  CHECK(g.result() == koma::Result{{1, 2}, Reason::no_legal_move});
  // Loaded as written: the same position with gote to move has no moves and
  // nothing is applied until a move is played.
  Game loaded = from("8k/6G2/7G1/9/9/9/9/9/K8 w - 1");
  CHECK(loaded.legal_moves().empty());
  CHECK_FALSE(loaded.over());
}

TEST_CASE("end.to_move: a finished game's text names the next seat, or the next still in") {
  // Gold drop on 5b mates. Shogi (next_seat) names the mated Gote to move,
  // as other shogi software does; next_active names Sente, the only seat
  // still in the game.
  const std::string sfen = "3lkl3/9/4G4/9/9/9/9/9/4K4 b G 1";
  Game mated = from(sfen);
  mated.play("G*5b");
  REQUIRE(mated.over());
  CHECK(mated.position().to_move() == 2);
  Game other = from_extended("end: {to_move: next_active}\n", sfen);
  other.play("G*5b");
  REQUIRE(other.over());
  CHECK(other.position().to_move() == 1);
}

TEST_CASE("resignation: a resignation loses") {
  Game g(shogi());
  g.play("7g7f");
  g.resign();
  CHECK(g.result() == koma::Result{{1, 2}, Reason::resignation});
  // A finished game's text names the seat that would move next: the only
  // seat still in the game.
  CHECK(g.position().text() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
}

TEST_CASE("SFEN round trip") {
  for (const auto& r : test::jsonl("shogi-rule-edges.jsonl")) {
    std::string sfen = r["sfen"].as<std::string>();
    CHECK(from(sfen).position().text() == sfen);
  }
  const char* published[] = {
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
  };
  for (const char* s : published) CHECK(from(s).position().text() == s);
  // Hands are written in the canonical order R B G S N L P, sente first.
  CHECK(from("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
            .position()
            .text() == published[1]);
  // The generic text reads back to the same position.
  auto v = shogi();
  Position p = Position::from_text(v, published[1]);
  CHECK(p.generic_text() ==
        "L26N2L2/5+P11G2K2/2N2P21S13/P21P24P1P2/3P12S1P21/1P1P1B22P11P1/P15G1S11/R18/L1N14B2K1L1 2 "
        "1:RG,2:GSN5P 1 -");
  CHECK(Position::from_text(v, p.generic_text()) == p);
}

TEST_CASE("illegal moves and bad text are refused with a reason, game unchanged") {
  Game g(shogi());
  std::string before = g.position().text();
  CHECK_THROWS_WITH_AS(g.play("7g7e"), "the Pawn on 7g cannot reach 7e", koma::IllegalMove);
  CHECK_THROWS_WITH_AS(g.play("3c3d"), "the piece on 3c belongs to seat 2, and seat 1 is to move",
                       koma::IllegalMove);
  CHECK_THROWS_WITH_AS(g.play("5e5d"), "there is no piece on 5e", koma::IllegalMove);
  CHECK_THROWS_WITH_AS(g.play("P*5e"), "seat 1 has no Pawn in hand", koma::IllegalMove);
  CHECK_THROWS_AS(g.play("7g"), koma::NotationError);
  CHECK_THROWS_AS(g.play("0a1b"), koma::NotationError);
  CHECK_THROWS_AS(g.undo(), koma::IllegalMove);
  CHECK(g.position().text() == before);
  CHECK(g.history().empty());
  // A position text that cannot be a shogi position.
  CHECK_THROWS_AS(Position::from_text(
                      shogi(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"),
                  koma::NotationError);
  CHECK_THROWS_AS(Position::from_text(shogi(), "4k4/9/9/9/9/9/9/4r4/4K4 w - 1"),
                  koma::NotationError);  // sente in check, gote to move
  CHECK_THROWS_AS(Position::from_text(shogi(), "4k4/9/9/9/9/9/9/9/4K4 b 19P 1"),
                  koma::NotationError);  // more pawns than exist
}

TEST_CASE("with an outside referee, rule endings are reported and play goes on") {
  auto outside = [](const std::string& sfen, const std::string& impasse = "none") {
    return Game(Position::from_text(shogi(impasse), sfen), Game::Referee::outside);
  };
  // The fourfold repetition of the test above: reported as the draw, not final.
  Game quiet = outside("4k4/9/9/9/9/9/9/9/4K4 b - 1");
  CHECK(quiet.referee() == Game::Referee::outside);
  for (int i = 0; i < 3; ++i)
    for (const char* m : {"5i5h", "5a5b", "5h5i", "5b5a"}) quiet.play(m);
  CHECK_FALSE(quiet.over());
  CHECK(quiet.rule_ending() == koma::Result{{1, 1}, Reason::repetition});
  quiet.play("5i5h");  // a fifth occurrence is no more final than the fourth
  CHECK_FALSE(quiet.over());
  CHECK(quiet.legal_moves().size() == 5);
  // Taking the moves back forgets the ending.
  for (int i = 0; i < 2; ++i) quiet.undo();
  CHECK_FALSE(quiet.rule_ending());
  // A perpetual checker: reported as its loss.
  Game checks = outside("8k/R8/9/9/9/9/9/9/4K4 b - 1");
  for (int i = 0; i < 3; ++i)
    for (const char* m : {"9b9a", "1a1b", "9a9b", "1b1a"}) checks.play(m);
  CHECK_FALSE(checks.over());
  CHECK(checks.rule_ending() == koma::Result{{2, 1}, Reason::perpetual_check});
  // Impasse (both kings entered, 23 points: sente would lose) and try.
  Game impasse = outside("9/9/9/4K4/9/9/9/4k4/9 b RB4G3S4N2Lrb2l18p 1", "both_kings_entered_24");
  impasse.play("5d5c");
  CHECK_FALSE(impasse.over());
  CHECK(impasse.rule_ending() == koma::Result{{2, 1}, Reason::impasse});
  Game tr = outside("9/4K4/9/9/9/9/9/9/k8 b - 1", "try");
  tr.play("5b5a");
  CHECK_FALSE(tr.over());
  CHECK(tr.rule_ending() == koma::Result{{1, 2}, Reason::try_rule});
  // A side left without a legal move still ends the game.
  Game mate = outside("8k/6G2/9/7G1/9/9/9/9/K8 b - 1");
  mate.play("2d2c");
  CHECK(mate.over());
  CHECK(mate.result() == koma::Result{{1, 2}, Reason::no_legal_move});
  CHECK_FALSE(mate.rule_ending());
  // koma's own referee is the default.
  CHECK(Game(mate.start()).referee() == Game::Referee::koma);
}
