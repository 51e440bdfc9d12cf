// Internal: the two-seat expert's search. Principal-variation search in
// negamax form from the seat to move's view, in the manner of Stockfish:
// a transposition table with the static evaluation beside the score,
// aspiration windows, reverse futility and null-move pruning, move-count,
// futility, history and exchange (SEE) pruning, late-move reductions steered
// by the move statistics, a check extension, and a quiescence search over
// captures with the same table and exchange pruning. Every move is played
// through the turn pipeline of a Line, so the search plays by the
// variant's rules; one step is deferred (play_move_unjudged): a seat left
// without a legal move is found by the node that lists its moves.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "search.hpp"

namespace koma::detail {

// The expert's table: two entries a slot, the first kept for the deeper
// search, the second always replaced. Entries of an earlier search read as
// empty (search ids), so every choose() sees a fresh table and stays
// deterministic.
struct ExpertEntry {
  std::uint64_t key = 0;
  std::int32_t value = 0;
  std::int32_t eval = 0;
  Move move{};
  std::int16_t depth = 0;
  Bound bound = Bound::exact;
  bool pv = false;
  std::uint32_t search = 0;
};

class ExpertTable {
 public:
  void start();
  // The entry of `key` from this search, or nullptr.
  const ExpertEntry* probe(std::uint64_t key) const;
  void store(std::uint64_t key, int value, int eval, Move move, int depth, Bound bound, bool pv);

 private:
  static constexpr std::size_t kSlots = std::size_t{1} << 17;
  std::vector<std::array<ExpertEntry, 2>> slots_;
  std::uint32_t search_ = 0;
};

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
  // nullptr where the tables would be too large for the board.
  std::int16_t* row(int seat, int kind, int to) {
    if (cont_.empty()) return nullptr;
    return &cont_[(static_cast<std::size_t>(seat) * pieces_ + piece_to(kind, to)) * pieces_];
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
};

// Static exchange evaluation: what the seat to move of `s` wins or loses on
// m's target if both sides then take there, cheapest piece first, for as
// long as it pays (piece values; pins ignored; a royal takes last, and only
// where nothing defends). A drop or a quiet move starts with nothing taken.
int static_exchange(const VariantData& v, const State& s, Move m);

// What a Player keeps for its two-seat expert between moves: the memory, not
// the contents (each search starts both afresh, so it stays deterministic).
struct ExpertMemory {
  ExpertTable table;
  MoveStats stats;
};

class TwoSeatExpert {
 public:
  TwoSeatExpert(const VariantData& v, Line& line, Budget& budget, ExpertTable& table,
                MoveStats& stats);
  struct Result {
    Move move{};
    int score = 0;  // from the seat to move's view at the root
    int depth = 0;  // completed iterations
  };
  // Iterative deepening over `root` (the legal moves of the line's last
  // state) up to `max_depth` plies or the budget.
  Result run(const MoveList& root, int max_depth);

  static constexpr int kMaxPly = 120;

 private:
  struct Frame {
    Move move{};
    Move excluded{};
    std::int16_t* cont = nullptr;  // the continuation row of `move`
    int eval = 0;
    int stat = 0;
    int move_count = 0;
    bool in_check = false;
    bool null = false;
    std::array<Move, 2> killers{};
  };
  enum class Node { pv, non_pv, root };

  int search(Node node, int ply, int alpha, int beta, int depth, bool cut);
  int qsearch(bool pv, int ply, int alpha, int beta, int depth);
  // Whether the line's last state ends the search: the game ended on the
  // move into it, or it repeats a position of the search. Then `score` is
  // its value for the seat to move.
  bool terminal(int ply, int& score);
  // Whether a state since floor_ has the last state's keys (a quick test
  // before the line's exact count of its occurrences).
  bool repeats_in_search() const;
  // The seat to move has no legal move: settled as the rules say (out, or
  // mated) and scored from its view; where the rules let it pass, its
  // static evaluation.
  int stuck_value(int ply);
  const std::int16_t* cont_at(int ply) const;
  int static_eval();
  void play(int ply, Move m);
  void play_null(int ply);
  void take_back() { line_.pop(); }
  bool gives_check(Move m);
  int moved_kind(Move m) const;
  int captured_kind(Move m) const;
  using Tried = boost::container::static_vector<Move, 64>;
  void update_quiet_stats(int ply, Move best, int bonus, const Tried& quiets);
  void update_cont(int ply, int kind, int to, int bonus);

  const VariantData& v_;
  Line& line_;
  Budget& b_;
  ExpertTable& tt_;
  MoveStats& stats_;
  EvalCache eval_;
  // Repetitions count from here: the root, or inside a null move's subtree
  // the state after it.
  std::size_t floor_;
  int me_;
  std::array<Frame, kMaxPly + 8> frames_{};
  Frame* at(int ply) { return &frames_[static_cast<std::size_t>(ply) + 4]; }
  Move root_best_{};
  int root_best_value_ = 0;
  // [sq]: the squares from which some piece could attack sq, whatever
  // stands between (gives_check's first test).
  std::vector<SquareSet> reach_;
};

}  // namespace koma::detail
