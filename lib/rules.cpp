// The turn pipeline: what happens after a move, in the order of
// docs/descriptor.md#what-happens-after-a-move — eliminations, endings, the next seat, repetition
// and the ply limit, then a seat that cannot move on its turn. Every step is switched by an atom;
// each ending atom is judged by a function of its own. Then the illegal-move explainer.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>

#include "elimination.hpp"
#include "notation.hpp"
#include "rules.hpp"
#include "state_ops.hpp"

namespace koma::detail {
namespace {

// Places from tiers: lower tier is better; competition ranks.
void finish(State& s, int nseats, const std::array<int, kMaxSeats>& tier, Reason reason) {
  s.outcome = Outcome::finished;
  s.reason = static_cast<std::uint8_t>(reason);
  for (int a = 0; a < nseats; ++a) {
    int better = 0;
    for (int b = 0; b < nseats; ++b)
      if (tier[b] < tier[a]) ++better;
    s.places[a] = static_cast<std::uint8_t>(1 + better);
  }
}

// Eliminated seats rank by elimination order, the first eliminated last.
// Survivors share the best tier, or (places: score) are compared by mates
// made, then total pieces, then the later last mate.
std::array<int, kMaxSeats> survivor_tiers(const VariantData& v, const State& s) {
  std::array<int, kMaxSeats> tier{};
  for (int i = 0; i < s.eliminated_count; ++i) tier[s.elimination_order[i]] = v.nseats - i;
  if (v.rules.places != Places::score) return tier;
  auto key = [&](int seat) {
    Score sc = score_of(v, s, seat);
    return std::array<long, 3>{-sc.mates, -sc.pieces, -static_cast<long>(sc.last_mate)};
  };
  for (int a = 0; a < v.nseats; ++a) {
    if (!s.active(a)) continue;
    int better = 0;
    for (int b = 0; b < v.nseats; ++b)
      if (s.active(b) && key(b) < key(a)) ++better;
    tier[a] = better;
  }
  return tier;
}

std::array<int, kMaxSeats> loser_tiers(const VariantData& v, const State& s, unsigned losers) {
  auto tier = survivor_tiers(v, s);
  for (int seat = 0; seat < v.nseats; ++seat)
    if (s.active(seat) && ((losers >> seat) & 1u)) tier[seat] = 1;
  return tier;
}

void finish_draw(const VariantData& v, State& s, Reason reason) {
  finish(s, v.nseats, survivor_tiers(v, s), reason);
}

int active_count(const VariantData& v, const State& s) {
  return v.nseats - s.eliminated_count;
}

int seat_after(const VariantData& v, int seat, int steps) {
  return v.turn_after[static_cast<std::size_t>(seat)][static_cast<std::size_t>(steps)];
}

// Which seats are in check in one state, each asked of attacked_by once:
// the steps after a move ask it of the same state several times (whether
// the move checked, the mate scan, check priority). forget() after a change
// that moves attacks (an elimination).
class SeatChecks {
 public:
  SeatChecks() = default;
  // Before `m` is played in `before` (known to have `known` in check): what
  // stays true after it. A seat other than the mover whose royal stays
  // where it was, and from whose square no piece could reach either square
  // of the move whatever stands between (VariantData::reach_to), is in
  // check after it exactly when it was before; one in the game that was
  // not in check (where the variant has check) is after it where the moved
  // piece or a line the move opens attacks its royal (move_checks) — unless
  // the move takes a royal and so puts a seat out (board_move forgets it all
  // then). The mover is not in check after it: a legal move never leaves
  // its own royal attacked. Where pieces borrow, a move changes what the
  // pieces in front of its squares attack, however far: nothing is kept.
  SeatChecks(const VariantData& v, const State& before, KnownChecks known, Move m) {
    k_.learn(before.to_move, false);
    if (!known.known || v.borrows) return;
    for (int seat = 0; seat < v.nseats; ++seat) {
      const int king = before.royal[seat];
      if (!known.knows(seat) || seat == before.to_move || king < 0 || m.to == king) continue;
      const SquareSet& reach = v.reach_to[static_cast<std::size_t>(king)];
      if (!reach.test(m.to) && (m.is_drop() || !reach.test(m.from))) {
        k_.learn(seat, known.has_check(seat));
      } else if (!known.has_check(seat) && v.rules.check.enabled && before.active(seat)) {
        const Checks c = move_checks(v, before, m, king, v.attackers_of(before, seat));
        if (c != Checks::unsure) k_.learn(seat, c == Checks::yes);
      }
    }
  }
  bool operator()(const VariantData& v, const State& s, int seat) {
    if (!k_.knows(seat)) k_.learn(seat, in_check(v, s, seat));
    self_check(v, s, k_);
    return k_.has_check(seat);
  }
  // Whether `seat` has a legal move in `s` (the quicker test where it is
  // not in check).
  bool can_move(const VariantData& v, const State& s, int seat) {
    return (*this)(v, s, seat) ? has_legal_move(v, s, seat) : has_legal_move_unchecked(v, s, seat);
  }
  void forget() { k_ = {}; }
  KnownChecks known() const { return k_; }

