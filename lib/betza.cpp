#include "betza.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <utility>

namespace koma::detail {
namespace {

enum class Shape { orthogonal, diagonal, oblique };

using Vec = std::pair<int, int>;

// All vectors of an atom with leg lengths (a, b), a <= b, 8-fold symmetric.
std::set<Vec> all_vectors(int a, int b) {
  std::set<Vec> out;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      out.insert({sx * a, sy * b});
      out.insert({sx * b, sy * a});
    }
  return out;
}

// Vectors selected by one directional token for an atom of the given shape.
// Returns false if the token means nothing for this shape.
bool select(Shape shape, const std::string& tok, const std::set<Vec>& all, std::set<Vec>& out) {
  auto add_if = [&](auto pred) {
    for (const auto& v : all)
      if (pred(v.first, v.second)) out.insert(v);
  };
  auto narrow = [](int x, int y) { return std::abs(y) > std::abs(x); };  // major axis vertical
  if (tok.size() == 1 || (tok.size() == 2 && tok[1] == 'h' && tok[0] != 'v' && tok[0] != 's')) {
    char c = tok[0];
    if (tok.size() == 2 && shape == Shape::oblique && (c == 'l' || c == 'r')) {
      // Chiral halves: the four jumps turning one way.
      bool left = c == 'l';
      add_if([&](int x, int y) {
        bool ccw = (x > 0 && y > 0 && !narrow(x, y)) || (x < 0 && y > 0 && narrow(x, y)) ||
                   (x < 0 && y < 0 && !narrow(x, y)) || (x > 0 && y < 0 && narrow(x, y));
        return left ? ccw : !ccw;
      });
      return true;
    }
    switch (c) {
      case 'f':
        add_if([](int, int y) { return y > 0; });
        return true;
      case 'b':
        add_if([](int, int y) { return y < 0; });
        return true;
      case 'l':
        add_if([](int x, int) { return x < 0; });
        return true;
      case 'r':
        add_if([](int x, int) { return x > 0; });
        return true;
      case 'v':
        if (shape == Shape::orthogonal)
          add_if([](int x, int) { return x == 0; });
        else
          add_if([](int, int) { return true; });
        return true;
      case 's':
        if (shape == Shape::orthogonal)
          add_if([](int, int y) { return y == 0; });
        else
          add_if([](int, int) { return true; });
        return true;
    }
    return false;
  }
  if (tok.size() != 2) return false;
  char a = tok[0], b = tok[1];
  auto vertical = [](char c) { return c == 'f' || c == 'b'; };
  auto horizontal = [](char c) { return c == 'l' || c == 'r'; };
  auto ysign = [](char c) { return c == 'f' ? 1 : -1; };
  auto xsign = [](char c) { return c == 'r' ? 1 : -1; };
  if (shape == Shape::orthogonal) {
    if (a == b) return select(shape, std::string(1, a), all, out);
    return false;
  }
  if (shape == Shape::diagonal) {
    if (a == b) return select(shape, std::string(1, a), all, out);
    if (vertical(a) && horizontal(b)) std::swap(a, b);
    if (horizontal(a) && vertical(b)) {
      add_if([&](int x, int y) { return x * xsign(a) > 0 && y * ysign(b) > 0; });
      return true;
    }
    return false;
  }
  // Oblique (knight-like): the second letter names the major axis.
  if (a == b) {
    if (vertical(a))
      add_if([&](int x, int y) { return narrow(x, y) && y * ysign(a) > 0; });
    else if (horizontal(a))
      add_if([&](int x, int y) { return !narrow(x, y) && x * xsign(a) > 0; });
    else
      return false;
    return true;
  }
  if (vertical(a) && b == 's') {
    add_if([&](int x, int y) { return !narrow(x, y) && y * ysign(a) > 0; });
    return true;
  }
  if (horizontal(a) && b == 'v') {
    add_if([&](int x, int y) { return narrow(x, y) && x * xsign(a) > 0; });
    return true;
  }
  if (horizontal(a) && vertical(b)) {  // lf: left of forward, narrow
    add_if([&](int x, int y) { return narrow(x, y) && x * xsign(a) > 0 && y * ysign(b) > 0; });
    return true;
  }
  if (vertical(a) && horizontal(b)) {  // fl: forward of left, wide
    add_if([&](int x, int y) { return !narrow(x, y) && x * xsign(b) > 0 && y * ysign(a) > 0; });
    return true;
  }
  return false;
}

// Splits modifiers into tokens: known pairs first, then single letters.
std::vector<std::string> tokenize(const std::string& mods) {
  std::vector<std::string> toks;
  for (std::size_t i = 0; i < mods.size();) {
    if (i + 1 < mods.size()) {
      std::string pair = mods.substr(i, 2);
      static const std::set<std::string> pairs = {"ff", "bb", "ll", "rr", "fs", "sf", "bs", "sb",
                                                  "lv", "vl", "rv", "vr", "lf", "rf", "lb", "rb",
                                                  "fl", "fr", "bl", "br", "fh", "bh", "lh", "rh"};
      if (pairs.count(pair)) {
        std::string canon = pair;
        if (pair == "sf") canon = "fs";
        if (pair == "sb") canon = "bs";
        if (pair == "vl") canon = "lv";
        if (pair == "vr") canon = "rv";
        toks.push_back(canon);
        i += 2;
        continue;
      }
    }
    toks.emplace_back(1, mods[i]);
    ++i;
  }
  return toks;
}

// Fairy-Stockfish reads a run of directions on an orthogonal atom as their
// union (fsW: forward and sideways; frlR: forward, right and left), where
// koma reads a letter pair first: the spelling koma reads so, one
// component per direction ("fWsW", "fRsR"), as a hint; empty where the
// modifiers are not such a run.
std::string did_you_mean(Shape shape, const std::string& mods, const std::string& atom) {
  if (shape != Shape::orthogonal || mods.find_first_not_of("fblrvs") != std::string::npos)
    return "";
  auto has = [&](char c) { return mods.find(c) != std::string::npos; };
  // One component for an axis: both of its directions (`pair`), or the one
  // written, or none.
  auto axis = [&](char pair, char one, char other) -> std::string {
    if (has(pair) || (has(one) && has(other))) return pair + atom;
    if (has(one)) return one + atom;
    if (has(other)) return other + atom;
    return "";
  };
  const std::string out = axis('v', 'f', 'b') + axis('s', 'l', 'r');
  return "; did you mean '" + out + "'? (koma reads a letter pair first: docs/descriptor.md)";
}

}  // namespace

