// The descriptor's key table (lib/schema.hpp) against what a key needs
// besides its row (docs/descriptor.md, "Adding a rule atom"): a row in
// docs/descriptor.md naming its path, its word in the fuzz dictionary, and a
// test whose name carries its path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
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

// The string literal at text[i] (after its opening quote), escapes kept;
// i ends after its closing quote.
std::string literal_at(const std::string& text, std::size_t& i) {
  std::string out;
  while (i < text.size() && text[i] != '"') {
    if (text[i] == '\\' && i + 1 < text.size()) out += text[i++];
    out += text[i++];
  }
  ++i;
  return out;
}

// The names of the doctest cases in tests/*.cpp, adjacent literals joined.
std::vector<std::string> test_names() {
  const std::string opening = "TEST_CASE(";
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(KOMA_TESTS_DIR)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = file_text(entry.path());
    for (std::size_t at = text.find(opening); at != std::string::npos;
         at = text.find(opening, at + 1)) {
      std::size_t i = at + opening.size();
      std::string name;
      bool any = false;
      for (;;) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i >= text.size() || text[i] != '"') break;
        ++i;
        name += literal_at(text, i);
        any = true;
      }
      if (any) out.push_back(name);
    }
  }
  return out;
}

bool is_lower_word(char c) {
  return (c >= 'a' && c <= 'z') || c == '_';
}

// Whether name[i..] starts with path[j..] and then ':' or ','; `<letter>`
// stands for any piece letter (a '+' and a capital), `<name>` for any option
// name (lower-case letters and '_'), and `[]` may be written or not.
bool matches_at(const std::string& name, std::size_t i, const std::string& path, std::size_t j) {
  if (j == path.size()) return i < name.size() && (name[i] == ':' || name[i] == ',');
  if (path.compare(j, 8, "<letter>") == 0) {
    if (name.compare(i, 8, "<letter>") == 0 && matches_at(name, i + 8, path, j + 8)) return true;
    if (i < name.size() && name[i] == '+') ++i;
    return i < name.size() && name[i] >= 'A' && name[i] <= 'Z' &&
           matches_at(name, i + 1, path, j + 8);
  }
  if (path.compare(j, 6, "<name>") == 0) {
    if (name.compare(i, 6, "<name>") == 0 && matches_at(name, i + 6, path, j + 6)) return true;
    std::size_t k = i;
    while (k < name.size() && is_lower_word(name[k])) ++k;
    return k > i && matches_at(name, k, path, j + 6);
  }
  if (path.compare(j, 2, "[]") == 0)
    return (name.compare(i, 2, "[]") == 0 && matches_at(name, i + 2, path, j + 2)) ||
           matches_at(name, i, path, j + 2);
  return i < name.size() && name[i] == path[j] && matches_at(name, i + 1, path, j + 1);
}

// A name carries a path where the path stands as a word (at the start, or
// after ' ', ',' or '(') followed by ':' or ',' ("end.checks: ...").
bool carries(const std::string& name, const std::string& path) {
  for (std::size_t i = 0; i < name.size(); ++i)
    if ((i == 0 || name[i - 1] == ' ' || name[i - 1] == ',' || name[i - 1] == '(') &&
        matches_at(name, i, path, 0))
      return true;
  return false;
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
  // Adjacent literals joined, as doctest names the case.
  REQUIRE(std::find(names.begin(), names.end(),
                    "schema: every key has a test whose name carries its path") != names.end());
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
            "name",  "title",        "notation", "board",         "seats",        "turn_order",
            "teams", "pieces",       "setup",    "promotion",     "drops",        "check",
            "kings", "moves_as",     "mate",     "no_legal_move", "elimination",  "resignation",
            "end",   "lion_trading", "places",   "options",       "dead_squares", "dialect"});
  // A test name with a key path: "end.checks: ...", "drops.P.mate, ...".
  CHECK(carries("end.checks: the first check wins", "end.checks"));
  CHECK(carries("drops.P.mate, drops.P.nifu: pawn drops", "drops.<letter>.mate"));
  CHECK(carries("seats[].facing: a seat faces its way", "seats[].facing"));
  CHECK(carries("seats.facing: a seat faces its way", "seats[].facing"));
  CHECK_FALSE(carries("the expert finds a mate in one", "mate"));
  CHECK_FALSE(carries("end.checks_x: not the key", "end.checks"));
}