 private:
  KnownChecks k_;
};

// Did the mover leave an active enemy royal attacked by its own pieces?
// Only a seat in check can be (the mover is one of its attackers).
bool gives_check(const VariantData& v, const State& s, int mover, SeatChecks& checks) {
  if (!v.rules.check.enabled || !s.active(mover)) return false;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (seat != mover && s.active(seat) && v.enemies(seat, mover) && s.royal[seat] >= 0 &&
        checks(v, s, seat) && attacked_by(v, s, s.royal[seat], 1u << mover))
      return true;
  return false;
}

int impasse_points(const VariantData& v, const State& s, int seat, const SquareSet* only_in) {
  int pts = 0;
  s.owned[seat].each([&](int sq) {
    int kind = kind_of(s.cells[sq].code);
    if (v.kinds[kind].royal || (only_in && !only_in->test(sq))) return;
    pts += v.rules.end.impasse.points[v.base_kind(kind)];
  });
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    pts += s.hand[seat][k] * v.rules.end.impasse.points[k];
  return pts;
}

// Scans the seats after `mover` in turn order (never the mover) for mated ones, eliminating each
// as checkmated, credited to the mover (whose move mated it, even a partner's mate in doubles),
// and scanning again after every elimination. Returns whether it eliminated any seat.
bool scan_mates(const VariantData& v, State& s, int mover, SeatChecks& checks) {
  bool any = false;
  for (bool again = true; again;) {
    again = false;
    for (int i = 1; i < v.nseats; ++i) {
      int seat = seat_after(v, mover, i);
      if (seat == mover || !s.active(seat)) continue;
      if (checks(v, s, seat) && !has_legal_move(v, s, seat)) {
        eliminate_seat(v, s, seat, EliminationCause::checkmate, mover);
        checks.forget();
        any = again = true;
        break;
      }
    }
  }
  return any;
}

// Who mated `seat`: the most recent mover among its checkers; else the most
// recent mover among the other active seats.
int mater_of(const VariantData& v, const State& s, int seat) {
  int best = -1;
  auto consider = [&](int o) {
    if (best < 0 || s.last_moved[o] > s.last_moved[best]) best = o;
  };
  if (in_check(v, s, seat)) {
    for (int o = 0; o < v.nseats; ++o)
      if (o != seat && s.active(o) && v.enemies(seat, o) &&
          attacked_by(v, s, s.royal[seat], 1u << o))
        consider(o);
    if (best >= 0) return best;
  }
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat && s.active(o)) consider(o);
  return best;
}

// Next seat after `mover`: a checked seat first where check has priority,
// else the next active seat; with passing, the next that can move.
// Returns false if no seat can move (passing variants).
bool choose_next(const VariantData& v, State& s, int mover, SeatChecks& checks,
                 bool passes = true) {
  // A seat without a legal move is skipped where the variant says it passes,
  // by the check-priority choice and the turn order alike.
  auto may_move = [&](int seat) {
    if (!s.active(seat) || !passes || v.rules.no_legal_move != NoMove::pass) return s.active(seat);
    return checks.can_move(v, s, seat);
  };
  if (v.rules.check.priority)
    for (int i = 1; i < v.nseats; ++i) {
      int seat = seat_after(v, mover, i);
      if (s.active(seat) && checks(v, s, seat) && may_move(seat)) {
        set_to_move(v, s, seat);
        return true;
      }
    }
  for (int i = 1; i <= v.nseats; ++i) {
    int seat = seat_after(v, mover, i);
    if (!may_move(seat)) continue;
    set_to_move(v, s, seat);
    return true;
  }
  return false;
}

// The turn being settled: the seat that just moved or went out, how, and
// whose act (a move or an action) the settled state is pushed as.
struct Turn {
  int mover = -1;  // the seat that moved, resigned, or (stuck) was eliminated
  // The seat whose move or action this is: the mover, unless settling
  // resumes after a stuck seat's elimination (then the seat whose move left
  // it stuck). Repetition credits its moves and checks.
  int actor = -1;
  Move move{};
  bool moved = false;       // `move` was just played (not an action or an elimination)
  bool gave_check = false;  // the actor's move checked a seat
  // The cause of the latest elimination (a mate, no legal move, a
  // resignation), or none: end.last_seat_standing: cause reports it.
  Reason cause = Reason::none;
  // A move played unjudged where mate_left_to_walker holds: its mate is not
  // looked for.
  bool mates_left = false;
};

// A finished game's text names the seat that would move next: the next seat
// still in the game (as for a move, without passes), or, where the variant
// says so (two-player SFEN convention), simply the next seat in turn order.
void name_next_seat(const VariantData& v, State& s, int mover) {
  if (v.rules.end.to_move == AfterEnd::next_seat) {
    set_to_move(v, s, seat_after(v, mover, 1));
    return;
  }
  SeatChecks checks;
  choose_next(v, s, mover, checks, false);
}

// The endings, one function per atom, in the order they are tested (that
// of docs/descriptor.md#what-happens-after-a-move: the first that holds
// decides). Each returns whether the game ended.

// end.checks: the mover's move gave check; its n-th check wins at once,
// before mates are judged (check shogi).
bool checks_ends(const VariantData& v, State& s, const Turn& t) {
  if (!t.moved || !t.gave_check || v.rules.end.checks == 0) return false;
  if (++s.checks_given[t.mover] < v.rules.end.checks) return false;
  unsigned losers = 0;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (v.enemies(t.mover, seat)) losers |= 1u << seat;
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::checks);
  name_next_seat(v, s, t.mover);
  return true;
}

// drops.<letter>.mate: loses: the mover's drop attacks the royal of an
// enemy seat that is then checkmated; the dropper loses, before mates are
// judged (Fairy-Stockfish's convention for a forbidden pawn-drop mate).
bool drop_mate_ends(const VariantData& v, State& s, const Turn& t) {
  if (!t.moved || !t.gave_check || !t.move.is_drop() ||
      v.rules.drops.by_kind[t.move.kind].mate != DropMate::loses)
    return false;
  const std::uint8_t code = moving_code(v, s, t.move.to);
  const bool mates = any_attacked(v, s, code, t.move.to, [&](int sq) {
    const Cell c = s.cells[sq];
    return is_piece(c.code) && v.kinds[kind_of(c.code)].royal && v.enemies(t.mover, c.owner) &&
           s.active(c.owner) && s.royal[c.owner] == sq && is_checkmated(v, s, c.owner);
  });
  if (!mates) return false;
  finish(s, v.nseats, loser_tiers(v, s, 1u << t.mover), Reason::drop_mate);
  name_next_seat(v, s, t.mover);
  return true;
}

// end.last_team_standing: once every seat still in is on one team, that
// team places first, its eliminated members too, and every other seat after.
bool last_team_standing_ends(const VariantData& v, State& s) {
  if (!v.rules.end.last_team_standing) return false;
  int left = -1;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (s.active(seat)) {
      if (left >= 0 && v.enemies(left, seat)) return false;
      left = seat;
    }
  if (left < 0) return false;
  std::array<int, kMaxSeats> tier{};
  for (int seat = 0; seat < v.nseats; ++seat) tier[seat] = v.enemies(left, seat) ? 1 : 0;
  finish(s, v.nseats, tier, Reason::last_team_standing);
  return true;
}

