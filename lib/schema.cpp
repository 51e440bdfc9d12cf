#include "schema.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "betza.hpp"
#include "notation.hpp"
#include "reader.hpp"

namespace koma::detail {

int Reading::seat_named(const Doc& d, const std::string& path) const {
  const std::string& s = expect_word(d, path);
  auto it = seat_by_name.find(s);
  if (it == seat_by_name.end())
    fail(d.loc, path + " names no seat: '" + s + "'; seats: " + join(v.seat_names));
  return it->second;
}

int Reading::kind_named(const Doc& d, const std::string& path) const {
  const std::string& s = expect_word(d, path);
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    if (v.kinds[k].letter == s) return static_cast<int>(k);
  std::vector<std::string> letters;
  for (const auto& k : v.kinds) letters.push_back(k.letter);
  fail(d.loc,
       path + " names no declared piece: '" + s + "'" + nearest_or_list(s, letters, "pieces"));
}

namespace {

using Read = Key::Read;

void read_row(Reading& r, const Key& row, const Doc& value, const std::string& at, int index);

// The key at `path` (a row's), if `parent` (the mapping above it) has it.
void read_key(Reading& r, const Doc& parent, const std::string& path, int index) {
  const std::string leaf = path.substr(path.rfind('.') + 1);
  if (const Doc* value = parent.find(leaf)) read_row(r, *key_at(path), *value, path, index);
}

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// Rows by the kind of value. `field(v, index)` names where the value goes.
template <class Field>
Key flag(std::string path, Field field) {
  return {std::move(path), Key::How::value,
          [field](Reading& r, const Doc& d, const std::string& at, int i) {
            field(r.v, i) = expect_bool(d, at);
          }};
}
template <class Field>
Key number(std::string path, int lo, int hi, Field field) {
  return {std::move(path), Key::How::value,
          [lo, hi, field](Reading& r, const Doc& d, const std::string& at, int i) {
            field(r.v, i) = expect_int(d, at, lo, hi);
          }};
}
template <class E, class Field>
Key word(std::string path, const Words<E>& words, Field field) {
  return {std::move(path), Key::How::value,
          [&words, field](Reading& r, const Doc& d, const std::string& at, int i) {
            field(r.v, i) = expect_enum(d, at, words);
          }};
}
template <class Field>
Key text(std::string path, Field field) {
  return {std::move(path), Key::How::value,
          [field](Reading& r, const Doc& d, const std::string& at, int i) {
            field(r.v, i) = expect_word(d, at);
          }};
}
template <class Field>
Key letter(std::string path, Field field) {
  return {std::move(path), Key::How::value,
          [field](Reading& r, const Doc& d, const std::string& at, int i) {
            field(r.v, i) = r.kind_named(d, at);
          }};
}
Key custom(std::string path, Read read) {
  return {std::move(path), Key::How::value, std::move(read)};
}
// A mapping whose keys are rows of their own; `read`, if given, runs
// instead of the plain walk (and walks them itself).
Key mapping(std::string path, Read read = {}) {
  return {std::move(path), Key::How::mapping, std::move(read)};
}
Key elsewhere(std::string path) {
  return {std::move(path), Key::How::elsewhere, {}};
}
// A key the descriptor must have: `missing` is the error where it has not.
Key required(Key key, const char* missing) {
  key.missing = missing;
  return key;
}

// end.impasse.points: letters (and `others`) to points.
void read_impasse_points(Reading& r, const Doc& d, const std::string& at, int) {
  auto& points = r.v.rules.end.impasse.points;
  if (!d.is_map()) fail(d.loc, at + " maps piece letters (and 'others') to points");
  // `others` first, whatever its place: named letters override it.
  for (const auto& [key, value] : d.map)
    if (key == "others") {
      const int n = expect_int(value, at + ".others", 0, 1000);
      for (std::size_t k = 0; k < r.v.kinds.size(); ++k)
        if (!r.v.kinds[k].royal) points[k] = n;
    }
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    if (d.map[i].first == "others") continue;
    const int kind = r.kind_named(key_as_value(d, i), at);
    points[static_cast<std::size_t>(kind)] =
        expect_int(d.map[i].second, at + "." + d.map[i].first, 0, 1000);
  }
}

// end.impasse.win_at and draw_at: one number a seat.
Read per_seat(std::array<int, kMaxSeats> ImpasseRules::*list) {
  return [list](Reading& r, const Doc& d, const std::string& at, int) {
    const int n = r.v.nseats;
    if (!d.is_seq() || static_cast<int>(d.seq.size()) != n)
      fail(d.loc, at + " lists one number per seat (" + std::to_string(n) + ")");
    for (int s = 0; s < n; ++s)
      (r.v.rules.end.impasse.*list)[static_cast<std::size_t>(s)] =
          expect_int(d.seq[static_cast<std::size_t>(s)], at, 0, 100000);
  };
}

// seats: a list of {name, facing, home}.
void read_seats(Reading& r, const Doc& d, const std::string& at, int) {
  VariantData& v = r.v;
  if (!d.is_seq() || d.seq.empty())
    fail(d.loc, "the descriptor needs 'seats': a list of {name, facing}");
  if (d.seq.size() > static_cast<std::size_t>(kMaxSeats))
    fail(d.loc, "at most " + std::to_string(kMaxSeats) + " seats are supported");
  v.nseats = static_cast<int>(d.seq.size());
  for (int i = 0; i < v.nseats; ++i) {
    const Doc& seat = d.seq[static_cast<std::size_t>(i)];
    expect_map(seat, at + "[]", keys_under("seats[]"));
    if (!seat.find("name") || !seat.find("facing"))
      fail(seat.loc, "a seat needs 'name' and 'facing' (up, right, down, left)");
    read_keys(r, seat, "seats[]", at + "[]", i);
  }
  for (int i = 0; i < v.nseats; ++i) v.partners[i] = static_cast<std::uint8_t>(1u << i);
}

void read_turn_order(Reading& r, const Doc& d, const std::string& at, int) {
  VariantData& v = r.v;
  if (!d.is_seq()) fail(d.loc, "turn_order lists every seat name once");
  std::set<int> seen;
  v.turn_order.clear();
  for (const auto& item : d.seq) {
    const int seat = r.seat_named(item, at);
    if (!seen.insert(seat).second)
      fail(item.loc, "turn_order names seat '" + item.scalar + "' twice");
    v.turn_order.push_back(seat);
  }
  if (static_cast<int>(v.turn_order.size()) != v.nseats)
    fail(d.loc, "turn_order must name all " + std::to_string(v.nseats) + " seats");
}

void read_teams(Reading& r, const Doc& d, const std::string& at, int) {
  VariantData& v = r.v;
  if (!d.is_seq()) fail(d.loc, "teams is a list of lists of seat names");
  std::set<int> seen;
  for (const auto& team : d.seq) {
    if (!team.is_seq() || team.seq.empty()) fail(team.loc, "a team is a list of seat names");
    std::uint8_t mask = 0;
    for (const auto& m : team.seq) {
      const int seat = r.seat_named(m, at + "[]");
      if (!seen.insert(seat).second) fail(m.loc, "seat '" + m.scalar + "' is in two teams");
      mask |= static_cast<std::uint8_t>(1u << seat);
    }
    if (mask == (1u << v.nseats) - 1)
      fail(team.loc,
           "this team holds every seat, so no seat would have an enemy to capture or "
           "mate; leave some seat out");
    for (int i = 0; i < v.nseats; ++i)
      if ((mask >> i) & 1u) v.partners[i] = mask;
  }
}

// board: width and height first (each square's name reads by them), then
// the names, then the voids.
void read_board(Reading& r, const Doc& d, const std::string& at, int) {
  VariantData& v = r.v;
  expect_map(d, at, keys_under("board"));
  if (!d.find("width") || !d.find("height"))
    fail(d.loc, "board needs both 'width' and 'height' (1 to 16)");
  read_key(r, d, "board.width", -1);
  read_key(r, d, "board.height", -1);
  v.nsq = v.width * v.height;
  v.shogi_squares = v.width <= 9 && v.height <= 9;
  read_key(r, d, "board.squares", -1);
  for (int sq = 0; sq < v.nsq; ++sq) v.board.set(sq);
  read_key(r, d, "board.voids", -1);
  if (!v.board.any()) fail(d.loc, "the board has no squares left after the voids");
  // koma::Move keeps squares in a byte and marks a drop with from == 255
  // (Move::kDrop), so square 255 — the bottom-right cell of a 16x16 board —
  // cannot be a square: a move from it would read as a drop.
  if (v.nsq > Move::kDrop && v.board.test(Move::kDrop))
    fail(d.loc, "on a 16x16 board the bottom-right cell, " + square_name(v, Move::kDrop) +
                    ", must be a void: its number, 255, marks drops in koma::Move");
}

// Each kind's demotes_to: itself if unpromoted, else as written or the
// one kind that promotes to it (two are refused: which would it be?).
void derive_demotions(VariantData& v, const Doc& pieces) {
  for (std::size_t i = 0; i < v.kinds.size(); ++i) {
    PieceKindInfo& k = v.kinds[i];
    if (!k.promoted) {
      k.demotes_to = static_cast<int>(i);
      continue;
    }
    int from = -1;  // the kind that promotes to it
    for (std::size_t j = 0; j < v.kinds.size(); ++j) {
      if (v.kinds[j].promotes_to != static_cast<int>(i)) continue;
      // Two origins: a captured one would go back to the hand as which?
      if (from >= 0 && k.demotes_to < 0)
        fail(pieces.map[j].second.find("promotes_to")->loc,
             "pieces " + v.kinds[static_cast<std::size_t>(from)].letter + " and " +
                 v.kinds[j].letter + " both promote to " + k.letter + ": captured, a " + k.letter +
                 " would not know which it was; give each its own promoted kind, or " +
                 "say which it returns as with '" + k.letter + ": {demotes_to: ...}'");
      from = static_cast<int>(j);
    }
    if (k.demotes_to < 0) k.demotes_to = from;
    if (k.demotes_to < 0)
      fail(pieces.key_locs[i], "no piece promotes to " + k.letter +
                                   "; give it 'demotes_to' or add "
                                   "'promotes_to: " +
                                   k.letter + "' to its unpromoted piece");
    if (v.kinds[static_cast<std::size_t>(k.demotes_to)].promoted)
      fail(pieces.key_locs[i], k.letter + " demotes to a promoted kind");
  }
}

// VariantData::family: kinds joined by promotes_to and demotes_to, each
// named by its family's first kind.
void fill_families(VariantData& v) {
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

// pieces: every letter first (a piece names others, declared later too),
// then each piece's keys.
void read_pieces(Reading& r, const Doc& d, const std::string& at, int) {
  VariantData& v = r.v;
  if (!d.is_map() || d.map.empty())
    fail(d.loc, "the descriptor needs 'pieces': a mapping from letter to piece");
  if (d.map.size() > kMaxKinds - 1)
    fail(d.loc, "at most " + std::to_string(kMaxKinds - 1) + " piece kinds are supported");
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    const std::string& letter = d.map[i].first;
    const bool promoted = !letter.empty() && letter[0] == '+';
    const std::string base = promoted ? letter.substr(1) : letter;
    if (base.size() != 1 || base[0] < 'A' || base[0] > 'Z' || base == "X")
      fail(d.key_locs[i], "piece letter '" + letter +
                              "' must be one capital letter (not X, which marks overturned "
                              "kings), with '+' for a promoted kind");
    PieceKindInfo k;
    k.letter = letter;
    k.promoted = promoted;
    v.kinds.push_back(k);
  }
  r.moves.resize(v.kinds.size());
  r.doubles.resize(v.kinds.size());
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    const std::string& letter = d.map[i].first;
    const Doc& piece = d.map[i].second;
    const std::string path = child(at, letter);
    expect_map(piece, path, keys_under("pieces.<letter>"));
    if (!piece.find("name")) fail(piece.loc, "piece " + letter + " needs a 'name'");
    const Doc* m = piece.find("moves");
    if (!m || (m->is_scalar() && m->scalar.empty()) || m->kind == Doc::Kind::null)
      fail(m ? m->loc : piece.loc,
           "piece " + letter + " has no moves; give its moves in Betza notation, e.g. moves: fW");
    read_keys(r, piece, "pieces.<letter>", path, static_cast<int>(i));
  }
  derive_demotions(r.v, d);
  fill_families(r.v);
}

