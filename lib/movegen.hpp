// Internal: attacks and legal move generation for any seat of any variant.
//
// Legality is decided without playing moves where it can be: the mover's
// checkers and pinned pieces are found once by walking the reverse rays from
// its royal, so a non-royal move is legal if it stays on its pin line and, in
// check, captures the checker or blocks. Royal moves test the target square
// with the royal lifted. Only rare moves (royal captures, drops that might
// mate) are played on a scratch copy.
#pragma once
#include <boost/container/small_vector.hpp>

#include "koma/move.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// Held in place up to kInlineMoves (every shipped variant's positions stay
// far below: shogi's most is 593); beyond, a descriptor with many kinds in
// hand on a large board can reach tens of thousands, kept on the heap.
inline constexpr int kInlineMoves = 8192;
using MoveList = boost::container::small_vector<Move, kInlineMoves>;

// The move table of the piece `code` on `sq`: the number of rays (with
// VariantData::kMoreRays where not all are plain: ray_count reads it), then
// each ray's length and squares, nearest first.
inline const std::uint8_t* rays_of(const VariantData& v, std::uint8_t code, int sq) {
  return &v.rays[v.ray_at[static_cast<std::size_t>(code) * v.nsq + sq]];
}
inline int ray_count(std::uint8_t head) {
  return head & VariantData::kRayCount;
}

// moves_as: behind. The code whose moves the piece `code` of `owner` makes
// on `sq`: that of the friendly piece directly behind it, if any, else its
// own. borrowed_code reads the piece on the board; moving_code does so
// only where pieces borrow.
inline std::uint8_t lent_code(const VariantData& v, const State& s, std::uint8_t code, int owner,
                              int sq) {
  const int lender = v.behind_of(facing_of(code), sq);
  if (lender < 0) return code;
  const Cell c = s.cells[lender];
  return is_piece(c.code) && c.owner == owner ? c.code : code;
}
inline std::uint8_t borrowed_code(const VariantData& v, const State& s, int sq) {
  const Cell c = s.cells[sq];
  return is_piece(c.code) ? lent_code(v, s, c.code, c.owner, sq) : c.code;
}
inline std::uint8_t moving_code(const VariantData& v, const State& s, int sq) {
  return v.borrows ? borrowed_code(v, s, sq) : s.cells[sq].code;
}

// The rays of the piece `code` on `sq` that are not plain
// (VariantData::xrays): the number of rays, then each ray's kind, length
// and squares.
inline const std::uint8_t* xrays_of(const VariantData& v, std::uint8_t code, int sq) {
  return &v.xrays[v.xray_at[static_cast<std::size_t>(code) * v.nsq + sq]];
}

// What a walk along a piece's rays visits: the squares it may go to (an
// empty one to move, an occupied one to capture if an enemy stands there),
// or the squares it attacks (where it would capture an enemy that stood
// there).
enum class Visit : std::uint8_t { destinations, attacks };

// The squares of the piece's rays that are not plain, as `visit` says:
// a move-only ray's empty squares up to the first piece (no attack); a
// capture-only ray's first piece (attacked: the empty squares before it
// too); a hop's squares past its screen, the same way. Asked until `pred`
// holds.
template <Visit visit, class F>
bool any_on_xrays(const VariantData& v, const State& s, std::uint8_t code, int sq, F&& pred) {
  const std::uint8_t* p = xrays_of(v, code, sq);
  const int nrays = *p++;
  for (int r = 0; r < nrays; ++r) {
    const int kind = *p++;
    const int len = *p++;
    const bool captures = (kind & VariantData::kRayCapture) != 0;
    const bool to_empty = visit == Visit::attacks ? captures : (kind & VariantData::kRayMove) != 0;
    int i = 0;
    if (kind & VariantData::kRayHop) {
      while (i < len && s.cells[p[i]].code == kEmpty) ++i;
      ++i;  // the screen
    }
    for (; i < len; ++i) {
      const int t = p[i];
      if (s.cells[t].code == kEmpty) {
        if (to_empty && pred(t)) return true;
        continue;
      }
      if (captures && pred(t)) return true;
      break;
    }
    p += len;
  }
  return false;
}

