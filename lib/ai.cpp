// CPU players. Every level chooses among the legal moves of the game's line
// (so rules that need the past, like a forbidden repetition, hold), plays
// candidate moves through the full turn pipeline (eliminations, check
// priority, endings), and scores positions with evaluation.hpp.
#include "koma/ai.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "access.hpp"
#include "evaluation.hpp"
#include "game_impl.hpp"
#include "koma/error.hpp"
#include "line.hpp"
#include "notation.hpp"
#include "state_ops.hpp"

namespace koma {
namespace {

using detail::Line;
using detail::MoveList;
using detail::State;
using detail::VariantData;
using Clock = std::chrono::steady_clock;

constexpr int kInf = 2 * detail::kWin;
// Every won or lost score lies beyond the public threshold.
static_assert(kWinScore == detail::kWin / 2);

struct Budget {
  std::uint64_t max_nodes = 0;
  Clock::time_point deadline{};
  bool timed = false;
  const std::atomic<bool>* stop = nullptr;
  std::uint64_t nodes = 0;
  bool out = false;
  bool exhausted() {
    if (out) return true;
    if (max_nodes && nodes >= max_nodes) out = true;
    if (timed && (nodes & 255) == 0 && Clock::now() >= deadline) out = true;
    if (stop && stop->load(std::memory_order_relaxed)) out = true;
    return out;
  }
};

int captured_value(const VariantData& v, const State& s, Move m) {
  if (m.is_drop()) return 0;
  detail::Cell c = s.cells[m.to];
  return detail::is_piece(c.code) ? detail::piece_value(v, detail::kind_of(c.code)) : 0;
}

// What the search learns about quiet moves as it goes: per ply two "killers"
// (quiet moves that refuted a sibling) and a history score per from-to pair.
struct MoveHints {
  std::array<std::array<Move, 2>, 128> killers{};
  std::vector<std::uint32_t> history = std::vector<std::uint32_t>(std::size_t{256} * 256, 0);
  void refuted_by(Move m, int ply, int depth) {
    if (ply < 0 || ply >= static_cast<int>(killers.size())) return;
    auto& k = killers[static_cast<std::size_t>(ply)];
    if (k[0] != m) {
      k[1] = k[0];
      k[0] = m;
    }
    std::uint32_t& h = history[m.from * 256u + m.to];
    h = std::min<std::uint32_t>(h + static_cast<std::uint32_t>(depth * depth), 1u << 18);
  }
};

// Best first: `first` (a transposition-table or previous-iteration move),
// captures by victim value (the cheaper attacker first), promotions, killers,
// then quiet moves by history; ties keep the generator's order. Each key is
// computed once and packed with the move's index, so the sort compares
// integers only.
void order(const VariantData& v, const State& s, MoveList& moves, Move first = Move{},
           const MoveHints* hints = nullptr, int ply = -1) {
  thread_local std::vector<std::uint64_t> keyed;
  thread_local std::vector<Move> copy;
  keyed.clear();
  const std::array<Move, 2>* killers =
      hints && ply >= 0 && ply < static_cast<int>(hints->killers.size())
          ? &hints->killers[static_cast<std::size_t>(ply)]
          : nullptr;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    std::uint64_t key = 0;
    if (m == first) {
      key = 1u << 30;
    } else if (int victim = captured_value(v, s, m); victim > 0) {
      int attacker = detail::piece_value(v, detail::kind_of(s.cells[m.from].code));
      key = (1u << 28) + static_cast<std::uint64_t>(victim) * 64 - attacker / 16;
    } else if (m.promote) {
      key = 1u << 27;
    } else if (killers && ((*killers)[0] == m || (*killers)[1] == m)) {
      key = (1u << 26) + ((*killers)[0] == m);
    } else if (hints) {
      key = hints->history[m.from * 256u + m.to];
    }
    keyed.push_back(key << 16 | (0xFFFFu - i));
  }
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  copy.assign(moves.begin(), moves.end());
  for (std::size_t i = 0; i < keyed.size(); ++i) moves[i] = copy[0xFFFFu - (keyed[i] & 0xFFFFu)];
}

// Did the move leave some other active seat in check?
bool checks_someone(const VariantData& v, const State& s, int mover) {
  for (int o = 0; o < v.nseats; ++o)
    if (o != mover && detail::in_check(v, s, o)) return true;
  return false;
}

// One child's value into a minimax node: the side to move keeps its best
// and narrows its bound of the window.
inline void improve(bool maxing, int val, int& best, int& alpha, int& beta) {
  if (maxing) {
    best = std::max(best, val);
    alpha = std::max(alpha, val);
  } else {
    best = std::min(best, val);
    beta = std::min(beta, val);
  }
}

}  // namespace

