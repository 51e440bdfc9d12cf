#include "evaluation.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "movegen.hpp"

namespace koma::detail {
namespace {
// Centi-pawns a piece gains per step closer to the nearest enemy king, within
// this many steps (Chebyshev distance).
constexpr int kTropism = 5;
constexpr int kTropismReach = 6;
constexpr int kMobility = 3;         // per empty square a riding piece reaches
constexpr int kGuard = 25;           // per own piece next to the own king
constexpr int kDangerCap = 60;       // two seats: king_danger's most, before squaring
constexpr int kDangerPercent = 300;  // two seats: king_danger's square counts at this percentage
constexpr int kReach = 8;            // two seats: per square a piece attacks, not its own
constexpr int kOut = -50000;         // the standing of a seat out of the game
constexpr int kEliminated = 20000;   // per opponent out of the game
constexpr int kCheckmated = 15000;   // per opponent checkmated, not yet taken

// The weights of a standing's terms that differ between a duel and more
// seats: with one enemy king, a drop and an attacker near it decide more than
// among three (docs/ai.md#evaluation: 0.16 -> 0.25 against Fairy-Stockfish).
struct StandingWeights {
  int hand_percent;  // a piece in hand, against the same piece on the board
  int crowd;         // per enemy piece within two squares of the own king
};
constexpr StandingWeights kAmongMany{110, 30};
constexpr StandingWeights kInDuel{130, 90};

// How many pieces of each seat attack each square (royals aside), and how
// many squares not its own each seat's pieces attack in all.
struct AttackCounts {
  std::array<std::array<std::uint8_t, kMaxSquares>, kMaxSeats> on;
  std::array<int, kMaxSeats> reach;
};

// The empty squares the piece `code` on `sq` reaches along its rays longer
// than a step; `seen(q)` is told the squares whose cells decide it (each
// such ray up to and including its first occupied cell).
template <class Seen>
int ride_mobility(const VariantData& v, const State& s, std::uint8_t code, int sq, Seen&& seen) {
  const std::uint8_t* p = rays_of(v, code, sq);
  const int nrays = ray_count(*p++);
  int mobility = 0;
  for (int r = 0; r < nrays; ++r) {
    const int len = *p++;
    if (len > 1)
      for (int i = 0; i < len; ++i) {
        seen(p[i]);
        if (s.cells[p[i]].code != kEmpty) break;
        ++mobility;
      }
    p += len;
  }
  return mobility;
}

// One walk along the rays of the piece `code` of `seat` on `sq`: returns
// the empty squares it reaches along its rays longer than a step (its
// mobility, counted for riders), and with `attacks` counts the squares it
// attacks (along each ray up to and including the first occupied cell).
int walk_piece(const VariantData& v, const State& s, int seat, std::uint8_t code, int sq,
               AttackCounts* attacks) {
  if (!attacks) return ride_mobility(v, s, code, sq, [](int) {});
  const std::uint8_t* p = rays_of(v, code, sq);
  const int nrays = ray_count(*p++);
  int mobility = 0;
  auto& row = attacks->on[static_cast<std::size_t>(seat)];
  int reach = 0;
  auto count = [&](int t) {
    const Cell c = s.cells[t];
    ++row[static_cast<std::size_t>(t)];
    reach += !is_piece(c.code) || c.owner != seat;
    return c.code != kEmpty;
  };
  if (!v.rides[code]) {
    // A leaper: each ray is a step or none, and nothing blocks it.
    for (int r = 0; r < nrays; ++r) {
      const int len = *p++;
      if (len) count(*p);
      p += len;
    }
    attacks->reach[static_cast<std::size_t>(seat)] += reach;
    return 0;
  }
  for (int r = 0; r < nrays; ++r) {
    const int len = *p++;
    for (int i = 0; i < len; ++i) {
      if (count(p[i])) break;
      mobility += len > 1;
    }
    p += len;
  }
  attacks->reach[static_cast<std::size_t>(seat)] += reach;
  return mobility;
}

// The seat's pieces in hand at their values (none while its hand is frozen),
// leaving out the kind `skip` (-1: none).
int hand_worth(const VariantData& v, const State& s, int seat, int skip) {
  if (s.hand_frozen[seat]) return 0;
  int worth = 0;
  for (int k = 0; k < static_cast<int>(v.kinds.size()); ++k)
    if (k != skip) worth += s.hand[seat][static_cast<std::size_t>(k)] * piece_value(v, k);
  return worth;
}

// Enemy pieces within two king steps of the square `king`.
int crowding(const VariantData& v, const State& s, int seat, int king) {
  SquareSet enemies{};
  const unsigned attackers = v.attackers_of(s, seat);
  for (int o = 0; o < v.nseats; ++o)
    if ((attackers >> o) & 1u) enemies |= s.owned[o];
  return (enemies & v.near2[static_cast<std::size_t>(king)]).count();
}

// Danger to the king of `seat` from its one opponent `them`, in centi-pawns:
// the opponent's attacks on the king's square and the squares next to it
// (double where no piece of the seat guards the square), 3 for each kind in
// the opponent's hand that could be dropped to check from a square the seat
// cannot take back on, and 1 for each piece in that hand (up to 10);
// squared, so that one attacker is nothing and a swarm decides the game
// (up to kDangerCap squared, times 3: far below a won score).
int king_danger(const VariantData& v, const State& s, int seat, int them,
                const AttackCounts& attacks) {
  const int king = s.royal[seat];
  if (king < 0) return 0;
  const auto& theirs = attacks.on[static_cast<std::size_t>(them)];
  const auto& ours = attacks.on[static_cast<std::size_t>(seat)];
  const std::uint8_t* steps = v.steps_from(king);
  int danger = 0;
  v.near2[static_cast<std::size_t>(king)].each([&](int sq) {
    if (steps[sq] <= 1 && theirs[sq]) danger += theirs[sq] * (ours[sq] ? 1 : 2);
  });
  int held = 0;
  if (!s.hand_frozen[them] && v.rules.drops.enabled) {
    const int facing = v.seat_facing[seat];
    const int their_facing = v.seat_facing[them];
    for (int k = 0; k < static_cast<int>(v.kinds.size()); ++k) {
      const int n = s.hand[them][static_cast<std::size_t>(k)];
      if (!n) continue;
      held += n;
      // A piece of kind k that `them` drops on q checks the king when the
      // seat's own piece of that kind on the king's square would reach q
      // (the moves mirror with the facing; exact for opposite facings). The
      // drop is safe where no piece of the seat guards q and the king cannot
      // take it (q is not next to it, or `them` guards q).
      const bool safe_check = any_attacked(v, s, code_of(k, facing), king, [&](int q) {
        return s.cells[q].code == kEmpty && !ours[q] && !v.dead[code_of(k, their_facing)].test(q) &&
               (steps[q] > 1 || theirs[q]);
      });
      if (safe_check) danger += 3;
    }
  }
  danger = std::min(danger + std::min(held, 10), kDangerCap);
  return danger * danger * kDangerPercent / 100;
}

// Two seats: the terms read from both seats' attacks, from `seat`'s view
// against `them`: the squares their pieces attack, and their kings' danger.
// Four seats do without (their evaluation was tuned and measured before
// these terms; docs/ai.md#evaluation).
int duel(const VariantData& v, const State& s, int seat, int them, const AttackCounts& attacks) {
  return kReach * (attacks.reach[static_cast<std::size_t>(seat)] -
                   attacks.reach[static_cast<std::size_t>(them)]) -
         king_danger(v, s, seat, them, attacks) + king_danger(v, s, them, seat, attacks);
}

// A seat still in, checkmated, or out of the game. Where a checkmated king
// stays on the board until an attacker takes it (kings.capture:
// when_checkmated), a checkmated seat is lost already though still in; it
// counts a little less than one taken out, so that someone takes it.
enum class Status { in, checkmated, out };

Status status_of(const VariantData& v, const State& s, int seat, KnownChecks checks) {
  if (!s.active(seat)) return Status::out;
  if (v.rules.kings.capture == RoyalCapture::when_checkmated && s.royal[seat] >= 0 &&
      checks.maybe(seat) && is_checkmated(v, s, seat))
    return Status::checkmated;
  return Status::in;
}

// What a seat's pieces are drawn to and guard: the king-steps rows of its
// targets (enemy kings; where the game is won by collecting a kind,
// end.collect, its enemy pieces on the board, the first eight: a mate needs
// attackers near the king, and on a 15x15 board a purely material player
// never gets there) and of its own king.
struct Aims {
  // Filled up to ntargets (left unset beyond: an update asks for many).
  std::array<const std::uint8_t*, 8> rows;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  int ntargets = 0;
  const std::uint8_t* guarded = nullptr;
};

Aims aims_of(const VariantData& v, const State& s, int seat) {
  Aims a;
  const int collect = v.rules.end.collect;
  const unsigned attackers = v.attackers_of(s, seat);
  for (int o = 0; o < v.nseats; ++o) {
    if (!((attackers >> o) & 1u)) continue;
    if (collect >= 0)
      s.owned[o].each([&](int sq) {
        if (a.ntargets < static_cast<int>(a.rows.size()) &&
            v.base_kind(kind_of(s.cells[sq].code)) == collect)
          a.rows[static_cast<std::size_t>(a.ntargets++)] = v.steps_from(sq);
      });
    else if (s.royal[o] >= 0)
      a.rows[static_cast<std::size_t>(a.ntargets++)] = v.steps_from(s.royal[o]);
  }
  if (s.royal[seat] >= 0) a.guarded = v.steps_from(s.royal[seat]);
  return a;
}

// A piece of kind `kind` (not royal) on `sq`: its value, what it gains
// nearer the targets, and the guard it gives its own king.
int placed_worth(const VariantData& v, const Aims& a, int kind, int sq) {
  int near = kTropismReach;
  for (int t = 0; t < a.ntargets; ++t)
    near = std::min<int>(near, a.rows[static_cast<std::size_t>(t)][sq]);
  int worth = piece_value(v, kind) + kTropism * (kTropismReach - near);
  if (a.guarded && a.guarded[sq] <= 1) worth += kGuard;
  return worth;
}

// A piece of the collected kind counts nothing in hand: there it can be
// neither taken nor used, and a seat that keeps one back makes the game
// unwinnable for every seat (docs/ai.md: before this and the targets of
// aims_of, 77 of 100 games between strong seats of shipley-kings reached
// the ply limit; with both, 1).
int hand_term(const VariantData& v, const State& s, int seat, const StandingWeights& w) {
  return hand_worth(v, s, seat, v.rules.end.collect) * w.hand_percent / 100;
}

int crowd_term(const VariantData& v, const State& s, int seat, const StandingWeights& w) {
  const int king = s.royal[seat];
  return king >= 0 ? w.crowd * crowding(v, s, seat, king) : 0;
}

// The seat's own standing (higher is better), not relative to others. With
// `attacks`, the same walk along its pieces' rays counts their attacks.
int standing(const VariantData& v, const State& s, int seat, const StandingWeights& w,
             AttackCounts* attacks) {
  if (!s.active(seat)) return kOut;
  if (attacks) {
    std::fill_n(attacks->on[static_cast<std::size_t>(seat)].begin(), v.nsq, 0);
    attacks->reach[static_cast<std::size_t>(seat)] = 0;
  }
  const Aims aims = aims_of(v, s, seat);
  int score = 0;
  s.owned[seat].each([&](int sq) {
    const std::uint8_t code = s.cells[sq].code;
    const int kind = kind_of(code);
    const bool royal = v.kinds[kind].royal;
    if (!royal) score += placed_worth(v, aims, kind, sq);
    // Mobility counts for riders only (a leaper's rays are one step).
    AttackCounts* counted = royal ? nullptr : attacks;
    if (counted || v.rides[code]) score += kMobility * walk_piece(v, s, seat, code, sq, counted);
  });
  return score + hand_term(v, s, seat, w) - crowd_term(v, s, seat, w);
}

// The cells two states differ in, compared four at a time: up to eight
// listed (`many` where there are more).
struct Changes {
  std::array<std::int16_t, 8> sq{};
  int n = 0;
  bool many = false;
};

Changes changed_cells(const VariantData& v, const State& a, const State& b) {
  static_assert(sizeof(Cell) == 2 && kMaxSquares % 4 == 0);
  Changes c;
  for (int sq = 0; sq < v.nsq; sq += 4) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, &a.cells[static_cast<std::size_t>(sq)], sizeof x);
    std::memcpy(&y, &b.cells[static_cast<std::size_t>(sq)], sizeof y);
    if (x == y) continue;
    for (int q = sq; q < std::min(sq + 4, v.nsq); ++q) {
      if (a.cells[q] == b.cells[q]) continue;
      if (c.n == static_cast<int>(c.sq.size())) {
        c.many = true;
        return c;
      }
      c.sq[static_cast<std::size_t>(c.n++)] = static_cast<std::int16_t>(q);
    }
  }
  return c;
}

