// Internal: a static evaluation for any variant, from one seat's view, built
// from the descriptor's piece values and the terms of the rule pages: material
// on board and in hand, king guard, enemy pieces near the king, mobility of
// the long-range pieces.
#pragma once
#include "movegen.hpp"
#include "variant_data.hpp"

namespace koma::detail {

inline constexpr int kWin = 1000000;

// From `seat`'s view: its standing against the average of its opponents
// still in the game, plus a fixed amount for each opponent out (or, where a
// mated king waits to be taken, checkmated); or a decisive score if the game
// ended. docs/ai.md#evaluation lists the terms.
// `checks`: what is known of the seats `s` has in check (a seat known not
// in check is not asked whether it is checkmated).
int evaluate(const VariantData& v, const State& s, int seat, KnownChecks checks = {});
// Value of a piece kind in centi-pawns (descriptor value, at least 1 pawn).
inline int piece_value(const VariantData& v, int kind) {
  return v.value100[static_cast<std::size_t>(kind)];
}

}  // namespace koma::detail