namespace detail {

struct TTEntry {
  std::uint64_t key = 0;
  int depth = -1;
  int score = 0;
  std::uint8_t flag = 0;  // 0 exact, 1 lower bound, 2 upper bound
  Move best{};
  std::uint32_t search = 0;  // the search that wrote it
};

// The two-player expert's transposition table, kept by its Player from one
// choose() to the next: allocating and clearing 6 MiB cost each move up to
// milliseconds (page faults). An entry of an earlier search reads as empty,
// so every search sees a fresh table and stays deterministic.
struct SearchTable {
  std::vector<TTEntry> entries;
  std::uint32_t search = 0;
  void start() {
    if (entries.empty()) entries.resize(1u << 18);
    ++search;
  }
  TTEntry& at(std::uint64_t key) {
    TTEntry& e = entries[key & (entries.size() - 1)];
    if (e.search != search) e = TTEntry{0, -1, 0, 0, Move{}, search};
    return e;
  }
};

}  // namespace detail

namespace {

class Searcher {
 public:
  Searcher(const VariantData& v, Line line, int me, Budget& budget)
      : v_(v), line_(std::move(line)), me_(me), b_(budget) {
    line_.reserve(line_.size() + 512);
  }

  // --- two seats: minimax with alpha-beta from me_'s view -----------------
  // Captures only, until quiet. `prune` (expert) skips captures that lose
  // material at once: a dearer piece taking a defended cheaper one.
  int quiesce(int alpha, int beta, int depth, bool prune) {
    ++b_.nodes;
    const State& s = line_.back();
    int stand = detail::evaluate(v_, s, me_);
    if (s.outcome == detail::Outcome::finished || depth == 0 || b_.exhausted()) return stand;
    bool maxing = !v_.enemies(me_, s.to_move);
    if (maxing) {
      if (stand >= beta) return stand;
      alpha = std::max(alpha, stand);
    } else {
      if (stand <= alpha) return stand;
      beta = std::min(beta, stand);
    }
    MoveList moves;
    detail::legal_moves(v_, line_, moves);
    if (moves.empty()) return stand;
    std::size_t captures = 0;
    const unsigned defenders = v_.attackers_of(s, s.to_move);
    for (Move m : moves) {
      int victim = captured_value(v_, s, m);
      if (victim == 0) continue;
      if (prune && detail::piece_value(v_, detail::kind_of(s.cells[m.from].code)) > victim &&
          detail::attacked_by(v_, s, m.to, defenders))
        continue;
      moves[captures++] = m;
    }
    moves.resize(captures);
    order(v_, s, moves);
    int best = stand;
    for (Move m : moves) {
      detail::play_move(v_, line_, m);
      int val = quiesce(alpha, beta, depth - 1, prune);
      line_.pop();
      improve(maxing, val, best, alpha, beta);
      if (alpha >= beta) break;
    }
    return best;
  }