BetzaResult parse_betza(const std::string& text) {
  BetzaResult r;
  std::size_t i = 0;
  auto error = [&](std::size_t at, std::string msg) {
    r.error = std::move(msg);
    r.error_at = static_cast<int>(at);
    r.moves.clear();
    return r;
  };
  if (text.empty()) return error(0, "the move is empty");
  while (i < text.size()) {
    std::size_t mod_start = i;
    std::string mods;
    // m, c and p (what the move does) may stand anywhere among the
    // modifiers; the directional letters are read without them.
    bool only_move = false, only_capture = false, hop = false;
    while (i < text.size() && std::islower(static_cast<unsigned char>(text[i]))) {
      char c = text[i];
      if (c == 'm' || c == 'c' || c == 'p') {
        (c == 'm' ? only_move : c == 'c' ? only_capture : hop) = true;
        ++i;
        continue;
      }
      if (std::string("fblrvsh").find(c) == std::string::npos)
        return error(i, std::string("modifier '") + c +
                            "' is not supported; modifiers are f b l r v s h (directions) and m "
                            "c p (move only, capture only, hop)");
      mods += c;
      ++i;
    }
    if (i >= text.size() || !std::isupper(static_cast<unsigned char>(text[i])))
      return error(i, "expected an atom letter (W F D A N K R B Q) after the modifiers");
    const std::size_t atom_at = i;
    char atom = text[i++];
    // The atom with its doubling or range, once read (i past them).
    auto component = [&](std::size_t end) { return text.substr(atom_at, end - atom_at); };
    bool doubled = false;
    if (i < text.size() && text[i] == atom &&
        std::string("WFDAN").find(atom) != std::string::npos) {
      doubled = true;
      ++i;
    }
    if (doubled && i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      return error(i,
                   "a doubled atom is already unlimited; write a range after a single atom (W3)");
    int range = -1;
    if (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      range = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        range = range * 10 + (text[i] - '0');
        if (range > 99) return error(i, "the range number is too large");
        ++i;
      }
    }
    struct Part {
      Shape shape;
      int a, b;
      int range;
    };
    std::vector<Part> parts;
    int leap_range = doubled ? 0 : (range < 0 ? 1 : range);
    switch (atom) {
      case 'W':
        parts.push_back({Shape::orthogonal, 0, 1, leap_range});
        break;
      case 'F':
        parts.push_back({Shape::diagonal, 1, 1, leap_range});
        break;
      case 'D':
        parts.push_back({Shape::orthogonal, 0, 2, leap_range});
        break;
      case 'A':
        parts.push_back({Shape::diagonal, 2, 2, leap_range});
        break;
      case 'N':
        parts.push_back({Shape::oblique, 1, 2, leap_range});
        break;
      case 'K':
        parts.push_back({Shape::orthogonal, 0, 1, range < 0 ? 1 : range});
        parts.push_back({Shape::diagonal, 1, 1, range < 0 ? 1 : range});
        break;
      case 'R':
        parts.push_back({Shape::orthogonal, 0, 1, range < 0 ? 0 : range});
        break;
      case 'B':
        parts.push_back({Shape::diagonal, 1, 1, range < 0 ? 0 : range});
        break;
      case 'Q':
        parts.push_back({Shape::orthogonal, 0, 1, range < 0 ? 0 : range});
        parts.push_back({Shape::diagonal, 1, 1, range < 0 ? 0 : range});
        break;
      default:
        return error(i - 1, std::string("atom '") + atom +
                                "' is not supported; atoms are W F D A N K R B Q");
    }
    if (hop && std::any_of(parts.begin(), parts.end(), [](const Part& p) { return p.range == 1; }))
      return error(mod_start,
                   "a hopper ('p') lands beyond the piece it jumps: give it a rider (pR, pB) or "
                   "a range of at least 2 (pB2; the range counts the screen's square)");
    MoveComponent does{0, 0, 0};
    // mc, like neither, moves and captures.
    does.move = !only_capture || only_move;
    does.capture = !only_move || only_capture;
    does.hop = hop;
    for (const auto& part : parts) {
      std::set<Vec> all = all_vectors(part.a, part.b);
      std::set<Vec> chosen;
      if (mods.empty()) {
        chosen = all;
      } else {
        for (const auto& tok : tokenize(mods))
          if (!select(part.shape, tok, all, chosen) && parts.size() == 1)
            return error(mod_start, "modifier '" + tok + "' means nothing for atom '" + atom + "'" +
                                        did_you_mean(part.shape, mods, component(i)));
      }
      // One component per direction and kind of move: a repeated one keeps
      // the longer range (WR is a rook), so no move is generated twice.
      for (const auto& v : chosen) {
        MoveComponent m = does;
        m.x = v.first;
        m.y = v.second;
        m.range = part.range;
        auto same = std::find_if(r.moves.begin(), r.moves.end(), [&](const MoveComponent& o) {
          return o.x == m.x && o.y == m.y && o.same_kind(m);
        });
        if (same == r.moves.end())
          r.moves.push_back(m);
        else if (same->range != 0 && (part.range == 0 || part.range > same->range))
          same->range = part.range;
      }
    }
    if (!mods.empty() && r.moves.empty()) return error(mod_start, "the modifiers select no move");
  }
  return r;
}

