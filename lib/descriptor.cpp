// Reads a merged descriptor document into a VariantData: strict schema
// checks (every key known, every value typed), then the compiled tables.
#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "betza.hpp"
#include "document.hpp"
#include "movegen.hpp"
#include "notation.hpp"
#include "options.hpp"
#include "state_ops.hpp"
#include "variant_data.hpp"

namespace koma::detail {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Checks that a mapping has only the allowed keys.
const Doc& expect_map(const Doc& d, const std::string& what,
                      const std::vector<std::string>& allowed) {
  if (!d.is_map()) fail(d.loc, what + " must be a mapping, not " + d.kind_name());
  for (std::size_t i = 0; i < d.map.size(); ++i)
    if (std::find(allowed.begin(), allowed.end(), d.map[i].first) == allowed.end())
      fail(d.key_locs[i], "unknown key '" + d.map[i].first + "' in " + what +
                              nearest_or_list(d.map[i].first, allowed, "allowed"));
  return d;
}

// The first byte of `text` that is a control character (C0 or DEL: a line
// break, a tab, an escape), or npos. Names and texts of a descriptor reach
// line-based protocols (USI), records and terminals, where such a byte would
// start a line of its own or rewrite the screen.
std::size_t control_at(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7f) return i;
  return std::string::npos;
}

const std::string& expect_word(const Doc& d, const std::string& what) {
  if (!d.is_scalar() || d.scalar.empty())
    fail(d.loc, what + " must be a single value, not " + d.kind_name());
  if (const std::size_t at = control_at(d.scalar); at != std::string::npos) {
    std::array<char, 8> code{};
    std::snprintf(code.data(), code.size(), "U+%04X", static_cast<unsigned char>(d.scalar[at]));
    fail(d.at_char(at), what + " holds a control character (" + code.data() +
                            "), which no name or text of a descriptor may hold");
  }
  return d.scalar;
}

// The variant's name: a word that protocols (USI's USI_Variant), records
// and file names carry whole, so without white space.
const std::string& expect_name(const Doc& d) {
  const std::string& name = expect_word(d, "name");
  if (const std::size_t at = name.find(' '); at != std::string::npos)
    fail(d.at_char(at), "name '" + name +
                            "' holds a space; a variant's name is one word (use - "
                            "or _), its title may have spaces");
  return name;
}

int expect_int(const Doc& d, const std::string& what, int lo, int hi) {
  const std::string& s = expect_word(d, what);
  int n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size() || n < lo || n > hi)
    fail(d.loc, what + " must be a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + ", not '" + s + "'");
  return n;
}

bool expect_bool(const Doc& d, const std::string& what) {
  const std::string& s = expect_word(d, what);
  if (s == "true" || s == "yes") return true;
  if (s == "false" || s == "no") return false;
  fail(d.loc, what + " must be true or false, not '" + s + "'");
}

