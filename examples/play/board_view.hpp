// How koma-play draws a position in a terminal: the board with file and rank
// labels, every seat's hand, and the turn bar. Uses the public API only, so it
// draws any descriptor's board (9x9, the 15x15 cross with its voids, ...).
//
// A cell is [mark][glyph][owner][facing]:
//   mark    '+' promoted, 'X' overturned king (kanji style), ' ' otherwise
//   glyph   the kind's letter without its '+', or its kanji; 'X' for an
//           overturned king in letter style (as the notation writes it)
//   owner   the seat number
//   facing  ^ > v < : the way the piece calls forward, so a West pawn (P2>)
//           and an East pawn (P4<) look different
// An empty cell shows a dot, a void cell nothing at all.
#pragma once
#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "koma/koma.hpp"

namespace play {

enum class PieceStyle { letters, kanji };

// Terminal columns `text` takes: one per ASCII character, two per other code
// point (the kanji, kana and full-width marks drawn here are all wide).
inline int columns(std::string_view text) {
  int n = 0;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) n += byte < 0x80 ? 1 : 2;  // count lead bytes only
  }
  return n;
}

// `text` with spaces appended up to `width` columns.
inline std::string pad_right(std::string text, int width) {
  for (int n = columns(text); n < width; ++n) text += ' ';
  return text;
}

// `text` with spaces put before it up to `width` columns.
inline std::string pad_left(const std::string& text, int width) {
  std::string out;
  for (int n = columns(text); n < width; ++n) out += ' ';
  out += text;
  return out;
}

inline char facing_mark(koma::Facing facing) {
  switch (facing) {
    case koma::Facing::up:
      return '^';
    case koma::Facing::right:
      return '>';
    case koma::Facing::down:
      return 'v';
    case koma::Facing::left:
      return '<';
  }
  return '?';
}

// A kind as drawn: its kanji (kanji style, where the descriptor gives one) or
// its letter without the promotion '+', which the cell's mark shows instead.
inline std::string glyph(const koma::Variant& variant, int kind, PieceStyle style) {
  const koma::PieceKindInfo& info = variant.kind_info(kind);
  if (style == PieceStyle::kanji && !info.kanji.empty()) return info.kanji;
  std::string letter = info.letter;
  if (!letter.empty() && letter.front() == '+') letter.erase(0, 1);
  return letter;
}

// The widest glyph of the variant, in columns.
inline int glyph_columns(const koma::Variant& variant, PieceStyle style) {
  int width = 1;
  for (int kind = 0; kind < variant.kinds(); ++kind)
    width = std::max(width, columns(glyph(variant, kind, style)));
  return width;
}

// A square's name split into its file and rank parts: "7g" -> 7, g (shogi
// names, file digit first); "h13" -> h, 13 (algebraic names, file letter first).
inline std::pair<std::string, std::string> file_and_rank(const std::string& name) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t split = 1;
  while (split < name.size() && is_digit(name[split]) == is_digit(name[0])) ++split;
  return {name.substr(0, split), name.substr(std::min(split, name.size()))};
}

// One cell, glyph_width columns for its glyph, 3 more for mark, owner, facing.
inline std::string cell(const koma::Position& pos, koma::Square sq, PieceStyle style,
                        int glyph_width) {
  const koma::Variant& variant = pos.variant();
  const int width = glyph_width + 3;
  if (!variant.is_square(sq)) return std::string(static_cast<std::size_t>(width), ' ');
  std::optional<koma::PieceOnBoard> piece = pos.at(sq);
  if (!piece) return pad_right(style == PieceStyle::kanji ? " \u30fb" : " .", width);
  std::string out;
  if (piece->overturned && style == PieceStyle::letters) {
    out = " " + pad_right("X", glyph_width) + std::to_string(piece->owner);
  } else {
    const bool promoted = variant.kind_info(piece->kind).promoted;
    out = piece->overturned ? "X" : promoted ? "+" : " ";
    out += pad_right(glyph(variant, piece->kind, style), glyph_width);
    out += std::to_string(piece->owner);
    // An overturned king no longer moves: no facing.
    if (!piece->overturned) out += facing_mark(piece->facing);
  }
  return pad_right(out, width);
}

