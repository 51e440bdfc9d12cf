// CPU players: every level plays complete games on every shipped variant,
// and every move it picks is legal; fixed seeds give the same games.
#include <doctest/doctest.h>

#include <thread>

#include "support.hpp"

namespace {

// Plays one game with the given levels per seat (node-limited), checking
// each chosen move against the legal list. Returns the moves played.
std::vector<std::string> play_game(const std::shared_ptr<const koma::Variant>& v,
                                   const std::vector<koma::Level>& levels, std::uint64_t seed,
                                   int max_plies) {
  koma::Game g(v);
  std::vector<koma::Player> players;
  players.reserve(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i)
    players.emplace_back(levels[i], koma::Limits{0, 300, 0, seed * 10 + i});
  while (!g.over() && static_cast<int>(g.history().size()) < max_plies) {
    auto legal = g.legal_moves();
    REQUIRE_FALSE(legal.empty());
    koma::Move m = players[static_cast<std::size_t>(g.position().to_move() - 1)].choose(g);
    REQUIRE(std::find(legal.begin(), legal.end(), m) != legal.end());
    g.play(m);
  }
  if (g.over()) {
    auto r = g.result();
    REQUIRE(r);
    CHECK(static_cast<int>(r->places.size()) == v->seats());
    for (int p : r->places) CHECK((p >= 1 && p <= v->seats()));
  }
  return g.history();
}

}  // namespace

TEST_CASE("every level plays legal moves on every variant") {
  // Each row of tests/data/variants.jsonl lists the levels of its games, one a seat.
  for (const YAML::Node& row : test::shipped())
    for (const YAML::Node& seats : row["levels"]) {
      const std::string file = test::file_of(row);
      CAPTURE(file);
      std::vector<koma::Level> levels;
      for (const YAML::Node& name : seats) {
        const auto level = koma::level_from_name(name.as<std::string>());
        REQUIRE(level.has_value());
        levels.push_back(*level);
      }
      auto v = test::variant(file);
      REQUIRE(static_cast<int>(levels.size()) == v->seats());
      play_game(v, levels, 3, 60);
    }
}

TEST_CASE("a fixed seed and node limit give the same game") {
  using L = koma::Level;
  auto v = test::variant("yonin.yaml");
  auto a = play_game(v, {L::easy, L::normal, L::strong, L::expert}, 7, 40);
  auto b = play_game(v, {L::easy, L::normal, L::strong, L::expert}, 7, 40);
  CHECK(a == b);
}

TEST_CASE("a finished game or a seat without moves is refused") {
  auto v = test::variant("shogi.yaml", {{"impasse", "none"}});
  koma::Game mated(koma::Position::from_text(v, "3lkl3/4P4/3G1G3/9/9/9/9/9/4K4 w - 2"));
  koma::Player p(koma::Level::expert, {0, 100, 0, 1});
  CHECK_THROWS_AS(p.choose(mated), koma::IllegalMove);
  koma::Game g(v);
  g.resign();
  CHECK_THROWS_AS(p.choose(g), koma::IllegalMove);
}

TEST_CASE("the expert finds a mate in one") {
  // Gold drop on 5b mates (see the shogi rule tests); a pawn drop there may not.
  auto v = test::variant("shogi.yaml", {{"impasse", "none"}});
  koma::Game g(koma::Position::from_text(v, "3lkl3/9/4G4/9/9/9/9/9/4K4 b GP 1"));
  koma::Player p(koma::Level::expert, {2, 0, 0, 1});
  CHECK(g.position().move_text(p.choose(g)) == "G*5b");
}

