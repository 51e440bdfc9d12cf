#include "koma/position.hpp"

#include <algorithm>

#include "access.hpp"
#include "koma/error.hpp"
#include "line.hpp"
#include "movegen.hpp"
#include "notation.hpp"
#include "rules.hpp"

namespace koma {

Position Position::from_text(std::shared_ptr<const Variant> variant, std::string_view text) {
  if (!variant) throw Error("Position::from_text needs a variant");
  const detail::VariantData& v = detail::Access::data(*variant);
  detail::State s = detail::parse_position(v, text);
  // Two seats with check: the side not to move cannot be in check.
  if (v.rules.check.enabled && v.nseats == 2 && detail::in_check(v, s, 1 - s.to_move))
    throw NotationError("the seat not to move, " + std::to_string(2 - s.to_move) + ", is in check");
  return detail::Access::position(std::move(variant), s);
}

std::string Position::text() const {
  return variant_->uses_sfen() ? detail::write_sfen(detail::Access::data(*variant_), s_)
                               : generic_text();
}
std::string Position::generic_text() const {
  return detail::write_generic(detail::Access::data(*variant_), s_);
}

std::optional<PieceOnBoard> Position::at(Square sq) const {
  const auto& v = detail::Access::data(*variant_);
  if (!v.is_square(sq)) return std::nullopt;
  detail::Cell c = s_.cells[static_cast<std::size_t>(sq)];
  if (c.code == detail::kEmpty) return std::nullopt;
  if (c.code == detail::kOverturned) {
    int royal = 0;
    for (std::size_t k = v.kinds.size(); k-- > 0;)  // the first royal kind
      if (v.kinds[k].royal) royal = static_cast<int>(k);
    return PieceOnBoard{royal, c.owner + 1, static_cast<Facing>(v.seat_facing[c.owner]), true};
  }
  return PieceOnBoard{detail::kind_of(c.code), c.owner + 1,
                      static_cast<Facing>(detail::facing_of(c.code)), false};
}

int Position::in_hand(int seat, int kind) const {
  if (seat < 1 || seat > variant_->seats() || kind < 0 || kind >= variant_->kinds()) return 0;
  return s_.hand[static_cast<std::size_t>(seat - 1)][static_cast<std::size_t>(kind)];
}

std::vector<int> Position::eliminated() const {
  std::vector<int> out;
  out.reserve(s_.eliminated_count);
  for (int i = 0; i < s_.eliminated_count; ++i)
    out.push_back(s_.elimination_order[static_cast<std::size_t>(i)] + 1);
  return out;
}

bool Position::active(int seat) const {
  if (seat < 1 || seat > variant_->seats()) return false;
  return s_.active(seat - 1);
}

bool Position::in_check(int seat) const {
  if (seat < 1 || seat > variant_->seats()) return false;
  return detail::in_check(detail::Access::data(*variant_), s_, seat - 1);
}

std::vector<int> Position::seats_in_check() const {
  std::vector<int> out;
  for (int seat = 1; seat <= variant_->seats(); ++seat)
    if (in_check(seat)) out.push_back(seat);
  return out;
}

SeatScore Position::score(int seat) const {
  if (seat < 1 || seat > variant_->seats()) return {};
  auto sc = detail::score_of(detail::Access::data(*variant_), s_, seat - 1);
  return SeatScore{sc.mates, sc.pieces, static_cast<int>(sc.last_mate)};
}

std::vector<Move> Position::legal_moves() const {
  if (s_.outcome != detail::Outcome::ongoing) return {};
  detail::MoveList list;
  detail::generate_moves(detail::Access::data(*variant_), s_, s_.to_move, list);
  return {list.begin(), list.end()};
}

bool Position::is_legal(Move m) const {
  auto moves = legal_moves();
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

std::string Position::move_text(Move m) const {
  return detail::move_text(detail::Access::data(*variant_), s_, m);
}
Move Position::parse_move(std::string_view text) const {
  return detail::parse_move_text(detail::Access::data(*variant_), text);
}

bool Position::operator==(const Position& other) const {
  return variant_ == other.variant_ && hash() == other.hash() &&
         detail::same_position(detail::Access::data(*variant_), s_, other.s_);
}

std::optional<Result> Position::result() const {
  if (s_.outcome != detail::Outcome::finished) return std::nullopt;
  Result r;
  r.reason = static_cast<Reason>(s_.reason);
  for (int i = 0; i < variant_->seats(); ++i)
    r.places.push_back(s_.places[static_cast<std::size_t>(i)]);
  return r;
}

}  // namespace koma
