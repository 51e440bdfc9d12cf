#include "elimination.hpp"

#include "state_ops.hpp"

namespace koma::detail {

void eliminate_seat(const VariantData& v, State& s, int seat, EliminationCause cause, int mater) {
  const Rules& r = v.rules;
  mark_eliminated(v, s, seat);
  if (cause != EliminationCause::royal_captured && r.elimination.king == KingOnElim::overturn &&
      s.royal[seat] >= 0) {
    int sq = s.royal[seat];
    remove_piece(v, s, sq);
    put_piece(v, s, sq, kOverturned, seat);
  }
  if (mater >= 0 && cause == EliminationCause::checkmate) {
    ++s.mates_made[mater];
    s.last_mate[mater] = s.eliminated_count;  // mates are ordered even within one move
    s.mated_by[seat] = static_cast<std::int8_t>(mater);
  }
  if (r.elimination.pieces == PiecesOnElim::to_mater && mater >= 0) {
    SquareSet pieces = s.owned[seat];
    pieces.each([&](int sq) {
      std::uint8_t code = s.cells[sq].code;
      remove_piece(v, s, sq);
      put_piece(v, s, sq, code, mater);
    });
  }
  int nk = static_cast<int>(v.kinds.size());
  switch (r.elimination.hand) {
    case HandOnElim::frozen:
      s.hand_frozen[seat] = 1;
      break;
    case HandOnElim::removed:
      for (int k = 0; k < nk; ++k) add_to_hand(v, s, seat, k, -s.hand[seat][k]);
      break;
    case HandOnElim::to_mater:
      for (int k = 0; k < nk; ++k) {
        int n = s.hand[seat][k];
        if (!n) continue;
        if (mater >= 0)
          add_to_hand(v, s, mater, k, n);
        else
          s.hand_frozen[seat] = 1;
        if (mater >= 0) add_to_hand(v, s, seat, k, -n);
      }
      break;
  }
}

}  // namespace koma::detail
