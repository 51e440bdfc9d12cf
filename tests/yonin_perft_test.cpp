// Yonin start-position perft, pinned to the counts of an independent
// implementation of the rules of docs/variants/yonin.md (issue: Standard with
// either pawn-drop-mate setting; King-capture equal up to depth 5).
#include <doctest/doctest.h>

#include "support.hpp"

TEST_CASE("yonin start perft 1-5, both pawn-drop-mate settings and king-capture") {
  const std::uint64_t counts[] = {9, 81, 729, 6561, 82134};
  for (const char* pdm : {"forbidden", "allowed"}) {
    koma::Game g(test::variant("yonin.yaml", {{"pawn_drop_mate", pdm}}));
    for (int d = 1; d <= 5; ++d) CHECK(koma::perft(g, d) == counts[d - 1]);
  }
  koma::Game kc(test::variant("yonin-king-capture.yaml"));
  for (int d = 1; d <= 5; ++d) CHECK(koma::perft(kc, d) == counts[d - 1]);
}

TEST_CASE("yonin start perft 6" * doctest::test_suite("slow")) {
  CHECK(koma::perft(koma::Game(test::variant("yonin.yaml")), 6) == 1055321);
  CHECK(koma::perft(koma::Game(test::variant("yonin.yaml", {{"pawn_drop_mate", "allowed"}})), 6) ==
        1055321);
  CHECK(koma::perft(koma::Game(test::variant("yonin-king-capture.yaml")), 6) == 1056374);
}

TEST_CASE("yonin: the four rotated armies give the same counts, full and bulk") {
  // Each seat moving first from the start position faces the same tree.
  for (int seat = 1; seat <= 4; ++seat) {
    CAPTURE(seat);
    auto v = test::variant("yonin.yaml");
    koma::Game g(v->start_position(seat));
    CHECK(g.position().to_move() == seat);
    CHECK(koma::perft(g, 5) == 82134);
    CHECK(koma::perft(g, 4, koma::PerftMode::full) == 6561);
  }
}