// end.goal (dobutsu's try): a seat whose royal stands on its goal rows, where
// no active enemy attacks it if the goal must be safe, wins; two such seats
// draw. Judged after every move, so a royal that arrived attacked wins once
// the attack is gone.
bool goal_ends(const VariantData& v, State& s) {
  if (v.rules.end.goal.depth <= 0) return false;
  unsigned winners = 0;
  for (int seat = 0; seat < v.nseats; ++seat) {
    const int royal = s.royal[seat];
    if (!s.active(seat) || royal < 0 || !v.goal_of_owner[seat].test(royal)) continue;
    if (v.rules.end.goal.safe && attacked_by(v, s, royal, v.attackers_of(s, seat))) continue;
    winners |= 1u << seat;
  }
  if (!winners) return false;
  unsigned losers = 0;
  if (std::popcount(winners) == 1)
    for (int seat = 0; seat < v.nseats; ++seat)
      if (!((winners >> seat) & 1u)) losers |= 1u << seat;
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::try_rule);
  return true;
}

// end.last_seat_standing: one active seat is left. Reported as such, or
// (cause) as the last elimination's cause.
bool last_seat_standing_ends(const VariantData& v, State& s, Reason cause) {
  const Rules& r = v.rules;
  if (!r.end.last_seat_standing || active_count(v, s) != 1) return false;
  const Reason why = r.end.last_seat_reason == LastSeatReason::cause && cause != Reason::none
                         ? cause
                         : Reason::last_seat_standing;
  finish(s, v.nseats, survivor_tiers(v, s), why);
  return true;
}

// end.mates: n seats have been eliminated; the survivors share first place.
bool mates_ends(const VariantData& v, State& s) {
  const int mates = v.rules.end.mates;
  if (mates <= 0 || s.eliminated_count < mates) return false;
  finish(s, v.nseats, survivor_tiers(v, s), Reason::two_mates);
  return true;
}

// end.team_checkmate: every seat of a team is checkmated at once; every
// team mated is a draw.
bool team_checkmate_ends(const VariantData& v, State& s) {
  if (!v.rules.end.team_checkmate) return false;
  unsigned losers = 0;
  int teams_lost = 0;
  for (int seat = 0; seat < v.nseats; ++seat) {
    if ((losers >> seat) & 1u) continue;
    bool all_mated = true;
    for (int o = 0; o < v.nseats; ++o)
      if ((v.partners[seat] >> o) & 1u) all_mated = all_mated && is_checkmated(v, s, o);
    if (all_mated) {
      losers |= v.partners[seat];
      ++teams_lost;
    }
  }
  if (teams_lost == 0) return false;
  if (losers == (1u << v.nseats) - 1) losers = 0;  // every team mated: a draw
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::team_checkmate);
  return true;
}

// end.collect: one seat holds every piece of the kind (on the board or in
// hand) and wins.
bool collect_ends(const VariantData& v, State& s) {
  const int kind = v.rules.end.collect;
  if (kind < 0) return false;
  const int total = v.max_count[v.family[kind]];  // the kind's family is the kind alone
  for (int seat = 0; seat < v.nseats; ++seat) {
    int held = s.hand[seat][kind];
    s.owned[seat].each([&](int sq) { held += v.base_kind(kind_of(s.cells[sq].code)) == kind; });
    if (total > 0 && held == total) {
      std::array<int, kMaxSeats> tier{};
      tier.fill(1);
      tier[seat] = 0;
      finish(s, v.nseats, tier, Reason::all_kings);
      return true;
    }
  }
  return false;
}

// end.impasse, rule kings_entered (after a real move): every active royal
// stands in its zone; the seats short of lose_below points lose, all of
// them short: a draw.
bool kings_entered_ends(const VariantData& v, State& s) {
  const Rules& r = v.rules;
  if (r.end.impasse.rule != ImpasseRule::kings_entered) return false;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (s.active(seat) && (s.royal[seat] < 0 || !v.zone_of_owner[seat].test(s.royal[seat])))
      return false;
  unsigned losers = 0;
  int under = 0, n = 0;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (s.active(seat)) {
      ++n;
      if (impasse_points(v, s, seat, nullptr) < r.end.impasse.lose_below) {
        losers |= 1u << seat;
        ++under;
      }
    }
  if (under == n) losers = 0;  // everyone short: a draw
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::impasse);
  return true;
}

// end.impasse, rule try (after a real move): the mover's royal moved onto
// the next seat's royal start square; the mover wins.
bool try_ends(const VariantData& v, State& s, const Turn& t) {
  const Move m = t.move;
  if (v.rules.end.impasse.rule != ImpasseRule::try_square || m.is_drop() ||
      s.royal[t.mover] != m.to)
    return false;
  const int target = v.royal_start[seat_after(v, t.mover, 1)];
  if (target < 0 || m.to != target) return false;
  unsigned losers = 0;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (seat != t.mover) losers |= 1u << seat;
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::try_rule);
  return true;
}

// end.repetition.perpetual_check: loses: the seat that gave check with
// every one of its moves since the line's state `first`, this move of
// `mover` included, as a mask, where exactly one did; else 0.
unsigned perpetual_checker(const VariantData& v, const Line& line, std::size_t first, int mover,
                           bool gave_check) {
  Tally t = line.since(first);
  ++t.moves[mover];
  t.checks[mover] += gave_check;
  unsigned losers = 0;
  int perpetual = 0;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (t.moves[seat] > 0 && t.checks[seat] == t.moves[seat]) {
      losers |= 1u << seat;
      ++perpetual;
    }
  return perpetual == 1 ? losers : 0;
}

// end.repetition.loser's seat for a repetition `s` reached by `mover`'s
// move (not `none`): the mover, the seat to move next, or a named seat.
int repetition_loser(const RepetitionRules& rep, const State& s, int mover) {
  switch (rep.loser) {
    case RepetitionLoser::mover:
      return mover;
    case RepetitionLoser::to_move:
      return s.to_move;
    default:
      return rep.loser_seat;
  }
}

