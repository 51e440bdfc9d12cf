// Internal: how the two-seat expert (expert_two.hpp) orders a node's moves:
// the statistics it learns while it searches, the static exchange
// evaluation, and the picker that gives the moves in order.
//
// The picker gives the moves in stages. It tries the table's move before
// it lists any other (a node cut by it lists none: one node in six of the
// main search in shogi middle games), and finds out whether a capture
// loses in the exchange only once the capture's turn comes:
//   table     the table's move, if it is legal here;
//   tactical  captures and promotions that do not lose material in the
//             exchange (at most a sixteenth of what they take), by 6 x the
//             value taken + their capture history;
//   killers   the node's two killers, if legal quiet moves here;
//   quiet     the other moves by their history and the continuation
//             histories of the moves one, two and four plies before,
//             scored when the first of them is reached (the statistics
//             change while the moves before are searched);
//   bad       the captures and promotions that lose in the exchange, in
//             the tactical stage's order.
// Ties keep the generator's order. No move comes twice.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "line.hpp"
#include "search.hpp"

namespace koma::detail {

// What the expert learns about moves while it searches (cleared by each
// choose()): per seat a history of quiet moves by origin (or dropped kind)
// and target, a capture history by moving kind, target and captured kind,
// and continuation histories: how a move by kind and target fared after the
// move one, two and four plies before it.
class MoveStats {
 public:
  void reset(const VariantData& v);
  // The index of a move by kind and target for the continuation tables.
  int piece_to(int kind, int to) const { return kind * nsq_ + to; }
  std::int16_t& quiet(int seat, Move m) { return main_[main_index(seat, m)]; }
  std::int16_t& capture(int seat, int kind, int to, int captured) {
    return captures_[(static_cast<std::size_t>(seat) * pieces_ + piece_to(kind, to)) * nk_ +
                     captured];
  }
  // The continuation row that follows a move by `seat` of (kind, to);
  // nullptr where the tables would be too large for the board. A row is
  // cleared when first asked for after reset() (a search reaches few of
  // them: clearing all 5 MB for shogi at every move cost about 1 % of a
  // 20 000-node search).
  std::int16_t* row(int seat, int kind, int to) {
    if (cont_.empty()) return nullptr;
    const std::size_t r = static_cast<std::size_t>(seat) * pieces_ + piece_to(kind, to);
    std::int16_t* out = &cont_[r * pieces_];
    if (row_epoch_[r] != epoch_) {
      std::fill_n(out, pieces_, std::int16_t{0});
      row_epoch_[r] = epoch_;
    }
    return out;
  }
  // A row of zeros, read where there is no row (never written).
  const std::int16_t* zero_row() const { return zero_.data(); }

  // Moves the statistic `e` towards +-kMax by `bonus` (Stockfish's gravity:
  // the larger it is, the less a bonus moves it).
  static void nudge(std::int16_t& e, int bonus, int range);

 private:
  std::size_t main_index(int seat, Move m) const {
    const int from = m.is_drop() ? nsq_ + m.kind : m.from;
    return (static_cast<std::size_t>(seat) * (nsq_ + nk_) + from) * nsq_ + m.to;
  }
  int nsq_ = 0, nk_ = 0, pieces_ = 0;
  std::vector<std::int16_t> main_, captures_, cont_, zero_;
  // The reset() each continuation row was last cleared for.
  std::vector<std::uint32_t> row_epoch_;
  std::uint32_t epoch_ = 0;
};

// Static exchange evaluation: whether the seat to move of `s` wins at least
// `threshold` (centi-pawns; negative: loses at most that much) on m's
// target if both sides then take there, cheapest piece first, for as long
// as it pays (piece values; pins ignored; a royal takes last, and only where
// nothing defends). A drop or a quiet move starts with nothing taken.
bool exchange_at_least(const VariantData& v, const State& s, Move m, int threshold);

// The moves of one node, in the order above.
class MovePicker {
 public:
  enum class Stage : std::uint8_t { table, tactical, killers, quiet, bad, done };

  // One scored move of a node; `index` is its place in generation order.
  struct Scored {
    Move m;
    int score;
    int index;
  };

  // `pool` holds the moves of every node on the search path, each node's
  // after its parent's: the picker takes its share from the end and gives
  // it back when destroyed. `cont` are the continuation rows of the moves
  // one, two and four plies before (MoveStats::zero_row where none).
  MovePicker(const VariantData& v, const Line& line, MoveStats& stats, std::vector<Scored>& pool,
             MoveList& scratch, Move table_move, const std::array<Move, 2>& killers,
             const std::array<const std::int16_t*, 3>& cont);
  MovePicker(const MovePicker&) = delete;
  MovePicker& operator=(const MovePicker&) = delete;
  ~MovePicker() { pool_.resize(base_); }

  // The next move to try, or false once every legal move has been given.
  bool next(Move& m);
  // The stage the last move came from.
  Stage stage() const { return given_; }
  // From now on the killers and quiet moves are wanted only if they might
  // check: those that neither start nor end on a square of `reach` (if not
  // nullptr) are passed over.
  void skip_quiets_but_checks(const SquareSet* reach) {
    skip_quiets_ = true;
    check_reach_ = reach;
  }
  // Whether the node has a legal move; exact once next() returned false.
  bool any_legal() const { return any_legal_; }

 private:
  // Lists every legal move: the tactical ones scored and sorted, then the
  // quiet ones.
  void list_moves();
  bool next_tactical(Move& m);
  bool next_killer(Move& m);
  bool next_quiet(Move& m);
  bool give(Stage stage) {
    given_ = stage;
    return true;
  }

  const VariantData& v_;
  const Line& line_;
  const State& s_;
  MoveStats& stats_;
  std::vector<Scored>& pool_;
  MoveList& scratch_;
  Move table_;
  std::array<Move, 2> killers_;
  std::array<const std::int16_t*, 3> cont_;
  int us_;
  Stage stage_ = Stage::table;  // the stage next() looks at
  Stage given_ = Stage::table;  // the stage of the last move given
  bool any_legal_ = false;
  bool listed_ = false;
  bool table_legal_ = false;
  bool quiets_scored_ = false;
  // The quiet moves are picked one by one for the first kSelected, then
  // sorted; those passed over are dropped once skip_quiets_but_checks
  // comes.
  static constexpr int kSelected = 4;
  int quiets_selected_ = 0;
  bool quiets_sorted_ = false;
  bool quiets_pruned_ = false;
  int killer_ = 0;  // the next killer to look at
  bool skip_quiets_ = false;
  const SquareSet* check_reach_ = nullptr;
  // After skip_quiets_but_checks: a quiet move that cannot check.
  bool passed_over(Move m) const {
    return skip_quiets_ && check_reach_ && !check_reach_->test(m.to) &&
           (m.is_drop() || !check_reach_->test(m.from));
  }
  // The pool from base_: tactical moves [base_, tactical_end_) (those found
  // bad moved down to [base_, bad_end_) as they are passed), quiet moves
  // [tactical_end_, pool_.size()); `cur_` is the next one to look at.
  std::size_t base_, cur_ = 0, tactical_end_ = 0, bad_end_ = 0;
  std::array<Move, 2> killers_given_{};
  int nkillers_given_ = 0;
};

}  // namespace koma::detail
