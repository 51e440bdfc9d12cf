// Internal: reading a descriptor's values (docs/descriptor.md, "File and
// errors"). Each value is checked against what its key expects; an error
// names the key by its YAML path (`drops.P.mate`, `board.width`) and points
// at the value.
#pragma once
#include <string>
#include <vector>

#include "document.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// `words` joined by ", ": the lists of what is allowed in messages.
std::string join(const std::vector<std::string>& words);

// A whole number in plain decimal digits (a '-' first allowed), nothing else.
bool parse_long(const std::string& text, long& out);

// The value below `top` at a path of keys ("end.goal.depth"), or null.
const Doc* find_path(const Doc& top, const std::string& path);

// A mapping whose keys are all in `allowed` ("unknown key 'x' in <path>"
// otherwise; the top level, path "", is "the descriptor").
const Doc& expect_map(const Doc& d, const std::string& path,
                      const std::vector<std::string>& allowed);
// A non-empty single value without a control character (C0 or DEL: a line
// break, a tab, an escape), which no name or text of a descriptor may hold:
// names reach line-based protocols (USI), records and terminals.
const std::string& expect_word(const Doc& d, const std::string& path);
int expect_int(const Doc& d, const std::string& path, int lo, int hi);
bool expect_bool(const Doc& d, const std::string& path);  // true/false, yes/no
// The variant's `name`: a word without white space, carried whole by
// protocols, records and file names.
const std::string& expect_name(const Doc& d);

template <class E>
E expect_enum(const Doc& d, const std::string& path, const Words<E>& words) {
  const std::string& s = expect_word(d, path);
  std::vector<std::string> allowed;
  for (const auto& [word, value] : words) {
    if (word == s) return value;
    allowed.push_back(word);
  }
  fail(d.loc, path + " cannot be '" + s + "'; allowed: " + join(allowed));
}

// A value as a one-key document of its own: a mapping's key read as a value
// ("drops.P": the letter P), located where the key is written.
Doc key_as_value(const Doc& mapping, std::size_t i);

// Squares of the board `v` describes (its width, height and voids read).
// A square name ("5e"), refused at `d` if it is not one (or, with
// `allow_void`, a void cell's name is taken too).
int square_at(const VariantData& v, const Doc& d, const std::string& name, const std::string& path,
              bool allow_void = false);
// A square or a rectangle between two squares ("a1-c3"), or a list of them.
SquareSet region(const VariantData& v, const Doc& d, const std::string& path, bool allow_voids);

}  // namespace koma::detail
