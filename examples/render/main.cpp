// koma-render: draws a position of any variant as a standalone SVG picture:
// the board (void cells left out), pieces as pentagons pointing the way they
// face, the hands beside the board, the last move tinted and a caption.
//   koma-render --variant variants/yonin.yaml --moves "6i7h 8f7f" --out board.svg
//   koma-render --variant variants/shogi.yaml --pieces letters --out shogi.svg
#include <algorithm>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "driver.hpp"

namespace po = boost::program_options;

namespace {

// Layout in SVG user units (px). The picture is: caption on top; below it the
// board with its coordinates; to the right of the board one panel per seat
// with its name, state and hand.
constexpr double kCell = 44;       // one board square
constexpr double kMargin = 12;     // around everything
constexpr double kCaptionH = 34;   // caption band above the board
constexpr double kLabel = 20;      // band for file/rank coordinates
constexpr double kGap = 18;        // board block to hands panel
constexpr double kPanelW = 340;    // hands panel
constexpr double kHandPiece = 30;  // a piece drawn in a hand
constexpr double kHandItemW = 66;  // a hand piece and its count
constexpr int kHandPerRow = 5;
constexpr double kSeatHeaderH = 22;
constexpr double kHandRowH = 38;
constexpr double kSeatGap = 10;
constexpr double kCaptionFont = 15;

constexpr const char* kFontFamily = "Noto Sans CJK JP, IPAGothic, sans-serif";

// Owner palette, by seat (1..4): the Okabe-Ito colours blue, bluish green,
// orange and reddish purple, chosen because they stay distinguishable under
// the common colour-vision deficiencies. Pieces are filled with the pale tint
// so black and red labels stay readable, and outlined in the strong colour.
struct SeatColour {
  const char* stroke;
  const char* fill;
};
constexpr SeatColour kSeatColours[] = {
    {"#0072b2", "#d3e5f3"},  // seat 1: blue
    {"#009e73", "#cdeee2"},  // seat 2: bluish green
    {"#e69f00", "#fbe6bb"},  // seat 3: orange
    {"#cc79a7", "#f4dbea"},  // seat 4: reddish purple
};
constexpr const char* kBoardFill = "#f1d597";
constexpr const char* kBoardLine = "#7a5a2a";
constexpr const char* kLastMoveFill = "#f08a24";
constexpr const char* kPromotedText = "#c4161c";
constexpr const char* kOverturnedFill = "#9a9a9a";
constexpr const char* kTextColour = "#1a1a1a";
constexpr const char* kMutedText = "#5c5c5c";

const SeatColour& colour_of(int seat) {
  constexpr int n = static_cast<int>(sizeof kSeatColours / sizeof kSeatColours[0]);
  return kSeatColours[(seat - 1) % n];
}

// Numbers with at most two decimals and no trailing zeros, so the output is
// short and the same on every run ("C" locale: the driver never changes it).
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

// `text` as XML character data or attribute text: markup characters escaped;
// what XML 1.0 allows nowhere in a document (control characters other than
// tab and line feed, U+FFFE, U+FFFF) left out; each byte that does not belong
// to well-formed UTF-8 written as U+FFFD, the replacement character. Titles,
// seat and piece names come from descriptors, which may hold any of these.
std::string xml_escape(std::string_view text) {
  std::string out;
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = byte(i);
    if (c < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          if (c >= 0x20 || c == '\t' || c == '\n') out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A multi-byte sequence: its length from the lead byte, then continuation
    // bytes; overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    const std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    char32_t cp = c & (n == 2 ? 0x1fu : n == 3 ? 0x0fu : 0x07u);
    bool ok = n > 0 && c <= 0xf4 && i + n <= text.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      ok = (byte(i + k) & 0xc0) == 0x80;
      cp = cp << 6 | (byte(i + k) & 0x3fu);
    }
    ok = ok &&
         cp >= (n == 3   ? 0x800u
                : n == 4 ? 0x10000u
                         : 0x80u) &&
         cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    if (!ok) {
      out += "\xef\xbf\xbd";
      ++i;
      continue;
    }
    if (cp != 0xfffe && cp != 0xffff) out += text.substr(i, n);
    i += n;
  }
  return out;
}