DoubleResult parse_double(const std::string& text) {
  DoubleResult r;
  auto error = [&](std::size_t at, std::string msg) {
    r.error = std::move(msg);
    r.error_at = static_cast<int>(at);
    r.steps.clear();
    return r;
  };
  const std::size_t a = text.find('a');
  if (a == std::string::npos)
    return error(text.size(), "a double move is written <first step>a<second step>, e.g. KaK");
  if (text.find('a', a + 1) != std::string::npos)
    return error(text.find('a', a + 1), "a double move has two steps: one 'a' only");
  const BetzaResult first = parse_betza(text.substr(0, a));
  if (!first.error.empty()) return error(static_cast<std::size_t>(first.error_at), first.error);
  for (const MoveComponent& m : first.moves)
    if (m.range != 1 || !m.plain() || std::abs(m.x) > 1 || std::abs(m.y) > 1)
      return error(0,
                   "the first step of a double move is one step of W, F or K (with "
                   "directions), moving and capturing, without m, c or p");
  // The second leg: relative directions, then W, F or K alone.
  const std::size_t then_at = a + 1;
  std::size_t i = then_at;
  std::string dirs;
  while (i < text.size() && std::islower(static_cast<unsigned char>(text[i]))) {
    if (std::string("fbvs").find(text[i]) == std::string::npos)
      return error(i, std::string("'") + text[i] +
                          "' is no direction of a second step: f (straight on), b (back), v "
                          "(both), s (square to the first step)");
    dirs += text[i++];
  }
  if (i + 1 != text.size() || std::string("WFK").find(text[i]) == std::string::npos)
    return error(i, "the second step of a double move is W, F or K, once, after its directions");
  const char atom = text[i];
  for (const MoveComponent& m : first.moves) {
    DoubleStep step{m.x, m.y, {}};
    const bool diagonal = m.x != 0 && m.y != 0;
    if (dirs.empty()) {
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) {
          const bool is_diagonal = dx != 0 && dy != 0;
          if ((dx || dy) && (atom == 'K' || (atom == 'F') == is_diagonal))
            step.then.emplace_back(dx, dy);
        }
    } else {
      if (atom == 'K' || (atom == 'F') != diagonal)
        return error(i, std::string("relative directions need a second step of the first "
                                    "one's shape (") +
                            (diagonal ? "F" : "W") + ")");
      // Straight on, and square to it: (x, y) turned a quarter.
      auto has = [&](char c) { return dirs.find(c) != std::string::npos; };
      if (has('f') || has('v')) step.then.emplace_back(m.x, m.y);
      if (has('b') || has('v')) step.then.emplace_back(-m.x, -m.y);
      if (has('s')) {
        step.then.emplace_back(m.y, -m.x);
        step.then.emplace_back(-m.y, m.x);
      }
    }
    r.steps.push_back(step);
  }
  return r;
}

}  // namespace koma::detail
