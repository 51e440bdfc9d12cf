#include "movegen.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "elimination.hpp"
#include "state_ops.hpp"

namespace koma::detail {

// (Out of line: emit_board, which inlines all it calls, stays small.)
[[gnu::noinline]] bool promotes_entering(const VariantData& v, int seat, std::uint8_t code,
                                         int from, int to, bool capture) {
  const SquareSet& z = v.zone_for(seat, facing_of(code));
  return (z.test(to) && (capture || !z.test(from))) || (capture && z.test(from)) ||
         v.never_moves[code].test(to);
}

std::uint32_t files_at_limit(const VariantData& v, const State& s, int seat, int kind) {
  const int limit = v.rules.drops.by_kind[kind].per_file;
  if (limit <= 0) return 0;
  const int facing = v.seat_facing[seat];
  const std::uint8_t code = code_of(kind, facing);
  std::array<std::uint8_t, 16> count{};
  std::uint32_t full = 0;
  s.owned[seat].each([&](int sq) {
    if (s.cells[sq].code != code) return;
    const int file = v.file_of(sq, facing);
    if (++count[static_cast<std::size_t>(file)] >= limit) full |= 1u << file;
  });
  return full;
}

namespace {

// The vectors worth looking along from `sq` (VariantData::leaps_near, slides_near).
inline std::span<const VariantData::Near> leaps_near(const VariantData& v, int sq) {
  const auto* base = v.leaps_near.data();
  return {base + v.leaps_near_at[static_cast<std::size_t>(sq)],
          base + v.leaps_near_at[static_cast<std::size_t>(sq) + 1]};
}
inline std::span<const std::int16_t> slides_near(const VariantData& v, int sq) {
  const auto* base = v.slides_near.data();
  return {base + v.slides_near_at[static_cast<std::size_t>(sq)],
          base + v.slides_near_at[static_cast<std::size_t>(sq) + 1]};
}

// Does the piece on `q`, of a seat in `seats`, attack along vector `vi` the
// square `step` + 1 steps back from it? Without branching on what the cell
// holds (the range rows of empty, overturned and void cells are zero):
// these tests go either way at random, and a mispredicted branch costs more
// than the whole test.
// `Borrow`: the variant's pieces borrow (VariantData::borrows), and the
// piece attacks as its moving_code.
template <bool Borrow = false>
inline bool reaches_back(const VariantData& v, const State& s, unsigned seats, int q, int vi,
                         int step) {
  const Cell c = s.cells[q];
  const std::uint8_t code = Borrow ? borrowed_code(v, s, q) : c.code;
  return (((seats >> c.owner) & 1u) &
          static_cast<unsigned>(v.range[static_cast<std::size_t>(code) * v.nvec + vi] > step)) != 0;
}

// The same for a hopper: does the piece on `q` capture along `vi` past a
// screen onto the square `step` + 1 steps back from it?
inline bool hops_back(const VariantData& v, const State& s, unsigned seats, int q, int vi,
                      int step) {
  const Cell c = s.cells[q];
  return ((seats >> c.owner) & 1u) &&
         v.hop_range[static_cast<std::size_t>(c.code) * v.nvec + vi] > step;
}

// The first piece walking back from `sq` along slide vector `vi`, the
// square `lifted` taken as empty, beyond `past` (an earlier find) if given:
// its square (-1 for none) and how many squares it stands past the first.
// Small boards scan a word of bits, larger ones walk (short walks; a scan of
// four words costs more).
struct Seen {
  int q = -1, step = -1;
};
[[gnu::always_inline]] inline Seen first_piece(const VariantData& v, const State& s, int sq, int vi,
                                               int lifted, Seen past = {}) {
  const std::size_t at = static_cast<std::size_t>(sq) * v.nvec + static_cast<std::size_t>(vi);
  if (!v.rev_bits.empty()) {
    std::uint64_t b = s.occupied.w[0] & v.rev_bits[at];
    if (lifted >= 0) b &= ~(std::uint64_t{1} << lifted);
    if (past.q >= 0)  // only the squares beyond it
      b &= v.rev_up[static_cast<std::size_t>(vi)] ? ~((std::uint64_t{2} << past.q) - 1)
                                                  : (std::uint64_t{1} << past.q) - 1;
    if (!b) return {};
    const int q =
        v.rev_up[static_cast<std::size_t>(vi)] ? std::countr_zero(b) : 63 - std::countl_zero(b);
    return {q, (q - sq) / v.rev_delta[static_cast<std::size_t>(vi)] - 1};
  }
  const std::uint8_t* walk = &v.rev[v.rev_at[at]];
  const int len = *walk++;
  for (int i = past.step + 1; i < len; ++i)
    if (s.cells[walk[i]].code != kEmpty && walk[i] != lifted) return {walk[i], i};
  return {};
}

// A piece of the seat on `sq` between its royal and an enemy slider on
// `attacker` along vector `vi`: it may only move along that line.
struct Pin {
  int sq, vi, attacker;
};

// Where the seat's non-royal pieces may go: everywhere, or (in check) onto
// the checker or between it and the royal; pinned pieces only along the pin.
struct Safety {
  int royal = -1;
  int checks = 0;
  SquareSet evasion;  // valid when checks == 1
  int npins = 0;
  std::array<Pin, 32> pins;
  // Where a move may change attacks otherwise than along lines
  // (VariantData::indirect_attacks): the checks that are not in `checks`,
  // and the squares where a move that starts or ends there is played to be
  // judged (watch_hoppers, watch_borrowers). Any move in such a check is
  // played too.
  int judged_checks = 0;
  SquareSet watch;
  bool watching = false;  // judged_checks or watch: some move is to be played
  bool watched(Move m) const {
    return judged_checks > 0 || watch.test(m.to) || (!m.is_drop() && watch.test(m.from));
  }