// Characters (UTF-8 code points), to size labels and estimate text widths.
int code_points(std::string_view text) {
  int n = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
  return n;
}

// Rough advance of a line of text: wide for CJK, narrower for Latin. Used
// only to make the picture wide enough for its caption.
double text_width(std::string_view text, double font_size) {
  double w = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto u = static_cast<unsigned char>(text[i]);
    if ((u & 0xc0) == 0x80) continue;
    w += u >= 0xe0 ? 1.0 : 0.6;
  }
  return w * font_size;
}

std::string ordinal(int n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  std::string out = std::to_string(n);
  out += suffix;
  return out;
}

int degrees(koma::Facing f) {
  switch (f) {
    case koma::Facing::up:
      return 0;
    case koma::Facing::right:
      return 90;
    case koma::Facing::down:
      return 180;
    case koma::Facing::left:
      return 270;
  }
  return 0;
}

// A square name split into its file and rank parts. Both notations put the
// file first and change character class between the two ("7g", "h13").
std::pair<std::string, std::string> split_name(const std::string& name) {
  if (name.empty()) return {"", ""};
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 1;
  while (i < name.size() && digit(name[i]) == digit(name[0])) ++i;
  return {name.substr(0, i), name.substr(i)};
}

enum class Labels { kanji, letters };

struct Options {
  Labels labels = Labels::kanji;
};

class Svg {
 public:
  std::string body;

  void line(const std::string& s) {
    body += s;
    body += '\n';
  }

  // A text element; `attrs` is raw (already escaped) attribute text.
  void text(double x, double y, const std::string& attrs, std::string_view content) {
    std::string s = "<text x=\"";
    s += num(x);
    s += "\" y=\"";
    s += num(y);
    s += "\" ";
    s += attrs;
    s += '>';
    s += xml_escape(content);
    s += "</text>";
    line(s);
  }
};

// The outline of a shogi piece pointing up, centred on the origin, for a
// piece `size` tall: a pentagon with its tip forward and its wide base back.
std::string pentagon(double size) {
  static constexpr double pts[5][2] = {
      {0, -0.46}, {0.33, -0.29}, {0.4, 0.45}, {-0.4, 0.45}, {-0.33, -0.29}};
  std::string s;
  for (const auto& p : pts) {
    if (!s.empty()) s += ' ';
    s += num(p[0] * size);
    s += ',';
    s += num(p[1] * size);
  }
  return s;
}

// Font size of a piece label: one kanji or letter fills the piece; two or
// more characters ("+P") are made smaller to fit.
double label_size(std::string_view label, double size) {
  int n = code_points(label);
  if (n <= 1) return size * 0.48;
  if (n == 2) return size * 0.36;
  return size * 0.26;
}

struct PieceLook {
  std::string cls;  // "piece", "piece promoted", "hand-piece", ...
  double cx, cy, size;
  int rotation;  // degrees clockwise; 0 = pointing up
  int owner;
  std::string label;
  bool promoted = false;
  bool overturned = false;
  std::string tooltip;
};

// The cross drawn over the blank back of a piece lying face down.
std::string overturned_cross(double size) {
  double a = size * 0.2;
  std::string x = "<path d=\"M";
  x += num(-a);
  x += ' ';
  x += num(-a);
  x += 'L';
  x += num(a);
  x += ' ';
  x += num(a);
  x += 'M';
  x += num(a);
  x += ' ';
  x += num(-a);
  x += 'L';
  x += num(-a);
  x += ' ';
  x += num(a);
  x += "\" stroke=\"#303030\" stroke-width=\"";
  x += num(size * 0.07);
  x += "\" stroke-linecap=\"round\" fill=\"none\"/>";
  return x;
}

// The group of a piece: moved to its centre, turned the way it faces, with
// its tooltip.
std::string piece_group(const PieceLook& p) {
  std::string g = "<g class=\"";
  g += p.cls;
  g += "\" transform=\"translate(";
  g += num(p.cx);
  g += ' ';
  g += num(p.cy);
  g += ')';
  if (p.rotation != 0) {
    g += " rotate(";
    g += std::to_string(p.rotation);
    g += ')';
  }
  g += "\">";
  if (!p.tooltip.empty()) {
    g += "<title>";
    g += xml_escape(p.tooltip);
    g += "</title>";
  }
  return g;
}