// pieces.<letter>.moves: Betza, an error pointing at its character.
void read_moves(Reading& r, const Doc& d, const std::string& at, int kind) {
  PieceKindInfo& k = r.v.kinds[static_cast<std::size_t>(kind)];
  k.moves = expect_word(d, at);
  BetzaResult br = parse_betza(k.moves);
  if (!br.error.empty())
    fail(d.at_char(static_cast<std::size_t>(br.error_at)),
         "piece " + k.letter + " moves '" + k.moves + "': " + br.error);
  r.moves[static_cast<std::size_t>(kind)] = br.moves;
}

// pieces.<letter>.double: a double move whose every capture lands where
// one of the piece's own moves (`moves`, read before) reaches as a step
// or a jump that captures, so that what a piece attacks, and so checks
// and protection, need no more than its moves.
void read_double(Reading& r, const Doc& d, const std::string& at, int kind) {
  PieceKindInfo& k = r.v.kinds[static_cast<std::size_t>(kind)];
  k.double_move = expect_word(d, at);
  DoubleResult dr = parse_double(k.double_move);
  if (!dr.error.empty())
    fail(d.at_char(static_cast<std::size_t>(dr.error_at)),
         "piece " + k.letter + " double move '" + k.double_move + "': " + dr.error);
  const auto& own = r.moves[static_cast<std::size_t>(kind)];
  auto reached = [&](int x, int y) {
    return (x == 0 && y == 0) || std::any_of(own.begin(), own.end(), [&](const MoveComponent& m) {
             return m.x == x && m.y == y && m.capture && !m.hop;
           });
  };
  for (const DoubleStep& step : dr.steps)
    for (const auto& [x, y] : step.then)
      for (const auto& [ex, ey] : {std::pair{step.x, step.y}, std::pair{step.x + x, step.y + y}})
        if (!reached(ex, ey))
          fail(d.loc, "piece " + k.letter + " double move '" + k.double_move +
                          "' reaches the square (" + std::to_string(ex) + ", " +
                          std::to_string(ey) + ") from the piece, where its moves '" + k.moves +
                          "' do not capture: a double move captures only where a step or a "
                          "jump of its moves does (the lion: KNAD)");
  r.doubles[static_cast<std::size_t>(kind)] = dr.steps;
}

