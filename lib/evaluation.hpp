// Internal: a static evaluation for any variant, from one seat's view, built
// from the descriptor's piece values and the terms of the rule pages: material
// on board and in hand, king guard, enemy pieces near the king, mobility of
// the long-range pieces.
#pragma once
#include <array>
#include <cstdint>

#include "movegen.hpp"
#include "variant_data.hpp"

namespace koma::detail {

inline constexpr int kWin = 1000000;

// Each seat's standing among more than two seats (the evaluation's
// per-seat term where no duel's attack counts enter), kept in parts a move
// changes little, so that a search reads a position's standings from those
// of an earlier position of its line instead of walking every piece again:
// the values, nearness to the targets and king guard of the pieces on the
// cells the two positions differ in, the hands that differ, the crowding of
// a king with a changed cell near it, and the mobility of the riders whose
// rays cross a changed cell. The result
// is the same as from scratch (a KOMA_SELF_CHECK build compares them at
// every evaluation).
class Standings {
 public:
  // The standings of `s`, from scratch.
  void compute(const VariantData& v, const State& s);
  // The standings of `s` from `before`, the standings of `was`: from scratch
  // where a seat left the game, a hand froze, the pieces aim at pieces
  // (end.collect) or more than eight cells changed; where a royal moved,
  // every seat's pieces' worth and crowding anew (they read the kings).
  void update(const VariantData& v, const Standings& before, const State& was, const State& s);
  // The standing of `seat` (very low for a seat out of the game).
  int of(int seat) const { return total_[static_cast<std::size_t>(seat)]; }

 private:
  void total(const VariantData& v, const State& s);
  struct Seat {
    int placed = 0;  // its pieces' values, nearness to the targets, guard
    int hand = 0;    // its hand at the evaluation's percentage
    int crowd = 0;   // the enemy pieces near its king, weighted
    SquareSet riders;
    int mobility = 0;  // the riders' sum
    // The cells the riders' walks read (and, once updated, some they no
    // longer read): a rider is walked again only where one changes.
    SquareSet seen;
  };
  // The mobility of the rider on `sq` in `s`, kept (rides_) and marked seen.
  int walk_rider(const VariantData& v, const State& s, Seat& seat, int sq);
  std::array<Seat, kMaxSeats> seats_{};
  std::array<int, kMaxSeats> total_{};
  std::array<std::uint16_t, kMaxSquares> rides_{};  // a rider's mobility, by its square
};

// From `seat`'s view: its standing against the average of its opponents
// still in the game, plus a fixed amount for each opponent out (or, where a
// mated king waits to be taken, checkmated); or a decisive score if the game
// ended. docs/ai.md#evaluation lists the terms.
// `checks`: what is known of the seats `s` has in check (a seat known not
// in check is not asked whether it is checkmated). `standings`: those of
// `s`, kept by the caller (read where no duel's attack counts enter).
int evaluate(const VariantData& v, const State& s, int seat, KnownChecks checks = {},
             const Standings* standings = nullptr);
// Value of a piece kind in centi-pawns (descriptor value, at least 1 pawn).
inline int piece_value(const VariantData& v, int kind) {
  return v.value100[static_cast<std::size_t>(kind)];
}

}  // namespace koma::detail