void draw_piece(Svg& svg, const PieceLook& p) {
  const SeatColour& c = colour_of(p.owner);
  svg.line(piece_group(p));
  std::string poly = "<polygon points=\"";
  poly += pentagon(p.size);
  poly += "\" fill=\"";
  poly += p.overturned ? kOverturnedFill : c.fill;
  poly += "\" stroke=\"";
  poly += c.stroke;
  poly += "\" stroke-width=\"";
  poly += num(p.size >= kCell * 0.5 ? 2 : 1.5);
  poly += "\" stroke-linejoin=\"round\"/>";
  svg.line(poly);
  if (p.overturned) {
    // Face down: no label, a cross over the blank back.
    svg.line(overturned_cross(p.size));
  } else {
    double fs = label_size(p.label, p.size);
    // The label's middle sits a little below the piece's middle, where the
    // body is widest; 0.36 em from middle to baseline suits kanji and capitals.
    std::string attrs = "font-size=\"";
    attrs += num(fs);
    attrs += "\" text-anchor=\"middle\" fill=\"";
    attrs += p.promoted ? kPromotedText : kTextColour;
    attrs += '"';
    if (p.promoted) attrs += " font-weight=\"bold\"";
    svg.text(0, p.size * 0.06 + fs * 0.36, attrs, p.label);
  }
  svg.line("</g>");
}

std::string label_of(const koma::PieceKindInfo& info, Labels labels) {
  if (labels == Labels::kanji && !info.kanji.empty()) return info.kanji;
  return info.letter;
}

struct Rendering {
  const koma::Game& game;
  std::optional<koma::Move> last_move;
  Options options;
};

// Items joined with `separator` ("to move · in check: East").
std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const std::string& item : items) {
    if (!s.empty()) s += separator;
    s += item;
  }
  return s;
}

// How the game ended, for the caption: "over (checkmate): South 1st, North 2nd".
std::string result_text(const koma::Variant& v, const koma::Result& result) {
  // Reason words are identifiers (last_seat_standing); a caption reads them
  // as words.
  std::string reason(koma::reason_name(result.reason));
  std::replace(reason.begin(), reason.end(), '_', ' ');
  std::string text = "over (";
  text += reason;
  text += ")";
  for (std::size_t i = 0; i < result.places.size(); ++i) {
    text += i == 0 ? ": " : ", ";
    text += v.seat_name(static_cast<int>(i) + 1);
    text += ' ';
    text += ordinal(result.places[i]);
  }
  return text;
}

// Where the game stands, for the caption: who is to move, who is in check,
// how it ended.
std::string status_text(const koma::Position& pos, const std::optional<koma::Result>& result,
                        const std::vector<int>& in_check) {
  const koma::Variant& v = pos.variant();
  std::vector<std::string> parts;
  if (!result) parts.push_back(v.seat_name(pos.to_move()) + " to move");
  if (!in_check.empty()) {
    std::vector<std::string> names;
    names.reserve(in_check.size());
    for (int seat : in_check) names.push_back(v.seat_name(seat));
    parts.push_back("in check: " + joined(names, ", "));
  }
  if (result) parts.push_back(result_text(v, *result));
  return joined(parts, " · ");
}

// A seat's hand: (kind, count) for each kind held, in the descriptor's order.
using Hand = std::vector<std::pair<int, int>>;

Hand hand_of(const koma::Position& pos, int seat) {
  Hand held;
  for (int k = 0; k < pos.variant().kinds(); ++k)
    if (int n = pos.in_hand(seat, k); n > 0) held.emplace_back(k, n);
  return held;
}

// Rows of a hand in its seat's panel: one at least, for "no pieces in hand".
int hand_rows(const Hand& held) {
  return std::max<int>(1, (static_cast<int>(held.size()) + kHandPerRow - 1) / kHandPerRow);
}

