// Internal: square names, the generic position text, SFEN and move text.
// Formats are specified in docs/notation.md.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "koma/error.hpp"
#include "koma/move.hpp"
#include "variant_data.hpp"

namespace koma::detail {

std::string square_name(const VariantData& v, int sq);
// With `allow_void`, names of void cells are read too.
std::optional<int> parse_square_name(const VariantData& v, std::string_view name,
                                     bool allow_void = false);

// Reads a position: SFEN (for SFEN variants) or the generic text. With
// `setup`, piece-count limits are not checked (the setup defines them).
State parse_position(const VariantData& v, std::string_view text, bool setup = false);
// Checks a position read from text or placed by a descriptor's setup (royal
// pieces per seat, overturned kings; piece counts unless `setup`), then
// makes its keys and derived fields. Throws NotationError.
void finish_position(const VariantData& v, State& s, bool setup);
std::string write_generic(const VariantData& v, const State& s);
std::string write_sfen(const VariantData& v, const State& s);

// `s` is the position the move is played from (it tells a promoting move
// from one that turns a promoted piece back).
std::string move_text(const VariantData& v, const State& s, Move m);
// Syntax only: squares exist, letters are declared. Throws NotationError.
Move parse_move_text(const VariantData& v, std::string_view text);

}  // namespace koma::detail