template <class E>
E expect_enum(const Doc& d, const std::string& what,
              const std::vector<std::pair<std::string, E>>& names) {
  const std::string& s = expect_word(d, what);
  std::vector<std::string> allowed;
  for (const auto& [n, e] : names) {
    if (n == s) return e;
    allowed.push_back(n);
  }
  fail(d.loc, what + " cannot be '" + s + "'; allowed: " + join(allowed));
}

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Builder {
  VariantData v;
  bool allow_void_names = false;
  std::map<std::string, int> seat_by_name;

  int seat_named(const Doc& d, const std::string& what) {
    const std::string& s = expect_word(d, what);
    auto it = seat_by_name.find(s);
    if (it == seat_by_name.end()) {
      std::vector<std::string> names(v.seat_names.begin(), v.seat_names.end());
      fail(d.loc, what + " names no seat: '" + s + "'; seats: " + join(names));
    }
    return it->second;
  }

  int kind_named(const Doc& d, const std::string& what) {
    const std::string& s = expect_word(d, what);
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      if (v.kinds[k].letter == s) return static_cast<int>(k);
    std::vector<std::string> letters;
    for (const auto& k : v.kinds) letters.push_back(k.letter);
    fail(d.loc,
         what + " names no declared piece: '" + s + "'" + nearest_or_list(s, letters, "pieces"));
  }

  int square_at(const Doc& d, const std::string& s, const std::string& what) {
    auto sq = parse_square_name(v, s, allow_void_names);
    if (!sq && parse_square_name(v, s, true))
      fail(d.loc, what + ": '" + s + "' is a void cell, not a square");
    if (!sq)
      fail(d.loc, what + ": '" + s + "' is not a square name of this " + std::to_string(v.width) +
                      "x" + std::to_string(v.height) + " board");
    return *sq;
  }

  // A square ("5e") or a rectangle between two squares ("a1-c3").
  SquareSet region(const Doc& d, const std::string& what, bool allow_voids) {
    SquareSet out;
    auto add = [&](const Doc& item) {
      const std::string& s = expect_word(item, what);
      auto dash = s.find('-');
      int a = square_at(item, s.substr(0, dash), what);
      int b = dash == std::string::npos ? a : square_at(item, s.substr(dash + 1), what);
      for (int y = std::min(a, b) / v.width; y <= std::max(a, b) / v.width; ++y)
        for (int x = std::min(a % v.width, b % v.width); x <= std::max(a % v.width, b % v.width);
             ++x) {
          int sq = y * v.width + x;
          if (!allow_voids && !v.board.test(sq))
            fail(item.loc, std::string(what) += ": " + s + " includes a void cell");
          out.set(sq);
        }
    };
    if (d.is_seq())
      for (const auto& item : d.seq) add(item);
    else
      add(d);
    return out;
  }

  void read_board(const Doc& top) {
    const Doc* b = top.find("board");
    if (!b) fail(top.loc, "the descriptor needs a 'board' with width and height");
    expect_map(*b, "board", {"width", "height", "voids", "squares"});
    const Doc* w = b->find("width");
    const Doc* h = b->find("height");
    if (!w || !h) fail(b->loc, "board needs both 'width' and 'height' (1 to 16)");
    v.width = expect_int(*w, "board width", 1, 16);
    v.height = expect_int(*h, "board height", 1, 16);
    v.nsq = v.width * v.height;
    v.shogi_squares = v.width <= 9 && v.height <= 9;
    if (const Doc* sq = b->find("squares"))
      v.shogi_squares =
          expect_enum<bool>(*sq, "board squares", {{"shogi", true}, {"algebraic", false}});
    if (v.shogi_squares && (v.width > 9 || v.height > 9))
      fail(b->find("squares")->loc, "shogi square names need a board at most 9x9; use algebraic");
    for (int sq = 0; sq < v.nsq; ++sq) v.board.set(sq);
    if (const Doc* voids = b->find("voids")) {
      allow_void_names = true;
      SquareSet vs = region(*voids, "board voids", true);
      allow_void_names = false;
      vs.each([&](int sq) { v.board.reset(sq); });
    }
    if (!v.board.any()) fail(b->loc, "the board has no squares left after the voids");
    // koma::Move keeps squares in a byte and marks a drop with from == 255
    // (Move::kDrop), so square 255 — the bottom-right cell of a 16x16 board —
    // cannot be a square: a move from it would read as a drop.
    if (v.nsq > Move::kDrop && v.board.test(Move::kDrop))
      fail(b->loc, "on a 16x16 board the bottom-right cell, " + square_name(v, Move::kDrop) +
                       ", must be a void: its number, 255, marks drops in koma::Move");
  }

  void read_seats(const Doc& top) {
    const Doc* s = top.find("seats");
    if (!s || !s->is_seq() || s->seq.empty())
      fail(s ? s->loc : top.loc, "the descriptor needs 'seats': a list of {name, facing}");
    if (s->seq.size() > static_cast<std::size_t>(kMaxSeats))
      fail(s->loc, "at most " + std::to_string(kMaxSeats) + " seats are supported");
    v.nseats = static_cast<int>(s->seq.size());
    for (int i = 0; i < v.nseats; ++i) {
      const Doc& seat = expect_map(s->seq[i], "a seat", {"name", "facing", "home"});
      const Doc* name = seat.find("name");
      const Doc* facing = seat.find("facing");
      if (!name || !facing)
        fail(seat.loc, "a seat needs 'name' and 'facing' (up, right, down, left)");
      std::string n = expect_word(*name, "seat name");
      if (seat_by_name.count(n)) fail(name->loc, "two seats are named '" + n + "'");
      seat_by_name[n] = i;
      v.seat_names.push_back(n);
      v.seat_facing[i] = expect_enum<int>(*facing, "seat facing",
                                          {{"up", 0}, {"right", 1}, {"down", 2}, {"left", 3}});
    }
    for (int i = 0; i < v.nseats; ++i) v.partners[i] = static_cast<std::uint8_t>(1u << i);
  }

  void read_seat_homes(const Doc& top) {
    const Doc* s = top.find("seats");
    for (int i = 0; i < v.nseats; ++i)
      if (const Doc* home = s->seq[i].find("home")) v.home[i] = region(*home, "seat home", false);
  }

  void read_order_and_teams(const Doc& top) {
    if (const Doc* order = top.find("turn_order")) {
      if (!order->is_seq()) fail(order->loc, "turn_order lists every seat name once");
      std::set<int> seen;
      for (const auto& item : order->seq) {
        int seat = seat_named(item, "turn_order");
        if (!seen.insert(seat).second)
          fail(item.loc, "turn_order names seat '" + item.scalar + "' twice");
        v.turn_order.push_back(seat);
      }
      if (static_cast<int>(v.turn_order.size()) != v.nseats)
        fail(order->loc, "turn_order must name all " + std::to_string(v.nseats) + " seats");
    } else {
      for (int i = 0; i < v.nseats; ++i) v.turn_order.push_back(i);
    }
    for (int i = 0; i < v.nseats; ++i) {
      v.turn_order_numbers.push_back(v.turn_order[i] + 1);
      for (int steps = 0; steps <= v.nseats; ++steps)
        v.turn_after[v.turn_order[i]][steps] =
            static_cast<std::int8_t>(v.turn_order[(i + steps) % v.nseats]);
    }
    if (const Doc* teams = top.find("teams")) {
      if (!teams->is_seq()) fail(teams->loc, "teams is a list of lists of seat names");
      std::set<int> seen;
      for (const auto& team : teams->seq) {
        if (!team.is_seq() || team.seq.empty()) fail(team.loc, "a team is a list of seat names");
        std::uint8_t mask = 0;
        for (const auto& m : team.seq) {
          int seat = seat_named(m, "team member");
          if (!seen.insert(seat).second) fail(m.loc, "seat '" + m.scalar + "' is in two teams");
          mask |= static_cast<std::uint8_t>(1u << seat);
        }
        if (mask == (1u << v.nseats) - 1)
          fail(team.loc,
               "this team holds every seat, so no seat would have an enemy to capture "
               "or mate; leave some seat out");
        for (int i = 0; i < v.nseats; ++i)
          if ((mask >> i) & 1u) v.partners[i] = mask;
      }
    }
  }

  std::vector<std::vector<MoveComponent>> moves;

  void read_pieces(const Doc& top) {
    const Doc* p = top.find("pieces");
    if (!p || !p->is_map() || p->map.empty())
      fail(p ? p->loc : top.loc, "the descriptor needs 'pieces': a mapping from letter to piece");
    if (p->map.size() > 31) fail(p->loc, "at most 31 piece kinds are supported");
    for (std::size_t i = 0; i < p->map.size(); ++i) {
      const std::string& letter = p->map[i].first;
      const Loc& kl = p->key_locs[i];
      bool promoted = !letter.empty() && letter[0] == '+';
      std::string base = promoted ? letter.substr(1) : letter;
      if (base.size() != 1 || base[0] < 'A' || base[0] > 'Z' || base == "X")
        fail(kl, "piece letter '" + letter +
                     "' must be one capital letter (not X, which marks overturned kings), with '+' "
                     "for a promoted kind");
      PieceKindInfo k;
      k.letter = letter;
      k.promoted = promoted;
      v.kinds.push_back(k);
    }
    moves.resize(v.kinds.size());
    for (std::size_t i = 0; i < p->map.size(); ++i) {
      const std::string& letter = p->map[i].first;
      const Doc& d = expect_map(
          p->map[i].second, "piece " + letter,
          {"name", "kanji", "moves", "promotes_to", "demotes_to", "royal", "value", "promotion"});
      PieceKindInfo& k = v.kinds[i];
      if (const Doc* n = d.find("name"))
        k.name = expect_word(*n, "piece name");
      else
        fail(d.loc, "piece " + letter + " needs a 'name'");
      if (const Doc* n = d.find("kanji")) k.kanji = expect_word(*n, "piece kanji");
      const Doc* m = d.find("moves");
      if (!m || (m->is_scalar() && m->scalar.empty()) || m->kind == Doc::Kind::null)
        fail(m ? m->loc : d.loc,
             "piece " + letter + " has no moves; give its moves in Betza notation, e.g. moves: fW");
      k.moves = expect_word(*m, "piece moves");
      BetzaResult br = parse_betza(k.moves);
      if (!br.error.empty()) {
        Loc at = m->at_char(static_cast<std::size_t>(br.error_at));
        fail(at, "piece " + letter + " moves '" + k.moves + "': " + br.error);
      }
      moves[i] = br.moves;
      if (const Doc* r = d.find("royal")) k.royal = expect_bool(*r, "royal");
      if (const Doc* val = d.find("value"))
        k.value = expect_int(*val, "piece value", -100000, 100000);
      if (const Doc* pt = d.find("promotes_to")) {
        k.promotes_to = kind_named(*pt, "promotes_to");
        if (!v.kinds[k.promotes_to].promoted)
          fail(pt->loc, "piece " + letter + " promotes to '" + pt->scalar +
                            "', which is not a promoted kind (its letter starts with +)");
        if (k.promoted) fail(pt->loc, "a promoted piece cannot promote again");
      }
      if (const Doc* pr = d.find("promotion")) {
        v.must_promote[i] =
            expect_enum<bool>(*pr, "piece promotion", {{"optional", false}, {"compulsory", true}});
        if (k.promotes_to < 0)
          fail(pr->loc, "piece " + letter + " has 'promotion' but no 'promotes_to'");
      }
      if (const Doc* dt = d.find("demotes_to")) {
        if (!k.promoted)
          fail(dt->loc,
               "only a promoted piece has 'demotes_to'; an unpromoted one is captured as itself");
        k.demotes_to = kind_named(*dt, "demotes_to");
      }
    }
    for (std::size_t i = 0; i < v.kinds.size(); ++i) {
      PieceKindInfo& k = v.kinds[i];
      if (!k.promoted) {
        k.demotes_to = static_cast<int>(i);
        continue;
      }
      int from = -1;
      for (std::size_t j = 0; j < v.kinds.size(); ++j)
        if (v.kinds[j].promotes_to == static_cast<int>(i)) from = static_cast<int>(j);
      if (k.demotes_to < 0) k.demotes_to = from;
      if (k.demotes_to < 0)
        fail(p->key_locs[i], "no piece promotes to " + k.letter +
                                 "; give it 'demotes_to' or add 'promotes_to: " + k.letter +
                                 "' to its unpromoted piece");
      if (v.kinds[k.demotes_to].promoted)
        fail(p->key_locs[i], k.letter + " demotes to a promoted kind");
    }
    fill_families();
  }

  // VariantData::family: kinds joined by promotes_to and demotes_to, each
  // named by its family's first kind.
  void fill_families() {
    const std::size_t nk = v.kinds.size();
    for (std::size_t k = 0; k < nk; ++k) v.family[k] = static_cast<std::int8_t>(k);
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t k = 0; k < nk; ++k)
        for (int other : {v.kinds[k].promotes_to, v.kinds[k].demotes_to}) {
          if (other < 0) continue;
          auto& a = v.family[k];
          auto& b = v.family[static_cast<std::size_t>(other)];
          if (a == b) continue;
          a = b = std::min(a, b);
          changed = true;
        }
    }
  }

  // Whether piece `k`'s own `promotion: optional` overrides a compulsory zone.
  bool piece_says_optional(const Doc& top, std::size_t k) const {
    const Doc* pieces = top.find("pieces");
    const Doc* pr = pieces ? pieces->map[k].second.find("promotion") : nullptr;
    return pr && pr->is_scalar() && pr->scalar == "optional";
  }

  // VariantData::flip: the other side of each kind, as promotion.demotion says.
  void fill_flips() {
    for (std::size_t k = 0; k < v.kinds.size(); ++k) {
      const PieceKindInfo& kind = v.kinds[k];
      const bool back =
          v.promotion.demotion && kind.promoted && kind.demotes_to != static_cast<int>(k);
      v.flip[k] = static_cast<std::int8_t>(kind.promoted ? (back ? kind.demotes_to : -1)
                                                         : kind.promotes_to);
    }
  }

  void read_promotion(const Doc& top) {
    const Doc* p = top.find("promotion");
    if (!p) {
      v.promotion.zone = ZoneRule::none;
      fill_flips();
      return;
    }
    expect_map(*p, "promotion", {"zone", "depth", "by", "compulsory", "demotion", "on"});
    if (const Doc* on = p->find("on"))
      v.promotion.on = expect_enum(*on, "promotion on", kPromoteOnWords);
    if (const Doc* d = p->find("demotion"))
      v.promotion.demotion = expect_bool(*d, "promotion demotion");
    fill_flips();
    if (const Doc* c = p->find("compulsory"); c && expect_bool(*c, "promotion compulsory"))
      for (std::size_t k = 0; k < v.kinds.size(); ++k)
        if (v.flip_of(static_cast<int>(k)) >= 0 && !piece_says_optional(top, k))
          v.must_promote[k] = true;
    if (const Doc* z = p->find("zone"))
      v.promotion.zone = expect_enum(*z, "promotion zone", kZoneRuleWords);
    if (const Doc* d = p->find("depth"))
      v.promotion.depth = expect_int(*d, "promotion depth", 1, 16);
    if (const Doc* b = p->find("by"))
      v.promotion.by = expect_enum(*b, "promotion by", kZoneByWords);
    if (v.promotion.zone == ZoneRule::enemy_homes) {
      if (v.promotion.by == ZoneBy::facing)
        fail(p->find("by")->loc, "zone enemy_homes is decided by owner, not facing");
      bool any = false;
      for (int s = 0; s < v.nseats; ++s) any = any || v.home[s].any();
      if (!any) fail(p->loc, "zone enemy_homes needs a 'home' region on the seats");
    }
  }

  void read_drops(const Doc& top) {
    const Doc* d = top.find("drops");
    if (!d) return;
    if (!d->is_map())
      fail(d->loc, "drops must be a mapping: {enabled: true, P: {nifu: true, ...}}");
    for (std::size_t i = 0; i < d->map.size(); ++i) {
      const auto& [key, val] = d->map[i];
      if (key == "enabled") {
        v.drops.enabled = expect_bool(val, "drops enabled");
        continue;
      }
      if (key == "captured") {
        v.drops.captured = expect_enum(val, "drops captured", kCapturedWords);
        continue;
      }
      if (key == "promoted") {
        v.drops.promoted = expect_enum(val, "drops promoted", kPermissionWords);
        continue;
      }
      Doc keydoc;
      keydoc.kind = Doc::Kind::scalar;
      keydoc.scalar = key;
      keydoc.loc = d->key_locs[i];
      int kind = kind_named(keydoc, "drops");
      expect_map(val, "drops of " + key, {"nifu", "per_file", "mate", "overturned_king_attack"});
      DropRule& r = v.drops.by_kind[kind];
      if (const Doc* n = val.find("nifu")) r.per_file = expect_bool(*n, "nifu") ? 1 : 0;
      if (const Doc* n = val.find("per_file")) {
        if (val.find("nifu")) fail(n->loc, "give either 'nifu' or 'per_file', not both");
        r.per_file = expect_int(*n, "per_file", 0, 16);
      }
      if (const Doc* m = val.find("mate")) r.mate = expect_enum(*m, "drop mate", kPermissionWords);
      if (const Doc* o = val.find("overturned_king_attack"))
        r.overturned_king_attack = expect_enum(*o, "overturned_king_attack", kPermissionWords);
    }
  }

  void read_rules(const Doc& top) {
    Rules& r = v.rules;
    if (const Doc* c = top.find("check")) {
      expect_map(*c, "check", {"enabled", "priority"});
      if (const Doc* e = c->find("enabled")) r.check.enabled = expect_bool(*e, "check enabled");
      if (const Doc* p = c->find("priority")) r.check.priority = expect_bool(*p, "check priority");
    }
    if (const Doc* k = top.find("kings")) {
      expect_map(*k, "kings", {"capture", "several"});
      if (const Doc* c = k->find("capture"))
        r.kings.capture = expect_enum(*c, "kings capture", kRoyalCaptureWords);
      if (const Doc* n = k->find("several")) {
        r.kings.several = expect_enum(*n, "kings several", kSeveralRoyalsWords);
        if (r.kings.several == SeveralRoyals::last_is_royal) v.max_royals_per_seat = kMaxSquares;
      }
    }
    if (const Doc* m = top.find("mate")) r.mate = expect_enum(*m, "mate", kMateDetectWords);
    if (const Doc* n = top.find("no_legal_move"))
      r.no_legal_move = expect_enum(*n, "no_legal_move", kNoMoveWords);
    if (const Doc* e = top.find("elimination")) {
      expect_map(*e, "elimination", {"king", "pieces", "hand"});
      if (const Doc* k = e->find("king"))
        r.elimination.king = expect_enum(*k, "elimination king", kKingOnElimWords);
      if (const Doc* p = e->find("pieces"))
        r.elimination.pieces = expect_enum(*p, "elimination pieces", kPiecesOnElimWords);
      if (const Doc* h = e->find("hand"))
        r.elimination.hand = expect_enum(*h, "elimination hand", kHandOnElimWords);
    }
    if (const Doc* res = top.find("resignation"))
      r.resignation =
          expect_enum<bool>(*res, "resignation", {{"allowed", true}, {"forbidden", false}});
    if (const Doc* pl = top.find("places")) r.places = expect_enum(*pl, "places", kPlacesWords);
    if (const Doc* end = top.find("end")) {
      expect_map(*end, "end",
                 {"last_seat_standing", "mates", "team_checkmate", "collect", "repetition",
                  "impasse", "to_move", "checks", "last_team_standing", "goal"});
      if (const Doc* g = end->find("goal")) {
        expect_map(*g, "end goal", {"depth", "safe"});
        r.end.goal.depth = 1;
        if (const Doc* d = g->find("depth")) r.end.goal.depth = expect_int(*d, "goal depth", 1, 16);
        if (const Doc* sf = g->find("safe")) r.end.goal.safe = expect_bool(*sf, "goal safe");
      }
      if (const Doc* t = end->find("last_team_standing"))
        r.end.last_team_standing = expect_bool(*t, "last_team_standing");
      if (const Doc* c = end->find("checks")) {
        r.end.checks = expect_int(*c, "end checks", 0, 99);
        if (r.end.checks > 0 && !r.check.enabled)
          fail(c->loc,
               "end checks counts checks, and this variant has none (check: {enabled: "
               "false}): the rule would never end a game");
      }
      if (const Doc* tm = end->find("to_move"))
        r.end.to_move = expect_enum(*tm, "end to_move", kAfterEndWords);
      if (const Doc* l = end->find("last_seat_standing")) {
        if (l->is_scalar() && (l->scalar == "false" || l->scalar == "no")) {
          r.end.last_seat_standing = false;
        } else {
          r.end.last_seat_reason = expect_enum(*l, "last_seat_standing", kLastSeatReasonWords);
        }
      }
      if (const Doc* m = end->find("mates"))
        r.end.mates = expect_int(*m, "end mates", 0, kMaxSeats);
      if (const Doc* t = end->find("team_checkmate"))
        r.end.team_checkmate = expect_bool(*t, "team_checkmate");
      if (const Doc* c = end->find("collect")) r.end.collect = kind_named(*c, "end collect");
      if (const Doc* rep = end->find("repetition")) {
        expect_map(*rep, "end repetition", {"count", "perpetual_check", "loser"});
        if (const Doc* c = rep->find("count")) {
          r.end.repetition.count = expect_int(*c, "repetition count", 0, 100);
          if (r.end.repetition.count == 1)
            fail(c->loc,
                 "repetition count 1 would end every game at its first position (it has "
                 "occurred once); 0 turns the rule off, else from 2 to 100");
        }
        if (const Doc* pc = rep->find("perpetual_check"))
          r.end.repetition.perpetual_check = expect_enum(*pc, "perpetual_check", kPerpetualWords);
        if (const Doc* l = rep->find("loser")) {
          const std::string& who = expect_word(*l, "repetition loser");
          if (who == "none") {
            r.end.repetition.loser = RepetitionLoser::none;
          } else if (who == "mover") {
            r.end.repetition.loser = RepetitionLoser::mover;
          } else {
            r.end.repetition.loser = RepetitionLoser::seat;
            r.end.repetition.loser_seat =
                seat_named(*l, "repetition loser (none, mover or a seat)");
          }
        }
      }
      if (const Doc* imp = end->find("impasse")) read_impasse(*imp);
    }
  }

  void read_impasse(const Doc& d) {
    Rules& r = v.rules;
    expect_map(d, "impasse",
               {"rule", "points", "lose_below", "win_at", "draw_at", "min_pieces_in_zone"});
    if (const Doc* rule = d.find("rule"))
      r.end.impasse.rule = expect_enum(*rule, "impasse rule", kImpasseRuleWords);
    r.end.impasse.points.fill(1);
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      if (v.kinds[k].royal) r.end.impasse.points[k] = 0;
    if (const Doc* pts = d.find("points")) {
      if (!pts->is_map())
        fail(pts->loc, "impasse points map piece letters (and 'others') to points");
      for (const auto& [letter, points] : pts->map) {
        int n = expect_int(points, "impasse points", 0, 1000);
        if (letter == "others") {
          for (std::size_t k = 0; k < v.kinds.size(); ++k)
            if (!v.kinds[k].royal) r.end.impasse.points[k] = n;
        }
      }
      for (std::size_t i = 0; i < pts->map.size(); ++i) {
        if (pts->map[i].first == "others") continue;
        Doc keydoc;
        keydoc.kind = Doc::Kind::scalar;
        keydoc.scalar = pts->map[i].first;
        keydoc.loc = pts->key_locs[i];
        r.end.impasse.points[kind_named(keydoc, "impasse points")] =
            expect_int(pts->map[i].second, "impasse points", 0, 1000);
      }
    }
    if (const Doc* l = d.find("lose_below"))
      r.end.impasse.lose_below = expect_int(*l, "lose_below", 0, 100000);
    auto per_seat = [&](const Doc& list, const std::string& what, std::array<int, kMaxSeats>& out) {
      if (!list.is_seq() || static_cast<int>(list.seq.size()) != v.nseats)
        fail(list.loc, what + " lists one number per seat (" + std::to_string(v.nseats) + ")");
      for (int s = 0; s < v.nseats; ++s) out[s] = expect_int(list.seq[s], what, 0, 100000);
    };
    if (const Doc* w = d.find("win_at")) per_seat(*w, "win_at", r.end.impasse.win_at);
    if (const Doc* w = d.find("draw_at")) per_seat(*w, "draw_at", r.end.impasse.draw_at);
    if (const Doc* m = d.find("min_pieces_in_zone"))
      r.end.impasse.min_pieces_in_zone = expect_int(*m, "min_pieces_in_zone", 0, 1000);
    if (r.end.impasse.rule == ImpasseRule::declaration && !d.find("win_at"))
      fail(d.loc, "a declaration impasse rule needs 'win_at': the points each seat needs");
  }

  // Piece-relative (x right, y forward) to screen (dx right, dy down).
  static std::array<int, 2> to_screen(int x, int y, int facing) {
    switch (facing) {
      case 0:
        return {x, -y};
      case 1:
        return {y, x};
      case 2:
        return {-x, y};
      default:
        return {-y, -x};
    }
  }

  // VariantData::reach_to and line_to, from the walks back (compile_tables).
  void compile_check_lines() {
    const auto nsq = static_cast<std::size_t>(v.nsq);
    v.reach_to.assign(nsq, SquareSet{});
    v.line_to.assign(nsq * nsq, VariantData::kNoLine);
    v.leap_to.assign(nsq * nsq, VariantData::kNoLine);
    for (std::size_t at = 0; at < nsq; ++at) {
      SquareSet& r = v.reach_to[at];
      for (auto i = v.leaps_near_at[at]; i < v.leaps_near_at[at + 1]; ++i) {
        const VariantData::Near& near = v.leaps_near[i];
        r.set(near.q);
        std::int16_t& leap = v.leap_to[at * nsq + static_cast<std::size_t>(near.q)];
        leap = leap == VariantData::kNoLine ? near.vi : VariantData::kManyLines;
      }
      for (auto i = v.slides_near_at[at]; i < v.slides_near_at[at + 1]; ++i) {
        const std::uint8_t* walk = &v.rev[v.rev_at[at * v.nvec + v.slides_near[i]]];
        for (int k = 1; k <= walk[0]; ++k) {
          r.set(walk[k]);
          std::int16_t& line = v.line_to[at * nsq + walk[k]];
          line = line == VariantData::kNoLine ? v.slides_near[i] : VariantData::kManyLines;
        }
      }
    }
  }

  void compile_tables() {
    int nk = static_cast<int>(v.kinds.size());
    v.ncodes = nk * 4 + 1;
    // Distinct screen vectors.
    for (int k = 0; k < nk; ++k)
      for (int f = 0; f < 4; ++f)
        for (const auto& m : moves[k]) {
          auto sv = to_screen(m.x, m.y, f);
          if (std::find(v.vecs.begin(), v.vecs.end(), sv) == v.vecs.end()) v.vecs.push_back(sv);
        }
    v.nvec = static_cast<int>(v.vecs.size());
    // Every cell code has a row, the empty, overturned and void ones all
    // zero: an attack test reads its cell's row without asking what it holds.
    v.range.assign(std::size_t{256} * v.nvec, 0);
    std::vector<int> max_range(v.nvec, 0);
    for (int k = 0; k < nk; ++k)
      for (int f = 0; f < 4; ++f) {
        int code = code_of(k, f);
        for (const auto& m : moves[k]) {
          auto sv = to_screen(m.x, m.y, f);
          int vi = static_cast<int>(std::find(v.vecs.begin(), v.vecs.end(), sv) - v.vecs.begin());
          int r = m.range == 0 ? 255 : m.range;
          auto& slot = v.range[static_cast<std::size_t>(code) * v.nvec + vi];
          slot = static_cast<std::uint8_t>(std::max<int>(slot, r));
          max_range[vi] = std::max(max_range[vi], r);
        }
      }
    auto step = [&](int sq, int dx, int dy) {
      int x = sq % v.width + dx, y = sq / v.width + dy;
      if (x < 0 || y < 0 || x >= v.width || y >= v.height) return -1;
      int t = y * v.width + x;
      return v.board.test(t) ? t : -1;
    };
    // One buffer for every ray walked below: a vector per ray made loading
    // slow (and Variant::load is on koma-usi's path for every rule change).
    std::vector<int> squares;
    squares.reserve(16);
    v.ray_at.assign(static_cast<std::size_t>(v.ncodes) * v.nsq, 0);
    v.reach_from.assign(static_cast<std::size_t>(v.ncodes) * v.nsq, SquareSet{});
    v.dead.assign(static_cast<std::size_t>(v.ncodes), SquareSet{});
    v.rides.assign(static_cast<std::size_t>(v.ncodes), 0);
    v.rays_overlap.assign(static_cast<std::size_t>(v.ncodes), 0);
    for (int sq = 0; sq < v.nsq; ++sq) {
      v.col.push_back(static_cast<std::uint8_t>(sq % v.width));
      v.row.push_back(static_cast<std::uint8_t>(sq / v.width));
    }
    for (int k = 0; k < nk; ++k) v.value100[k] = 100 * std::max(v.kinds[k].value, 1);
    for (int a = 0; a < v.nsq; ++a)
      for (int b = 0; b < v.nsq; ++b)
        v.steps.push_back(static_cast<std::uint8_t>(
            std::max(std::abs(v.col[a] - v.col[b]), std::abs(v.row[a] - v.row[b]))));
    v.near2.assign(static_cast<std::size_t>(v.nsq), SquareSet{});
    for (int a = 0; a < v.nsq; ++a)
      for (int b = 0; b < v.nsq; ++b)
        if (v.board.test(b) && v.king_steps(a, b) <= 2) v.near2[static_cast<std::size_t>(a)].set(b);
    v.rays.push_back(0);  // code 0 / voids: no rays
    for (int k = 0; k < nk; ++k)
      for (int f = 0; f < 4; ++f) {
        int code = code_of(k, f);
        for (int sq = 0; sq < v.nsq; ++sq) {
          if (!v.board.test(sq)) continue;
          v.ray_at[static_cast<std::size_t>(code) * v.nsq + sq] =
              static_cast<std::uint32_t>(v.rays.size());
          std::size_t count_at = v.rays.size();
          v.rays.push_back(0);
          int total = 0;
          SquareSet& reach = v.reach_from[static_cast<std::size_t>(code) * v.nsq + sq];
          for (const auto& m : moves[k]) {
            auto sv = to_screen(m.x, m.y, f);
            int limit = m.range == 0 ? 255 : m.range;
            squares.clear();
            for (int s = sq, n = 0; n < limit; ++n) {
              s = step(s, sv[0], sv[1]);
              if (s < 0) break;
              squares.push_back(s);
            }
            if (squares.empty()) continue;
            ++v.rays[count_at];
            v.rays.push_back(static_cast<std::uint8_t>(squares.size()));
            for (int s : squares) {
              v.rays.push_back(static_cast<std::uint8_t>(s));
              if (reach.test(s)) v.rays_overlap[static_cast<std::size_t>(code)] = 1;
              reach.set(s);
            }
            total += static_cast<int>(squares.size());
            if (squares.size() > 1) v.rides[static_cast<std::size_t>(code)] = 1;
          }
          if (total == 0) v.dead[code].set(sq);
        }
      }
    for (int vi = 0; vi < v.nvec; ++vi) {
      int dx = -v.vecs[vi][0], dy = -v.vecs[vi][1];
      v.rev_delta.push_back(static_cast<std::int16_t>(dy * v.width + dx));
      v.rev_up.push_back(dy > 0 || (dy == 0 && dx > 0));
    }
    if (v.nsq <= 64) v.rev_bits.assign(static_cast<std::size_t>(v.nsq) * v.nvec, 0);
    v.rev_at.assign(static_cast<std::size_t>(v.nsq) * v.nvec, 0);
    v.rev_first.assign(static_cast<std::size_t>(v.nsq) * v.nvec, -1);
    for (int vi = 0; vi < v.nvec; ++vi)
      (max_range[vi] > 1 ? v.slide_vecs : v.leap_vecs).push_back(vi);
    v.rev.push_back(0);
    for (int sq = 0; sq < v.nsq; ++sq) {
      if (!v.board.test(sq)) continue;
      for (int vi = 0; vi < v.nvec; ++vi) {
        squares.clear();
        for (int s = sq, n = 0; n < max_range[vi]; ++n) {
          s = step(s, -v.vecs[vi][0], -v.vecs[vi][1]);
          if (s < 0) break;
          squares.push_back(s);
        }
        if (squares.empty()) continue;
        v.rev_at[static_cast<std::size_t>(sq) * v.nvec + vi] =
            static_cast<std::uint32_t>(v.rev.size());
        v.rev.push_back(static_cast<std::uint8_t>(squares.size()));
        v.rev_first[static_cast<std::size_t>(sq) * v.nvec + vi] =
            static_cast<std::int16_t>(squares[0]);
        for (int s : squares) v.rev.push_back(static_cast<std::uint8_t>(s));
        if (!v.rev_bits.empty())
          for (int s : squares)
            v.rev_bits[static_cast<std::size_t>(sq) * v.nvec + vi] |= std::uint64_t{1} << s;
      }
    }
    for (int sq = 0; sq <= v.nsq; ++sq) {
      v.leaps_near_at.push_back(static_cast<std::uint32_t>(v.leaps_near.size()));
      v.slides_near_at.push_back(static_cast<std::uint32_t>(v.slides_near.size()));
      if (sq == v.nsq || !v.board.test(sq)) continue;
      const std::size_t at = static_cast<std::size_t>(sq) * v.nvec;
      for (int vi : v.leap_vecs)
        if (v.rev_first[at + vi] >= 0)
          v.leaps_near.push_back({static_cast<std::int16_t>(vi), v.rev_first[at + vi]});
      for (int vi : v.slide_vecs)
        if (v.rev_first[at + vi] >= 0) v.slides_near.push_back(static_cast<std::int16_t>(vi));
    }
    v.file_axis = {0, 1, 0, 1};
    // Promotion zones.
    auto far_rows = [&](int facing, int depth) {
      SquareSet z;
      for (int sq = 0; sq < v.nsq; ++sq) {
        if (!v.board.test(sq)) continue;
        int x = sq % v.width, y = sq / v.width;
        bool in = facing == 0   ? y < depth
                  : facing == 2 ? y >= v.height - depth
                  : facing == 1 ? x >= v.width - depth
                                : x < depth;
        if (in) z.set(sq);
      }
      return z;
    };
    for (int f = 0; f < 4; ++f)
      v.zone_of_facing[f] =
          v.promotion.zone == ZoneRule::far_rows ? far_rows(f, v.promotion.depth) : SquareSet{};
    for (int s = 0; s < v.nseats; ++s) {
      if (v.rules.end.goal.depth > 0)
        v.goal_of_owner[s] = far_rows(v.seat_facing[s], v.rules.end.goal.depth);
      if (v.promotion.zone == ZoneRule::far_rows)
        v.zone_of_owner[s] = far_rows(v.seat_facing[s], v.promotion.depth);
      if (v.promotion.zone == ZoneRule::enemy_homes)
        for (int o = 0; o < v.nseats; ++o)
          if (v.enemies(s, o)) v.zone_of_owner[s] |= v.home[o];
    }
    // Zobrist keys from a fixed seed: the same variant hashes alike everywhere.
    std::uint64_t seed = 0x6B6F6D61ull;  // "koma"
    v.z_cell.assign(static_cast<std::size_t>(v.ncodes) * v.nseats * v.nsq, 0);
    for (auto& z : v.z_cell) z = splitmix(seed);
    v.z_overturned.assign(static_cast<std::size_t>(v.nseats) * v.nsq, 0);
    for (auto& z : v.z_overturned) z = splitmix(seed);
    for (auto& seat : v.z_hand)
      for (auto& z : seat) z = splitmix(seed);
    for (auto& z : v.z_turn) z = splitmix(seed);
    for (auto& z : v.z_elim) z = splitmix(seed);
  }

  // Entries keyed by a piece letter (drops.<letter>, end.impasse.points) that
  // an extended file wrote for a piece this variant does not have are
  // dropped: the piece is gone, so its rule or points cannot apply. Such an
  // entry written or changed in the loaded file itself stays, an error.
  void drop_inherited_letters(Doc& top) const {
    const std::string own = top.loc.file ? *top.loc.file : std::string();
    auto from_base = [&](const Loc& at) { return at.file && *at.file != own; };
    // `words`: the mapping's own keys, which are no piece letters.
    auto prune = [&](Doc* m, const std::vector<std::string>& words) {
      if (!m || !m->is_map()) return;
      for (std::size_t i = m->map.size(); i-- > 0;) {
        const std::string& key = m->map[i].first;
        if (std::find(words.begin(), words.end(), key) != words.end() ||
            !from_base(m->key_locs[i]) || !from_base(m->map[i].second.loc))
          continue;
        if (std::none_of(v.kinds.begin(), v.kinds.end(),
                         [&](const PieceKindInfo& k) { return k.letter == key; })) {
          m->map.erase(m->map.begin() + static_cast<long>(i));
          m->key_locs.erase(m->key_locs.begin() + static_cast<long>(i));
        }
      }
    };
    prune(top.find("drops"), {"enabled", "captured", "promoted"});
    if (Doc* end = top.find("end"); end && end->is_map())
      if (Doc* impasse = end->find("impasse"); impasse && impasse->is_map())
        prune(impasse->find("points"), {"others"});
  }

  // A promotion (or a turn back) into a royal kind gives a seat a second
  // royal: only where kings.several allows it.
  void check_royal_promotions(const Doc& top) const {
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
  void check_royals_stay_out_of_hands(const Doc& top) const {
    if (v.drops.captured != Captured::to_hand) return;
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
  void check_fits(const Doc& top) const {
    int shortest = 0;  // the seat whose files (lines along its facing) are shortest
    auto along = [&](int seat) { return v.seat_facing[seat] % 2 == 0 ? v.height : v.width; };
    for (int s = 1; s < v.nseats; ++s)
      if (along(s) < along(shortest)) shortest = s;
    auto fits = [&](const Doc& value, const std::string& what, int n) {
      int most = along(shortest);
      if (n <= most) return;
      fail(value.loc, what + " " + std::to_string(n) + " does not fit a board " +
                          std::to_string(most) +
                          (v.seat_facing[shortest] % 2 == 0 ? " rows high" : " columns wide") +
                          "; at most " + std::to_string(most));
    };
    if (const Doc* p = top.find("promotion"); p && v.promotion.zone == ZoneRule::far_rows)
      if (const Doc* depth = p->find("depth")) fits(*depth, "promotion depth", v.promotion.depth);
    if (const Doc* d = top.find("drops"))
      for (const auto& [letter, rule] : d->map)
        if (const Doc* n = rule.find("per_file"))
          fits(*n, "drops of " + letter + " per_file", std::stoi(n->scalar));
    const Doc* end = top.find("end");
    if (const Doc* goal = end ? end->find("goal") : nullptr)
      if (const Doc* depth = goal->find("depth"))
        fits(*depth, "goal depth", v.rules.end.goal.depth);
    const Doc* impasse = end ? end->find("impasse") : nullptr;
    if (!impasse || v.rules.end.impasse.rule != ImpasseRule::declaration) return;
    const Doc* written = impasse->find("min_pieces_in_zone");
    for (int s = 0; s < v.nseats; ++s) {
      int squares = v.zone_of_owner[s].count();
      if (squares == 0 || v.rules.end.impasse.min_pieces_in_zone <= squares - 1) continue;
      fail(written ? written->loc : impasse->loc,
           "min_pieces_in_zone " + std::to_string(v.rules.end.impasse.min_pieces_in_zone) +
               (written ? "" : " (the default)") + " does not fit seat " + v.seat_names[s] +
               "'s promotion zone: " + std::to_string(squares) +
               " squares, one of them for its king; at most " + std::to_string(squares - 1));
    }
  }

  // A royal that starts on its own goal would win at the first move.
  void check_goal_at_start(const Doc& top) const {
    if (v.rules.end.goal.depth == 0) return;
    for (int sq = 0; sq < v.nsq; ++sq) {
      const Cell c = v.start.cells[sq];
      if (!is_piece(c.code) || !v.kinds[kind_of(c.code)].royal ||
          !v.goal_of_owner[c.owner].test(sq))
        continue;
      fail(top.find("end")->find("goal")->loc,
           "end goal: seat " + v.seat_names[c.owner] + "'s royal starts on its goal, at " +
               square_name(v, sq) +
               ", so every game would end at its first move; give a "
               "smaller depth");
    }
  }

  void read_setup(const Doc& top) {
    const Doc* s = top.find("setup");
    if (!s)
      fail(top.loc, "the descriptor needs a 'setup': a position text, or placements per seat");
    try {
      if (s->is_scalar()) {
        v.start = parse_position(v, s->scalar, /*setup=*/true);
      } else {
        v.start = placement_setup(*s);
      }
    } catch (const NotationError& e) {
      fail(s->loc, std::string("setup: ") + e.what());
    }
    v.start.ply = 1;
    // Counts for validating loaded positions, by family: they stay in play.
    for (int sq = 0; sq < v.nsq; ++sq) {
      Cell c = v.start.cells[sq];
      if (is_piece(c.code)) ++v.max_count[v.family[kind_of(c.code)]];
    }
    for (int seat = 0; seat < v.nseats; ++seat) {
      for (std::size_t k = 0; k < v.kinds.size(); ++k)
        v.max_count[v.family[k]] += v.start.hand[seat][k];
      v.royal_start[seat] = v.start.royal[seat];
    }
    // A hand counts each kind in a byte: one seat may come to hold the whole set.
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      if (v.max_count[k] > 255)
        fail(s->loc, "setup has " + std::to_string(v.max_count[k]) + " " +
                         v.family_name(static_cast<int>(k)) +
                         " pieces (with promoted ones); a hand holds at most 255 of a kind, so "
                         "the set may have no more");
  }

  State placement_setup(const Doc& s) {
    if (!s.is_map())
      fail(s.loc, "setup is a position text or a mapping of seat names to placements");
    State st;
    bool rotate = false;
    int first_listed = -1;
    for (std::size_t i = 0; i < s.map.size(); ++i) {
      const auto& [key, val] = s.map[i];
      if (key == "others") {
        if (expect_word(val, "setup others") != "rotate")
          fail(val.loc, "setup others can only be 'rotate'");
        rotate = true;
        continue;
      }
      Doc keydoc;
      keydoc.kind = Doc::Kind::scalar;
      keydoc.scalar = key;
      keydoc.loc = s.key_locs[i];
      int seat = seat_named(keydoc, "setup");
      if (first_listed < 0) first_listed = seat;
      place_army(st, seat, val, -1);
    }
    if (rotate) {
      if (v.width != v.height) fail(s.loc, "setup others: rotate needs a square board");
      if (first_listed < 0)
        fail(s.loc, "setup others: rotate needs one seat's placements to rotate");
      const Doc* army = nullptr;
      for (const auto& [seat_name, placements] : s.map)
        if (seat_name == v.seat_names[first_listed]) army = &placements;
      for (int seat = 0; seat < v.nseats; ++seat) {
        bool listed = false;
        for (const auto& kv : s.map) listed = listed || kv.first == v.seat_names[seat];
        if (!listed) place_army(st, seat, *army, first_listed);
      }
    }
    // Checked and finished as a setup read from text is, so that the start
    // position reads back from its own text.
    finish_position(v, st, /*setup=*/true);
    return st;
  }

  // Places `seat`'s army from its placements; with `from_seat` >= 0 the
  // placements are from_seat's, turned to `seat`'s edge.
  void place_army(State& st, int seat, const Doc& army, int from_seat) {
    if (!army.is_map()) fail(army.loc, "a seat's placements map piece letters to squares");
    int turns = from_seat < 0 ? 0 : (v.seat_facing[seat] - v.seat_facing[from_seat] + 4) % 4;
    for (std::size_t i = 0; i < army.map.size(); ++i) {
      Doc keydoc;
      keydoc.kind = Doc::Kind::scalar;
      keydoc.scalar = army.map[i].first;
      keydoc.loc = army.key_locs[i];
      int kind = kind_named(keydoc, "setup");
      const Doc& where = army.map[i].second;
      std::vector<const Doc*> items;
      if (where.is_seq())
        for (const auto& w : where.seq) items.push_back(&w);
      else
        items.push_back(&where);
      for (const Doc* w : items) {
        int sq = square_at(*w, expect_word(*w, "setup square"), "setup");
        int x = sq % v.width, y = sq / v.width;
        for (int t = 0; t < turns; ++t) {  // a quarter turn clockwise about the centre
          int nx = v.width - 1 - y, ny = x;
          x = nx;
          y = ny;
        }
        sq = y * v.width + x;
        if (!v.board.test(sq)) fail(w->loc, "setup puts a piece on a void cell");
        if (st.cells[sq].code != kEmpty)
          fail(w->loc, "setup puts two pieces on " + square_name(v, sq));
        st.cells[sq] = Cell{code_of(kind, v.seat_facing[seat]), static_cast<std::uint8_t>(seat)};
      }
    }
  }
};

}  // namespace

