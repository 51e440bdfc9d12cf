// More seats: Best-Reply Search (Schadd & Winands 2011), search.hpp.
#include <vector>

#include "search.hpp"

namespace koma::detail {

// Max layers are me_'s moves; a min layer lets every opponent reply and
// keeps the single strongest reply. A seat that must answer a check moves
// for real (check priority), so then only its replies are considered.
int BestReplySearch::search(int depth, int alpha, int beta, int ply) {
  ++b_.nodes;
  const State s = line_.back();  // a copy: the line grows below
  if (s.outcome == Outcome::finished) return finished_score(v_, s, me_, ply);
  if (depth <= 0 || b_.exhausted()) return evaluate(v_, s, me_);
  bool maxing = !v_.enemies(me_, s.to_move);
  std::vector<int> movers;
  if (maxing || in_check(v_, s, s.to_move)) {
    movers.push_back(s.to_move);
  } else {
    for (int o = 0; o < v_.nseats; ++o)
      if (s.active(o) && v_.enemies(me_, o)) movers.push_back(o);
  }
  int best = maxing ? -kInf : kInf;
  bool any = false;
  for (int seat : movers) {
    // An opponent that is not the seat to move replies on a virtual turn.
    bool virtual_turn = seat != s.to_move;
    if (virtual_turn) {
      State t = s;
      set_to_move(v_, t, seat);
      line_.push(t, -1, false);
    }
    MoveList moves;
    legal_moves(v_, line_, moves);
    order(v_, line_.back(), moves);
    for (Move m : moves) {
      any = true;
      play_move(v_, line_, m);
      int val = search(depth - 1, alpha, beta, ply + 1);
      line_.pop();
      improve(maxing, val, best, alpha, beta);
      if (alpha >= beta || b_.out) break;
    }
    if (virtual_turn) line_.pop();
    if (alpha >= beta || b_.out) break;
  }
  return any ? best : evaluate(v_, s, me_);
}

}  // namespace koma::detail
