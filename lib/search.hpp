// Internal: the searches the CPU levels of ai.cpp run. Every search plays
// candidate moves through the full turn pipeline of a Line (eliminations,
// check priority, endings), so it plays by the variant's rules, and scores
// positions with evaluation.hpp from one seat's view.
//   search.cpp       what the searches share: node budget, move ordering
//   search_two.cpp   two seats, fixed depth (easy, medium, hard)
//   expert_two.cpp   two seats, the expert (expert_two.hpp)
//   search_many.cpp  more seats: Best-Reply Search
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <vector>

#include "evaluation.hpp"
#include "line.hpp"
#include "state_ops.hpp"

namespace koma::detail {

// Beyond every score, won or lost.
inline constexpr int kInf = 2 * kWin;

// How far a search may go: nodes, a deadline, a stop flag set from another
// thread. `out` latches once any is reached.
struct Budget {
  using Clock = std::chrono::steady_clock;
  std::uint64_t max_nodes = 0;  // 0: no limit
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

// The value of the piece `m` captures (0 for a drop or a quiet move).
inline int captured_value(const VariantData& v, const State& s, Move m) {
  if (m.is_drop()) return 0;
  Cell c = s.cells[m.to];
  return is_piece(c.code) ? piece_value(v, kind_of(c.code)) : 0;
}

// A capture that loses material at once: a dearer piece taking a cheaper
// one that a seat of `defenders` (a mask) protects. Quiescence skips them.
inline bool loses_at_once(const VariantData& v, const State& s, Move m, unsigned defenders) {
  return piece_value(v, kind_of(s.cells[m.from].code)) > captured_value(v, s, m) &&
         attacked_by(v, s, m.to, defenders);
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

// What the search learns about quiet moves as it goes: per ply two "killers"
// (quiet moves that refuted a sibling) and a history score per from-to pair.
struct MoveHints {
  static constexpr int kPlies = 128;
  std::array<std::array<Move, 2>, kPlies> killers{};
  // By from-to pair, a drop by kind and target (a drop of a silver and one
  // of a pawn on one square are different ideas).
  std::vector<std::uint32_t> history = std::vector<std::uint32_t>(std::size_t{512} * 256, 0);
  static std::size_t history_index(Move m) {
    return (m.is_drop() ? 256u + m.kind : m.from) * 256u + m.to;
  }
  void refuted_by(Move m, int ply, int depth);
  // The killers of `ply` (of the deepest kept ply beyond it).
  const std::array<Move, 2>& killers_at(int ply) const {
    return killers[static_cast<std::size_t>(std::min(ply, kPlies - 1))];
  }
};

// Best first: `first` (a transposition-table or previous-iteration move),
// captures by victim value (the cheaper attacker first), promotions, killers,
// then quiet moves by history; ties keep the generator's order.
void order(const VariantData& v, const State& s, MoveList& moves, Move first = Move{},
           const MoveHints* hints = nullptr, int ply = -1);
// The key `order` sorts by, higher first (a move of any seat of `s`).
std::uint64_t order_key(const VariantData& v, const State& s, Move m, Move first,
                        const MoveHints* hints, int ply);

// What a table entry's score is: the exact value, or a bound of it (the
// search failed high or low).
enum class Bound : std::uint8_t { exact, lower, upper };

// One searcher's evaluations by position: quiescence reaches the same
// positions by captures in different orders. The evaluation reads only what
// the position keys cover (cells, hands, the seats out of the game), so a
// stored score is the score.
class EvalCache {
 public:
  EvalCache(const VariantData& v, int me) : v_(&v), me_(me) {}
  // Empty, for no variant yet: use_for() comes before the first evaluation.
  EvalCache() = default;
  // Evaluates for `me` in `v` from now on: the scores kept stay where both
  // are those of the last use (a kept score is the score), else go.
  void use_for(const VariantData& v, int me) {
    v_ = &v;
    if (variant_ == v.serial && me_ == me) return;
    variant_ = v.serial;
    me_ = me;
    slots_.clear();
  }
  // Starts loading the slot of a position whose key (board_key ^
  // hand_key) is `key`, `to_move` to move, into the cache.
  void prefetch(std::uint64_t key, int to_move) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[turnless(key, to_move) & (slots_.size() - 1)]);
  }
  int operator()(const State& s, KnownChecks checks = {}) {
    return (*this)(s, checks, [] { return static_cast<const Standings*>(nullptr); });
  }
  // `standings()`, asked only where the score is not kept: the standings of
  // `s` (or nullptr).
  template <class F>
  int operator()(const State& s, KnownChecks checks, F&& standings) {
    if (s.outcome == Outcome::finished) return evaluate(*v_, s, me_);
    // 1 MiB, taken at the first evaluation: a search object that never
    // evaluates (the expert builds one of each kind) costs nothing.
    if (slots_.empty()) slots_.resize(std::size_t{1} << 16);
    const std::uint64_t key = turnless(s.board_key ^ s.hand_key, s.to_move);
    Slot& e = slots_[key & (slots_.size() - 1)];
    if (!e.used || e.key != key) e = Slot{key, evaluate(*v_, s, me_, checks, standings()), true};
    return e.score;
  }

