#include "notation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "state_ops.hpp"

namespace koma::detail {
namespace {

// Far above any real position (a 16x16 board of four armies is under 2 KiB);
// a longer text is refused before it is split. Documented in docs/api.md.
constexpr std::size_t kMaxTextBytes = std::size_t{64} * 1024;
// Move text: the longest real one is a drop or a promotion on an algebraic
// 16x16 board ("p16a16+" is 7 characters).
constexpr std::size_t kMaxMoveBytes = 16;
constexpr std::array<char, 4> kFacingMark = {'^', '>', 'v', '<'};
// In SFEN variants the generic text may hold only what SFEN can write, so
// that what reads prints back (Position::text() is SFEN) as the same position.
constexpr const char* kNotInSfen = "this variant writes SFEN, which has no ";

// User text in a message is echoed at most this long (64 bytes of it).
constexpr std::size_t kMaxEcho = 64;

[[noreturn]] void bad(const std::string& what) {
  throw NotationError(what);
}

// The length of the printable character at the start of `s`: 1 for printable
// ASCII, 2 to 4 for a well-formed UTF-8 sequence other than a C1 control, 0
// for a byte that escape_text writes as \xNN.
std::size_t printable_length(std::string_view s) {
  if (s.empty()) return 0;
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char c = byte(0);
  if (c >= 0x20 && c < 0x7f) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    if (c == 0xc2) lo = 0xa0;  // C2 80-9F are the C1 controls
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;  // no overlong forms
    if (c == 0xed) hi = 0x9f;  // no surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;  // no overlong forms
    if (c == 0xf4) hi = 0x8f;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  return n;
}

// User text echoed in a message: escaped (escape_text), in single quotes.
std::string quoted(std::string_view text) {
  std::string out = "'";
  out += escape_text(text, kMaxEcho);
  out += "'";
  return out;
}

// The character at `i` of `text`, quoted: a whole UTF-8 character where one
// starts there, else the byte.
std::string quoted_char(std::string_view text, std::size_t i) {
  return quoted(text.substr(i, std::max<std::size_t>(1, printable_length(text.substr(i)))));
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// At most nine digits (999999999): every number of a position text.
bool read_uint(std::string_view s, long& out) {
  if (s.empty() || s.size() > 9) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// How a text names kinds: by their letters (the generic text), or as SFEN
// and move text write them (VariantData::sfen_letter, hand_letter).
enum class Letters { declared, sfen };

// The kind a letter names on the board (or in a drop); -1 for none.
int kind_for_letter(const VariantData& v, std::string_view letter, Letters as = Letters::declared) {
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    if ((as == Letters::sfen ? v.sfen_letter(static_cast<int>(k)) : v.kinds[k].letter) == letter)
      return static_cast<int>(k);
  return -1;
}

// The same in a hand: unpromoted kinds only.
int kind_in_hand(const VariantData& v, std::string_view letter, Letters as) {
  if (as == Letters::declared) return kind_for_letter(v, letter);
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    if (!v.kinds[k].promoted && v.hand_letter(static_cast<int>(k)) == letter)
      return static_cast<int>(k);
  return -1;
}

// Canonical hand order: K R B T G S N L P (T: lishogi's kyoto tokin), then
// other letters as declared.
std::vector<int> hand_order(const VariantData& v, Letters as) {
  std::vector<int> order;
  for (char c : std::string("KRBTGSNLP")) {
    int k = kind_in_hand(v, std::string(1, c), as);
    if (k >= 0) order.push_back(k);
  }
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    if (!v.kinds[k].promoted &&
        std::find(order.begin(), order.end(), static_cast<int>(k)) == order.end())
      order.push_back(static_cast<int>(k));
  return order;
}

// Reads "2G3P" style hand contents into counts; `owner_of` picks the seat
// from the letter's case (SFEN) or returns the fixed seat (generic).
template <class OwnerOf>
void read_hand(const VariantData& v, std::string_view text, State& s, OwnerOf owner_of,
               bool fold_case, Letters as) {
  std::size_t i = 0;
  while (i < text.size()) {
    long count = 1;
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j > i) {
      if (!read_uint(text.substr(i, j - i), count) || count < 1 || count > 255)
        bad("hand count " + quoted(text.substr(i, j - i)) + " is not a number from 1 to 255");
    }
    if (j >= text.size()) bad("hand " + quoted(text) + " ends with a count and no piece letter");
    char c = text[j];
    int seat = owner_of(c);
    std::string letter(
        1, fold_case ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    int kind = kind_in_hand(v, letter, as);
    if (kind < 0) bad("hand piece " + quoted_char(text, j) + " is not a piece of this variant");
    if (v.kinds[kind].royal)
      bad("hand holds a royal piece '" + letter + "', which never enters a hand");
    if (s.hand[seat][kind] + count > 255) bad("hand holds too many " + letter);
    s.hand[seat][kind] = static_cast<std::uint8_t>(s.hand[seat][kind] + count);
    i = j + 1;
  }
}

}  // namespace

void finish_position(const VariantData& v, State& s, bool setup) {
  std::array<int, kMaxKinds> count{};
  std::array<int, kMaxSeats> royals{};
  for (int sq = 0; sq < v.nsq; ++sq) {
    Cell c = s.cells[sq];
    if (c.code == kOverturned) {
      if (s.active(c.owner))
        bad("square " + square_name(v, sq) + " holds an overturned king of seat " +
            std::to_string(c.owner + 1) + ", which is not eliminated");
      int royal_kind = -1;
      for (std::size_t k = v.kinds.size(); k-- > 0;)  // the first royal kind
        if (v.kinds[k].royal) royal_kind = static_cast<int>(k);
      if (royal_kind < 0) bad("this variant has no royal piece to overturn (X)");
      ++count[v.family[royal_kind]];
    } else if (is_piece(c.code)) {
      ++count[v.family[kind_of(c.code)]];
      if (v.kinds[kind_of(c.code)].royal) ++royals[c.owner];
    }
  }
  for (int seat = 0; seat < v.nseats; ++seat)
    for (std::size_t k = 0; k < v.kinds.size(); ++k) count[v.family[k]] += s.hand[seat][k];
  for (int seat = 0; seat < v.nseats; ++seat)
    if (royals[seat] > v.max_royals_per_seat)
      bad("seat " + std::to_string(seat + 1) + " has " + std::to_string(royals[seat]) +
          " royal pieces; at most " + std::to_string(v.max_royals_per_seat) + " allowed");
  if (!setup) {
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      if (count[k] > v.max_count[k])
        bad("there are " + std::to_string(count[k]) + " " + v.family_name(static_cast<int>(k)) +
            " pieces (with promoted ones); the set has " + std::to_string(v.max_count[k]));
  }
  State out;
  out.hand = s.hand;
  out.to_move = s.to_move;
  out.ply = s.ply;
  out.eliminated_mask = s.eliminated_mask;
  out.eliminated_count = s.eliminated_count;
  out.elimination_order = s.elimination_order;
  out.strike = s.strike;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (!s.active(seat)) out.hand_frozen[seat] = v.rules.elimination.hand == HandOnElim::frozen;
  for (int sq = 0; sq < v.nsq; ++sq)
    if (s.cells[sq].code != kEmpty) put_piece(v, out, sq, s.cells[sq].code, s.cells[sq].owner);
  for (int sq = 0; sq < kMaxSquares; ++sq)
    if (sq >= v.nsq || !v.board.test(sq)) out.cells[sq].code = kVoid;
  out.board_key = full_key(v, out);
  out.hand_key = 0;
  for (int seat = 0; seat < v.nseats; ++seat)
    for (std::size_t k = 0; k < v.kinds.size(); ++k)
      out.hand_key += out.hand[seat][k] * v.z_hand[seat][k];
  // Who moved last, assuming plain turn order before this position.
  assume_turn_order(v, out);
  s = out;
}

namespace {

bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// The fields of a position text: what runs of white space separate.
std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && !is_space(text[j])) ++j;
    if (j > i) out.push_back(text.substr(i, j - i));
    i = std::max(j, i + 1);
  }
  return out;
}

// "the board", "the hands", ...: field k (from 0) of SFEN or the generic text.
std::string field_name(bool sfen, std::size_t k) {
  static constexpr std::array<const char*, 4> kSfen = {"board", "side to move", "hands",
                                                       "move number"};
  static constexpr std::array<const char*, 5> kGeneric = {"board", "seat to move", "hands", "ply",
                                                          "eliminated seats"};
  if (sfen ? k >= kSfen.size() : k >= kGeneric.size()) return "field " + std::to_string(k + 1);
  return std::string("the ") + (sfen ? kSfen[k] : kGeneric[k]);
}

// Fields are separated by single spaces: throws naming the first separator
// that is not one (a doubled space, a tab, white space before or after).
void check_separators(std::string_view text, bool sfen) {
  std::size_t fields = 0;  // fields before position i
  for (std::size_t i = 0; i < text.size();) {
    if (!is_space(text[i])) {
      while (i < text.size() && !is_space(text[i])) ++i;
      ++fields;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && is_space(text[j])) ++j;
    const std::string_view gap = text.substr(i, j - i);
    if (gap == " " && fields > 0 && j < text.size()) {
      i = j;
      continue;
    }
    std::string what = sfen ? "SFEN fields" : "position text fields";
    what += " must be separated by single spaces, not ";
    if (gap.find_first_not_of(' ') != std::string_view::npos)
      what += quoted(gap);
    else if (gap.size() == 1)
      what += "a space";
    else
      (what += std::to_string(gap.size())) += " spaces";
    what += fields == 0 ? " before " : " after ";
    what += field_name(sfen, fields == 0 ? 0 : fields - 1);
    bad(what);
  }
}

// lion_trading.counter_strike: the counter-strike square as text (`-`:
// none), `what` naming the field in errors.
std::int16_t read_strike(const VariantData& v, std::string_view text, const std::string& what) {
  if (text == "-") return -1;
  const auto sq = parse_square_name(v, text);
  if (!sq) bad(what + " is a square of the board or '-', not " + quoted(text));
  return static_cast<std::int16_t>(*sq);
}

// `as`: a descriptor's setup is written with its own letters, any other
// position in the dialect's.
State parse_sfen(const VariantData& v, std::string_view text, Letters as) {
  auto f = split(text, ' ');
  if (f.size() != 4)
    bad("SFEN has 4 fields (board, side, hands, move number), this has " +
        std::to_string(f.size()));
  State s;
  auto rows = split(f[0], '/');
  if (static_cast<int>(rows.size()) != v.height)
    bad("SFEN board has " + std::to_string(rows.size()) + " ranks; this board has " +
        std::to_string(v.height));
  for (int y = 0; y < v.height; ++y) {
    int x = 0;
    std::string_view row = rows[y];
    for (std::size_t i = 0; i < row.size(); ++i) {
      char c = row[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        // A run of empty cells: a number, 12 on a 12-file board.
        if (c == '0') bad("SFEN rank " + std::to_string(y + 1) + " has an empty count of 0");
        int run = 0;
        for (; i < row.size() && std::isdigit(static_cast<unsigned char>(row[i])) && run <= 16; ++i)
          run = run * 10 + (row[i] - '0');
        --i;
        x += run;
        continue;
      }
      bool promoted = false;
      if (c == '+') {
        promoted = true;
        if (++i >= row.size()) bad("SFEN rank " + std::to_string(y + 1) + " ends with '+'");
        c = row[i];
      }
      if (!std::isalpha(static_cast<unsigned char>(c)))
        bad("SFEN rank " + std::to_string(y + 1) + " has an unexpected " + quoted_char(row, i));
      int owner = std::isupper(static_cast<unsigned char>(c)) ? 0 : 1;
      std::string letter = std::string(promoted ? "+" : "") +
                           static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      int kind = kind_for_letter(v, letter, as);
      if (kind < 0) bad("SFEN piece '" + letter + "' is not a piece of this variant");
      if (x >= v.width)
        bad("SFEN rank " + std::to_string(y + 1) + " is longer than " + std::to_string(v.width) +
            " files");
      s.cells[y * v.width + x] =
          Cell{code_of(kind, v.seat_facing[owner]), static_cast<std::uint8_t>(owner)};
      ++x;
    }
    if (x != v.width)
      bad("SFEN rank " + std::to_string(y + 1) + " covers " + std::to_string(x) + " files, not " +
          std::to_string(v.width));
  }
  if (f[1] == "b")
    s.to_move = 0;
  else if (f[1] == "w")
    s.to_move = 1;
  else
    bad("SFEN side to move is 'b' or 'w', not " + quoted(f[1]));
  if (v.strike_in_sfen()) {
    const std::int16_t strike =
        read_strike(v, f[2], "SFEN's third field, the counter-strike square,");
    s.strike = v.counter_strike() ? strike : std::int16_t{-1};
  } else if (f[2] != "-")
    read_hand(
        v, f[2], s, [](char c) { return std::isupper(static_cast<unsigned char>(c)) ? 0 : 1; },
        true, as);
  long ply = 0;
  if (!read_uint(f[3], ply) || ply < 1)
    bad("SFEN move number must be a whole number from 1 to 999999999, not " + quoted(f[3]));
  s.ply = static_cast<std::uint32_t>(ply);
  return s;
}

State parse_generic(const VariantData& v, std::string_view text) {
  std::string_view s_strike_text = "-";
  auto f = split(text, ' ');
  // lion_trading.counter_strike: a sixth field, the counter-strike square.
  if (f.size() == 6 && v.counter_strike())
    s_strike_text = f[5];
  else if (f.size() != 5)
    bad("position text has 5 fields (board, seat to move, hands, ply, eliminated), this has " +
        std::to_string(f.size()) +
        (v.counter_strike() ? " (a sixth, the counter-strike square, may follow)" : ""));
  State s;
  auto rows = split(f[0], '/');
  if (static_cast<int>(rows.size()) != v.height)
    bad("board has " + std::to_string(rows.size()) + " rows; this board has " +
        std::to_string(v.height));
  auto seat_digit = [&](char c, int row) {
    if (c < '1' || c > '9')
      bad("row " + std::to_string(row + 1) +
          ": a piece letter must be followed by its seat number");
    int seat = c - '1';
    if (seat >= v.nseats)
      bad("row " + std::to_string(row + 1) + ": seat " + std::string(1, c) + " is out of range 1-" +
          std::to_string(v.nseats));
    return seat;
  };
  for (int y = 0; y < v.height; ++y) {
    int x = 0;
    std::string_view row = rows[y];
    auto place = [&](Cell c) {
      if (x >= v.width)
        bad("row " + std::to_string(y + 1) + " is longer than " + std::to_string(v.width) +
            " cells");
      int sq = y * v.width + x;
      if (!v.board.test(sq))
        bad("row " + std::to_string(y + 1) + ", cell " + std::to_string(x + 1) +
            " is a void; write it as *");
      s.cells[sq] = c;
      ++x;
    };
    for (std::size_t i = 0; i < row.size();) {
      char c = row[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        while (j < row.size() && std::isdigit(static_cast<unsigned char>(row[j]))) ++j;
        long n = 0;
        if (!read_uint(row.substr(i, j - i), n) || n < 1 || n > v.width)
          bad("row " + std::to_string(y + 1) + ": empty count " + quoted(row.substr(i, j - i)) +
              " is not from 1 to " + std::to_string(v.width));
        for (long k = 0; k < n; ++k) place(Cell{});
        i = j;
        continue;
      }
      if (c == '*') {
        if (x >= v.width)
          bad("row " + std::to_string(y + 1) + " is longer than " + std::to_string(v.width) +
              " cells");
        if (v.board.test(y * v.width + x))
          bad("row " + std::to_string(y + 1) + ", cell " + std::to_string(x + 1) +
              " is a square, not a void");
        ++x;
        ++i;
        continue;
      }
      if (c == 'X') {
        if (v.sfen)
          bad("row " + std::to_string(y + 1) + ": " + kNotInSfen + "overturned kings (X)");
        if (i + 1 >= row.size())
          bad("row " + std::to_string(y + 1) + ": X must be followed by its seat number");
        int seat = seat_digit(row[i + 1], y);
        place(Cell{kOverturned, static_cast<std::uint8_t>(seat)});
        i += 2;
        continue;
      }
      std::string letter;
      if (c == '+') {
        letter = "+";
        if (++i >= row.size()) bad("row " + std::to_string(y + 1) + " ends with '+'");
        c = row[i];
      }
      if (!std::isupper(static_cast<unsigned char>(c)))
        bad("row " + std::to_string(y + 1) + ": unexpected " + quoted_char(row, i));
      letter += c;
      int kind = kind_for_letter(v, letter);
      if (kind < 0)
        bad("row " + std::to_string(y + 1) + ": '" + letter + "' is not a piece of this variant");
      if (i + 1 >= row.size())
        bad("row " + std::to_string(y + 1) + ": " + letter +
            " must be followed by its seat number");
      int seat = seat_digit(row[i + 1], y);
      i += 2;
      int facing = v.seat_facing[seat];
      if (i < row.size()) {
        const auto* m = std::find(kFacingMark.begin(), kFacingMark.end(), row[i]);
        if (m != kFacingMark.end()) {
          facing = static_cast<int>(m - kFacingMark.begin());
          if (v.sfen && facing != v.seat_facing[seat])
            bad("row " + std::to_string(y + 1) + ": " + kNotInSfen +
                "facing marks: every piece faces its owner's way");
          ++i;
        }
      }
      place(Cell{code_of(kind, facing), static_cast<std::uint8_t>(seat)});
    }
    if (x != v.width)
      bad("row " + std::to_string(y + 1) + " covers " + std::to_string(x) + " cells, not " +
          std::to_string(v.width));
  }
  long seat = 0;
  if (!read_uint(f[1], seat) || seat < 1 || seat > v.nseats)
    bad("seat to move " + quoted(f[1]) + " is not a seat number from 1 to " +
        std::to_string(v.nseats));
  s.to_move = static_cast<std::uint8_t>(seat - 1);
  if (f[2] != "-") {
    for (auto group : split(f[2], ',')) {
      auto colon = group.find(':');
      long hs = 0;
      if (colon == std::string_view::npos || !read_uint(group.substr(0, colon), hs) || hs < 1 ||
          hs > v.nseats)
        bad("hand group " + quoted(group) + " must read <seat>:<pieces>, seat from 1 to " +
            std::to_string(v.nseats));
      if (colon + 1 >= group.size()) bad("hand group " + quoted(group) + " lists no pieces");
      read_hand(
          v, group.substr(colon + 1), s, [&](char) { return static_cast<int>(hs - 1); }, false,
          Letters::declared);
    }
  }
  long ply = 0;
  if (!read_uint(f[3], ply) || ply < 1)
    bad("ply must be a whole number from 1 to 999999999, not " + quoted(f[3]));
  s.ply = static_cast<std::uint32_t>(ply);
  if (f[4] != "-") {
    if (v.sfen) {
      std::string what = kNotInSfen;
      what += "eliminated seats, not ";
      what += quoted(f[4]);
      bad(what);
    }
    for (auto e : split(f[4], ',')) {
      long es = 0;
      if (!read_uint(e, es) || es < 1 || es > v.nseats)
        bad("eliminated seat " + quoted(e) + " is not a seat number");
      if (!s.active(static_cast<int>(es - 1)))
        bad("seat " + std::string(e) + " is eliminated twice");
      s.eliminated_mask |= static_cast<std::uint8_t>(1u << (es - 1));
      s.elimination_order[s.eliminated_count++] = static_cast<std::uint8_t>(es - 1);
    }
  }
  if (!s.active(s.to_move)) bad("the seat to move, " + std::to_string(seat) + ", is eliminated");
  if (v.counter_strike())
    s.strike = read_strike(v, s_strike_text, "the sixth field, the counter-strike square,");
  return s;
}

}  // namespace

