// A move: a board move (from, to, promote) or a drop (kind, to). The seat that
// plays it is always the seat to move, so a move names no seat. Resigning and
// declaring an impasse win are actions, not moves (see Game).
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
  std::uint8_t kind = 0;  // for a drop: the dropped piece kind (Variant::kind_info)
  bool promote = false;

  static Move board(Square from, Square to, bool promote = false) {
    return Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to), 0, promote};
  }
  static Move drop(int kind, Square to) {
    return Move{kDrop, static_cast<std::uint8_t>(to), static_cast<std::uint8_t>(kind), false};
  }
  bool is_drop() const { return from == kDrop; }
  bool operator==(const Move&) const = default;
};

}  // namespace koma
