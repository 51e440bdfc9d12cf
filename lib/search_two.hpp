// Internal: the fixed-depth levels of two seats (easy, medium, hard), in
// search_two.cpp; what the searches share is in search.hpp.
#pragma once
#include "line.hpp"
#include "search.hpp"

namespace koma::detail {

// Two seats, the fixed-depth levels: minimax with alpha-beta from `me`'s
// view over `line` (whose last state is the node searched; moves are pushed
// and popped), the plain search the rule page describes. Every position it
// visits counts one node of the budget.
class TwoSeatSearch {
 public:
  TwoSeatSearch(const VariantData& v, Line& line, int me, Budget& budget)
      : v_(v), line_(line), me_(me), b_(budget), eval_(v, me) {}
  // Captures only, up to `depth` plies, until quiet; either side may stand
  // pat.
  int quiesce(int alpha, int beta, int depth);
  // Minimax to `depth` plies, then quiescence to `qdepth` (0: none).
  int alphabeta(int depth, int alpha, int beta, int ply, int qdepth);

 private:
  // Captures that lose material at once (loses_at_once) go last, after the
  // quiet moves, in the order they had.
  void demote_losing_captures(const State& s, MoveList& moves);
  const VariantData& v_;
  Line& line_;
  int me_;
  Budget& b_;
  MoveHints hints_;
  EvalCache eval_;
};

}  // namespace koma::detail
