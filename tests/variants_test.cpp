// The shipped-variant table (tests/data/variants.jsonl): one row for each
// descriptor of variants/, and each row's start perft counts, from the
// source its `counted_by` names (tests/data/README.md), under every option
// set it lists. The tests that list variants (playouts, CPU levels, the
// bindings' perft) read the same rows.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>

#include "support.hpp"

namespace {

// Every row's counts of `field` ("perft" or "perft_slow") from the start.
void check_start_perft(const char* field) {
  for (const YAML::Node& row : test::shipped())
    for (const koma::Options& options : test::option_sets(row)) {
      const std::string variant = test::describe(test::file_of(row), options);
      CAPTURE(variant);
      koma::Game g(test::variant(test::file_of(row), options));
      for (const auto& count : row[field]) {
        const int depth = count.first.as<int>();
        CAPTURE(depth);
        CHECK(koma::perft(g, depth) == count.second.as<std::uint64_t>());
      }
    }
}

}  // namespace

TEST_CASE("variants: the table has one row for each descriptor in variants/") {
  std::multiset<std::string> rows;
  for (const YAML::Node& row : test::shipped()) {
    rows.insert(test::file_of(row));
    CHECK_FALSE(test::option_sets(row).empty());
  }
  std::multiset<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(KOMA_VARIANTS_DIR))
    if (entry.path().extension() == ".yaml") files.insert(entry.path().filename().string());
  CHECK(rows == files);
}

TEST_CASE("variants: start perft of every shipped variant equals its row") {
  check_start_perft("perft");
}

TEST_CASE("variants: deeper start perft of every shipped variant equals its row" *
          doctest::test_suite("slow")) {
  check_start_perft("perft_slow");
}