// The board: a line of file labels, then one line per row with its rank label
// on both sides, then the file labels again.
inline std::string board_text(const koma::Position& pos, PieceStyle style) {
  const koma::Variant& variant = pos.variant();
  const int width = variant.width(), height = variant.height();
  const int glyph_width = glyph_columns(variant, style);

  // Labels come from the names of the squares in each column and row; a
  // column or row of voids only has none.
  std::vector<std::string> files(static_cast<std::size_t>(width));
  std::vector<std::string> ranks(static_cast<std::size_t>(height));
  for (int row = 0; row < height; ++row)
    for (int col = 0; col < width; ++col) {
      koma::Square sq = row * width + col;
      if (!variant.is_square(sq)) continue;
      auto [file, rank] = file_and_rank(variant.square_name(sq));
      if (files[col].empty()) files[col] = file;
      if (ranks[row].empty()) ranks[row] = rank;
    }
  int rank_width = 1;
  for (const std::string& r : ranks) rank_width = std::max(rank_width, columns(r));

  // A space between cells keeps "+P" clear of its left neighbour; boards wider
  // than 12 files (Shipley's 15) go without, to fit 80 columns.
  const std::string gap = width <= 12 ? " " : "";
  std::string labels = std::string(static_cast<std::size_t>(rank_width) + 1, ' ');
  for (int col = 0; col < width; ++col) {
    if (col > 0) labels += gap;
    labels += " " + pad_right(files[col], glyph_width + 2);
  }
  while (!labels.empty() && labels.back() == ' ') labels.pop_back();
  labels += '\n';

  std::string out = labels;
  for (int row = 0; row < height; ++row) {
    out += pad_left(ranks[row], rank_width) + " ";
    for (int col = 0; col < width; ++col) {
      if (col > 0) out += gap;
      out += cell(pos, row * width + col, style, glyph_width);
    }
    out += " " + ranks[row] + "\n";
  }
  out += labels;
  return out;
}

// A seat's hand: "R G 2P" (letters) or "飛 金 2歩" (kanji), kinds in the
// descriptor's order; "-" when empty.
inline std::string hand_text(const koma::Position& pos, int seat, PieceStyle style) {
  const koma::Variant& variant = pos.variant();
  std::string out;
  for (int kind = 0; kind < variant.kinds(); ++kind) {
    int count = pos.in_hand(seat, kind);
    if (count == 0) continue;
    if (!out.empty()) out += ' ';
    if (count > 1) out += std::to_string(count);
    out += glyph(variant, kind, style);
  }
  return out.empty() ? "-" : out;
}

// "seat 3 (North)".
inline std::string seat_label(const koma::Variant& variant, int seat) {
  std::string out = "seat ";
  out += std::to_string(seat);
  out += " (";
  out += variant.seat_name(seat);
  out += ')';
  return out;
}

// One line per seat: number, name, facing, who plays it, hand, and whether it
// is out of the game. `players[seat - 1]` is "human" or a CPU level.
inline std::string seats_text(const koma::Position& pos, const std::vector<std::string>& players,
                              PieceStyle style) {
  const koma::Variant& variant = pos.variant();
  int name_width = 0, player_width = 0;
  for (int seat = 1; seat <= variant.seats(); ++seat) {
    name_width = std::max(name_width, columns(variant.seat_name(seat)));
    player_width = std::max(player_width, columns(players[seat - 1]));
  }
  std::string out;
  for (int seat = 1; seat <= variant.seats(); ++seat) {
    // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on "  " + a string.
    out += "  ";
    out += std::to_string(seat);
    out += ' ';
    out += pad_right(variant.seat_name(seat), name_width);
    out += ' ';
    out += facing_mark(variant.seat_facing(seat));
    out += ' ';
    out += pad_right(players[seat - 1], player_width);
    out += "  hand: ";
    out += hand_text(pos, seat, style);
    if (!pos.active(seat)) out += "  (out of the game)";
    out += '\n';
  }
  return out;
}

// "ply 5 | seat 1 (South) to move [human] | in check: seat 3 (North)"; the
// check part only when some seat is in check.
inline std::string turn_bar(const koma::Position& pos, const std::vector<std::string>& players) {
  const koma::Variant& variant = pos.variant();
  std::string out = "ply " + std::to_string(pos.ply()) + " | ";
  out += seat_label(variant, pos.to_move()) + " to move [" + players[pos.to_move() - 1] + "]";
  std::vector<int> checked = variant.has_check() ? pos.seats_in_check() : std::vector<int>{};
  for (std::size_t i = 0; i < checked.size(); ++i) {
    out += i == 0 ? " | in check: " : ", ";
    out += seat_label(variant, checked[i]);
  }
  return out + "\n";
}

}  // namespace play