std::uint64_t full_key(const VariantData& v, const State& s) {
  std::uint64_t k = v.z_turn[s.to_move];
  for (int sq = 0; sq < v.nsq; ++sq)
    if (s.cells[sq].code != kEmpty && s.cells[sq].code != kVoid)
      k ^= v.cell_key(s.cells[sq].code, s.cells[sq].owner, sq);
  for (int seat = 0; seat < v.nseats; ++seat)
    if (!s.active(seat)) k ^= v.z_elim[seat];
  return k;
}

std::string VariantData::family_name(int kind) const {
  std::string out;
  for (std::size_t k = 0; k < kinds.size(); ++k)
    if (family[k] == family[static_cast<std::size_t>(kind)] && !kinds[k].promoted)
      out += (out.empty() ? "" : " and ") + kinds[k].name;
  return out;
}

const std::vector<std::string>& descriptor_keys() {
  static const std::vector<std::string> keys = {
      "name",   "title",   "notation",      "board",       "seats",       "turn_order",
      "teams",  "pieces",  "setup",         "promotion",   "drops",       "check",
      "kings",  "mate",    "no_legal_move", "elimination", "resignation", "end",
      "places", "options", "dead_squares"};
  return keys;
}

VariantData compile_variant(const Doc& merged, const Options& overrides, const std::string& path) {
  Doc doc = merged;
  Builder b;
  b.v.path = path;
  std::vector<std::string> keys = descriptor_keys();
  keys.insert(keys.begin(), "koma");
  const Doc& top = expect_map(doc, "the descriptor", keys);
  // Seats first: first_seat's range depends on them.
  int nseats = 0;
  if (const Doc* s = top.find("seats"); s && s->is_seq()) nseats = static_cast<int>(s->seq.size());
  b.v.options = resolve_options(doc, overrides, std::max(1, nseats));
  if (const Doc* n = doc.find("name"))
    b.v.name = expect_name(*n);
  else
    fail(doc.loc, "the descriptor needs a 'name'");
  b.v.title = b.v.name;
  if (const Doc* t = doc.find("title")) b.v.title = expect_word(*t, "title");
  b.read_board(doc);
  b.read_seats(doc);
  b.read_seat_homes(doc);
  b.read_order_and_teams(doc);
  if (const Doc* n = doc.find("notation"))
    b.v.sfen = expect_enum<bool>(*n, "notation", {{"sfen", true}, {"generic", false}});
  // SFEN has no mark for a void: a piece could be written onto one, and a
  // void would print as an empty cell.
  if (b.v.sfen &&
      (b.v.nseats != 2 || b.v.width > 9 || b.v.height > 9 || b.v.board.count() != b.v.nsq))
    fail(doc.find("notation")->loc,
         "notation sfen needs two seats on a board of at most 9x9 without voids");
  b.read_pieces(doc);
  b.drop_inherited_letters(doc);
  b.read_promotion(doc);
  b.read_drops(doc);
  b.read_rules(doc);
  // One seat stands last from the start: those rules would end every game
  // at its first move.
  if (const EndRules& end = b.v.rules.end;
      b.v.nseats == 1 && (end.last_seat_standing || end.last_team_standing))
    fail(
        doc.find("seats")->loc,
        std::string("with one seat, ") +
            (end.last_seat_standing ? "last_seat_standing (on by default)" : "last_team_standing") +
            " would end every game at its first move; a game of one seat sets end: "
            "{last_seat_standing: false}");
  b.v.rules.max_plies = std::stoi(b.v.options.at("max_plies"));
  b.v.first_seat = std::stoi(b.v.options.at("first_seat")) - 1;
  b.compile_tables();
  b.compile_check_lines();
  b.check_royal_promotions(doc);
  b.check_royals_stay_out_of_hands(doc);
  // dead_squares: allowed lets a piece stand, or be dropped, where it can
  // never move again (dobutsu's chick, kyoto's and micro's pieces).
  if (const Doc* d = doc.find("dead_squares");
      d && expect_enum<bool>(*d, "dead_squares", {{"forbidden", false}, {"allowed", true}}))
    for (SquareSet& dead : b.v.dead) dead = SquareSet{};
  b.check_fits(doc);
  b.read_setup(doc);
  b.check_goal_at_start(doc);
  // As Position::from_text refuses: with two seats and check, a king
  // attacked at the start could be captured by whichever seat moves first.
  if (b.v.rules.check.enabled && b.v.nseats == 2)
    for (int seat = 0; seat < 2; ++seat)
      if (in_check(b.v, b.v.start, seat))
        fail(doc.find("setup")->loc, "setup: seat " + std::to_string(seat + 1) +
                                         "'s king is in check at the start; with two seats and "
                                         "check, neither king may be attacked there");
  // A game is judged after its moves: one whose first seat cannot move at
  // the start would never begin, nor end.
  State first = b.v.start;
  first.to_move = static_cast<std::uint8_t>(b.v.first_seat);
  if (!has_legal_move(b.v, first, b.v.first_seat))
    fail(doc.find("setup")->loc, "setup: seat " + b.v.seat_names[b.v.first_seat] +
                                     ", which moves first, has no legal move at the start, so "
                                     "no game could begin or end");
  if (const int collect = b.v.rules.end.collect; collect >= 0) {
    const Loc& at = doc.find("end")->find("collect")->loc;
    if (b.v.kinds[collect].royal)
      fail(at, "end collect needs a non-royal kind (royal pieces are never captured into hands)");
    // "Every piece of that kind" is a fixed number only where no other kind
    // turns into it, or it into another.
    const auto& kinds = b.v.kinds;
    for (std::size_t k = 0; k < kinds.size(); ++k)
      if (static_cast<int>(k) != collect && !kinds[k].promoted &&
          b.v.family[k] == b.v.family[static_cast<std::size_t>(collect)])
        fail(at, "end collect needs a kind that no other kind turns into, nor it into another; " +
                     kinds[collect].letter + " and " + kinds[k].letter +
                     " turn into one another (promotes_to, demotes_to)");
  }
  static std::atomic<std::uint64_t> compiled{0};
  b.v.serial = ++compiled;
  return std::move(b.v);
}

}  // namespace koma::detail
