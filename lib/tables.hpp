// Internal: the tables a variant is compiled into once its keys are read
// (docs/descriptor.md: "the loader compiles them once"): move rays per piece
// code and square, the walks back from a square along each step, the check
// lines, the promotion and goal zones, the evaluation's board tables and
// the Zobrist keys. Each subject has its own function; compile_tables runs
// them in order.
#pragma once
#include <vector>

#include "betza.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// `moves[kind]`: the kind's Betza moves, piece-relative; `doubles[kind]`
// its double move. Reads the board, seats, kinds and rules of `v`; writes
// its tables.
void compile_tables(VariantData& v, const std::vector<std::vector<MoveComponent>>& moves,
                    const std::vector<std::vector<DoubleStep>>& doubles);

}  // namespace koma::detail
