// Shared plumbing of the example drivers: the common options and the one-line
// error convention of README.md (Drivers). Uses the public API only.
#pragma once
#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <streambuf>
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

// The game of a record (koma::read_record), as koma-replay and koma-play
// --load read it: koma::replay_record, from --position when it is given.
koma::Game replay_record(const std::shared_ptr<const koma::Variant>& variant,
                         const boost::program_options::variables_map& vm,
                         const koma::GameRecord& record);

// Writes `content` to `path` and names `what` ("the picture") in the Failure
// with the reason when it cannot (README.md, "Files:"):
// - a path that names an open descriptor (/dev/stdout, /dev/stderr,
//   /dev/fd/N, /proc/self/fd/N, or a link to one) is written through that
//   descriptor, as the program's own output is: a file it appends to is
//   appended to, nothing is replaced;
// - a device, FIFO or other special file, and a link that points nowhere,
//   are written in place;
// - an existing regular file this user may not write is refused, as root
//   too (root: a file without any write bit), and left as it is;
// - a regular file with other hard links is written in place (truncated,
//   then written), so the links stay one file: a failed write may leave it
//   part written;
// - any other regular file (or a new one) is written whole or not at all:
//   under a short temporary name in its folder (so any name up to NAME_MAX
//   works), given the file's owner, group and mode, then renamed over it (a
//   link's target is replaced, the link stays). Where this user cannot give
//   it the owner or group, or may not create files in the folder, the file
//   is written in place instead.
// Nothing the program did not create is removed. POSIX; on Windows the file
// is written in place.
void write_file(const std::string& path, std::string_view content, const std::string& what);

// A file written a piece at a time (koma-match --record): a path naming an
// open descriptor is written through it, as write_file does; any other file
// is opened, truncated, and written in place, after the same check that
// this user may write it. Throws Failure naming `what` and the path.
class Output {
 public:
  Output(const std::string& path, const std::string& what);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  void write(std::string_view text);

 private:
  int fd_ = -1;
  bool own_ = true;  // opened here, so closed here
  std::string path_, what_;
};

// The value of the file option --NAME; throws Failure "--NAME takes a file
// name, not ''" (at --NAME) when it is empty.
std::string file_option(const boost::program_options::variables_map& vm, const char* name);

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
// A koma::RecordError (include/koma/record.hpp) is reported as a Failure with the
// same what and where.
int run(const std::string& name, int (*body)(int, char**), int argc, char** argv);

// Entries of a comma-separated list (--seats), blanks around each removed.
std::vector<std::string> split_list(const std::string& list);

// --- input lines (koma-usi's commands, koma-play's moves and commands) ------

// The longest line read, in bytes without its end. A USI GUI's longest line,
// a `position` of 4096 moves, is under 25 KiB (docs/usi.md); a typed command
// is far shorter.
inline constexpr std::size_t kMaxInputLine = std::size_t{64} * 1024;

enum class LineRead {
  line,      // `line` holds the next line
  too_long,  // the line passed kMaxInputLine bytes: it was read and dropped
  end,       // nothing was left to read
};

// Reads the next line of `in` into `line`, without its '\n' (and a '\r'
// before it); a last line without '\n' counts. A line longer than
// kMaxInputLine bytes is never held whole: `too_long` is called as soon as it
// passes the limit, with its first kMaxInputLine bytes, and the rest is read
// and dropped as it comes (an endless line, /dev/zero, is read for as long as
// it lasts, in constant memory).
LineRead read_line(std::streambuf& in, std::string& line,
                   const std::function<void(std::string_view head)>& too_long);

// What a driver says of a line it dropped.
std::string long_line_text();

// Input text echoed in a message or a protocol line: in single quotes,
// escaped by koma::escape_text (control characters, bytes that are not UTF-8
// as \xNN) and cut after 60 bytes (`...`), so that it is one printable line.
std::string in_quotes(std::string_view text);

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
// The shortest text that reads back as `value` (std::to_chars): 86400,
// 86400.0000001, 1e+10, nan, inf. A value out of range never prints as its
// bound.
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
