#include "setup.hpp"

#include <string>
#include <vector>

#include "notation.hpp"
#include "reader.hpp"

namespace koma::detail {
namespace {

// Places `seat`'s army from its placements; with `from_seat` >= 0 the
// placements are from_seat's, turned to `seat`'s edge.
void place_army(const Reading& r, State& st, int seat, const Doc& army, int from_seat) {
  const VariantData& v = r.v;
  if (!army.is_map()) fail(army.loc, "a seat's placements map piece letters to squares");
  const int turns = from_seat < 0 ? 0 : (v.seat_facing[seat] - v.seat_facing[from_seat] + 4) % 4;
  for (std::size_t i = 0; i < army.map.size(); ++i) {
    const int kind = r.kind_named(key_as_value(army, i), "setup");
    const Doc& where = army.map[i].second;
    std::vector<const Doc*> items;
    if (where.is_seq())
      for (const auto& w : where.seq) items.push_back(&w);
    else
      items.push_back(&where);
    for (const Doc* w : items) {
      int sq = square_at(v, *w, expect_word(*w, "setup"), "setup");
      int x = sq % v.width, y = sq / v.width;
      for (int t = 0; t < turns; ++t) {  // a quarter turn clockwise about the centre
        const int nx = v.width - 1 - y, ny = x;
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

State placement_setup(const Reading& r, const Doc& s) {
  const VariantData& v = r.v;
  if (!s.is_map()) fail(s.loc, "setup is a position text or a mapping of seat names to placements");
  State st;
  bool rotate = false;
  int first_listed = -1;
  for (std::size_t i = 0; i < s.map.size(); ++i) {
    const auto& [key, val] = s.map[i];
    if (key == "others") {
      if (expect_word(val, "setup.others") != "rotate")
        fail(val.loc, "setup.others can only be 'rotate'");
      rotate = true;
      continue;
    }
    const int seat = r.seat_named(key_as_value(s, i), "setup");
    if (first_listed < 0) first_listed = seat;
    place_army(r, st, seat, val, -1);
  }
  if (rotate) {
    if (v.width != v.height) fail(s.loc, "setup.others: rotate needs a square board");
    if (first_listed < 0) fail(s.loc, "setup.others: rotate needs one seat's placements to rotate");
    const Doc* army = s.find(v.seat_names[first_listed]);
    for (int seat = 0; seat < v.nseats; ++seat)
      if (!s.find(v.seat_names[seat])) place_army(r, st, seat, *army, first_listed);
  }
  // Checked and finished as a setup read from text is, so that the start
  // position reads back from its own text.
  finish_position(v, st, /*setup=*/true);
  return st;
}

}  // namespace

void read_setup(Reading& r, const Doc& top) {
  VariantData& v = r.v;
  const Doc* s = top.find("setup");
  if (!s) fail(top.loc, "the descriptor needs a 'setup': a position text, or placements per seat");
  try {
    v.start =
        s->is_scalar() ? parse_position(v, s->scalar, /*setup=*/true) : placement_setup(r, *s);
  } catch (const NotationError& e) {
    fail(s->loc, std::string("setup: ") + e.what());
  }
  v.start.ply = 1;
  // Counts for validating loaded positions, by family: they stay in play.
  for (int sq = 0; sq < v.nsq; ++sq) {
    const Cell c = v.start.cells[sq];
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
                       " pieces (with promoted ones); a hand holds at most 255 of a kind, so the "
                       "set may have no more");
}

}  // namespace koma::detail
