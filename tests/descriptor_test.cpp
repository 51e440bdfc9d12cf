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
  check_error(
      l, {13, 1,
          "unknown key 'colour' in the descriptor; allowed: koma, name, title, notation, "
          "board, seats, turn_order, teams, pieces, setup, promotion, drops, check, kings, "
          "moves_as, mate, no_legal_move, elimination, resignation, end, lion_trading, places, "
          "options, dead_squares, dialect"});
  l = base();
  l[2] = "board: {width: 3, height: 3, shape: cross}";
  check_error(l, {3, 30, "unknown key 'shape' in board; allowed: width, height, voids, squares"});
}

TEST_CASE("wrong type") {
  auto l = base();
  l[2] = "board: {width: nine, height: 3}";
  check_error(l, {3, 16, "board.width must be a whole number from 1 to 16, not 'nine'"});
  l = base();
  l[7] = "  K: {name: King, moves: K, royal: maybe}";
  check_error(l, {8, 36, "pieces.K.royal must be true or false, not 'maybe'"});
  l = base();
  l[4] = "  - {name: A, facing: north}";
  check_error(l, {5, 23, "seats[].facing cannot be 'north'; allowed: up, right, down, left"});
}

TEST_CASE("unknown piece letter") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +Q}";
  check_error(l, {9, 43, "pieces.P.promotes_to names no declared piece: '+Q'; pieces: K, P, +P"});
  l = base();
  l.push_back("drops: {Q: {nifu: true}}");
  check_error(l, {13, 9, "drops names no declared piece: 'Q'; pieces: K, P, +P"});
}

TEST_CASE("pieces.P.promotes_to: promotion to an undeclared or unpromoted piece is refused") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +S}";
  check_error(l, {9, 43, "pieces.P.promotes_to names no declared piece: '+S'; pieces: K, P, +P"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: K}";
  check_error(
      l,
      {9, 43, "piece P promotes to 'K', which is not a promoted kind (its letter starts with +)"});
}

