#include "document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
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

Doc convert(const YAML::Node& n, const std::shared_ptr<const std::string>& file, int depth,
            int& values) {
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
      break;
    case YAML::NodeType::Sequence:
      d.kind = Doc::Kind::seq;
      for (const auto& item : n) d.seq.push_back(convert(item, file, depth + 1, values));
      break;
    case YAML::NodeType::Map: {
      d.kind = Doc::Kind::map;
      std::set<std::string> keys;  // Doc::find is linear: thousands of keys would be quadratic
      for (const auto& kv : n) {
        Loc kl = loc_of(kv.first.Mark(), file);
        if (!kv.first.IsScalar()) fail(kl, "a mapping key must be a plain word");
        std::string key = kv.first.Scalar();
        if (!keys.insert(key).second) fail(kl, "duplicate key '" + key + "'");
        d.map.emplace_back(key, convert(kv.second, file, depth + 1, values));
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

Doc load_resolved(const std::string& text, const std::string& origin, const std::string& base_dir,
                  std::vector<std::string>& chain) {
  Doc doc = parse_document(text, origin);
  if (!doc.is_map())
    fail(doc.loc, "a descriptor must be a mapping of keys such as koma, name, board");
  const Doc* version = doc.find("koma");
  if (!version) fail(doc.loc, "the descriptor must start with the schema version 'koma: 1'");
  if (!version->is_scalar() || version->scalar != "1")
    fail(version->loc,
         "unsupported schema version '" + version->scalar + "'; this koma reads 'koma: 1'");
  const Doc* ext = doc.find("extends");
  if (!ext) return doc;
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
  Doc base = load_resolved(base_text, path.string(), path.parent_path().string(), chain);
  chain.pop_back();
  Doc own = doc;
  for (std::size_t i = 0; i < own.map.size(); ++i)
    if (own.map[i].first == "extends") {
      own.map.erase(own.map.begin() + static_cast<long>(i));
      own.key_locs.erase(own.key_locs.begin() + static_cast<long>(i));
      break;
    }
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
    return convert(root, name, 0, values);
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp's own guard (block nesting); its message says only "bad file".
    fail(Loc{name, e.mark.line + 1, e.mark.column + 1}, too_deep());
  } catch (const YAML::Exception& e) {
    fail(Loc{name, e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: " + e.msg);
  }
}

Doc load_descriptor_file(const std::string& path) {
  std::string text;
  if (std::string why = read_limited(path, text); !why.empty())
    throw DescriptorError(path, 0, 0, "the descriptor file " + why);
  if (text.size() > kMaxDescriptorBytes) throw DescriptorError(path, 0, 0, too_large());
  std::vector<std::string> chain;
  std::error_code ec;
  auto canon = std::filesystem::weakly_canonical(path, ec);
  chain.push_back(ec ? path : canon.string());
  return load_resolved(text, path, std::filesystem::path(path).parent_path().string(), chain);
}

Doc load_descriptor_text(const std::string& text, const std::string& origin,
                         const std::string& base_dir) {
  std::vector<std::string> chain;
  return load_resolved(text, origin, base_dir, chain);
}

}  // namespace koma::detail
