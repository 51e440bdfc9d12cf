// Descriptor loading: one test per kind of error, each asserting the message
// and the line and column it points at, plus extends and options.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

#include "support.hpp"

namespace {

// A small valid descriptor; tests replace or append lines.
std::vector<std::string> base() {
  return {
      "koma: 1",                                        // 1
      "name: tiny",                                     // 2
      "board: {width: 3, height: 3}",                   // 3
      "seats:",                                         // 4
      "  - {name: A, facing: up}",                      // 5
      "  - {name: B, facing: down}",                    // 6
      "pieces:",                                        // 7
      "  K: {name: King, moves: K, royal: true}",       // 8
      "  P: {name: Pawn, moves: fW, promotes_to: +P}",  // 9
      "  +P: {name: Tokin, moves: WfF}",                // 10
      "setup: 1K21/3/1K11 1 - 1 -",                     // 11
      "promotion: {zone: far_rows, depth: 1}",          // 12
  };
}

std::string text(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

struct Expect {
  int line, column;
  std::string message;
};

void check_error(const std::vector<std::string>& lines, const Expect& e,
                 const koma::Options& o = {}) {
  CAPTURE(text(lines));
  try {
    koma::Variant::parse(text(lines), "tiny.yaml", o);
    FAIL("no error raised");
  } catch (const koma::DescriptorError& err) {
    CHECK(err.file() == "tiny.yaml");
    CHECK(err.message() == e.message);
    CHECK(err.line() == e.line);
    CHECK(err.column() == e.column);
  }
}

}  // namespace

TEST_CASE("the small descriptor is valid") {
  auto v = koma::Variant::parse(text(base()), "tiny.yaml");
  CHECK(v->seats() == 2);
  CHECK(v->kinds() == 3);
  CHECK(v->start_position().text() == "1K21/3/1K11 1 - 1 -");
  // A's king on 2c may not step next to B's king on 2a (1b, 2b, 3b are all
  // attacked by it): only the sideways steps 3c and 1c remain.
  CHECK(test::sorted_texts(koma::Game(v)) == std::vector<std::string>{"2c1c", "2c3c"});
}

TEST_CASE("unknown key") {
  auto l = base();
  l.push_back("colour: red");
  check_error(l, {13, 1,
                  "unknown key 'colour' in the descriptor; allowed: koma, name, title, notation, "
                  "board, seats, turn_order, teams, pieces, setup, promotion, drops, check, kings, "
                  "mate, no_legal_move, elimination, resignation, end, places, options"});
  l = base();
  l[2] = "board: {width: 3, height: 3, shape: cross}";
  check_error(l, {3, 30, "unknown key 'shape' in board; allowed: width, height, voids, squares"});
}

TEST_CASE("wrong type") {
  auto l = base();
  l[2] = "board: {width: nine, height: 3}";
  check_error(l, {3, 16, "board width must be a whole number from 1 to 16, not 'nine'"});
  l = base();
  l[7] = "  K: {name: King, moves: K, royal: maybe}";
  check_error(l, {8, 36, "royal must be true or false, not 'maybe'"});
  l = base();
  l[4] = "  - {name: A, facing: north}";
  check_error(l, {5, 23, "seat facing cannot be 'north'; allowed: up, right, down, left"});
}

TEST_CASE("unknown piece letter") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +Q}";
  check_error(l, {9, 43, "promotes_to names no declared piece: '+Q'; pieces: K, P, +P"});
  l = base();
  l.push_back("drops: {Q: {nifu: true}}");
  check_error(l, {13, 9, "drops names no declared piece: 'Q'; pieces: K, P, +P"});
}

TEST_CASE("promotion to an undeclared or unpromoted piece") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +S}";
  check_error(l, {9, 43, "promotes_to names no declared piece: '+S'; pieces: K, P, +P"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: K}";
  check_error(
      l,
      {9, 43, "piece P promotes to 'K', which is not a promoted kind (its letter starts with +)"});
}

