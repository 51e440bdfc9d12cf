// Helpers shared by the test suites: loading shipped variants and reading the
// JSON Lines test data (JSON is YAML's flow form, so yaml-cpp reads it).
#pragma once
#include <yaml-cpp/yaml.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "koma/koma.hpp"

namespace test {

inline std::shared_ptr<const koma::Variant> variant(const std::string& file,
                                                    const koma::Options& o = {}) {
  return koma::Variant::load(std::string(KOMA_VARIANTS_DIR) + "/" + file, o);
}

// A descriptor extending the shipped `parent` (named x, read as x.yaml), with
// `more` from its fourth line on.
inline std::shared_ptr<const koma::Variant> extended(const std::string& parent,
                                                     const std::string& more) {
  return koma::Variant::parse(
      std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR + "/" + parent + "\nname: x\n" + more,
      "x.yaml");
}

inline std::vector<YAML::Node> jsonl(const std::string& name) {
  std::ifstream in(std::string(KOMA_TEST_DATA) + "/" + name);
  std::vector<YAML::Node> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(YAML::Load(line));
  return out;
}

// The shipped-variant table, tests/data/variants.jsonl (tests/data/README.md):
// one row a descriptor of variants/, with the options, start perft counts and
// CPU levels the tests that list variants use.
inline std::vector<YAML::Node> shipped() {
  return jsonl("variants.jsonl");
}

// A row's descriptor file, as test::variant takes it ("shogi.yaml").
inline std::string file_of(const YAML::Node& row) {
  return row["variant"].as<std::string>() + ".yaml";
}

// The option sets a row lists: the listing tests run each.
inline std::vector<koma::Options> option_sets(const YAML::Node& row) {
  return row["options"].as<std::vector<koma::Options>>();
}

// "shogi.yaml impasse=none": a row's descriptor with one of its option sets.
inline std::string describe(const std::string& file, const koma::Options& options) {
  std::string out = file;
  for (const auto& [key, value] : options) out += " " + key + "=" + value;
  return out;
}

inline std::vector<std::string> sorted_texts(const koma::Game& g) {
  std::vector<std::string> out;
  for (koma::Move m : g.legal_moves()) out.push_back(g.position().move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

inline bool has_move(const koma::Game& g, const std::string& text) {
  auto t = sorted_texts(g);
  return std::find(t.begin(), t.end(), text) != t.end();
}

inline koma::Game play_all(koma::Game g, const std::vector<std::string>& moves) {
  for (const auto& m : moves) g.play(m);
  return g;
}

}  // namespace test

namespace test {

// Position texts built from {square name: piece token} without the library,
// so that loading them also checks the parser. `name(x, y)` names the cell in
// column x, row y (from the top-left); void cells are written `*`.
template <class Name, class Void>
std::string grid(int width, int height, Name name, Void is_void,
                 const std::map<std::string, std::string>& pieces) {
  std::string out;
  for (int y = 0; y < height; ++y) {
    if (y) out += '/';
    int empty = 0;
    auto flush = [&] {
      if (empty > 0) out += std::to_string(empty);
      empty = 0;
    };
    for (int x = 0; x < width; ++x) {
      if (is_void(x, y)) {
        REQUIRE(pieces.count(name(x, y)) == 0);
        flush();
        out += '*';
        continue;
      }
      auto it = pieces.find(name(x, y));
      if (it == pieces.end()) {
        ++empty;
        continue;
      }
      flush();
      out += it->second;
    }
    flush();
  }
  return out;
}

// 9x9 with shogi square names (file 9..1 from the left, rank a..i from the top).
inline std::string board9(const std::map<std::string, std::string>& pieces) {
  return grid(
      9, 9,
      [](int x, int y) {
        return std::string{static_cast<char>('9' - x), static_cast<char>('a' + y)};
      },
      [](int, int) { return false; }, pieces);
}

// Shipley's cross board: algebraic names (a..o from the left, 15..1 from the
// top), the four 3x3 corners void.
inline std::string cross15(const std::map<std::string, std::string>& pieces) {
  auto name = [](int x, int y) {
    std::string n(1, static_cast<char>('a' + x));
    n += std::to_string(15 - y);
    return n;
  };
  return grid(
      15, 15, name, [](int x, int y) { return (x < 3 || x > 11) && (y < 3 || y > 11); }, pieces);
}

inline std::string text(const std::string& board, int to_move, const std::string& hands = "-",
                        int ply = 1, const std::string& eliminated = "-") {
  std::string t = board;
  for (const std::string& field :
       {std::to_string(to_move), hands, std::to_string(ply), eliminated}) {
    t += ' ';
    t += field;
  }
  return t;
}

// Position text on the 9x9 board from {square name: piece token}.
inline std::string text9(const std::map<std::string, std::string>& pieces, int to_move,
                         const std::string& hands = "-", int ply = 1,
                         const std::string& eliminated = "-") {
  return text(board9(pieces), to_move, hands, ply, eliminated);
}

// Loads a canonical text, checking that it reads back unchanged.
inline koma::Game from(std::shared_ptr<const koma::Variant> v, const std::string& t) {
  koma::Position p = koma::Position::from_text(std::move(v), t);
  CHECK(p.generic_text() == t);
  return koma::Game(p);
}

inline std::optional<koma::PieceOnBoard> at(const koma::Game& g, const std::string& square) {
  auto sq = g.variant().parse_square(square);
  REQUIRE(sq.has_value());
  return g.position().at(*sq);
}

// True if `square` holds an overturned king of `seat` (Yonin's eliminated seats).
inline bool overturned_king_of(const koma::Game& g, const std::string& square, int seat) {
  auto p = at(g, square);
  return p.has_value() && p->overturned && p->owner == seat;
}

inline int hand(const koma::Game& g, int seat, const std::string& letter) {
  auto kind = g.variant().kind_by_letter(letter);
  REQUIRE(kind.has_value());
  return g.position().in_hand(seat, *kind);
}

}  // namespace test
