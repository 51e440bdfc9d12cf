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
}  // namespace

int piece_value(const VariantData& v, int kind) {
  int val = v.kinds[kind].value;
  return 100 * (val > 0 ? val : 1);
}

int standing(const VariantData& v, const State& s, int seat) {
  if (!s.active(seat)) return -50000;
  int score = 0;
  int king = s.royal[seat];
  int kx = king >= 0 ? king % v.width : 0, ky = king >= 0 ? king / v.width : 0;
  // Enemy kings the pieces are drawn to (a mate needs attackers near the
  // king: on a 15x15 board a purely material player never gets there).
  std::array<int, kMaxSeats> target_x{}, target_y{};
  int targets = 0;
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat && s.active(o) && v.enemies(seat, o) && s.royal[o] >= 0) {
      target_x[targets] = s.royal[o] % v.width;
      target_y[targets++] = s.royal[o] / v.width;
    }
  s.owned[seat].each([&](int sq) {
    std::uint8_t code = s.cells[sq].code;
    int kind = kind_of(code);
    if (!v.kinds[kind].royal) {
      score += piece_value(v, kind);
      int near = kTropismReach;
      for (int t = 0; t < targets; ++t)
        near = std::min(near, std::max(std::abs(sq % v.width - target_x[t]),
                                       std::abs(sq / v.width - target_y[t])));
      score += kTropism * (kTropismReach - near);
    }
    // Mobility of pieces that ride: every empty square they reach.
    const std::uint8_t* p = &v.rays[v.ray_at[static_cast<std::size_t>(code) * v.nsq + sq]];
    int nrays = *p++;
    for (int r = 0; r < nrays; ++r) {
      int len = *p++;
      if (len > 1)
        for (int i = 0; i < len && s.cells[p[i]].code == kEmpty; ++i) score += 3;
      p += len;
    }
    if (king >= 0 && sq != king && std::abs(sq % v.width - kx) <= 1 &&
        std::abs(sq / v.width - ky) <= 1)
      score += 25;  // king guard
  });
  if (!s.hand_frozen[seat])
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      score += s.hand[seat][k] * piece_value(v, static_cast<int>(k)) * 11 / 10;
  if (king >= 0) {
    // Enemy pieces near the king.
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        int x = kx + dx, y = ky + dy;
        if (x < 0 || y < 0 || x >= v.width || y >= v.height) continue;
        Cell c = s.cells[y * v.width + x];
        if (is_piece(c.code) && s.active(c.owner) && v.enemies(seat, c.owner)) score -= 30;
      }
  }
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