// The squares a piece of `code` standing on `sq` reaches as `visit` says:
// along each plain ray up to and including the first occupied cell, then
// its other rays (any_on_xrays). any_reached: whether `pred` holds for one
// of them (asked until it does); any_attacked the same for the squares it
// attacks; each_attacked: f on each of those.
template <Visit visit, class F>
bool any_reached(const VariantData& v, const State& s, std::uint8_t code, int sq, F&& pred) {
  const std::uint8_t* p = rays_of(v, code, sq);
  const std::uint8_t head = *p++;
  for (int r = 0; r < ray_count(head); ++r) {
    const int len = *p++;
    for (int i = 0; i < len; ++i) {
      const int t = p[i];
      if (pred(t)) return true;
      if (s.cells[t].code != kEmpty) break;
    }
    p += len;
  }
  if (head & VariantData::kMoreRays) [[unlikely]]
    return any_on_xrays<visit>(v, s, code, sq, pred);
  return false;
}
template <class F>
bool any_attacked(const VariantData& v, const State& s, std::uint8_t code, int sq, F&& pred) {
  return any_reached<Visit::attacks>(v, s, code, sq, pred);
}
template <class F>
void each_attacked(const VariantData& v, const State& s, std::uint8_t code, int sq, F&& f) {
  any_attacked(v, s, code, sq, [&](int t) {
    f(t);
    return false;
  });
}

// Is `sq` attacked by a piece of a seat in `seats` (bit mask)? `lifted` is a
// square treated as empty (the royal that is about to move), or -1. A
// hopper attacks past exactly one piece, of either side.
bool attacked_by(const VariantData& v, const State& s, int sq, unsigned seats, int lifted = -1);
// Seat is in check: its royal on the board is attacked by an active enemy.
bool in_check(const VariantData& v, const State& s, int seat);
// Which seats a state has in check, as far as the turn pipeline asked (a
// bit per seat): kept with the state in a Line, so that a search or the
// evaluation need not ask again.
struct KnownChecks {
  std::uint8_t known = 0, checked = 0;
  bool knows(int seat) const { return (known >> seat) & 1u; }
  // Whether the seat is in check, where knows(seat).
  bool has_check(int seat) const { return (checked >> seat) & 1u; }
  void learn(int seat, bool in) {
    known = static_cast<std::uint8_t>(known | 1u << seat);
    if (in) checked = static_cast<std::uint8_t>(checked | 1u << seat);
  }
  // False where known not in check; true where in check or not known.
  bool maybe(int seat) const { return !knows(seat) || has_check(seat); }
};

// A KOMA_SELF_CHECK build (CMakeLists.txt) aborts here where what `known`
// says of a seat differs from in_check; otherwise it does nothing.
#ifdef KOMA_SELF_CHECK
void self_check(const VariantData& v, const State& s, KnownChecks known);
#else
inline void self_check(const VariantData& /*v*/, const State& /*s*/, KnownChecks /*known*/) {}
#endif

