#include "document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace koma {

DescriptorError::DescriptorError(std::string file, int line, int column, std::string message)
    : Error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

}  // namespace koma

namespace koma::detail {
namespace {

// Limits that keep a hostile or broken descriptor from taking minutes or the
// stack (docs/descriptor.md, "File and errors"). The shipped descriptors are
// under 3 KiB and 200 values each; yaml-cpp needs about two seconds per MiB of a
// dense list, so the size limit is what keeps the worst text fast.
constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxDescriptorBytes = 256u << 10;
// Values after aliases are expanded: `&a [x, x, x]` used ten times in each of
// ten levels would otherwise be 10^10 values from a few hundred bytes.
constexpr int kMaxValues = 20000;
constexpr int kMaxExtendsDepth = 16;

std::string too_large() {
  std::string out = "the descriptor is larger than ";
  out += std::to_string(kMaxDescriptorBytes);
  out += " bytes, the limit for a descriptor";
  return out;
}

std::string too_deep() {
  return "nesting is deeper than " + std::to_string(kMaxDepth) + " levels";
}

Loc loc_of(const YAML::Mark& m, const std::shared_ptr<const std::string>& file) {
  return Loc{file, m.line + 1, m.column + 1};
}

// Bytes of the UTF-8 encoding of code point `cp` (as yaml-cpp writes an escape).
int utf8_length(unsigned long cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// Finds where each character of scalar `d`, which starts at `m` in `text`, is
// written (Doc::at_char), so that an error inside it (a Betza string) can
// point at the character, quoted or not. Leaves both unknown when the text
// does not match the value read (a value over several lines).
void locate_chars(Doc& d, const std::string& text, const YAML::Mark& m) {
  if (m.pos < 0 || static_cast<std::size_t>(m.pos) >= text.size()) return;
  const auto start = static_cast<std::size_t>(m.pos);
  const char quote = text[start];
  if (quote != '\'' && quote != '"') {
    d.plain_text = text.compare(start, d.scalar.size(), d.scalar) == 0;
    return;
  }
  auto column = [&](std::size_t j) { return d.loc.column + static_cast<int>(j - start); };
  std::vector<int> columns;
  std::size_t j = start + 1;
  while (true) {
    if (j >= text.size() || text[j] == '\n' || text[j] == '\r') return;
    const char c = text[j];
    if (c == quote && quote == '\'' && j + 1 < text.size() && text[j + 1] == '\'') {
      columns.push_back(column(j));  // '' is one quote
      j += 2;
    } else if (c == quote) {
      columns.push_back(column(j));  // the closing quote
      break;
    } else if (c == '\\' && quote == '"' && j + 1 < text.size()) {
      const char e = text[j + 1];
      std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
      int bytes = e == 'N' || e == '_' ? 2 : e == 'L' || e == 'P' ? 3 : 1;
      if (digits > 0) {
        if (j + 2 + digits > text.size()) return;
        const char* hex = text.data() + j + 2;
        unsigned long cp = 0;
        auto [end, ec] = std::from_chars(hex, hex + digits, cp, 16);
        if (ec != std::errc() || end != hex + digits) return;
        bytes = utf8_length(cp);
      }
      for (int b = 0; b < bytes; ++b) columns.push_back(column(j));
      j += 2 + digits;
    } else {
      columns.push_back(column(j));
      ++j;
    }
  }
  if (columns.size() == d.scalar.size() + 1) d.char_columns = std::move(columns);
}

// Reads a descriptor file (the one loaded, or one it `extends`). Only a
// regular file is opened, and it is checked before it is: a directory would
// read as nothing, a FIFO or /dev/stdin would make koma wait, /dev/zero would
// never end. At most kMaxDescriptorBytes + 1 bytes are read, so that a huge
// file is refused without being read whole. Returns what is wrong, as the end
// of a sentence about the file ("is a directory, not a regular file"), or ""
// when `out` holds the text.
std::string read_limited(const std::filesystem::path& path, std::string& out) {
  std::error_code ec;
  std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st)) return "is a directory, not a regular file";
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    return "is not a regular file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot be read: " + std::generic_category().message(errno);
  out.assign(kMaxDescriptorBytes + 1, '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<std::size_t>(in.gcount()));
  return "";
}

Doc convert(const YAML::Node& n, const std::shared_ptr<const std::string>& file,
            const std::string& text, int depth, int& values) {
  Doc d;
  d.loc = loc_of(n.Mark(), file);
  if (depth > kMaxDepth) fail(d.loc, too_deep());
  if (++values > kMaxValues)
    fail(d.loc, "the descriptor holds more than " + std::to_string(kMaxValues) +
                    " values (an alias counts its anchor's values each time it is used)");
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      d.kind = Doc::Kind::null;
      break;
    case YAML::NodeType::Scalar:
      d.kind = Doc::Kind::scalar;
      d.scalar = n.Scalar();
      locate_chars(d, text, n.Mark());
      break;
    case YAML::NodeType::Sequence:
      d.kind = Doc::Kind::seq;
      for (const auto& item : n) d.seq.push_back(convert(item, file, text, depth + 1, values));
      break;
    case YAML::NodeType::Map: {
      d.kind = Doc::Kind::map;
      std::set<std::string> keys;  // Doc::find is linear: thousands of keys would be quadratic
      for (const auto& kv : n) {
        Loc kl = loc_of(kv.first.Mark(), file);
        if (!kv.first.IsScalar()) fail(kl, "a mapping key must be a plain word");
        std::string key = kv.first.Scalar();
        if (!keys.insert(key).second) fail(kl, "duplicate key '" + key + "'");
        d.map.emplace_back(key, convert(kv.second, file, text, depth + 1, values));
        d.key_locs.push_back(kl);
      }
      break;
    }
  }
  return d;
}

void merge_into(Doc& base, const Doc& over) {
  if (!base.is_map() || !over.is_map()) {
    base = over;
    return;
  }
  for (std::size_t i = 0; i < over.map.size(); ++i) {
    const auto& [key, value] = over.map[i];
    if (value.kind == Doc::Kind::null) {  // `key: ~` removes what the base says
      for (std::size_t j = 0; j < base.map.size(); ++j)
        if (base.map[j].first == key) {
          base.map.erase(base.map.begin() + static_cast<long>(j));
          base.key_locs.erase(base.key_locs.begin() + static_cast<long>(j));
          break;
        }
      continue;
    }
    if (Doc* existing = base.find(key)) {
      merge_into(*existing, value);
    } else {
      base.map.emplace_back(key, value);
      base.key_locs.push_back(over.key_locs[i]);
    }
  }
  base.loc = over.loc;
}

// Removes `key` from mapping `d`, returning where it stood (or the end).
std::size_t erase_key(Doc& d, const std::string& key) {
  for (std::size_t j = 0; j < d.map.size(); ++j)
    if (d.map[j].first == key) {
      d.map.erase(d.map.begin() + static_cast<long>(j));
      d.key_locs.erase(d.key_locs.begin() + static_cast<long>(j));
      return j;
    }
  return d.map.size();
}

// `replace: [setup, pieces]`: each listed top-level key of `own` replaces the
// base's whole, in the base's place, instead of merging into it (a null value
// removes it, as `key: ~` does); the listed keys are then taken out of `own`.
void replace_whole(Doc& base, Doc& own, const Doc& list, const std::vector<std::string>& allowed) {
  if (!list.is_seq() && !list.is_scalar())
    fail(list.loc, "'replace' lists top-level keys this file gives whole, e.g. [setup, pieces]");
  std::vector<const Doc*> items;
  if (list.is_seq())
    for (const auto& item : list.seq) items.push_back(&item);
  else
    items.push_back(&list);
  std::set<std::string> seen;
  for (const Doc* item : items) {  // every name first: a misspelt one is the likelier mistake
    if (!item->is_scalar()) fail(item->loc, "'replace' lists top-level keys, each a single word");
    const std::string& key = item->scalar;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(item->loc,
           "unknown key '" + key + "' in replace" + nearest_or_list(key, allowed, "allowed"));
    if (!seen.insert(key).second) fail(item->loc, "replace names '" + key + "' twice");
  }
  for (const Doc* item : items) {
    const std::string& key = item->scalar;
    std::size_t mine = 0;
    while (mine < own.map.size() && own.map[mine].first != key) ++mine;
    if (mine == own.map.size()) {
      std::string message = "replace names '" + key + "', which this file does not give";
      message += "; to remove the base's, write '" + key + ": ~'";
      fail(item->loc, message);
    }
    std::size_t at = erase_key(base, key);
    if (own.map[mine].second.kind != Doc::Kind::null) {
      base.map.insert(base.map.begin() + static_cast<long>(at), own.map[mine]);
      base.key_locs.insert(base.key_locs.begin() + static_cast<long>(at), own.key_locs[mine]);
    }
    erase_key(own, key);
  }
}

Doc load_resolved(const std::string& text, const std::string& origin, const std::string& base_dir,
                  const std::vector<std::string>& top_keys, std::vector<std::string>& chain) {
  Doc doc = parse_document(text, origin);
  if (!doc.is_map())
    fail(doc.loc, "a descriptor must be a mapping of keys such as koma, name, board");
  const Doc* version = doc.find("koma");
  if (!version) fail(doc.loc, "the descriptor must start with the schema version 'koma: 1'");
  if (!version->is_scalar() || version->scalar != "1")
    fail(version->loc,
         "unsupported schema version '" + version->scalar + "'; this koma reads 'koma: 1'");
  const Doc* ext = doc.find("extends");
  if (!ext) {
    for (std::size_t i = 0; i < doc.map.size(); ++i)
      if (doc.map[i].first == "replace")
        fail(doc.key_locs[i],
             "'replace' names keys that this file gives whole instead of merging them into the "
             "file it extends; it needs 'extends'");
    return doc;
  }
  if (!ext->is_scalar() || ext->scalar.empty())
    fail(ext->loc, "'extends' takes the path of another descriptor, relative to this file");
  std::filesystem::path path = std::filesystem::path(base_dir) / ext->scalar;
  std::error_code ec;
  std::filesystem::path canon = std::filesystem::weakly_canonical(path, ec);
  std::string key = ec ? path.string() : canon.string();
  for (const auto& seen : chain)
    if (seen == key)
      fail(ext->loc, "'extends' makes a cycle: " + ext->scalar + " is already being loaded");
  if (static_cast<int>(chain.size()) >= kMaxExtendsDepth)
    fail(ext->loc, "'extends' chain is longer than " + std::to_string(kMaxExtendsDepth));
  std::string base_text;
  if (std::string why = read_limited(path, base_text); !why.empty())
    fail(ext->loc, "'extends' names '" + path.string() + "', which " + why);
  chain.push_back(key);
  Doc base = load_resolved(base_text, path.string(), path.parent_path().string(), top_keys, chain);
  chain.pop_back();
  Doc own = doc;
  erase_key(own, "extends");
  erase_key(own, "replace");
  if (const Doc* list = doc.find("replace")) replace_whole(base, own, *list, top_keys);
  merge_into(base, own);
  return base;
}

}  // namespace

