// Internal: a line of play — the states of a game or search from its start,
// with who moved into each and whether that move gave check. The rules read
// it for repetition and perpetual check; Game, perft and the search push and
// pop it.
//
// Repetition costs the same at any length of line: each distinct position
// (board, hands, eliminated set, seat to move) is a class with its count and
// its first index, found through a hash of the state's keys and confirmed by
// a full comparison (never by the hash alone). Prefix tallies of moves and
// checks per seat answer "did the mover check on every move since then" at
// once. Pushes and pops are last in, first out, so classes are too: the
// class a pop empties is the newest, the head of its bucket's chain.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "movegen.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// Moves made and checks given, per seat.
struct Tally {
  std::array<std::uint32_t, kMaxSeats> moves{}, checks{};
};

class Line {
 public:
  Line(const VariantData& v, const State& start);

  // Rule endings (repetition, impasse, ...) are noted, not final: the caller
  // follows an outside referee (Game::Referee::outside).
  bool referee_outside = false;

  std::size_t size() const { return states_.size(); }
  const State& back() const { return states_.back(); }
  const State& operator[](std::size_t i) const { return states_[i]; }
  // Seat whose move or action led to state i; -1 for the start and for
  // states pushed by an outside decision or a search's virtual turn.
  int mover(std::size_t i) const { return entries_[i].mover; }
  // Whether the move into state i gave check.
  bool checked(std::size_t i) const { return entries_[i].checked; }
  // Whether `seat` is in check in state i (in_check, unless known).
  bool in_check_at(std::size_t i, int seat) const;
  KnownChecks known_checks(std::size_t i) const { return entries_[i].checks; }
  // A number no other state pushed on this line had (so a search can tell
  // whether what it kept for index i is still about the state there).
  std::uint64_t serial(std::size_t i) const { return entries_[i].serial; }

  // `checks`: what is known of the seats `s` has in check.
  void push(const State& s, int mover, bool gave_check, KnownChecks checks = {});
  // Pushes the last state again as `change(State&)` leaves it (a search's
  // virtual turn), without a copy of it made first.
  template <class F>
  void push_changed(F&& change, int mover, bool gave_check, KnownChecks checks = {}) {
    change(begin_push());
    end_push(mover, gave_check, checks);
  }
  // The same in two steps: begin_push() appends a copy of the last state and
  // returns it, to be made the next one in place; end_push() pushes it.
  // In between the line answers only occurrences() and since(), as before
  // the push, and nothing else may be asked of it or pushed onto it.
  State& begin_push() {
    states_.push_back(states_.back());
    return states_.back();
  }
  void end_push(int mover, bool gave_check, KnownChecks checks = {}) {
    note_pushed(mover, gave_check, checks);
  }
  void pop();  // never the start state
  void reserve(std::size_t n);
  // The last state, changed in place and restored before anything else reads
  // the line (full perft's leaves): its position must end as it began.
  State& back_in_place() { return states_.back(); }

  // How many states of the line equal `s` in position; `first` gets the
  // index of the earliest one.
  int occurrences(const State& s, std::size_t* first = nullptr) const;
  // The most times any one position occurs in the line.
  int most_occurrences() const { return static_cast<int>(entries_.back().peak); }
  // Moves and checks per seat in the states after index `first`.
  Tally since(std::size_t first) const;
  // Index of the first state noted with a rule ending while play went on
  // (outside referee), or 0 if none (the start state is never one).
  std::size_t first_rule_ending() const { return first_rule_ending_; }

 private:
  struct Entry {
    std::int8_t mover = -1;
    bool checked = false;
    std::uint32_t cls = 0;   // its position's class
    std::uint32_t peak = 0;  // most_occurrences() up to and including it
    Tally tally;             // moves and checks up to and including it
    KnownChecks checks;
    std::uint64_t serial = 0;
  };
  struct Class {
    std::uint64_t hash = 0;
    std::uint32_t first = 0;  // earliest state of this position
    std::uint32_t count = 0;
    std::int32_t prev = -1;  // the class before it in its bucket; -1: none
  };

  // The bookkeeping of a push, the state already at the back.
  void note_pushed(int mover, bool gave_check, KnownChecks checks);
  std::size_t bucket_of(std::uint64_t hash) const;
  // Doubles the buckets and chains every class anew, newest first.
  void grow_buckets();
  int find_class(const State& s, std::uint64_t hash) const;

  const VariantData* v_;
  std::vector<State> states_;  // states_[0] is the start position
  std::vector<Entry> entries_;
  std::vector<Class> classes_;
  // By hash, the newest class of each bucket (-1: none), its older ones
  // chained through Class::prev; a power of two, at least twice the classes.
  std::vector<std::int32_t> buckets_;
  std::size_t first_rule_ending_ = 0;
  std::uint64_t pushes_ = 0;
};

// Whether `a` and `b` are one position for repetition: the same cells,
// hands, eliminated seats and seat to move (the ply and clocks aside).
bool same_position(const VariantData& v, const State& a, const State& b);

}  // namespace koma::detail
