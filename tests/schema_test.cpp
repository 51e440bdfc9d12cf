// The descriptor's key table (lib/schema.hpp) against what a key needs
// besides its row (docs/descriptor.md, "Adding a rule atom"): a row in
// docs/descriptor.md naming its path, its word in the fuzz dictionary, and a
// test whose name carries its path.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "schema.hpp"

namespace {

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The keys that hold a value: rows no other row is under.
std::vector<std::string> leaf_keys() {
  std::vector<std::string> out;
  for (const auto& row : koma::detail::schema())
    if (koma::detail::keys_under(row.path).empty()) out.push_back(row.path);
  return out;
}

// The names of the doctest cases in tests/*.cpp, adjacent literals joined.
std::vector<std::string> test_names() {
  static const std::regex test_case(R"re(TEST_CASE\(((\s*"([^"\\]|\\.)*")+))re");
  static const std::regex literal(R"re("(([^"\\]|\\.)*)")re");
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(KOMA_TESTS_DIR)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = file_text(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), test_case), end; it != end; ++it) {
      const std::string literals = (*it)[1];
      std::string name;
      for (std::sregex_iterator l(literals.begin(), literals.end(), literal); l != end; ++l)
        name += (*l)[1];
      out.push_back(name);
    }
  }
  return out;
}

// A name carries a path where the path stands as a word followed by ':' or
// ',' ("end.checks: ..."); `<letter>` may be any piece letter, `<name>` any
// option name, `[]` may be written or not.
bool carries(const std::string& name, const std::string& path) {
  std::string pattern = "(^|[ ,(])";
  for (std::size_t i = 0; i < path.size();) {
    if (path.compare(i, 8, "<letter>") == 0) {
      pattern += R"((<letter>|\+?[A-Z]))";
      i += 8;
    } else if (path.compare(i, 6, "<name>") == 0) {
      pattern += "(<name>|[a-z_]+)";
      i += 6;
    } else if (path.compare(i, 2, "[]") == 0) {
      pattern += R"((\[\])?)";
      i += 2;
    } else {
      if (path[i] == '.') pattern += '\\';
      pattern += path[i++];
    }
  }
  pattern += "[:,]";
  return std::regex_search(name, std::regex(pattern));
}

}  // namespace

TEST_CASE("schema: every key has its row in docs/descriptor.md") {
  const std::string docs = file_text(KOMA_DOCS_DIR "/descriptor.md");
  for (const std::string& path : leaf_keys()) {
    CAPTURE(path);
    CHECK(docs.find("| `" + path + "` |") != std::string::npos);
  }
}

TEST_CASE("schema: every key's word is in the descriptor fuzz dictionary") {
  const std::string dict = file_text(KOMA_TESTS_DIR "/fuzz/descriptor.dict");
  for (const std::string& path : leaf_keys()) {
    const std::string word = path.substr(path.find_last_of(".]") + 1);
    CAPTURE(path);
    CHECK(dict.find('"' + word + '"') != std::string::npos);
  }
}

TEST_CASE("schema: every key has a test whose name carries its path") {
  const std::vector<std::string> names = test_names();
  REQUIRE(names.size() > 100);
  for (const std::string& path : leaf_keys()) {
    CAPTURE(path);
    CHECK(std::any_of(names.begin(), names.end(),
                      [&](const std::string& name) { return carries(name, path); }));
  }
}

TEST_CASE("schema: a mapping's allowed keys are its rows, in their order") {
  using koma::detail::keys_under;
  CHECK(keys_under("board") == std::vector<std::string>{"width", "height", "voids", "squares"});
  CHECK(keys_under("end.goal") == std::vector<std::string>{"depth", "safe"});
  CHECK(keys_under("drops") ==
        std::vector<std::string>{"enabled", "captured", "promoted", "<letter>"});
  CHECK(keys_under("drops.<letter>") ==
        std::vector<std::string>{"nifu", "per_file", "mate", "overturned_king_attack"});
  CHECK(keys_under("seats[]") == std::vector<std::string>{"name", "facing", "home"});
  CHECK(koma::detail::descriptor_keys() ==
        std::vector<std::string>{
            "name",   "title",   "notation",      "board",       "seats",       "turn_order",
            "teams",  "pieces",  "setup",         "promotion",   "drops",       "check",
            "kings",  "mate",    "no_legal_move", "elimination", "resignation", "end",
            "places", "options", "dead_squares"});
  // A test name with a key path: "end.checks: ...", "drops.P.mate, ...".
  CHECK(carries("end.checks: the first check wins", "end.checks"));
  CHECK(carries("drops.P.mate, drops.P.nifu: pawn drops", "drops.<letter>.mate"));
  CHECK(carries("seats[].facing: a seat faces its way", "seats[].facing"));
  CHECK(carries("seats.facing: a seat faces its way", "seats[].facing"));
  CHECK_FALSE(carries("the expert finds a mate in one", "mate"));
  CHECK_FALSE(carries("end.checks_x: not the key", "end.checks"));
}
