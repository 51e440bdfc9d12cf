// A move: a board move (from, to, promote), a double move (from, middle, to:
// two steps in one turn, each of which may capture, chu shogi's lion) or a
// drop (kind, to). The seat that plays it is always the seat to move, so a
// move names no seat. Resigning and declaring an impasse win are actions, not
// moves (see Game).
#pragma once
#include <cstdint>

namespace koma {

// Squares are numbered row by row from the top-left cell of the board's
// bounding rectangle: square = row * width + column. Variant::square_name()
// gives the name used in text (7g, h13).
using Square = int;

struct Move {
  static constexpr std::uint8_t kDrop = 255;
  std::uint8_t from = 0;  // a square, or kDrop
  std::uint8_t to = 0;
  // For a drop: the dropped piece kind (Variant::kind_info). For a board
  // move: 0, or for a double move its middle square + 1 (middle()).
  std::uint8_t kind = 0;
  bool promote = false;

  static Move board(Square from, Square to, bool promote = false) {
    return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), 0, promote};
  }
  // The piece steps from `from` to `middle` (capturing what stands there),
  // then to `to` (capturing again; `to` may be `from`: igui, or a pass).
  static Move double_move(Square from, Square middle, Square to, bool promote = false) {
    return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                static_cast<std::uint8_t>(middle + 1), promote};
  }
  static Move drop(int kind, Square to) {
    return Move{kDrop, static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(kind), false};
  }
  bool is_drop() const { return from == kDrop; }
  bool is_double() const { return kind != 0 && from != kDrop; }
  // The middle square of a double move, -1 for any other move.
  Square middle() const { return is_double() ? kind - 1 : -1; }
  bool operator==(const Move&) const = default;
};

}  // namespace koma