void fail(const Loc& at, const std::string& message) {
  throw DescriptorError(at.file ? *at.file : std::string("<descriptor>"), at.line, at.column,
                        message);
}

Doc::Doc() = default;
Doc::~Doc() = default;
Doc::Doc(const Doc&) = default;
Doc::Doc(Doc&&) noexcept = default;
Doc& Doc::operator=(const Doc&) = default;
Doc& Doc::operator=(Doc&&) noexcept = default;

const Doc* Doc::find(const std::string& key) const {
  for (const auto& kv : map)
    if (kv.first == key) return &kv.second;
  return nullptr;
}
Doc* Doc::find(const std::string& key) {
  for (auto& kv : map)
    if (kv.first == key) return &kv.second;
  return nullptr;
}
Loc Doc::at_char(std::size_t i) const {
  Loc out = loc;
  if (plain_text)
    out.column += static_cast<int>(i);
  else if (i < char_columns.size())
    out.column = char_columns[i];
  return out;
}

namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Edits (insert, delete, change, swap two neighbours) from a to b, ignoring case.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t change = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string nearest_or_list(const std::string& got, const std::vector<std::string>& known,
                            const std::string& label) {
  // Close: the same but for case, or at most two edits and at most one per
  // three characters (so no single letter is "near" another).
  const std::string* best = nullptr;
  std::size_t best_distance = 3;
  for (const auto& k : known) {
    std::size_t longer = std::max(got.size(), k.size());
    if (longer - std::min(got.size(), k.size()) > 2) continue;
    std::size_t n = edit_distance(got, k);
    if (n < best_distance && n <= std::min<std::size_t>(2, longer / 3)) {
      best = &k;
      best_distance = n;
    }
  }
  if (best) return "; did you mean '" + *best + "'?";
  std::string out = "; " + label + ": ";
  for (std::size_t i = 0; i < known.size(); ++i) out += (i ? ", " : "") + known[i];
  return out;
}