// A list of declared piece letters, as a bit per kind.
std::uint64_t read_kind_set(Reading& r, const Doc& d, const std::string& at) {
  if (!d.is_seq()) fail(d.loc, at + " is a list of piece letters, e.g. [P, I]");
  std::uint64_t kinds = 0;
  for (const Doc& item : d.seq) kinds |= std::uint64_t{1} << r.kind_named(item, at);
  return kinds;
}

void read_promotes_to(Reading& r, const Doc& d, const std::string& at, int kind) {
  PieceKindInfo& k = r.v.kinds[static_cast<std::size_t>(kind)];
  k.promotes_to = r.kind_named(d, at);
  if (!r.v.kinds[static_cast<std::size_t>(k.promotes_to)].promoted)
    fail(d.loc, "piece " + k.letter + " promotes to '" + d.scalar +
                    "', which is not a promoted kind (its letter starts with +)");
  if (k.promoted) fail(d.loc, "a promoted piece cannot promote again");
}

void read_demotes_to(Reading& r, const Doc& d, const std::string& at, int kind) {
  PieceKindInfo& k = r.v.kinds[static_cast<std::size_t>(kind)];
  if (!k.promoted)
    fail(d.loc, "only a promoted piece has 'demotes_to'; an unpromoted one is captured as itself");
  k.demotes_to = r.kind_named(d, at);
}

