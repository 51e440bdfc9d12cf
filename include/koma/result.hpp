// How a game ended: a place for every seat and one reason.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace koma {

// The reason words, in the spelling of docs/api.md#result-and-reasons and of game records.
enum class Reason {
  none,
  checkmate,
  no_legal_move,
  last_seat_standing,
  two_mates,
  team_checkmate,
  all_kings,
  repetition,
  perpetual_check,
  impasse,
  declaration,
  try_rule,  // written "try"
  max_plies,
  resignation,
  no_seat_can_move,
  adjudicated,
  checks,              // a seat gave the check that end.checks counts to
  last_team_standing,  // every seat left is on one team (end.last_team_standing)
  drop_mate,           // a drop mated, and its dropper loses (drops.<letter>.mate: loses)
  bare_king,           // a seat's royal was left alone, and it loses (end.bare_king)
  lone_royals,         // only the two royals are left, neither attacked: a draw (end.lone_royals)
};
inline constexpr int kReasonCount = 21;  // none .. lone_royals

std::string_view reason_name(Reason r);
// Parses a reason word; returns Reason::none for an unknown word.
Reason reason_from_name(std::string_view word);

struct Result {
  // places[i] is the place of seat i + 1, as competition ranks: seats that
  // share a place take the same number and the next number is skipped.
  std::vector<int> places;
  Reason reason = Reason::none;
  bool operator==(const Result&) const = default;
};

}  // namespace koma