std::string square_name(const VariantData& v, int sq) {
  int x = sq % v.width, y = sq / v.width;
  if (v.shogi_squares) return std::to_string(v.width - x) + static_cast<char>('a' + y);
  return std::string(1, static_cast<char>('a' + x)) + std::to_string(v.height - y);
}

std::optional<int> parse_square_name(const VariantData& v, std::string_view name, bool allow_void) {
  int x = -1, y = -1;
  if (v.shogi_squares) {
    // The file's number from the right (1 to 16), then the rank's letter.
    long file = 0;
    if (name.size() < 2 || name.size() > 3 || name[0] == '0' || name.back() < 'a' ||
        name.back() > 'z' || !read_uint(name.substr(0, name.size() - 1), file))
      return std::nullopt;
    x = v.width - static_cast<int>(file);
    y = name.back() - 'a';
  } else {
    if (name.size() < 2 || name.size() > 3 || name[0] < 'a' || name[0] > 'z') return std::nullopt;
    long r = 0;
    if (!read_uint(name.substr(1), r) || name[1] == '0') return std::nullopt;
    x = name[0] - 'a';
    y = v.height - static_cast<int>(r);
  }
  if (x < 0 || y < 0 || x >= v.width || y >= v.height) return std::nullopt;
  int sq = y * v.width + x;
  if (!allow_void && !v.board.test(sq)) return std::nullopt;
  return sq;
}

