// A position: board, hands, seat to move, eliminated seats and ply. A value:
// cheap to copy, compared with ==, read and written as text. Legality that
// needs the game's past (repetition) lives in Game; a Position answers what
// the position alone decides.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/detail/state.hpp"
#include "koma/move.hpp"
#include "koma/result.hpp"
#include "koma/variant.hpp"

namespace koma {

// What places by score compare (Variant::places_by_score()): mates made,
// total pieces (board, hand, and the overturned kings of the seats it mated),
// and when the seat's latest mate happened, as its number in the order of the
// game's eliminations (0 for none; a later mate has a larger number).
struct SeatScore {
  int mates = 0;
  int pieces = 0;
  int last_mate = 0;  // the latest mate's number in the order of the game's eliminations, 0 = none
};

struct PieceOnBoard {
  int kind;                 // Variant::kind_info index
  int owner;                // seat number from 1
  Facing facing;            // the way the piece calls forward
  bool overturned = false;  // an eliminated seat's king (kind is then the royal kind)
};

class Position {
 public:
  // Reads a position of `variant`: SFEN for SFEN variants (the generic text is
  // accepted too), the generic text of docs/notation.md otherwise. Throws
  // NotationError saying what is wrong and where.
  static Position from_text(std::shared_ptr<const Variant> variant, std::string_view text);

  const Variant& variant() const { return *variant_; }
  const std::shared_ptr<const Variant>& variant_ptr() const { return variant_; }

  std::string text() const;          // SFEN for SFEN variants, else the generic text
  std::string generic_text() const;  // always the generic text
  int to_move() const { return s_.to_move + 1; }
  int ply() const { return static_cast<int>(s_.ply); }
  std::optional<PieceOnBoard> at(Square sq) const;
  int in_hand(int seat, int kind) const;
  bool active(int seat) const;          // still in the game (false for no such seat)
  std::vector<int> eliminated() const;  // in elimination order
  bool in_check(int seat) const;        // attacked by an active enemy (never, without check)
  std::vector<int> seats_in_check() const;
  SeatScore score(int seat) const;

  // Legal moves of the seat to move, in the documented order: board moves by
  // origin square, then drops by kind and square (docs/api.md).
  std::vector<Move> legal_moves() const;
  bool is_legal(Move m) const;
  // Move text in the variant's notation (USI for SFEN variants).
  std::string move_text(Move m) const;
  // Reads move text for this position: syntax only, legality is not checked.
  Move parse_move(std::string_view text) const;

  // Zobrist key of board, hands, seat to move and eliminated seats.
  std::uint64_t hash() const { return s_.board_key ^ s_.hand_key; }
  // Same board, hands, seat to move and eliminated set (ply is not compared).
  bool operator==(const Position& other) const;

  // The result recorded when a game ended in this position (nullopt if not).
  std::optional<Result> result() const;

 private:
  friend struct detail::Access;  // the library's own modules read and make states
  Position(std::shared_ptr<const Variant> v, const detail::State& s)
      : variant_(std::move(v)), s_(s) {}
  const detail::State& state() const { return s_; }

  std::shared_ptr<const Variant> variant_;
  detail::State s_;
};

}  // namespace koma
