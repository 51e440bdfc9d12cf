#include "reader.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "notation.hpp"

namespace koma::detail {
namespace {

// Where `text` holds a control character (C0 or DEL), or npos.
std::size_t control_at(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7f) return i;
  return std::string::npos;
}

std::string label(const std::string& path) {
  return path.empty() ? "the descriptor" : path;
}

}  // namespace

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

bool parse_long(const std::string& text, long& out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

const Doc* find_path(const Doc& top, const std::string& path) {
  const Doc* at = &top;
  for (std::size_t from = 0; at && from <= path.size();) {
    const std::size_t dot = std::min(path.find('.', from), path.size());
    at = at->is_map() ? at->find(path.substr(from, dot - from)) : nullptr;
    from = dot + 1;
  }
  return at;
}

const Doc& expect_map(const Doc& d, const std::string& path,
                      const std::vector<std::string>& allowed) {
  if (!d.is_map()) fail(d.loc, label(path) + " must be a mapping, not " + d.kind_name());
  for (std::size_t i = 0; i < d.map.size(); ++i)
    if (std::find(allowed.begin(), allowed.end(), d.map[i].first) == allowed.end())
      fail(d.key_locs[i], "unknown key '" + d.map[i].first + "' in " + label(path) +
                              nearest_or_list(d.map[i].first, allowed, "allowed"));
  return d;
}

const std::string& expect_word(const Doc& d, const std::string& path) {
  if (!d.is_scalar() || d.scalar.empty())
    fail(d.loc, path + " must be a single value, not " + d.kind_name());
  if (const std::size_t at = control_at(d.scalar); at != std::string::npos) {
    std::array<char, 8> code{};
    std::snprintf(code.data(), code.size(), "U+%04X", static_cast<unsigned char>(d.scalar[at]));
    fail(d.at_char(at), path + " holds a control character (" + code.data() +
                            "), which no name or text of a descriptor may hold");
  }
  return d.scalar;
}

const std::string& expect_name(const Doc& d) {
  const std::string& name = expect_word(d, "name");
  if (const std::size_t at = name.find(' '); at != std::string::npos)
    fail(d.at_char(at), "name '" + name +
                            "' holds a space; a variant's name is one word (use - "
                            "or _), its title may have spaces");
  return name;
}

int expect_int(const Doc& d, const std::string& path, int lo, int hi) {
  const std::string& s = expect_word(d, path);
  int n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size() || n < lo || n > hi)
    fail(d.loc, path + " must be a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi) + ", not '" + s + "'");
  return n;
}

bool expect_bool(const Doc& d, const std::string& path) {
  const std::string& s = expect_word(d, path);
  if (s == "true" || s == "yes") return true;
  if (s == "false" || s == "no") return false;
  fail(d.loc, path + " must be true or false, not '" + s + "'");
}

Doc key_as_value(const Doc& mapping, std::size_t i) {
  Doc key;
  key.kind = Doc::Kind::scalar;
  key.scalar = mapping.map[i].first;
  key.loc = mapping.key_locs[i];
  return key;
}

int square_at(const VariantData& v, const Doc& d, const std::string& name, const std::string& path,
              bool allow_void) {
  auto sq = parse_square_name(v, name, allow_void);
  if (!sq && parse_square_name(v, name, true))
    fail(d.loc, path + ": '" + name + "' is a void cell, not a square");
  if (!sq)
    fail(d.loc, path + ": '" + name + "' is not a square name of this " + std::to_string(v.width) +
                    "x" + std::to_string(v.height) + " board");
  return *sq;
}

SquareSet region(const VariantData& v, const Doc& d, const std::string& path, bool allow_voids) {
  SquareSet out;
  auto add = [&](const Doc& item) {
    const std::string& s = expect_word(item, path);
    const auto dash = s.find('-');
    const int a = square_at(v, item, s.substr(0, dash), path, allow_voids);
    const int b =
        dash == std::string::npos ? a : square_at(v, item, s.substr(dash + 1), path, allow_voids);
    for (int y = std::min(a, b) / v.width; y <= std::max(a, b) / v.width; ++y)
      for (int x = std::min(a % v.width, b % v.width); x <= std::max(a % v.width, b % v.width);
           ++x) {
        const int sq = y * v.width + x;
        if (!allow_voids && !v.board.test(sq))
          fail(item.loc, std::string(path) += ": " + s + " includes a void cell");
        out.set(sq);
      }
  };
  if (d.is_seq())
    for (const auto& item : d.seq) add(item);
  else
    add(d);
  return out;
}

}  // namespace koma::detail
