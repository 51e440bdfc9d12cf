// Perft: the number of leaves of the tree of legal move sequences of a given
// depth (docs/api.md#perft). Moves that end the game have no children; automatic turn
// changes are part of a move. Used to pin move generation.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "koma/game.hpp"

namespace koma {

enum class PerftMode {
  bulk,  // count the legal moves at the last ply without playing them
  full,  // make every leaf move on the board and take it back (the rules that
         // follow a move run at interior nodes, where they decide the children)
};

std::uint64_t perft(const Game& game, int depth, PerftMode mode = PerftMode::bulk);
// One count per legal root move, in legal-move order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Game& game, int depth,
                                                         PerftMode mode = PerftMode::bulk);

}  // namespace koma
