// API misuse is an error, never undefined behaviour; a Variant is shared by
// threads that each play their own games.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
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

namespace {

// Each seat moves a silver to an empty square, then each moves it back: one
// round trip returns to the position the trip started from.
void silver_round_trip(koma::Game& g) {
  std::vector<koma::Move> out;
  const auto silver = g.variant().kind_by_letter("S");
  REQUIRE(silver);
  for (int seat = 0; seat < g.variant().seats(); ++seat) {
    koma::Move pick{};
    bool found = false;
    for (koma::Move m : g.legal_moves()) {
      if (m.is_drop() || m.promote || g.position().at(m.to)) continue;
      auto p = g.position().at(m.from);
      // Squares are named file digit, rank letter: a diagonal step changes both.
      const std::string from = g.variant().square_name(m.from), to = g.variant().square_name(m.to);
      if (p && p->kind == *silver && from[0] != to[0] && from[1] != to[1]) {
        pick = m;
        found = true;
        break;
      }
    }
    REQUIRE(found);
    g.play(pick);
    out.push_back(pick);
  }
  for (koma::Move m : out) g.play(koma::Move::board(m.to, m.from));
}

// Everything a const Game answers, as text.
struct Reading {
  std::vector<std::string> moves, illegal;
  std::vector<bool> legal;
  bool over = false;
  int occurrences = 0;
  std::string position, result, rule_ending, start;
  bool referee = false;
  std::size_t history = 0;
  std::uint64_t leaves = 0;
  std::string choice;
  bool operator==(const Reading&) const = default;
};

Reading read_all(const koma::Game& g) {
  Reading r;
  for (koma::Move m : g.legal_moves()) r.moves.push_back(g.position().move_text(m));
  const std::vector<koma::Move> probes = {g.legal_moves().front(), koma::Move::board(0, 1),
                                          koma::Move::drop(0, 40)};
  for (koma::Move m : probes) {
    r.legal.push_back(g.is_legal(m));
    r.illegal.push_back(g.why_illegal(m));
  }
  r.over = g.over();
  r.occurrences = g.occurrences();
  r.position = g.position().text();
  r.result = g.result() ? "some" : "none";
  r.rule_ending = g.rule_ending() ? "some" : "none";
  r.history = g.history().size();
  r.start = g.start().text() + " " + g.variant().name();
  r.referee = g.referee() == koma::Game::Referee::koma;
  r.leaves = koma::perft(g, 2);
  koma::Player p(koma::Level::normal, {0, 300, 0, 7});
  r.choice = g.position().move_text(p.choose(g));
  return r;
}

}  // namespace

