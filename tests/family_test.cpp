// The two-player shogi family (docs/variants/): each descriptor's start
// position counted to depth 4 against Fairy-Stockfish's counts for its
// variant of the same name (commit c19b5f6, `go perft N`), and the rules
// that set a member apart.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "support.hpp"

namespace {

struct Counts {
  const char* file;
  std::vector<std::uint64_t> perft;  // depths 1, 2, 3, 4
};

// Fairy-Stockfish's start-position counts.
const std::vector<Counts> kFamily = {
    {"minishogi.yaml", {14, 181, 2512, 35401}},
    {"gorogoro.yaml", {16, 250, 4166, 67517}},
    {"judkins.yaml", {20, 336, 6183, 118345}},
};

// The variant with pawn drops that mate allowed, as Fairy-Stockfish lists them.
std::shared_ptr<const koma::Variant> pawn_drop_mate_listed(const std::string& name) {
  return koma::Variant::parse(std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR + "/" + name +
                                  ".yaml\nname: listed\ndrops: {P: {mate: allowed}}\n",
                              "listed.yaml");
}

}  // namespace

TEST_CASE("family: start perft to depth 4 equals Fairy-Stockfish's") {
  for (const Counts& c : kFamily) {
    CAPTURE(c.file);
    koma::Game g(test::variant(c.file));
    for (std::size_t d = 0; d < c.perft.size(); ++d)
      CHECK(koma::perft(g, static_cast<int>(d) + 1) == c.perft[d]);
  }
}

// Rooks step out and back, 4 plies a round: the start position's fourth
// occurrence ends the game after three rounds.
TEST_CASE("family: a repetition lost by a fixed seat (minishogi) or by the mover") {
  const std::vector<std::string> round = {"1e1d", "5a5b", "1d1e", "5b5a"};
  auto play_rounds = [&](koma::Game& g) {
    for (int r = 0; r < 3; ++r)
      for (const auto& m : round) {
        REQUIRE_FALSE(g.over());
        g.play(m);
      }
  };
  // Minishogi: Sente loses, whoever completed the repetition.
  koma::Game mini(test::variant("minishogi.yaml"));
  play_rounds(mini);
  REQUIRE(mini.over());
  CHECK(mini.result() == koma::Result{{2, 1}, koma::Reason::repetition});
  // The same with `loser: mover`: Gote made the fourth occurrence.
  const std::string yaml = std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR +
                           "/minishogi.yaml\nname: mover-loses\n"
                           "end: {repetition: {loser: mover}}\n";
  koma::Game mover(koma::Variant::parse(yaml, "mover-loses.yaml"));
  play_rounds(mover);
  REQUIRE(mover.over());
  CHECK(mover.result() == koma::Result{{1, 2}, koma::Reason::repetition});
  // Judkins keeps the draw.
  koma::Game draw(test::variant("judkins.yaml"));
  for (int r = 0; r < 3; ++r)
    for (const auto& m : {"1f1e", "6a6b", "1e1f", "6b6a"}) draw.play(m);
  CHECK(draw.result() == koma::Result{{1, 1}, koma::Reason::repetition});
  // A loser that is no seat.
  const std::string bad = std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR +
                          "/minishogi.yaml\nname: bad\nend: {repetition: {loser: Nobody}}\n";
  CHECK_THROWS_WITH_AS(koma::Variant::parse(bad, "bad.yaml"),
                       doctest::Contains("repetition loser (none, mover or a seat) names no "
                                         "seat: 'Nobody'; seats: Sente, Gote"),
                       koma::DescriptorError);
}

// Positions reached by play, checked move by move: each root move's count at
// depth 2 and the totals at depths 1-3 (tests/data/fsf-family-positions.jsonl).
TEST_CASE("family: positions reached by play match Fairy-Stockfish move by move") {
  int checked = 0;
  for (const YAML::Node& row : test::jsonl("fsf-family-positions.jsonl")) {
    const std::string name = row["variant"].as<std::string>();
    const bool shipped = std::any_of(kFamily.begin(), kFamily.end(),
                                     [&](const Counts& c) { return name + ".yaml" == c.file; });
    if (!shipped) continue;
    CAPTURE(name);
    koma::Game g(test::variant(name + ".yaml"));
    for (const auto& m : row["moves"]) g.play(m.as<std::string>());
    CHECK(g.position().text() == row["sfen"].as<std::string>());
    std::map<std::string, std::uint64_t> divide;
    for (const auto& [m, n] : koma::perft_divide(g, 2)) divide[g.position().move_text(m)] = n;
    std::map<std::string, std::uint64_t> expected;
    for (const auto& kv : row["divide1"])
      expected[kv.first.as<std::string>()] = kv.second.as<std::uint64_t>();
    CHECK(divide == expected);
    // Fairy-Stockfish lists a pawn drop that mates (and scores it lost); koma
    // forbids it. The same game with such drops allowed counts as it does.
    const auto perft = row["perft"];
    koma::Game listed(pawn_drop_mate_listed(name));
    for (const auto& m : row["moves"]) listed.play(m.as<std::string>());
    for (int d = 1; d <= 3; ++d) {
      CHECK(koma::perft(listed, d) == perft[d - 1].as<std::uint64_t>());
      CHECK(koma::perft(g, d) <= perft[d - 1].as<std::uint64_t>());
    }
    ++checked;
  }
  CHECK(checked == 8 * static_cast<int>(kFamily.size()));
}