TEST_CASE("the expert mates where a mated seat is eliminated, either seat") {
  // Okisaki shogi eliminates a mated seat (no_legal_move: eliminate): the
  // finished state's seat to move is then the mater. The drop in front of
  // the king, guarded by the gold behind it, mates; so does the mirror.
  auto v = test::variant("okisakishogi.yaml");
  const std::pair<const char*, std::vector<int>> cases[] = {
      {"3L2K2L24/10/4G15/10/10/10/10/10/10/4K15 1 1:G 1 -", {1, 2}},
      {"4K25/10/10/10/10/10/10/4G25/10/3L1K1L14 2 2:G 1 -", {2, 1}},
  };
  for (const auto& [text, places] : cases) {
    CAPTURE(text);
    koma::Game g(koma::Position::from_text(v, text));
    for (int depth = 1; depth <= 3; ++depth) {
      koma::Player p(koma::Level::expert, {depth, 0, 0, 1});
      koma::Game h = g;
      h.play(p.choose(g));
      REQUIRE(h.result());
      CHECK(h.result()->reason == koma::Reason::checkmate);
      CHECK(h.result()->places == places);
    }
  }
}

TEST_CASE("a draw is worth a draw, not a win") {
  // Gote, a rook up, may bring back the start position a fourth time with
  // 5b5a: a draw by repetition. The search must not take it for a win.
  auto v = test::variant("shogi.yaml", {{"impasse", "none"}});
  koma::Game g(koma::Position::from_text(v, "4k4/9/9/9/9/9/9/9/4K4 b r 1"));
  for (int i = 0; i < 3; ++i)
    for (const char* m : {"5i5h", "5a5b", "5h5i", "5b5a"})
      if (g.history().size() < 11) g.play(m);
  koma::Game drawn = g;
  drawn.play("5b5a");
  REQUIRE(drawn.result() == koma::Result{{1, 1}, koma::Reason::repetition});
  for (koma::Level level : {koma::Level::hard, koma::Level::expert}) {
    koma::Player p(level, {3, 0, 0, 1});
    koma::Move m = p.choose(g);
    CHECK(g.position().move_text(m) != "5b5a");
    CHECK(p.info().score > 0);       // the extra rook
    CHECK(p.info().score < 100000);  // but no forced win within three plies
  }
}

// Two seats: the evaluation counts the danger to each king (docs/ai.md#evaluation).
// Sente's lone king on 9i has one legal move, 9i8i (gote's gold on 9g takes
// 8h and 9h), so at depth 1 the expert's score is the evaluation after it. On
// 8i, gote attacks two squares next to the king that no sente piece guards:
// 2 each, danger 4. A knight in gote's hand adds its value at 130 % (520:
// 110 % as with any number of seats, 20 % more with two) and danger 1 for
// the piece held plus 3 for a safe check (a knight dropped on 7g, two steps
// away, that no sente piece guards): danger 8, so (8^2 - 4^2) * 3 = 144
// more. The other terms are the same in both positions.
TEST_CASE("the two-player evaluation counts drops that threaten the king") {
  auto v = test::variant("shogi.yaml", {{"impasse", "none"}});
  auto score = [&](const char* text) {
    koma::Game g(koma::Position::from_text(v, text));
    REQUIRE(g.legal_moves().size() == 1);
    koma::Player p(koma::Level::expert, {1, 0, 0, 1});
    p.choose(g);
    return p.info().score;
  };
  const int without = score("8k/9/9/9/9/9/g8/9/K8 b - 1");
  CHECK(score("8k/9/9/9/9/9/g8/9/K8 b n 1") - without == -(520 + 144));
}

// The expert keeps its table and move statistics from one move to the next
// (no allocation of 13 MiB a move); what an earlier search left must
// not count, so a reused player chooses exactly as a new one would.
TEST_CASE("a reused two-player expert chooses as a fresh one") {
  koma::Game g(test::variant("shogi.yaml"));
  koma::Player reused(koma::Level::expert, {0, 3000, 0, 1});
  for (int ply = 0; ply < 12; ++ply) {
    koma::Player fresh(koma::Level::expert, {0, 3000, 0, 1});
    koma::Move a = reused.choose(g);
    koma::Move b = fresh.choose(g);
    REQUIRE(g.position().move_text(a) == g.position().move_text(b));
    CHECK(reused.info().nodes == fresh.info().nodes);
    CHECK(reused.info().score == fresh.info().score);
    g.play(a);
  }
}