// end.repetition: `s`, reached by `mover`'s move (or action) after the
// line's states, occurs for the count-th time. A perpetual checker loses
// where the rule says so; else end.repetition.loser decides.
bool repetition_ends(const VariantData& v, const Line& line, State& s, int mover, bool gave_check) {
  const auto& rep = v.rules.end.repetition;
  if (rep.count <= 0) return false;
  std::size_t first = 0;
  if (line.occurrences(s, &first) + 1 < rep.count) return false;
  const unsigned perpetual = rep.perpetual_check == Perpetual::loses
                                 ? perpetual_checker(v, line, first, mover, gave_check || s.pressed)
                                 : 0;
  if (perpetual)
    finish(s, v.nseats, loser_tiers(v, s, perpetual), Reason::perpetual_check);
  else if (rep.loser == RepetitionLoser::none)
    finish_draw(v, s, Reason::repetition);
  else
    finish(s, v.nseats, loser_tiers(v, s, 1u << repetition_loser(rep, s, mover)),
           Reason::repetition);
  return true;
}

// max_plies: plies played (the ply less one) reach the limit: a draw.
bool max_plies_ends(const VariantData& v, State& s) {
  const int limit = v.rules.max_plies;
  if (limit <= 0 || s.ply - 1 < static_cast<std::uint32_t>(limit)) return false;
  finish_draw(v, s, Reason::max_plies);
  return true;
}

// end.impasse with rule: declaration: what the seat's count says (its king
// in its zone, not in check, min_pieces_in_zone other pieces there, and
// the points of the zone and its hand against win_at and draw_at).
enum class ImpasseCount { wins, draws, fails };
ImpasseCount impasse_count(const VariantData& v, const State& s, int seat) {
  const ImpasseRules& rule = v.rules.end.impasse;
  const SquareSet& zone = v.zone_of_owner[seat];
  if (s.royal[seat] < 0 || !zone.test(s.royal[seat]) || in_check(v, s, seat))
    return ImpasseCount::fails;
  int in_zone = 0;
  s.owned[seat].each([&](int sq) {
    if (zone.test(sq) && !v.kinds[kind_of(s.cells[sq].code)].royal) ++in_zone;
  });
  if (in_zone < rule.min_pieces_in_zone) return ImpasseCount::fails;
  const int pts = impasse_points(v, s, seat, &zone);
  if (pts >= rule.win_at[seat]) return ImpasseCount::wins;
  if (rule.draw_at[seat] > 0 && pts >= rule.draw_at[seat]) return ImpasseCount::draws;
  return ImpasseCount::fails;
}

// end.impasse.judged: turn_start: the seat to move, with a legal move (a
// seat without one is mated or stalemated first), wins where its
// declaration count would (a win only; reason impasse).
bool impasse_at_turn_start_ends(const VariantData& v, State& s, SeatChecks& checks) {
  const ImpasseRules& rule = v.rules.end.impasse;
  if (rule.rule != ImpasseRule::declaration || rule.judged != ImpasseJudged::turn_start)
    return false;
  const int seat = s.to_move;
  if (impasse_count(v, s, seat) != ImpasseCount::wins || !checks.can_move(v, s, seat)) return false;
  unsigned losers = 0;
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat) losers |= 1u << o;
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::impasse);
  return true;
}

// The seat's pieces that count for end.bare_king: those not on a square
// they could never move from (chu's pawns and lances on the last rank),
// nor (`uncounted`) of the kinds end.bare_king.uncounted names.
int counted_pieces(const VariantData& v, const State& s, int seat, std::uint64_t uncounted) {
  int n = 0;
  s.owned[seat].each([&](int sq) {
    const std::uint8_t code = s.cells[sq].code;
    if (!v.never_moves[code].test(sq) && !((uncounted >> kind_of(code)) & 1u)) ++n;
  });
  return n;
}

// end.bare_king: `seat` has only its one royal left that counts, and
// `other` has its one royal and more than one counted piece, its royal not
// attacked; and where it counts one piece besides its royal, that piece is
// not next to the bared royal (which could take it).
bool bared(const VariantData& v, const State& s, int seat, int other) {
  const int ours = s.royal[seat], theirs = s.royal[other];
  if (ours < 0 || theirs < 0 || counted_pieces(v, s, seat, 0) != 1) return false;
  const std::uint64_t uncounted = v.rules.end.bare_king.uncounted;
  const int counted = counted_pieces(v, s, other, uncounted);
  if (counted <= 1 || attacked_by(v, s, theirs, 1u << seat)) return false;
  if (counted > 2) return true;
  bool next_to = false;
  s.owned[other].each([&](int sq) {
    const std::uint8_t code = s.cells[sq].code;
    next_to |= sq != theirs && !v.never_moves[code].test(sq) &&
               !((uncounted >> kind_of(code)) & 1u) && v.king_steps(sq, ours) == 1;
  });
  return !next_to;
}

// end.bare_king and end.lone_royals (two seats), judged at a turn's start
// for a seat to move that has a legal move, in shogiops' order: the seat
// to move bared loses, the other bared loses; then only the two royals
// left that count, neither attacked, draw.
bool bare_royals_end(const VariantData& v, State& s, SeatChecks& checks) {
  const EndRules& end = v.rules.end;
  if (end.bare_king.rule == BareKing::none && end.lone_royals == LoneRoyals::none) return false;
  const int seat = s.to_move, other = 1 - seat;
  if (!s.active(seat) || !s.active(other)) return false;
  int loser = -1;
  if (end.bare_king.rule == BareKing::loses) {
    if (bared(v, s, seat, other))
      loser = seat;
    else if (bared(v, s, other, seat))
      loser = other;
  }
  const bool lone = loser < 0 && end.lone_royals == LoneRoyals::draw && s.royal[seat] >= 0 &&
                    s.royal[other] >= 0 && counted_pieces(v, s, seat, 0) == 1 &&
                    counted_pieces(v, s, other, 0) == 1 &&
                    !attacked_by(v, s, s.royal[seat], 1u << other) &&
                    !attacked_by(v, s, s.royal[other], 1u << seat);
  if ((loser < 0 && !lone) || !checks.can_move(v, s, seat)) return false;
  if (lone)
    finish_draw(v, s, Reason::lone_royals);
  else
    finish(s, v.nseats, loser_tiers(v, s, 1u << loser), Reason::bare_king);
  return true;
}

