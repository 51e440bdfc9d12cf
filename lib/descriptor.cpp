// The loader's chain (descriptor.hpp): files, options, keys, tables, setup,
// and the checks that refuse a descriptor whose rules would break in play.
#include "descriptor.hpp"

#include <algorithm>
#include <atomic>

#include "movegen.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "reader.hpp"
#include "schema.hpp"
#include "setup.hpp"
#include "state_ops.hpp"
#include "tables.hpp"

namespace koma::detail {
namespace {

// The keys a merged descriptor may hold at its top level.
std::vector<std::string> top_level_keys() {
  std::vector<std::string> keys = descriptor_keys();
  keys.insert(keys.begin(), "koma");
  return keys;
}

// Entries keyed by a piece letter (drops.<letter>, end.impasse.points) that
// an extended file wrote for a piece this variant does not have are
// dropped: the piece is gone, so its rule or points cannot apply. Such an
// entry written or changed in the loaded file itself stays, an error.
void drop_inherited_letters(Doc& top) {
  std::vector<std::string> letters;
  if (const Doc* pieces = top.find("pieces"); pieces && pieces->is_map())
    for (const auto& [letter, piece] : pieces->map) letters.push_back(letter);
  const std::string own = top.loc.file ? *top.loc.file : std::string();
  auto from_base = [&](const Loc& at) { return at.file && *at.file != own; };
  // `words`: the mapping's own keys, which are no piece letters.
  auto prune = [&](Doc* m, const std::vector<std::string>& words) {
    if (!m || !m->is_map()) return;
    for (std::size_t i = m->map.size(); i-- > 0;) {
      const std::string& key = m->map[i].first;
      if (std::find(words.begin(), words.end(), key) != words.end() || !from_base(m->key_locs[i]) ||
          !from_base(m->map[i].second.loc) ||
          std::find(letters.begin(), letters.end(), key) != letters.end())
        continue;
      m->map.erase(m->map.begin() + static_cast<long>(i));
      m->key_locs.erase(m->key_locs.begin() + static_cast<long>(i));
    }
  };
  prune(top.find("drops"), keys_under("drops"));
  if (Doc* end = top.find("end"); end && end->is_map())
    if (Doc* impasse = end->find("impasse"); impasse && impasse->is_map())
      prune(impasse->find("points"), {"others"});
}

// What the rows read, compiled into what play reads.

void derive_turns(VariantData& v) {
  if (v.turn_order.empty())
    for (int i = 0; i < v.nseats; ++i) v.turn_order.push_back(i);
  for (int i = 0; i < v.nseats; ++i) {
    v.turn_order_numbers.push_back(v.turn_order[i] + 1);
    for (int steps = 0; steps <= v.nseats; ++steps)
      v.turn_after[v.turn_order[i]][steps] =
          static_cast<std::int8_t>(v.turn_order[(i + steps) % v.nseats]);
  }
}

// VariantData::flip (the other side of each kind, as promotion.demotion
// says) and must_promote (promotion.compulsory and each piece's own say).
void derive_promotion(VariantData& v) {
  for (std::size_t k = 0; k < v.kinds.size(); ++k) {
    const PieceKindInfo& kind = v.kinds[k];
    const bool back =
        v.rules.promotion.demotion && kind.promoted && kind.demotes_to != static_cast<int>(k);
    v.flip[k] =
        static_cast<std::int8_t>(kind.promoted ? (back ? kind.demotes_to : -1) : kind.promotes_to);
  }
  for (std::size_t k = 0; k < v.kinds.size(); ++k) switch (v.piece_promotion[k]) {
      case PiecePromotion::compulsory:
        v.must_promote[k] = true;
        break;
      case PiecePromotion::optional:
        break;
      case PiecePromotion::as_zone:
        v.must_promote[k] = v.rules.promotion.compulsory && v.flip_of(static_cast<int>(k)) >= 0;
        break;
    }
}

// Checks of what the rows read, once all is read.

// SFEN has no mark for a void: a piece could be written onto one, and a
// void would print as an empty cell.
// end.bare_king and end.lone_royals weigh one seat against the other.
void check_bare_king(const VariantData& v, const Doc& top) {
  const EndRules& end = v.rules.end;
  if (v.nseats != 2 &&
      (end.bare_king.rule != BareKing::none || end.lone_royals != LoneRoyals::none))
    fail(top.find("end")->loc, "end.bare_king and end.lone_royals need exactly two seats");
}

void check_notation(const VariantData& v, const Doc& top) {
  // SFEN writes the counter-strike square where it writes hands.
  if (v.sfen && v.counter_strike() && !v.strike_in_sfen())
    fail(top.find("lion_trading")->loc,
         "with notation sfen, the counter-strike square is written where hands are (chu "
         "shogi's SFEN): lion_trading.counter_strike needs drops: {enabled: false, captured: "
         "removed}");
  if (v.sfen && (v.nseats != 2 || !v.shogi_squares || v.board.count() != v.nsq))
    fail(top.find("notation")->loc,
         "notation sfen needs two seats on a board without voids, its squares named as in shogi "
         "(the default up to 9x9; board: {squares: shogi} on larger ones)");
}

// One seat stands last from the start: those rules would end every game
// at its first move.
void check_seats(const VariantData& v, const Doc& top) {
  const EndRules& end = v.rules.end;
  if (v.nseats == 1 && (end.last_seat_standing || end.last_team_standing))
    fail(
        top.find("seats")->loc,
        std::string("with one seat, ") +
            (end.last_seat_standing ? "last_seat_standing (on by default)" : "last_team_standing") +
            " would end every game at its first move; a game of one seat sets end: "
            "{last_seat_standing: false}");
}

void check_promotion(const VariantData& v, const Doc& top) {
  if (v.rules.promotion.zone != ZoneRule::enemy_homes) return;
  if (v.rules.promotion.by == ZoneBy::facing)
    fail(find_path(top, "promotion.by")->loc, "zone enemy_homes is decided by owner, not facing");
  if (std::none_of(v.home.begin(), v.home.begin() + v.nseats,
                   [](const SquareSet& h) { return h.any(); }))
    fail(top.find("promotion")->loc, "zone enemy_homes needs a 'home' region on the seats");
}

void check_drops(const Doc& top) {
  const Doc* drops = top.find("drops");
  if (!drops) return;
  for (const auto& [letter, rule] : drops->map)
    if (rule.is_map() && rule.find("nifu"))
      if (const Doc* n = rule.find("per_file"))
        fail(n->loc, "give either 'nifu' or 'per_file', not both");
}

void check_impasse(const VariantData& v, const Doc& top) {
  const Doc* impasse = find_path(top, "end.impasse");
  if (impasse && v.rules.end.impasse.rule == ImpasseRule::declaration && !impasse->find("win_at"))
    fail(impasse->loc, "a declaration impasse rule needs 'win_at': the points each seat needs");
  if (const Doc* judged = impasse ? impasse->find("judged") : nullptr;
      judged && v.rules.end.impasse.rule != ImpasseRule::declaration)
    fail(judged->loc,
         "end.impasse.judged says when a declaration's count is made; this "
         "variant's impasse rule is not 'declaration'");
}

// A promotion (or a turn back) into a royal kind gives a seat a second
// royal: only where kings.several allows it.
void check_royal_promotions(const VariantData& v, const Doc& top) {
  if (v.rules.kings.several == SeveralRoyals::last_is_royal) return;
  const Doc* pieces = top.find("pieces");
  for (std::size_t k = 0; k < v.kinds.size(); ++k) {
    const int to = v.flip_of(static_cast<int>(k));
    if (to >= 0 && v.kinds[static_cast<std::size_t>(to)].royal && !v.kinds[k].royal)
      fail(pieces->key_locs[k], "piece " + v.kinds[k].letter + " turns into the royal " +
                                    v.kinds[static_cast<std::size_t>(to)].letter +
                                    ", which gives a seat a second royal; that needs "
                                    "kings: {several: last_is_royal}");
  }
}

// A royal never enters a hand: a captured piece goes there as its base
// kind (demotes_to), so no non-royal kind may have a royal base kind —
// written as its demotes_to, or derived from a royal that promotes to it.
void check_royals_stay_out_of_hands(const VariantData& v, const Doc& top) {
  if (v.rules.drops.captured != Captured::to_hand) return;
  const Doc* pieces = top.find("pieces");
  for (std::size_t k = 0; k < v.kinds.size(); ++k) {
    const PieceKindInfo& kind = v.kinds[k];
    const PieceKindInfo& base = v.kinds[static_cast<std::size_t>(kind.demotes_to)];
    if (kind.royal || !base.royal) continue;
    const std::string because = "captured, " + kind.letter + " would enter a hand as the royal " +
                                base.letter + ", and a royal never enters a hand; ";
    if (const Doc* written = pieces->map[k].second.find("demotes_to"))
      fail(written->loc, "piece " + kind.letter + " demotes to the royal " + base.letter + ": " +
                             because + "demote it to a non-royal kind, or make it royal too");
    const Doc* promotes =
        pieces->map[static_cast<std::size_t>(kind.demotes_to)].second.find("promotes_to");
    fail(promotes ? promotes->loc : pieces->key_locs[k],
         "the royal " + base.letter + " promotes to " + kind.letter +
             ", which is not royal: " + because + "make " + kind.letter + " royal too, or give " +
             base.letter + " no promotes_to");
  }
}

// Values the board cannot hold: a far_rows depth or a drops per_file longer
// than the board along some seat's forward direction, a min_pieces_in_zone
// larger than a seat's zone. Run once the zones are compiled.
void check_fits(const VariantData& v, const Doc& top) {
  int shortest = 0;  // the seat whose files (lines along its facing) are shortest
  auto along = [&](int seat) { return v.seat_facing[seat] % 2 == 0 ? v.height : v.width; };
  for (int s = 1; s < v.nseats; ++s)
    if (along(s) < along(shortest)) shortest = s;
  auto fits = [&](const Doc& value, const std::string& path, int n) {
    const int most = along(shortest);
    if (n <= most) return;
    fail(value.loc, path + " " + std::to_string(n) + " does not fit a board " +
                        std::to_string(most) +
                        (v.seat_facing[shortest] % 2 == 0 ? " rows high" : " columns wide") +
                        "; at most " + std::to_string(most));
  };
  if (const Doc* depth = find_path(top, "promotion.depth");
      depth && v.rules.promotion.zone == ZoneRule::far_rows)
    fits(*depth, "promotion.depth", v.rules.promotion.depth);
  if (const Doc* d = top.find("drops"))
    for (const auto& [letter, rule] : d->map)
      if (const Doc* n = rule.find("per_file"))
        fits(*n, "drops." + letter + ".per_file", std::stoi(n->scalar));
  if (const Doc* depth = find_path(top, "end.goal.depth"))
    fits(*depth, "end.goal.depth", v.rules.end.goal.depth);
  const Doc* impasse = find_path(top, "end.impasse");
  if (!impasse || v.rules.end.impasse.rule != ImpasseRule::declaration) return;
  const Doc* written = impasse->find("min_pieces_in_zone");
  const int least = v.rules.end.impasse.min_pieces_in_zone;
  for (int s = 0; s < v.nseats; ++s) {
    const int squares = v.zone_of_owner[s].count();
    if (squares == 0 || least <= squares - 1) continue;
    fail(written ? written->loc : impasse->loc,
         "end.impasse.min_pieces_in_zone " + std::to_string(least) +
             (written ? "" : " (the default)") + " does not fit seat " + v.seat_names[s] +
             "'s promotion zone: " + std::to_string(squares) +
             " squares, one of them for its king; at most " + std::to_string(squares - 1));
  }
}

// A royal that starts on its own goal would win at the first move; and
// without a royal kind, no piece could ever reach one.
void check_goal_at_start(const VariantData& v, const Doc& top) {
  if (v.rules.end.goal.depth == 0) return;
  if (std::none_of(v.kinds.begin(), v.kinds.end(), [](const PieceKindInfo& k) { return k.royal; }))
    fail(find_path(top, "end.goal")->loc,
         "end.goal: a royal on its far rows wins, but no piece is royal; give a piece "
         "'royal: true', or leave end.goal out");
  for (int sq = 0; sq < v.nsq; ++sq) {
    const Cell c = v.start.cells[sq];
    if (!is_piece(c.code) || !v.kinds[kind_of(c.code)].royal || !v.goal_of_owner[c.owner].test(sq))
      continue;
    fail(find_path(top, "end.goal")->loc,
         "end.goal: seat " + v.seat_names[c.owner] + "'s royal starts on its goal, at " +
             square_name(v, sq) +
             ", so every game would end at its first move; give a smaller "
             "depth");
  }
}

// The start as any game begins it: no king attacked where two seats check
// (as Position::from_text refuses: whichever seat moved first could capture
// it), and a first seat that can move (a game is judged after its moves: one
// whose first seat cannot move would never begin, nor end).
void check_start(const VariantData& v, const Doc& top) {
  const Loc& setup = top.find("setup")->loc;
  if (v.rules.check.enabled && v.nseats == 2)
    for (int seat = 0; seat < 2; ++seat)
      if (in_check(v, v.start, seat))
        fail(setup, "setup: seat " + std::to_string(seat + 1) +
                        "'s king is in check at the start; with two seats and check, neither "
                        "king may be attacked there");
  State first = v.start;
  first.to_move = static_cast<std::uint8_t>(v.first_seat);
  if (!has_legal_move(v, first, v.first_seat))
    fail(setup, "setup: seat " + v.seat_names[v.first_seat] +
                    ", which moves first, has no legal move at the start, so no game could begin "
                    "or end");
}

void check_collect(const VariantData& v, const Doc& top) {
  const int collect = v.rules.end.collect;
  if (collect < 0) return;
  const Loc& at = find_path(top, "end.collect")->loc;
  const auto& kinds = v.kinds;
  if (kinds[collect].royal)
    fail(at, "end.collect needs a non-royal kind (royal pieces are never captured into hands)");
  // "Every piece of that kind" is a fixed number only where no other kind
  // turns into it, or it into another.
  for (std::size_t k = 0; k < kinds.size(); ++k)
    if (static_cast<int>(k) != collect && !kinds[k].promoted &&
        v.family[k] == v.family[static_cast<std::size_t>(collect)])
      fail(at, "end.collect needs a kind that no other kind turns into, nor it into another; " +
                   kinds[collect].letter + " and " + kinds[k].letter +
                   " turn into one another (promotes_to, demotes_to)");
}

VariantData compile(Doc doc, const Options& overrides, const std::string& path) {
  VariantData v;
  v.path = path;
  expect_map(doc, "", top_level_keys());
  // Seats first: first_seat's range depends on them.
  int nseats = 0;
  if (const Doc* s = doc.find("seats"); s && s->is_seq()) nseats = static_cast<int>(s->seq.size());
  v.options = resolve_options(doc, overrides, std::max(1, nseats));
  drop_inherited_letters(doc);
  Reading r{v, {}, {}, {}};
  read_keys(r, doc, "", "", -1);
  if (v.title.empty()) v.title = v.name;
  derive_turns(v);
  derive_promotion(v);
  if (v.rules.kings.several == SeveralRoyals::last_is_royal) v.max_royals_per_seat = kMaxSquares;
  v.rules.max_plies = std::stoi(v.options.at("max_plies"));
  v.first_seat = std::stoi(v.options.at("first_seat")) - 1;
  check_notation(v, doc);
  check_bare_king(v, doc);
  check_seats(v, doc);
  check_promotion(v, doc);
  check_drops(doc);
  check_impasse(v, doc);
  compile_tables(v, r.moves, r.doubles);
  check_royal_promotions(v, doc);
  check_royals_stay_out_of_hands(v, doc);
  // dead_squares: allowed lets a piece stand, or be dropped, where it can
  // never move again (dobutsu's chick, kyoto's and micro's pieces).
  v.never_moves = v.dead;
  if (v.dead_squares_allowed)
    for (SquareSet& dead : v.dead) dead = SquareSet{};
  check_fits(v, doc);
  read_setup(r, doc);
  check_goal_at_start(v, doc);
  check_start(v, doc);
  check_collect(v, doc);
  static std::atomic<std::uint64_t> compiled{0};
  v.serial = ++compiled;
  return v;
}

}  // namespace

VariantData compile_descriptor_file(const std::string& path, const Options& overrides) {
  return compile(load_descriptor_file(path, descriptor_keys()), overrides, path);
}

VariantData compile_descriptor_text(const std::string& text, const std::string& origin,
                                    const std::string& base_dir, const Options& overrides) {
  return compile(load_descriptor_text(text, origin, base_dir, descriptor_keys()), overrides, "");
}

}  // namespace koma::detail
