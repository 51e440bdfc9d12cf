// Internal: the search of more than two seats (Best-Reply Search), in
// search_many.cpp; what the searches share is in search.hpp.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "line.hpp"
#include "search.hpp"

namespace koma::detail {

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

}  // namespace koma::detail
