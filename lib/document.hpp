// A descriptor as a tree of located nodes: parsed by yaml-cpp, then owned by
// koma so that `extends:` merging and option substitution keep, for every
// value, the file, line and column it came from.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "koma/error.hpp"

namespace koma::detail {

struct Loc {
  std::shared_ptr<const std::string> file;
  int line = 0, column = 0;  // from 1
};

[[noreturn]] void fail(const Loc& at, const std::string& message);

struct Doc {
  // Declared here, defined in document.cpp: Doc holds vectors of itself, and
  // clang with libstdc++ cannot instantiate their implicit members inline
  // (std::pair<std::string, Doc> would need Doc complete).
  Doc();
  ~Doc();
  Doc(const Doc&);
  Doc(Doc&&) noexcept;
  Doc& operator=(const Doc&);
  Doc& operator=(Doc&&) noexcept;

  enum class Kind { null, scalar, seq, map } kind = Kind::null;
  std::string scalar;
  std::vector<Doc> seq;
  std::vector<std::pair<std::string, Doc>> map;  // in file order
  std::vector<Loc> key_locs;                     // parallel to map
  Loc loc;
  // Where the characters of a scalar are written: a plain one from loc on,
  // one column each; a quoted one at char_columns (each character of
  // `scalar`, then the closing quote; an escape such as \x41 or '' is one
  // character written as several). Neither for a value spanning lines or put
  // there by an option.
  bool plain_text = false;
  std::vector<int> char_columns;

  bool is_map() const { return kind == Kind::map; }
  bool is_seq() const { return kind == Kind::seq; }
  bool is_scalar() const { return kind == Kind::scalar; }
  const Doc* find(const std::string& key) const;
  Doc* find(const std::string& key);
  const char* kind_name() const;
  // Where character `i` of a scalar is written (its end for i == size):
  // inside the quotes of a quoted one; the value's start if unknown.
  Loc at_char(std::size_t i) const;
};

// How a message about an unknown `got` ends: "; did you mean 'x'?" when one of
// `known` is close to it (the same but for case, or a few edits away), else
// "; <label>: " and the whole list.
std::string nearest_or_list(const std::string& got, const std::vector<std::string>& known,
                            const std::string& label);

// Reads one YAML text. Rejects duplicate keys, texts over the size limit,
// nesting over the depth limit, alias bombs (a limit on values after aliases
// are expanded) and anything that is not plain YAML data.
Doc parse_document(const std::string& text, const std::string& file);

// Loads a descriptor file and everything it `extends:`, merged (the extending
// file wins; mappings merge key by key, other values are replaced, and the
// top-level keys it lists under `replace:` — each one of `top_keys` — are
// replaced whole).
Doc load_descriptor_file(const std::string& path, const std::vector<std::string>& top_keys);
Doc load_descriptor_text(const std::string& text, const std::string& origin,
                         const std::string& base_dir, const std::vector<std::string>& top_keys);

}  // namespace koma::detail
