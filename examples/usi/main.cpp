// koma-usi: a USI engine for two-player shogi (docs/usi.md). The GUI talks to
// it on standard input and output; end of input counts as quit.
//   koma-usi [--variant variants/shogi.yaml] [--option key=value]...
#include <iostream>
#include <string>

#include "driver.hpp"
#include "engine.hpp"

namespace po = boost::program_options;

static int usi_main(int argc, char** argv) {
  po::options_description desc("Options");
  desc.add_options()("help,h", "show this help")(
      "variant", po::value<std::string>()->default_value("variants/shogi.yaml"),
      "descriptor file of two-player shogi (or a name found in share/koma/variants)")(
      "option", po::value<std::vector<std::string>>()->composing(),
      "key=value descriptor option override (repeatable; the impasse rule is the USI option "
      "EnteringKingRule)");
  auto vm = driver::parse(argc, argv, desc,
                          "usage: koma-usi [--variant FILE] [--option k=v]...\n"
                          "\n"
                          "A USI engine: register it in a shogi GUI, or type USI commands.");
  koma::Options options;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::string what = "--option takes key=value, not '";
        what += kv;
        what += "'";
        throw driver::Failure(what, "command line");
      }
      options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  usi::Engine engine(std::cout, koma::Variant::locate(vm["variant"].as<std::string>()), options);
  engine.serve(std::cin);
  return 0;
}

int main(int argc, char** argv) {
  // Standard input is read through its own buffer, not byte by byte through
  // C stdio; the engine's threads write to std::cout under one lock, and
  // std::cin flushes no output (it is read through its buffer directly).
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  return driver::run("koma-usi", usi_main, argc, argv);
}
