// The two-seat expert (expert_two.hpp): principal-variation search and
// quiescence, with the table, the move statistics and the exchange
// evaluation they read.
#include "expert_two.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <boost/container/static_vector.hpp>

#include "koma/ai.hpp"
#include "move_picker.hpp"
#include "movegen.hpp"
#include "rules.hpp"

namespace koma::detail {
// ---------------------------------------------------------------- table

void ExpertTable::start() {
  if (slots_.empty()) slots_.resize(kSlots);
  ++search_;
}

const ExpertEntry* ExpertTable::probe(std::uint64_t key) const {
  const auto& slot = slots_[key & (kSlots - 1)].entries;
  for (const ExpertEntry& e : slot)
    if (e.search == search_ && e.key == key) return &e;
  return nullptr;
}

void ExpertTable::store(std::uint64_t key, int value, int eval, Move move, int depth, Bound bound,
                        bool pv) {
  auto& slot = slots_[key & (kSlots - 1)].entries;
  ExpertEntry* e = &slot[1];
  if (slot[0].search != search_ || slot[0].key == key || slot[0].depth <= depth) e = &slot[0];
  // Keep the move of an earlier entry of the same position when this one has none.
  if (move == Move{} && e->search == search_ && e->key == key) move = e->move;
  *e = ExpertEntry{key, value, eval, move, static_cast<std::int16_t>(depth), bound, pv, search_};
}

// ---------------------------------------------------------------- search

namespace {

constexpr int kNone = -kInf - 1;  // no static evaluation (in check)

// Gives a quiescence node's share of the move pool back however the node
// returns (nodes push their moves onto one pool, deeper nodes after them;
// MovePicker does the same for the main search).
template <class Pool>
class Shrink {
 public:
  explicit Shrink(Pool& pool) : pool_(pool), size_(pool.size()) {}
  Shrink(const Shrink&) = delete;
  Shrink& operator=(const Shrink&) = delete;
  Shrink(Shrink&&) = delete;
  Shrink& operator=(Shrink&&) = delete;
  ~Shrink() { pool_.resize(size_); }

