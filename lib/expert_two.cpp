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

namespace koma::detail {
// ---------------------------------------------------------------- table

void ExpertTable::start() {
  if (slots_.empty()) slots_.resize(kSlots);
  ++search_;
}

const ExpertEntry* ExpertTable::probe(std::uint64_t key) const {
  const auto& slot = slots_[key & (kSlots - 1)];
  for (const ExpertEntry& e : slot)
    if (e.search == search_ && e.key == key) return &e;
  return nullptr;
}

void ExpertTable::store(std::uint64_t key, int value, int eval, Move move, int depth, Bound bound,
                        bool pv) {
  auto& slot = slots_[key & (kSlots - 1)];
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

TwoSeatExpert::TwoSeatExpert(const VariantData& v, Line& line, Budget& budget, ExpertTable& table,
                             MoveStats& stats)
    : v_(v),
      line_(line),
      b_(budget),
      tt_(table),
      stats_(stats),
      eval_(v, line.back().to_move),
      floor_(line.size() - 1),
      me_(line.back().to_move),
      reach_(static_cast<std::size_t>(v.nsq)),
      line_to_(static_cast<std::size_t>(v.nsq) * v.nsq, kNoLine) {
  for (int sq = 0; sq < v.nsq; ++sq) {
    SquareSet& r = reach_[static_cast<std::size_t>(sq)];
    const auto at = static_cast<std::size_t>(sq);
    for (auto i = v.leaps_near_at[at]; i < v.leaps_near_at[at + 1]; ++i) r.set(v.leaps_near[i].q);
    for (auto i = v.slides_near_at[at]; i < v.slides_near_at[at + 1]; ++i) {
      const std::uint8_t* walk = &v.rev[v.rev_at[at * v.nvec + v.slides_near[i]]];
      for (int k = 1; k <= walk[0]; ++k) {
        r.set(walk[k]);
        std::int16_t& line_to = line_to_[at * v.nsq + walk[k]];
        line_to = line_to == kNoLine ? v.slides_near[i] : kManyLines;
      }
    }
  }
}

const std::int16_t* TwoSeatExpert::cont_at(int ply) const {
  const std::int16_t* row = frames_[static_cast<std::size_t>(ply) + 4].cont;
  return row ? row : stats_.zero_row();
}

int TwoSeatExpert::static_eval() {
  const State& s = line_.back();
  const int e = eval_(s);
  return s.to_move == me_ ? e : -e;
}

bool TwoSeatExpert::terminal(int ply, int& score) {
  const State& s = line_.back();
  if (s.outcome == Outcome::finished) {
    // By place, from the seat to move's view, nearer wins and farther
    // losses preferred.
    score = finished_score(v_, s, s.to_move, ply);
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
  const int seat = line_.back().to_move;
  judge_stuck(v_, line_);
  return finished_score(v_, line_.back(), seat, ply);
}

bool TwoSeatExpert::repeats_in_search() const {
  const State& s = line_.back();
  const std::uint64_t key = s.board_key ^ s.hand_key;
  for (std::size_t i = floor_; i + 1 < line_.size(); ++i)
    if ((line_[i].board_key ^ line_[i].hand_key) == key) return true;
  return false;
}

int TwoSeatExpert::moved_kind(Move m) const {
  return m.is_drop() ? m.kind : kind_of(line_.back().cells[m.from].code);
}

int TwoSeatExpert::captured_kind(Move m) const {
  if (m.is_drop()) return -1;
  const Cell c = line_.back().cells[m.to];
  return is_piece(c.code) ? kind_of(c.code) : -1;
}

bool TwoSeatExpert::gives_check(Move m) {
  // Whether the move leaves the enemy royal attacked, that seat not in
  // check before (as after its own move): attacked by the moved piece from
  // its target, or by a slider whose line to the royal the move opens.
  const State& s = line_.back();
  const int us = s.to_move;
  const int k = s.royal[(us + 1) % v_.nseats];
  const int from = m.is_drop() ? -1 : m.from;
  const std::int16_t* lines = &line_to_[static_cast<std::size_t>(std::max(k, 0)) * v_.nsq];
  if (k < 0 || m.to == k || (from >= 0 && lines[from] == kManyLines))
    return played_checks(m);  // royals taken, or lines that cross
  const SquareSet& r = reach_[static_cast<std::size_t>(k)];
  if (!r.test(m.to) && (from < 0 || !r.test(from))) return false;
  std::uint8_t code = 0;
  if (m.is_drop()) {
    code = code_of(m.kind, v_.seat_facing[us]);
  } else {
    code = s.cells[from].code;
    if (m.promote) code = code_of(v_.flip_of(kind_of(code)), facing_of(code));
  }
  bool direct = false;
  const std::uint8_t* p = rays_of(v_, code, m.to);
  const int nrays = *p++;
  for (int i = 0; i < nrays && !direct; ++i) {
    const int len = *p++;
    for (int j = 0; j < len; ++j) {
      const int t = p[j];
      if (t == k) direct = true;
      if (t == k || (t != from && s.cells[t].code != kEmpty)) break;
    }
    p += len;
  }
  if (direct || from < 0) return direct;
  // The line from the royal through `from`: the first piece along it but
  // the one that left, unless the moved piece stands between again.
  const int vi = lines[from];
  if (vi < 0) return false;
  const std::uint8_t* walk = &v_.rev[v_.rev_at[static_cast<std::size_t>(k) * v_.nvec + vi]];
  const int len = *walk++;
  for (int step = 0; step < len; ++step) {
    const int q = walk[step];
    if (q == m.to) return false;
    const Cell c = s.cells[q];
    if (q == from || c.code == kEmpty) continue;
    return c.owner == us && v_.range[static_cast<std::size_t>(c.code) * v_.nvec + vi] > step;
  }
  return false;
}

const SquareSet* TwoSeatExpert::check_reach() const {
  const State& s = line_.back();
  const int k = s.royal[(s.to_move + 1) % v_.nseats];
  return k >= 0 ? &reach_[static_cast<std::size_t>(k)] : nullptr;
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

bool TwoSeatExpert::played_checks(Move m) {
  State& s = line_.back_in_place();
  Undo undo;
  if (!make_in_place(v_, s, m, undo)) return true;
  const bool check = in_check(v_, s, (s.to_move + 1) % v_.nseats);
  unmake_in_place(v_, s, m, undo);
  return check;
}

void TwoSeatExpert::play(int ply, Move m) {
  const int seat = line_.back().to_move;
  Frame* f = at(ply);
  f->move = m;
  f->null = false;
  f->cont = stats_.row(seat, moved_kind(m), m.to);
  play_move_unjudged(v_, line_, m);
  ++b_.nodes;
}

void TwoSeatExpert::play_null(int ply) {
  Frame* f = at(ply);
  f->move = Move{};
  f->null = true;
  f->cont = nullptr;
  State t = line_.back();
  set_to_move(v_, t, (t.to_move + 1) % v_.nseats);
  line_.push(t, -1, false);
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
  update_cont(ply, moved_kind(best), best.to, bonus);
  for (Move q : quiets) {
    if (q == best) continue;
    MoveStats::nudge(stats_.quiet(seat, q), -bonus, kHistoryRange);
    update_cont(ply, moved_kind(q), q.to, -bonus);
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

int TwoSeatExpert::search(Node node, int ply, int alpha, int beta, int depth, bool cut) {
  const bool root = node == Node::root;
  const bool pv = node != Node::non_pv;
  if (depth <= 0) return qsearch(pv, ply, alpha, beta, 0);
  Frame* ss = at(ply);
  int score = 0;
  if (!root) {
    if (terminal(ply, score)) return score;
    if (b_.exhausted() || ply >= kMaxPly) return static_eval();
    // Mate distance: no line from here beats a win at this ply.
    alpha = std::max(alpha, -kWin + ply);
    beta = std::min(beta, kWin - ply - 1);
    if (alpha >= beta) return alpha;
  }
  const State& s = line_.back();
  const int us = s.to_move;
  const Move excluded = ss->excluded;
  const std::uint64_t key = key_of(s, excluded);
  ExpertEntry entry;
  const bool hit = copy_entry(tt_.probe(key), entry);
  const ExpertEntry* e = hit ? &entry : nullptr;
  const bool has_value = hit && entry.depth > kEvalOnly;
  const int tt_value = has_value ? from_table(entry.value, ply) : 0;
  Move tt_move = e ? e->move : Move{};
  if (root && root_best_ != Move{}) tt_move = root_best_;
  const bool tt_pv = pv || (e && e->pv);
  if (!pv && has_value && e->depth >= depth && cuts(*e, tt_value, beta)) return tt_value;

  ss->in_check = in_check_now();
  ss->move_count = 0;
  (ss + 1)->excluded = Move{};
  (ss + 2)->killers = {};
  bool improving = false;
  int eval = kNone;
  if (ss->in_check) {
    ss->eval = kNone;
  } else {
    ss->eval = eval = e && e->eval != kNone ? e->eval : static_eval();
    // The table's score is a better guess where its bound allows.
    if (has_value && cuts(*e, tt_value, eval + 1)) eval = tt_value;
    if (!e) tt_.store(key, 0, ss->eval, Move{}, kEvalOnly, Bound::upper, tt_pv);
    const int before = at(ply - 2)->eval != kNone ? at(ply - 2)->eval : at(ply - 4)->eval;
    improving = before == kNone || ss->eval > before;
    const bool calm = !pv && excluded == Move{} && std::abs(beta) < kWinScore;
    // Reverse futility: far enough beyond beta that a few plies will not
    // bring it back.
    if (calm && depth < 8 && eval - kReverseFutility * (depth - improving) >= beta &&
        eval < kWinScore)
      return eval;
    // Null move: if passing still holds beta, a real move will too (shogi
    // has almost no zugzwang).
    if (calm && !at(ply - 1)->null && eval >= beta && ss->eval >= beta - 20 * depth + 120 &&
        depth >= 2) {
      const int r = 3 + depth / 3 + std::min((eval - beta) / kNullDivisor, 3);
      const std::size_t saved = floor_;
      play_null(ply);
      floor_ = line_.size();
      const int null_value = -search(Node::non_pv, ply + 1, -beta, -beta + 1, depth - r, !cut);
      take_back();
      floor_ = saved;
      if (b_.out) return 0;
      if (null_value >= beta) return null_value >= kWinScore ? beta : null_value;
    }
  }
  // Without a table move, a deep node is searched a ply shallower.
  if (pv && depth >= 6 && tt_move == Move{}) depth -= 2;
  if (cut && depth >= 8 && tt_move == Move{}) depth -= 1;

  MovePicker picker(v_, line_, stats_, pool_, scratch_, tt_move, ss->killers,
                    {cont_at(ply - 1), cont_at(ply - 2), cont_at(ply - 4)});
  const std::int16_t* c1 = cont_at(ply - 1);
  const std::int16_t* c2 = cont_at(ply - 2);
  const std::int16_t* c4 = cont_at(ply - 4);

  int best_value = -kInf;
  Move best_move{};
  Tried quiets_tried, captures_tried;
  bool skip_quiets = false;
  const bool tt_capture = tt_move != Move{} && captured_kind(tt_move) >= 0;
  Move m;
  while (picker.next(m)) {
    if (m == excluded) continue;
    const int captured = captured_kind(m);
    const bool tactical = captured >= 0 || m.promote;
    if (skip_quiets && !tactical && picker.stage() != MovePicker::Stage::table) {
      if (!gives_check(m)) continue;
    }
    ++ss->move_count;
    const int n = ss->move_count;
    const int kind = moved_kind(m);
    const int pt = stats_.piece_to(kind, m.to);
    int new_depth = depth - 1;
    // Pruning at shallow depth: never at the root, never once every move
    // so far lost.
    if (!root && best_value > -kWinScore) {
      const bool late = n >= move_count_limit(improving, depth);
      const int lmr_depth = std::max(new_depth - reduction(improving, depth, n), 0);
      if (!tactical) {
        const bool hist_bad = lmr_depth < 4 && c1[pt] < 0 && c2[pt] < 0;
        const bool futile = lmr_depth < 6 && !ss->in_check &&
                            ss->eval + kFutilityBase + kFutilityPerPly * lmr_depth <= alpha;
        const bool prunable =
            late || hist_bad || futile ||
            !exchange_at_least(v_, s, m, -(kQuietExchange * lmr_depth * lmr_depth));
        if (prunable && !gives_check(m)) {
          if (late && !skip_quiets) {
            skip_quiets = true;
            picker.skip_quiets_but_checks(check_reach());
          }
          continue;
        }
      } else if (depth < 8 && !exchange_at_least(v_, s, m, -kCaptureExchange * depth) &&
                 !gives_check(m)) {
        continue;
      }
    }
    // Singular extension: a table move much better than every other is
    // searched a ply deeper; if another holds beta too, the node is cut.
    int extension = 0;
    if (!root && depth >= kSingularDepth && m == tt_move && excluded == Move{} && has_value &&
        std::abs(tt_value) < kWinScore && e->bound != Bound::upper && e->depth >= depth - 3) {
      const int singular_beta = tt_value - 2 * depth;
      ss->excluded = m;
      const int value =
          search(Node::non_pv, ply, singular_beta - 1, singular_beta, (depth - 1) / 2, cut);
      ss->excluded = Move{};
      if (b_.out) return 0;
      if (value < singular_beta)
        extension = 1;
      else if (singular_beta >= beta)
        return singular_beta;
    }
    play(ply, m);
    const bool check = line_.checked(line_.size() - 1);
    if (check && extension == 0 && exchange_at_least(v_, s, m, 0)) extension = 1;
    new_depth += extension;
    // Before the move is searched: lists for the statistics.
    auto& tried = tactical ? captures_tried : quiets_tried;
    if (tried.size() < tried.capacity()) tried.push_back(m);
    int value = 0;
    bool full = false;
    if (depth >= 3 && n > 1 + 2 * root && (!tactical || cut || n > 6)) {
      int r = reduction(improving, depth, n);
      if (tt_pv) r -= 2;
      if (at(ply - 1)->move_count > 13) r -= 1;
      if (!tactical) {
        if (tt_capture) r += 1;
        if (cut) r += 2;
        ss->stat = stats_.quiet(us, m) + c1[pt] + c2[pt] + c4[pt] - kStatOffset;
        r -= ss->stat / kStatPerPly;
      } else if (depth < 8 && n > 2) {
        r += 1;
      }
      if (check) r -= 1;
      const int d = std::clamp(new_depth - r, 1, std::max(new_depth, 1));
      value = -search(Node::non_pv, ply + 1, -(alpha + 1), -alpha, d, true);
      full = value > alpha && d < new_depth;
    } else {
      ss->stat = 0;
      full = !pv || n > 1;
    }
    if (full) value = -search(Node::non_pv, ply + 1, -(alpha + 1), -alpha, new_depth, !cut);
    if (pv && (n == 1 || (value > alpha && (root || value < beta))))
      value = -search(Node::pv, ply + 1, -beta, -alpha, new_depth, false);
    take_back();
    if (b_.out) return 0;
    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = m;
        if (root) {
          root_best_ = m;
          root_best_value_ = value;
        }
        if (value >= beta) break;
        alpha = value;
      }
    }
  }
  if (!picker.any_legal()) return excluded != Move{} ? alpha : stuck_value(ply);
  if (ss->move_count == 0) return excluded != Move{} ? alpha : (ss->in_check ? -kWin + ply : 0);
  if (best_move != Move{}) {
    const int bonus = stat_bonus(depth + (best_value > beta + 200));
    if (captured_kind(best_move) < 0 && !best_move.promote) {
      update_quiet_stats(ply, best_move, bonus, quiets_tried);
    } else {
      const int k = moved_kind(best_move), c = captured_kind(best_move);
      MoveStats::nudge(stats_.capture(us, k, best_move.to, c >= 0 ? c : k), bonus, kCaptureRange);
    }
    for (Move q : captures_tried) {
      if (q == best_move) continue;
      const int k = moved_kind(q), c = captured_kind(q);
      MoveStats::nudge(stats_.capture(us, k, q.to, c >= 0 ? c : k), -bonus, kCaptureRange);
    }
  }
  if (excluded == Move{}) {
    const Bound bound = best_value >= beta          ? Bound::lower
                        : pv && best_move != Move{} ? Bound::exact
                                                    : Bound::upper;
    tt_.store(key, to_table(best_value, ply), ss->eval, best_move, depth, bound, tt_pv);
  }
  return best_value;
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
  const int tt_depth = checked ? 0 : -1;
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
  legal_moves(v_, line_, scratch_, checked ? MoveFilter::all : MoveFilter::captures);
  if (checked && scratch_.empty()) return stuck_value(ply);
  // Captures by the value taken (cheaper taker first) and their history;
  // evasions the same, then the rest by history.
  auto& pool = pool_;
  const std::size_t base = pool.size();
  const Shrink shrink(pool);
  const Move tt_move = e ? e->move : Move{};
  for (Move m : scratch_) {
    const int captured = captured_kind(m);
    const int kind = moved_kind(m);
    int sc = 0;
    if (m == tt_move)
      sc = 1 << 30;
    else if (captured >= 0)
      sc = (1 << 20) + 64 * piece_value(v_, captured) - piece_value(v_, kind) / 16 +
           stats_.capture(us, kind, m.to, captured) / 16;
    else
      sc = stats_.quiet(us, m);
    pool.push_back({m, sc, 0});
  }
  const std::size_t end = pool.size();
  Move best_move{};
  for (std::size_t i = base; i < end; ++i) {
    std::size_t bi = i;
    for (std::size_t j = i + 1; j < end; ++j)
      if (pool[j].score > pool[bi].score) bi = j;
    std::swap(pool[i], pool[bi]);
    const Move m = pool[i].m;
    const int captured = captured_kind(m);
    if (!checked && best_value > -kWinScore) {
      // Futility: a capture that cannot bring the score back to alpha
      // (it gains about twice the piece: off the board and into the hand).
      const int gain = captured >= 0 ? 2 * piece_value(v_, captured) : 0;
      if (!m.promote && futility_base + gain <= alpha && !gives_check(m)) {
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