State parse_position(const VariantData& v, std::string_view text, bool setup) {
  if (text.size() > kMaxTextBytes)
    bad("position text is longer than " + std::to_string(kMaxTextBytes) + " characters");
  // SFEN has 4 fields, the generic text 5 (6 with a counter-strike square):
  // a SFEN variant reads SFEN unless the text has those fields and none
  // reads as SFEN (side b or w, gote's lower case letters on the board; 'v'
  // is a facing mark).
  const std::vector<std::string_view> fields = split_fields(text);
  bool sfen = v.sfen;
  if (sfen && (fields.size() == 5 || (fields.size() == 6 && v.counter_strike())))
    sfen = fields[1] == "b" || fields[1] == "w" ||
           std::any_of(fields[0].begin(), fields[0].end(), [](char c) {
             return c != 'v' && std::islower(static_cast<unsigned char>(c));
           });
  if (fields.empty())
    bad(text.empty() ? "the position text is empty" : "the position text is only white space");
  check_separators(text, sfen);
  State s = sfen ? parse_sfen(v, text, setup ? Letters::declared : Letters::sfen)
                 : parse_generic(v, text);
  finish_position(v, s, setup);
  return s;
}

std::string write_generic(const VariantData& v, const State& s) {
  std::string out;
  for (int y = 0; y < v.height; ++y) {
    if (y) out += '/';
    int empty = 0;
    for (int x = 0; x < v.width; ++x) {
      int sq = y * v.width + x;
      Cell c = s.cells[sq];
      if (c.code == kEmpty && v.board.test(sq)) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      if (!v.board.test(sq)) {
        out += '*';
      } else if (c.code == kOverturned) {
        out += 'X';
        out += static_cast<char>('1' + c.owner);
      } else {
        out += v.kinds[kind_of(c.code)].letter;
        out += static_cast<char>('1' + c.owner);
        if (facing_of(c.code) != v.seat_facing[c.owner]) out += kFacingMark[facing_of(c.code)];
      }
    }
    if (empty) out += std::to_string(empty);
  }
  out += ' ';
  out += std::to_string(s.to_move + 1);
  out += ' ';
  std::string hands;
  auto order = hand_order(v, Letters::declared);
  for (int seat = 0; seat < v.nseats; ++seat) {
    std::string h;
    for (int k : order) {
      int n = s.hand[seat][k];
      if (n > 1) h += std::to_string(n);
      if (n > 0) h += v.kinds[k].letter;
    }
    if (h.empty()) continue;
    if (!hands.empty()) hands += ',';
    hands += std::to_string(seat + 1);
    hands += ':';
    hands += h;
  }
  out += hands.empty() ? "-" : hands;
  out += ' ';
  out += std::to_string(s.ply);
  out += ' ';
  if (s.eliminated_count == 0) out += '-';
  for (int i = 0; i < s.eliminated_count; ++i) {
    if (i) out += ',';
    out += std::to_string(s.elimination_order[i] + 1);
  }
  if (s.strike >= 0) out += ' ' + square_name(v, s.strike);
  return out;
}

