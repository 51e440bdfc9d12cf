// Fuzz target: the generic position text (SFEN too, for shogi) of every
// shipped variant; the first byte picks the variant. A text that reads must
// print back to a text that reads as the same position; then the position is
// asked everything and a few plies are played from it.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto& variants = fuzz::variants();
  const auto& v = variants[data[0] % variants.size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::optional<koma::Position> p;
  try {
    p = koma::Position::from_text(v, text);
  } catch (const koma::Error&) {
    return 0;
  }
  fuzz::check_round_trip(*p);
  fuzz::exercise(*p, 3, text);
  return 0;
}
