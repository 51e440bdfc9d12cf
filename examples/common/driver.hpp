// Shared plumbing of the example drivers: the common options of DRIVERS.md
// and the one-line error convention. Uses the public API only.
#pragma once
#include <boost/program_options.hpp>
#include <memory>
#include <string>
#include <vector>

#include "koma/koma.hpp"

namespace driver {

// Thrown for a driver-level error; main() prints "koma-<name>: <what>".
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Adds --variant, --option (repeatable), --first-seat, --position, --help.
void add_common(boost::program_options::options_description& desc);

// Loads the variant named by --variant with --option and --first-seat.
std::shared_ptr<const koma::Variant> load_variant(const boost::program_options::variables_map& vm);

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
