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
// The same from the text of a record file; `origin` names it in errors and in
// GameRecord::where ("ORIGIN:LINE"). A line longer than kMaxRecordLineBytes is
// refused unread (a real game is a few KiB; yaml-cpp would take seconds).
GameRecord read_record_text(std::string_view text, const std::string& origin, int game);
inline constexpr std::size_t kMaxRecordLineBytes = 256u << 10;

// Writes `content` to `path` whole or not at all, and names `what` ("the
// picture") in the Failure with the reason when it cannot. A regular file (or
// a new one) is written under a temporary name beside it, then renamed over
// it, so a failed write leaves what was there; a device, FIFO or other special
// file is written in place. Nothing the program did not create is removed.
void write_file(const std::string& path, std::string_view content, const std::string& what);

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

// Entries of a comma-separated list (--seats), blanks around each removed.
std::vector<std::string> split_list(const std::string& list);

// Whether a standard stream (0 in, 1 out, 2 error) is a terminal.
bool is_terminal(int fd);

// A numeric option's value, `fallback` when absent; throws Failure
// "--NAME WHAT" when it is below `min`.
template <class T>
T checked(const boost::program_options::variables_map& vm, const char* name, T fallback, T min,
          const char* what) {
  if (!vm.count(name)) return fallback;
  T v = vm[name].as<T>();
  if (v < min) {
    std::string text = "--";
    (text += name) += " ";
    throw Failure(text += what, "command line");
  }
  return v;
}

}  // namespace driver