// Where the parts of the picture go, in SVG units.
struct Layout {
  double board_x = 0, board_y = 0;  // the board's top left corner
  double board_w = 0, board_h = 0;
  double panel_x = 0;            // the seats' panel, right of the board's labels
  double width = 0, height = 0;  // the whole picture
};

// The board at its size with a band of labels on two sides (on all four when
// `all_sides`), the seats' panel beside it, and room for the caption above.
Layout layout_of(const koma::Variant& v, bool all_sides, const std::vector<Hand>& hands,
                 const std::string& status) {
  Layout at;
  at.board_x = kMargin + (all_sides ? kLabel : 0);
  at.board_y = kMargin + kCaptionH + kLabel;
  at.board_w = v.width() * kCell;
  at.board_h = v.height() * kCell;
  const double board_block_bottom = at.board_y + at.board_h + (all_sides ? kLabel : 0);
  at.panel_x = at.board_x + at.board_w + kLabel + kGap;
  double panel_h = 0;
  for (int seat = 1; seat <= v.seats(); ++seat)
    panel_h += kSeatHeaderH + hand_rows(hands[seat]) * kHandRowH + kSeatGap;
  at.width =
      std::max(at.panel_x + kPanelW + kMargin, 2 * kMargin + text_width(status, kCaptionFont) +
                                                   text_width(v.title(), kCaptionFont) + 40);
  at.height = std::max(board_block_bottom, at.board_y + panel_h) + kMargin;
  return at;
}

// One picture being drawn: what it shows, where each part goes and the SVG
// written so far. draw() writes the parts in order, each by its own member.
class Picture {
 public:
  explicit Picture(const Rendering& r);
  std::string draw();

 private:
  double cell_x(int col) const { return at_.board_x + col * kCell; }
  double cell_y(int row) const { return at_.board_y + row * kCell; }
  bool valid(int col, int row) const {
    return col >= 0 && row >= 0 && col < w_ && row < h_ && v_.is_square(row * w_ + col);
  }

  void open();
  void caption();
  void cells();
  void frame();
  void coordinates();
  void tint_last_move();
  void board_pieces();
  void seat_panels();
  void seat_header(int seat, double y);
  std::vector<std::string> marks(int seat) const;
  void hand(int seat, double y);

  const Rendering& r_;
  const koma::Position& pos_;
  const koma::Variant& v_;
  const int w_, h_;
  // Two-player diagrams follow the Japanese layout (files on top, ranks on the
  // right); a four-player board is read from every side, so it gets all four.
  const bool all_sides_;
  const std::optional<koma::Result> result_;
  const std::vector<int> in_check_;
  const std::string status_;
  std::vector<Hand> hands_;  // hands_[seat]; hands_[0] unused
  Layout at_;
  Svg svg_;
};

Picture::Picture(const Rendering& r)
    : r_(r),
      pos_(r.game.position()),
      v_(pos_.variant()),
      w_(v_.width()),
      h_(v_.height()),
      all_sides_(v_.seats() > 2),
      result_(r.game.over() ? r.game.result() : std::nullopt),
      in_check_(v_.has_check() ? pos_.seats_in_check() : std::vector<int>{}),
      status_(status_text(pos_, result_, in_check_)),
      hands_(static_cast<std::size_t>(v_.seats()) + 1) {
  for (int seat = 1; seat <= v_.seats(); ++seat) hands_[seat] = hand_of(pos_, seat);
  at_ = layout_of(v_, all_sides_, hands_, status_);
}

std::string Picture::draw() {
  open();
  caption();
  cells();
  frame();
  coordinates();
  tint_last_move();
  board_pieces();
  seat_panels();
  svg_.line("</svg>");
  return svg_.body;
}