const char* Doc::kind_name() const {
  switch (kind) {
    case Kind::null:
      return "nothing";
    case Kind::scalar:
      return "a single value";
    case Kind::seq:
      return "a list";
    case Kind::map:
      return "a mapping";
  }
  return "?";
}

Doc parse_document(const std::string& text, const std::string& file) {
  auto name = std::make_shared<const std::string>(file);
  if (text.size() > kMaxDescriptorBytes) fail(Loc{name, 1, 1}, too_large());
  // yaml-cpp recurses per nesting level; refuse absurd flow nesting ([ and {)
  // before it does. Brackets inside quotes and comments count too (the safe
  // side). Block nesting (indentation, "- - -") is bounded by yaml-cpp itself.
  int depth = 0, worst = 0;
  for (char c : text) {
    if (c == '[' || c == '{') worst = std::max(worst, ++depth);
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  if (worst > kMaxDepth) fail(Loc{name, 1, 1}, too_deep());
  try {
    YAML::Node root = YAML::Load(text);
    int values = 0;
    return convert(root, name, text, 0, values);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard (block nesting); its message says only "bad file".
    fail(Loc{name, e.mark.line + 1, e.mark.column + 1}, too_deep());
  } catch (const YAML::Exception& e) {
    fail(Loc{name, e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: " + e.msg);
  }
}

Doc load_descriptor_file(const std::string& path, const std::vector<std::string>& top_keys) {
  std::string text;
  if (std::string why = read_limited(path, text); !why.empty())
    throw DescriptorError(path, 0, 0, "the descriptor file " + why);
  if (text.size() > kMaxDescriptorBytes) throw DescriptorError(path, 0, 0, too_large());
  std::vector<std::string> chain;
  std::error_code ec;
  auto canon = std::filesystem::weakly_canonical(path, ec);
  chain.push_back(ec ? path : canon.string());
  return load_resolved(text, path, std::filesystem::path(path).parent_path().string(), top_keys,
                       chain);
}

Doc load_descriptor_text(const std::string& text, const std::string& origin,
                         const std::string& base_dir, const std::vector<std::string>& top_keys) {
  std::vector<std::string> chain;
  return load_resolved(text, origin, base_dir, top_keys, chain);
}

}  // namespace koma::detail
