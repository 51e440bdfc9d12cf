// Two seats: alpha-beta with quiescence, and for the expert a transposition
// table, null move, principal-variation windows and late-move reductions
// (search.hpp).
#include <cstdlib>

#include "koma/ai.hpp"
#include "search.hpp"

namespace koma::detail {

int TwoSeatSearch::quiesce(int alpha, int beta, int depth, bool prune) {
  ++b_.nodes;
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
  legal_moves(v_, line_, moves, true);
  std::size_t captures = 0;
  const unsigned defenders = v_.attackers_of(s, s.to_move);
  for (Move m : moves)
    if (!prune || !loses_at_once(v_, s, m, defenders)) moves[captures++] = m;
  moves.resize(captures);
  order(v_, s, moves);
  int best = stand;
  for (Move m : moves) {
    play_move(v_, line_, m);
    int val = quiesce(alpha, beta, depth - 1, prune);
    line_.pop();
    improve(maxing, val, best, alpha, beta);
    if (alpha >= beta) break;
  }
  return best;
}

std::optional<int> TwoSeatSearch::null_move(int depth, int alpha, int beta, int ply, int qdepth,
                                            SearchTable* tt, bool maxing) {
  const State& s = line_.back();
  int stand = eval_(s);
  if (maxing ? stand < beta : stand > alpha) return std::nullopt;
  State t = s;
  set_to_move(v_, t, (s.to_move + 1) % v_.nseats);
  line_.push(t, -1, false);
  int r = depth >= 6 ? 3 : 2;
  int val = maxing ? alphabeta(depth - 1 - r, beta - 1, beta, ply + 1, qdepth, tt, false)
                   : alphabeta(depth - 1 - r, alpha, alpha + 1, ply + 1, qdepth, tt, false);
  line_.pop();
  if (!b_.out && (maxing ? val >= beta : val <= alpha)) return maxing ? beta : alpha;
  return std::nullopt;
}

int TwoSeatSearch::child(std::size_t i, int reduction, int depth, int alpha, int beta, int ply,
                         int qdepth, SearchTable* tt, bool maxing) {
  auto search = [&](int d, int lo, int hi) { return alphabeta(d, lo, hi, ply + 1, qdepth, tt); };
  if (!tt || i == 0) return search(depth - 1, alpha, beta);
  int lo = maxing ? alpha : beta - 1, hi = lo + 1;
  int val = search(depth - 1 - reduction, lo, hi);
  bool beats = maxing ? val > alpha : val < beta;
  if (beats && reduction > 0) {
    val = search(depth - 1, lo, hi);
    beats = maxing ? val > alpha : val < beta;
  }
  if (beats && alpha + 1 < beta) val = search(depth - 1, alpha, beta);
  return val;
}

int TwoSeatSearch::alphabeta(int depth, int alpha, int beta, int ply, int qdepth, SearchTable* tt,
                             bool null_ok) {
  ++b_.nodes;
  const State& s = line_.back();
  if (s.outcome == Outcome::finished) return finished_score(v_, s, me_, ply);
  if (depth <= 0) return qdepth > 0 ? quiesce(alpha, beta, qdepth, tt != nullptr) : eval_(s);
  if (b_.exhausted()) return eval_(s);
  std::uint64_t key = s.board_key ^ s.hand_key;
  TTEntry* e = tt ? &tt->at(key) : nullptr;
  Move hint{};
  if (e && e->key == key) {
    hint = e->best;
    if (e->depth >= depth) {
      if (e->bound == Bound::exact) return e->score;
      if (e->bound == Bound::lower && e->score >= beta) return e->score;
      if (e->bound == Bound::upper && e->score <= alpha) return e->score;
    }
  }
  const bool maxing = !v_.enemies(me_, s.to_move);
  const bool prune = tt != nullptr;
  const bool checked = prune && in_check(v_, s, s.to_move);
  // Never twice in a row, never in check, never near a decided score.
  if (prune && null_ok && !checked && depth >= 3 && std::abs(beta) < kWinScore &&
      std::abs(alpha) < kWinScore)
    if (auto cut = null_move(depth, alpha, beta, ply, qdepth, tt, maxing)) return *cut;
  MoveList moves;
  legal_moves(v_, line_, moves);
  if (moves.empty()) return eval_(s);
  order(v_, s, moves, hint, &hints_, ply);
  const auto& killers = hints_.killers_at(ply);
  const int a0 = alpha, b0 = beta;
  int best = maxing ? -kInf : kInf;
  Move best_move = moves[0];
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    bool quiet = captured_value(v_, s, m) == 0 && !m.promote;
    play_move(v_, line_, m);
    bool gives_check = line_.checked(line_.size() - 1);
    int reduction = prune && depth >= 3 && i >= 3 && quiet && !checked && !gives_check &&
                            m != killers[0] && m != killers[1]
                        ? (i >= 12 && depth >= 5 ? 2 : 1)
                        : 0;
    int val = child(i, reduction, depth, alpha, beta, ply, qdepth, tt, maxing);
    line_.pop();
    if (maxing ? val > best : val < best) {
      best = val;
      best_move = m;
    }
    if (maxing)
      alpha = std::max(alpha, val);
    else
      beta = std::min(beta, val);
    if (alpha >= beta) {
      if (quiet) hints_.refuted_by(m, ply, depth);
      break;
    }
    if (b_.out) break;
  }
  if (e && !b_.out) {
    e->key = key;
    e->depth = depth;
    e->score = best;
    e->best = best_move;
    e->bound = best <= a0 ? Bound::upper : best >= b0 ? Bound::lower : Bound::exact;
  }
  return best;
}

}  // namespace koma::detail