  // The squares after the royal up to and including q along the walk back
  // of vi, but `skip`.
  SquareSet segment(const VariantData& v, int q, int vi, int skip) const {
    SquareSet set;
    for (int t = royal + v.rev_delta[vi];; t += v.rev_delta[vi]) {
      if (t != skip) set.set(t);
      if (t == q) break;
    }
    return set;
  }
  // Where the piece on `from` may go as far as pins say. Always inlined into
  // the generator's loop (so is promotion_forms), whatever else the unit
  // instantiates: out of line they cost perft 3 % more instructions.
  [[gnu::always_inline]] SquareSet pinned_to(const VariantData& v, int from,
                                             const SquareSet& allowed) const {
    SquareSet out = allowed;
    for (int i = 0; i < npins; ++i) {
      const Pin& pin = pins[static_cast<std::size_t>(i)];
      if (pin.sq == from) out &= segment(v, pin.attacker, pin.vi, from);
    }
    return out;
  }
};

// Safety::judged_checks and watch: along each line from the royal, the
// first three pieces; an enemy hopper among them that reaches the royal
// past the pieces before it checks where one piece stands between, and
// may come to (or stop) where none or two do. A hopper with three or more
// between stays harmless after any one move.
void watch_hoppers(const VariantData& v, const State& s, unsigned enemy, Safety& out) {
  for (int vi : slides_near(v, out.royal)) {
    Seen seen;
    for (int between = 0; between < 3; ++between) {
      seen = first_piece(v, s, out.royal, vi, -1, seen);
      if (seen.q < 0) break;
      if (!hops_back(v, s, enemy, seen.q, vi, seen.step)) continue;
      if (between == 1) ++out.judged_checks;
      out.watch |= out.segment(v, seen.q, vi, -1);
      out.watching = true;
    }
  }
}

// Safety::judged_checks and watch where pieces borrow: the checks, and the
// pins, hold only while the piece behind each checker or pinner lends it
// its moves, and taking a piece that lends may let the piece in front
// attack as itself. So every move in check and every move of a pinned
// piece is played to be judged, and so is every capture of a piece that
// lends (the checks and pins then restrict nothing by lines).
void watch_borrowers(const VariantData& v, const State& s, unsigned enemy, Safety& out) {
  out.judged_checks += out.checks;
  out.checks = 0;
  for (int i = 0; i < out.npins; ++i) out.watch.set(out.pins[static_cast<std::size_t>(i)].sq);
  out.npins = 0;
  for (int o = 0; o < v.nseats; ++o)
    if ((enemy >> o) & 1u)
      s.owned[o].each([&](int sq) {
        const int lender = v.behind_of(facing_of(s.cells[sq].code), sq);
        if (lender >= 0 && is_piece(s.cells[lender].code) && s.cells[lender].owner == o)
          out.watch.set(lender);
      });
  out.watching = out.judged_checks > 0 || out.watch.any();
}

template <bool Borrow>
Safety safety_along(const VariantData& v, const State& s, int seat) {
  Safety out;
  int k = v.rules.check.enabled ? s.royal[seat] : -1;
  out.royal = k;
  if (k < 0) return out;
  unsigned enemy = v.attackers_of(s, seat);
  auto attacks = [&](int q, int vi, int step) {
    return reaches_back<Borrow>(v, s, enemy, q, vi, step);
  };
  for (const auto& [vi, q] : leaps_near(v, k))
    if (attacks(q, vi, 0) && ++out.checks == 1) out.evasion = out.segment(v, q, vi, -1);
  // Slides: the first piece back from k; past one of the seat's own, the
  // next, which pins it if it attacks along the line.
  for (int vi : slides_near(v, k)) {
    const Seen first = first_piece(v, s, k, vi, -1);
    if (first.q < 0) continue;
    if (attacks(first.q, vi, first.step)) {
      if (++out.checks == 1) out.evasion = out.segment(v, first.q, vi, -1);
      continue;
    }
    const Cell c = s.cells[first.q];
    if (!is_piece(c.code) || c.owner != seat || out.npins >= static_cast<int>(out.pins.size()))
      continue;
    const Seen next = first_piece(v, s, k, vi, -1, first);
    if (next.q >= 0 && attacks(next.q, vi, next.step))
      out.pins[static_cast<std::size_t>(out.npins++)] = Pin{first.q, vi, next.q};
  }
  if (v.hoppers) [[unlikely]]
    watch_hoppers(v, s, enemy, out);
  if constexpr (Borrow) watch_borrowers(v, s, enemy, out);
  return out;
}

Safety safety_of(const VariantData& v, const State& s, int seat) {
  return v.borrows ? safety_along<true>(v, s, seat) : safety_along<false>(v, s, seat);
}

// In which order Generator::run lists the seat's moves.
enum class Order {
  // Every piece's moves by square, then the drops: the order of the list.
  listed,
  // For a sink that stops at the first move. Out of check: the pieces
  // but the royal, the royal (each of its targets asks whether the enemy
  // attacks it), the drops. In check, where most pieces have no move:
  // the drops (a drop between a distant checker and the royal answers at
  // once, and without such squares there is none to try), the royal, then
  // the pieces.
  first_found,
};

// The legal-move generator of one seat. `Plain`: every ray of the variant
// is plain (no Betza m, c, p: VariantData::all_plain), and the generation
// compiles without the tests the others need (see with_generator).
template <bool Plain>
struct Generator {
  const VariantData& v;
  const State& s;
  int seat;
  bool royal_captures;
  MoveFilter filter = MoveFilter::all;
  int target = -1;  // MoveFilter::captures_and_checks's royal
  // Only the drops of this kind on this square (-1: every drop).
  int only_kind = -1, only_to = -1;
  std::array<std::int8_t, kMaxSeats> mated{{-1, -1, -1, -1}};

  // A move may change attacks otherwise than along lines
  // (VariantData::indirect_attacks).
  bool indirect() const { return !Plain && v.indirect_attacks(); }

  bool target_mated(int seat_b) {
    if (mated[seat_b] < 0) mated[seat_b] = is_checkmated(v, s, seat_b) ? 1 : 0;
    return mated[seat_b] == 1;
  }

  // The position after the seat plays `m` in `s`, on a copy.
  State played(Move m) const {
    State t = s;
    t.to_move = static_cast<std::uint8_t>(seat);
    make_move(v, t, m);
    return t;
  }

  // Royal capture: allowed by the variant, and legal once the captured seat
  // is out of the game.
  bool royal_capture_ok(Move m, int victim) {
    RoyalCapture rc = v.rules.kings.capture;
    if (rc == RoyalCapture::never || !royal_captures) return false;
    if (rc == RoyalCapture::when_checkmated && !target_mated(victim)) return false;
    return !v.rules.check.enabled || royal_safe_after(m);
  }

  template <class Sink>
  [[gnu::flatten]] bool emit_board(Sink& sink, std::uint8_t code, int from, int to) {
    const PromotionForms forms =
        promotion_forms(v, seat, code, from, to, s.cells[to].code != kEmpty);
    if (forms.promoted && !sink(Move::board(from, to, true))) return false;
    return !forms.plain || sink(Move::board(from, to, false));
  }

  // Can `seat` take what stands on `to`? 0 no, 1 yes, 2 yes if a royal
  // capture passes: the king of an active seat (a royal beside which its
  // seat has others, under kings.several, is taken like any piece).
  int capturable(Cell c, int to) const {
    if (!is_piece(c.code) || c.owner == seat || !v.enemies(seat, c.owner)) return 0;
    if (v.kinds[kind_of(c.code)].royal && s.active(c.owner) && s.royal[c.owner] == to) return 2;
    return 1;
  }

