// Shared plumbing of the example drivers: the common options of DRIVERS.md
// and the one-line error convention. Uses the public API only.
#pragma once
#include <boost/program_options.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/koma.hpp"

namespace driver {

// Thrown for a driver-level error; run() prints "koma-<name>: <what> (<where>)",
// where defaults to the driver's name.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
  Failure(const std::string& what, std::string where)
      : std::runtime_error(what), where(std::move(where)) {}
  std::string where;
};

// One game of a game record file (DRIVERS.md, JSON Lines, one game a line).
struct GameRecord {
  std::string variant;               // "" when absent
  std::string descriptor;            // "" when absent
  koma::Options options;             // option overrides the game was played with
  std::optional<int> first_seat;     // absent or null: the descriptor's default
  std::optional<std::string> start;  // null: the variant's start position
  std::vector<std::string> seats;
  std::vector<std::string> moves;  // moves and actions ("resign", "win")
  // null for an unfinished game. A reason word koma does not know reads as
  // Reason::none; places are empty when the record gives none.
  std::optional<koma::Result> result;
  std::string where;  // "FILE:LINE", for error messages
};

// Reads game `game` (counted from 1; blank lines are skipped) of a record file.
// Throws Failure for an unreadable file, a game out of range or a malformed line.
GameRecord read_record(const std::string& path, int game);

// `text` as a JSON string literal, quotes included: '"' and '\\' escaped,
// control characters and DEL as \n, \t, ... or \u00XX; other bytes (UTF-8) as they are.
std::string json_string(std::string_view text);

// One line of a record file for `record` (no newline): DRIVERS.md's keys in its
// order; an absent first_seat, start or result is written null. `where` is not
// written.
std::string record_line(const GameRecord& record);

// Adds --variant, --option (repeatable), --first-seat, --position, --help.
void add_common(boost::program_options::options_description& desc);

// Loads the variant named by --variant with `base` options (a record's), then
// --option and --first-seat over them.
std::shared_ptr<const koma::Variant> load_variant(const boost::program_options::variables_map& vm,
                                                  const koma::Options& base = {});

// The start position: --position if given, else the variant's start.
koma::Position start_position(const std::shared_ptr<const koma::Variant>& variant,
                              const boost::program_options::variables_map& vm);

// Parses argv; prints --help and exits 0 when asked.
boost::program_options::variables_map parse(int argc, char** argv,
                                            const boost::program_options::options_description& desc,
                                            const std::string& usage);

// Runs body and turns any exception into the driver's error line and exit 1.
int run(const std::string& name, int (*body)(int, char**), int argc, char** argv);

}  // namespace driver
