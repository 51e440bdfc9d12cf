// API misuse is an error, never undefined behaviour; a Variant is shared by
// threads that each play their own games.
#include <doctest/doctest.h>

#include <thread>

#include "support.hpp"

TEST_CASE("misuse: finished games, undo at the start, foreign moves, bad texts and options") {
  auto v = test::variant("shogi.yaml", {{"impasse", "none"}});
  koma::Game g(v);
  CHECK_THROWS_AS(g.undo(), koma::IllegalMove);
  // A move naming squares this 9x9 board does not have (e.g. from a 15x15
  // variant) or a kind it does not declare.
  const std::string start = g.position().text();
  CHECK_THROWS_AS(g.play(koma::Move::board(200, 201)), koma::IllegalMove);
  CHECK_THROWS_AS(g.play(koma::Move::drop(30, 40)), koma::IllegalMove);
  CHECK_THROWS_AS(g.play(koma::Move::board(40, 40)), koma::IllegalMove);
  CHECK(g.position().text() == start);
  CHECK(g.history().empty());
  // A Shipley position or square names do not fit shogi.
  auto shipley = test::variant("shipley-individual.yaml");
  CHECK_THROWS_AS(koma::Position::from_text(v, koma::Game(shipley).position().text()),
                  koma::NotationError);
  CHECK_THROWS_AS(g.play("h13h12"), koma::NotationError);
  // Unknown options.
  CHECK_THROWS_AS(test::variant("yonin.yaml", {{"impasse", "csa27"}}), koma::DescriptorError);
  // A finished game takes no more moves or actions, but can be taken back.
  g.resign();
  REQUIRE(g.over());
  CHECK_THROWS_AS(g.play("7g7f"), koma::IllegalMove);
  CHECK_THROWS_AS(g.resign(), koma::IllegalMove);
  CHECK_THROWS_AS(g.adjudicate({1, 2}), koma::IllegalMove);
  CHECK(g.legal_moves().empty());
  g.undo();
  CHECK_FALSE(g.over());
  CHECK_THROWS_AS(g.adjudicate({1, 2, 3}), koma::IllegalMove);
  g.adjudicate({1, 1});
  CHECK(g.result() == koma::Result{{1, 1}, koma::Reason::adjudicated});
  // Resignation where the variant has none.
  koma::Game inherit(test::variant("yonin-inherit.yaml"));
  CHECK_THROWS_AS(inherit.resign(), koma::IllegalMove);
  CHECK_THROWS_AS(inherit.declare_win(), koma::IllegalMove);
}

TEST_CASE("one Variant shared by threads, each playing its own games") {
  // Every thread replays the same seeded game; the results must agree with a
  // game played alone (the Variant is immutable).
  auto v = test::variant("yonin.yaml");
  auto play = [&](std::vector<std::string>& out) {
    koma::Game g(v);
    koma::Player p(koma::Level::normal, {0, 0, 0, 5});
    for (int i = 0; i < 80 && !g.over(); ++i) g.play(p.choose(g));
    out = g.history();
  };
  std::vector<std::string> alone;
  play(alone);
  std::vector<std::vector<std::string>> results(4);
  std::vector<std::thread> threads;
  for (auto& r : results) threads.emplace_back(play, std::ref(r));
  for (auto& t : threads) t.join();
  for (const auto& r : results) CHECK(r == alone);
}
