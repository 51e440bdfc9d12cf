#include "koma/result.hpp"

#include <array>

namespace koma {
namespace {
constexpr std::array<std::string_view, 16> kNames = {
    "none",           "checkmate", "no_legal_move", "last_seat_standing", "two_mates",
    "team_checkmate", "all_kings", "repetition",    "perpetual_check",    "impasse",
    "declaration",    "try",       "max_plies",     "resignation",        "no_seat_can_move",
    "adjudicated"};
}

std::string_view reason_name(Reason r) {
  return kNames[static_cast<std::size_t>(r)];
}

Reason reason_from_name(std::string_view word) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == word) return static_cast<Reason>(i);
  return Reason::none;
}

}  // namespace koma