TEST_CASE("a piece with no moves, and bad Betza") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: '', promotes_to: +P}";
  check_error(l, {9, 26, "piece P has no moves; give its moves in Betza notation, e.g. moves: fW"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fZ, promotes_to: +P}";
  check_error(
      l, {9, 27, "piece P moves 'fZ': atom 'Z' is not supported; atoms are W F D A N K R B Q"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: cW, promotes_to: +P}";
  check_error(l, {9, 26,
                  "piece P moves 'cW': modifier 'c' is not supported; directional modifiers are f "
                  "b l r v s h"});
}

TEST_CASE("squares off the board or on a void") {
  auto l = base();
  l[2] = "board: {width: 3, height: 3, voids: [4a]}";
  check_error(l, {3, 38, "board voids: '4a' is not a square name of this 3x3 board"});
  l = base();
  l[2] = "board: {width: 3, height: 3, voids: [3a]}";
  l[10] = "setup: {A: {K: 3a}, B: {K: 1c}}";
  check_error(l, {11, 16, "setup: '3a' is a void cell, not a square"});
  l = base();
  l[2] = "board: {width: 3, height: 3, voids: [3a]}";
  check_error(l, {11, 8, "setup: row 1, cell 1 is a void; write it as *"});
}

TEST_CASE("missing or bad schema version, duplicate keys, YAML syntax") {
  auto l = base();
  l[0] = "koma: 2";
  check_error(l, {1, 7, "unsupported schema version '2'; this koma reads 'koma: 1'"});
  l = base();
  l.erase(l.begin());
  check_error(l, {1, 1, "the descriptor must start with the schema version 'koma: 1'"});
  l = base();
  l.push_back("name: again");
  check_error(l, {13, 1, "duplicate key 'name'"});
  l = base();
  l[2] = "board: {width: 3, height: 3";
  try {
    koma::Variant::parse(text(l), "tiny.yaml");
    FAIL("no error");
  } catch (const koma::DescriptorError& e) {
    CHECK(e.message().rfind("YAML syntax error: ", 0) == 0);
    CHECK(e.line() >= 3);
  }
}

TEST_CASE("extends: merge, relative paths, and cycles") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "koma_extends_test";
  fs::create_directories(dir / "sub");
  {
    std::ofstream(dir / "base.yaml") << text(base());
    std::ofstream(dir / "sub" / "child.yaml")
        << "koma: 1\nextends: ../base.yaml\nname: child\nboard: {height: 3}\n";
    std::ofstream(dir / "a.yaml") << "koma: 1\nextends: b.yaml\n";
    std::ofstream(dir / "b.yaml") << "koma: 1\nname: b\nextends: a.yaml\n";
  }
  auto child = koma::Variant::load((dir / "sub" / "child.yaml").string());
  CHECK(child->name() == "child");
  CHECK(child->width() == 3);  // merged from the base's board mapping
  try {
    koma::Variant::load((dir / "a.yaml").string());
    FAIL("no error");
  } catch (const koma::DescriptorError& e) {
    CHECK(e.message() == "'extends' makes a cycle: a.yaml is already being loaded");
    CHECK(e.file() == (dir / "b.yaml").string());
    CHECK(e.line() == 3);
    CHECK(e.column() == 10);
  }
  fs::remove_all(dir);
}

TEST_CASE("a descriptor path must name a regular file") {
  // Checked before the file is opened: a FIFO would make Variant::load wait for
  // a writer forever, a directory read as an empty text.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "koma_special_file_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "folder");
  auto message = [](const fs::path& path) {
    try {
      koma::Variant::load(path.string());
    } catch (const koma::DescriptorError& e) {
      CHECK(e.file() == path.string());
      CHECK(e.line() == 0);
      return e.message();
    }
    return std::string("no error");
  };
  CHECK(message(dir / "folder") == "the descriptor file is a directory, not a regular file");
#if !defined(_WIN32)
  REQUIRE(mkfifo((dir / "pipe.yaml").c_str(), 0600) == 0);
  CHECK(message(dir / "pipe.yaml") == "the descriptor file is not a regular file");
  // The same check for a file that `extends` one.
  std::ofstream(dir / "child.yaml") << "koma: 1\nextends: pipe.yaml\n";
  try {
    koma::Variant::load((dir / "child.yaml").string());
    FAIL("no error");
  } catch (const koma::DescriptorError& e) {
    CHECK(e.message() ==
          "'extends' names '" + (dir / "pipe.yaml").string() + "', which is not a regular file");
  }
#endif
  fs::remove_all(dir);
}

TEST_CASE("options: values not allowed, unknown names, substitution") {
  const std::string shogi = std::string(KOMA_VARIANTS_DIR) + "/shogi.yaml";
  try {
    koma::Variant::load(shogi, {{"impasse", "sometimes"}});
    FAIL("no error");
  } catch (const koma::DescriptorError& e) {
    CHECK(e.message() ==
          "option impasse cannot be 'sometimes'; allowed: none, both_kings_entered_24, csa27, "
          "csa24, try");
    CHECK(e.line() == 49);
    CHECK(e.column() == 3);
  }
  CHECK_THROWS_WITH_AS(
      koma::Variant::load(shogi, {{"colour", "red"}}),
      doctest::Contains(
          "unknown option 'colour'; options of this variant: first_seat, impasse, max_plies"),
      koma::DescriptorError);
  CHECK_THROWS_WITH_AS(
      koma::Variant::load(shogi, {{"first_seat", "3"}}),
      doctest::Contains("option first_seat must be a whole number from 1 to 2, not '3'"),
      koma::DescriptorError);
  auto v = koma::Variant::load(shogi, {{"impasse", "csa27"}, {"first_seat", "2"}});
  CHECK(v->options().at("impasse") == "csa27");
  CHECK(v->has_declaration());
  CHECK(v->start_position().to_move() == 2);
  auto l = base();
  l.push_back("options: {depth: {type: int, default: 1, min: 1, max: 3}}");
  l[11] = "promotion: {zone: far_rows, depth: $depth}";
  CHECK(koma::Variant::parse(text(l), "tiny.yaml", {{"depth", "2"}})->options().at("depth") == "2");
  l[11] = "promotion: {zone: far_rows, depth: $deep}";
  check_error(l, {12, 36, "'$deep' names no option; options: depth, first_seat, max_plies"});
}
