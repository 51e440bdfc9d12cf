// Two seats: alpha-beta with quiescence, and for the expert a transposition
// table, a check extension, null move, reverse futility, late-move pruning,
// principal-variation windows and late-move reductions (search.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "koma/ai.hpp"
#include "search.hpp"

namespace koma::detail {
namespace {

// Centi-pawns a quiet move is assumed to gain at most per ply of depth left:
// beyond it, a node already past the window (or a quiet move that cannot
// reach it) is cut without searching.
constexpr int kFutility = 120;

// Quiescence's margin over what a capture gains.
constexpr int kDelta = 200;

// Up to how many plies from the horizon a quiet move that hangs its piece
// (search.hpp) is not searched.
constexpr int kHangingDepth = 3;

// How many quiet moves (killers aside) a node `depth` plies from the horizon
// searches before it drops the later ones that do not check; deep nodes
// search all.
int late_moves(int depth) {
  return depth <= 6 ? 3 + depth * depth : 1 << 30;
}

// Late-move reduction of the n-th late move at `depth`: logarithmic in both
// (Stockfish's form); a ply less on the principal variation and for a
// check, a ply more for a move that leaves its piece hanging (search.hpp).
int reduction_for(int depth, int n, bool pv, bool hanging, bool check) {
  static const auto table = [] {
    std::array<std::array<std::uint8_t, 64>, 64> t{};
    for (int d = 1; d < 64; ++d)
      for (int k = 1; k < 64; ++k)
        t[d][k] = static_cast<std::uint8_t>(std::lround(std::log(d) * std::log(k) / 1.6));
    return t;
  }();
  int r = table[std::min(depth, 63)][std::min(n, 63)] - (pv ? 1 : 0) + (hanging ? 1 : 0) -
          (check ? 1 : 0);
  return std::clamp(r, 0, std::max(depth - 2, 0));
}

}  // namespace

int TwoSeatSearch::quiesce(int alpha, int beta, int depth, bool prune) {
  // At the horizon a seat left unjudged by play() is judged if mated; a
  // seat stuck without being in check is scored as if it could move.
  if (prune && depth == 0 && line_.back().outcome != Outcome::finished &&
      in_check(v_, line_.back(), line_.back().to_move) && !any_legal_move(v_, line_))
    judge_stuck_seat();
  const State& s = line_.back();
  int stand = eval_(s);
  if (s.outcome == Outcome::finished || depth == 0 || b_.exhausted()) return stand;
  bool maxing = !v_.enemies(me_, s.to_move);
  // A seat in check may not stand pat: it answers the check, with any move.
  const bool checked = prune && in_check(v_, s, s.to_move);
  if (!checked) {
    if (maxing) {
      if (stand >= beta) return stand;
      alpha = std::max(alpha, stand);
    } else {
      if (stand <= alpha) return stand;
      beta = std::min(beta, stand);
    }
  }
  MoveList moves;
  legal_moves(v_, line_, moves, !checked);
  if (checked && moves.empty() && judge_stuck_seat()) return eval_(line_.back());
  std::size_t kept = 0;
  const unsigned defenders = v_.attackers_of(s, s.to_move);
  // With `prune`, captures that lose material at once, and captures that
  // cannot bring the score back to the window: a capture gains the piece
  // off the board and into the hand, about twice its value.
  for (Move m : moves) {
    const int gain = 2 * captured_value(v_, s, m) + kDelta;
    if (prune && !checked &&
        (loses_at_once(v_, s, m, defenders) ||
         (!m.promote && (maxing ? stand + gain <= alpha : stand - gain >= beta))))
      continue;
    moves[kept++] = m;
  }
  moves.resize(kept);
  order(v_, s, moves);
  int best = checked ? (maxing ? -kInf : kInf) : stand;
  for (Move m : moves) {
    play(m, prune);
    ++b_.nodes;
    int val = quiesce(alpha, beta, depth - 1, prune);
    line_.pop();
    improve(maxing, val, best, alpha, beta);
    if (alpha >= beta) break;
  }
  return best;
}

std::optional<int> TwoSeatSearch::null_move(int depth, int alpha, int beta, int ply, int qdepth,
                                            SearchTable* tt, bool maxing, int stand) {
  const State& s = line_.back();
  if (maxing ? stand < beta : stand > alpha) return std::nullopt;
  State t = s;
  set_to_move(v_, t, (s.to_move + 1) % v_.nseats);
  line_.push(t, -1, false);
  int r = 2 + depth / 3;
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

int TwoSeatSearch::root_child(std::size_t i, bool quiet, int quiets, int depth, int alpha,
                              SearchTable* tt) {
  const bool gives = line_.checked(line_.size() - 1);
  const int reduction =
      tt && i >= 2 && quiet ? reduction_for(depth, quiets, true, false, gives) : 0;
  return child(i, reduction, depth, alpha, kInf, 0, kQuiescence, tt, true);
}

void TwoSeatSearch::demote_losing_captures(const State& s, MoveList& moves, Move first) {
  const unsigned defenders = v_.attackers_of(s, s.to_move);
  auto losing = [&](Move m) {
    return m != first && captured_value(v_, s, m) > 0 && loses_at_once(v_, s, m, defenders);
  };
  std::stable_partition(moves.begin(), moves.end(), [&](Move m) { return !losing(m); });
}

void TwoSeatSearch::play(Move m, bool prune) {
  if (prune)
    play_move_unjudged(v_, line_, m);
  else
    play_move(v_, line_, m);
}

bool TwoSeatSearch::judge_stuck_seat() {
  if (v_.rules.no_legal_move == NoMove::pass || line_.back().outcome == Outcome::finished)
    return false;
  judge_stuck(v_, line_);
  return true;
}

bool TwoSeatSearch::gives_check(Move m) {
  State& s = line_.back_in_place();
  Undo undo;
  if (!make_in_place(v_, s, m, undo)) return true;
  const bool check = in_check(v_, s, (s.to_move + 1) % v_.nseats);
  unmake_in_place(v_, s, m, undo);
  return check;
}

int TwoSeatSearch::alphabeta(int depth, int alpha, int beta, int ply, int qdepth, SearchTable* tt,
                             bool null_ok) {
  ++b_.nodes;
  const State& s = line_.back();
  if (s.outcome == Outcome::finished) return finished_score(v_, s, me_, ply);
  const bool prune = tt != nullptr;
  const bool checked = prune && in_check(v_, s, s.to_move);
  // A seat in check has few answers: look one ply further (the checker's
  // move still costs a ply, so a run of checks ends).
  if (checked && ply < MoveHints::kPlies - 1) depth = std::max(depth, 0) + 1;
  if (depth <= 0) return qdepth > 0 ? quiesce(alpha, beta, qdepth, prune) : eval_(s);
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
  const bool pv = beta - alpha > 1;
  const bool calm =
      prune && !pv && !checked && std::abs(beta) < kWinScore && std::abs(alpha) < kWinScore;
  const int stand = calm ? eval_(s) : 0;
  // Far enough beyond the bound that a few plies will not bring it back.
  if (calm && depth <= 6) {
    const int margin = kFutility * depth;
    if (maxing ? stand - margin >= beta : stand + margin <= alpha) return stand;
  }
  // Never twice in a row, never in check, never near a decided score.
  if (calm && null_ok && depth >= 3)
    if (auto cut = null_move(depth, alpha, beta, ply, qdepth, tt, maxing, stand)) return *cut;
  MoveList moves;
  legal_moves(v_, line_, moves);
  if (moves.empty())
    return prune && judge_stuck_seat() ? finished_score(v_, line_.back(), me_, ply) : eval_(s);
  order(v_, s, moves, hint, &hints_, ply);
  demote_losing_captures(s, moves, hint);
  const auto& killers = hints_.killers_at(ply);
  const int a0 = alpha, b0 = beta;
  int best = maxing ? -kInf : kInf;
  Move best_move = moves[0];
  int quiets = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    const bool quiet = captured_value(v_, s, m) == 0 && !m.promote;
    const bool plain = quiet && m != killers[0] && m != killers[1];
    if (plain) ++quiets;
    // Whether the move leaves its piece hanging: asked at most once.
    int hangs_cached = -1;
    auto hanging = [&] {
      if (hangs_cached < 0) hangs_cached = hangs(v_, s, m) ? 1 : 0;
      return hangs_cached == 1;
    };
    // Near the horizon, a quiet move late in the order, one that cannot
    // lift the score to the window or, closer still, one that leaves its
    // piece hanging is not searched unless it checks.
    if (calm && plain && i > 0 &&
        (quiets > late_moves(depth) ||
         (depth <= 4 &&
          (maxing ? stand + kFutility * depth <= alpha : stand - kFutility * depth >= beta)) ||
         (depth <= kHangingDepth && hanging())) &&
        !gives_check(m))
      continue;
    // Late quiet moves are searched at reduced depth first, checks and the
    // answers to a check too.
    const bool reducible = prune && i >= 2 && plain;
    const bool hung = reducible && hanging();
    play(m, prune);
    const bool gives = line_.checked(line_.size() - 1);
    const int reduction = reducible ? reduction_for(depth, quiets, pv, hung, gives) : 0;
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