// drops.<letter>.nifu: per_file 1 (or 0), written as a flag.
void read_nifu(Reading& r, const Doc& d, const std::string& at, int kind) {
  r.v.rules.drops.by_kind[static_cast<std::size_t>(kind)].per_file = expect_bool(d, at) ? 1 : 0;
}

// end.last_seat_standing: false or no turn it off; otherwise its reason.
void read_last_seat(Reading& r, const Doc& d, const std::string& at, int) {
  EndRules& end = r.v.rules.end;
  if (d.is_scalar() && (d.scalar == "false" || d.scalar == "no")) {
    end.last_seat_standing = false;
    return;
  }
  end.last_seat_reason = expect_enum(d, at, kLastSeatReasonWords);
}

// end.repetition.loser: none, mover, to_move, or a seat's name.
void read_repetition_loser(Reading& r, const Doc& d, const std::string& at, int) {
  RepetitionRules& rep = r.v.rules.end.repetition;
  const std::string& who = expect_word(d, at);
  if (who == "none") {
    rep.loser = RepetitionLoser::none;
  } else if (who == "mover") {
    rep.loser = RepetitionLoser::mover;
  } else if (who == "to_move") {
    rep.loser = RepetitionLoser::to_move;
  } else {
    rep.loser = RepetitionLoser::seat;
    rep.loser_seat = r.seat_named(d, at + " (none, mover, to_move or a seat)");
  }
}

