// Fuzz target: USI command lines, one a line, through usi::Engine::handle as
// koma-usi feeds them (then `quit`, as at the end of its input). handle()
// promises never to throw and to answer malformed lines with `info string`;
// every answer must be one printable line. Searches are capped (SearchCap) to
// depth 2 and 2000 nodes, so that no input can start a long search.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "engine.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  {
    // A new engine per input: an engine's state (options, position) would
    // otherwise carry from one input to the next and crashes would not
    // reproduce from their input alone.
    usi::Engine engine(out, fuzz::variant_path("shogi.yaml"), {}, usi::SearchCap{2, 2000});
    int lines = 0;
    for (std::size_t i = 0; i <= input.size() && !engine.quitting() && lines < 64; ++lines) {
      std::size_t end = std::min(input.find('\n', i), input.size());
      engine.handle(input.substr(i, end - i));
      i = end + 1;
    }
    engine.handle("quit");
  }  // joins the search threads
  const std::string text = out.str();
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    FUZZ_CHECK(c == '\n' || (c >= 0x20 && c != 0x7f));
  }
  FUZZ_CHECK(text.empty() || text.back() == '\n');
  return 0;
}