 private:
  Pool& pool_;
  std::size_t size_;
};

// Margins in centi-pawns (a pawn is 100). Stockfish's structure with values
// set by matches against Fairy-Stockfish (docs/ai.md): shogi's captured
// pieces come back as drops, so swings are larger than in chess.
constexpr int kAspiration = 40;           // the first window around the last score
constexpr int kReverseFutility = 140;     // per ply left, above beta, to stand
constexpr int kNullDivisor = 200;         // eval above beta per extra ply of null reduction
constexpr int kFutilityBase = 170;        // a quiet move at the frontier gains at most
constexpr int kFutilityPerPly = 110;      // ... plus this per ply left
constexpr int kQuietExchange = 18;        // a quiet move losing more than this x depth^2 is dropped
constexpr int kCaptureExchange = 130;     // a capture losing more than this x depth is dropped
constexpr int kQuiescenceFutility = 150;  // a capture in quiescence gains at most its victim + this
constexpr int kSingularDepth = 7;         // the shallowest depth that tests the table move
// Late-move reductions: the statistics of a quiet move shift its reduction
// by a ply per kStatPerPly, around kStatOffset.
constexpr int kStatOffset = 4000;
constexpr int kStatPerPly = 14000;

// Late-move reductions: Stockfish's table, log of depth times log of the
// move's number, in 1024ths of a ply.
int reduction(bool improving, int depth, int n) {
  static const auto table = [] {
    std::array<int, 256> t{};
    for (int i = 1; i < 256; ++i) t[i] = static_cast<int>(21.3 * std::log(i + 0.25 * std::log(i)));
    return t;
  }();
  const int r = table[std::min(depth, 255)] * table[std::min(n, 255)];
  return (r + 509) / 1024 + (!improving && r > 894);
}

// Quiet moves a node searches before it drops the rest.
int move_count_limit(bool improving, int depth) {
  return (3 + depth * depth) / (2 - improving);
}

int stat_bonus(int depth) {
  return depth > 14 ? 73 : 6 * depth * depth + 229 * depth - 215;
}

int to_table(int value, int ply) {
  return value >= kWinScore ? value + ply : value <= -kWinScore ? value - ply : value;
}
int from_table(int value, int ply) {
  return value >= kWinScore ? value - ply : value <= -kWinScore ? value + ply : value;
}

std::uint64_t key_of(const State& s, Move excluded) {
  std::uint64_t k = s.board_key ^ s.hand_key;
  if (excluded != Move{})
    k ^= (std::uint64_t{excluded.from} << 40 | std::uint64_t{excluded.to} << 24 |
          std::uint64_t{excluded.kind} << 8 | excluded.promote) *
         0x9E3779B97F4A7C15ull;
  return k;
}

// Table depths below every searched one: an entry with the static
// evaluation only, and a quiescence node's stand-pat bound.
constexpr int kEvalOnly = -100;
constexpr int kStandPat = -2;
// Plies of quiescence after which a side stands pat.
constexpr int kQuietDepth = 12;

bool copy_entry(const ExpertEntry* from, ExpertEntry& to) {
  if (!from) return false;
  to = *from;
  return true;
}

// Whether a table score with its bound is at least `beta` (lower bound,
// exact) or below it (upper bound, exact): it decides a null window there.
bool cuts(const ExpertEntry& e, int value, int beta) {
  return e.bound == Bound::exact || (e.bound == Bound::lower ? value >= beta : value < beta);
}

constexpr int kHistoryRange = 10692;
constexpr int kContRange = 29952;
constexpr int kCaptureRange = 10692;

}  // namespace

TwoSeatExpert::TwoSeatExpert(const VariantData& v, Line& line, Budget& budget, ExpertMemory& memory)
    : v_(v),
      line_(line),
      b_(budget),
      tt_(memory.table),
      stats_(memory.stats),
      eval_(memory.eval),
      floor_(line.size() - 1),
      me_(line.back().to_move) {
  tt_.start();
  stats_.reset(v);
  eval_.use_for(v, me_);
}

const std::int16_t* TwoSeatExpert::cont_at(int ply) const {
  const std::int16_t* row = frames_[static_cast<std::size_t>(ply) + 4].cont;
  return row ? row : stats_.zero_row();
}

int TwoSeatExpert::seat_at(int ply) const {
  return ply % 2 == 0 ? me_ : v_.next_seat(me_);
}

int TwoSeatExpert::static_eval() {
  const State& s = line_.back();
  const int e = eval_(s);
  return s.to_move == me_ ? e : -e;
}

bool TwoSeatExpert::terminal(int ply, int& score) {
  const State& s = line_.back();
  if (s.outcome == Outcome::finished) {
    // By place, from the view of the seat whose turn it is at this ply (a
    // finished state's to_move may be another: judge_stuck settles a stuck
    // seat's state anew), nearer wins and farther losses preferred.
    score = finished_score(v_, s, seat_at(ply), ply);
    return true;
  }
  // A position that came before inside the search (since the last null
  // move) is scored as the repetition the rules would end it with, if it
  // were to go on: a draw, or a loss for a seat that gave check on every
  // move since (perpetual check, where that loses).
  const RepetitionRules& r = v_.rules.end.repetition;
  if (r.count > 1 && r.loser == RepetitionLoser::none && repeats_in_search()) {
    std::size_t first = 0;
    if (line_.occurrences(s, &first) > 1 && first >= floor_) {
      score = 0;
      if (r.perpetual_check == Perpetual::loses) {
        const Tally t = line_.since(first);
        for (int seat = 0; seat < v_.nseats; ++seat)
          if (t.moves[seat] > 0 && t.checks[seat] == t.moves[seat])
            score = seat == s.to_move ? -kWin + ply : kWin - ply;
      }
      return true;
    }
  }
  return false;
}

int TwoSeatExpert::stuck_value(int ply) {
  if (v_.rules.no_legal_move == NoMove::pass) return static_eval();
  judge_stuck(v_, line_);
  return finished_score(v_, line_.back(), seat_at(ply), ply);
}

bool TwoSeatExpert::repeats_in_search() const {
  const State& s = line_.back();
  const std::uint64_t key = s.board_key ^ s.hand_key;
  for (std::size_t i = floor_; i + 1 < line_.size(); ++i)
    if ((line_[i].board_key ^ line_[i].hand_key) == key) return true;
  return false;
}

bool TwoSeatExpert::gives_check(Move m) {
  // The enemy royal is not in check now (with two seats and check, the seat
  // not to move never is: as after its own move, or a position as loaded).
  const int k = enemy_royal();
  if (k >= 0) return move_gives_check(v_, line_.back(), m, k);
  State& s = line_.back_in_place();
  return played_gives_check(v_, s, m, v_.next_seat(s.to_move));
}

int TwoSeatExpert::enemy_royal() const {
  const State& s = line_.back();
  return s.royal[v_.next_seat(s.to_move)];
}

const SquareSet* TwoSeatExpert::check_reach() const {
  const int k = enemy_royal();
  return k >= 0 ? &v_.reach_to[static_cast<std::size_t>(k)] : nullptr;
}

bool TwoSeatExpert::in_check_now() const {
  // With two seats in play, the seat to move is in check exactly when the
  // other one's move into this state gave check (Line::checked).
  const std::size_t last = line_.size() - 1;
  const State& s = line_[last];
  const int mover = line_.mover(last);
  if (v_.nseats == 2 && mover >= 0 && mover != s.to_move && s.active(mover))
    return line_.checked(last);
  return in_check(v_, s, s.to_move);
}

void TwoSeatExpert::play(int ply, Move m) {
  const int seat = line_.back().to_move;
  Frame* f = at(ply);
  f->move = m;
  f->null = false;
  f->cont = stats_.row(seat, moved_kind(line_.back(), m), m.to);
  // The child's table and evaluation slots load while the turn pipeline
  // runs.
  const std::uint64_t key = key_after(v_, line_.back(), m);
  tt_.prefetch(key);
  eval_.prefetch(key, v_.next_seat(seat));
  play_move_unjudged(v_, line_, m);
  ++b_.nodes;
}

void TwoSeatExpert::play_null(int ply) {
  Frame* f = at(ply);
  f->move = Move{};
  f->null = true;
  f->cont = nullptr;
  line_.push_changed([&](State& t) { set_to_move(v_, t, v_.next_seat(t.to_move)); }, -1, false);
}

void TwoSeatExpert::update_cont(int ply, int kind, int to, int bonus) {
  for (int back : {1, 2, 4}) {
    Frame* f = at(ply - back);
    if (f->cont) MoveStats::nudge(f->cont[stats_.piece_to(kind, to)], bonus, kContRange);
  }
}

void TwoSeatExpert::update_quiet_stats(int ply, Move best, int bonus, const Tried& quiets) {
  const int seat = line_.back().to_move;
  Frame* f = at(ply);
  if (f->killers[0] != best) {
    f->killers[1] = f->killers[0];
    f->killers[0] = best;
  }
  MoveStats::nudge(stats_.quiet(seat, best), bonus, kHistoryRange);
  update_cont(ply, moved_kind(line_.back(), best), best.to, bonus);
  for (Move q : quiets) {
    if (q == best) continue;
    MoveStats::nudge(stats_.quiet(seat, q), -bonus, kHistoryRange);
    update_cont(ply, moved_kind(line_.back(), q), q.to, -bonus);
  }
}

TwoSeatExpert::Result TwoSeatExpert::run(const MoveList& root, int max_depth) {
  Result out{root[0], 0, 0};
  for (int i = -4; i < 0; ++i) *at(i) = Frame{};
  int prev = 0;
  for (int depth = 1; depth <= max_depth && depth < kMaxPly - 8; ++depth) {
    int delta = kAspiration;
    int alpha = -kInf, beta = kInf;
    if (depth >= 4 && std::abs(prev) < kWinScore) {
      alpha = std::max(prev - delta, -kInf);
      beta = std::min(prev + delta, kInf);
    }
    int value = 0;
    for (;;) {
      root_best_ = Move{};
      value = search(Node::root, 0, alpha, beta, depth, false);
      if (b_.out) break;
      if (value <= alpha) {
        beta = (alpha + beta) / 2;
        alpha = std::max(value - delta, -kInf);
      } else if (value >= beta) {
        beta = std::min(value + delta, kInf);
      } else {
        break;
      }
      delta += delta / 2;
      if (delta > 3000) alpha = -kInf, beta = kInf;
    }
    if (b_.out) {
      // An iteration cut short still counts for the best move it proved
      // (the previous best is searched first).
      if (root_best_ != Move{} && depth > 1) out.move = root_best_, out.score = root_best_value_;
      break;
    }
    out = Result{root_best_ != Move{} ? root_best_ : out.move, value, depth};
    prev = value;
    if (std::abs(value) >= kWinScore) break;
  }
  return out;
}

// What one node of search() knows once it has read the table.
struct TwoSeatExpert::NodeState {
  int ply = 0, depth = 0;
  bool root = false, pv = false, cut = false;
  Move excluded{};
  std::uint64_t key = 0;
  ExpertEntry entry;
  bool hit = false, has_value = false;  // an entry, and one with a searched score
  int tt_value = 0;
  Move tt_move{};
  bool tt_pv = false;
  bool tt_capture = false;  // the table's move takes a piece here
  int us = 0;               // the seat to move
  bool improving = false;
  // The static evaluation (kNone in check), or the table's better guess.
  int eval = kNone;
};

void TwoSeatExpert::read_table(NodeState& n) {
  n.key = key_of(line_.back(), n.excluded);
  n.hit = copy_entry(tt_.probe(n.key), n.entry);
  n.has_value = n.hit && n.entry.depth > kEvalOnly;
  n.tt_value = n.has_value ? from_table(n.entry.value, n.ply) : 0;
  n.tt_move = n.hit ? n.entry.move : Move{};
  if (n.root && root_best_ != Move{}) n.tt_move = root_best_;
  n.tt_pv = n.pv || (n.hit && n.entry.pv);
  n.tt_capture = n.tt_move != Move{} && captured_kind(line_.back(), n.tt_move) >= 0;
  n.us = line_.back().to_move;
}

bool TwoSeatExpert::cut_before_moves(NodeState& n, int beta, int& value) {
  Frame* ss = at(n.ply);
  if (ss->in_check) {
    ss->eval = kNone;
    return false;
  }
  ss->eval = n.eval = n.hit && n.entry.eval != kNone ? n.entry.eval : static_eval();
  // The table's score is a better guess where its bound allows.
  if (n.has_value && cuts(n.entry, n.tt_value, n.eval + 1)) n.eval = n.tt_value;
  if (!n.hit) tt_.store(n.key, 0, ss->eval, Move{}, kEvalOnly, Bound::upper, n.tt_pv);
  const int before = at(n.ply - 2)->eval != kNone ? at(n.ply - 2)->eval : at(n.ply - 4)->eval;
  n.improving = before == kNone || ss->eval > before;
  if (n.pv || n.excluded != Move{} || std::abs(beta) >= kWinScore) return false;
  // Reverse futility: far enough beyond beta that a few plies will not
  // bring it back.
  if (n.depth < 8 && n.eval - kReverseFutility * (n.depth - n.improving) >= beta &&
      n.eval < kWinScore) {
    value = n.eval;
    return true;
  }
  // Null move: if passing still holds beta, a real move will too (shogi
  // has almost no zugzwang).
  if (at(n.ply - 1)->null || n.eval < beta || ss->eval < beta - 20 * n.depth + 120 || n.depth < 2)
    return false;
  const int r = 3 + n.depth / 3 + std::min((n.eval - beta) / kNullDivisor, 3);
  const std::size_t saved = floor_;
  play_null(n.ply);
  floor_ = line_.size();
  const int null_value = -search(Node::non_pv, n.ply + 1, -beta, -beta + 1, n.depth - r, !n.cut);
  take_back();
  floor_ = saved;
  if (b_.out) {
    value = 0;
    return true;
  }
  if (null_value < beta) return false;
  value = null_value >= kWinScore ? beta : null_value;
  return true;
}

bool TwoSeatExpert::pruned(const NodeState& n, Move m, bool tactical, int count, int alpha,
                           bool& skip_quiets, MovePicker& picker) {
  const State& s = line_.back();
  const int new_depth = n.depth - 1;
  const bool late = count >= move_count_limit(n.improving, n.depth);
  const int lmr_depth = std::max(new_depth - reduction(n.improving, n.depth, count), 0);
  if (tactical)
    return n.depth < 8 && !exchange_at_least(v_, s, m, -kCaptureExchange * n.depth) &&
           !gives_check(m);
  const int pt = stats_.piece_to(moved_kind(line_.back(), m), m.to);
  const bool hist_bad = lmr_depth < 4 && cont_at(n.ply - 1)[pt] < 0 && cont_at(n.ply - 2)[pt] < 0;
  const Frame* ss = at(n.ply);
  const bool futile = lmr_depth < 6 && !ss->in_check &&
                      ss->eval + kFutilityBase + kFutilityPerPly * lmr_depth <= alpha;
  const bool prunable = late || hist_bad || futile ||
                        !exchange_at_least(v_, s, m, -(kQuietExchange * lmr_depth * lmr_depth));
  if (!prunable || gives_check(m)) return false;
  if (late && !skip_quiets) {
    skip_quiets = true;
    picker.skip_quiets_but_checks(check_reach());
  }
  return true;
}

bool TwoSeatExpert::singular(const NodeState& n, Move m, int beta, int& extension, int& value) {
  const ExpertEntry& e = n.entry;
  if (n.root || n.depth < kSingularDepth || m != n.tt_move || n.excluded != Move{} ||
      !n.has_value || std::abs(n.tt_value) >= kWinScore || e.bound == Bound::upper ||
      e.depth < n.depth - 3)
    return false;
  const int singular_beta = n.tt_value - 2 * n.depth;
  Frame* ss = at(n.ply);
  ss->excluded = m;
  const int v =
      search(Node::non_pv, n.ply, singular_beta - 1, singular_beta, (n.depth - 1) / 2, n.cut);
  ss->excluded = Move{};
  if (b_.out) {
    value = 0;
    return true;
  }
  if (v < singular_beta) {
    extension = 1;
  } else if (singular_beta >= beta) {
    value = singular_beta;
    return true;
  }
  return false;
}

int TwoSeatExpert::late_reduction(const NodeState& n, Move m, int pt, bool tactical, int count,
                                  bool check) {
  Frame* ss = at(n.ply);
  int r = reduction(n.improving, n.depth, count);
  if (n.tt_pv) r -= 2;
  if (at(n.ply - 1)->move_count > 13) r -= 1;
  if (!tactical) {
    if (n.tt_capture) r += 1;
    if (n.cut) r += 2;
    ss->stat = stats_.quiet(n.us, m) + cont_at(n.ply - 1)[pt] + cont_at(n.ply - 2)[pt] +
               cont_at(n.ply - 4)[pt] - kStatOffset;
    r -= ss->stat / kStatPerPly;
  } else if (n.depth < 8 && count > 2) {
    r += 1;
  }
  if (check) r -= 1;
  return r;
}

void TwoSeatExpert::learn(const NodeState& n, Move best, int best_value, int beta,
                          const Tried& quiets, const Tried& captures) {
  const int us = n.us;
  const int bonus = stat_bonus(n.depth + (best_value > beta + 200));
  const State& s = line_.back();
  if (captured_kind(s, best) < 0 && !best.promote) {
    update_quiet_stats(n.ply, best, bonus, quiets);
  } else {
    const int k = moved_kind(s, best), c = captured_kind(s, best);
    MoveStats::nudge(stats_.capture(us, k, best.to, c >= 0 ? c : k), bonus, kCaptureRange);
  }
  for (Move q : captures) {
    if (q == best) continue;
    const int k = moved_kind(s, q), c = captured_kind(s, q);
    MoveStats::nudge(stats_.capture(us, k, q.to, c >= 0 ? c : k), -bonus, kCaptureRange);
  }
}

int TwoSeatExpert::search(Node node, int ply, int alpha, int beta, int depth, bool cut) {
  NodeState n;
  n.root = node == Node::root;
  n.pv = node != Node::non_pv;
  if (depth <= 0) return qsearch(n.pv, ply, alpha, beta, 0);
  int value = 0;
  if (!n.root) {
    if (terminal(ply, value)) return value;
    if (b_.exhausted() || ply >= kMaxPly) return static_eval();
    // Mate distance: no line from here beats a win at this ply.
    alpha = std::max(alpha, -kWin + ply);
    beta = std::min(beta, kWin - ply - 1);
    if (alpha >= beta) return alpha;
  }
  Frame* ss = at(ply);
  n.ply = ply;
  n.depth = depth;
  n.cut = cut;
  n.excluded = ss->excluded;
  read_table(n);
  if (!n.pv && n.has_value && n.entry.depth >= depth && cuts(n.entry, n.tt_value, beta))
    return n.tt_value;

  ss->in_check = in_check_now();
  ss->move_count = 0;
  (ss + 1)->excluded = Move{};
  (ss + 2)->killers = {};
  if (cut_before_moves(n, beta, value)) return value;
  // Without a table move, a deep node is searched a ply shallower.
  if (n.pv && n.depth >= 6 && n.tt_move == Move{}) n.depth -= 2;
  if (cut && n.depth >= 8 && n.tt_move == Move{}) n.depth -= 1;

  MovePicker picker(v_, line_, stats_, pool_, scratch_, n.tt_move, ss->killers,
                    {cont_at(ply - 1), cont_at(ply - 2), cont_at(ply - 4)});
  int best_value = -kInf;
  Move best_move{};
  Tried quiets_tried, captures_tried;
  bool skip_quiets = false;
  // The moves tried here so far. The frame keeps a copy for the nodes below
  // (ss->move_count): the singular test searches this same node, at this
  // ply, and rewrites the frame.
  int move_count = 0;
  Move m;
  while (picker.next(m)) {
    if (m == n.excluded) continue;
    const bool tactical = captured_kind(line_.back(), m) >= 0 || m.promote;
    if (skip_quiets && !tactical && picker.stage() != MovePicker::Stage::table && !gives_check(m))
      continue;
    const int count = ++move_count;
    // Pruning at shallow depth: never at the root, never once every move
    // so far lost.
    if (!n.root && best_value > -kWinScore &&
        pruned(n, m, tactical, count, alpha, skip_quiets, picker))
      continue;
    int extension = 0;
    if (singular(n, m, beta, extension, value)) return value;
    ss->move_count = count;
    const State& before = line_.back();
    const int pt = stats_.piece_to(moved_kind(before, m), m.to);
    play(ply, m);
    const bool check = line_.checked(line_.size() - 1);
    // A check that keeps the checking piece is searched a ply deeper.
    if (check && extension == 0 && exchange_at_least(v_, before, m, 0)) extension = 1;
    const int new_depth = n.depth - 1 + extension;
    // Before the move is searched: lists for the statistics.
    auto& tried = tactical ? captures_tried : quiets_tried;
    if (tried.size() < tried.capacity()) tried.push_back(m);
    bool full = false;
    if (n.depth >= 3 && count > 1 + 2 * n.root && (!tactical || cut || count > 6)) {
      const int r = late_reduction(n, m, pt, tactical, count, check);
      const int d = std::clamp(new_depth - r, 1, std::max(new_depth, 1));
      value = -search(Node::non_pv, ply + 1, -(alpha + 1), -alpha, d, true);
      full = value > alpha && d < new_depth;
    } else {
      ss->stat = 0;
      full = !n.pv || count > 1;
    }
    if (full) value = -search(Node::non_pv, ply + 1, -(alpha + 1), -alpha, new_depth, !cut);
    if (n.pv && (count == 1 || (value > alpha && (n.root || value < beta))))
      value = -search(Node::pv, ply + 1, -beta, -alpha, new_depth, false);
    take_back();
    if (b_.out) return 0;
    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = m;
        if (n.root) {
          root_best_ = m;
          root_best_value_ = value;
        }
        if (value >= beta) break;
        alpha = value;
      }
    }
  }
  if (!picker.any_legal()) return n.excluded != Move{} ? alpha : stuck_value(ply);
  if (move_count == 0) return n.excluded != Move{} ? alpha : (ss->in_check ? -kWin + ply : 0);
  if (best_move != Move{}) learn(n, best_move, best_value, beta, quiets_tried, captures_tried);
  if (n.excluded == Move{}) {
    const Bound bound = best_value >= beta            ? Bound::lower
                        : n.pv && best_move != Move{} ? Bound::exact
                                                      : Bound::upper;
    tt_.store(n.key, to_table(best_value, ply), ss->eval, best_move, n.depth, bound, n.tt_pv);
  }
  return best_value;
}