// dialect.letters and dialect.hand: a piece letter to the letter SFEN and
// move text write for it (letters: `X` or `+X`; hand: `X`, unpromoted
// kinds only), no two kinds alike.
void read_dialect(Reading& r, const Doc& d, const std::string& at, bool hand) {
  VariantData& v = r.v;
  if (!d.is_map()) fail(d.loc, at + " maps piece letters to the letters written for them");
  auto& table = hand ? v.dialect_hand : v.dialect_letters;
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    const int kind = r.kind_named(key_as_value(d, i), at);
    const Doc& value = d.map[i].second;
    const std::string& text = expect_word(value, at + "." + d.map[i].first);
    const bool plus = !hand && text.size() == 2 && text[0] == '+';
    const char c = text.empty() ? '\0' : text.back();
    if (text.size() != (plus ? 2u : 1u) || c < 'A' || c > 'Z') {
      std::string what = at + "." + d.map[i].first + " must be one capital letter";
      if (!hand) what += ", or '+' and one";
      what += ", not '" + text + "'";
      fail(value.loc, what);
    }
    const PieceKindInfo& k = v.kinds[static_cast<std::size_t>(kind)];
    if (hand && (k.promoted || k.royal))
      fail(value.loc, at + " names " + k.letter + ", which never stands in a hand as itself");
    table[static_cast<std::size_t>(kind)] = text;
  }
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    const int kind = r.kind_named(key_as_value(d, i), at);
    for (int o = 0; o < static_cast<int>(v.kinds.size()); ++o) {
      const auto& kinds = v.kinds;
      const bool in_hand =
          !kinds[static_cast<std::size_t>(o)].promoted && !kinds[static_cast<std::size_t>(o)].royal;
      if (o == kind || (hand && !in_hand)) continue;
      const std::string& a = hand ? v.hand_letter(kind) : v.sfen_letter(kind);
      const std::string& b = hand ? v.hand_letter(o) : v.sfen_letter(o);
      if (a == b) {
        std::string what = at;
        what += "." + d.map[i].first;
        what += ": '" + a + "' is written for ";
        what += kinds[static_cast<std::size_t>(o)].letter + " too";
        fail(d.map[i].second.loc, what);
      }
    }
  }
}

// pieces.<letter>.promotion: the piece's own choice, over promotion.compulsory.
void read_piece_promotion(Reading& r, const Doc& d, const std::string& at, int kind) {
  const PieceKindInfo& k = r.v.kinds[static_cast<std::size_t>(kind)];
  r.v.piece_promotion[static_cast<std::size_t>(kind)] = expect_enum(d, at, kPiecePromotionWords);
  if (k.promotes_to < 0) fail(d.loc, "piece " + k.letter + " has 'promotion' but no 'promotes_to'");
}

