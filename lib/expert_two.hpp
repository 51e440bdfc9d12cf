// Internal: the two-seat expert's search. Principal-variation search in
// negamax form from the seat to move's view, in the manner of Stockfish:
// a transposition table with the static evaluation beside the score,
// aspiration windows, reverse futility and null-move pruning, move-count,
// futility, history and exchange (SEE) pruning, late-move reductions steered
// by the move statistics, a check extension, and a quiescence search over
// captures (at its first ply also the moves that check) with the same table
// and exchange pruning. Every move is played through the turn pipeline of a
// Line, so the search plays by the variant's rules; one step is deferred
// (play_move_unjudged): a seat left without a legal move is found by the
// node that lists its moves.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "move_picker.hpp"
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
  // Starts loading the slot of `key` into the cache (a probe soon after
  // finds it there). Only after start().
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&slots_[key & (kSlots - 1)]); }

 private:
  static constexpr std::size_t kSlots = std::size_t{1} << 17;
  // One cache line a slot: a probe reads one line, never two.
  struct alignas(64) Slot {
    std::array<ExpertEntry, 2> entries;
  };
  static_assert(sizeof(Slot) == 64);
  std::vector<Slot> slots_;
  std::uint32_t search_ = 0;
};

// What a Player keeps for its two-seat expert between moves: the memory of
// the table and the statistics, not their contents (each search starts
// both afresh, so it stays deterministic), and the evaluation cache with
// its contents (exact evaluations: the next search finds many of the
// positions the last one evaluated, and scores them the same).
struct ExpertMemory {
  ExpertTable table;
  MoveStats stats;
  EvalCache eval;
};

class TwoSeatExpert {
 public:
  // Starts the memory's table and statistics afresh.
  TwoSeatExpert(const VariantData& v, Line& line, Budget& budget, ExpertMemory& memory);
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
    int move_count = 0;  // the number of the move being searched (read below it)
    bool in_check = false;
    bool null = false;
    std::array<Move, 2> killers{};
  };
  enum class Node { pv, non_pv, root };

  struct NodeState;
  using Tried = boost::container::static_vector<Move, 64>;

  // Principal-variation search of the line's last state: `cut` marks an
  // expected cut node (the reductions grow there).
  int search(Node node, int ply, int alpha, int beta, int depth, bool cut);
  // search()'s steps. Reads the table's entry for the node.
  void read_table(NodeState& n);
  // The static evaluation, then reverse futility and the null move: true
  // (with `value`) where the node is cut before its moves are tried.
  bool cut_before_moves(NodeState& n, int beta, int& value);
  // Whether the count-th move `m` is dropped at shallow depth (moves that
  // check never are); the first late quiet move sets `skip_quiets`.
  bool pruned(const NodeState& n, Move m, bool tactical, int count, int alpha, bool& skip_quiets,
              MovePicker& picker);
  // The singular test of the table's move: `extension` 1 where every other
  // move falls short; true (with `value`) where another holds beta too.
  bool singular(const NodeState& n, Move m, int beta, int& extension, int& value);
  // Plies a late move is searched shallower (`pt`: its continuation index).
  int late_reduction(const NodeState& n, Move m, int pt, bool tactical, int count, bool check);
  // The statistics after a node found its best move.
  void learn(const NodeState& n, Move best, int best_value, int beta, const Tried& quiets,
             const Tried& captures);
  int qsearch(bool pv, int ply, int alpha, int beta, int depth);
  // Puts the listed moves (scratch_) into the pool with their order's
  // scores.
  void score_quiescence_moves(int us, Move tt_move);
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
  // The seat to move at `ply` (moves and null moves alternate the two).
  int seat_at(int ply) const;
  void play(int ply, Move m);
  void play_null(int ply);
  void take_back() { line_.pop(); }
  // Whether `m` checks the enemy: move_gives_check where it has a lone
  // royal, else by playing it (played_gives_check).
  bool gives_check(Move m);
  // The square of the royal of the seat not to move (-1: none on the board).
  int enemy_royal() const;
  // The squares a move must start or end on to check the enemy royal
  // (gives_check's first test), or nullptr where that seat has no lone royal.
  const SquareSet* check_reach() const;
  // Whether the seat to move in the line's last state is in check.
  bool in_check_now() const;
  void update_quiet_stats(int ply, Move best, int bonus, const Tried& quiets);
  void update_cont(int ply, int kind, int to, int bonus);

  const VariantData& v_;
  Line& line_;
  Budget& b_;
  ExpertTable& tt_;
  MoveStats& stats_;
  EvalCache& eval_;
  // Repetitions count from here: the root, or inside a null move's subtree
  // the state after it.
  std::size_t floor_;
  int me_;
  std::array<Frame, kMaxPly + 8> frames_{};
  Frame* at(int ply) { return &frames_[static_cast<std::size_t>(ply) + 4]; }
  // The moves of the nodes on the search path (MovePicker), and a list a
  // node generates into before they are scored.
  std::vector<MovePicker::Scored> pool_;
  MoveList scratch_;
  Move root_best_{};
  int root_best_value_ = 0;
};

}  // namespace koma::detail
