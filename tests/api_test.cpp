// API misuse is an error, never undefined behaviour; a Variant is shared by
// threads that each play their own games.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

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

namespace {

// What one thread finds: the moves of its games and its perft counts.
// (At namespace scope: g++ 12 does not instantiate a defaulted == of a local
// class's vector members.)
struct Answers {
  std::vector<std::vector<std::string>> games;
  std::vector<std::uint64_t> leaves;
  bool operator==(const Answers&) const = default;
};

}  // namespace

// In the doctest test suite "threads" (ctest label "threads"): CI runs these
// under ThreadSanitizer. (No comma in the name: doctest_discover_tests reads
// the suite with --test-case=NAME, where a comma separates filters.)
TEST_CASE("one Variant shared by threads that each play their own games" *
          doctest::test_suite("threads")) {
  // Every thread plays the same seeded CPU games and counts the same perfts,
  // all from one shared_ptr<const Variant> per variant; each thread's answers
  // must equal those of the same work done alone (a Variant is immutable).
  struct Work {
    std::shared_ptr<const koma::Variant> variant;
    koma::Level level;
    std::uint64_t nodes;
    int plies;
    int perft_depth;
  };
  const std::vector<Work> work = {
      {test::variant("yonin.yaml"), koma::Level::normal, 400, 40, 2},
      {test::variant("shogi.yaml"), koma::Level::medium, 400, 40, 3},
      {test::variant("shipley-individual.yaml"), koma::Level::easy, 200, 24, 1},
      {test::variant("yonin-king-capture.yaml"), koma::Level::strong, 300, 24, 2},
  };
  auto run = [&](Answers& out) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      for (const Work& w : work) {
        koma::Game g(w.variant);
        koma::Player p(w.level, {0, w.nodes, 0, seed});
        for (int i = 0; i < w.plies && !g.over(); ++i) g.play(p.choose(g));
        out.games.push_back(g.history());
        out.leaves.push_back(koma::perft(g, w.perft_depth));
      }
    }
    for (const Work& w : work) out.leaves.push_back(koma::perft(koma::Game(w.variant), 2));
  };
  Answers alone;
  run(alone);
  REQUIRE(alone.games.size() == 2 * work.size());
  std::vector<Answers> results(4);
  std::vector<std::thread> threads;
  threads.reserve(results.size());
  for (auto& r : results) threads.emplace_back(run, std::ref(r));
  for (auto& t : threads) t.join();
  for (const auto& r : results) CHECK(r == alone);
}