// Whether a state's standings can be read from another's cell by cell:
// the same seats in the game, the same frozen hands, and aims that are
// kings, not pieces (end.collect). Where a king moved, the pieces' worth is
// counted anew (it reads the kings' squares), but not the rest.
bool same_seats(const VariantData& v, const State& a, const State& b) {
  return v.rules.end.collect < 0 && a.eliminated_mask == b.eliminated_mask &&
         a.hand_frozen == b.hand_frozen;
}

// The worth of a seat's pieces on the board but its royals (placed_worth).
int placed_of(const VariantData& v, const State& s, int seat) {
  const Aims aims = aims_of(v, s, seat);
  int placed = 0;
  s.owned[seat].each([&](int sq) {
    const int kind = kind_of(s.cells[sq].code);
    if (!v.kinds[kind].royal) placed += placed_worth(v, aims, kind, sq);
  });
  return placed;
}

}  // namespace

void Standings::compute(const VariantData& v, const State& s) {
  for (int o = 0; o < v.nseats; ++o) {
    Seat& seat = seats_[static_cast<std::size_t>(o)];
    seat = Seat{};
    if (!s.active(o)) continue;
    seat.placed = placed_of(v, s, o);
    s.owned[o].each([&](int sq) {
      if (!v.rides[s.cells[sq].code]) return;
      seat.riders.set(sq);
      seat.mobility += walk_rider(v, s, seat, sq);
    });
    seat.hand = hand_term(v, s, o, kAmongMany);
    seat.crowd = crowd_term(v, s, o, kAmongMany);
  }
  total(v, s);
}