// The XML declaration, the root element, the title, the position as text (so
// a picture can be traced back to what it shows) and the white background.
void Picture::open() {
  svg_.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  std::string root =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
      "width=\"";
  root += num(at_.width);
  root += "\" height=\"";
  root += num(at_.height);
  root += "\" viewBox=\"0 0 ";
  root += num(at_.width);
  root += ' ';
  root += num(at_.height);
  root += "\" font-family=\"";
  root += kFontFamily;
  root += "\">";
  svg_.line(root);
  svg_.line("<title>" + xml_escape(v_.title()) + "</title>");
  svg_.line("<desc>" + xml_escape(pos_.text()) + "</desc>");
  std::string bg = "<rect width=\"";
  bg += num(at_.width);
  bg += "\" height=\"";
  bg += num(at_.height);
  bg += "\" fill=\"#ffffff\"/>";
  svg_.line(bg);
}

// Caption: the title in bold, then where the game stands.
void Picture::caption() {
  std::string s = "<text class=\"caption\" x=\"";
  s += num(kMargin);
  s += "\" y=\"";
  s += num(kMargin + 20);
  s += "\" font-size=\"";
  s += num(kCaptionFont);
  s += "\" fill=\"";
  s += kTextColour;
  s += "\"><tspan font-weight=\"bold\">";
  s += xml_escape(v_.title());
  s += "</tspan>";
  if (!status_.empty()) {
    s += " — ";
    s += xml_escape(status_);
  }
  s += "</text>";
  svg_.line(s);
}

// Cells: voids are left out altogether, so the board takes its real shape.
void Picture::cells() {
  std::string g = "<g class=\"board\" fill=\"";
  g += kBoardFill;
  g += "\" stroke=\"";
  g += kBoardLine;
  g += "\" stroke-width=\"1\">";
  svg_.line(g);
  for (int row = 0; row < h_; ++row)
    for (int col = 0; col < w_; ++col) {
      if (!valid(col, row)) continue;
      std::string s = "<rect class=\"cell\" x=\"";
      s += num(cell_x(col));
      s += "\" y=\"";
      s += num(cell_y(row));
      s += "\" width=\"";
      s += num(kCell);
      s += "\" height=\"";
      s += num(kCell);
      s += "\"/>";
      svg_.line(s);
    }
  svg_.line("</g>");
}

// The board's outline: every cell edge with no square on its other side.
void Picture::frame() {
  std::string d;
  auto seg = [&](double x1, double y1, double x2, double y2) {
    d += 'M';
    d += num(x1);
    d += ' ';
    d += num(y1);
    d += 'L';
    d += num(x2);
    d += ' ';
    d += num(y2);
  };
  for (int row = 0; row < h_; ++row)
    for (int col = 0; col < w_; ++col) {
      if (!valid(col, row)) continue;
      double x = cell_x(col), y = cell_y(row);
      if (!valid(col, row - 1)) seg(x, y, x + kCell, y);
      if (!valid(col, row + 1)) seg(x, y + kCell, x + kCell, y + kCell);
      if (!valid(col - 1, row)) seg(x, y, x, y + kCell);
      if (!valid(col + 1, row)) seg(x + kCell, y, x + kCell, y + kCell);
    }
  std::string s = "<path class=\"frame\" d=\"";
  s += d;
  s += "\" fill=\"none\" stroke=\"";
  s += kBoardLine;
  s += "\" stroke-width=\"2.5\" stroke-linecap=\"square\"/>";
  svg_.line(s);
}

// Coordinates, taken from the square names of the variant's notation: each
// column's file from its first square, each row's rank likewise.
void Picture::coordinates() {
  std::string attrs = "class=\"coord\" font-size=\"12\" text-anchor=\"middle\" fill=\"";
  attrs += kMutedText;
  attrs += '"';
  for (int col = 0; col < w_; ++col)
    for (int row = 0; row < h_; ++row) {
      if (!valid(col, row)) continue;
      std::string file = split_name(v_.square_name(row * w_ + col)).first;
      double x = cell_x(col) + kCell / 2;
      svg_.text(x, at_.board_y - 6, attrs, file);
      if (all_sides_) svg_.text(x, at_.board_y + at_.board_h + 15, attrs, file);
      break;
    }
  for (int row = 0; row < h_; ++row)
    for (int col = 0; col < w_; ++col) {
      if (!valid(col, row)) continue;
      std::string rank = split_name(v_.square_name(row * w_ + col)).second;
      double y = cell_y(row) + kCell / 2 + 4;
      svg_.text(at_.board_x + at_.board_w + kLabel / 2, y, attrs, rank);
      if (all_sides_) svg_.text(at_.board_x - kLabel / 2, y, attrs, rank);
      break;
    }
}

