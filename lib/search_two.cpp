// Two seats, the fixed-depth levels (easy, medium, hard): plain alpha-beta
// with quiescence over captures (search_two.hpp). The expert has its own search
// (expert_two.cpp).
#include <algorithm>

#include "koma/ai.hpp"
#include "rules.hpp"
#include "search_two.hpp"

namespace koma::detail {

int TwoSeatSearch::quiesce(int alpha, int beta, int depth) {
  const State& s = line_.back();
  int stand = eval_(s);
  if (s.outcome == Outcome::finished || depth == 0 || b_.exhausted()) return stand;
  bool maxing = !v_.enemies(me_, s.to_move);
  if (maxing) {
    if (stand >= beta) return stand;
    alpha = std::max(alpha, stand);
  } else {
    if (stand <= alpha) return stand;
    beta = std::min(beta, stand);
  }
  MoveList moves;
  legal_moves(v_, line_, moves, MoveFilter::captures);
  order(v_, s, moves);
  int best = stand;
  for (Move m : moves) {
    play_move(v_, line_, m);
    ++b_.nodes;
    int val = quiesce(alpha, beta, depth - 1);
    line_.pop();
    improve(maxing, val, best, alpha, beta);
    if (alpha >= beta) break;
  }
  return best;
}

void TwoSeatSearch::demote_losing_captures(const State& s, MoveList& moves) {
  const unsigned defenders = v_.attackers_of(s, s.to_move);
  auto losing = [&](Move m) {
    return captured_value(v_, s, m) > 0 && loses_at_once(v_, s, m, defenders);
  };
  std::stable_partition(moves.begin(), moves.end(), [&](Move m) { return !losing(m); });
}

int TwoSeatSearch::alphabeta(int depth, int alpha, int beta, int ply, int qdepth) {
  ++b_.nodes;
  const State& s = line_.back();
  if (s.outcome == Outcome::finished) return finished_score(v_, s, me_, ply);
  if (depth <= 0) return qdepth > 0 ? quiesce(alpha, beta, qdepth) : eval_(s);
  if (b_.exhausted()) return eval_(s);
  MoveList moves;
  legal_moves(v_, line_, moves);
  // No legal move but the game goes on: the rules let the seat pass.
  if (moves.empty()) return eval_(s);
  order(v_, s, moves, Move{}, &hints_, ply);
  demote_losing_captures(s, moves);
  const bool maxing = !v_.enemies(me_, s.to_move);
  int best = maxing ? -kInf : kInf;
  for (Move m : moves) {
    const bool quiet = captured_value(v_, s, m) == 0 && !m.promote;
    play_move(v_, line_, m);
    int val = alphabeta(depth - 1, alpha, beta, ply + 1, qdepth);
    line_.pop();
    improve(maxing, val, best, alpha, beta);
    if (alpha >= beta) {
      if (quiet) hints_.refuted_by(m, ply, depth);
      break;
    }
    if (b_.out) break;
  }
  return best;
}

}  // namespace koma::detail