// Whether the move `m` of the seat to move leaves the royal on `king` (of
// another seat, attacked by no piece of the seats `attackers` before the
// move) attacked by one of theirs: by the moved piece from its target
// (where the mover is one of them), or by a slider whose line to the royal
// the move opens; read from the move's squares and lines without playing
// it. Unsure where those do not tell: the move takes the royal, or leaves a
// square on which lines of different steps to the royal cross, or some
// piece of the variant hops to capture (a screen may come or go). Without
// `attackers`: the mover's pieces.
enum class Checks : std::uint8_t { no, yes, unsure };
Checks move_checks(const VariantData& v, const State& s, Move m, int king, unsigned attackers);
inline Checks move_checks(const VariantData& v, const State& s, Move m, int king) {
  return move_checks(v, s, m, king, 1u << s.to_move);
}
// Whether the move `m` of the seat to move leaves the royal on `king` (of
// another seat, not in check before) attacked by one of the mover's pieces:
// move_checks, and where it is unsure the move played on a copy (a royal
// capture counts as a check).
bool move_gives_check(const VariantData& v, const State& s, Move m, int king);
// Whether the move `m` of the seat to move, played on `s` and taken back,
// leaves `seat`'s royal attacked — in check where there are check rules (a
// royal capture counts as a check). `s` is the same afterwards.
bool played_gives_check(const VariantData& v, State& s, Move m, int seat);

// Which legal moves a generation lists, in the order of `all`: all; only
// the board moves that capture (a search's quiescence); or those and the
// other moves that check the royal on a given square (`target`, of a seat
// not in check: move_gives_check), the quiescence's first ply.
enum class MoveFilter : std::uint8_t { all, captures, captures_and_checks };

// Appends to `out` the legal moves of `seat` (normally the seat to move)
// that `filter` lets through, in the documented order: board moves by
// origin square and the piece's move table, promotion first; then drops
// by kind and square.
void generate_moves(const VariantData& v, const State& s, int seat, MoveList& out,
                    MoveFilter filter = MoveFilter::all, int target = -1);
// Whether generate_moves would list `m` for `seat`: any Move is asked, even
// one a hash table kept for another position.
bool is_legal_move(const VariantData& v, const State& s, int seat, Move m);
std::size_t count_moves(const VariantData& v, const State& s, int seat);
bool has_legal_move(const VariantData& v, const State& s, int seat,
                    bool with_royal_captures = true);
// The same for a seat known not to be in check: most often one of its
// pieces that is not pinned has a move, found without the whole test.
bool has_legal_move_unchecked(const VariantData& v, const State& s, int seat);
// In check with no legal move other than a royal capture.
bool is_checkmated(const VariantData& v, const State& s, int seat);

// The forms a board move of the piece `code` from `from` to `to` by `seat`
// may take: promoted (the kind promotes, or turns back with
// promotion.demotion, and the move starts or ends in its zone; with
// promotion.on: capture only a capture) and plain (unless promotion is
// compulsory there, or the piece could never move again from `to`). The
// generator and the illegal-move explainer both ask this.
struct PromotionForms {
  bool promoted = false, plain = true;
  bool plain_dead = false;  // plain is refused because the piece could never move again
};
// promotion.on: enter_or_capture (chu shogi): whether the piece `code` of
// `seat` may promote on a move from `from` to `to`: into its zone, a
// capture in or out of it, or onto a square it could never move from.
bool promotes_entering(const VariantData& v, int seat, std::uint8_t code, int from, int to,
                       bool capture);
[[gnu::always_inline]] inline PromotionForms promotion_forms(const VariantData& v, int seat,
                                                             std::uint8_t code, int from, int to,
                                                             bool capture) {
  PromotionForms f;
  const int kind = kind_of(code);
  if (v.rules.promotion.on == PromoteOn::enter_or_capture) [[unlikely]] {
    f.promoted = v.flip_of(kind) >= 0 && promotes_entering(v, seat, code, from, to, capture);
  } else if (v.flip_of(kind) >= 0 && (capture || v.rules.promotion.on == PromoteOn::any_move)) {
    const SquareSet& z = v.zone_for(seat, facing_of(code));
    f.promoted = z.test(from) || z.test(to);
  }
  f.plain_dead = v.dead[code].test(to);
  f.plain = !f.plain_dead && !(f.promoted && v.must_promote[kind]);
  return f;
}

