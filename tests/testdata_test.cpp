// Positions and whole games from an independent implementation of the rules of
// docs/variants/ (tests/data/README.md): legal-move lists, perft, final positions, places.
#include <doctest/doctest.h>

#include <map>

#include "support.hpp"

namespace {

struct Mode {
  std::string file;
  koma::Options options;
};

// The data's modes: the descriptor and options of each, from the `modes` of
// the shipped-variant table's rows (tests/data/variants.jsonl).
const std::map<std::string, Mode>& modes() {
  static const std::map<std::string, Mode> m = [] {
    std::map<std::string, Mode> out;
    for (const YAML::Node& row : test::shipped())
      for (const auto& mode : row["modes"])
        out[mode.first.as<std::string>()] = {test::file_of(row), mode.second.as<koma::Options>()};
    return out;
  }();
  return m;
}

void check_positions(const std::string& file) {
  int checked = 0;
  for (const auto& r : test::jsonl(file)) {
    std::string mode = r["mode"].as<std::string>();
    auto it = modes().find(mode);
    REQUIRE_MESSAGE(it != modes().end(), "no row of tests/data/variants.jsonl has mode " << mode);
    std::string text = r["position"].as<std::string>();
    CAPTURE(mode);
    CAPTURE(text);
    auto v = test::variant(it->second.file, it->second.options);
    koma::Game g(koma::Position::from_text(v, text));
    CHECK(g.position().text() == text);
    CHECK(test::sorted_texts(g) == r["legal"].as<std::vector<std::string>>());
    for (auto p : r["perft"]) {
      int depth = std::stoi(p.first.as<std::string>());
      CHECK(koma::perft(g, depth) == p.second.as<std::uint64_t>());
      // Making and taking back every leaf must count the same.
      CHECK(koma::perft(g, depth, koma::PerftMode::full) == p.second.as<std::uint64_t>());
    }
    ++checked;
  }
  CHECK(checked > 0);
}

void check_games(const std::string& file) {
  int checked = 0;
  for (const auto& r : test::jsonl(file)) {
    std::string mode = r["mode"].as<std::string>();
    auto it = modes().find(mode);
    REQUIRE_MESSAGE(it != modes().end(), "no row of tests/data/variants.jsonl has mode " << mode);
    koma::Options o = it->second.options;
    o["first_seat"] = std::to_string(r["first_seat"].as<int>());
    auto v = test::variant(it->second.file, o);
    koma::Game g(v);
    auto moves = r["moves"].as<std::vector<std::string>>();
    CAPTURE(mode);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      CAPTURE(i);
      CAPTURE(moves[i]);
      REQUIRE_FALSE(g.over());
      g.play(moves[i]);
    }
    CHECK(g.position().text() == r["final_position"].as<std::string>());
    if (r["result"]["places"].IsNull()) {
      CHECK_FALSE(g.over());
    } else {
      REQUIRE(g.over());
      CHECK(g.result()->places == r["result"]["places"].as<std::vector<int>>());
      CHECK(koma::reason_name(g.result()->reason) == r["result"]["reason"].as<std::string>());
    }
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("yonin positions of the independent implementation") {
  check_positions("yonin-positions.jsonl");
}
TEST_CASE("yonin games of the independent implementation") {
  check_games("yonin-games.jsonl");
}
TEST_CASE("shipley positions of the independent implementation") {
  check_positions("shipley-positions.jsonl");
}
TEST_CASE("shipley games of the independent implementation") {
  check_games("shipley-games.jsonl");
}
