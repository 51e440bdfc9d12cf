// Fuzz target: move text. The first byte picks one of a few fixed positions
// of several variants or the start position of a shipped variant; the rest is
// whitespace-separated move texts played in turn through a Game. Each text
// must be refused (NotationError) or read as a move, consistently with
// Game::play(text); a move read must be legal or refused with a reason
// (IllegalMove, game unchanged) consistently with is_legal and why_illegal; a
// move played must leave a position whose text reads back as the same
// position.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>

#include "fuzz_support.hpp"

namespace {

struct Fixed {
  int variant;       // index into fuzz::variant_files()
  const char* text;  // nullptr: the start position
};

// Start positions and later ones (hands, promoted pieces, eliminated seats,
// overturned kings) from tests/data.
constexpr Fixed kFixed[] = {
    {0, nullptr},
    {0, "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"},
    {0, "3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1"},
    {1, nullptr},
    {1,
     "2S12K43/8G1/1K21K31K13/2G36/2P12P43/9/2G42+R23/9/+R34P43 3 1:R2GS5P,2:R2G3SP,3:3S2P,4:GP "
     "305 -"},
    {1, "9/4G14/9/9/3K3P44/K41X21R34/+P48/9/8K1 3 2:2RSP,3:R7G7S8P,4:P 299 2"},
    {2,
     "2G31K31S32/3P3R3P33/S23P3G32S4/G2P25P4G4/K2R2P23P4R1K4/G2P24P41G4/1S22P1P13/3P13S41/"
     "2S1G1K1G13 4 3:S,4:RS 16 -"},
    {3, "K35G22/2G46/1S27/2G36/9/1+S31K45/7K21/4X14/3G35 4 2:2R,4:2R4G6S12P 564 1"},
    {4, nullptr},
    {5,
     "***4K12N11***/***L11+N41R11P4B1L1***/***P12P12P1P1P1***/3L4S12N11G1+P31N22/"
     "2G41P4S1N1P15B21/1G41R4P43P11P31P21G2/4S4P11P42P21K2R21/1P1P46P24L1/K41P31P45G21+P31S2/"
     "1S4P45S21P24/N4B4P43P2P37/L42P4P32K3P3+R31G43/***P31P3P31G3P32***/***1B33G3L31L3***/"
     "***L3N3S34N3S3*** 1 3:P,4:P 185 -"},
    {6, nullptr},
    {7, nullptr},
};
// scripts/fuzz-corpus.sh puts its seeds of variant i's start position behind
// the byte 12 + i.
static_assert(std::size(kFixed) == 12);

const std::vector<koma::Position>& positions() {
  static const std::vector<koma::Position> out = [] {
    std::vector<koma::Position> ps;
    for (const Fixed& f : kFixed) {
      const auto& v = fuzz::variants()[static_cast<std::size_t>(f.variant)];
      ps.push_back(f.text ? koma::Position::from_text(v, f.text) : v->start_position());
    }
    // Then the start position of every shipped variant, in the order of
    // fuzz::variant_files(): index 12 + i is variant i's.
    for (const auto& v : fuzz::variants()) ps.push_back(v->start_position());
    return ps;
  }();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto& fixed = positions();
  koma::Game game(fixed[data[0] % fixed.size()]);
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  int tokens = 0;
  for (std::size_t i = 0; i < input.size() && tokens < 48;) {
    // Tokens split at ASCII space and newline only: any other byte is part
    // of the move text.
    while (i < input.size() && (input[i] == ' ' || input[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < input.size() && input[j] != ' ' && input[j] != '\n') ++j;
    if (j == i) break;
    const std::string_view text = input.substr(i, j - i);
    i = j;
    ++tokens;

    const koma::Position before = game.position();
    const std::string before_text = before.text();
    const std::size_t before_plies = game.history().size();
    auto unchanged = [&] {
      FUZZ_CHECK(game.position() == before);
      FUZZ_CHECK(game.position().text() == before_text);
      FUZZ_CHECK(game.history().size() == before_plies);
    };
    // What parse_move makes of the text decides what Game::play(text) must do.
    std::optional<koma::Move> m;
    const bool action = text == "resign" || text == "win";
    if (!action) {
      try {
        m = before.parse_move(text);
      } catch (const koma::NotationError&) {
      }
    }
    bool legal = false;
    if (m) {
      // A move read from text prints as text that reads as the same move.
      FUZZ_CHECK(before.parse_move(before.move_text(*m)) == *m);
      legal = game.is_legal(*m);
      FUZZ_CHECK(legal == game.why_illegal(*m).empty());
    }
    try {
      game.play(text);
      FUZZ_CHECK(action || legal);
    } catch (const koma::NotationError&) {
      FUZZ_CHECK(!action && !m);
      unchanged();
      continue;
    } catch (const koma::IllegalMove&) {
      FUZZ_CHECK(action || (m && !legal));
      unchanged();
      continue;
    }
    FUZZ_CHECK(game.history().size() == before_plies + 1);
    fuzz::check_round_trip(game.position());
    // Taking a move back restores the position; playing it again as a Move
    // (not text) leads to the same one.
    if (m && tokens % 4 == 0) {
      const koma::Position after = game.position();
      game.undo();
      unchanged();
      game.play(*m);
      FUZZ_CHECK(game.position() == after);
    }
  }
  return 0;
}