// The endings judged at the start of a turn, the seat to move able to move.
bool turn_start_ends(const VariantData& v, State& s, SeatChecks& checks) {
  return impasse_at_turn_start_ends(v, s, checks) || bare_royals_end(v, s, checks);
}

// Step 3: the endings decided by the position after the eliminations, the
// impasse rules only right after a real move. A game that ends names the
// seat that would move next.
bool position_ends(const VariantData& v, State& s, const Turn& t) {
  const bool ended = last_team_standing_ends(v, s) || goal_ends(v, s) ||
                     last_seat_standing_ends(v, s, t.cause) || mates_ends(v, s) ||
                     team_checkmate_ends(v, s) || collect_ends(v, s) ||
                     (t.moved && (kings_entered_ends(v, s) || try_ends(v, s, t)));
  if (ended) name_next_seat(v, s, t.mover);
  return ended;
}

// Step 5: repetition, then the ply limit, judged on `s` reached by the
// actor's move (or action) after the line's states.
bool history_ends(const VariantData& v, const Line& line, State& s, const Turn& t) {
  return repetition_ends(v, line, s, t.actor, t.gave_check) || max_plies_ends(v, s);
}

// With an outside referee, an ending by rule is noted in the state and play
// goes on; endings by the position (mates, no legal move, last seat) stay final.
bool reported_only(const Line& line, State& s) {
  if (!line.referee_outside) return false;
  switch (static_cast<Reason>(s.reason)) {
    case Reason::repetition:
    case Reason::perpetual_check:
    case Reason::impasse:
    case Reason::try_rule:
    case Reason::max_plies:
      s.outcome = Outcome::ongoing;
      s.rule_ending = true;
      return true;
    default:
      return false;
  }
}

// The seat to move in `s` has no legal move: it is eliminated, checkmated if
// in check or if the rules credit a mater, else for having no legal move.
Reason eliminate_stuck(const VariantData& v, State& s, SeatChecks& checks) {
  const int seat = s.to_move;
  const bool checked = checks(v, s, seat);
  const int mater = v.rules.no_legal_move == NoMove::mate ? mater_of(v, s, seat) : -1;
  eliminate_seat(
      v, s, seat,
      checked || mater >= 0 ? EliminationCause::checkmate : EliminationCause::no_legal_move, mater);
  checks.forget();
  return checked ? Reason::checkmate : Reason::no_legal_move;
}

// Whether finding that the next seat can move needs the line with the new
// state on it (pushed and taken back): only a forbidden repetition does.
bool can_move_reads_line(const VariantData& v) {
  return v.rules.end.repetition.perpetual_check == Perpetual::forbidden;
}

// Has the seat to move in `s` a legal move?
bool seat_can_move(const VariantData& v, Line& line, const State& s, int actor, bool gave_check,
                   SeatChecks& checks) {
  if (!can_move_reads_line(v)) return checks.can_move(v, s, s.to_move);
  line.push(s, actor, gave_check);
  const bool can = any_legal_move(v, line);
  line.pop();
  return can;
}

// Two seats in play and a real move that checks nobody: then no seat is in
// check (only the mover's pieces can attack the other), so none is mated.
bool unchecked_pair(const VariantData& v, const State& s, const Turn& t) {
  return t.moved && !t.gave_check && active_count(v, s) == 2;
}

// Whether an unjudged move (play_move_unjudged) leaves a mate to the
// walker of the tree: with two seats, the only seat the move can mate is
// the next to move, and the walker, which lists that seat's moves anyway,
// finds it without any (judge_stuck then settles it as a mate, as the
// scan would have).
bool mate_left_to_walker(const VariantData& v) {
  return v.nseats == 2 && v.rules.no_legal_move != NoMove::pass;
}

// Steps 2-6 for a state whose mover has just acted (`t`): settles `s`, to
// be pushed with `t.actor` as its mover. With `grow` (the same line,
// writable), a seat left without a legal move is found and eliminated, and
// the steps run again for its turn; a probe (`grow` null) only reads the
// line and stops once the next seat is chosen, which is enough to know the
// position the move leads to. `checks`, which seats `s` has in check as
// far as known, learns more.
void settle(const VariantData& v, const Line& line, Line* grow, State& s, SeatChecks& checks,
            Turn t) {
  const Rules& r = v.rules;
  s.rule_ending = false;
  for (;;) {
    if (checks_ends(v, s, t) || drop_mate_ends(v, s, t)) break;
    if (r.mate == MateDetect::immediate && !t.mates_left && !unchecked_pair(v, s, t) &&
        scan_mates(v, s, t.mover, checks))
      t.cause = Reason::checkmate;
    if (position_ends(v, s, t) && !reported_only(line, s)) break;
    t.moved = false;
    if (!choose_next(v, s, t.mover, checks)) {
      finish_draw(v, s, Reason::no_seat_can_move);
      break;
    }
    if (history_ends(v, line, s, t) && !reported_only(line, s)) break;
    if (r.no_legal_move == NoMove::pass || turn_start_ends(v, s, checks) || !grow) break;
    const int seat = s.to_move;
    if (seat_can_move(v, *grow, s, t.actor, t.gave_check, checks)) break;
    t.cause = eliminate_stuck(v, s, checks);
    t.mover = seat;
  }
}