// Bug (issue 12): legal_moves, is_legal and why_illegal used to push and pop
// probe states on the game's own line while testing for forbidden
// repetitions, so threads reading one game corrupted it.
TEST_CASE("one Game read by threads at once while every move is probed for repetition" *
          doctest::test_suite("threads")) {
  koma::Game g(test::variant("yonin-inherit.yaml"));  // perpetual check forbidden, count 4
  silver_round_trip(g);
  silver_round_trip(g);
  REQUIRE(g.occurrences() == 3);  // one more would be a fourfold repetition
  REQUIRE(g.history().size() == 16);
  const Reading alone = read_all(g);
  // South's start moves: three pawn pushes, two for each silver, one for each
  // gold (the rook is boxed in).
  CHECK(alone.moves.size() == 9);
  CHECK(alone.legal == std::vector<bool>{true, false, false});
  std::vector<Reading> seen(4);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (auto& r : seen)
    threads.emplace_back([&] {
      ++ready;
      while (ready < 4) std::this_thread::yield();  // start together
      for (int i = 0; i < 200; ++i) {
        Reading mine = read_all(g);
        if (!(mine == alone)) return;
        r = mine;
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& r : seen) CHECK(r == alone);
  CHECK(g.occurrences() == 3);
  CHECK(g.history().size() == 16);
}

// Repetition is counted per position, however long the game: kings walking
// out and back (4 plies a round) under an outside referee, so that play goes
// on past the fourfold repetition.
TEST_CASE("occurrences and rule endings over a long shuffling game, and after undo") {
  koma::Game g(test::variant("shogi.yaml"), koma::Game::Referee::outside);
  const std::vector<std::string> round = {"5i5h", "5a5b", "5h5i", "5b5a"};
  const int rounds = 3000;
  for (int r = 0; r < rounds; ++r) {
    for (const auto& m : round) g.play(m);
    if (r == 2) {
      CHECK(g.occurrences() == 4);  // the start and three returns
      REQUIRE(g.rule_ending());
      CHECK(g.rule_ending()->reason == koma::Reason::repetition);
    }
  }
  CHECK(g.occurrences() == rounds + 1);
  CHECK_FALSE(g.over());
  // After one king's step the position is new at every round but the first.
  g.undo();
  CHECK(g.occurrences() == rounds);
  g.undo();
  g.undo();
  g.undo();
  CHECK(g.occurrences() == rounds);  // back at the start position
  // Taking back to the third return removes the repetition that was reported.
  while (g.history().size() > 12) g.undo();
  CHECK(g.occurrences() == 4);
  CHECK(g.rule_ending());
  g.undo();
  CHECK_FALSE(g.rule_ending());
  CHECK(g.occurrences() == 3);  // 5b5a's position: after 5h5i with Gote's king on 5b
}

TEST_CASE("accessors and decisions out of range: seats, reasons, time limits") {
  auto v = test::variant("yonin.yaml");
  koma::Game g(v);
  // Seats count from 1; a seat that does not exist is not active (seat 0 was
  // a negative shift).
  CHECK(g.position().active(1));
  CHECK(g.position().active(4));
  CHECK_FALSE(g.position().active(0));
  CHECK_FALSE(g.position().active(5));
  CHECK_FALSE(g.position().active(-1));
  CHECK_FALSE(g.position().active(1000));
  // An adjudication names why the game ended.
  CHECK_THROWS_AS(g.adjudicate({1, 2, 3, 4}, koma::Reason::none), koma::IllegalMove);
  CHECK_THROWS_AS(g.adjudicate({1, 2, 3, 4}, static_cast<koma::Reason>(99)), koma::IllegalMove);
  CHECK_THROWS_AS(g.adjudicate({1, 2, 3, 4}, static_cast<koma::Reason>(-1)), koma::IllegalMove);
  // The empty word past the last reason is no reason either.
  CHECK(koma::reason_from_name("") == koma::Reason::none);
  CHECK(koma::reason_name(static_cast<koma::Reason>(koma::kReasonCount - 1)) == "lone_royals");
  CHECK_THROWS_AS(g.adjudicate({1, 2, 3, 4}, static_cast<koma::Reason>(koma::kReasonCount)),
                  koma::IllegalMove);
  // Places are competition ranks: a shared place skips the places after it.
  for (const std::vector<int>& wrong : std::vector<std::vector<int>>{
           {1, 1, 2, 3}, {2, 2, 3, 4}, {4, 4, 4, 4}, {1, 3, 3, 3}, {1, 2, 4, 4}})
    CHECK_THROWS_AS(g.adjudicate(wrong), koma::IllegalMove);
  CHECK_FALSE(g.over());
  CHECK(g.history().empty());
  koma::Game tie(v);
  tie.adjudicate({1, 1, 3, 3});
  CHECK(tie.result() == koma::Result{{1, 1, 3, 3}, koma::Reason::adjudicated});
  g.adjudicate({2, 1, 3, 4}, koma::Reason::max_plies);
  CHECK(g.result() == koma::Result{{2, 1, 3, 4}, koma::Reason::max_plies});
  // Time limits: a number from 0 to kMaxSeconds (NaN and infinity overflowed
  // the deadline or searched without end).
  using koma::Level;
  CHECK_THROWS_AS(koma::Player(Level::expert, {0, 0, std::nan(""), 1}), koma::Error);
  CHECK_THROWS_AS(koma::Player(Level::expert, {0, 0, HUGE_VAL, 1}), koma::Error);
  CHECK_THROWS_AS(koma::Player(Level::expert, {0, 0, 1e10, 1}), koma::Error);
  CHECK_THROWS_AS(koma::Player(Level::expert, {0, 0, -1, 1}), koma::Error);
  CHECK_THROWS_AS(koma::Player(Level::expert, {-1, 0, 0, 1}), koma::Error);
  // Depth limits: 0 to kMaxDepth (a deeper fixed-depth search overflowed the
  // stack).
  CHECK_THROWS_AS(koma::Player(Level::medium, {koma::kMaxDepth + 1, 0, 0, 1}), koma::Error);
  CHECK_NOTHROW(koma::Player(Level::medium, {koma::kMaxDepth, 0, 0, 1}));
  CHECK_NOTHROW(koma::Player(Level::expert, {0, 0, koma::kMaxSeconds, 1}));
  // A limit of a million seconds still leaves the node limit in charge.
  koma::Game shogi(test::variant("shogi.yaml"));
  koma::Player p(Level::expert, {0, 500, koma::kMaxSeconds, 1});
  CHECK(shogi.is_legal(p.choose(shogi)));
  CHECK(p.info().nodes <= 600);
}

// Bug (issue 12): a descriptor inside every documented limit can give more
// legal moves than the old fixed list held (8 192), which threw
// std::bad_alloc. Fifteen rider kinds that may promote anywhere, 36 of them
// on a 16x16 board, and one of each kind in hand that may be dropped either
// side up (10 598 moves; their DD and AA land on squares Q reaches too, and
// each move is listed once).
TEST_CASE("a position with more than 8192 legal moves") {
  const std::string yaml = R"(koma: 1
name: many-moves
board: {width: 16, height: 16, squares: algebraic, voids: p1}
seats:
  - {name: A, facing: up}
  - {name: B, facing: down}
pieces:
  K: {name: King, moves: K, royal: true}
  A: {name: Rider A, moves: QNNDDAA, promotes_to: +A}
  +A: {name: Crowned rider A, moves: QNNDDAA}
  B: {name: Rider B, moves: QNNDDAA, promotes_to: +B}
  +B: {name: Crowned rider B, moves: QNNDDAA}
  C: {name: Rider C, moves: QNNDDAA, promotes_to: +C}
  +C: {name: Crowned rider C, moves: QNNDDAA}
  D: {name: Rider D, moves: QNNDDAA, promotes_to: +D}
  +D: {name: Crowned rider D, moves: QNNDDAA}
  E: {name: Rider E, moves: QNNDDAA, promotes_to: +E}
  +E: {name: Crowned rider E, moves: QNNDDAA}
  F: {name: Rider F, moves: QNNDDAA, promotes_to: +F}
  +F: {name: Crowned rider F, moves: QNNDDAA}
  G: {name: Rider G, moves: QNNDDAA, promotes_to: +G}
  +G: {name: Crowned rider G, moves: QNNDDAA}
  H: {name: Rider H, moves: QNNDDAA, promotes_to: +H}
  +H: {name: Crowned rider H, moves: QNNDDAA}
  I: {name: Rider I, moves: QNNDDAA, promotes_to: +I}
  +I: {name: Crowned rider I, moves: QNNDDAA}
  J: {name: Rider J, moves: QNNDDAA, promotes_to: +J}
  +J: {name: Crowned rider J, moves: QNNDDAA}
  L: {name: Rider L, moves: QNNDDAA, promotes_to: +L}
  +L: {name: Crowned rider L, moves: QNNDDAA}
  M: {name: Rider M, moves: QNNDDAA, promotes_to: +M}
  +M: {name: Crowned rider M, moves: QNNDDAA}
  N: {name: Rider N, moves: QNNDDAA, promotes_to: +N}
  +N: {name: Crowned rider N, moves: QNNDDAA}
  O: {name: Rider O, moves: QNNDDAA, promotes_to: +O}
  +O: {name: Crowned rider O, moves: QNNDDAA}
  P: {name: Rider P, moves: QNNDDAA, promotes_to: +P}
  +P: {name: Crowned rider P, moves: QNNDDAA}
promotion: {zone: far_rows, depth: 16}
drops: {promoted: allowed}
# Kings may be left attacked and are captured (no check): the start position
# may have a king under attack.
check: {enabled: false}
kings: {capture: eliminates}
setup: K26A16B11/4C16D14/1E16F16G1/5H16I13/2J16L16/6M16N12/3O16P15/A16B16C11/4D16E14/1F16G16H1/5I16J13/2L16M16/6N16O12/3P16A15/B16C16D11/K13E16F13* 1 1:ABCDEFGHIJLMNOP 1 -
)";
  auto v = koma::Variant::parse(yaml, "many-moves.yaml");
  koma::Game g(v);
  const koma::Position& p = g.position();
  int empty = 0;
  for (int sq = 0; sq < v->squares(); ++sq)
    if (v->is_square(sq) && !p.at(sq)) ++empty;
  CHECK(empty == 255 - 38);  // 256 cells less the void p1, 36 riders and 2 kings
  const auto moves = g.legal_moves();
  CHECK(moves.size() > 8192);
  std::set<std::string> distinct;
  for (koma::Move m : moves) distinct.insert(p.move_text(m));
  CHECK(distinct.size() == moves.size());
  // Drops have no restriction here: each of the 15 kinds, either side up, on
  // every empty square.
  auto drops = std::count_if(moves.begin(), moves.end(), [](koma::Move m) { return m.is_drop(); });
  CHECK(drops == 2 * 15 * empty);
  // Every rider's move may promote or not (the zone is the whole board).
  const auto king = v->kind_by_letter("K");
  int plain = 0, promoting = 0;
  for (koma::Move m : moves)
    if (!m.is_drop() && p.at(m.from)->kind != *king) (m.promote ? promoting : plain) += 1;
  CHECK(promoting == plain);
  CHECK(promoting > 2000);
  CHECK(koma::perft(g, 1) == moves.size());
  CHECK(p.legal_moves().size() == moves.size());
}

namespace {

// Every move that can be written for the variant (each cell to each cell,
// plain and promoting; each kind dropped on each cell; one kind and one
// cell past the last) asked of is_legal, against the list legal_moves gives.
void check_is_legal_everywhere(const koma::Game& g) {
  const auto listed = g.legal_moves();
  const koma::Variant& v = g.variant();
  auto listed_has = [&](koma::Move m) {
    return std::find(listed.begin(), listed.end(), m) != listed.end();
  };
  int legal = 0, asked = 0;
  auto ask = [&](koma::Move m) {
    const bool in = listed_has(m);
    if (g.is_legal(m) != in) {
      CAPTURE(static_cast<int>(m.from));
      CAPTURE(static_cast<int>(m.to));
      CAPTURE(static_cast<int>(m.kind));
      CAPTURE(m.promote);
      CHECK(g.is_legal(m) == in);
    }
    legal += in;
    ++asked;
  };
  const int cells = std::min(v.squares() + 1, 255);
  for (int from = 0; from < cells; ++from)
    for (int to = 0; to < cells; ++to)
      for (bool promote : {false, true}) ask(koma::Move::board(from, to, promote));
  for (int kind = 0; kind <= v.kinds(); ++kind)
    for (int to = 0; to < cells; ++to) ask(koma::Move::drop(kind, to));
  CHECK(legal == static_cast<int>(listed.size()));
  CHECK(asked > 2 * v.squares() * v.squares());
}

}  // namespace

// is_legal answers without listing every legal move (the search asks it
// of the moves its table keeps): the same answer as legal_moves' list for
// every move that can be written, in positions of every board and rule set.
// Issue 40: where two atoms of a piece reach one square (a rook's ray and a
// dabbaba's leap both reach two squares ahead), the move was listed twice.
TEST_CASE("legal_moves lists a move once where two atoms reach its square") {
  // 5x5: B's king on 4a, A's king on 1e, A's piece O on 3c.
  auto game_with = [](const std::string& moves) {
    const std::string yaml =
        "koma: 1\nname: overlap\nboard: {width: 5, height: 5}\n"
        "seats:\n  - {name: A, facing: up}\n  - {name: B, facing: down}\n"
        "pieces:\n  K: {name: King, moves: K, royal: true}\n"
        "  O: {name: Overlapper, moves: " +
        moves + "}\nsetup: 1K23/5/2O12/5/4K1 1 - 1 -\n";
    return koma::Game(koma::Variant::parse(yaml, "overlap.yaml"));
  };
  // O's moves counted by hand from the atoms' squares (each once), plus the
  // king's three steps 2e, 2d, 1d.
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"RD", 8 + 3},     // the rook's 8 squares hold the dabbaba's 4
      {"W2D", 8 + 3},    // two steps along each line: the dabbaba's 4 again
      {"BA", 7 + 3},     // 2b 1a 4b 5a 2d 4d 5e; the alfil's 1a 5a 5e among them
      {"QDDAA", 15 + 3}  // the queen's 15 hold every dabbaba and alfil landing
  };
  for (const auto& [moves, expected] : cases) {
    CAPTURE(moves);
    const koma::Game g = game_with(moves);
    const auto listed = g.legal_moves();
    const std::vector<std::string> texts = test::sorted_texts(g);
    const std::set<std::string> distinct(texts.begin(), texts.end());
    CHECK(listed.size() == expected);
    CHECK(distinct.size() == expected);
    CHECK(koma::perft(g, 1, koma::PerftMode::bulk) == expected);
    CHECK(koma::perft(g, 1, koma::PerftMode::full) == expected);
    CHECK(koma::perft_divide(g, 2).size() == expected);
  }
}