std::string write_sfen(const VariantData& v, const State& s) {
  std::string out;
  for (int y = 0; y < v.height; ++y) {
    if (y) out += '/';
    int empty = 0;
    for (int x = 0; x < v.width; ++x) {
      Cell c = s.cells[y * v.width + x];
      if (!is_piece(c.code)) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      std::string letter = v.sfen_letter(kind_of(c.code));
      if (c.owner == 1)
        for (char& ch : letter)
          ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      out += letter;
    }
    if (empty) out += std::to_string(empty);
  }
  out += s.to_move == 0 ? " b " : " w ";
  std::string hands;
  auto order = hand_order(v, Letters::sfen);
  for (int seat = 0; seat < 2; ++seat)
    for (int k : order) {
      int n = s.hand[seat][k];
      if (n > 1) hands += std::to_string(n);
      const std::string& letter = v.hand_letter(k);
      if (n > 0)
        hands += seat == 0 ? letter
                           : std::string(1, static_cast<char>(std::tolower(
                                                static_cast<unsigned char>(letter[0]))));
    }
  if (v.strike_in_sfen())
    out += s.strike >= 0 ? square_name(v, s.strike) : "-";
  else
    out += hands.empty() ? "-" : hands;
  out += ' ';
  out += std::to_string(s.ply);
  return out;
}

