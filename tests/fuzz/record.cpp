// Fuzz target: game records (JSON Lines, docs/notation.md#game-records) through
// koma::read_record_text, as koma-replay and koma-play --load read them.
// A malformed record must throw koma::RecordError; a record that reads must
// write back (koma::record_line) to a line that reads as the same record;
// its game is then replayed through a Game of the variant it names, as
// koma-replay does, and the final position must print and read back.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "koma/record.hpp"

namespace {

void replay(const koma::GameRecord& r) {
  // The variant the record names, else shogi.
  std::size_t index = 0;
  for (std::size_t i = 0; i < fuzz::variant_files().size(); ++i) {
    const std::string& file = fuzz::variant_files()[i];
    if (r.variant + ".yaml" == file || r.descriptor.ends_with(file)) index = i;
  }
  std::shared_ptr<const koma::Variant> v = fuzz::variants()[index];
  koma::Options options = r.options;
  if (r.first_seat) options["first_seat"] = std::to_string(*r.first_seat);
  try {
    if (!options.empty())
      v = koma::Variant::load(fuzz::variant_path(fuzz::variant_files()[index]), options);
    koma::Game game(r.start ? koma::Position::from_text(v, *r.start) : v->start_position());
    for (const std::string& m : r.moves) game.play(m);
    if (r.result && r.result->reason == koma::Reason::adjudicated && !game.over())
      game.adjudicate(r.result->places);
    fuzz::check_round_trip(game.position());
  } catch (const koma::Error&) {
    // A bad option, start position, move or result: koma-replay reports it.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int game = 1; game <= 4; ++game) {
    koma::GameRecord r;
    try {
      r = koma::read_record_text(text, "fuzz", game);
    } catch (const koma::RecordError&) {
      continue;
    }
    const std::string line = koma::record_line(r);
    koma::GameRecord again;
    try {
      again = koma::read_record_text(line, "again", 1);
    } catch (const koma::RecordError& e) {
      std::fprintf(stderr, "record_line wrote a line that does not read: %s\n%s\n", e.what(),
                   line.c_str());
      FUZZ_CHECK(false);
    }
    FUZZ_CHECK(r == again);
    FUZZ_CHECK(koma::record_line(again) == line);
    replay(r);
  }
  return 0;
}