  // captures_and_checks: the empty squares a piece may move to, all or
  // those of up to two sets (checking_targets); none by default.
  struct Quiet {
    bool all = false;
    const SquareSet* some = nullptr;
    const SquareSet* more = nullptr;
    bool test(int to) const {
      return all || (some && (some->test(to) || (more && more->test(to))));
    }
  };
  Quiet quiet_targets(std::uint8_t code, int from) const {
    Quiet q;
    if (filter == MoveFilter::captures_and_checks) checking_targets(code, from, q);
    return q;
  }

  // captures_and_checks: the empty squares from which the piece `code` on
  // `from` may check the target: those from which it, in either form,
  // could attack it on an empty board, or all where it alone stands between
  // the target and a piece of the seat attacking along their line (a pin
  // the other way round: the move may open the line). generate_moves keeps
  // the moves that do check.
  void checking_targets(std::uint8_t code, int from, Quiet& q) const {
    // A hopper's screen may check from anywhere on its line, and a piece
    // that lends its moves wherever the borrower goes.
    if (indirect() || maybe_pinned(target, from, 1u << seat)) {
      q.all = true;
      return;
    }
    q.some = &attacking_target(code);
    const int flip = v.flip_of(kind_of(code));
    if (flip >= 0) q.more = &attacking_target(code_of(flip, facing_of(code)));
  }

  // Whether the filter lets through a move to the cell `c` on `to`, one
  // the seat can take (cap 1) or an empty one (`quiet`: quiet_targets).
  bool wanted(int cap, Cell c, const Quiet& quiet, int to) const {
    if (cap == 1) return true;
    if (c.code != kEmpty) return false;
    switch (filter) {
      case MoveFilter::all:
        return true;
      case MoveFilter::captures:
        return false;
      case MoveFilter::captures_and_checks:
        return quiet.test(to);
    }
    return false;
  }

  // captures_and_checks: the squares from which the piece `code` could
  // attack the target on an empty board.
  const SquareSet& attacking_target(std::uint8_t code) const {
    return v.reach_from[static_cast<std::size_t>(reversed_code(code)) * v.nsq + target];
  }

  // The seat's pieces that may have a move the filter lets through: all,
  // or for captures only those whose rays reach a piece they could take
  // (with captures_and_checks, or a square from which some piece attacks
  // the target, or that stand on one).
  SquareSet movers() const {
    const SquareSet& own = s.owned[seat];
    if (filter == MoveFilter::all || (filter == MoveFilter::captures_and_checks && indirect()))
      return own;
    SquareSet aims{};
    for (int o = 0; o < v.nseats; ++o)
      if (v.enemies(seat, o)) aims |= s.owned[o];
    const SquareSet* near = filter == MoveFilter::captures_and_checks
                                ? &v.reach_to[static_cast<std::size_t>(target)]
                                : nullptr;
    if (near) aims |= *near;
    SquareSet out{};
    own.each([&](int from) {
      // (What the piece reaches as what it moves as, where pieces borrow.)
      const std::uint8_t code = Plain ? s.cells[from].code : moving_code(v, s, from);
      const SquareSet& reach = v.reach_from[static_cast<std::size_t>(code) * v.nsq + from];
      if ((reach & aims).any() || (near && near->test(from))) out.set(from);
    });
    return out;
  }

  template <class Sink>
  bool run(Sink& sink, Order order = Order::listed) {
    const SquareSet moving = movers();
    // Most pieces reach nothing to take: then neither do the drops.
    if (filter == MoveFilter::captures && !moving.any()) return true;
    const Safety safe = safety_of(v, s, seat);
    const unsigned enemy = v.attackers_of(s, seat);
    bool ok = true;
    const bool royal_apart = order == Order::first_found && safe.royal >= 0;
    const bool royal_listed = royal_apart && moving.test(safe.royal);
    // The moves of the piece on `from`; true once the sink stops.
    auto piece = [&](int from) {
      if (!royal_apart || from != safe.royal) piece_moves(sink, safe, enemy, from, ok);
      return !ok;
    };
    if (royal_apart && safe.checks > 0) {
      if (!drops(sink, safe, enemy)) return false;
      if (royal_listed) piece_moves(sink, safe, enemy, safe.royal, ok);
      if (ok) moving.any_of(piece);
      return ok;
    }
    moving.any_of(piece);
    if (royal_listed && ok) piece_moves(sink, safe, enemy, safe.royal, ok);
    if (!ok) return false;
    return drops(sink, safe, enemy);
  }

  // For a seat not in check, with one royal: whether a piece of it but the
  // royal, not pinned, has a move (then a legal one). False where none is
  // found this way (has_legal_move's whole test decides then).
  bool unpinned_piece_moves() {
    const int king = s.royal[seat];
    const unsigned enemy = v.attackers_of(s, seat);
    bool ok = true;
    auto sink = [&](Move) { return ok = false; };
    return s.owned[seat].any_of([&](int from) {
      if (from == king || maybe_pinned(king, from, enemy)) return false;
      const std::uint8_t code = s.cells[from].code;
      walk(from, ok, [&](int to, Cell c) {
        if (c.code == kEmpty || capturable(c, to) == 1) emit_board(sink, code, from, to);
      });
      return !ok;
    });
  }

  // Whether the piece on `from` may be pinned to the royal on `king`: the
  // first piece back from the royal along their line, with a piece of the
  // seats `enemy` attacking along it behind (as safety_of finds pins); true
  // where several lines join them.
  bool maybe_pinned(int king, int from, unsigned enemy) const {
    const int vi = v.line_to[static_cast<std::size_t>(king) * v.nsq + from];
    if (vi == VariantData::kNoLine) return false;
    if (vi == VariantData::kManyLines) return true;
    const Seen first = first_piece(v, s, king, vi, -1);
    if (first.q != from) return false;
    const Seen next = first_piece(v, s, king, vi, -1, first);
    return next.q >= 0 && reaches_back(v, s, enemy, next.q, vi, next.step);
  }

  // Calls f(to, cell) for each square the piece on `from` reaches: along
  // each ray up to and including the first occupied cell, while `ok` holds.
  // Then the squares its other rays let it go to (any_on_xrays).
  template <class F>
  void walk(int from, const bool& ok, F&& f) const {
    const std::uint8_t code = Plain ? s.cells[from].code : moving_code(v, s, from);
    const std::uint8_t* p = rays_of(v, code, from);
    const std::uint8_t head = *p++;
    for (int r = 0; r < ray_count(head) && ok; ++r) {
      const int len = *p++;
      for (int i = 0; i < len && ok; ++i) {
        const Cell c = s.cells[p[i]];
        f(p[i], c);
        if (c.code != kEmpty) break;
      }
      p += len;
    }
    if constexpr (!Plain)
      if ((head & VariantData::kMoreRays) && ok) [[unlikely]]
        any_on_xrays<Visit::destinations>(v, s, code, from, [&](int to) {
          f(to, s.cells[to]);
          return !ok;
        });
  }