void TwoSeatExpert::score_quiescence_moves(int us, Move tt_move) {
  // The table move first; captures by the value taken (cheaper taker first)
  // and their history; the rest (evasions, checks) by history.
  const State& s = line_.back();
  for (Move m : scratch_) {
    const int captured = captured_kind(s, m);
    const int kind = moved_kind(s, m);
    int sc = 0;
    if (m == tt_move)
      sc = 1 << 30;
    else if (captured >= 0)
      sc = (1 << 20) + 64 * piece_value(v_, captured) - piece_value(v_, kind) / 16 +
           stats_.capture(us, kind, m.to, captured) / 16;
    else
      sc = stats_.quiet(us, m);
    pool_.push_back({m, sc, 0});
  }
}

int TwoSeatExpert::qsearch(bool pv, int ply, int alpha, int beta, int depth) {
  int score = 0;
  if (terminal(ply, score)) return score;
  if (b_.exhausted() || ply >= kMaxPly) return static_eval();
  Frame* ss = at(ply);
  const State& s0 = line_.back();
  const int us = s0.to_move;
  const bool checked = in_check_now();
  ss->in_check = checked;
  // A stuck seat at the horizon is judged only if in check (a mate); one
  // stuck without check is scored as if it could move.
  const std::uint64_t key = key_of(s0, Move{});
  ExpertEntry entry;
  const bool hit = copy_entry(tt_.probe(key), entry);
  const ExpertEntry* e = hit ? &entry : nullptr;
  const bool has_value = hit && entry.depth > kEvalOnly;
  const int tt_value = has_value ? from_table(entry.value, ply) : 0;
  // At the first ply of quiescence, quiet moves and drops that check are
  // searched too (a checking drop is how shogi mates).
  const bool with_checks = !checked && depth == 0;
  const int tt_depth = checked || with_checks ? 0 : -1;
  if (!pv && has_value && e->depth >= tt_depth && cuts(*e, tt_value, beta)) return tt_value;
  const int alpha0 = alpha;
  int best_value = -kInf, eval = kNone, futility_base = -kInf;
  if (!checked) {
    eval = e && e->eval != kNone ? e->eval : static_eval();
    best_value = eval;
    if (has_value && cuts(*e, tt_value, eval + 1)) best_value = tt_value;
    if (best_value >= beta) {
      if (!e)
        tt_.store(key, to_table(best_value, ply), eval, Move{}, kStandPat, Bound::lower, false);
      return best_value;
    }
    // A long run of captures ends here.
    if (depth <= -kQuietDepth) return best_value;
    if (best_value > alpha) alpha = best_value;
    futility_base = best_value + kQuiescenceFutility;
  }
  ss->eval = eval;
  const int royal = enemy_royal();
  if (checked)
    legal_moves(v_, line_, scratch_);
  else if (with_checks && royal >= 0)
    legal_moves(v_, line_, scratch_, MoveFilter::captures_and_checks, royal);
  else
    legal_moves(v_, line_, scratch_, MoveFilter::captures);
  if (checked && scratch_.empty()) return stuck_value(ply);
  auto& pool = pool_;
  const std::size_t base = pool.size();
  const Shrink shrink(pool);
  score_quiescence_moves(us, e ? e->move : Move{});
  const std::size_t end = pool.size();
  Move best_move{};
  for (std::size_t i = base; i < end; ++i) {
    std::size_t bi = i;
    for (std::size_t j = i + 1; j < end; ++j)
      if (pool[j].score > pool[bi].score) bi = j;
    std::swap(pool[i], pool[bi]);
    const Move m = pool[i].m;
    const int captured = captured_kind(line_.back(), m);
    if (!checked && best_value > -kWinScore) {
      // Futility: a capture that cannot bring the score back to alpha
      // (it gains about twice the piece: off the board and into the hand).
      // The quiet moves listed here check (captures_and_checks).
      const int gain = captured >= 0 ? 2 * piece_value(v_, captured) : 0;
      if (!m.promote && futility_base + gain <= alpha && captured >= 0 && !gives_check(m)) {
        best_value = std::max(best_value, futility_base + gain);
        continue;
      }
      if (!exchange_at_least(v_, s0, m, 0)) continue;
    }
    play(ply, m);
    const int value = -qsearch(pv, ply + 1, -beta, -alpha, depth - 1);
    take_back();
    if (b_.out) return 0;
    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = m;
        if (value >= beta) break;
        alpha = value;
      }
    }
  }
  const Bound bound = best_value >= beta          ? Bound::lower
                      : pv && best_value > alpha0 ? Bound::exact
                                                  : Bound::upper;
  tt_.store(key, to_table(best_value, ply), eval, best_move, tt_depth, bound, false);
  return best_value;
}

}  // namespace koma::detail
