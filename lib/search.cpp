// What the searches share (search.hpp): move ordering and its hints.
#include <algorithm>
#include <functional>

#include "search.hpp"

namespace koma::detail {

void MoveHints::refuted_by(Move m, int ply, int depth) {
  if (ply < 0 || ply >= kPlies) return;
  auto& k = killers[static_cast<std::size_t>(ply)];
  if (k[0] != m) {
    k[1] = k[0];
    k[0] = m;
  }
  std::uint32_t& h = history[MoveHints::history_index(m)];
  h = std::min<std::uint32_t>(h + static_cast<std::uint32_t>(depth * depth), 1u << 18);
}

std::uint64_t order_key(const VariantData& v, const State& s, Move m, Move first,
                        const MoveHints* hints, int ply) {
  if (m == first) return 1u << 30;
  if (int victim = captured_value(v, s, m); victim > 0) {
    int attacker = piece_value(v, kind_of(s.cells[m.from].code));
    return (1u << 28) + static_cast<std::uint64_t>(victim) * 64 - attacker / 16;
  }
  if (m.promote) return 1u << 27;
  if (!hints) return 0;
  if (ply >= 0 && ply < MoveHints::kPlies) {
    const auto& killers = hints->killers[static_cast<std::size_t>(ply)];
    if (killers[0] == m || killers[1] == m) return (1u << 26) + (killers[0] == m);
  }
  return hints->history[MoveHints::history_index(m)];
}

// Each key is computed once and packed with the move's index, so the sort
// compares integers only.
void order(const VariantData& v, const State& s, MoveList& moves, Move first,
           const MoveHints* hints, int ply) {
  thread_local std::vector<std::uint64_t> keyed;
  thread_local std::vector<Move> copy;
  keyed.clear();
  for (std::size_t i = 0; i < moves.size(); ++i)
    keyed.push_back(order_key(v, s, moves[i], first, hints, ply) << 16 | (0xFFFFu - i));
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  copy.assign(moves.begin(), moves.end());
  for (std::size_t i = 0; i < keyed.size(); ++i) moves[i] = copy[0xFFFFu - (keyed[i] & 0xFFFFu)];
}

}  // namespace koma::detail