// end.repetition.perpetual_by: check_or_attack: whether `mover`'s move `m`,
// just made in `s`, left an enemy royal attacked by its pieces or the moved
// piece attacking an enemy piece.
bool presses(const VariantData& v, const State& s, int mover, Move m) {
  const unsigned enemies = v.attackers_of(s, mover);
  for (int o = 0; o < v.nseats; ++o)
    if (((enemies >> o) & 1u) && s.royal[o] >= 0 && attacked_by(v, s, s.royal[o], 1u << mover))
      return true;
  const Cell moved = s.cells[m.to];
  return is_piece(moved.code) && moved.owner == mover &&
         any_attacked(v, s, moved.code, m.to, [&](int q) {
           const Cell c = s.cells[q];
           return is_piece(c.code) && ((enemies >> c.owner) & 1u);
         });
}

// The board effect of `m` by the seat to move in `s`, with the clocks it
// advances. Returns whether it checks anyone; `checks` learns which seats
// are in check after it.
bool board_move(const VariantData& v, State& s, Move m, SeatChecks& checks) {
  const int mover = s.to_move;
  // With two seats and check (and no passing), the seat not to move is
  // never in check: as after its own move, or as loaded (Position refuses
  // it otherwise). Whether this move checks it is then read from the
  // move's squares and lines, without asking after the move.
  Checks direct = Checks::unsure;
  if (v.nseats == 2 && v.rules.check.enabled && v.rules.no_legal_move != NoMove::pass) {
    const int them = 1 - mover;
    const KnownChecks known = checks.known();  // what the move does to it, where known
    if (s.active(mover) && s.active(them) && v.enemies(mover, them) && s.royal[them] >= 0)
      direct = known.knows(them) ? (known.has_check(them) ? Checks::yes : Checks::no)
                                 : move_checks(v, s, m, s.royal[them]);
  }
  const std::uint8_t out_before = s.eliminated_mask;
  make_move(v, s, m);
  // A royal taken puts its seat out: its pieces attack no more, anywhere.
  if (s.eliminated_mask != out_before) checks.forget();
  if (v.rules.end.repetition.perpetual_by == PerpetualBy::check_or_attack) [[unlikely]]
    s.pressed = presses(v, s, mover, m);
  s.last_moved[mover] = static_cast<std::int32_t>(s.ply);
  ++s.ply;
  return direct == Checks::unsure ? gives_check(v, s, mover, checks) : direct == Checks::yes;
}

// The state a move leads to, before a seat that cannot move is eliminated.
State probe_move(const VariantData& v, const Line& line, Move m, bool* gave_check) {
  State s = line.back();
  SeatChecks checks;
  const int mover = s.to_move;
  *gave_check = board_move(v, s, m, checks);
  settle(v, line, nullptr, s, checks,
         Turn{.mover = mover, .actor = mover, .move = m, .moved = true, .gave_check = *gave_check});
  return s;
}

// A perpetual checker may not make the move that repeats a position for the
// forbidden time. The move is probed up to choosing the next seat (the
// position the repetition is about); the line is only read.
bool repetition_forbidden(const VariantData& v, const Line& line, Move m) {
  int mover = line.back().to_move;
  bool this_checks = false;
  State after = probe_move(v, line, m, &this_checks);
  std::size_t first = 0;
  int seen = line.occurrences(after, &first);
  if (seen + 1 < v.rules.end.repetition.count || !this_checks) return false;
  Tally t = line.since(first);
  return t.checks[mover] == t.moves[mover];
}

bool repetition_possible(const VariantData& v, const Line& line) {
  if (v.rules.end.repetition.perpetual_check != Perpetual::forbidden ||
      v.rules.end.repetition.count <= 1)
    return false;
  // Some position must already occur count-1 times for a move to repeat it.
  return line.most_occurrences() >= v.rules.end.repetition.count - 1;
}

}  // namespace

Score score_of(const VariantData& v, const State& s, int seat) {
  Score sc;
  sc.mates = s.mates_made[seat];
  sc.last_mate = s.last_mate[seat];
  sc.pieces = s.owned[seat].count();
  for (std::size_t k = 0; k < v.kinds.size(); ++k) sc.pieces += s.hand[seat][k];
  for (int o = 0; o < v.nseats; ++o)
    if (s.mated_by[o] == seat && !s.active(o))
      for (int sq = 0; sq < v.nsq; ++sq)
        if (s.cells[sq].code == kOverturned && s.cells[sq].owner == o) ++sc.pieces;
  return sc;
}

void legal_moves(const VariantData& v, const Line& line, MoveList& out, MoveFilter filter,
                 int target) {
  out.clear();
  const State& s = line.back();
  if (s.outcome != Outcome::ongoing) return;
  generate_moves(v, s, s.to_move, out, filter, target);
  if (!out.empty() && repetition_possible(v, line)) {
    MoveList kept;
    for (Move m : out)
      if (!repetition_forbidden(v, line, m)) kept.push_back(m);
    out = kept;
  }
}

bool legal_move(const VariantData& v, const Line& line, Move m) {
  const State& s = line.back();
  if (s.outcome != Outcome::ongoing || !is_legal_move(v, s, s.to_move, m)) return false;
  return !repetition_possible(v, line) || !repetition_forbidden(v, line, m);
}

std::size_t count_legal_moves(const VariantData& v, const Line& line) {
  const State& s = line.back();
  if (s.outcome != Outcome::ongoing) return 0;
  if (!repetition_possible(v, line)) return count_moves(v, s, s.to_move);
  MoveList moves;
  legal_moves(v, line, moves);
  return moves.size();
}

bool any_legal_move(const VariantData& v, const Line& line) {
  const State& s = line.back();
  if (!repetition_possible(v, line)) return has_legal_move(v, s, s.to_move);
  MoveList moves;
  legal_moves(v, line, moves);
  return !moves.empty();
}

