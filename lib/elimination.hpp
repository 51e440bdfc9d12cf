// Internal: what happens to a seat that leaves the game (mated, stuck,
// resigned, or its royal captured), as the descriptor's elimination atoms say.
#pragma once
#include "variant_data.hpp"

namespace koma::detail {

enum class EliminationCause { checkmate, no_legal_move, resignation, royal_captured };

// Marks `seat` eliminated and applies the king, pieces and hand atoms.
// `mater` (-1 for none) receives pieces and hand where the rules pass them on
// and is credited with the mate.
void eliminate_seat(const VariantData& v, State& s, int seat, EliminationCause cause, int mater);

}  // namespace koma::detail
