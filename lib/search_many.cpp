// More seats: Best-Reply Search (Schadd & Winands 2011), search.hpp.
#include <array>

#include "search.hpp"

namespace koma::detail {

// Max layers are me_'s moves; a min layer lets every opponent reply and
// keeps the single strongest reply. A seat that must answer a check moves
// for real (check priority), so then only its replies are considered.
int BestReplySearch::search(int depth, int alpha, int beta, int ply) {
  ++b_.nodes;
  const std::size_t at = line_.size() - 1;  // the line grows below: no reference
  if (line_[at].outcome == Outcome::finished) return finished_score(v_, line_[at], me_, ply);
  if (depth <= 0 || b_.exhausted()) return eval_(line_[at]);
  const int to_move = line_[at].to_move;
  bool maxing = !v_.enemies(me_, to_move);
  std::array<int, kMaxSeats> movers{};
  int nmovers = 0;
  if (maxing || in_check(v_, line_[at], to_move)) {
    movers[nmovers++] = to_move;
  } else {
    for (int o = 0; o < v_.nseats; ++o)
      if (line_[at].active(o) && v_.enemies(me_, o)) movers[nmovers++] = o;
  }
  int best = maxing ? -kInf : kInf;
  bool any = false;
  for (int i = 0; i < nmovers; ++i) {
    const int seat = movers[i];
    // An opponent that is not the seat to move replies on a virtual turn.
    bool virtual_turn = seat != to_move;
    if (virtual_turn) {
      State t = line_[at];
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
  return any ? best : eval_(line_[at]);
}

}  // namespace koma::detail
