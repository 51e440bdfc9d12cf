// More seats: Best-Reply Search (Schadd & Winands 2011), search_many.hpp.
#include <algorithm>
#include <functional>

#include "rules.hpp"
#include "search_many.hpp"

namespace koma::detail {

void BestReplySearch::candidates(Layer& layer) {
  std::vector<Candidate>& out = layer.list;
  out.clear();
  layer.next = 0;
  const Stage stage = layer.stage;
  const State& s = line_.back();
  // A seat that must answer a check moves for real (check priority): then
  // only its moves count.
  const bool forced = layer.maxing || layer.checked;
  const MoveFilter filter = stage == Stage::rest ? MoveFilter::all : MoveFilter::captures;
  MoveList moves;
  for (int seat = 0; seat < v_.nseats; ++seat) {
    if (forced ? seat != s.to_move : !(s.active(seat) && v_.enemies(me_, seat))) continue;
    // The seat to move by the line's rules (a forbidden repetition); an
    // opponent on a virtual turn by the board alone.
    moves.clear();
    if (seat == s.to_move)
      legal_moves(v_, line_, moves, filter);
    else
      generate_moves(v_, s, seat, moves, filter);
    const unsigned defenders = v_.attackers_of(s, seat);
    for (Move m : moves) {
      const bool wanted = stage == Stage::quiescence
                              ? !loses_at_once(v_, s, m, defenders)
                              : (captured_value(v_, s, m) > 0) == (stage == Stage::captures);
      if (!wanted) continue;
      // The key packs the list position, as order() does: equal keys keep
      // seat and generator order, and the sort compares integers only.
      const std::uint64_t key = order_key(v_, s, m, Move{}, &hints_, layer.ply) << 16 |
                                (0xFFFFu - std::min<std::size_t>(out.size(), 0xFFFFu));
      out.push_back(Candidate{key, m, seat});
    }
  }
}

bool BestReplySearch::next(Layer& layer, Move& move, int& seat) {
  while (layer.next == layer.list.size()) {
    if (layer.stage != Stage::captures) return false;
    layer.stage = Stage::rest;
    candidates(layer);
  }
  // Most nodes are cut by one of their first moves: those are selected,
  // the rest sorted once the search reaches them (the order of one sort).
  constexpr std::size_t kSelected = 4;
  const auto higher = [](const Candidate& a, const Candidate& b) { return a.key > b.key; };
  const auto at = layer.list.begin() + static_cast<std::ptrdiff_t>(layer.next);
  if (layer.next < kSelected)
    std::iter_swap(at, std::min_element(at, layer.list.end(), higher));
  else if (layer.next == kSelected)
    std::sort(at, layer.list.end(), higher);
  ++layer.next;
  move = at->move;
  seat = at->seat;
  return true;
}

int BestReplySearch::play(Move m, int seat, bool maxing) {
  // A virtual turn: the last state with another seat to move (the same
  // board, so the same seats in check).
  const auto turn_to = [&](int seat) {
    line_.push_changed([&](State& t) { set_to_move(v_, t, seat); }, -1, false,
                       line_.known_checks(line_.size() - 1));
  };
  int pushed = 0;
  if (seat != line_.back().to_move) {
    turn_to(seat);
    ++pushed;
  }
  // The child's evaluation slot loads while the turn pipeline runs.
  eval_.prefetch(key_after(v_, line_.back(), m), v_.next_seat(seat));
  play_move(v_, line_, m);
  ++pushed;
  const State& u = line_.back();
  if (!maxing && u.outcome == Outcome::ongoing && u.active(me_) && v_.enemies(me_, u.to_move) &&
      !line_.in_check_at(line_.size() - 1, u.to_move)) {
    turn_to(me_);
    ++pushed;
  }
  return pushed;
}

const Standings& BestReplySearch::standings_at(std::size_t i) {
  if (standings_.size() <= i) standings_.resize(i + 1);
  const auto kept = [&](std::size_t j) { return standings_[j].serial == line_.serial(j); };
  KeptStandings& here = standings_[i];
  if (!kept(i)) {
    std::size_t j = i;
    while (j > 0 && i - j < 3 && !kept(j)) --j;
    if (kept(j))
      here.standings.update(v_, standings_[j].standings, line_[j], line_[i]);
    else
      here.standings.compute(v_, line_[i]);
    here.serial = line_.serial(i);
  }
  return here.standings;
}

int BestReplySearch::search(int depth, int alpha, int beta, int ply) {
  ++b_.nodes;
  const std::size_t at = line_.size() - 1;  // the line grows below: no reference
  if (line_[at].outcome == Outcome::finished) return finished_score(v_, line_[at], me_, ply);
  const auto eval = [&] {
    return eval_(line_[at], line_.known_checks(at), [&] { return &standings_at(at); });
  };
  if (depth <= -kQuiescence || b_.exhausted()) return eval();
  const bool maxing = !v_.enemies(me_, line_[at].to_move);
  // A seat in check must move: it answers with any move, never stands pat.
  const bool checked = line_.in_check_at(at, line_[at].to_move);
  const bool captures = depth <= 0 && !checked;
  int best = maxing ? -kInf : kInf;
  if (captures) {
    // Standing pat: the side to move need not capture.
    best = eval();
    if (maxing ? best >= beta : best <= alpha) return best;
    if (maxing)
      alpha = std::max(alpha, best);
    else
      beta = std::min(beta, best);
  }
  // One list per ply, kept: no allocation per node. A deque never moves
  // the lists of the plies above when it grows.
  while (lists_.size() <= static_cast<std::size_t>(ply)) lists_.emplace_back();
  std::vector<Candidate>& list = lists_[static_cast<std::size_t>(ply)];
  Layer layer{maxing, checked, captures ? Stage::quiescence : Stage::captures, ply, list};
  candidates(layer);
  bool none = true;  // no move tried yet
  Move m;
  int seat = 0;
  while (next(layer, m, seat)) {
    // Standings kept here are read by the nodes below: by the children
    // that evaluate, and one layer up by the children whose own children
    // evaluate (else each of them would count its standings from scratch).
    if (none && depth <= 2) standings_at(at);
    none = false;
    int pushed = play(m, seat, maxing);
    int val = search(depth - 1, alpha, beta, ply + 1);
    while (pushed--) line_.pop();
    improve(maxing, val, best, alpha, beta);
    if (alpha >= beta) {
      if (captured_value(v_, line_[at], m) == 0 && !m.promote)
        hints_.refuted_by(m, ply, std::max(depth, 1));
      break;
    }
    if (b_.out) break;
  }
  if (none) return captures ? best : eval();
  return best;
}

}  // namespace koma::detail