TEST_CASE("pieces.P.moves: a piece with no moves, and bad Betza") {
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: '', promotes_to: +P}";
  check_error(l, {9, 26, "piece P has no moves; give its moves in Betza notation, e.g. moves: fW"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fZ, promotes_to: +P}";
  check_error(
      l, {9, 27, "piece P moves 'fZ': atom 'Z' is not supported; atoms are W F D A N K R B Q"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: gW, promotes_to: +P}";
  check_error(l, {9, 26,
                  "piece P moves 'gW': modifier 'g' is not supported; modifiers are f b l r v s h "
                  "(directions) and m c p (move only, capture only, hop)"});
  // A hop over a piece right beside, onto nothing: a hop needs room.
  l = base();
  l[8] = "  P: {name: Pawn, moves: fpW, promotes_to: +P}";
  check_error(l, {9, 26,
                  "piece P moves 'fpW': a hopper ('p') lands beyond the piece it jumps: give it a "
                  "rider (pR, pB) or a range of at least 2 (pB2; the range counts the screen's "
                  "square)"});
}

TEST_CASE("board.voids, setup: squares off the board or on a void") {
  auto l = base();
  l[2] = "board: {width: 3, height: 3, voids: [4a]}";
  check_error(l, {3, 38, "board.voids: '4a' is not a square name of this 3x3 board"});
  l = base();
  l[2] = "board: {width: 3, height: 3, voids: [3a]}";
  l[10] = "setup: {A: {K: 3a}, B: {K: 1c}}";
  check_error(l, {11, 16, "setup: '3a' is a void cell, not a square"});
  l = base();
  l[2] = "board: {width: 3, height: 3, voids: [3a]}";
  check_error(l, {11, 8, "setup: row 1, cell 1 is a void; write it as *"});
}

TEST_CASE("koma: missing or bad schema version, duplicate keys, YAML syntax") {
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

TEST_CASE("options.impasse.values: a value not allowed, unknown names, substitution") {
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

namespace {

const std::string kVariants = std::string(KOMA_VARIANTS_DIR) + "/";

// The DescriptorError of parsing `yaml` as "child.yaml".
koma::DescriptorError child_error(const std::string& yaml, const koma::Options& o = {}) {
  try {
    koma::Variant::parse(yaml, "child.yaml", o);
  } catch (const koma::DescriptorError& e) {
    return e;
  }
  FAIL("no DescriptorError raised");
  return koma::DescriptorError("", 0, 0, "");
}

std::string piece_at(const koma::Position& p, const std::string& square) {
  auto on = p.at(*p.variant().parse_square(square));
  if (!on) return "-";
  return p.variant().kind_info(on->kind).letter + std::to_string(on->owner);
}

}  // namespace

TEST_CASE("extends, replace: replace takes a top-level key whole instead of merging it") {
  // yonin.yaml has `setup: {South: {...}, others: rotate}`; this child rotates
  // a smaller West army instead, without having to write `South: ~`.
  const std::string child = "koma: 1\nextends: " + kVariants +
                            "yonin.yaml\n"
                            "name: west\n"
                            "replace: [setup]\n"
                            "setup:\n"
                            "  West: {K: 9e, G: [9d, 9f], P: 8e}\n"
                            "  others: rotate\n";
  auto v = koma::Variant::parse(child, "child.yaml");
  koma::Position start = v->start_position();
  // West's army as written; South, North and East get it turned to their edges.
  CHECK(piece_at(start, "9e") == "K2");
  CHECK(piece_at(start, "8e") == "P2");
  CHECK(piece_at(start, "5i") == "K1");
  CHECK(piece_at(start, "5h") == "P1");
  CHECK(piece_at(start, "6i") == "G1");
  CHECK(piece_at(start, "4i") == "G1");
  CHECK(piece_at(start, "5a") == "K3");
  CHECK(piece_at(start, "1e") == "K4");
  // Nothing of yonin's South army is left (its silvers stood on 7i and 3i).
  CHECK(piece_at(start, "7i") == "-");
  CHECK(piece_at(start, "3i") == "-");
  int pieces = 0;
  for (int sq = 0; sq < v->width() * v->height(); ++sq) pieces += start.at(sq) ? 1 : 0;
  CHECK(pieces == 16);
  // The other keys still merge: yonin's pieces, promotion and options are there.
  CHECK(v->kinds() == 8);
  CHECK(v->options().count("pawn_drop_mate") == 1);

  auto e = child_error("koma: 1\nextends: " + kVariants +
                       "yonin.yaml\nname: west\nreplace: [setup, promtion]\n");
  CHECK(e.file() == "child.yaml");
  CHECK(e.message() == "unknown key 'promtion' in replace; did you mean 'promotion'?");
  CHECK(e.line() == 4);
  CHECK(e.column() == 18);
  e = child_error("koma: 1\nextends: " + kVariants + "yonin.yaml\nname: west\nreplace: [koma]\n");
  // Every top-level key but koma (the list grows with the schema).
  CHECK(e.message().rfind("unknown key 'koma' in replace; allowed: name, title, notation, board, ",
                          0) == 0);
  CHECK(e.message().find("koma, ") == std::string::npos);
  CHECK(e.line() == 4);
  CHECK(e.column() == 11);
  e = child_error("koma: 1\nextends: " + kVariants + "yonin.yaml\nname: west\nreplace: [drops]\n");
  CHECK(e.message() ==
        "replace names 'drops', which this file does not give; to remove the base's, write "
        "'drops: ~'");
  CHECK(e.line() == 4);
  CHECK(e.column() == 11);
  e = child_error("koma: 1\nextends: " + kVariants +
                  "yonin.yaml\nname: west\nreplace: [setup, setup]\nsetup: 5/5/5 1 - 1\n");
  CHECK(e.message() == "replace names 'setup' twice");
  CHECK(e.column() == 18);
  // One key may be written alone; a null value removes the base's key, as `setup: ~` would.
  e = child_error("koma: 1\nextends: " + kVariants +
                  "yonin.yaml\nname: west\nreplace: setup\nsetup: ~\n");
  CHECK(e.message() == "the descriptor needs a 'setup': a position text, or placements per seat");
  CHECK(e.line() == 1);
  CHECK(e.column() == 1);
  auto l = base();
  l.push_back("replace: [setup]");
  check_error(l, {13, 1,
                  "'replace' names keys that this file gives whole instead of merging them into "
                  "the file it extends; it needs 'extends'"});
}

TEST_CASE("extends: inherited settings for pieces the child does not have are dropped") {
  // shogi.yaml's impasse option names R and B in its points; a child without
  // them used to fail inside shogi.yaml ("impasse points names no declared
  // piece: 'R'", at shogi.yaml:45:43 for csa27).
  const std::string head = "koma: 1\nextends: " + kVariants +
                           "shogi.yaml\n"
                           "name: no-rook-bishop\n"
                           "pieces: {R: ~, +R: ~, B: ~, +B: ~}\n"
                           "setup: lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1\n";
  for (const char* impasse : {"csa27", "csa24", "both_kings_entered_24"}) {
    CAPTURE(impasse);
    auto v = koma::Variant::parse(head, "child.yaml", {{"impasse", impasse}});
    CHECK(v->kinds() == 10);
    CHECK(v->options().at("impasse") == impasse);
  }
  CHECK(koma::Variant::parse(head, "child.yaml", {{"impasse", "csa27"}})->has_declaration());
  // The same with `replace`, giving the pieces whole: shogi's drops rule for
  // P still applies (nifu), and its rules for dropped pieces would be dropped.
  auto gorogoro_like = koma::Variant::parse("koma: 1\nextends: " + kVariants +
                                                "shogi.yaml\n"
                                                "name: small\n"
                                                "replace: [pieces]\n"
                                                "pieces:\n"
                                                "  K:  {name: King, moves: K, royal: true}\n"
                                                "  G:  {name: Gold, moves: WfF}\n"
                                                "  P:  {name: Pawn, moves: fW, promotes_to: +P}\n"
                                                "  +P: {name: Tokin, moves: WfF}\n"
                                                "setup: 3gkg3/9/9/9/9/4P4/9/9/3GKG3 b P 1\n",
                                            "child.yaml", {{"impasse", "csa27"}});
  CHECK(gorogoro_like->kinds() == 4);
  koma::Game g(gorogoro_like);
  CHECK_FALSE(test::has_move(g, "P*5g"));  // nifu: Sente has a pawn on 5f
  CHECK(test::has_move(g, "P*4g"));
  // A letter written in the loaded file itself that names no piece is still an error, there.
  auto e = child_error(head + "drops: {B: {nifu: true}}\n", {{"impasse", "csa27"}});
  CHECK(e.file() == "child.yaml");
  CHECK(e.message() ==
        "drops names no declared piece: 'B'; pieces: K, G, S, +S, N, +N, L, +L, P, +P");
  CHECK(e.line() == 6);
  CHECK(e.column() == 9);
}

TEST_CASE(
    "promotion.depth, drops.P.per_file, end.impasse.min_pieces_in_zone: values that cannot fit the "
    "board are errors") {
  auto l = base();
  l[11] = "promotion: {zone: far_rows, depth: 4}";
  check_error(l, {12, 36, "promotion.depth 4 does not fit a board 3 rows high; at most 3"});
  l = base();
  l[2] = "board: {width: 3, height: 5}";
  l[4] = "  - {name: A, facing: right}";
  l[5] = "  - {name: B, facing: left}";
  l[10] = "setup: {A: {K: 3c}, B: {K: 1c}}";
  l[11] = "promotion: {zone: far_rows, depth: 4}";
  check_error(l, {12, 36, "promotion.depth 4 does not fit a board 3 columns wide; at most 3"});
  // The whole board may be the zone; a depth for a zone that is not far_rows is not used.
  l = base();
  l[11] = "promotion: {zone: far_rows, depth: 3}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
  l[11] = "promotion: {zone: none, depth: 16}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
  l = base();
  l.push_back("drops: {P: {per_file: 4}}");
  check_error(l, {13, 23, "drops.P.per_file 4 does not fit a board 3 rows high; at most 3"});
  l = base();
  l.push_back("end: {impasse: {rule: declaration, win_at: [1, 1], min_pieces_in_zone: 3}}");
  check_error(
      l,
      {13, 72,
       "end.impasse.min_pieces_in_zone 3 does not fit seat A's promotion zone: 3 squares, one of "
       "them for its king; at most 2"});
  l.back() = "end: {impasse: {rule: declaration, win_at: [1, 1], min_pieces_in_zone: 2}}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
  l.back() = "end: {impasse: {rule: declaration, win_at: [1, 1]}}";
  check_error(
      l, {13, 16,
          "end.impasse.min_pieces_in_zone 10 (the default) does not fit seat A's promotion zone: 3 "
          "squares, one of them for its king; at most 2"});
}

TEST_CASE("an unknown key or piece letter suggests the nearest valid one") {
  auto l = base();
  l[11] = "promtion: {zone: far_rows, depth: 1}";
  check_error(l, {12, 1, "unknown key 'promtion' in the descriptor; did you mean 'promotion'?"});
  l = base();
  l[2] = "board: {width: 3, hieght: 3}";
  check_error(l, {3, 19, "unknown key 'hieght' in board; did you mean 'height'?"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +P, promtes_to: +P}";
  check_error(l, {9, 47, "unknown key 'promtes_to' in pieces.P; did you mean 'promotes_to'?"});
  l = base();
  l[10] = "setup: {A: {k: 2c}, B: {K: 2a}}";
  check_error(l, {11, 13, "setup names no declared piece: 'k'; did you mean 'K'?"});
  l = base();
  l[8] = "  P: {name: Pawn, moves: fW, promotes_to: +p}";
  check_error(l, {9, 43, "pieces.P.promotes_to names no declared piece: '+p'; did you mean '+P'?"});
  l = base();
  l.push_back("options: {depth: {type: int, defualt: 1}}");
  check_error(l, {13, 30, "unknown key 'defualt' in option depth; did you mean 'default'?"});
  l = base();
  l.push_back("options: {depth: {type: int, default: 1}}");
  check_error(l, {1, 1, "unknown option 'detph'; did you mean 'depth'?"}, {{"detph", "2"}});
  // Nothing close: the allowed keys or letters are listed, as before.
  l = base();
  l[2] = "board: {width: 3, height: 3, hue: 3}";
  check_error(l, {3, 30, "unknown key 'hue' in board; allowed: width, height, voids, squares"});
}

TEST_CASE("a Betza error in a quoted string points at the character") {
  const std::string bad_z =
      "piece P moves 'fZ': atom 'Z' is not supported; atoms are W F D A N K R B Q";
  // The value starts at column 26; \x66 is one character (f) written as four.
  const std::vector<std::pair<std::string, int>> cases = {
      {"fZ", 27}, {"\"fZ\"", 28}, {"'fZ'", 28}, {"\"\\x66Z\"", 31}};
  for (const auto& [moves, column] : cases) {
    auto l = base();
    l[8] = "  P: {name: Pawn, moves: " + moves + ", promotes_to: +P}";
    check_error(l, {9, column, bad_z});
  }
  auto l = base();
  l[8] = "  P: {name: Pawn, moves: 'W''Z', promotes_to: +P}";  // '' is one quote
  check_error(l, {9, 28,
                  "piece P moves 'W'Z': expected an atom letter (W F D A N K R B Q) after the "
                  "modifiers"});
  l[8] = "  P:\n    name: Pawn\n    promotes_to: +P\n    moves: fZ";
  check_error(l, {12, 13, bad_z});
}

// Issue 40: descriptors whose rules break themselves in play, and values
// that end every game before it starts, are refused at load.

TEST_CASE("pieces.+P.demotes_to, pieces.K.promotes_to: a royal never enters a hand") {
  // Captured, the tokin would go to the captor's hand as the royal K.
  auto l = base();
  l[9] = "  +P: {name: Tokin, moves: WfF, demotes_to: K}";
  check_error(l, {10, 45,
                  "piece +P demotes to the royal K: captured, +P would enter a hand as the royal "
                  "K, and a royal never enters a hand; demote it to a non-royal kind, or make it "
                  "royal too"});
  // A royal that promotes to a plain kind: captured, that kind demotes to it.
  l = base();
  l[7] = "  K: {name: King, moves: K, royal: true, promotes_to: +K}";
  l[9] = "  +P: {name: Tokin, moves: WfF}\n  +K: {name: Emperor, moves: Q}";
  check_error(l, {8, 55,
                  "the royal K promotes to +K, which is not royal: captured, +K would enter a "
                  "hand as the royal K, and a royal never enters a hand; make +K royal too, or "
                  "give K no promotes_to"});
  // Where captured pieces leave the game, no hand is involved.
  l.push_back("drops: {captured: removed}");
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
}

TEST_CASE("pieces.+P.demotes_to: another kind, positions of legal games read back") {
  // +P demotes to L: a captured tokin enters the hand as a lance, so the
  // number of lances changes in play while the pawns, tokins and lances
  // together stay as many as the set has (their family).
  auto l = base();
  l[9] = "  +P: {name: Tokin, moves: WfF, demotes_to: L}\n  L: {name: Lance, moves: fR}";
  l[10] = "setup: 1K21/2P1/1K11 1 - 1 -";
  auto v = koma::Variant::parse(text(l), "tiny.yaml");
  koma::Game g(v);
  g.play("1b1a+");
  g.play("2a1a");  // B's king takes the tokin: a lance in B's hand
  CHECK(g.position().text() == "2K2/3/1K11 1 2:L 3 -");
  const koma::Position back = koma::Position::from_text(v, g.position().text());
  CHECK(back == g.position());
  // Two pieces of the family where the set has one are still refused.
  CHECK_THROWS_WITH_AS(koma::Position::from_text(v, "2K2/3/1K11 1 1:P,2:L 3 -"),
                       "there are 2 Pawn and Lance pieces (with promoted ones); the set has 1",
                       koma::NotationError);
}

TEST_CASE("end.collect: a kind whose number changes in play is refused") {
  auto l = base();
  l[9] = "  +P: {name: Tokin, moves: WfF, demotes_to: L}\n  L: {name: Lance, moves: fR}";
  l[10] = "setup: 1K21/2P1/1K11 1 - 1 -";
  l.push_back("end: {collect: L}");
  check_error(l, {14, 16,
                  "end.collect needs a kind that no other kind turns into, nor it into another; L "
                  "and P turn into one another (promotes_to, demotes_to)"});
}

TEST_CASE("setup, kings.several: at most one royal a seat, unless last_is_royal") {
  auto l = base();
  l[10] = "setup: {A: {K: [2c, 1c]}, B: {K: 2a}}";
  check_error(l, {11, 8, "setup: seat 1 has 2 royal pieces; at most 1 allowed"});
  // The text form says the same.
  l[10] = "setup: 1K21/3/1K1K1 1 - 1 -";
  check_error(l, {11, 8, "setup: seat 1 has 2 royal pieces; at most 1 allowed"});
  // Where several are allowed, the placements' start reads back.
  l[10] = "setup: {A: {K: [2c, 1c]}, B: {K: 2a}}";
  l.push_back("kings: {several: last_is_royal}");
  auto v = koma::Variant::parse(text(l), "tiny.yaml");
  CHECK(koma::Position::from_text(v, v->start_position().text()) == v->start_position());
}

TEST_CASE(
    "end.repetition.count, end.checks, teams, end.goal.depth: values that end or stall every game "
    "are refused (count 1, checks without check, a team of every seat, a goal at the start)") {
  auto l = base();
  l.push_back("end: {repetition: {count: 1}}");
  check_error(l, {13, 27,
                  "end.repetition.count 1 would end every game at its first position (it has "
                  "occurred once); 0 turns the rule off, else from 2 to 100"});
  l.back() = "end: {repetition: {count: 2}}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
  l.back() = "end: {repetition: {count: 0}}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));

  l = base();
  l.push_back("check: {enabled: false}\nkings: {capture: eliminates}\nend: {checks: 3}");
  check_error(l, {15, 15,
                  "end.checks counts checks, and this variant has none (check: {enabled: false}): "
                  "the rule would never end a game"});

  l = base();
  l.push_back("teams: [[A, B]]");
  check_error(l, {13, 9,
                  "this team holds every seat, so no seat would have an enemy to capture or mate; "
                  "leave some seat out"});

  // A goal three rows deep holds each king's start (B's on 2a comes first).
  l = base();
  l.push_back("end: {goal: {depth: 3}}");
  check_error(l, {13, 13,
                  "end.goal: seat B's royal starts on its goal, at 2a, so every game would end at "
                  "its first move; give a smaller depth"});
  l.back() = "end: {goal: {depth: 2}}";
  CHECK_NOTHROW(koma::Variant::parse(text(l), "tiny.yaml"));
}

TEST_CASE("options.depth.min, options.depth.max: min greater than max is refused") {
  auto l = base();
  l.push_back("options: {depth: {type: int, min: 10, max: 1, default: 5}}");
  check_error(l, {13, 44, "option depth has no value: its min, 10, is greater than its max, 1"});
  l.back() = "options: {depth: {type: int, max: -1, default: 5}}";
  check_error(l, {13, 35,
                  "option depth has no value: its min, 0 (the default), is greater than its max, "
                  "-1"});
}

TEST_CASE(
    "options.depth.min, options.depth.max, options.depth.default: an int option takes a value in "
    "its range, its default without one") {
  auto l = base();
  l.emplace_back("options: {depth: {type: int, min: 1, max: 2, default: 2}}");
  l[11] = "promotion: {zone: far_rows, depth: $depth}";
  auto depth = [&](const koma::Options& o) {
    return koma::Variant::parse(text(l), "tiny.yaml", o)->options().at("depth");
  };
  CHECK(depth({}) == "2");
  CHECK(depth({{"depth", "1"}}) == "1");
  CHECK_THROWS_AS(depth({{"depth", "0"}}), koma::DescriptorError);
  CHECK_THROWS_AS(depth({{"depth", "3"}}), koma::DescriptorError);
  // The default is checked like a value given.
  l.back() = "options: {depth: {type: int, min: 1, max: 2, default: 3}}";
  CHECK_THROWS_AS(depth({}), koma::DescriptorError);
}

TEST_CASE(
    "options.flag.type, options.pick.values: a bool option takes true or false, a choice "
    "one of its values") {
  auto l = base();
  l.emplace_back(
      "options: {flag: {type: bool, default: false}, pick: {values: [a, b], default: a}}");
  auto options = [&](const koma::Options& o) {
    return koma::Variant::parse(text(l), "tiny.yaml", o)->options();
  };
  CHECK(options({}).at("flag") == "false");
  CHECK(options({{"flag", "true"}}).at("flag") == "true");
  CHECK_THROWS_AS(options({{"flag", "yes"}}), koma::DescriptorError);
  CHECK(options({}).at("pick") == "a");
  CHECK(options({{"pick", "b"}}).at("pick") == "b");
  CHECK_THROWS_AS(options({{"pick", "c"}}), koma::DescriptorError);
  // A choice needs values.
  l.back() = "options: {pick: {type: choice, default: a}}";
  CHECK_THROWS_AS(options({}), koma::DescriptorError);
}

TEST_CASE("name, title: one word without control characters, no text holds a control character") {
  auto l = base();
  l[1] = "name: \"evil\\nbestmove 1a1b\\nreadyok\"";
  check_error(l, {2, 12,
                  "name holds a control character (U+000A), which no name or text of a "
                  "descriptor may hold"});
  l[1] = "name: two words";
  check_error(l, {2, 10,
                  "name 'two words' holds a space; a variant's name is one word (use - or _), its "
                  "title may have spaces"});
  l[1] = "name: tiny";
  l.push_back("title: \"Tiny\\tshogi\"");
  check_error(l, {13, 13,
                  "title holds a control character (U+0009), which no name or text of a "
                  "descriptor may hold"});
  l.back() = "title: Tiny shogi, 3×3";
  CHECK(koma::Variant::parse(text(l), "tiny.yaml")->title() == "Tiny shogi, 3×3");
}

TEST_CASE("seats: one seat with end.last_seat_standing, and a first seat that cannot move") {
  // One seat is the last standing from the start.
  std::vector<std::string> solo = {
      "koma: 1",
      "name: solo",
      "board: {width: 2, height: 1}",
      "seats:",
      "  - {name: A, facing: up}",
      "pieces:",
      "  K: {name: King, moves: K, royal: true}",
      "setup: K11 1 - 1 -",
  };
  check_error(solo, {5, 3,
                     "with one seat, last_seat_standing (on by default) would end every game at "
                     "its first move; a game of one seat sets end: {last_seat_standing: false}"});
  solo.push_back("end: {last_seat_standing: false}");
  koma::Game g(koma::Variant::parse(text(solo), "tiny.yaml"));
  g.play("2a1a");
  CHECK_FALSE(g.over());
  // A 1x1 board: the king cannot step anywhere, and a game would never end.
  auto l = base();
  l[2] = "board: {width: 1, height: 1}";
  l[10] = "setup: K1 1 - 1 -";
  l[11] = "promotion: {zone: none}";
  check_error(l, {11, 8,
                  "setup: seat A, which moves first, has no legal move at the start, so no game "
                  "could begin or end"});
  // On 3x1 each king's only step is next to the other; the first seat is
  // the one first_seat names.
  l = base();
  l[2] = "board: {width: 3, height: 1}";
  l[10] = "setup: K11K2 1 - 1 -";
  l[11] = "promotion: {zone: none}";
  check_error(l, {11, 8,
                  "setup: seat A, which moves first, has no legal move at the start, so no game "
                  "could begin or end"});
  check_error(l,
              {11, 8,
               "setup: seat B, which moves first, has no legal move at the start, so no game "
               "could begin or end"},
              {{"first_seat", "2"}});
}

// Every letter the pieces may take: K, 24 more capital letters (not X) and
// their 24 promoted kinds, 49 kinds; the last ones play like the first.
TEST_CASE("pieces: as many kinds as there are letters") {
  std::string yaml =
      "koma: 1\nname: letters\nnotation: sfen\nboard: {width: 5, height: 5}\n"
      "seats:\n  - {name: Sente, facing: up}\n  - {name: Gote, facing: down}\npieces:\n"
      "  K: {name: King, moves: K, royal: true}\n";
  for (char c = 'A'; c <= 'Z'; ++c) {
    if (c == 'K' || c == 'X') continue;
    const std::string l(1, c);
    yaml += "  " + l + ": {name: P" + l + ", moves: W, promotes_to: +" + l + "}\n";
    yaml += "  +" + l + ": {name: Q" + l + ", moves: W}\n";
  }
  yaml += "setup: 4k/5/2+Z2/5/K4 b Z 1\npromotion: {zone: none}\n";
  auto v = koma::Variant::parse(yaml, "letters.yaml");
  REQUIRE(v->kinds() == 49);
  // Sente: the king in a corner (3 moves), a promoted Z (kind 48) on 3c
  // stepping to 4 squares, a Z in hand dropped on the 22 empty squares: 29.
  koma::Game g(v);
  CHECK(koma::perft(g, 1) == 29);
  // A captured +Z goes to hand as Z, the highest hand kind.
  koma::Game take(koma::Position::from_text(v, "4k/5/2+z2/2K2/5 b z 1"));
  take.play("3d3c");
  CHECK(take.position().text() == "4k/5/2K2/5/5 w Zz 2");
}