void Standings::update(const VariantData& v, const Standings& before, const State& was,
                       const State& s) {
  const Changes changed = same_seats(v, was, s) ? changed_cells(v, was, s) : Changes{{}, 0, true};
  if (changed.many) {
    compute(v, s);
    return;
  }
  // The riders' mobility of the board's squares only (on 9x9 a third of
  // the kMaxSquares the copy of the whole took).
  seats_ = before.seats_;
  total_ = before.total_;
  std::copy_n(before.rides_.begin(), v.nsq, rides_.begin());
  const bool kings_kept = was.royal == s.royal;
  // A piece's worth reads its seat's aims: found once a seat needs them
  // (the seats with a bit in `found`).
  std::array<Aims, kMaxSeats> aims;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  unsigned found = 0;
  // The piece of `t` on `q` leaves (sign -1) or comes (+1).
  const auto place = [&](const State& t, int q, int sign) {
    const Cell c = t.cells[q];
    if (!is_piece(c.code) || !s.active(c.owner)) return;
    Seat& seat = seats_[c.owner];
    const int kind = kind_of(c.code);
    if (kings_kept && !v.kinds[kind].royal) {
      if (!((found >> c.owner) & 1u)) {
        aims[c.owner] = aims_of(v, s, c.owner);
        found |= 1u << c.owner;
      }
      seat.placed += sign * placed_worth(v, aims[c.owner], kind, q);
    }
    if (!v.rides[c.code]) return;
    if (sign > 0) {
      seat.riders.set(q);
      seat.mobility += walk_rider(v, s, seat, q);
    } else {
      seat.riders.reset(q);
      seat.mobility -= rides_[static_cast<std::size_t>(q)];
    }
  };
  SquareSet cells{};
  for (int i = 0; i < changed.n; ++i) cells.set(changed.sq[static_cast<std::size_t>(i)]);
  // A rider that stays is walked again where a cell its walk read changed:
  // for a seat that read one, its riders with a changed cell on their rays.
  for (int o = 0; o < v.nseats; ++o) {
    Seat& seat = seats_[static_cast<std::size_t>(o)];
    if (!s.active(o) || !(seat.seen & cells).any()) continue;
    seat.riders.each([&](int sq) {
      const std::uint8_t code = s.cells[sq].code;
      if (cells.test(sq) ||
          !(v.reach_from[static_cast<std::size_t>(code) * v.nsq + sq] & cells).any())
        return;
      const int was_mobility = rides_[static_cast<std::size_t>(sq)];
      seat.mobility += walk_rider(v, s, seat, sq) - was_mobility;
    });
  }
  unsigned crowded = 0;  // seats whose king has a changed cell near it
  for (int i = 0; i < changed.n; ++i) {
    const int q = changed.sq[static_cast<std::size_t>(i)];
    place(was, q, -1);
    place(s, q, +1);
    for (int o = 0; o < v.nseats; ++o)
      if (s.royal[o] >= 0 && v.near2[static_cast<std::size_t>(s.royal[o])].test(q))
        crowded |= 1u << o;
  }
  for (int o = 0; o < v.nseats; ++o) {
    if (!s.active(o)) continue;
    Seat& seat = seats_[static_cast<std::size_t>(o)];
    if (s.hand[o] != was.hand[o]) seat.hand = hand_term(v, s, o, kAmongMany);
    if (!kings_kept) seat.placed = placed_of(v, s, o);
    if (!kings_kept || ((crowded >> o) & 1u)) seat.crowd = crowd_term(v, s, o, kAmongMany);
  }
  total(v, s);
}