// Files (bit per file index, as VariantData::file_of counts them for the
// seat's facing) where `seat` already has as many unpromoted pieces of `kind`
// as its drop rule's `per_file` allows: no more may be dropped there.
std::uint32_t files_at_limit(const VariantData& v, const State& s, int seat, int kind);

// Whether the board move `m` takes a piece (a double move on either step).
inline bool is_capture(const State& s, Move m) {
  if (m.is_drop()) return false;
  if (m.is_double()) [[unlikely]]
    return s.cells[m.middle()].code != kEmpty || (m.to != m.from && s.cells[m.to].code != kEmpty);
  return s.cells[m.to].code != kEmpty;
}

// lion_trading: why the seat to move may not take what stands on `to` (an
// enemy lion) with its piece `code` from `from` (`mid`: a double move's
// middle square, taken on the way, or -1): a lion may not take a protected
// lion that is not next to it, unless it took a piece on the way that the
// bridge rule counts; a piece that is no lion may take a lion only on the
// counter-strike square, if there is one. nullptr where it may (as where
// no lion stands on `to`).
const char* lion_capture_refused(const VariantData& v, const State& s, std::uint8_t code, int from,
                                 int mid, int to);

// lion_trading.counter_strike: the counter-strike square the board move `m`
// leaves: where a piece that is not a lion takes an enemy lion (on its
// last square, else on its middle one), -1 for none.
int strike_after(const VariantData& v, const State& s, Move m);

// Board effect of a move by the seat to move: the piece moves or is dropped,
// a captured piece goes unpromoted to the mover's hand (a captured royal
// eliminates its seat where kings may be captured). Nothing else.
void make_move(const VariantData& v, State& s, Move m);

// The position key (board_key ^ hand_key) that make_move(m) and the turn
// passing to the next seat in order would give: a guess, to fetch a
// table's slot before the move is played. The eliminations, passes and
// skipped seats the turn pipeline may add are not foreseen.
std::uint64_t key_after(const VariantData& v, const State& s, Move m);

// The code of the piece `code` after a move, promoted or not.
inline std::uint8_t moved_code(const VariantData& v, std::uint8_t code, bool promote) {
  return promote ? code_of(v.flip_of(kind_of(code)), facing_of(code)) : code;
}

// The piece `code` facing the other way: its moves are those of `code`
// reversed (the descriptor turns a kind's moves by its facing, and facings
// two apart mirror each other through the point), so it reaches from a
// square q exactly the squares from which `code` reaches q.
inline std::uint8_t reversed_code(std::uint8_t code) {
  return code_of(kind_of(code), (facing_of(code) + 2) % 4);
}

// The same in place, with what it takes to undo it: for walking a tree
// without copying the state at every node. Returns false (and changes
// nothing) for a royal capture, whose elimination is not undone here.
struct Undo {
  Cell from, to, mid;  // mid: a double move's middle square
  std::int16_t strike;
  std::uint64_t board_key, hand_key;
  std::array<std::int16_t, kMaxSeats> royal;
};
// Each comes in two ways, chosen here (inlined where called) or once by a
// caller that makes many (perft's leaves): the usual one, and with
// `Unusual` the one for variants with double moves or a counter-strike
// square (VariantData::unusual_moves), whose tests the usual one skips.
template <bool Unusual>
bool make_in_place_as(const VariantData& v, State& s, Move m, Undo& u);
template <bool Unusual>
void unmake_in_place_as(const VariantData& v, State& s, Move m, const Undo& u);
inline bool make_in_place(const VariantData& v, State& s, Move m, Undo& u) {
  return v.unusual_moves ? make_in_place_as<true>(v, s, m, u) : make_in_place_as<false>(v, s, m, u);
}
inline void unmake_in_place(const VariantData& v, State& s, Move m, const Undo& u) {
  if (v.unusual_moves)
    unmake_in_place_as<true>(v, s, m, u);
  else
    unmake_in_place_as<false>(v, s, m, u);
}

}  // namespace koma::detail