// The rows. Within a mapping, in the order its keys are read and listed in
// messages (what a key reads by comes first: board, seats, then pieces).
std::vector<Key> make_schema() {
  using V = VariantData;
  auto kind = [](V& v, int k) -> PieceKindInfo& { return v.kinds[static_cast<std::size_t>(k)]; };
  auto drop = [](V& v, int k) -> DropRule& {
    return v.rules.drops.by_kind[static_cast<std::size_t>(k)];
  };
  return {
      elsewhere("koma"),
      elsewhere("extends"),
      elsewhere("replace"),
      required(custom("name", [](Reading& r, const Doc& d, const std::string&,
                                 int) { r.v.name = expect_name(d); }),
               "the descriptor needs a 'name'"),
      text("title", [](V& v, int) -> std::string& { return v.title; }),
      word("notation", kNotationWords, [](V& v, int) -> bool& { return v.sfen; }),
      required(mapping("board", read_board),
               "the descriptor needs a 'board' with width and height"),
      number("board.width", 1, 16, [](V& v, int) -> int& { return v.width; }),
      number("board.height", 1, 16, [](V& v, int) -> int& { return v.height; }),
      custom("board.voids",
             [](Reading& r, const Doc& d, const std::string& at, int) {
               region(r.v, d, at, true).each([&](int sq) { r.v.board.reset(sq); });
             }),
      word("board.squares", kSquareNamesWords, [](V& v, int) -> bool& { return v.shogi_squares; }),
      required(mapping("seats", read_seats),
               "the descriptor needs 'seats': a list of {name, facing}"),
      custom("seats[].name",
             [](Reading& r, const Doc& d, const std::string& at, int seat) {
               const std::string& n = expect_word(d, at);
               if (r.seat_by_name.count(n)) fail(d.loc, "two seats are named '" + n + "'");
               r.seat_by_name[n] = seat;
               r.v.seat_names.push_back(n);
             }),
      word("seats[].facing", kFacingWords,
           [](V& v, int seat) -> int& { return v.seat_facing[static_cast<std::size_t>(seat)]; }),
      custom("seats[].home",
             [](Reading& r, const Doc& d, const std::string& at, int seat) {
               r.v.home[static_cast<std::size_t>(seat)] = region(r.v, d, at, false);
             }),
      custom("turn_order", read_turn_order),
      custom("teams", read_teams),
      required(mapping("pieces", read_pieces),
               "the descriptor needs 'pieces': a mapping from letter to piece"),
      elsewhere("pieces.<letter>"),
      text("pieces.<letter>.name", [kind](V& v, int k) -> std::string& { return kind(v, k).name; }),
      text("pieces.<letter>.kanji",
           [kind](V& v, int k) -> std::string& { return kind(v, k).kanji; }),
      custom("pieces.<letter>.moves", read_moves),
      custom("pieces.<letter>.double", read_double),
      custom("pieces.<letter>.promotes_to", read_promotes_to),
      custom("pieces.<letter>.demotes_to", read_demotes_to),
      flag("pieces.<letter>.royal", [kind](V& v, int k) -> bool& { return kind(v, k).royal; }),
      number("pieces.<letter>.value", -100000, 100000,
             [kind](V& v, int k) -> int& { return kind(v, k).value; }),
      custom("pieces.<letter>.promotion", read_piece_promotion),
      elsewhere("setup"),
      // Written, promotion has a zone (far_rows unless it says otherwise).
      mapping("promotion",
              [](Reading& r, const Doc& d, const std::string& at, int i) {
                r.v.rules.promotion.zone = ZoneRule::far_rows;
                read_keys(r, d, "promotion", at, i);
              }),
      word("promotion.zone", kZoneRuleWords,
           [](V& v, int) -> ZoneRule& { return v.rules.promotion.zone; }),
      number("promotion.depth", 1, 16, [](V& v, int) -> int& { return v.rules.promotion.depth; }),
      word("promotion.by", kZoneByWords, [](V& v, int) -> ZoneBy& { return v.rules.promotion.by; }),
      flag("promotion.compulsory", [](V& v, int) -> bool& { return v.rules.promotion.compulsory; }),
      flag("promotion.demotion", [](V& v, int) -> bool& { return v.rules.promotion.demotion; }),
      word("promotion.on", kPromoteOnWords,
           [](V& v, int) -> PromoteOn& { return v.rules.promotion.on; }),
      mapping("drops"),
      flag("drops.enabled", [](V& v, int) -> bool& { return v.rules.drops.enabled; }),
      word("drops.captured", kCapturedWords,
           [](V& v, int) -> Captured& { return v.rules.drops.captured; }),
      word("drops.promoted", kPermissionWords,
           [](V& v, int) -> Permission& { return v.rules.drops.promoted; }),
      mapping("drops.<letter>"),
      custom("drops.<letter>.nifu", read_nifu),
      number("drops.<letter>.per_file", 0, 16,
             [drop](V& v, int k) -> int& { return drop(v, k).per_file; }),
      word("drops.<letter>.mate", kDropMateWords,
           [drop](V& v, int k) -> DropMate& { return drop(v, k).mate; }),
      word("drops.<letter>.overturned_king_attack", kPermissionWords,
           [drop](V& v, int k) -> Permission& { return drop(v, k).overturned_king_attack; }),
      mapping("check"),
      flag("check.enabled", [](V& v, int) -> bool& { return v.rules.check.enabled; }),
      flag("check.priority", [](V& v, int) -> bool& { return v.rules.check.priority; }),
      mapping("kings"),
      word("kings.capture", kRoyalCaptureWords,
           [](V& v, int) -> RoyalCapture& { return v.rules.kings.capture; }),
      word("kings.several", kSeveralRoyalsWords,
           [](V& v, int) -> SeveralRoyals& { return v.rules.kings.several; }),
      word("moves_as", kMovesAsWords, [](V& v, int) -> MovesAs& { return v.rules.moves_as; }),
      word("mate", kMateDetectWords, [](V& v, int) -> MateDetect& { return v.rules.mate; }),
      word("no_legal_move", kNoMoveWords,
           [](V& v, int) -> NoMove& { return v.rules.no_legal_move; }),
      mapping("elimination"),
      word("elimination.king", kKingOnElimWords,
           [](V& v, int) -> KingOnElim& { return v.rules.elimination.king; }),
      word("elimination.pieces", kPiecesOnElimWords,
           [](V& v, int) -> PiecesOnElim& { return v.rules.elimination.pieces; }),
      word("elimination.hand", kHandOnElimWords,
           [](V& v, int) -> HandOnElim& { return v.rules.elimination.hand; }),
      word("resignation", kResignationWords,
           [](V& v, int) -> bool& { return v.rules.resignation; }),
      mapping("end"),
      custom("end.last_seat_standing", read_last_seat),
      number("end.mates", 0, kMaxSeats, [](V& v, int) -> int& { return v.rules.end.mates; }),
      flag("end.team_checkmate", [](V& v, int) -> bool& { return v.rules.end.team_checkmate; }),
      letter("end.collect", [](V& v, int) -> int& { return v.rules.end.collect; }),
      mapping("end.repetition"),
      custom("end.repetition.count",
             [](Reading& r, const Doc& d, const std::string& at, int) {
               r.v.rules.end.repetition.count = expect_int(d, at, 0, 100);
               if (r.v.rules.end.repetition.count == 1)
                 fail(d.loc, at + " 1 would end every game at its first position (it has "
                                  "occurred once); 0 turns the rule off, else from 2 to 100");
             }),
      word("end.repetition.perpetual_check", kPerpetualWords,
           [](V& v, int) -> Perpetual& { return v.rules.end.repetition.perpetual_check; }),
      word("end.repetition.perpetual_by", kPerpetualByWords,
           [](V& v, int) -> PerpetualBy& { return v.rules.end.repetition.perpetual_by; }),
      custom("end.repetition.loser", read_repetition_loser),
      // Written, impasse counts 1 a piece but for the royals unless its
      // points say otherwise.
      mapping("end.impasse",
              [](Reading& r, const Doc& d, const std::string& at, int i) {
                auto& points = r.v.rules.end.impasse.points;
                points.fill(1);
                for (std::size_t k = 0; k < r.v.kinds.size(); ++k)
                  if (r.v.kinds[k].royal) points[k] = 0;
                read_keys(r, d, "end.impasse", at, i);
              }),
      word("end.impasse.rule", kImpasseRuleWords,
           [](V& v, int) -> ImpasseRule& { return v.rules.end.impasse.rule; }),
      custom("end.impasse.points", read_impasse_points),
      number("end.impasse.lose_below", 0, 100000,
             [](V& v, int) -> int& { return v.rules.end.impasse.lose_below; }),
      custom("end.impasse.win_at", per_seat(&ImpasseRules::win_at)),
      custom("end.impasse.draw_at", per_seat(&ImpasseRules::draw_at)),
      number("end.impasse.min_pieces_in_zone", 0, 1000,
             [](V& v, int) -> int& { return v.rules.end.impasse.min_pieces_in_zone; }),
      word("end.impasse.judged", kImpasseJudgedWords,
           [](V& v, int) -> ImpasseJudged& { return v.rules.end.impasse.judged; }),
      word("end.to_move", kAfterEndWords,
           [](V& v, int) -> AfterEnd& { return v.rules.end.to_move; }),
      custom("end.checks",
             [](Reading& r, const Doc& d, const std::string& at, int) {
               r.v.rules.end.checks = expect_int(d, at, 0, 99);
               if (r.v.rules.end.checks > 0 && !r.v.rules.check.enabled)
                 fail(d.loc, at + " counts checks, and this variant has none (check: {enabled: "
                                  "false}): the rule would never end a game");
             }),
      flag("end.last_team_standing",
           [](V& v, int) -> bool& { return v.rules.end.last_team_standing; }),
      // Written, the goal is a row deep unless it says otherwise.
      mapping("end.goal",
              [](Reading& r, const Doc& d, const std::string& at, int i) {
                r.v.rules.end.goal.depth = 1;
                read_keys(r, d, "end.goal", at, i);
              }),
      number("end.goal.depth", 1, 16, [](V& v, int) -> int& { return v.rules.end.goal.depth; }),
      flag("end.goal.safe", [](V& v, int) -> bool& { return v.rules.end.goal.safe; }),
      mapping("end.bare_king"),
      word("end.bare_king.rule", kBareKingWords,
           [](V& v, int) -> BareKing& { return v.rules.end.bare_king.rule; }),
      custom("end.bare_king.uncounted",
             [](Reading& r, const Doc& d, const std::string& at, int) {
               r.v.rules.end.bare_king.uncounted = read_kind_set(r, d, at);
             }),
      word("end.lone_royals", kLoneRoyalsWords,
           [](V& v, int) -> LoneRoyals& { return v.rules.end.lone_royals; }),
      mapping("lion_trading"),
      custom("lion_trading.lions", [](Reading& r, const Doc& d, const std::string& at,
                                      int) { r.v.rules.lions.lions = read_kind_set(r, d, at); }),
      word("lion_trading.protected", kProtectedLionWords,
           [](V& v, int) -> bool& { return v.rules.lions.protected_forbidden; }),
      custom("lion_trading.bridge_ignores",
             [](Reading& r, const Doc& d, const std::string& at, int) {
               r.v.rules.lions.bridge_ignores = read_kind_set(r, d, at);
             }),
      flag("lion_trading.counter_strike",
           [](V& v, int) -> bool& { return v.rules.lions.counter_strike; }),
      word("places", kPlacesWords, [](V& v, int) -> Places& { return v.rules.places; }),
      elsewhere("options"),
      elsewhere("options.<name>"),
      elsewhere("options.<name>.values"),
      elsewhere("options.<name>.default"),
      elsewhere("options.<name>.type"),
      elsewhere("options.<name>.min"),
      elsewhere("options.<name>.max"),
      word("dead_squares", kDeadSquaresWords,
           [](V& v, int) -> bool& { return v.dead_squares_allowed; }),
      mapping("dialect"),
      custom("dialect.letters", [](Reading& r, const Doc& d, const std::string& at,
                                   int) { read_dialect(r, d, at, false); }),
      custom("dialect.hand", [](Reading& r, const Doc& d, const std::string& at,
                                int) { read_dialect(r, d, at, true); }),
      word("dialect.turn_mark", kTurnMarkWords,
           [](V& v, int) -> bool& { return v.plus_turns_back; }),
  };
}