  // Whether the drop `m` of the seat mates an enemy seat, played on a
  // copy: where pieces hop or borrow, a drop may check by its own move, as
  // the screen of a hopper behind it, or by what it lends.
  bool mates_by_playing(Move m) const {
    const State t = played(m);
    for (int o = 0; o < v.nseats; ++o)
      if (v.enemies(seat, o) && t.active(o) && t.royal[o] >= 0 && is_checkmated(v, t, o))
        return true;
    return false;
  }

  // drops.<letter>.mate: in_front: whether the drop `m` stands right in
  // front of the royal of a seat in `enemy` and leaves that seat without a
  // legal move (mated or stalemated), played on a copy.
  bool ends_in_front(Move m, unsigned enemy) const {
    for (int o = 0; o < v.nseats; ++o) {
      const int royal = s.royal[o];
      if (!((enemy >> o) & 1u) || !s.active(o) || royal < 0 ||
          v.front_of(v.seat_facing[o], royal) != m.to)
        continue;
      return !has_legal_move(v, played(m), o);
    }
    return false;
  }

  // Whether the move `m` of the seat leaves its royal unattacked, played
  // on a copy.
  bool royal_safe_after(Move m) const {
    const State t = played(m);
    return t.royal[seat] < 0 || !attacked_by(v, t, t.royal[seat], v.attackers_of(t, seat));
  }

  // The royal's board moves: to squares no enemy attacks once it has left
  // `from` (played to be judged where Safety::watch says).
  template <class Sink>
  void royal_moves(Sink& sink, const Safety& safe, unsigned enemy, int from, bool& ok) {
    const std::uint8_t code = s.cells[from].code;
    const Quiet quiet = quiet_targets(code, from);
    walk(from, ok, [&](int to, Cell c) {
      const int cap = c.code == kEmpty ? 0 : capturable(c, to);
      if (cap == 2) {
        if (royal_capture_ok(Move::board(from, to, false), c.owner))
          ok = emit_board(sink, code, from, to);
      } else if (wanted(cap, c, quiet, to)) {
        if (!Plain && cap == 1 && v.rules.lions.lions &&
            lion_capture_refused(v, s, code, from, -1, to)) [[unlikely]]
          return;
        if (!Plain && safe.watch.test(to)) [[unlikely]]
          ok = emit_judged(sink, code, from, to);
        else if (!attacked_by(v, s, to, enemy, from))
          ok = emit_board(sink, code, from, to);
      }
    });
  }

  // moves_of_piece, each move once: where two rays of the piece reach one
  // square (VariantData::rays_overlap), a move the walk finds again is
  // dropped. Out of line, so that the generation of every other piece
  // stays as it was.
  template <class Sink>
  void piece_moves(Sink& sink, const Safety& safe, unsigned enemy, int from, bool& ok) {
    if (v.rays_overlap[s.cells[from].code]) [[unlikely]]
      moves_once(sink, safe, enemy, from, ok);
    else
      moves_of_piece(sink, safe, enemy, from, ok);
    if constexpr (!Plain)
      if (v.double_movers && ok) [[unlikely]]
        double_moves(sink, from, ok);
  }

  // The double moves of the piece on `from` (pieces.<letter>.double): each
  // first step to an empty square or onto a piece the seat may take, then
  // each second step from there to an empty square, onto a piece it may
  // take, or back to `from`; both captures are made. A royal taken on either
  // step passes as royal_capture_ok says. Where royals must stay safe, each
  // is played to be judged (checks and pins, read along lines, do not see
  // a piece that leaves and takes twice).
  template <class Sink>
  [[gnu::noinline]] void double_moves(Sink& sink, int from, bool& ok) {
    const std::uint8_t code = s.cells[from].code;
    const std::uint8_t* p = v.doubles_of(code, from);
    const int nfirst = *p++;
    const Quiet quiet = quiet_targets(code, from);
    for (int i = 0; i < nfirst && ok; ++i) {
      const int mid = *p++;
      const int nthen = *p++;
      const std::uint8_t* then = p;
      p += nthen;
      const Cell at_mid = s.cells[mid];
      const int take_mid = at_mid.code == kEmpty ? 0 : capturable(at_mid, mid);
      if (at_mid.code != kEmpty && take_mid == 0) continue;
      if (take_mid == 1 && v.rules.lions.lions && lion_capture_refused(v, s, code, from, -1, mid))
        continue;
      for (int j = 0; j < nthen && ok; ++j) {
        const int to = then[j];
        const Cell at_to = to == from ? Cell{} : s.cells[to];
        const int take_to = at_to.code == kEmpty ? 0 : capturable(at_to, to);
        if (at_to.code != kEmpty && take_to == 0) continue;
        if (take_to == 1 && v.rules.lions.lions && lion_capture_refused(v, s, code, from, mid, to))
          continue;
        const bool captures = take_mid > 0 || take_to > 0;
        if (!captures && !wanted(0, at_to, quiet, to)) continue;
        const Move m = Move::double_move(from, mid, to);
        if ((take_mid == 2 && !royal_capture_ok(m, at_mid.owner)) ||
            (take_to == 2 && !royal_capture_ok(m, at_to.owner)))
          continue;
        if (v.rules.check.enabled && take_mid != 2 && take_to != 2 && !royal_safe_after(m))
          continue;
        const PromotionForms forms = promotion_forms(v, seat, code, from, to, captures);
        if (forms.promoted) ok = sink(Move::double_move(from, mid, to, true));
        if (ok && forms.plain) ok = sink(m);
      }
    }
  }
  template <class Sink>
  [[gnu::noinline]] void moves_once(Sink& sink, const Safety& safe, unsigned enemy, int from,
                                    bool& ok) {
    std::array<SquareSet, 2> listed;  // destinations, by whether the move promotes
    auto once = [&](Move m) {
      SquareSet& seen = listed[m.promote ? 1 : 0];
      if (seen.test(m.to)) return true;
      seen.set(m.to);
      return sink(m);
    };
    moves_of_piece(once, safe, enemy, from, ok);
  }

