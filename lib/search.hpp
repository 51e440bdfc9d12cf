// Internal: the searches the CPU levels of ai.cpp run. Every search plays
// candidate moves through the full turn pipeline of a Line (eliminations,
// check priority, endings), so it plays by the variant's rules, and scores
// positions with evaluation.hpp from one seat's view. One step is deferred:
// the two-seat expert finds a seat without a legal move at the node that
// lists that seat's moves, not after every move (TwoSeatSearch::play).
//   search.cpp       what the searches share: node budget, move ordering
//   search_two.cpp   two seats: alpha-beta with quiescence and a table
//   search_many.cpp  more seats: Best-Reply Search
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
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

// Would `m`, a move of the seat to move that takes nothing, leave its piece
// where the enemy wins it: attacked by a cheaper enemy piece, or attacked
// and not defended? (A static look at the square, no exchange played out.)
bool hangs(const VariantData& v, const State& s, Move m);

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

struct TTEntry {
  std::uint64_t key = 0;
  int depth = -1;
  int score = 0;
  Bound bound = Bound::exact;
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
    if (e.search != search) e = TTEntry{0, -1, 0, Bound::exact, Move{}, search};
    return e;
  }
};

// One searcher's evaluations by position: quiescence reaches the same
// positions by captures in different orders. The evaluation reads only what
// the position keys cover (cells, hands, the seats out of the game), so a
// stored score is the score.
class EvalCache {
 public:
  EvalCache(const VariantData& v, int me) : v_(v), me_(me) {}
  int operator()(const State& s) {
    if (s.outcome == Outcome::finished) return evaluate(v_, s, me_);
    // 1 MiB, taken at the first evaluation: a search object that never
    // evaluates (the expert builds one of each kind) costs nothing.
    if (slots_.empty()) slots_.resize(std::size_t{1} << 16);
    // Without the seat to move: the evaluation does not read it, and
    // Best-Reply Search reaches one position with different seats to move.
    const std::uint64_t key = s.board_key ^ v_.z_turn[s.to_move] ^ s.hand_key;
    Slot& e = slots_[key & (slots_.size() - 1)];
    if (!e.used || e.key != key) e = Slot{key, evaluate(v_, s, me_), true};
    return e.score;
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    int score = 0;
    bool used = false;
  };
  const VariantData& v_;
  int me_;
  std::vector<Slot> slots_;
};

// Two seats: minimax with alpha-beta from `me`'s view over `line` (whose
// last state is the node searched; moves are pushed and popped).
class TwoSeatSearch {
 public:
  TwoSeatSearch(const VariantData& v, Line& line, int me, Budget& budget)
      : v_(v), line_(line), me_(me), b_(budget), eval_(v, me) {}
  // Captures only, until quiet. `prune` (expert) skips captures that lose
  // material at once (a dearer piece taking a defended cheaper one) or gain
  // too little to reach the window, and has a seat in check answer it with
  // any move instead of standing pat.
  int quiesce(int alpha, int beta, int depth, bool prune);
  // Minimax to `depth` plies, then quiescence to `qdepth` (0: none). With a
  // table (expert) it also searches a seat in check one ply deeper and
  // prunes: a node far past the window near the horizon (reverse futility),
  // null move, late quiet moves that cannot reach the window, come too
  // late or leave their piece hanging (futility, late-move pruning; never a
  // check), principal-variation null windows and logarithmic late-move
  // reductions; it also orders captures that lose material at once last.
  // Without a table (hard) it is the plain fixed-depth search the rule page
  // describes. Every position it visits counts one node of the budget.
  int alphabeta(int depth, int alpha, int beta, int ply, int qdepth, SearchTable* tt,
                bool null_ok = true);
  // The value of the i-th move at the root (`me` to move), just played, the
  // `quiets`-th quiet one if `quiet`: as at any other node, later moves
  // must prove they beat `alpha`, late quiet moves that give no check at
  // reduced depth first.
  int root_child(std::size_t i, bool quiet, int quiets, int depth, int alpha, SearchTable* tt);
  // How far beyond the horizon quiescence goes.
  static constexpr int kQuiescence = 6;

 private:
  // Null move: if passing still holds the bound, a real move will too (shogi
  // has almost no zugzwang; tried only where the static score `stand` is
  // past the bound already). The cut-off value, or nullopt.
  std::optional<int> null_move(int depth, int alpha, int beta, int ply, int qdepth, SearchTable* tt,
                               bool maxing, int stand);
  // Plays `m` onto the line. With `prune` (expert) a next seat left without
  // a legal move is not judged yet: finding that out costs a move
  // generation per node, and the node lists its moves anyway
  // (judge_stuck_seat). The plain search (hard) judges at once, so its
  // horizon sees every mate.
  void play(Move m, bool prune);
  // The line's last state, left unjudged by play(), turned out to have no
  // legal move for its seat to move: settles it as the rules do (the seat
  // is out, checkmated if in check) and returns true; false where the
  // rules let a stuck seat pass.
  bool judge_stuck_seat();
  // Whether `m`, a move of the line's last state, checks the other seat
  // (played in place and taken back: cheaper than the turn pipeline).
  bool gives_check(Move m);
  // Captures that lose material at once (search.hpp) go last, after the
  // quiet moves, in the order they had; `first` (the table's move) stays.
  void demote_losing_captures(const State& s, MoveList& moves, Move first);
  // The value of the i-th move of a node, just played: the first at the full
  // window; later ones are expected to fail, so a null window proves it
  // cheaply, at reduced depth (`reduction`) for late quiet moves, and a
  // surprise is searched again.
  int child(std::size_t i, int reduction, int depth, int alpha, int beta, int ply, int qdepth,
            SearchTable* tt, bool maxing);
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
  // The moves of the layer at the line's last state, best first across the
  // seats that move in it (only the seat to move if it is `me`'s side or in
  // check).
  void candidates(bool maxing, bool checked, bool captures, int ply, std::vector<Candidate>& out);
  // Plays a candidate (on a virtual turn if its seat is not the one to
  // move) and, after a reply, gives the turn back to `me`; returns how many
  // states it pushed.
  int play(const Candidate& c, bool maxing);
  const VariantData& v_;
  Line& line_;
  int me_;
  Budget& b_;
  EvalCache eval_;
  MoveHints hints_;
  std::deque<std::vector<Candidate>> lists_;  // per ply, reused
};

// A finished position's score from the searching seat's view, nearer wins
// and farther losses preferred.
inline int finished_score(const VariantData& v, const State& s, int me, int ply) {
  int e = evaluate(v, s, me);
  return e > 0 ? e - ply : e < 0 ? e + ply : 0;
}

}  // namespace koma::detail