std::string move_text(const VariantData& v, const State& s, Move m) {
  if (m.to >= v.nsq || (!m.is_drop() && m.from >= v.nsq) ||
      (m.is_drop() && m.kind >= v.kinds.size()))
    return "?";
  if (m.is_drop()) return v.sfen_letter(m.kind) + "*" + square_name(v, m.to);
  std::string out = square_name(v, m.from);
  if (m.is_double()) {
    if (m.middle() >= v.nsq) return "?";
    out += square_name(v, m.middle());
  }
  out += square_name(v, m.to);
  if (m.promote) {
    // A promoted piece that turns back (promotion.demotion) is written with
    // '-', unless the dialect marks every turn with '+'.
    const std::uint8_t code = s.cells[m.from].code;
    const bool back =
        v.rules.promotion.demotion && is_piece(code) && v.kinds[kind_of(code)].promoted;
    out += back && !v.plus_turns_back ? '-' : '+';
  }
  return out;
}

Move parse_move_text(const VariantData& v, std::string_view text) {
  if (text.size() > kMaxMoveBytes)
    bad("move text is longer than " + std::to_string(kMaxMoveBytes) +
        " characters, too long to be a move");
  std::string t(text);
  if (t.empty()) bad("the move text is empty");
  auto star = t.find('*');
  if (star != std::string::npos) {
    std::string letter = t.substr(0, star);
    int kind = kind_for_letter(v, letter, Letters::sfen);
    if (kind < 0)
      bad("drop " + quoted(t) + ": " + quoted(letter) + " is not a piece letter of this variant");
    if (v.kinds[kind].promoted && v.rules.drops.promoted == Permission::forbidden)
      bad("drop " + quoted(t) + ": pieces are dropped unpromoted");
    auto sq = parse_square_name(v, t.substr(star + 1));
    if (!sq)
      bad("drop " + quoted(t) + ": " + quoted(t.substr(star + 1)) +
          " is not a square of this board");
    return Move::drop(kind, *sq);
  }
  // '+' promotes; '-' turns a promoted piece back (promotion.demotion): both
  // are the move's other form, which the legality check tells apart.
  if (t.back() == '-' && v.plus_turns_back)
    bad("move " + quoted(text) + ": this variant's notation marks every turn over with '+', " +
        "a turn back too");
  bool promote = t.back() == '+' || (v.rules.promotion.demotion && t.back() == '-');
  if (promote) t.pop_back();
  // The square names: a shogi name ends with its letter (7g, 12a), an
  // algebraic one starts with it (h13). Two, or three for a double move.
  std::vector<std::string> names;
  for (std::size_t i = 0, start = 0; i < t.size(); ++i) {
    const bool letter = std::isalpha(static_cast<unsigned char>(t[i])) != 0;
    const bool ends = v.shogi_squares
                          ? letter
                          : i + 1 == t.size() || std::isalpha(static_cast<unsigned char>(t[i + 1]));
    if (ends || i + 1 == t.size()) {
      names.push_back(t.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  // The shape of a name (digits then a letter in shogi names, a letter then
  // digits in algebraic ones), whatever the board.
  auto shaped = [&](const std::string& name) {
    const std::size_t n = name.size();
    if (n < 2 || n > 3) return false;
    const std::size_t letter = v.shogi_squares ? n - 1 : 0;
    for (std::size_t i = 0; i < n; ++i)
      if ((i == letter) != (std::islower(static_cast<unsigned char>(name[i])) != 0) ||
          (i != letter && !std::isdigit(static_cast<unsigned char>(name[i]))))
        return false;
    return true;
  };
  if (names.size() < 2 || names.size() > 3 || !shaped(names[0]) || !shaped(names[1]))
    bad(quoted(text) + " is not a move: write from-square to-square, e.g. " +
        square_name(v, v.nsq - 1) + square_name(v, 0) + ", or a drop like P*" + square_name(v, 0));
  // Each name, or the error that names the step it belongs to.
  const bool two_steps = names.size() == 3;
  auto square = [&](std::size_t i) {
    static constexpr std::array<const char*, 3> kStep{"", " (the first step's square)",
                                                      " (the second step's square)"};
    auto sq = parse_square_name(v, names[i]);
    if (!sq)
      bad("move " + quoted(text) + ": " + quoted(names[i]) + " is not a square of this board" +
          (two_steps ? kStep[i] : ""));
    return *sq;
  };
  const int from = square(0);
  if (two_steps) return Move::double_move(from, square(1), square(2), promote);
  return Move::board(from, square(1), promote);
}

}  // namespace koma::detail

namespace koma {

std::string escape_text(std::string_view text, std::size_t max_bytes) {
  static constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 3);
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = detail::printable_length(text.substr(i));
    if (i + std::max<std::size_t>(n, 1) > max_bytes) {
      out += "...";
      break;
    }
    if (n > 0) {
      out.append(text, i, n);
      i += n;
    } else {
      const auto c = static_cast<unsigned char>(text[i++]);
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace koma
