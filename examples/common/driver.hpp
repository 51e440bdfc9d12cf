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

// The game of a record (koma::read_record), as koma-replay and koma-play
// --load read it: koma::replay_record, from --position when it is given.
koma::Game replay_record(const std::shared_ptr<const koma::Variant>& variant,
                         const boost::program_options::variables_map& vm,
                         const koma::GameRecord& record);

// Writes `content` to `path` whole or not at all, and names `what` ("the
// picture") in the Failure with the reason when it cannot. A regular file (or
// a new one) is written under a temporary name beside it, then renamed over
// it, so a failed write leaves what was there; a device, FIFO or other special
// file is written in place. Nothing the program did not create is removed.
void write_file(const std::string& path, std::string_view content, const std::string& what);

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
