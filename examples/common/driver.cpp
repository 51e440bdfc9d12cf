#include "driver.hpp"

#include <iostream>

namespace po = boost::program_options;

namespace driver {

void add_common(po::options_description& desc) {
  desc.add_options()("help,h", "show this help")(
      "variant", po::value<std::string>(),
      "descriptor file (or a name found in share/koma/variants)")(
      "option", po::value<std::vector<std::string>>()->composing(),
      "key=value descriptor option override (repeatable)")(
      "first-seat", po::value<int>(), "seat to move first (shorthand for --option first_seat=N)")(
      "position", po::value<std::string>(),
      "start position (SFEN for SFEN variants, else generic text)");
}

std::shared_ptr<const koma::Variant> load_variant(const po::variables_map& vm) {
  if (!vm.count("variant")) throw Failure("--variant FILE is required");
  koma::Options options;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Failure("--option takes key=value, not '" + kv + "'");
      options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  if (vm.count("first-seat")) options["first_seat"] = std::to_string(vm["first-seat"].as<int>());
  return koma::Variant::load(koma::Variant::locate(vm["variant"].as<std::string>()), options);
}

koma::Position start_position(const std::shared_ptr<const koma::Variant>& variant,
                              const po::variables_map& vm) {
  if (vm.count("position"))
    return koma::Position::from_text(variant, vm["position"].as<std::string>());
  return variant->start_position();
}

po::variables_map parse(int argc, char** argv, const po::options_description& desc,
                        const std::string& usage) {
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << usage << "\n" << desc << "\n";
    std::exit(0);
  }
  return vm;
}

int run(const std::string& name, int (*body)(int, char**), int argc, char** argv) {
  try {
    return body(argc, argv);
  } catch (const koma::DescriptorError& e) {
    std::cerr << name << ": " << e.message() << " (" << e.file() << ":" << e.line() << ":"
              << e.column() << ")\n";
  } catch (const po::error& e) {
    std::cerr << name << ": " << e.what() << " (command line)\n";
  } catch (const koma::NotationError& e) {
    std::cerr << name << ": " << e.what() << " (--position)\n";
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << " (" << name << ")\n";
  }
  return 1;
}

}  // namespace driver
