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
  std::uint32_t& h = history[m.from * 256u + m.to];
  h = std::min<std::uint32_t>(h + static_cast<std::uint32_t>(depth * depth), 1u << 18);
}

// Each key is computed once and packed with the move's index, so the sort
// compares integers only.
void order(const VariantData& v, const State& s, MoveList& moves, Move first,
           const MoveHints* hints, int ply) {
  thread_local std::vector<std::uint64_t> keyed;
  thread_local std::vector<Move> copy;
  keyed.clear();
  const std::array<Move, 2>* killers = hints && ply >= 0 && ply < MoveHints::kPlies
                                           ? &hints->killers[static_cast<std::size_t>(ply)]
                                           : nullptr;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    std::uint64_t key = 0;
    if (m == first) {
      key = 1u << 30;
    } else if (int victim = captured_value(v, s, m); victim > 0) {
      int attacker = piece_value(v, kind_of(s.cells[m.from].code));
      key = (1u << 28) + static_cast<std::uint64_t>(victim) * 64 - attacker / 16;
    } else if (m.promote) {
      key = 1u << 27;
    } else if (killers && ((*killers)[0] == m || (*killers)[1] == m)) {
      key = (1u << 26) + ((*killers)[0] == m);
    } else if (hints) {
      key = hints->history[m.from * 256u + m.to];
    }
    keyed.push_back(key << 16 | (0xFFFFu - i));
  }
  std::sort(keyed.begin(), keyed.end(), std::greater<>());
  copy.assign(moves.begin(), moves.end());
  for (std::size_t i = 0; i < keyed.size(); ++i) moves[i] = copy[0xFFFFu - (keyed[i] & 0xFFFFu)];
}

}  // namespace koma::detail
