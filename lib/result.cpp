#include "koma/result.hpp"

#include <array>

namespace koma {
namespace {
constexpr std::array<std::string_view, kReasonCount> kNames = {
    "none",           "checkmate", "no_legal_move",      "last_seat_standing", "two_mates",
    "team_checkmate", "all_kings", "repetition",         "perpetual_check",    "impasse",
    "declaration",    "try",       "max_plies",          "resignation",        "no_seat_can_move",
    "adjudicated",    "checks",    "last_team_standing", "drop_mate",          "bare_king",
    "lone_royals"};
static_assert(kNames.back() == "lone_royals" &&
              static_cast<int>(Reason::lone_royals) == kReasonCount - 1);
}  // namespace

std::string_view reason_name(Reason r) {
  const auto i = static_cast<std::size_t>(r);
  return i < kNames.size() ? kNames[i] : "unknown";
}

Reason reason_from_name(std::string_view word) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == word) return static_cast<Reason>(i);
  return Reason::none;
}

}  // namespace koma