int Standings::walk_rider(const VariantData& v, const State& s, Seat& seat, int sq) {
  const int mobility = ride_mobility(v, s, s.cells[sq].code, sq, [&](int q) { seat.seen.set(q); });
  rides_[static_cast<std::size_t>(sq)] = static_cast<std::uint16_t>(mobility);
  return mobility;
}

// Each seat's sum of its parts.
void Standings::total(const VariantData& v, const State& s) {
  for (int o = 0; o < v.nseats; ++o) {
    const Seat& seat = seats_[static_cast<std::size_t>(o)];
    total_[static_cast<std::size_t>(o)] =
        s.active(o) ? seat.placed + kMobility * seat.mobility + seat.hand - seat.crowd : kOut;
  }
}

int evaluate(const VariantData& v, const State& s, int seat, KnownChecks checks,
             const Standings* standings) {
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
  const bool in = status_of(v, s, seat, checks) == Status::in;
  // Against the average of the opponents still in the game, so that with one
  // opponent left its standing weighs as much as the seat's own; each one
  // out counts a fixed kEliminated, so taking a seat out always pays.
  std::array<bool, kMaxSeats> opponent_in{};
  int active = 0, beaten = 0;
  for (int o = 0; o < v.nseats; ++o) {
    if (o == seat || !v.enemies(seat, o)) continue;
    const Status st = status_of(v, s, o, checks);
    opponent_in[static_cast<std::size_t>(o)] = st == Status::in;
    if (st == Status::in)
      ++active;
    else
      beaten += st == Status::out ? kEliminated : kCheckmated;
  }
  const bool duelling = v.nseats == 2 && active == 1 && in;
  const StandingWeights& w = duelling ? kInDuel : kAmongMany;
  AttackCounts attacks;  // NOLINT(cppcoreguidelines-pro-type-member-init): standing fills it
  AttackCounts* counts = duelling ? &attacks : nullptr;
  // Among many seats the kept standings, where given, are the standings.
  const Standings* kept = duelling ? nullptr : standings;
#ifdef KOMA_SELF_CHECK
  for (int o = 0; kept && o < v.nseats; ++o)
    if (kept->of(o) != standing(v, s, o, w, nullptr)) {
      std::fprintf(stderr, "koma: kept standing of seat %d is %d, from scratch %d\n", o,
                   kept->of(o), standing(v, s, o, w, nullptr));
      std::abort();
    }
#endif
  const auto standing_of = [&](int o, AttackCounts* attacks) {
    return kept ? kept->of(o) : standing(v, s, o, w, attacks);
  };
  int own = in ? standing_of(seat, counts) : kOut;
  long others = 0;
  for (int o = 0; o < v.nseats; ++o)
    if (opponent_in[static_cast<std::size_t>(o)]) others += standing_of(o, counts);
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat && !v.enemies(seat, o))
      own = (own + standing_of(o, nullptr)) / 2;  // a partner's standing counts
  if (duelling) own += duel(v, s, seat, 1 - seat, attacks);
  return own + beaten - (active ? static_cast<int>(others / active) : 0);
}

}  // namespace koma::detail
