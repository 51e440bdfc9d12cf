#include "evaluation.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace koma::detail {
namespace {
// Centi-pawns a piece gains per step closer to the nearest enemy king, within
// this many steps (Chebyshev distance).
constexpr int kTropism = 5;
constexpr int kTropismReach = 6;
constexpr int kMobility = 3;  // per empty square a riding piece reaches
constexpr int kGuard = 25;    // per own piece next to the own king
constexpr int kCrowd = 30;    // per enemy piece within two squares of the own king

// Empty squares the riding piece `code` on `sq` reaches.
int reach(const VariantData& v, const State& s, std::uint8_t code, int sq) {
  const std::uint8_t* p = &v.rays[v.ray_at[static_cast<std::size_t>(code) * v.nsq + sq]];
  int nrays = *p++, n = 0;
  for (int r = 0; r < nrays; ++r) {
    int len = *p++;
    if (len > 1)
      for (int i = 0; i < len && s.cells[p[i]].code == kEmpty; ++i) ++n;
    p += len;
  }
  return n;
}

// Enemy pieces within two king steps of the square `king`.
int crowding(const VariantData& v, const State& s, int seat, int king) {
  const int kx = v.col[king], ky = v.row[king];
  int n = 0;
  for (int y = std::max(ky - 2, 0); y <= std::min(ky + 2, v.height - 1); ++y)
    for (int x = std::max(kx - 2, 0); x <= std::min(kx + 2, v.width - 1); ++x) {
      Cell c = s.cells[y * v.width + x];
      n += is_piece(c.code) && s.active(c.owner) && v.enemies(seat, c.owner);
    }
  return n;
}

}  // namespace

int standing(const VariantData& v, const State& s, int seat) {
  if (!s.active(seat)) return -50000;
  const int king = s.royal[seat];
  // Enemy kings the pieces are drawn to (a mate needs attackers near the
  // king: on a 15x15 board a purely material player never gets there).
  std::array<int, kMaxSeats> targets{};
  int ntargets = 0;
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat && s.active(o) && v.enemies(seat, o) && s.royal[o] >= 0)
      targets[ntargets++] = s.royal[o];
  int score = 0;
  s.owned[seat].each([&](int sq) {
    const std::uint8_t code = s.cells[sq].code;
    const int kind = kind_of(code);
    if (!v.kinds[kind].royal) {
      score += piece_value(v, kind);
      int near = kTropismReach;
      for (int t = 0; t < ntargets; ++t) near = std::min(near, v.king_steps(sq, targets[t]));
      score += kTropism * (kTropismReach - near);
      if (king >= 0 && v.king_steps(sq, king) <= 1) score += kGuard;
    }
    if (v.rides[code]) score += kMobility * reach(v, s, code, sq);
  });
  if (!s.hand_frozen[seat])
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      if (int n = s.hand[seat][k]) score += n * piece_value(v, static_cast<int>(k)) * 11 / 10;
  if (king >= 0) score -= kCrowd * crowding(v, s, seat, king);
  return score;
}

int evaluate(const VariantData& v, const State& s, int seat) {
  if (s.outcome == Outcome::finished) {
    // By place against the others' average: a win is kWin, a loss -kWin and
    // a shared place (a draw) 0 — not a win, which a search would seek.
    if (v.nseats <= 1) return 0;
    int others = 0;
    for (int o = 0; o < v.nseats; ++o)
      if (o != seat) others += s.places[o];
    const long long rest = v.nseats - 1;
    return static_cast<int>(kWin * (others - rest * s.places[seat]) / (rest * rest));
  }
  int own = standing(v, s, seat);
  long others = 0;
  int n = 0;
  for (int o = 0; o < v.nseats; ++o) {
    if (o == seat || !v.enemies(seat, o)) continue;
    others += standing(v, s, o);
    ++n;
  }
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat && !v.enemies(seat, o))
      own = (own + standing(v, s, o)) / 2;  // a partner's standing counts
  return n ? own - static_cast<int>(others / n) : own;
}

}  // namespace koma::detail