  // The board moves of the seat's piece on `from`, as far as checks and
  // pins allow; `ok` turns false when the sink asks to stop.
  template <class Sink>
  void moves_of_piece(Sink& sink, const Safety& safe, unsigned enemy, int from, bool& ok) {
    if (from == safe.royal) return royal_moves(sink, safe, enemy, from, ok);
    if (safe.checks >= 2) return;
    const std::uint8_t code = s.cells[from].code;
    const SquareSet allowed = safe.pinned_to(v, from, safe.checks == 1 ? safe.evasion : v.board);
    const Quiet quiet = quiet_targets(code, from);
    // Where pieces hop: which of the piece's moves touch a hopper's line to
    // the royal (Safety::watch), and are played to be judged.
    const bool watched = !Plain && safe.watching;
    const bool all_watched = watched && (safe.judged_checks > 0 || safe.watch.test(from));
    walk(from, ok, [&](int to, Cell c) {
      const int cap = c.code == kEmpty ? 0 : capturable(c, to);
      if (cap == 2) {
        // A royal capture ends that seat; judge it by playing it.
        const PromotionForms forms = promotion_forms(v, seat, code, from, to, true);
        for (bool promote : {true, false}) {
          Move m = Move::board(from, to, promote);
          bool shape_ok = promote ? forms.promoted : forms.plain;
          if (shape_ok && royal_capture_ok(m, c.owner)) ok = ok && sink(m);
        }
      } else if (wanted(cap, c, quiet, to) && allowed.test(to)) {
        if (!Plain && cap == 1 && v.rules.lions.lions &&
            lion_capture_refused(v, s, code, from, -1, to)) [[unlikely]]
          return;
        if (watched && (all_watched || safe.watch.test(to))) [[unlikely]]
          ok = emit_judged(sink, code, from, to);
        else
          ok = emit_board(sink, code, from, to);
      }
    });
  }

  // emit_board for a move that may give or parry a hopper's check: kept
  // where, played, it leaves the royal unattacked.
  template <class Sink>
  [[gnu::noinline]] bool emit_judged(Sink& sink, std::uint8_t code, int from, int to) {
    if (!royal_safe_after(Move::board(from, to, false))) return true;
    return emit_board(sink, code, from, to);
  }

  // Whether the drop `m` (of the piece `code`) is one `rule` forbids: it
  // attacks an overturned king, or it mates (it checks a royal of the seats
  // `enemy`, and that seat has no answer), or (in_front) it ends a seat's
  // game from the square in front of its royal. Where pieces hop or
  // borrow, the drop may also check as a hopper's screen or by lending its
  // moves: the mate is then looked for by playing.
  bool refused_drop(Move m, std::uint8_t code, const DropRule& rule, unsigned enemy) {
    if (rule.mate == DropMate::in_front) return ends_in_front(m, enemy);
    const bool no_mate = rule.mate == DropMate::forbidden;
    // Where pieces borrow, the dropped piece attacks as its lender.
    if (!Plain && v.borrows) code = lent_code(v, s, code, seat, m.to);
    bool hits_overturned = false;
    int checked = -1;
    each_attacked(v, s, code, m.to, [&](int t) {
      Cell c = s.cells[t];
      if (c.code == kOverturned) hits_overturned = true;
      if (is_piece(c.code) && v.kinds[kind_of(c.code)].royal && ((enemy >> c.owner) & 1u))
        checked = c.owner;
    });
    if (rule.overturned_king_attack == Permission::forbidden && hits_overturned) return true;
    if (!no_mate) return false;
    if (indirect()) [[unlikely]]
      return mates_by_playing(m);
    if (checked < 0) return false;
    return is_checkmated(v, played(m), checked);
  }

