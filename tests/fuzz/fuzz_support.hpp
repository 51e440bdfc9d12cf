// Shared by the libFuzzer targets in tests/fuzz: the shipped variants, loaded
// once, and the checks whose failure is a bug. A failed check prints what was
// expected and traps, so that libFuzzer keeps the input as a crash.
//
// What a target may see: any koma::Error (the input was refused, with a
// reason) is fine. Anything else — a crash, a sanitizer report, an exception
// that is not a koma::Error, a hang, a broken round trip — is a bug.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "koma/koma.hpp"

#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      __builtin_trap();                                                                   \
    }                                                                                     \
  } while (0)

namespace fuzz {

// The shipped descriptors, in a fixed order: an input byte picks one. Every
// file of variants/ is here (scripts/fuzz-corpus.sh reads this list, makes
// seeds for each and fails for a descriptor missing from it); a new one goes
// at the end, so that the bytes of the kept crash-* seeds keep their variant.
inline const std::vector<std::string>& variant_files() {
  static const std::vector<std::string> files = {"shogi.yaml",
                                                 "yonin.yaml",
                                                 "yonin-king-capture.yaml",
                                                 "yonin-inherit.yaml",
                                                 "shipley-team-orthogonal.yaml",
                                                 "shipley-team-diagonal.yaml",
                                                 "shipley-individual.yaml",
                                                 "shipley-kings.yaml",
                                                 "minishogi.yaml",
                                                 "gorogoro.yaml",
                                                 "judkins.yaml",
                                                 "euroshogi.yaml",
                                                 "checkshogi.yaml",
                                                 "yarishogi.yaml",
                                                 "okisakishogi.yaml",
                                                 "torishogi.yaml",
                                                 "yonin-doubles.yaml",
                                                 "yonin-three.yaml",
                                                 "dobutsu.yaml",
                                                 "kyotoshogi.yaml",
                                                 "microshogi.yaml",
                                                 "shoshogi.yaml",
                                                 "cannonshogi.yaml",
                                                 "gorogoroplus.yaml",
                                                 "annanshogi.yaml",
                                                 "chushogi.yaml"};
  return files;
}

inline std::string variant_path(const std::string& file) {
  return std::string(KOMA_VARIANTS_DIR) + "/" + file;
}

// Loaded on first use and kept for the whole run (loading per input would
// spend most of the time in yaml-cpp).
inline const std::vector<std::shared_ptr<const koma::Variant>>& variants() {
  static const std::vector<std::shared_ptr<const koma::Variant>> loaded = [] {
    std::vector<std::shared_ptr<const koma::Variant>> out;
    for (const std::string& file : variant_files())
      out.push_back(koma::Variant::load(variant_path(file)));
    return out;
  }();
  return loaded;
}

// The round trip every position text promises: what text() prints parses back
// to the same position, and prints the same again. The generic text too (SFEN
// variants read it as well). One documented exception (docs/notation.md, "SFEN
// and USI"): SFEN has no field for eliminated seats, so the final position of
// a shogi game won by mate or resignation, whose loser is eliminated, is not
// read back; only play reaches such a position, never a text.
inline void check_round_trip(const koma::Position& p) {
  if (p.variant().uses_sfen() && !p.eliminated().empty()) return;
  const std::string text = p.text();
  koma::Position again = koma::Position::from_text(p.variant_ptr(), text);
  if (!(again == p))
    std::fprintf(stderr, "position %s\nreads back as %s (generic %s, then %s)\n", text.c_str(),
                 again.text().c_str(), p.generic_text().c_str(), again.generic_text().c_str());
  FUZZ_CHECK(again == p);
  FUZZ_CHECK(again.text() == text);
  FUZZ_CHECK(again.ply() == p.ply());
  const std::string generic = p.generic_text();
  koma::Position from_generic = koma::Position::from_text(p.variant_ptr(), generic);
  FUZZ_CHECK(from_generic == p);
  FUZZ_CHECK(from_generic.generic_text() == generic);
}

// Asks a position everything it answers, checks that every legal move's text
// reads back as the same move, then plays up to `plies` legal moves (picked by
// `choice`, so inputs reach different games) checking the round trip after
// each.
inline void exercise(const koma::Position& start, int plies, std::string_view choice = {}) {
  const koma::Variant& v = start.variant();
  for (int seat = 1; seat <= v.seats(); ++seat) {
    (void)start.in_check(seat);
    (void)start.score(seat);
    for (int kind = 0; kind < v.kinds(); ++kind) (void)start.in_hand(seat, kind);
  }
  (void)start.seats_in_check();
  for (koma::Square sq = 0; sq < v.squares(); ++sq) {
    auto piece = start.at(sq);
    if (piece) FUZZ_CHECK(piece->owner >= 1 && piece->owner <= v.seats());
  }
  koma::Game game(start);
  for (int ply = 0; ply <= plies && !game.over(); ++ply) {
    const koma::Position& pos = game.position();
    std::vector<koma::Move> moves = game.legal_moves();
    // Without a past, the game's moves are the position's (docs/api.md).
    if (ply == 0) FUZZ_CHECK(moves == pos.legal_moves());
    for (koma::Move m : moves) FUZZ_CHECK(pos.parse_move(pos.move_text(m)) == m);
    if (moves.empty() || ply == plies) break;
    std::size_t pick = 0;
    if (!choice.empty())
      pick = static_cast<unsigned char>(choice[static_cast<std::size_t>(ply) % choice.size()]);
    koma::Move m = moves[pick % moves.size()];
    // why_illegal costs a move generation: ask it for the played move only.
    FUZZ_CHECK(game.why_illegal(m).empty());
    game.play(m);
    check_round_trip(game.position());
  }
  if (game.over()) FUZZ_CHECK(game.result().has_value() && game.legal_moves().empty());
}

}  // namespace fuzz
