// Yonin doubles and Yonin for three seats (docs/variants/yonin.md): the
// Standard game with teams, and with East's seat left empty.
#include <doctest/doctest.h>

#include "support.hpp"

namespace {

koma::Game game_at(const std::string& file, const std::string& text) {
  return koma::Game(koma::Position::from_text(test::variant(file), text));
}

// Yonin for three, turned a quarter: West, North and East with the same
// armies, South's edge empty. West's army is South's turned to the left edge.
std::shared_ptr<const koma::Variant> three_turned() {
  return koma::Variant::parse(
      std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR +
          "/yonin-three.yaml\nname: yonin-three-turned\n"
          "seats:\n  - {name: West, facing: right}\n  - {name: North, facing: down}\n"
          "  - {name: East, facing: left}\n"
          "turn_order: [West, North, East]\n"
          "setup:\n  South: ~\n"
          "  West: {S: [9c, 9g], G: [9d, 9f], K: 9e, P: [8d, 8f, 7e], R: 8e}\n",
      "yonin-three-turned.yaml");
}

}  // namespace

TEST_CASE("yonin doubles: the same counts whoever moves first") {
  auto v = test::variant("yonin-doubles.yaml");
  // Before any army meets another, teams change nothing.
  const std::uint64_t standard5 = koma::perft(koma::Game(test::variant("yonin.yaml")), 5);
  for (int first = 1; first <= 4; ++first) {
    CAPTURE(first);
    koma::Game g(v->start_position(first));
    CHECK(koma::perft(g, 5) == standard5);
  }
}

// Partners' pieces meet from ply 7 on; the count differs from the Standard
// game's there (13537582), since partners never capture each other.
TEST_CASE("yonin doubles: partners meet, the same counts whoever moves first" *
          doctest::test_suite("slow")) {
  auto v = test::variant("yonin-doubles.yaml");
  for (int first = 1; first <= 4; ++first) {
    CAPTURE(first);
    CHECK(koma::perft(koma::Game(v->start_position(first)), 7) == 13537813);
  }
}

TEST_CASE("teams: partners never capture or check each other (yonin doubles)") {
  // South's rook on 5d sees North's gold on 5c; without it, North's king.
  koma::Game g = game_at("yonin-doubles.yaml", "4K34/9/4G34/4R14/K27K4/9/9/9/4K14 1 - 1 -");
  const koma::Move take = g.position().parse_move("5d5c");
  CHECK_FALSE(g.is_legal(take));
  CHECK(g.why_illegal(take) == "it cannot capture its own or a partner's piece on 5c");
  koma::Game bare = game_at("yonin-doubles.yaml", "4K34/9/9/4R14/K27K4/9/9/9/4K14 1 - 1 -");
  CHECK_FALSE(bare.position().in_check(3));
  CHECK(bare.position().seats_in_check().empty());
  // The same in the Standard game is a capture and a check.
  koma::Game standard = game_at("yonin.yaml", "4K34/9/4G34/4R14/K27K4/9/9/9/4K14 1 - 1 -");
  CHECK(standard.is_legal(standard.position().parse_move("5d5c")));
}

TEST_CASE("yonin doubles: a partner exposed by the mover gets the priority turn") {
  // South's silver on 7a shields North's king from West's rook on 9a; moving
  // it is legal (only the mover's king must be safe), and North, now in
  // check, moves before West.
  koma::Game g = game_at("yonin-doubles.yaml", "R21S11K34/9/9/9/K27K4/9/9/9/4K14 1 - 1 -");
  g.play("7a6b");
  CHECK(g.position().in_check(3));
  CHECK(g.position().to_move() == 3);
  CHECK_FALSE(g.over());
}

TEST_CASE("yonin doubles: a partner mated by the mover's move is credited to the mover") {
  // South's silver on 7a shields North's king from West's rook on 9a; North's
  // own pawns fill 6b-4b. South steps the silver back to 8b: North is in
  // check along rank a (4a too, behind the king) with no move that answers
  // it, so it is mated at once, a mate of South's move.
  koma::Game g = game_at("yonin-doubles.yaml", "R21S11K34/3P3P3P33/9/9/K27K4/9/9/9/4K14 1 - 1 -");
  g.play("7a8b");
  CHECK_FALSE(g.position().active(3));
  CHECK(g.position().eliminated() == std::vector<int>{3});
  CHECK(g.position().score(1).mates == 1);
  CHECK(g.position().score(1).last_mate == 1);
  CHECK(g.position().score(2).mates == 0);
  // South plays on for the team: West, the next seat, is to move.
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 2);
}

TEST_CASE(
    "end.last_team_standing: the game ends when both seats of a team are out (yonin doubles)") {
  // West is out; South's gold mates East in the corner (the rook on 1i guards
  // the gold). West and East place third, South and North first.
  koma::Game g = game_at("yonin-doubles.yaml", "4K33K4/9/8G1/9/X28/9/9/9/4K13R1 1 - 1 2");
  g.play("1c1b");
  REQUIRE(g.over());
  CHECK(g.result() == koma::Result{{1, 3, 1, 3}, koma::Reason::last_team_standing});
  // One seat of each team out: play goes on.
  koma::Game h = game_at("yonin-doubles.yaml", "4X33K4/9/8G1/9/K28/9/9/9/4K13R1 1 - 1 3");
  h.play("1c1b");
  CHECK(h.position().active(2));
  CHECK_FALSE(h.position().active(4));
  CHECK_FALSE(h.over());
}

TEST_CASE("yonin three: the game turned a quarter has the same counts") {
  koma::Game three(test::variant("yonin-three.yaml"));
  koma::Game turned(three_turned());
  CHECK(turned.position().at(*turned.variant().parse_square("9e"))->owner == 1);
  for (int depth = 1; depth <= 6; ++depth) {
    CAPTURE(depth);
    CHECK(koma::perft(three, depth) == koma::perft(turned, depth));
  }
  CHECK(koma::perft(three, 6) == 1538235);
}

TEST_CASE("yonin three: places by elimination, the last seat first") {
  // North is already out; South's gold mates West in the corner: South
  // first, West second, North third.
  koma::Game g = game_at("yonin-three.yaml", "K27X3/9/1G17/9/9/9/9/9/1R12K14 1 - 1 3");
  g.play("8c8b");
  REQUIRE(g.over());
  CHECK(g.result() == koma::Result{{1, 2, 3}, koma::Reason::last_seat_standing});
}

TEST_CASE("yonin doubles: a repetition draws seat by seat") {
  // South is out; West, North and East walk their kings out and back. The
  // fourth occurrence ends the game: the seats still in share first place,
  // South keeps its place by elimination.
  koma::Game g = game_at("yonin-doubles.yaml", "4K34/9/9/9/K27K4/9/9/9/4X14 2 - 1 1");
  const std::vector<std::string> round = {"9e9d", "5a5b", "1e1d", "9d9e", "5b5a", "1d1e"};
  for (int r = 0; r < 3; ++r)
    for (const auto& m : round) {
      REQUIRE_FALSE(g.over());
      g.play(m);
    }
  REQUIRE(g.over());
  CHECK(g.result() == koma::Result{{4, 1, 1, 1}, koma::Reason::repetition});
}