  // Minimax from me_'s view. With a table (expert) it also prunes: null
  // move, principal-variation null windows and late-move reductions; without
  // (hard) it is the plain fixed-depth search the rule page describes.
  int alphabeta(int depth, int alpha, int beta, int ply, int qdepth, detail::SearchTable* tt,
                bool null_ok = true) {
    ++b_.nodes;
    const State& s = line_.back();
    if (s.outcome == detail::Outcome::finished) {
      int e = detail::evaluate(v_, s, me_);
      return e > 0 ? e - ply : e < 0 ? e + ply : 0;  // prefer quick wins, slow losses
    }
    if (depth <= 0)
      return qdepth > 0 ? quiesce(alpha, beta, qdepth, tt != nullptr)
                        : detail::evaluate(v_, s, me_);
    if (b_.exhausted()) return detail::evaluate(v_, s, me_);
    std::uint64_t key = s.board_key ^ s.hand_key;
    detail::TTEntry* e = tt ? &tt->at(key) : nullptr;
    Move hint{};
    if (e && e->key == key) {
      hint = e->best;
      if (e->depth >= depth) {
        if (e->flag == 0) return e->score;
        if (e->flag == 1 && e->score >= beta) return e->score;
        if (e->flag == 2 && e->score <= alpha) return e->score;
      }
    }
    const bool maxing = !v_.enemies(me_, s.to_move);
    const bool prune = tt != nullptr;
    const bool checked = prune && detail::in_check(v_, s, s.to_move);
    // Null move: if passing still holds the bound, a real move will too
    // (shogi has almost no zugzwang). Never twice in a row, never in check.
    if (prune && null_ok && !checked && depth >= 3 && std::abs(beta) < kWinScore &&
        std::abs(alpha) < kWinScore) {
      int stand = detail::evaluate(v_, s, me_);
      if (maxing ? stand >= beta : stand <= alpha) {
        State t = s;
        detail::set_to_move(v_, t, (s.to_move + 1) % v_.nseats);
        line_.push(t, -1, false);
        int r = depth >= 6 ? 3 : 2;
        int val = maxing ? alphabeta(depth - 1 - r, beta - 1, beta, ply + 1, qdepth, tt, false)
                         : alphabeta(depth - 1 - r, alpha, alpha + 1, ply + 1, qdepth, tt, false);
        line_.pop();
        if (!b_.out && (maxing ? val >= beta : val <= alpha)) return maxing ? beta : alpha;
      }
    }
    MoveList moves;
    detail::legal_moves(v_, line_, moves);
    if (moves.empty()) return detail::evaluate(v_, s, me_);
    order(v_, s, moves, hint, &hints_, ply);
    const auto& killers = hints_.killers[static_cast<std::size_t>(std::min(ply, 127))];
    int a0 = alpha, b0 = beta;
    int best = maxing ? -kInf : kInf;
    Move best_move = moves[0];
    for (std::size_t i = 0; i < moves.size(); ++i) {
      Move m = moves[i];
      bool quiet = captured_value(v_, s, m) == 0 && !m.promote;
      detail::play_move(v_, line_, m);
      auto search = [&](int d, int lo, int hi) {
        return alphabeta(d, lo, hi, ply + 1, qdepth, tt);
      };
      int val;
      if (!prune || i == 0) {
        val = search(depth - 1, alpha, beta);
      } else {
        // Later moves are expected to fail: a null window proves it cheaply,
        // at reduced depth for late quiet moves; a surprise is searched again.
        bool gives_check = line_.checked(line_.size() - 1);
        int r = depth >= 3 && i >= 3 && quiet && !checked && !gives_check && m != killers[0] &&
                        m != killers[1]
                    ? (i >= 12 && depth >= 5 ? 2 : 1)
                    : 0;
        int lo = maxing ? alpha : beta - 1, hi = lo + 1;
        val = search(depth - 1 - r, lo, hi);
        bool beats = maxing ? val > alpha : val < beta;
        if (beats && r > 0) {
          val = search(depth - 1, lo, hi);
          beats = maxing ? val > alpha : val < beta;
        }
        if (beats && alpha + 1 < beta) val = search(depth - 1, alpha, beta);
      }
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
      e->flag = best <= a0 ? 2 : best >= b0 ? 1 : 0;
    }
    return best;
  }

  // --- more seats: Best-Reply Search (Schadd & Winands 2011) ---------------
  // Max layers are me_'s moves; a min layer lets every opponent reply and
  // keeps the single strongest reply. A seat that must answer a check moves
  // for real (check priority), so then only its replies are considered.
  int brs(int depth, int alpha, int beta, int ply) {
    ++b_.nodes;
    const State s = line_.back();  // a copy: the line grows below
    if (s.outcome == detail::Outcome::finished) {
      int e = detail::evaluate(v_, s, me_);
      return e > 0 ? e - ply : e < 0 ? e + ply : e;
    }
    if (depth <= 0 || b_.exhausted()) return detail::evaluate(v_, s, me_);
    bool maxing = !v_.enemies(me_, s.to_move);
    std::vector<int> movers;
    if (maxing || detail::in_check(v_, s, s.to_move)) {
      movers.push_back(s.to_move);
    } else {
      for (int o = 0; o < v_.nseats; ++o)
        if (s.active(o) && v_.enemies(me_, o)) movers.push_back(o);
    }
    int best = maxing ? -kInf : kInf;
    bool any = false;
    for (int seat : movers) {
      bool virtual_turn = seat != s.to_move;
      if (virtual_turn) {
        State t = s;
        detail::set_to_move(v_, t, seat);
        line_.push(t, -1, false);
      }
      MoveList moves;
      detail::legal_moves(v_, line_, moves);
      order(v_, line_.back(), moves);
      for (Move m : moves) {
        any = true;
        detail::play_move(v_, line_, m);
        int val = brs(depth - 1, alpha, beta, ply + 1);
        line_.pop();
        improve(maxing, val, best, alpha, beta);
        if (alpha >= beta || b_.out) break;
      }
      if (virtual_turn) line_.pop();
      if (alpha >= beta || b_.out) break;
    }
    return any ? best : detail::evaluate(v_, s, me_);
  }

