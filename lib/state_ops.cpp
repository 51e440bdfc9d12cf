#include "state_ops.hpp"

namespace koma::detail {

std::uint64_t full_key(const VariantData& v, const State& s) {
  std::uint64_t k = v.z_turn[s.to_move];
  for (int sq = 0; sq < v.nsq; ++sq)
    if (s.cells[sq].code != kEmpty && s.cells[sq].code != kVoid)
      k ^= v.cell_key(s.cells[sq].code, s.cells[sq].owner, sq);
  for (int seat = 0; seat < v.nseats; ++seat)
    if (!s.active(seat)) k ^= v.z_elim[seat];
  if (s.strike >= 0) k ^= v.z_strike[static_cast<std::size_t>(s.strike)];
  return k;
}

}  // namespace koma::detail
