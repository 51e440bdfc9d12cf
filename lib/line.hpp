// Internal: a line of play — the states of a game or search from its start,
// with who moved into each and whether that move gave check. The rules read
// it for repetition and perpetual check; Game and perft push and pop it.
#pragma once
#include <vector>

#include "movegen.hpp"
#include "variant_data.hpp"

namespace koma::detail {

struct Line {
  std::vector<State> states;          // states[0] is the start position
  std::vector<std::int8_t> movers;    // [i]: seat whose move or action led to states[i]; -1 for [0]
  std::vector<std::uint8_t> checked;  // [i]: that move gave check
  // Rule endings (repetition, impasse, ...) are noted, not final: the caller
  // follows an outside referee (Game::Referee::outside).
  bool referee_outside = false;

  explicit Line(const State& start) : states{start}, movers{-1}, checked{0} {}
  const State& back() const { return states.back(); }
  std::size_t size() const { return states.size(); }
  void pop() {
    states.pop_back();
    movers.pop_back();
    checked.pop_back();
  }
  // How many earlier states equal `s` (board, hands, eliminated set, seat to
  // move), compared in full wherever the keys match. `first` gets the index
  // of the earliest one.
  int occurrences(const VariantData& v, const State& s, std::size_t* first = nullptr) const;
};

bool same_position(const VariantData& v, const State& a, const State& b);

// What places by score compare: mates made, total pieces (board, hand and
// the overturned kings of the seats it mated), and the ply of its last mate.
struct Score {
  int mates = 0, pieces = 0;
  std::uint32_t last_mate = 0;
};
Score score_of(const VariantData& v, const State& s, int seat);

// Legal moves of the seat to move, with the rules that need the past
// (a perpetual checker may not make a forbidden repetition). Empty when over.
void legal_moves(const VariantData& v, const Line& line, MoveList& out);
// Whether the seat to move in the line's last state has a legal move.
bool any_legal_move(const VariantData& v, const Line& line);

// Plays a legal move and every automatic consequence (docs/rules order).
// With `probe`, stops once the next seat is chosen (before a seat that cannot
// move is eliminated): enough to know which position the move leads to.
void play_move(const VariantData& v, Line& line, Move m, bool probe = false);
// Actions: resignation and an impasse declaration. The caller checks that
// the variant has them.
void play_resign(const VariantData& v, Line& line);
void play_declaration(const VariantData& v, Line& line);
// Ends the game with the given places (outside decisions).
void end_game(State& s, const std::vector<int>& places, Reason reason);

// Why `m` is not legal in the line's last state ("" if it is).
std::string explain_illegal(const VariantData& v, const Line& line, Move m);

}  // namespace koma::detail
