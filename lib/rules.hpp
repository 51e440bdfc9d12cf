// Internal: the rules that read a line of play (line.hpp) — which moves are
// legal there, with the ones that need the past (a perpetual checker's
// forbidden repetition), and what happens after a move or an action, in
// the order of docs/descriptor.md#what-happens-after-a-move: eliminations,
// endings, the next seat, repetition and the ply limit, then a seat that
// cannot move on its turn. Game, Position, perft and the searches play
// through these.
#pragma once
#include <string>
#include <vector>

#include "line.hpp"
#include "movegen.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// What places by score compare: mates made, total pieces (board, hand and
// the overturned kings of the seats it mated), and when its latest mate
// happened, as its number in the order of the game's eliminations (0 for
// none; a later mate has a larger number).
struct Score {
  int mates = 0, pieces = 0;
  std::uint32_t last_mate = 0;
};
Score score_of(const VariantData& v, const State& s, int seat);

// Legal moves of the seat to move, with the rules that need the past
// (a perpetual checker may not make a forbidden repetition). Empty when over.
// Reads the line only: safe from several threads at once. `filter` picks a
// part of them (generate_moves).
void legal_moves(const VariantData& v, const Line& line, MoveList& out,
                 MoveFilter filter = MoveFilter::all, int target = -1);
// Whether legal_moves would list `m` (any Move, even one a hash table kept
// for another position).
bool legal_move(const VariantData& v, const Line& line, Move m);
// Whether the seat to move in the line's last state has a legal move.
bool any_legal_move(const VariantData& v, const Line& line);
// How many legal_moves would list, without listing them where it can.
std::size_t count_legal_moves(const VariantData& v, const Line& line);

// Plays a legal move and every automatic consequence (in the order of
// docs/descriptor.md#what-happens-after-a-move).
void play_move(const VariantData& v, Line& line, Move m);
// The same, but a next seat with no legal move is left to move (unjudged;
// with two seats, also one the move mates): for walking a tree whose next
// step lists that seat's moves anyway. When it lists none (and the rules
// do not pass), judge_stuck settles the last state as play_move would have:
// the seat eliminated (checkmated if in check), play going on.
void play_move_unjudged(const VariantData& v, Line& line, Move m);
void judge_stuck(const VariantData& v, Line& line);
// Actions: resignation and an impasse declaration. The caller checks that
// the variant has them.
void play_resign(const VariantData& v, Line& line);
void play_declaration(const VariantData& v, Line& line);
// Ends the game with the given places (outside decisions).
void end_game(State& s, const std::vector<int>& places, Reason reason);

// Why `m` is not legal in the line's last state ("" if it is).
std::string explain_illegal(const VariantData& v, const Line& line, Move m);

}  // namespace koma::detail
