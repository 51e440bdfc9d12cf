// Internal: the few primitive edits of a State, each keeping the occupancy
// sets, royal squares and Zobrist keys in step with the cells.
#pragma once
#include <bit>

#include "koma/detail/state.hpp"
#include "variant_data.hpp"

namespace koma::detail {

[[gnu::always_inline]] inline void put_piece(const VariantData& v, State& s, int sq,
                                             std::uint8_t code, int owner) {
  s.cells[sq] = Cell{code, static_cast<std::uint8_t>(owner)};
  s.occupied.set(sq);
  s.board_key ^= v.cell_key(code, owner, sq);
  if (code == kOverturned) return;
  s.owned[owner].set(sq);
  if (v.kinds[kind_of(code)].royal)
    s.royal[owner] = ++s.royals[owner] == 1 ? static_cast<std::int16_t>(sq) : std::int16_t{-1};
}

// The square of `owner`'s one royal piece left on the board (a scan: only
// kings.several gets here, when a second royal leaves the board).
// (Written out, not with SquareSet::each: inlined in every make, which
// stays free of calls.)
[[gnu::always_inline]] inline std::int16_t lone_royal(const VariantData& v, const State& s,
                                                      int owner) {
  std::int16_t found = -1;
  for (int i = 0; i < 4; ++i)
    for (std::uint64_t b = s.owned[owner].w[i]; b; b &= b - 1) {
      const int sq = i * 64 + std::countr_zero(b);
      if (v.kinds[kind_of(s.cells[sq].code)].royal) found = static_cast<std::int16_t>(sq);
    }
  return found;
}

[[gnu::always_inline]] inline void remove_piece(const VariantData& v, State& s, int sq) {
  Cell c = s.cells[sq];
  s.board_key ^= v.cell_key(c.code, c.owner, sq);
  s.occupied.reset(sq);
  if (c.code != kOverturned) {
    s.owned[c.owner].reset(sq);
    if (v.kinds[kind_of(c.code)].royal) {
      --s.royals[c.owner];
      s.cells[sq] = Cell{};
      s.royal[c.owner] = s.royals[c.owner] == 1 ? lone_royal(v, s, c.owner) : std::int16_t{-1};
      return;
    }
  }
  s.cells[sq] = Cell{};
}

inline void add_to_hand(const VariantData& v, State& s, int seat, int kind, int n = 1) {
  s.hand[seat][kind] = static_cast<std::uint8_t>(s.hand[seat][kind] + n);
  s.hand_key += static_cast<std::uint64_t>(n) * v.z_hand[seat][kind];
}

inline void set_to_move(const VariantData& v, State& s, int seat) {
  s.board_key ^= v.z_turn[s.to_move] ^ v.z_turn[seat];
  s.to_move = static_cast<std::uint8_t>(seat);
}

// Each seat's latest move as if play had gone round in turn order before
// `s`: the seat `back` turns before the one to move moved at ply - back.
inline void assume_turn_order(const VariantData& v, State& s) {
  for (int back = 1; back <= v.nseats; ++back)
    s.last_moved[v.turn_after[s.to_move][v.nseats - back]] =
        static_cast<std::int32_t>(static_cast<long>(s.ply) - back);
}

inline void mark_eliminated(const VariantData& v, State& s, int seat) {
  s.eliminated_mask |= static_cast<std::uint8_t>(1u << seat);
  s.elimination_order[s.eliminated_count++] = static_cast<std::uint8_t>(seat);
  s.board_key ^= v.z_elim[seat];
}

// lion_trading.counter_strike: makes `sq` (-1: none) the position's
// counter-strike square, its key with it.
inline void set_strike(const VariantData& v, State& s, int sq) {
  if (s.strike >= 0) s.board_key ^= v.z_strike[static_cast<std::size_t>(s.strike)];
  s.strike = static_cast<std::int16_t>(sq);
  if (sq >= 0) s.board_key ^= v.z_strike[static_cast<std::size_t>(sq)];
}

// Recomputes every key from scratch (loading, and checking the incremental ones).
std::uint64_t full_key(const VariantData& v, const State& s);

}  // namespace koma::detail
