// A game: a start position and the moves played since, with everything the
// rules need from the past (repetition, perpetual check, who mated whom).
// Mutable and cheap; start as many as you like from one Variant.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/move.hpp"
#include "koma/position.hpp"
#include "koma/result.hpp"
#include "koma/variant.hpp"

namespace koma {

class Game {
 public:
  // Who ends the game. `koma`: the rules do (the default). `outside`: the
  // caller follows an outside referee (a USI GUI, a game server); endings by
  // rule — repetition, perpetual check, impasse, try, the ply limit — are only
  // reported by rule_ending() and play goes on. A seat left without a legal
  // move, resignation, a declaration and adjudicate() still end the game.
  enum class Referee { koma, outside };

  // A game from the variant's start position (first_seat option to move).
  explicit Game(const std::shared_ptr<const Variant>& variant, Referee referee = Referee::koma);
  // A game from a given position of the same variant, taken as written.
  explicit Game(const Position& start, Referee referee = Referee::koma);
  ~Game();
  Game(const Game&);
  Game& operator=(const Game&);

  const Variant& variant() const;
  const Position& position() const;  // the current position
  const Position& start() const;

  // Legal moves of the seat to move, in the documented order; empty when over.
  std::vector<Move> legal_moves() const;
  // Whether legal_moves() lists `m`, answered without listing them all; any
  // Move may be asked (false for squares or kinds the variant lacks).
  bool is_legal(Move m) const;

  // Plays a move. Throws IllegalMove with the reason (game unchanged).
  void play(Move m);
  // Plays move text, or the actions "resign" and "win". Throws NotationError
  // for unreadable text, IllegalMove for an illegal move (game unchanged).
  void play(std::string_view text);
  // Resigns for the seat to move. Throws IllegalMove where the variant has no
  // resignation or the game is over.
  void resign();
  // Declares an impasse win for the seat to move (the action `win`). The
  // declaration is judged at once: correct wins, wrong loses (docs).
  void declare_win();
  // Takes back the last move or action. Throws IllegalMove at the start.
  void undo();

  // Ends the game by an outside decision (time forfeit, agreed draw,
  // adjudication). Throws IllegalMove if over, if `places` has the wrong size,
  // a place outside 1..seats or is not competition ranks (Result::places), or
  // if `reason` is none or no Reason at all.
  void adjudicate(const std::vector<int>& places, Reason reason = Reason::adjudicated);

  bool over() const;
  std::optional<Result> result() const;
  Referee referee() const;
  // With an outside referee: the first ending by rule the moves so far have
  // reached (what koma's referee would have declared), nullopt if none.
  std::optional<Result> rule_ending() const;
  // Why a move is illegal here, in one sentence; empty if it is legal.
  std::string why_illegal(Move m) const;

  // Every move and action played, as text, in order.
  const std::vector<std::string>& history() const;
  // Number of times the current position has occurred in this game.
  int occurrences() const;

 private:
  friend struct detail::Access;  // the library's own modules (search, perft) read the line
  struct Impl;
  const Impl& impl() const { return *impl_; }
  std::unique_ptr<Impl> impl_;
};

}  // namespace koma
