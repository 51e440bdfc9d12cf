// dialect: one game written two ways. Kyoto shogi and dobutsu read and write
// Fairy-Stockfish's letters by default and lishogi's with the option
// `dialect=lishogi` (docs/variants/kyotoshogi.md, dobutsu.md); the rules are
// the same either way.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "support.hpp"

namespace {

std::shared_ptr<const koma::Variant> in_dialect(const std::string& file,
                                                const std::string& dialect) {
  return test::variant(file, {{"dialect", dialect}});
}

std::vector<std::string> legal_texts(const koma::Position& p) {
  std::vector<std::string> out;
  for (const koma::Move& m : p.legal_moves()) out.push_back(p.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// Games of seeded random play with shogiops 0.18.0, lishogi's own library
// (tests/data/shogiops-kyoto-games.jsonl, tests/data/README.md): at every
// ply its SFEN, and its legal moves in USI.
TEST_CASE("dialect: kyoto shogi in lishogi's letters matches shogiops position by position") {
  auto lishogi = in_dialect("kyotoshogi.yaml", "lishogi");
  auto fsf = in_dialect("kyotoshogi.yaml", "fairy-stockfish");
  int games = 0, plies = 0;
  for (const YAML::Node& row : test::jsonl("shogiops-kyoto-games.jsonl")) {
    const std::string seed = row["seed"].as<std::string>();
    CAPTURE(seed);
    koma::Game g(lishogi), other(fsf);
    const YAML::Node sfens = row["sfens"], legal = row["legal"], moves = row["moves"];
    for (std::size_t i = 0; i < sfens.size(); ++i) {
      CAPTURE(i);
      CHECK(g.position().text() == sfens[i].as<std::string>());
      CHECK(legal_texts(g.position()) == legal[i].as<std::vector<std::string>>());
      // The same game in Fairy-Stockfish's letters: the same position.
      CHECK(other.position().generic_text() == g.position().generic_text());
      if (i == moves.size()) break;
      const koma::Move m = g.position().parse_move(moves[i].as<std::string>());
      // Written in the other dialect and read back there, the same move.
      const std::string written = other.position().move_text(m);
      CHECK(other.position().parse_move(written) == m);
      g.play(m);
      other.play(written);
      ++plies;
    }
    ++games;
  }
  CHECK(games >= 10);
  CHECK(plies >= 400);
}

TEST_CASE("dialect: kyoto shogi's letters, hands and turn marks in each dialect") {
  auto lishogi = in_dialect("kyotoshogi.yaml", "lishogi");
  auto fsf = test::variant("kyotoshogi.yaml");  // the default
  koma::Game l(lishogi), f(fsf);
  CHECK(l.position().text() == "pgkst/5/5/5/TSKGP b - 1");
  CHECK(f.position().text() == "p+nks+l/5/5/5/+LSK+NP b - 1");
  // The tokin on 5e turns back into a lance: '+' in lishogi's, '-' in
  // Fairy-Stockfish's; the other way round is refused in lishogi's.
  CHECK(test::has_move(l, "5e5d+"));
  CHECK(test::has_move(f, "5e5d-"));
  CHECK_THROWS_WITH_AS(l.play("5e5d-"), doctest::Contains("marks every turn over with '+'"),
                       koma::NotationError);
  // A captured lance goes to hand as lishogi's tokin: T in its hand, and
  // dropped as T (the tokin side) or L.
  koma::Game taken(koma::Position::from_text(lishogi, "k4/5/5/t4/K4 b - 1"));
  taken.play("5e5d");
  CHECK(taken.position().text() == "k4/5/5/K4/5 w T 2");
}

TEST_CASE("dialect: dobutsu in lishogi's letters (scalashogi's Dobutsu)") {
  koma::Game l(in_dialect("dobutsu.yaml", "lishogi")), f(test::variant("dobutsu.yaml"));
  // scalashogi's start, rook king bishop for giraffe lion elephant.
  CHECK(l.position().text() == "rkb/1p1/1P1/BKR b - 1");
  CHECK(f.position().text() == "gle/1c1/1C1/ELG b - 1");
  // The chick takes the chick, the lion takes back, the chick is dropped.
  for (const char* m : {"2c2b", "2a2b", "P*2c"}) l.play(m);
  for (const char* m : {"2c2b", "2a2b", "C*2c"}) f.play(m);
  CHECK(l.position().text() == "r1b/1k1/1P1/BKR w p 4");
  CHECK(f.position().text() == "g1e/1l1/1C1/ELG w c 4");
  CHECK(l.position().generic_text() == f.position().generic_text());
  // Each dialect reads only its own letters.
  CHECK_THROWS_AS(koma::Position::from_text(l.position().variant_ptr(), "gle/1c1/1C1/ELG b - 1"),
                  koma::NotationError);
}

TEST_CASE("dialect.letters, dialect.hand, dialect.turn_mark: checked where written") {
  // (The shipped dialect choice is replaced whole.)
  auto parse = [](const std::string& more) {
    return test::extended("kyotoshogi.yaml", "replace: [dialect]\n" + more);
  };
  CHECK_THROWS_WITH_AS(parse("dialect: {letters: {+N: S}}\n"),
                       doctest::Contains("'S' is written for S too"), koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("dialect: {letters: {+N: gg}}\n"),
                       doctest::Contains("must be one capital letter, or '+' and one"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("dialect: {hand: {+N: G}}\n"),
                       doctest::Contains("never stands in a hand as itself"),
                       koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("dialect: {letters: {Q: G}}\n"),
                       doctest::Contains("names no declared piece: 'Q'"), koma::DescriptorError);
  CHECK_THROWS_WITH_AS(parse("dialect: {turn_mark: minus}\n"),
                       doctest::Contains("allowed: plus_minus, plus"), koma::DescriptorError);
  CHECK_THROWS_WITH_AS(test::variant("kyotoshogi.yaml", {{"dialect", "chess"}}),
                       doctest::Contains("chess"), koma::DescriptorError);
}
