// CPU players: one function per level (docs/ai.md). Every level chooses
// among the legal moves of the game's line (so rules that need the past, like
// a forbidden repetition, hold), plays candidate moves through the full turn
// pipeline (eliminations, check priority, endings), and scores positions with
// evaluation.hpp; the deeper levels run the searches of search.hpp.
#include "koma/ai.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "access.hpp"
#include "expert_two.hpp"
#include "game_impl.hpp"
#include "koma/error.hpp"
#include "rules.hpp"
#include "search.hpp"
#include "search_many.hpp"
#include "search_two.hpp"

namespace koma {
namespace {

using detail::Budget;
using detail::kInf;
using detail::Line;
using detail::MoveList;
using detail::State;
using detail::VariantData;
using Clock = std::chrono::steady_clock;

// Every won or lost score lies beyond the public threshold.
static_assert(kWinScore == detail::kWin / 2);

// Did the move leave some other active seat in check?
bool checks_someone(const VariantData& v, const State& s, int mover) {
  for (int o = 0; o < v.nseats; ++o)
    if (o != mover && detail::in_check(v, s, o)) return true;
  return false;
}

// The value of the piece `m` moved if some enemy attacks it and nothing of
// `me` defends it: what the move leaves hanging.
int hanging(const VariantData& v, const State& t, int me, Move m) {
  if (t.outcome != detail::Outcome::ongoing || t.cells[m.to].owner != me ||
      !detail::is_piece(t.cells[m.to].code))
    return 0;
  if (!detail::attacked_by(v, t, m.to, v.attackers_of(t, me)) ||
      detail::attacked_by(v, t, m.to, 1u << me, m.to))
    return 0;
  return detail::piece_value(v, detail::kind_of(t.cells[m.to].code));
}

int noise(std::mt19937_64& rng, int amplitude) {
  if (amplitude <= 0) return 0;
  return static_cast<int>(rng() % static_cast<std::uint64_t>(2 * amplitude + 1)) - amplitude;
}

// What a level chooses from: the rules, the root's legal moves and state, the
// seat to move, a line to search on (a copy of the game's), the randomness
// and the budget.
struct Turn {
  const VariantData& v;
  const MoveList& root;
  const State& s;  // the root position
  int me;
  Line& line;
  std::mt19937_64& rng;
  Budget& budget;
  const Limits& limits;
};

// What a level chose: the move, its score from the mover's view and the
// depth completed.
struct Choice {
  Move move{};
  int score = -kInf;
  int depth = 0;
};

// Plays each root move, scores the position after it with `score_of` and
// keeps the best (the first of equals); stops early when the budget is out.
template <class F>
Choice pick_scored(Turn& t, F score_of) {
  std::vector<std::pair<int, std::size_t>> scored;
  for (std::size_t i = 0; i < t.root.size(); ++i) {
    scored.emplace_back(score_of(t.root[i]), i);
    if (t.budget.out && i > 0) break;
  }
  auto it = std::max_element(scored.begin(), scored.end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
  return Choice{t.root[it->second], it->first, 1};
}

// Easy, more seats: captures and forward moves; avoids repeating positions;
// no look-ahead.
Choice choose_easy(Turn& t) {
  return pick_scored(t, [&](Move m) {
    int sc = detail::captured_value(t.v, t.s, m) + noise(t.rng, 30);
    if (!m.is_drop()) {
      int facing = detail::facing_of(t.s.cells[m.from].code);
      int dx = m.to % t.v.width - m.from % t.v.width, dy = m.to / t.v.width - m.from / t.v.width;
      int forward = facing == 0 ? -dy : facing == 2 ? dy : facing == 1 ? dx : -dx;
      sc += 15 * forward + (m.promote ? 60 : 0);
    }
    detail::play_move(t.v, t.line, m);
    if (t.line.occurrences(t.line.back()) > 1) sc -= 1000;
    t.line.pop();
    ++t.budget.nodes;
    return sc;
  });
}

// Normal: material and protection, with occasional oversights: a moved piece
// left attacked and undefended counts as lost, unless it is overlooked.
Choice choose_normal(Turn& t) {
  return pick_scored(t, [&](Move m) {
    detail::play_move(t.v, t.line, m);
    const State& after = t.line.back();
    int sc = detail::evaluate(t.v, after, t.me) + noise(t.rng, 20);
    if (t.rng() % 100 >= 15) sc -= hanging(t.v, after, t.me, m);
    t.line.pop();
    ++t.budget.nodes;
    return sc;
  });
}

// The worst the seat that really moves next can do to `me` after `m` (just
// played) with its captures and checks; `worst` is the score before them.
int worst_reply(Turn& t, int worst) {
  const VariantData& v = t.v;
  Line& ln = t.line;
  const State& after = ln.back();
  if (after.outcome != detail::Outcome::ongoing || !v.enemies(t.me, after.to_move)) return worst;
  int replier = after.to_move;
  MoveList replies;
  detail::legal_moves(v, ln, replies);
  for (Move r : replies) {
    bool capture = detail::captured_value(v, ln.back(), r) > 0;
    detail::play_move(v, ln, r);
    ++t.budget.nodes;
    if (capture || checks_someone(v, ln.back(), replier)) {
      const State& u = ln.back();
      int sc = detail::evaluate(v, u, t.me);
      // A capturer left where this seat can take it back has traded, not
      // won: without this a defended piece counts as lost and the player
      // never advances.
      if (capture && u.outcome == detail::Outcome::ongoing && u.active(t.me) &&
          u.cells[r.to].owner == replier && detail::is_piece(u.cells[r.to].code) &&
          detail::attacked_by(v, u, r.to, 1u << t.me))
        sc += detail::piece_value(v, detail::kind_of(u.cells[r.to].code));
      worst = std::min(worst, sc);
    }
    ln.pop();
  }
  return worst;
}

// Strong, more seats: every move with all its consequences (eliminations,
// check priority) is scored, less a little for each time the game has
// already been in the position it makes (four seats shuffling would
// otherwise repeat until a draw); the most promising ones are then checked
// against the captures and checks of the seat that really moves next.
Choice choose_strong(Turn& t) {
  constexpr std::size_t kRefined = 12;
  constexpr int kRepeated = 50;
  std::vector<std::pair<int, Move>> cand;
  for (Move m : t.root) {
    detail::play_move(t.v, t.line, m);
    const State& after = t.line.back();
    int sc = detail::evaluate(t.v, after, t.me) - hanging(t.v, after, t.me, m) + noise(t.rng, 5);
    if (after.outcome == detail::Outcome::ongoing)
      sc -= kRepeated * (t.line.occurrences(after) - 1);
    cand.emplace_back(sc, m);
    t.line.pop();
  }
  std::stable_sort(cand.begin(), cand.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  Choice out{cand[0].second, cand[0].first, 2};
  int refined_best = -kInf;
  for (std::size_t i = 0; i < cand.size() && i < kRefined; ++i) {
    Move m = cand[i].second;
    detail::play_move(t.v, t.line, m);
    ++t.budget.nodes;
    int worst = worst_reply(t, cand[i].first);
    t.line.pop();
    if (worst > refined_best) {
      refined_best = worst;
      out.move = m;
      out.score = worst;
    }
    if (i > 0 && t.budget.exhausted()) break;
  }
  return out;
}

// One search of the fixed-depth levels to `depth` plies over the root moves
// in `ordered`. Root moves share one window (less the noise band `amp`), so
// later moves are cut as soon as they cannot beat the best one found.
Choice fixed_depth_search(Turn& t, detail::TwoSeatSearch& search, const MoveList& ordered,
                          int depth, int qdepth, int amp) {
  int alpha = -kInf;
  Choice out{ordered[0], -kInf, depth};
  for (Move m : ordered) {
    detail::play_move(t.v, t.line, m);
    int raw = search.alphabeta(depth - 1, alpha, kInf, 1, qdepth);
    t.line.pop();
    int sc = raw + noise(t.rng, amp);
    if (sc > out.score) {
      out.score = sc;
      out.move = m;
    }
    alpha = std::max(alpha, raw - 2 * amp);
    if (t.budget.out) break;
  }
  return out;
}

// Two seats, easy, medium and hard: easy searches one ply and captures, with
// much randomness; medium two plies and a short capture sequence at the
// horizon (without it a 2-ply search walks into every recapture and plays no
// better than easy); hard three plies and quiescence. Under a node or time
// limit they deepen from one ply to theirs, each search with the last one's
// best move first, and play the deepest one the limit let finish (the first
// counts cut short): a limit too small for the level's depth on a large
// board (chu shogi's 12x12) leaves a shallower but whole search, not a
// look at the first few moves.
Choice choose_fixed_depth(Turn& t, Level level) {
  int depth = t.limits.depth > 0       ? t.limits.depth
              : level == Level::easy   ? 1
              : level == Level::medium ? 2
                                       : 3;
  int qdepth = level == Level::medium ? 4 : 6;
  int amp = level == Level::easy ? 150 : level == Level::medium ? 15 : 0;
  if (level == Level::easy && t.rng() % 10 == 0)
    return Choice{t.root[t.rng() % t.root.size()], -kInf, 0};
  detail::TwoSeatSearch search(t.v, t.line, t.me, t.budget);
  MoveList ordered = t.root;
  detail::order(t.v, t.s, ordered);
  if (!t.budget.max_nodes && !t.budget.timed)
    return fixed_depth_search(t, search, ordered, depth, qdepth, amp);
  Choice out = fixed_depth_search(t, search, ordered, 1, qdepth, amp);
  for (int d = 2; d <= depth && !t.budget.out; ++d) {
    auto best = std::find(ordered.begin(), ordered.end(), out.move);
    std::rotate(ordered.begin(), best, best + 1);
    const Choice deeper = fixed_depth_search(t, search, ordered, d, qdepth, amp);
    if (t.budget.out) break;
    out = deeper;
  }
  return out;
}

// Expert, two seats: the search of expert_two.hpp, with the table and the
// move statistics the Player keeps (each choose() starts them afresh).
Choice choose_expert_two(Turn& t, detail::ExpertMemory& memory) {
  detail::TwoSeatExpert search(t.v, t.line, t.budget, memory);
  const auto r = search.run(t.root, t.limits.depth > 0 ? t.limits.depth : kMaxDepth);
  return Choice{r.move, r.score, r.depth};
}

// Expert, more seats: iterative deepening over Best-Reply Search, the
// previous best move first. An iteration cut by the budget counts only in
// the first iteration (for the moves it searched, in capture-first order).
Choice choose_expert_many(Turn& t) {
  detail::BestReplySearch search(t.v, t.line, t.me, t.budget);
  Choice out{t.root[0], -kInf, 0};
  int max_depth = t.limits.depth > 0 ? t.limits.depth : kMaxDepth;
  MoveList first_order = t.root;
  detail::order(t.v, t.s, first_order);
  for (int depth = 1; depth <= max_depth; ++depth) {
    Choice iteration{first_order[0], -kInf, depth};
    int alpha = -kInf;
    MoveList ordered = first_order;
    if (depth > 1) {
      auto it = std::find(ordered.begin(), ordered.end(), out.move);
      if (it != ordered.end()) std::rotate(ordered.begin(), it, it + 1);
    }
    bool complete = true;
    for (Move m : ordered) {
      detail::play_move(t.v, t.line, m);
      int sc = search.search(2 * depth - 1, alpha, kInf, 1);
      t.line.pop();
      if (t.budget.out && (depth > 1 || iteration.score > -kInf)) {
        complete = false;
        break;
      }
      if (sc > iteration.score) {
        iteration.score = sc;
        iteration.move = m;
        alpha = std::max(alpha, sc);
      }
    }
    if (!complete) {
      if (depth == 1) out = iteration;
      break;
    }
    out = iteration;
    if (t.budget.out || std::abs(out.score) >= kWinScore) break;
  }
  return out;
}

// The level a player plays at: a level of the other family maps to the
// nearest one (docs/ai.md).
Level effective_level(Level level, bool two) {
  if (two && level == Level::normal) return Level::medium;
  if (two && level == Level::strong) return Level::hard;
  if (!two && level == Level::medium) return Level::normal;
  if (!two && level == Level::hard) return Level::strong;
  return level;
}

}  // namespace

std::string_view level_name(Level level) {
  switch (level) {
    case Level::easy:
      return "easy";
    case Level::normal:
      return "normal";
    case Level::medium:
      return "medium";
    case Level::strong:
      return "strong";
    case Level::hard:
      return "hard";
    case Level::expert:
      return "expert";
  }
  return "?";
}

std::optional<Level> level_from_name(std::string_view name) {
  for (Level l :
       {Level::easy, Level::normal, Level::medium, Level::strong, Level::hard, Level::expert})
    if (level_name(l) == name) return l;
  return std::nullopt;
}

Player::Player(Level level, Limits limits) : level_(level), limits_(limits) {
  // Written so that NaN fails too.
  if (!(limits.seconds >= 0 && limits.seconds <= kMaxSeconds)) {
    std::array<char, 96> buf{};
    std::snprintf(buf.data(), buf.size(), "Limits::seconds must be from 0 to 1e6, not %g",
                  limits.seconds);
    throw Error(buf.data());
  }
  if (limits.depth < 0 || limits.depth > kMaxDepth)
    throw Error("Limits::depth must be from 0 to " + std::to_string(kMaxDepth) + ", not " +
                std::to_string(limits.depth));
}

SearchInfo Player::info() const {
  std::lock_guard lock(shared_->mutex);
  return shared_->info;
}

void Player::stop() {
  shared_->stop = true;
}

void Player::cancel_stop() {
  shared_->stop = false;
}

Move Player::choose(const Game& game) {
  auto t0 = Clock::now();
  // Every stop() made before this call returns is its own (ai.hpp): consumed
  // as it ends, whichever way. The flag is not cleared as the call starts, so
  // that a stop() made just before is not lost.
  struct Consume {
    std::atomic<bool>& stop;
    ~Consume() { stop = false; }
  } consume{shared_->stop};
  const VariantData& v = detail::Access::data(game.variant());
  if (game.over()) throw IllegalMove("the game is over");
  Line line = detail::Access::impl(game).line;
  // The search plays by koma's rules even when the game follows an outside
  // referee: a repetition is still a draw worth avoiding or seeking.
  line.referee_outside = false;
  MoveList root;
  detail::legal_moves(v, line, root);
  if (root.empty()) throw IllegalMove("the seat to move has no legal move");
  const State& s = line.back();
  std::mt19937_64 rng(limits_.seed * 0x9E3779B97F4A7C15ull + (s.board_key ^ s.hand_key) + games_++);
  SearchInfo out;
  if (shared_->stop) {  // a stop() made before this call: no search
    out.move = root[0];
    out.stopped = true;
    out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::lock_guard lock(shared_->mutex);
    shared_->info = out;
    return out.move;
  }
  Budget budget;
  budget.max_nodes = limits_.nodes;
  budget.stop = &shared_->stop;
  double secs = limits_.seconds;
  if (secs <= 0 && level_ == Level::expert && !limits_.nodes && !limits_.depth) secs = 2.0;
  if (secs > 0) {
    budget.timed = true;
    budget.deadline = t0 + std::chrono::microseconds(static_cast<long>(secs * 1e6));
  }
  // The levels search on a copy of the line: `s` stays the root.
  Line work = line;
  work.reserve(work.size() + 512);
  Turn turn{v, root, s, s.to_move, work, rng, budget, limits_};
  const bool two = v.nseats == 2;
  const Level level = effective_level(level_, two);
  Choice c;
  if (level == Level::expert && two) {
    if (!expert_) expert_ = std::make_shared<detail::ExpertMemory>();
    c = choose_expert_two(turn, *expert_);
  } else if (level == Level::expert) {
    c = choose_expert_many(turn);
  } else if (two) {
    c = choose_fixed_depth(turn, level);
  } else if (level == Level::easy) {
    c = choose_easy(turn);
  } else if (level == Level::normal) {
    c = choose_normal(turn);
  } else {
    c = choose_strong(turn);
  }
  out.move = c.move;
  out.depth = c.depth;
  out.nodes = budget.nodes;
  out.score = c.score;
  out.stopped = shared_->stop;
  out.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::lock_guard lock(shared_->mutex);
  shared_->info = out;
  return c.move;
}

}  // namespace koma