namespace {

#ifdef KOMA_SELF_CHECK
// key_after's guess, taken before a move: it must be the key wherever the
// turn pipeline added nothing it does not foresee (no seat out, the next
// seat in order to move).
struct KeyGuess {
  KeyGuess(const VariantData& v, const State& before, Move m)
      : key(key_after(v, before, m)),
        mover(before.to_move),
        next(v.next_seat(before.to_move)),
        out(before.eliminated_mask) {}
  void check(const State& after) const {
    if (after.outcome != Outcome::ongoing || after.eliminated_mask != out || after.to_move != next)
      return;
    if ((after.board_key ^ after.hand_key) != key) {
      std::fprintf(stderr, "koma: key_after guessed wrong for a move of seat %d\n", mover);
      std::abort();
    }
  }
  std::uint64_t key;
  int mover, next;
  std::uint8_t out;
};
#endif

// The move's board effect, settled (with `judge`, a next seat without a
// legal move is found and eliminated), pushed onto the line.
void push_move(const VariantData& v, Line& line, Move m, bool judge) {
  const State& before = line.back();
  const int mover = before.to_move;
  SeatChecks checks(v, before, line.known_checks(line.size() - 1), m);
#ifdef KOMA_SELF_CHECK
  const KeyGuess guess(v, before, m);
#endif
  // `before` may move once the line grows: not read in here.
  const auto after = [&](State& s) {
    const bool gave = board_move(v, s, m, checks);
    settle(v, line, judge ? &line : nullptr, s, checks,
           Turn{.mover = mover,
                .actor = mover,
                .move = m,
                .moved = true,
                .gave_check = gave,
                .mates_left = !judge && mate_left_to_walker(v)});
#ifdef KOMA_SELF_CHECK
    guess.check(s);
#endif
    return gave;
  };
  // The next state is made in the line's own storage (Line::begin_push),
  // unless judging the next seat pushes onto the line: then aside.
  if (judge && can_move_reads_line(v)) {
    State s = before;
    const bool gave = after(s);
    line.push(s, mover, gave, checks.known());
    return;
  }
  State& s = line.begin_push();
  const bool gave = after(s);
  line.end_push(mover, gave, checks.known());
}

}  // namespace

void play_move(const VariantData& v, Line& line, Move m) {
  push_move(v, line, m, true);
}

void play_move_unjudged(const VariantData& v, Line& line, Move m) {
  push_move(v, line, m, false);
}

void judge_stuck(const VariantData& v, Line& line) {
  const std::size_t last = line.size() - 1;
  const int actor = line.mover(last);
  const bool gave = line.checked(last);
  State s = line.back();
  line.pop();
  const int seat = s.to_move;
  SeatChecks checks;
  const Reason cause = eliminate_stuck(v, s, checks);
  settle(v, line, &line, s, checks,
         Turn{.mover = seat, .actor = actor, .gave_check = gave, .cause = cause});
  line.push(s, actor, gave, checks.known());
}

void play_resign(const VariantData& v, Line& line) {
  State s = line.back();
  int seat = s.to_move;
  ++s.ply;
  eliminate_seat(v, s, seat, EliminationCause::resignation, -1);
  SeatChecks checks;
  settle(v, line, &line, s, checks,
         Turn{.mover = seat, .actor = seat, .cause = Reason::resignation});
  line.push(s, seat, false, checks.known());
}

void play_declaration(const VariantData& v, Line& line) {
  State s = line.back();
  int seat = s.to_move;
  ++s.ply;
  s.rule_ending = false;
  unsigned everyone_else = 0;
  for (int o = 0; o < v.nseats; ++o)
    if (o != seat) everyone_else |= 1u << o;
  unsigned losers = 1u << seat;
  switch (impasse_count(v, s, seat)) {
    case ImpasseCount::wins:
      losers = everyone_else;
      break;
    case ImpasseCount::draws:
      losers = 0;
      break;
    case ImpasseCount::fails:
      break;
  }
  finish(s, v.nseats, loser_tiers(v, s, losers), Reason::declaration);
  name_next_seat(v, s, seat);
  line.push(s, seat, false);
}

void end_game(State& s, const std::vector<int>& places, Reason reason) {
  s.outcome = Outcome::finished;
  s.rule_ending = false;
  s.reason = static_cast<std::uint8_t>(reason);
  for (std::size_t i = 0; i < places.size() && i < static_cast<std::size_t>(kMaxSeats); ++i)
    s.places[i] = static_cast<std::uint8_t>(places[i]);
}

