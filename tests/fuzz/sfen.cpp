// Fuzz target: SFEN for two-player shogi (variants/shogi.yaml). A text that
// reads must print back as SFEN that reads as the same position, and printing
// must be canonical (what it prints, it prints again unchanged).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& shogi = fuzz::variants()[0];
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<koma::Position> p;
  try {
    p = koma::Position::from_text(shogi, text);
  } catch (const koma::Error&) {
    return 0;
  }
  const std::string sfen = p->text();
  FUZZ_CHECK(std::count(sfen.begin(), sfen.end(), ' ') == 3);  // SFEN's four fields
  fuzz::check_round_trip(*p);
  fuzz::exercise(*p, 3, text);
  return 0;
}
