#include "document.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxDescriptorBytes = 4u << 20;  // far above any real descriptor
constexpr int kMaxExtendsDepth = 16;

Loc loc_of(const YAML::Mark& m, const std::shared_ptr<const std::string>& file) {
  return Loc{file, m.line + 1, m.column + 1};
}

Doc convert(const YAML::Node& n, const std::shared_ptr<const std::string>& file, int depth) {
  Doc d;
  d.loc = loc_of(n.Mark(), file);
  if (depth > kMaxDepth)
    fail(d.loc, "nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
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
      for (const auto& item : n) d.seq.push_back(convert(item, file, depth + 1));
      break;
    case YAML::NodeType::Map:
      d.kind = Doc::Kind::map;
      for (const auto& kv : n) {
        Loc kl = loc_of(kv.first.Mark(), file);
        if (!kv.first.IsScalar()) fail(kl, "a mapping key must be a plain word");
        std::string key = kv.first.Scalar();
        if (d.find(key)) fail(kl, "duplicate key '" + key + "'");
        d.map.emplace_back(key, convert(kv.second, file, depth + 1));
        d.key_locs.push_back(kl);
      }
      break;
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
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ext->loc, "cannot read the extended descriptor '" + path.string() + "'");
  std::ostringstream buf;
  buf << in.rdbuf();
  chain.push_back(key);
  Doc base = load_resolved(buf.str(), path.string(), path.parent_path().string(), chain);
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
  if (text.size() > kMaxDescriptorBytes)
    fail(Loc{name, 1, 1}, "the descriptor is " + std::to_string(text.size()) +
                              " bytes; descriptors are limited to " +
                              std::to_string(kMaxDescriptorBytes) + " bytes");
  // yaml-cpp recurses per nesting level; refuse absurd nesting before it does.
  int depth = 0, worst = 0;
  for (char c : text) {
    if (c == '[' || c == '{') worst = std::max(worst, ++depth);
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  if (worst > kMaxDepth)
    fail(Loc{name, 1, 1}, "nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
  try {
    YAML::Node root = YAML::Load(text);
    return convert(root, name, 0);
  } catch (const YAML::Exception& e) {
    fail(Loc{name, e.mark.line + 1, e.mark.column + 1}, "YAML syntax error: " + e.msg);
  }
}

Doc load_descriptor_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DescriptorError(path, 0, 0, "cannot read the descriptor file");
  std::ostringstream buf;
  buf << in.rdbuf();
  std::vector<std::string> chain;
  std::error_code ec;
  auto canon = std::filesystem::weakly_canonical(path, ec);
  chain.push_back(ec ? path : canon.string());
  return load_resolved(buf.str(), path, std::filesystem::path(path).parent_path().string(), chain);
}

Doc load_descriptor_text(const std::string& text, const std::string& origin,
                         const std::string& base_dir) {
  std::vector<std::string> chain;
  return load_resolved(text, origin, base_dir, chain);
}

}  // namespace koma::detail