namespace {

// A square's name, or "?" past the board.
std::string sqname(const VariantData& v, int sq) {
  return sq < v.nsq ? square_name(v, sq) : std::string("?");
}

// Why the drop `m` (to a square of the board) is not legal for `seat`, to
// move in `s`.
std::string explain_drop(const VariantData& v, const State& s, int seat, Move m) {
  if (m.kind >= v.kinds.size()) return "no such piece kind";
  const auto& k = v.kinds[m.kind];
  if (!v.rules.drops.enabled) return "this variant has no drops";
  if (s.hand_frozen[seat]) return "this seat's hand is frozen";
  if (k.promoted && v.rules.drops.promoted == Permission::forbidden)
    return "pieces are dropped unpromoted";
  if (!s.hand[seat][v.base_kind(m.kind)])
    return "seat " + std::to_string(seat + 1) + " has no " + v.kinds[v.base_kind(m.kind)].name +
           " in hand";
  if (s.cells[m.to].code != kEmpty) return sqname(v, m.to) + " is occupied";
  const std::uint8_t code = code_of(m.kind, v.seat_facing[seat]);
  if (v.dead[code].test(m.to))
    return "a " + k.name + " dropped on " + sqname(v, m.to) + " could never move";
  const int file = v.file_of(m.to, v.seat_facing[seat]);
  const DropRule& rule = v.rules.drops.by_kind[m.kind];
  if ((files_at_limit(v, s, seat, m.kind) >> file) & 1u) {
    if (rule.per_file == 1)
      return "nifu: seat " + std::to_string(seat + 1) + " already has an unpromoted " + k.name +
             " on that file";
    return "seat " + std::to_string(seat + 1) + " already has " + std::to_string(rule.per_file) +
           " unpromoted " + k.name + "s on that file, the most allowed";
  }
  State t = s;
  make_move(v, t, m);
  if (in_check(v, t, seat))
    return "it leaves seat " + std::to_string(seat + 1) + "'s king in check";
  // What the dropped piece attacks: an overturned king, or a king it mates.
  const bool overturned =
      any_attacked(v, s, v.borrows ? lent_code(v, s, code, seat, m.to) : code, m.to,
                   [&](int sq) { return s.cells[sq].code == kOverturned; });
  if (overturned && rule.overturned_king_attack == Permission::forbidden)
    return "a " + k.name + " may not be dropped to attack an overturned king";
  if (rule.mate == DropMate::forbidden)
    return "a " + k.name + " drop may not checkmate (drop mate is forbidden)";
  if (rule.mate == DropMate::in_front)
    return "a " + k.name + " dropped in front of a king may not leave it mated or without a move";
  return "that drop is not legal here";
}

// Why the board move `m` of `seat` may not start where it does ("" where
// the seat has a piece there).
std::string explain_origin(const VariantData& v, const State& s, int seat, Move m) {
  if (m.from >= v.nsq || !v.board.test(m.from)) return "the origin is not a square of this board";
  const Cell c = s.cells[m.from];
  if (c.code == kEmpty) return "there is no piece on " + sqname(v, m.from);
  if (c.code == kOverturned) return "the overturned king on " + sqname(v, m.from) + " cannot move";
  if (c.owner != seat)
    return "the piece on " + sqname(v, m.from) + " belongs to seat " + std::to_string(c.owner + 1) +
           ", and seat " + std::to_string(seat + 1) + " is to move";
  return "";
}

// Why `seat` may not move onto the cell `t` on `sq` ("" where it may: empty,
// or a piece it may take).
std::string explain_landing(const VariantData& v, int seat, Cell t, int sq) {
  if (t.code == kOverturned) return "an overturned king cannot be captured";
  if (t.code != kEmpty && (t.owner == seat || !v.enemies(seat, t.owner)))
    return "it cannot capture its own or a partner's piece on " + sqname(v, sq);
  if (t.code != kEmpty && v.kinds[kind_of(t.code)].royal)
    return "the king on " + sqname(v, sq) + " may not be captured";
  return "";
}

// Why the double move `m` (its origin checked) is not legal: which step of
// it the piece cannot make, or where it cannot land.
std::string explain_double_steps(const VariantData& v, const State& s, int seat, Move m) {
  const Cell c = s.cells[m.from];
  const std::string& name = v.kinds[kind_of(c.code)].name;
  const int mid = m.middle();
  if (mid >= v.nsq || !v.board.test(mid)) return "the middle square is not a square of this board";
  if (!v.double_movers || *v.doubles_of(c.code, m.from) == 0)
    return "the " + name + " on " + sqname(v, m.from) + " has no double move";
  const std::uint8_t* p = v.doubles_of(c.code, m.from);
  const int nfirst = *p++;
  for (int i = 0; i < nfirst; ++i) {
    const int first = *p++;
    const int nthen = *p++;
    if (first != mid) {
      p += nthen;
      continue;
    }
    if (std::find(p, p + nthen, m.to) == p + nthen)
      return "the second step: the " + name + " cannot step from " + sqname(v, mid) + " to " +
             sqname(v, m.to);
    if (std::string at_mid = explain_landing(v, seat, s.cells[mid], mid); !at_mid.empty())
      return "the first step: " + at_mid;
    if (const char* lion = lion_capture_refused(v, s, c.code, m.from, -1, mid))
      return std::string("the first step: ") + lion;
    if (m.to == m.from) return "";
    if (std::string at_to = explain_landing(v, seat, s.cells[m.to], m.to); !at_to.empty())
      return "the second step: " + at_to;
    if (const char* lion = lion_capture_refused(v, s, c.code, m.from, mid, m.to))
      return std::string("the second step: ") + lion;
    return "";
  }
  return "the first step: the " + name + " on " + sqname(v, m.from) + " cannot step to " +
         sqname(v, mid) + " in a double move";
}

// Why the board move `m` (to a square of the board) is not legal for
// `seat`, to move in `s`.
std::string explain_board_move(const VariantData& v, const State& s, int seat, Move m) {
  if (std::string origin = explain_origin(v, s, seat, m); !origin.empty()) return origin;
  const Cell c = s.cells[m.from];
  const auto& k = v.kinds[kind_of(c.code)];
  const bool captures = is_capture(s, m);
  if (m.is_double()) {
    if (std::string steps = explain_double_steps(v, s, seat, m); !steps.empty()) return steps;
  } else {
    if (!any_reached<Visit::destinations>(v, s, moving_code(v, s, m.from), m.from,
                                          [&](int sq) { return sq == m.to; }))
      return "the " + k.name + " on " + sqname(v, m.from) + " cannot reach " + sqname(v, m.to);
    if (std::string landing = explain_landing(v, seat, s.cells[m.to], m.to); !landing.empty())
      return landing;
    if (const char* lion = lion_capture_refused(v, s, c.code, m.from, -1, m.to)) return lion;
  }
  const PromotionForms forms = promotion_forms(v, seat, c.code, m.from, m.to, captures);
  if (m.promote && !forms.promoted) return "the " + k.name + " cannot promote on this move";
  if (!m.promote && forms.plain_dead)
    return "the " + k.name + " must promote on " + sqname(v, m.to);
  if (!m.promote && !forms.plain)
    return "the " + k.name + " must promote on this move (promotion is compulsory)";
  if (v.rules.check.enabled) {
    State after = s;
    make_move(v, after, m);
    if (in_check(v, after, seat))
      return "it leaves seat " + std::to_string(seat + 1) + "'s king in check";
  }
  if (v.rules.end.repetition.perpetual_check == Perpetual::forbidden)
    return "the perpetual checker may not repeat the position a fourth time";
  return "that move is not legal here";
}

}  // namespace

std::string explain_illegal(const VariantData& v, const Line& line, Move m) {
  const State& s = line.back();
  if (s.outcome != Outcome::ongoing) return "the game is over";
  MoveList legal;
  legal_moves(v, line, legal);
  if (std::find(legal.begin(), legal.end(), m) != legal.end()) return "";
  if (m.to >= v.nsq || !v.board.test(m.to)) return "the target is not a square of this board";
  return m.is_drop() ? explain_drop(v, s, s.to_move, m) : explain_board_move(v, s, s.to_move, m);
}

}  // namespace koma::detail
