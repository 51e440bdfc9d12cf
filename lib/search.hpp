// Internal: the searches the CPU levels of ai.cpp run. Every search plays
// candidate moves through the full turn pipeline of a Line (eliminations,
// check priority, endings), so it plays by the variant's rules, and scores
// positions with evaluation.hpp from one seat's view.
// This header holds what they share (the node budget, move ordering in
// search.cpp, the evaluation cache); each search has its own header:
//   search_two.hpp   two seats, fixed depth (easy, medium, hard)
//   expert_two.hpp   two seats, the expert
//   search_many.hpp  more seats: Best-Reply Search
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

#include "evaluation.hpp"
#include "movegen.hpp"
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

// The kind of the piece `m` moves in `s` (the move not yet played): the
// dropped kind for a drop.
inline int moved_kind(const State& s, Move m) {
  return m.is_drop() ? m.kind : kind_of(s.cells[m.from].code);
}

// The kind of the piece `m` captures in `s`, or -1 (a drop or a quiet move).
// A double move that takes twice: the piece on its last square.
inline int captured_kind(const State& s, Move m) {
  if (m.is_drop()) return -1;
  if (m.is_double()) [[unlikely]] {
    const Cell last = s.cells[m.to], mid = s.cells[m.middle()];
    if (m.to != m.from && is_piece(last.code)) return kind_of(last.code);
    return is_piece(mid.code) ? kind_of(mid.code) : -1;
  }
  const Cell c = s.cells[m.to];
  return is_piece(c.code) ? kind_of(c.code) : -1;
}

// The value of what `m` captures (0 for a drop or a quiet move; both pieces
// of a double move that takes twice).
inline int captured_value(const VariantData& v, const State& s, Move m) {
  if (m.is_double()) [[unlikely]] {
    const Cell last = s.cells[m.to], mid = s.cells[m.middle()];
    return (m.to != m.from && is_piece(last.code) ? piece_value(v, kind_of(last.code)) : 0) +
           (is_piece(mid.code) ? piece_value(v, kind_of(mid.code)) : 0);
  }
  const int kind = captured_kind(s, m);
  return kind >= 0 ? piece_value(v, kind) : 0;
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

// A finished position's score from the searching seat's view, nearer wins
// and farther losses preferred.
inline int finished_score(const VariantData& v, const State& s, int me, int ply) {
  int e = evaluate(v, s, me);
  return e > 0 ? e - ply : e < 0 ? e + ply : 0;
}

}  // namespace koma::detail
