// Shared plumbing of the example drivers: the common options and the one-line
// error convention of README.md (Drivers). Uses the public API only.
#pragma once
#include <boost/program_options.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
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

// One game of a game record file (docs/notation.md#game-records: JSON Lines, one game a line).
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
// Only a regular file of at most kMaxRecordFileBytes is read, line by line, up
// to the game's line. Throws Failure for an unreadable, special or too large
// file, a line over kMaxRecordLineBytes, a game out of range or a malformed line.
GameRecord read_record(const std::string& path, int game);
// The same from the text of a record file; `origin` names it in errors and in
// GameRecord::where ("ORIGIN:LINE").
GameRecord read_record_text(std::string_view text, const std::string& origin, int game);
inline constexpr std::uintmax_t kMaxRecordFileBytes = 64u << 20;
// A line longer than this is refused as soon as it is read that far (a real
// game is a few KiB; yaml-cpp would take seconds).
inline constexpr std::size_t kMaxRecordLineBytes = 256u << 10;
// Lists and objects nested deeper than this are refused before yaml-cpp reads
// the line (a game needs 3 levels: the game, its result, the places).
inline constexpr int kMaxRecordNesting = 16;

// The options a record's game was played with, as load_variant's `base`: its
// option overrides and its first seat.
koma::Options record_options(const GameRecord& record);

// A move that cannot be played: "move <index from 1> '<text>' is illegal: <why>".
struct BadMove : Failure {
  using Failure::Failure;
};

// Plays `moves` (moves and actions as text) in order; throws BadMove, located
// at `where`, for the first that cannot be played. Returns the last of them
// that is a move, not an action (resign, win).
std::optional<koma::Move> play_moves(koma::Game& game, const std::vector<std::string>& moves,
                                     const std::string& where);

// The game of a record, as koma-replay and koma-play --load read it: from
// --position, else the record's start, else the variant's; its moves played
// (BadMove at the first that fails); an adjudicated result, which the moves
// do not hold, repeated. Other results are not copied: the moves decide them.
koma::Game replay_record(const std::shared_ptr<const koma::Variant>& variant,
                         const boost::program_options::variables_map& vm, const GameRecord& record);

// Writes `content` to `path` whole or not at all, and names `what` ("the
// picture") in the Failure with the reason when it cannot. A regular file (or
// a new one) is written under a temporary name beside it, then renamed over
// it, so a failed write leaves what was there; a device, FIFO or other special
// file is written in place. Nothing the program did not create is removed.
void write_file(const std::string& path, std::string_view content, const std::string& what);

// `text` as a JSON string literal, quotes included: '"' and '\\' escaped,
// control characters and DEL as \n, \t, ... or \u00XX; other bytes (UTF-8) as they are.
std::string json_string(std::string_view text);

// One line of a record file for `record` (no newline): the keys of
// docs/notation.md#game-records in the order of its table; an absent first_seat,
// start or result is written null. `where` is not written.
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

// Entries of a comma-separated list (--seats), blanks around each removed.
std::vector<std::string> split_list(const std::string& list);

// Whether a standard stream (0 in, 1 out, 2 error) is a terminal.
bool is_terminal(int fd);

// Ranges of the numeric options the drivers share (README, --help).
inline constexpr long long kMaxNodes = 1'000'000'000'000;  // --nodes, --level-nodes
inline constexpr double kMaxSeconds = 86400;               // --seconds: a day a move
inline constexpr long long kMaxSeed = 1'000'000'000'000'000;
inline constexpr int kMaxPlies = 1'000'000;   // --max-plies
inline constexpr int kMaxGame = 100'000'000;  // --game (a record holds fewer)

// Throws Failure "--NAME takes a [whole] number from MIN to MAX, not 'VALUE'"
// located at "--NAME".
[[noreturn]] void out_of_range(const char* name, const std::string& value, const std::string& min,
                               const std::string& max, bool whole);
std::string number_text(double value);

// A numeric option's value, `fallback` when absent; throws (out_of_range)
// unless it lies from `min` to `max`: NaN never does, infinity is beyond any max.
template <class T>
T checked(const boost::program_options::variables_map& vm, const char* name, T fallback, T min,
          T max) {
  if (!vm.count(name)) return fallback;
  T v = vm[name].as<T>();
  if (!(v >= min && v <= max)) {
    if constexpr (std::is_integral_v<T>)
      out_of_range(name, std::to_string(v), std::to_string(min), std::to_string(max), true);
    else
      out_of_range(name, number_text(v), number_text(min), number_text(max), false);
  }
  return v;
}

// --nodes and --seconds, checked (0 to kMaxNodes, 0 to kMaxSeconds), as
// search limits; the seed is left 0.
koma::Limits search_limits(const boost::program_options::variables_map& vm);

}  // namespace driver