void read_row(Reading& r, const Key& row, const Doc& value, const std::string& at, int index) {
  if (row.read) return row.read(r, value, at, index);
  read_keys(r, value, row.path, at, index);
}

}  // namespace

const std::vector<Key>& schema() {
  static const std::vector<Key> rows = make_schema();
  return rows;
}

const Key* key_at(const std::string& path) {
  for (const Key& row : schema())
    if (row.path == path) return &row;
  return nullptr;
}

std::vector<std::string> keys_under(const std::string& path) {
  const std::string prefix = path.empty() ? "" : path + ".";
  std::vector<std::string> out;
  for (const Key& row : schema()) {
    if (row.path.compare(0, prefix.size(), prefix) != 0 || row.path.size() == prefix.size())
      continue;
    std::string rest = row.path.substr(prefix.size());
    if (rest.find('.') == std::string::npos) out.push_back(rest);
  }
  return out;
}

const std::vector<std::string>& descriptor_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const std::string& key : keys_under(""))
      if (key != "koma" && key != "extends" && key != "replace") out.push_back(key);
    return out;
  }();
  return keys;
}

void read_keys(Reading& r, const Doc& d, const std::string& path, const std::string& at,
               int index) {
  std::vector<std::string> keys = keys_under(path);
  // extends and replace are gone once the files are merged (document.cpp).
  if (path.empty())
    std::erase_if(keys, [](const std::string& k) { return k == "extends" || k == "replace"; });
  const bool letters = std::find(keys.begin(), keys.end(), "<letter>") != keys.end();
  if (letters && !d.is_map()) fail(d.loc, at + " must be a mapping, not " + d.kind_name());
  if (!letters) expect_map(d, at, keys);
  for (const std::string& key : keys) {
    const Key* row = key_at(child(path, key));
    const Doc* value = d.find(key);
    if (!value && row->missing) fail(d.loc, row->missing);
    if (key == "<letter>" || row->how == Key::How::elsewhere || !value) continue;
    read_row(r, *row, *value, child(at, key), index);
  }
  if (!letters) return;
  const Key& row = *key_at(child(path, "<letter>"));
  for (std::size_t i = 0; i < d.map.size(); ++i) {
    const std::string& key = d.map[i].first;
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    const int kind = r.kind_named(key_as_value(d, i), at);
    read_row(r, row, d.map[i].second, child(at, key), kind);
  }
}

}  // namespace koma::detail