// The last move: origin and target tinted (a drop has only a target; a
// double move its middle square too).
void Picture::tint_last_move() {
  if (!r_.last_move) return;
  std::vector<int> squares;
  if (!r_.last_move->is_drop()) squares.push_back(r_.last_move->from);
  if (r_.last_move->is_double()) squares.push_back(r_.last_move->middle());
  if (r_.last_move->to != r_.last_move->from || r_.last_move->is_drop())
    squares.push_back(r_.last_move->to);
  for (int sq : squares) {
    std::string s = "<rect class=\"last-move\" x=\"";
    s += num(cell_x(sq % w_) + 1);
    s += "\" y=\"";
    s += num(cell_y(sq / w_) + 1);
    s += "\" width=\"";
    s += num(kCell - 2);
    s += "\" height=\"";
    s += num(kCell - 2);
    s += "\" fill=\"";
    s += kLastMoveFill;
    s += "\" fill-opacity=\"0.45\"/>";
    svg_.line(s);
  }
}

void Picture::board_pieces() {
  for (int sq = 0; sq < v_.squares(); ++sq) {
    if (!v_.is_square(sq)) continue;
    std::optional<koma::PieceOnBoard> p = pos_.at(sq);
    if (!p) continue;
    const koma::PieceKindInfo& info = v_.kind_info(p->kind);
    PieceLook look;
    look.cls = p->overturned ? "piece overturned" : info.promoted ? "piece promoted" : "piece";
    look.cx = cell_x(sq % w_) + kCell / 2;
    look.cy = cell_y(sq / w_) + kCell / 2;
    look.size = kCell * 0.9;
    look.rotation = degrees(p->facing);
    look.owner = p->owner;
    look.label = label_of(info, r_.options.labels);
    look.promoted = info.promoted;
    look.overturned = p->overturned;
    look.tooltip = v_.seat_name(p->owner);
    look.tooltip += ' ';
    look.tooltip += p->overturned ? "overturned King" : info.name;
    look.tooltip += " on ";
    look.tooltip += v_.square_name(sq);
    draw_piece(svg_, look);
  }
}

// Hands: one block per seat, in seat order, each a header and the hand.
void Picture::seat_panels() {
  double y = at_.board_y;
  for (int seat = 1; seat <= v_.seats(); ++seat) {
    svg_.line("<g class=\"seat\">");
    seat_header(seat, y);
    y += kSeatHeaderH;
    hand(seat, y);
    y += hand_rows(hands_[seat]) * kHandRowH + kSeatGap;
    svg_.line("</g>");
  }
}

// What the header says of a seat beside its name: to move, in check,
// eliminated, its place.
std::vector<std::string> Picture::marks(int seat) const {
  std::vector<std::string> marks;
  if (!result_ && pos_.to_move() == seat) marks.emplace_back("to move");
  if (std::find(in_check_.begin(), in_check_.end(), seat) != in_check_.end())
    marks.emplace_back("in check");
  if (!pos_.active(seat)) marks.emplace_back("eliminated");
  if (result_ && seat - 1 < static_cast<int>(result_->places.size()))
    marks.push_back(ordinal(result_->places[seat - 1]));
  return marks;
}

// A swatch of the seat's colour, its name in bold and its marks.
void Picture::seat_header(int seat, double y) {
  const SeatColour& c = colour_of(seat);
  std::string sw = "<rect class=\"swatch\" x=\"";
  sw += num(at_.panel_x);
  sw += "\" y=\"";
  sw += num(y + 4);
  sw += "\" width=\"14\" height=\"14\" rx=\"3\" fill=\"";
  sw += c.fill;
  sw += "\" stroke=\"";
  sw += c.stroke;
  sw += "\" stroke-width=\"2\"/>";
  svg_.line(sw);
  std::string t = "<text x=\"";
  t += num(at_.panel_x + 22);
  t += "\" y=\"";
  t += num(y + 16);
  t += "\" font-size=\"14\" fill=\"";
  t += kTextColour;
  t += "\"><tspan font-weight=\"bold\">";
  t += xml_escape(v_.seat_name(seat));
  t += "</tspan>";
  if (const std::vector<std::string> m = marks(seat); !m.empty()) {
    t += " <tspan fill=\"";
    t += kMutedText;
    t += "\">(";
    t += xml_escape(joined(m, ", "));
    t += ")</tspan>";
  }
  t += "</text>";
  svg_.line(t);
}

