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

  bool is_map() const { return kind == Kind::map; }
  bool is_seq() const { return kind == Kind::seq; }
  bool is_scalar() const { return kind == Kind::scalar; }
  const Doc* find(const std::string& key) const;
  Doc* find(const std::string& key);
  const char* kind_name() const;
};

// Reads one YAML text. Rejects duplicate keys, texts over the size limit,
// nesting over the depth limit, alias bombs (a limit on values after aliases
// are expanded) and anything that is not plain YAML data.
Doc parse_document(const std::string& text, const std::string& file);

// Loads a descriptor file and everything it `extends:`, merged (the extending
// file wins; mappings merge key by key, other values are replaced).
Doc load_descriptor_file(const std::string& path);
Doc load_descriptor_text(const std::string& text, const std::string& origin,
                         const std::string& base_dir);

}  // namespace koma::detail