 private:
  // The key `key` of a position with `to_move` to move, without the seat
  // to move: the evaluation does not read it, and Best-Reply Search
  // reaches one position with different seats to move.
  std::uint64_t turnless(std::uint64_t key, int to_move) const { return key ^ v_->z_turn[to_move]; }
  struct Slot {
    std::uint64_t key = 0;
    int score = 0;
    bool used = false;
  };
  const VariantData* v_ = nullptr;
  std::uint64_t variant_ = 0;  // v_'s serial where the cache is kept (use_for)
  int me_ = -1;
  std::vector<Slot> slots_;
};

// Two seats, the fixed-depth levels: minimax with alpha-beta from `me`'s
// view over `line` (whose last state is the node searched; moves are pushed
// and popped), the plain search the rule page describes. Every position it
// visits counts one node of the budget.
class TwoSeatSearch {
 public:
  TwoSeatSearch(const VariantData& v, Line& line, int me, Budget& budget)
      : v_(v), line_(line), me_(me), b_(budget), eval_(v, me) {}
  // Captures only, up to `depth` plies, until quiet; either side may stand
  // pat.
  int quiesce(int alpha, int beta, int depth);
  // Minimax to `depth` plies, then quiescence to `qdepth` (0: none).
  int alphabeta(int depth, int alpha, int beta, int ply, int qdepth);

 private:
  // Captures that lose material at once (loses_at_once) go last, after the
  // quiet moves, in the order they had.
  void demote_losing_captures(const State& s, MoveList& moves);
  const VariantData& v_;
  Line& line_;
  int me_;
  Budget& b_;
  MoveHints hints_;
  EvalCache eval_;
};

// More seats: Best-Reply Search (Schadd & Winands 2011) from `me`'s view.
// Layers alternate: `me`'s moves (with its partners'), then the single
// strongest reply of any opponent, after which the turn comes back to `me`
// — the other opponents pass — unless a seat must answer a check. Beyond
// the depth, the same alternation over captures only (quiescence), where
// either side may stand pat, except a seat in check, which answers it with
// any move.
class BestReplySearch {
 public:
  BestReplySearch(const VariantData& v, Line& line, int me, Budget& budget)
      : v_(v), line_(line), me_(me), b_(budget), eval_(v, me) {}
  // `depth` layers, then up to kQuiescence layers of captures.
  int search(int depth, int alpha, int beta, int ply);
  static constexpr int kQuiescence = 4;

 private:
  struct Candidate {
    std::uint64_t key;
    Move move;
    int seat;
  };
  // Which of a layer's moves candidates() lists. A full layer lists its
  // captures first (every capture's order key is above every other
  // move's) and its other moves only where no capture cut the node: most
  // cuts are captures. The other moves are keyed when they are listed,
  // with the history the captures' subtrees taught.
  enum class Stage {
    quiescence,  // captures, but those that lose material at once
    captures,    // a full layer's captures
    rest,        // a full layer's other moves
  };
  // A layer's moves as the search takes them: the stage listed, the list
  // (of the ply, kept) and the next to take.
  struct Layer {
    bool maxing, checked;
    Stage stage;
    int ply;
    std::vector<Candidate>& list;
    std::size_t next = 0;
  };
  // Lists the moves of the layer's stage at the line's last state, of the
  // seats that move in it (only the seat to move if it is `me`'s side or in
  // check), each with its order key.
  void candidates(Layer& layer);
  // The layer's next move, best first by key, and its seat (listing the
  // other moves after the captures); false when none is left.
  bool next(Layer& layer, Move& move, int& seat);
  // The standings of the line's state i: kept, read from those kept for one
  // of the three states before it, or computed.
  const Standings& standings_at(std::size_t i);
  // Plays `seat`'s move `m` (on a virtual turn if it is not the seat to
  // move) and, after a reply, gives the turn back to `me`; returns how many
  // states it pushed.
  int play(Move m, int seat, bool maxing);
  const VariantData& v_;
  Line& line_;
  int me_;
  Budget& b_;
  EvalCache eval_;
  MoveHints hints_;
  std::deque<std::vector<Candidate>> lists_;  // per ply, reused
  struct KeptStandings {
    std::uint64_t serial = 0;  // the line's serial of the state they are of; 0: none
    Standings standings;
  };
  std::vector<KeptStandings> standings_;  // by line index
};

// A finished position's score from the searching seat's view, nearer wins
// and farther losses preferred.
inline int finished_score(const VariantData& v, const State& s, int me, int ply) {
  int e = evaluate(v, s, me);
  return e > 0 ? e - ply : e < 0 ? e + ply : 0;
}

}  // namespace koma::detail