// South's gold on 2e may take North's pawn on 1e. North's rook on 5b could
// then take South's silver on 5e (with check to West's king on 9e), but the
// gold on 4f takes the rook back: the pawn is won. Without looking past the
// first reply (quiescence), and past West's answer to the check, the silver
// looks lost and the expert saves it instead (5e6f).
TEST_CASE("the four-player expert looks past the reply to its captures") {
  auto v = test::variant("yonin.yaml");
  koma::Game g(koma::Position::from_text(v, "2K33K42/4R34/9/9/K23S12G1P3/5G13/9/9/3K15 1 - 1 -"));
  koma::Player p(koma::Level::expert, {1, 0, 0, 1});
  CHECK(g.position().move_text(p.choose(g)) == "2e1e");
}

// Individual Shipley: a checkmated king stays on the board until a seat
// attacking it takes it, so a mate wins nothing at once. North's rook k5o5
// (promoting or not) mates East's lone king on o12, the rook n4 covering the
// n-file (as in shipley_test.cpp), while k5k10 takes South's rook for
// nothing. Strong must count the mated seat as beaten and mate.
TEST_CASE("strong mates where a mated king waits to be taken") {
  auto v = test::variant("shipley-individual.yaml");
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"n4", "R1"},  {"k5", "R1"},
                                                     {"k10", "R3"}, {"o12", "K2"}, {"h1", "K3"},
                                                     {"a8", "K4"}};
  koma::Game g = test::from(v, test::text(test::cross15(pieces), 1));
  REQUIRE(test::has_move(g, "k5k10"));
  koma::Player p(koma::Level::strong, {0, 2000, 0, 1});
  koma::Move m = p.choose(g);
  const std::string played = g.position().move_text(m);
  CHECK((played == "k5o5" || played == "k5o5+"));
  g.play(m);
  CHECK(g.position().seats_in_check() == std::vector<int>{2});
}

// Issue 40: a stop() sent before the other thread's choose() had started was
// lost (choose() cleared the flag as it started), and info() was a reference
// that choose() wrote while another thread read it. Every stop() made before
// a choose() returns is now that choose()'s (ai.hpp).
TEST_CASE("a stop() made before choose() ends that choose() only, unsearched") {
  auto v = test::variant("shogi.yaml");
  koma::Game g(v);
  koma::Player p(koma::Level::hard, {0, 3000, 0, 1});
  p.stop();
  p.stop();  // stops do not add up
  CHECK(p.choose(g) == g.legal_moves().front());
  CHECK(p.info().stopped);
  CHECK(p.info().nodes == 0);
  CHECK(p.info().depth == 0);
  // Consumed: the next choose() searches.
  CHECK(g.is_legal(p.choose(g)));
  CHECK_FALSE(p.info().stopped);
  CHECK(p.info().nodes > 0);
  // Withdrawn: not stopped.
  p.stop();
  p.cancel_stop();
  CHECK(g.is_legal(p.choose(g)));
  CHECK_FALSE(p.info().stopped);
  CHECK(p.info().nodes > 0);
  // A choose() that throws consumes it too.
  koma::Game over(v);
  over.resign();
  p.stop();
  CHECK_THROWS_AS(p.choose(over), koma::IllegalMove);
  CHECK(g.is_legal(p.choose(g)));
  CHECK_FALSE(p.info().stopped);
}

TEST_CASE("a stop() racing choose() on another thread ends it while info() is read" *
          doctest::test_suite("threads")) {
  auto v = test::variant("shogi.yaml");
  koma::Game g(v);
  // Only a stop() ends this search in reasonable time.
  koma::Player p(koma::Level::expert, {0, 0, 600, 1});
  for (int i = 0; i < 8; ++i) {
    const koma::SearchInfo before = p.info();
    koma::Move m{};
    std::thread chooser([&] { m = p.choose(g); });
    if (i % 2) std::this_thread::yield();
    p.stop();  // before choose() starts, as it starts or while it searches
    // A whole copy: the choose() before's, or this one's once it returned.
    const koma::SearchInfo during = p.info();
    CHECK((during.stopped ? g.is_legal(during.move)
                          : during.move == before.move && during.nodes == before.nodes));
    chooser.join();
    CHECK(g.is_legal(m));
    CHECK(p.info().stopped);
    CHECK(p.info().move == m);
  }
}