// The pieces a seat holds, kHandPerRow to a row, each with its count when
// more than one; the row below the header starts at `y`.
void Picture::hand(int seat, double y) {
  const Hand& held = hands_[seat];
  if (held.empty()) {
    std::string attrs = "class=\"hand-empty\" font-size=\"13\" fill=\"";
    attrs += kMutedText;
    attrs += '"';
    svg_.text(at_.panel_x + 22, y + kHandRowH / 2 + 4, attrs, "no pieces in hand");
  }
  for (std::size_t i = 0; i < held.size(); ++i) {
    auto [kind, count] = held[i];
    const koma::PieceKindInfo& info = v_.kind_info(kind);
    double x = at_.panel_x + static_cast<double>(i % kHandPerRow) * kHandItemW;
    double cy = y + static_cast<double>(i / kHandPerRow) * kHandRowH + kHandRowH / 2;
    PieceLook look;
    look.cls = "hand-piece";
    look.cx = x + kHandPiece / 2 + 2;
    look.cy = cy;
    look.size = kHandPiece;
    look.rotation = 0;
    look.owner = seat;
    look.label = label_of(info, r_.options.labels);
    look.promoted = info.promoted;
    look.tooltip = v_.seat_name(seat);
    look.tooltip += " holds ";
    look.tooltip += std::to_string(count);
    look.tooltip += ' ';
    look.tooltip += info.name;
    draw_piece(svg_, look);
    if (count > 1) {
      std::string attrs = "class=\"hand-count\" font-size=\"13\" fill=\"";
      attrs += kTextColour;
      attrs += '"';
      std::string n = "×";
      n += std::to_string(count);
      svg_.text(x + kHandPiece + 5, cy + 5, attrs, n);
    }
  }
}

std::string render(const Rendering& r) {
  return Picture(r).draw();
}

}  // namespace

static int render_main(int argc, char** argv) {
  po::options_description desc("Options");
  driver::add_common(desc);
  desc.add_options()("moves", po::value<std::string>(),
                     "moves and actions to play first, space separated; the last move is tinted")(
      "pieces", po::value<std::string>(), "piece labels: kanji (default) or letters")(
      "out", po::value<std::string>(),
      "the SVG file to write: a file is replaced only once the picture is written whole; a "
      "device, pipe or descriptor (/dev/stdout) is written through, a read-only file refused");
  auto vm = driver::parse(argc, argv, desc,
                          "usage: koma-render --variant FILE [--option k=v]... [--first-seat N] "
                          "[--position TEXT] [--moves \"m1 m2 ...\"] [--pieces letters|kanji] "
                          "--out board.svg");
  if (!vm.count("out")) throw driver::Failure("--out FILE is required", "command line");
  const std::string out = driver::file_option(vm, "out");
  Options options;
  if (vm.count("pieces")) {
    std::string p = vm["pieces"].as<std::string>();
    if (p == "letters")
      options.labels = Labels::letters;
    else if (p != "kanji")
      throw driver::Failure("--pieces takes letters or kanji, not '" + p + "'", "command line");
  }
  auto variant = driver::load_variant(vm);
  koma::Game game(driver::start_position(variant, vm));

  std::optional<koma::Move> last;  // tinted; actions (resign, win) are not moves
  if (vm.count("moves")) {
    std::vector<std::string> moves;
    std::istringstream in(vm["moves"].as<std::string>());
    for (std::string m; in >> m;) moves.push_back(m);
    last = koma::play_moves(game, moves, "--moves");
  }

  std::string svg = render(Rendering{game, last, options});
  driver::write_file(out, svg, "the picture");
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-render", render_main, argc, argv);
}