  Line& line() { return line_; }

 private:
  const VariantData& v_;
  Line line_;
  int me_;
  Budget& b_;
  MoveHints hints_;
};

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
  if (limits.depth < 0)
    throw Error("Limits::depth must not be negative, not " + std::to_string(limits.depth));
}

Move Player::choose(const Game& game) {
  auto t0 = Clock::now();
  *stop_ = false;
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
  int me = s.to_move;
  std::mt19937_64 rng(limits_.seed * 0x9E3779B97F4A7C15ull + (s.board_key ^ s.hand_key) + games_++);
  Budget budget;
  budget.max_nodes = limits_.nodes;
  budget.stop = stop_.get();
  double secs = limits_.seconds;
  if (secs <= 0 && level_ == Level::expert && !limits_.nodes && !limits_.depth) secs = 2.0;
  if (secs > 0) {
    budget.timed = true;
    budget.deadline = t0 + std::chrono::microseconds(static_cast<long>(secs * 1e6));
  }
  Searcher search(v, line, me, budget);
  bool two = v.nseats == 2;
  Move best = root[0];
  int best_score = -kInf;
  int depth_done = 0;

  auto pick_scored = [&](auto score_of) {
    std::vector<std::pair<int, std::size_t>> scored;
    for (std::size_t i = 0; i < root.size(); ++i) {
      scored.emplace_back(score_of(root[i]), i);
      if (budget.out && i > 0) break;
    }
    auto it = std::max_element(scored.begin(), scored.end(),
                               [](const auto& a, const auto& b) { return a.first < b.first; });
    best = root[it->second];
    best_score = it->first;
    depth_done = 1;
  };

  Level lv = level_;
  if (two && lv == Level::normal) lv = Level::medium;
  if (two && lv == Level::strong) lv = Level::hard;
  if (!two && lv == Level::medium) lv = Level::normal;
  if (!two && lv == Level::hard) lv = Level::strong;

  if (lv == Level::easy && !two) {
    // Captures and forward moves; avoids repeating positions; no look-ahead.
    pick_scored([&](Move m) {
      int sc = captured_value(v, s, m) + noise(rng, 30);
      if (!m.is_drop()) {
        int facing = detail::facing_of(s.cells[m.from].code);
        int dx = m.to % v.width - m.from % v.width, dy = m.to / v.width - m.from / v.width;
        int forward = facing == 0 ? -dy : facing == 2 ? dy : facing == 1 ? dx : -dx;
        sc += 15 * forward + (m.promote ? 60 : 0);
      }
      detail::play_move(v, search.line(), m);
      if (search.line().occurrences(search.line().back()) > 1) sc -= 1000;
      search.line().pop();
      ++budget.nodes;
      return sc;
    });
  } else if (lv == Level::normal) {
    // Material and protection, with occasional oversights: a moved piece left
    // attacked and undefended counts as lost, unless it is overlooked.
    pick_scored([&](Move m) {
      detail::play_move(v, search.line(), m);
      const State& t = search.line().back();
      int sc = detail::evaluate(v, t, me) + noise(rng, 20);
      if (rng() % 100 >= 15) sc -= hanging(v, t, me, m);
      search.line().pop();
      ++budget.nodes;
      return sc;
    });
  } else if (lv == Level::strong) {
    // Every move with all its consequences (eliminations, check priority) is
    // scored; the most promising ones are then checked against the captures
    // and checks of the seat that really moves next.
    Line& ln = search.line();
    std::vector<std::pair<int, Move>> cand;
    for (Move m : root) {
      detail::play_move(v, ln, m);
      cand.emplace_back(
          detail::evaluate(v, ln.back(), me) - hanging(v, ln.back(), me, m) + noise(rng, 5), m);
      ln.pop();
    }
    std::stable_sort(cand.begin(), cand.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    best = cand[0].second;
    best_score = cand[0].first;
    int refined_best = -kInf;
    for (std::size_t i = 0; i < cand.size() && i < 12; ++i) {
      Move m = cand[i].second;
      detail::play_move(v, ln, m);
      const State& t = ln.back();
      int worst = cand[i].first;
      ++budget.nodes;
      if (t.outcome == detail::Outcome::ongoing && v.enemies(me, t.to_move)) {
        int replier = t.to_move;
        MoveList replies;
        detail::legal_moves(v, ln, replies);
        for (Move r : replies) {
          bool capture = captured_value(v, ln.back(), r) > 0;
          detail::play_move(v, ln, r);
          ++budget.nodes;
          if (capture || checks_someone(v, ln.back(), replier)) {
            const State& u = ln.back();
            int sc = detail::evaluate(v, u, me);
            // A capturer left where this seat can take it back has traded,
            // not won: without this a defended piece counts as lost and the
            // player never advances.
            if (capture && u.outcome == detail::Outcome::ongoing && u.active(me) &&
                u.cells[r.to].owner == replier && detail::is_piece(u.cells[r.to].code) &&
                detail::attacked_by(v, u, r.to, 1u << me))
              sc += detail::piece_value(v, detail::kind_of(u.cells[r.to].code));
            worst = std::min(worst, sc);
          }
          ln.pop();
        }
      }
      ln.pop();
      if (worst > refined_best) {
        refined_best = worst;
        best = m;
        best_score = worst;
      }
      if (i > 0 && budget.exhausted()) break;
    }
    depth_done = 2;
  } else if (two && (lv == Level::easy || lv == Level::medium || lv == Level::hard)) {
    // easy: one ply and captures, much randomness; medium: two plies and a
    // short capture sequence at the horizon (without it a 2-ply search walks
    // into every recapture and plays no better than easy); hard: three plies
    // and quiescence.
    int depth = limits_.depth > 0     ? limits_.depth
                : lv == Level::easy   ? 1
                : lv == Level::medium ? 2
                                      : 3;
    int qdepth = lv == Level::medium ? 4 : 6;
    int amp = lv == Level::easy ? 150 : lv == Level::medium ? 15 : 0;
    if (lv == Level::easy && rng() % 10 == 0) {
      best = root[rng() % root.size()];
      depth_done = 0;
    } else {
      // Root moves share one window (less the noise band), so later moves
      // are cut as soon as they cannot beat the best one found.
      MoveList ordered = root;
      order(v, s, ordered);
      int alpha = -kInf;
      best_score = -kInf;
      for (Move m : ordered) {
        detail::play_move(v, search.line(), m);
        int raw = search.alphabeta(depth - 1, alpha, kInf, 1, qdepth, nullptr);
        search.line().pop();
        int sc = raw + noise(rng, amp);
        if (sc > best_score) {
          best_score = sc;
          best = m;
        }
        alpha = std::max(alpha, raw - 2 * amp);
        if (budget.out) break;
      }
      depth_done = depth;
    }
  } else {
    // expert: iterative deepening; alpha-beta with a transposition table for
    // two seats, Best-Reply Search for more.
    if (two) {
      if (!table_) table_ = std::make_shared<detail::SearchTable>();
      table_->start();
    }
    detail::SearchTable* tt = two ? table_.get() : nullptr;
    int max_depth = limits_.depth > 0 ? limits_.depth : 64;
    for (int depth = 1; depth <= max_depth; ++depth) {
      Move iter_best = root[0];
      int iter_score = -kInf;
      int alpha = -kInf;
      bool complete = true;
      MoveList ordered = root;
      if (depth > 1) {
        auto it = std::find(ordered.begin(), ordered.end(), best);
        if (it != ordered.end()) std::rotate(ordered.begin(), it, it + 1);
      }
      for (Move m : ordered) {
        detail::play_move(v, search.line(), m);
        int sc = two ? search.alphabeta(depth - 1, alpha, kInf, 1, 6, tt)
                     : search.brs(2 * depth - 1, alpha, kInf, 1);
        search.line().pop();
        if (budget.out && depth > 1) {
          complete = false;
          break;
        }
        if (sc > iter_score) {
          iter_score = sc;
          iter_best = m;
          alpha = std::max(alpha, sc);
        }
      }
      if (!complete) break;
      best = iter_best;
      best_score = iter_score;
      depth_done = depth;
      if (budget.out || std::abs(best_score) >= kWinScore) break;
    }
  }
  info_.move = best;
  info_.depth = depth_done;
  info_.nodes = budget.nodes;
  info_.score = best_score;
  info_.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return best;
}

}  // namespace koma
