// Internal: the plain data of a position. Users read it through koma::Position;
// the move generator and the rules work on it directly. It is copied once per
// ply (copy-make), so its layout is kept flat and free of pointers.
#pragma once
#include <array>
#include <cstdint>

#include "koma/detail/bitset.hpp"

namespace koma::detail {

inline constexpr int kMaxSeats = 4;
inline constexpr int kMaxKinds = 64;
inline constexpr int kMaxSquares = 256;

// A cell holds a piece code and an owner. The code packs (kind, facing) as
// kind * 4 + facing + 1 so that 0 means empty; two codes are reserved.
inline constexpr std::uint8_t kEmpty = 0;
inline constexpr std::uint8_t kOverturned = 254;  // an eliminated seat's king
inline constexpr std::uint8_t kVoid = 255;        // not a square

inline constexpr std::uint8_t code_of(int kind, int facing) {
  return static_cast<std::uint8_t>(kind * 4 + facing + 1);
}
inline constexpr int kind_of(std::uint8_t code) {
  return (code - 1) >> 2;
}
inline constexpr int facing_of(std::uint8_t code) {
  return (code - 1) & 3;
}
inline constexpr bool is_piece(std::uint8_t code) {
  return code != kEmpty && code < kOverturned;
}

struct Cell {
  std::uint8_t code = kEmpty;
  std::uint8_t owner = 0;  // seat index from 0
  bool operator==(const Cell&) const = default;
};

enum class Outcome : std::uint8_t { ongoing, finished };

struct State {
  std::array<Cell, kMaxSquares> cells{};
  std::array<std::array<std::uint8_t, kMaxKinds>, kMaxSeats> hand{};
  std::array<SquareSet, kMaxSeats> owned{};  // pieces (not overturned kings) per owner
  SquareSet occupied{};                      // everything that blocks: pieces and overturned kings
  // A seat's royal square while it has exactly one royal piece on the board
  // (kings.several: last_is_royal lets it have more; then none is a king).
  std::array<std::int16_t, kMaxSeats> royal{{-1, -1, -1, -1}};
  std::array<std::uint8_t, kMaxSeats> royals{};  // royal pieces on the board per owner
  std::uint64_t board_key = 0;                   // XOR of per-cell keys
  std::uint64_t hand_key = 0;                    // sum of per-hand-piece keys
  std::uint32_t ply = 1;                         // moves played + 1, as in the position text
  std::uint8_t to_move = 0;
  std::uint8_t eliminated_mask = 0;
  // The seats of eliminated_mask (each is eliminated once), in the order
  // they left the game.
  std::uint8_t eliminated_count = 0;
  std::array<std::uint8_t, kMaxSeats> elimination_order{};
  // lion_trading.counter_strike: the square where the last move, by a piece
  // that is not a lion, took a lion; -1 for none. Part of the position (its
  // text and key): the reply may take no lion elsewhere with a non-lion.
  std::int16_t strike = -1;
  // Rule bookkeeping that is not part of the position text.
  // Ply of each seat's latest real move; before a loaded position, plain turn
  // order is assumed, so these may be zero or negative.
  std::array<std::int32_t, kMaxSeats> last_moved{};
  std::array<std::uint8_t, kMaxSeats> mates_made{};
  std::array<std::uint32_t, kMaxSeats> last_mate{};  // its last mate's elimination number, 0 = none
  std::array<std::int8_t, kMaxSeats> mated_by{{-1, -1, -1, -1}};
  std::array<std::uint8_t, kMaxSeats> hand_frozen{};   // hand kept but unusable
  std::array<std::uint8_t, kMaxSeats> checks_given{};  // moves that gave check (end.checks)
  // end.repetition.perpetual_by: check_or_attack: the move into this state
  // attacked an enemy royal, or left the moved piece attacking an enemy piece.
  bool pressed = false;
  // Result, once the game has ended.
  Outcome outcome = Outcome::ongoing;
  std::uint8_t reason = 0;  // koma::Reason
  std::array<std::uint8_t, kMaxSeats> places{};
  // With an outside referee (Game::Referee::outside), a rule ending reached by
  // the move into this state: reason and places are filled, play goes on.
  bool rule_ending = false;

  bool active(int seat) const { return !((eliminated_mask >> seat) & 1u); }
};

}  // namespace koma::detail