TEST_CASE("is_legal agrees with legal_moves on every move that can be written") {
  int positions = 0;
  for (const auto& r : test::jsonl("shogi-rule-edges.jsonl")) {
    koma::Game g(
        koma::Position::from_text(test::variant("shogi.yaml"), r["sfen"].as<std::string>()));
    CAPTURE(r["sfen"].as<std::string>());
    check_is_legal_everywhere(g);
    ++positions;
  }
  const std::map<std::string, std::string> files = {
      {"standard", "yonin.yaml"},        {"king_capture", "yonin-king-capture.yaml"},
      {"inherit", "yonin-inherit.yaml"}, {"individual", "shipley-individual.yaml"},
      {"kings", "shipley-kings.yaml"},   {"team_orthogonal", "shipley-team-orthogonal.yaml"}};
  for (const char* data : {"yonin-positions.jsonl", "shipley-positions.jsonl"}) {
    std::map<std::string, int> per_mode;
    for (const auto& r : test::jsonl(data)) {
      const auto file = files.find(r["mode"].as<std::string>());
      if (file == files.end() || per_mode[file->first]++ >= 3) continue;
      koma::Game g(
          koma::Position::from_text(test::variant(file->second), r["position"].as<std::string>()));
      CAPTURE(r["position"].as<std::string>());
      check_is_legal_everywhere(g);
      ++positions;
    }
  }
  CHECK(positions >= 30);
  // A game that is over has no legal move: the gold dropped on 5b mates
  // the king between its lances (the gold on 5c guards it).
  koma::Game mated(
      koma::Position::from_text(test::variant("shogi.yaml"), "3lkl3/9/4G4/9/9/9/9/9/4K4 b G 1"));
  mated.play("G*5b");
  REQUIRE(mated.over());
  check_is_legal_everywhere(mated);
}
