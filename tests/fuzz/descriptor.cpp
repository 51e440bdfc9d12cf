// Fuzz target: descriptor text (YAML) through Variant::parse, with `extends:`
// resolved in the source tree's variants/ folder. A refused descriptor must
// throw koma::Error; an accepted one must give a start position that prints
// and reads back, and a few plies of legal moves that do too.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<const koma::Variant> v;
  try {
    v = koma::Variant::parse(text, "fuzz", {}, KOMA_VARIANTS_DIR);
  } catch (const koma::Error&) {
    return 0;
  }
  FUZZ_CHECK(v->seats() >= 1 && v->kinds() >= 1 && v->width() >= 1 && v->height() >= 1);
  FUZZ_CHECK(static_cast<int>(v->turn_order().size()) == v->seats());
  for (int seat = 1; seat <= v->seats(); ++seat) {
    koma::Position start = v->start_position(seat);
    fuzz::check_round_trip(start);
  }
  // A descriptor may still describe a start position the rules cannot play
  // from (none of its seats can move, say); playing it must not crash. Up to
  // 24 plies, moves picked by the input's bytes, reach some endings of the
  // rules it switches on.
  fuzz::exercise(v->start_position(), 24, text);
  return 0;
}