  // The seat's drops (none in double check).
  template <class Sink>
  bool drops(Sink& sink, const Safety& safe, unsigned enemy) {
    bool ok = true;
    if (filter == MoveFilter::captures || !v.rules.drops.enabled || s.hand_frozen[seat] ||
        !s.active(seat) || safe.checks >= 2)
      return true;
    SquareSet empties = v.board & ~s.occupied;
    if (safe.checks == 1) empties &= safe.evasion;
    const bool checks_only = filter == MoveFilter::captures_and_checks;
    int facing = v.seat_facing[seat];
    int nk = static_cast<int>(v.kinds.size());
    if (only_to >= 0) {
      if (!empties.test(only_to)) return true;
      empties = SquareSet{};
      empties.set(only_to);
    }
    for (int k = 0; k < nk && ok; ++k) {
      if (only_kind >= 0 && k != only_kind) continue;
      // drops.promoted: a promoted kind is dropped from its plain side's count.
      if (v.kinds[k].promoted && v.rules.drops.promoted == Permission::forbidden) continue;
      if (!s.hand[seat][v.base_kind(k)]) continue;
      std::uint8_t code = code_of(k, facing);
      SquareSet targets = empties & ~v.dead[code];
      // (Where pieces hop or borrow, a drop may check as a screen, or as
      // what it borrows, from anywhere.)
      if (checks_only && !indirect()) targets &= attacking_target(code);
      const DropRule& rule = v.rules.drops.by_kind[k];
      if (rule.per_file > 0) {
        const std::uint32_t files = files_at_limit(v, s, seat, k);
        if (files) {
          SquareSet keep;
          targets.each([&](int sq) {
            if (!((files >> v.file_of(sq, facing)) & 1u)) keep.set(sq);
          });
          targets = keep;
        }
      }
      const bool no_mate = rule.mate == DropMate::forbidden || rule.mate == DropMate::in_front;
      const bool no_overturned = rule.overturned_king_attack == Permission::forbidden;
      // Near a hopper's line to the royal, a drop may give or parry its check.
      const bool watched =
          !Plain && safe.watching && (safe.judged_checks > 0 || (targets & safe.watch).any());
      // A sink that only counts takes drops with nothing to judge per square
      // all at once.
      if constexpr (requires { sink.add(std::size_t{}); })
        if (!no_overturned && !no_mate && !watched) {
          sink.add(static_cast<std::size_t>(targets.count()));
          continue;
        }
      // True once the sink stops.
      targets.any_of([&](int to) {
        const Move m = Move::drop(k, to);
        if (watched && safe.watched(m) && !royal_safe_after(m)) return false;
        if ((no_overturned || no_mate) && refused_drop(m, code, rule, enemy)) return false;
        ok = sink(m);
        return !ok;
      });
    }
    return ok;
  }
};

// Calls f(g) with the seat's generator g: a Generator<true> where every
// ray of the variant is plain, so that their generation skips the tests
// the other rays need.
template <class F>
decltype(auto) with_generator(const VariantData& v, const State& s, int seat, bool royal_captures,
                              F&& f) {
  if (v.all_plain) {
    Generator<true> g{v, s, seat, royal_captures};
    return f(g);
  }
  Generator<false> g{v, s, seat, royal_captures};
  return f(g);
}

}  // namespace

namespace {

// Whether a hopper of a seat in `seats` attacks `sq` past one piece, `lifted`
// taken as empty.
bool hopper_attacks(const VariantData& v, const State& s, int sq, unsigned seats, int lifted) {
  for (int vi : slides_near(v, sq)) {
    const Seen screen = first_piece(v, s, sq, vi, lifted);
    if (screen.q < 0) continue;
    const Seen hopper = first_piece(v, s, sq, vi, lifted, screen);
    if (hopper.q >= 0 && hops_back(v, s, seats, hopper.q, vi, hopper.step)) return true;
  }
  return false;
}

}  // namespace

namespace {

template <bool Borrow>
bool attacked_along(const VariantData& v, const State& s, int sq, unsigned seats, int lifted) {
  auto hits = [&](int q, int vi, int step) {
    return reaches_back<Borrow>(v, s, seats, q, vi, step);
  };
  // Leaps (and one-step moves): one cell to look at per vector.
  for (const auto& [vi, q] : leaps_near(v, sq))
    if (static_cast<unsigned>(q != lifted) & static_cast<unsigned>(hits(q, vi, 0))) return true;
  for (int vi : slides_near(v, sq)) {
    const Seen first = first_piece(v, s, sq, vi, lifted);
    if (first.q >= 0 && hits(first.q, vi, first.step)) return true;
  }
  if (v.hoppers) [[unlikely]]
    return hopper_attacks(v, s, sq, seats, lifted);
  return false;
}

}  // namespace

bool attacked_by(const VariantData& v, const State& s, int sq, unsigned seats, int lifted) {
  if (!seats) return false;
  if (v.borrows) [[unlikely]]
    return attacked_along<true>(v, s, sq, seats, lifted);
  return attacked_along<false>(v, s, sq, seats, lifted);
}

bool in_check(const VariantData& v, const State& s, int seat) {
  if (!v.rules.check.enabled || !s.active(seat) || s.royal[seat] < 0) return false;
  return attacked_by(v, s, s.royal[seat], v.attackers_of(s, seat));
}

namespace {

// Whether a piece `code` on `sq` attacks `king`, the square `lifted` taken
// as empty: read back from the royal (the leap or the one line from it to
// `sq`, as attacked_by reads them), or where several lines lead there,
// along the piece's rays.
bool attacks_from(const VariantData& v, const State& s, std::uint8_t code, int sq, int king,
                  int lifted) {
  const std::size_t at = static_cast<std::size_t>(king) * v.nsq + sq;
  const std::size_t ranges = static_cast<std::size_t>(code) * v.nvec;
  const int leap = v.leap_to[at];
  const int line = v.line_to[at];
  if (leap != VariantData::kManyLines && line != VariantData::kManyLines) {
    if (leap >= 0 && v.range[ranges + leap] > 0) return true;
    if (line < 0) return false;
    const std::uint8_t* walk =
        &v.rev[v.rev_at[static_cast<std::size_t>(king) * v.nvec + static_cast<std::size_t>(line)]];
    const int len = *walk++;
    for (int step = 0; step < len; ++step) {
      const int q = walk[step];
      if (q == sq) return v.range[ranges + line] > step;
      if (q != lifted && s.cells[q].code != kEmpty) return false;
    }
    return false;
  }
  const std::uint8_t* p = rays_of(v, code, sq);
  const int nrays = ray_count(*p++);
  for (int i = 0; i < nrays; ++i) {
    const int len = *p++;
    for (int j = 0; j < len; ++j) {
      const int t = p[j];
      if (t == king) return true;
      if (t != lifted && s.cells[t].code != kEmpty) break;
    }
    p += len;
  }
  return false;
}

}  // namespace

#ifdef KOMA_SELF_CHECK
void self_check(const VariantData& v, const State& s, KnownChecks known) {
  for (int seat = 0; seat < v.nseats; ++seat)
    if (known.knows(seat) && known.has_check(seat) != in_check(v, s, seat)) {
      std::fprintf(stderr, "koma: seat %d kept as %s check, but it is not so\n", seat,
                   known.has_check(seat) ? "in" : "not in");
      std::abort();
    }
}
#endif

Checks move_checks(const VariantData& v, const State& s, Move m, int king, unsigned attackers) {
  const int us = s.to_move;
  const int from = m.is_drop() ? -1 : m.from;
  const std::int16_t* lines = &v.line_to[static_cast<std::size_t>(king) * v.nsq];
  if (m.to == king || (from >= 0 && lines[from] == VariantData::kManyLines) ||
      v.indirect_attacks() || m.is_double())
    return Checks::unsure;
  const SquareSet& reach = v.reach_to[static_cast<std::size_t>(king)];
  if (!reach.test(m.to) && (from < 0 || !reach.test(from))) return Checks::no;
  const std::uint8_t code = m.is_drop() ? code_of(m.kind, v.seat_facing[us])
                                        : moved_code(v, s.cells[from].code, m.promote);
  if (((attackers >> us) & 1u) && attacks_from(v, s, code, m.to, king, from)) return Checks::yes;
  if (from < 0) return Checks::no;
  // The line from the royal through `from`: the first piece along it but
  // the one that left, unless the moved piece stands between again.
  const int vi = lines[from];
  if (vi < 0) return Checks::no;
  const std::uint8_t* walk = &v.rev[v.rev_at[static_cast<std::size_t>(king) * v.nvec + vi]];
  const int len = *walk++;
  for (int step = 0; step < len; ++step) {
    const int q = walk[step];
    if (q == m.to) return Checks::no;
    const Cell c = s.cells[q];
    if (q == from || c.code == kEmpty) continue;
    return ((attackers >> c.owner) & 1u) &&
                   v.range[static_cast<std::size_t>(c.code) * v.nvec + vi] > step
               ? Checks::yes
               : Checks::no;
  }
  return Checks::no;
}

bool move_gives_check(const VariantData& v, const State& s, Move m, int king) {
  const Checks checks = move_checks(v, s, m, king);
  if (checks != Checks::unsure) return checks == Checks::yes;
  State t = s;
  return played_gives_check(v, t, m, s.cells[king].owner);
}

bool played_gives_check(const VariantData& v, State& s, Move m, int seat) {
  Undo undo;
  if (!make_in_place(v, s, m, undo)) return true;
  // Attacked, as move_checks reads it, with or without check rules (chu
  // shogi's searches look for attacks on the king all the same).
  const int royal = s.royal[seat];
  const bool check =
      s.active(seat) && royal >= 0 && attacked_by(v, s, royal, v.attackers_of(s, seat));
  unmake_in_place(v, s, m, undo);
  return check;
}

#ifdef KOMA_SELF_CHECK
namespace {

// Whether the move `m` of `seat`, played on a copy, leaves the square
// `target` attacked by the seat's pieces.
bool played_attacks(const VariantData& v, const State& s, int seat, Move m, int target) {
  State t = s;
  t.to_move = static_cast<std::uint8_t>(seat);
  make_move(v, t, m);
  return attacked_by(v, t, target, 1u << seat);
}

// A filtered generation (which skips the pieces that reach nothing it
// wants, and with captures_and_checks the squares from which a piece
// cannot check) must list the moves of the whole generation the filter
// lets through, in their order; the checks are found by playing each move
// (by move_gives_check where the royal is attacked already: without
// check rules, it may be).
void check_filtered(const VariantData& v, const State& s, int seat, const Move* listed,
                    std::size_t n, MoveFilter filter, int target) {
  MoveList all, expected;
  generate_moves(v, s, seat, all);
  const bool checks = filter == MoveFilter::captures_and_checks;
  const bool attacked = checks && attacked_by(v, s, target, 1u << seat);
  for (Move m : all) {
    const bool capture = is_capture(s, m);
    const bool check = checks && (attacked ? move_gives_check(v, s, m, target)
                                           : played_attacks(v, s, seat, m, target));
    if (capture || check) expected.push_back(m);
  }
  if (!std::equal(expected.begin(), expected.end(), listed, listed + n)) {
    std::fprintf(stderr, "koma: filtered generation of seat %d lists %zu moves, %zu expected\n",
                 seat, n, expected.size());
    std::abort();
  }
}

}  // namespace
#endif

void generate_moves(const VariantData& v, const State& s, int seat, MoveList& out,
                    MoveFilter filter, int target) {
  auto sink = [&](Move m) {
    out.push_back(m);
    return true;
  };
  // The generator lets through the moves that may check; this sink keeps
  // those that do.
  auto checking_sink = [&](Move m) {
    if (is_capture(s, m) || move_gives_check(v, s, m, target)) out.push_back(m);
    return true;
  };
  [[maybe_unused]] const std::size_t first = out.size();
  with_generator(v, s, seat, true, [&](auto& g) {
    g.filter = filter;
    g.target = target;
    if (filter == MoveFilter::captures_and_checks)
      g.run(checking_sink);
    else
      g.run(sink);
  });
#ifdef KOMA_SELF_CHECK
  if (filter != MoveFilter::all)
    check_filtered(v, s, seat, out.data() + first, out.size() - first, filter, target);
#endif
}

namespace {

// A sink that counts moves, and takes a number of them at once.
struct Counter {
  std::size_t n = 0;
  bool operator()(Move) {
    ++n;
    return true;
  }
  void add(std::size_t more) { n += more; }
};

}  // namespace

bool is_legal_move(const VariantData& v, const State& s, int seat, Move m) {
  if (m.to >= v.nsq || !v.board.test(m.to)) return false;
  bool found = false;
  auto sink = [&](Move g) {
    found = g == m;
    return !found;
  };
  if (m.is_drop() ? m.kind >= v.kinds.size() : m.from >= v.nsq || !s.owned[seat].test(m.from))
    return false;
  const Safety safe = safety_of(v, s, seat);
  with_generator(v, s, seat, true, [&](auto& g) {
    if (m.is_drop()) {
      g.only_kind = m.kind;
      g.only_to = m.to;
      g.drops(sink, safe, v.attackers_of(s, seat));
    } else if (m.is_double()) {
      bool ok = true;
      if (v.double_movers) g.double_moves(sink, m.from, ok);
    } else {
      bool ok = true;
      g.moves_of_piece(sink, safe, v.attackers_of(s, seat), m.from, ok);
    }
  });
  return found;
}

std::size_t count_moves(const VariantData& v, const State& s, int seat) {
  Counter counter;
  with_generator(v, s, seat, true, [&](auto& g) { g.run(counter); });
  return counter.n;
}

bool has_legal_move(const VariantData& v, const State& s, int seat, bool with_royal_captures) {
  bool found = false;
  auto sink = [&](Move) {
    found = true;
    return false;
  };
  with_generator(v, s, seat, with_royal_captures,
                 [&](auto& g) { g.run(sink, Order::first_found); });
  return found;
}

bool has_legal_move_unchecked(const VariantData& v, const State& s, int seat) {
  // Where pieces hop, a piece no slider pins may still be a screen.
  if (v.rules.check.enabled && s.royal[seat] >= 0 && !v.indirect_attacks() &&
      with_generator(v, s, seat, true, [](auto& g) { return g.unpinned_piece_moves(); }))
    return true;
  return has_legal_move(v, s, seat);
}

bool is_checkmated(const VariantData& v, const State& s, int seat) {
  return in_check(v, s, seat) && !has_legal_move(v, s, seat, false);
}

namespace {

// make_in_place's capture of `taken` on `sq` (nothing where empty).
[[gnu::always_inline]] inline void take_in_place(const VariantData& v, State& s, int sq, Cell taken,
                                                 int mover) {
  if (taken.code == kEmpty) return;
  remove_piece(v, s, sq);
  if (v.rules.drops.captured == Captured::to_hand)
    s.hand[mover][v.base_kind(kind_of(taken.code))]++;
}
// And its undoing.
[[gnu::always_inline]] inline void untake_in_place(const VariantData& v, State& s, int sq,
                                                   Cell taken, int mover) {
  if (taken.code == kEmpty) return;
  put_piece(v, s, sq, taken.code, taken.owner);
  if (v.rules.drops.captured == Captured::to_hand)
    s.hand[mover][v.base_kind(kind_of(taken.code))]--;
}
bool takes_royal(const VariantData& v, Cell c) {
  return is_piece(c.code) && v.kinds[kind_of(c.code)].royal;
}

}  // namespace

// A double move takes what stands on its middle square and on its last
// (empty where that is the start); Unusual sees to both and to the
// counter-strike square, the usual way to neither.
template <bool Unusual>
bool make_in_place_as(const VariantData& v, State& s, Move m, Undo& u) {
  const int mover = s.to_move;
  u.board_key = s.board_key;
  u.hand_key = s.hand_key;
  u.royal = s.royal;
  if constexpr (Unusual) u.strike = s.strike;
  if (m.is_drop()) {
    if constexpr (Unusual) set_strike(v, s, -1);
    s.hand[mover][v.base_kind(m.kind)]--;
    put_piece(v, s, m.to, code_of(m.kind, v.seat_facing[mover]), mover);
    return true;
  }
  u.from = s.cells[m.from];
  if constexpr (Unusual) {
    u.mid = m.is_double() ? s.cells[m.middle()] : Cell{};
    u.to = m.to == m.from ? Cell{} : s.cells[m.to];
    if (takes_royal(v, u.mid) || takes_royal(v, u.to)) return false;
    if (v.counter_strike()) set_strike(v, s, strike_after(v, s, m));
  } else {
    u.to = s.cells[m.to];
    if (takes_royal(v, u.to)) return false;
  }
  remove_piece(v, s, m.from);
  if constexpr (Unusual)
    if (m.is_double()) take_in_place(v, s, m.middle(), u.mid, mover);
  take_in_place(v, s, m.to, u.to, mover);
  put_piece(v, s, m.to, moved_code(v, u.from.code, m.promote), mover);
  return true;
}

template <bool Unusual>
void unmake_in_place_as(const VariantData& v, State& s, Move m, const Undo& u) {
  const int mover = s.to_move;
  remove_piece(v, s, m.to);
  if (m.is_drop()) {
    s.hand[mover][v.base_kind(m.kind)]++;
  } else {
    put_piece(v, s, m.from, u.from.code, u.from.owner);
    untake_in_place(v, s, m.to, u.to, mover);
    if constexpr (Unusual)
      if (m.is_double()) untake_in_place(v, s, m.middle(), u.mid, mover);
  }
  s.board_key = u.board_key;
  s.hand_key = u.hand_key;
  s.royal = u.royal;
  if constexpr (Unusual) s.strike = u.strike;
}

template bool make_in_place_as<false>(const VariantData&, State&, Move, Undo&);
template bool make_in_place_as<true>(const VariantData&, State&, Move, Undo&);
template void unmake_in_place_as<false>(const VariantData&, State&, Move, const Undo&);
template void unmake_in_place_as<true>(const VariantData&, State&, Move, const Undo&);

namespace {

// make_move's capture on `sq`, if a piece stands there: it leaves the board
// for the mover's hand, or (a royal) its seat may leave the game.
void capture_on(const VariantData& v, State& s, int sq, int mover) {
  const Cell target = s.cells[sq];
  if (target.code == kEmpty) return;
  remove_piece(v, s, sq);
  const int kind = kind_of(target.code);
  if (v.kinds[kind].royal) {
    // Only variants whose kings may be captured, or whose seats may have
    // several royals, get here. A royal never enters a hand; an eliminated
    // seat's kept king just leaves the board, and so does a royal that was
    // not its seat's last.
    if (s.active(target.owner) && s.royals[target.owner] == 0)
      eliminate_seat(v, s, target.owner, EliminationCause::royal_captured, mover);
  } else if (v.rules.drops.captured == Captured::to_hand) {
    add_to_hand(v, s, mover, v.base_kind(kind));
  }
}

}  // namespace

namespace {

// Whether the lion on `to` is protected once a lion of the other seat has
// left `from` and passed `mid` (-1: none): attacked by a piece of its own
// seat, both squares empty for lines, a piece taken on `mid` counting as a
// protector all the same (as shogiops reads protection).
bool lion_protected(const VariantData& v, const State& s, int from, int mid, int to) {
  const int owner = s.cells[to].owner;
  if (mid < 0 || s.cells[mid].code == kEmpty) return attacked_by(v, s, to, 1u << owner, from);
  State t = s;
  remove_piece(v, t, from);
  const Cell taken = t.cells[mid];
  remove_piece(v, t, mid);
  if (attacked_by(v, t, to, 1u << owner)) return true;
  return is_piece(taken.code) && taken.owner == owner &&
         any_attacked(v, t, taken.code, mid, [&](int q) { return q == to; });
}

}  // namespace

const char* lion_capture_refused(const VariantData& v, const State& s, std::uint8_t code, int from,
                                 int mid, int to) {
  const LionRules& rules = v.rules.lions;
  const Cell target = s.cells[to];
  if (!is_piece(target.code) || !rules.is_lion(kind_of(target.code))) return nullptr;
  if (!rules.is_lion(kind_of(code))) {
    if (rules.counter_strike && s.strike >= 0 && s.strike != to)
      return "after a lion was taken by a piece that is no lion, a piece that is no lion may "
             "take a lion only where that happened (counter-strike)";
    return nullptr;
  }
  if (!rules.protected_forbidden || v.king_steps(from, to) <= 1) return nullptr;
  if (mid >= 0) {
    const Cell bridge = s.cells[mid];
    if (is_piece(bridge.code) && !((rules.bridge_ignores >> kind_of(bridge.code)) & 1u))
      return nullptr;
  }
  if (!lion_protected(v, s, from, mid, to)) return nullptr;
  return "a lion may not take a protected lion that is not next to it (unless its first step "
         "took a piece that opens the bridge)";
}

int strike_after(const VariantData& v, const State& s, Move m) {
  if (!v.counter_strike() || m.is_drop() || v.rules.lions.is_lion(kind_of(s.cells[m.from].code)))
    return -1;
  auto lion = [&](int sq) {
    const Cell c = s.cells[sq];
    return is_piece(c.code) && v.rules.lions.is_lion(kind_of(c.code));
  };
  if (m.to != m.from && lion(m.to)) return m.to;
  return m.is_double() && lion(m.middle()) ? m.middle() : -1;
}

void make_move(const VariantData& v, State& s, Move m) {
  int mover = s.to_move;
  int facing = v.seat_facing[mover];
  if (v.counter_strike()) [[unlikely]]
    set_strike(v, s, strike_after(v, s, m));
  if (m.is_drop()) {
    const int held = v.base_kind(m.kind);  // the same unless dropped promoted side up
    s.hand[mover][held]--;
    s.hand_key -= v.z_hand[mover][held];
    put_piece(v, s, m.to, code_of(m.kind, facing), mover);
    return;
  }
  Cell moving = s.cells[m.from];
  remove_piece(v, s, m.from);
  // A double move takes on its middle square first.
  if (m.is_double()) capture_on(v, s, m.middle(), mover);
  capture_on(v, s, m.to, mover);
  put_piece(v, s, m.to, moved_code(v, moving.code, m.promote), mover);
}

std::uint64_t key_after(const VariantData& v, const State& s, Move m) {
  const int mover = s.to_move;
  std::uint64_t board = s.board_key ^ v.z_turn[mover] ^ v.z_turn[v.next_seat(mover)];
  std::uint64_t hand = s.hand_key;
  if (v.counter_strike()) [[unlikely]] {
    const int strike = strike_after(v, s, m);
    if (s.strike >= 0) board ^= v.z_strike[static_cast<std::size_t>(s.strike)];
    if (strike >= 0) board ^= v.z_strike[static_cast<std::size_t>(strike)];
  }
  if (m.is_drop()) {
    board ^= v.cell_key(code_of(m.kind, v.seat_facing[mover]), mover, m.to);
    hand -= v.z_hand[mover][v.base_kind(m.kind)];
    return board ^ hand;
  }
  const Cell moving = s.cells[m.from];
  board ^= v.cell_key(moving.code, moving.owner, m.from) ^
           v.cell_key(moved_code(v, moving.code, m.promote), moving.owner, m.to);
  auto take = [&](int sq) {
    const Cell target = s.cells[sq];
    if (target.code == kEmpty) return;
    board ^= v.cell_key(target.code, target.owner, sq);
    const int kind = kind_of(target.code);
    if (!v.kinds[kind].royal && v.rules.drops.captured == Captured::to_hand)
      hand += v.z_hand[mover][v.base_kind(kind)];
  };
  if (m.is_double()) [[unlikely]]
    take(m.middle());
  if (m.to != m.from) take(m.to);
  return board ^ hand;
}

}  // namespace koma::detail
