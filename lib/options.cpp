#include "options.hpp"

#include <algorithm>
#include <limits>

#include "reader.hpp"
#include "schema.hpp"

namespace koma::detail {
namespace {

struct OptionDecl {
  enum class Type { choice, integer, boolean } type = Type::choice;
  std::vector<std::string> values;
  long min = 0, max = std::numeric_limits<int>::max();
  std::string value;
  Loc loc;
};

std::string check_value(const std::string& name, const OptionDecl& d, const std::string& v) {
  switch (d.type) {
    case OptionDecl::Type::choice:
      if (std::find(d.values.begin(), d.values.end(), v) == d.values.end())
        return "option " + name + " cannot be '" + v + "'; allowed: " + join(d.values);
      return "";
    case OptionDecl::Type::integer: {
      long n = 0;
      if (!parse_long(v, n) || n < d.min || n > d.max)
        return "option " + name + " must be a whole number from " + std::to_string(d.min) + " to " +
               std::to_string(d.max) + ", not '" + v + "'";
      return "";
    }
    case OptionDecl::Type::boolean:
      if (v != "true" && v != "false")
        return "option " + name + " must be true or false, not '" + v + "'";
      return "";
  }
  return "";
}

void substitute(Doc& d, const std::map<std::string, OptionDecl>& decls) {
  auto lookup = [&](const std::string& ref, const Loc& at) -> const OptionDecl& {
    auto it = decls.find(ref);
    if (it == decls.end()) {
      std::vector<std::string> names;
      names.reserve(decls.size());
      for (const auto& kv : decls) names.push_back(kv.first);
      fail(at, "'$" + ref + "' names no option; options: " + join(names));
    }
    return it->second;
  };
  if (d.is_scalar() && d.scalar.size() > 1 && d.scalar[0] == '$') {
    const OptionDecl& o = lookup(d.scalar.substr(1), d.loc);
    d.scalar = o.value;
    d.plain_text = false;  // its characters are not written here
    d.char_columns.clear();
    return;
  }
  if (d.is_map() && d.map.size() == 1 && d.map[0].first.size() > 1 && d.map[0].first[0] == '$') {
    std::string name = d.map[0].first.substr(1);
    const OptionDecl& o = lookup(name, d.key_locs[0]);
    Doc cases = d.map[0].second;
    if (!cases.is_map())
      fail(cases.loc, "a choice by option " + name + " maps each of its values to a setting");
    for (std::size_t i = 0; i < cases.map.size(); ++i)
      if (!check_value(name, o, cases.map[i].first).empty())
        fail(cases.key_locs[i], "'" + cases.map[i].first + "' is not a value of option " + name);
    const Doc* chosen = cases.find(o.value);
    if (!chosen)
      fail(cases.loc, "the choice by option " + name + " has no case for '" + o.value + "'");
    Doc replacement = *chosen;
    d = replacement;
    substitute(d, decls);
    return;
  }
  for (auto& item : d.seq) substitute(item, decls);
  for (auto& kv : d.map) substitute(kv.second, decls);
}

}  // namespace

Options resolve_options(Doc& doc, const Options& overrides, int seats) {
  std::map<std::string, OptionDecl> decls;
  OptionDecl first;
  first.type = OptionDecl::Type::integer;
  first.min = 1;
  first.max = seats;
  first.value = "1";
  first.loc = doc.loc;
  decls["first_seat"] = first;
  OptionDecl plies;
  plies.type = OptionDecl::Type::integer;
  plies.min = 0;
  plies.max = 1000000;
  plies.value = "0";
  plies.loc = doc.loc;
  decls["max_plies"] = plies;

  if (const Doc* opts = doc.find("options")) {
    if (!opts->is_map())
      fail(opts->loc, "'options' must be a mapping of option names to declarations");
    for (std::size_t i = 0; i < opts->map.size(); ++i) {
      const auto& [name, decl] = opts->map[i];
      const Loc& kl = opts->key_locs[i];
      OptionDecl o = decls.count(name) ? decls[name] : OptionDecl{};
      o.loc = kl;
      if (!decl.is_map())
        fail(decl.loc, "option " + name +
                           " is declared as a mapping: {values: [...], default: ...} or {type: "
                           "int, default: n}");
      bool builtin = name == "first_seat" || name == "max_plies";
      static const std::vector<std::string> kDeclKeys = keys_under("options.<name>");
      for (std::size_t k = 0; k < decl.map.size(); ++k) {
        const std::string& key = decl.map[k].first;
        if (std::find(kDeclKeys.begin(), kDeclKeys.end(), key) == kDeclKeys.end())
          fail(decl.key_locs[k], "unknown key '" + key + "' in option " +
                                     (name + nearest_or_list(key, kDeclKeys, "allowed")));
      }
      if (const Doc* t = decl.find("type")) {
        if (builtin) fail(t->loc, "option " + name + " is built in; only its default can change");
        if (t->scalar == "int")
          o.type = OptionDecl::Type::integer;
        else if (t->scalar == "bool")
          o.type = OptionDecl::Type::boolean;
        else if (t->scalar == "choice")
          o.type = OptionDecl::Type::choice;
        else
          fail(t->loc, "option type '" + t->scalar + "' is unknown; allowed: choice, int, bool");
      }
      if (const Doc* vals = decl.find("values")) {
        if (builtin)
          fail(vals->loc, "option " + name + " is built in; only its default can change");
        if (!vals->is_seq() || vals->seq.empty())
          fail(vals->loc, "'values' lists the allowed values of option " + name);
        o.type = OptionDecl::Type::choice;
        o.values.clear();
        for (const auto& v : vals->seq) {
          if (!v.is_scalar()) fail(v.loc, "option values are single words");
          o.values.push_back(v.scalar);
        }
      }
      for (const char* bound : {"min", "max"})
        if (const Doc* b = decl.find(bound)) {
          // first_seat and max_plies keep their ranges: the rules read them as int seat and
          // ply numbers (a first_seat of 0 or a max_plies of 10^12 would break them).
          if (builtin) fail(b->loc, "option " + name + " is built in; only its default can change");
          long n = 0;
          if (!b->is_scalar() || !parse_long(b->scalar, n))
            fail(b->loc, std::string("'") + bound + "' must be a whole number");
          (std::string(bound) == "min" ? o.min : o.max) = n;
        }
      if (o.min > o.max) {
        const Doc* max = decl.find("max");
        fail(max ? max->loc : decl.find("min")->loc,
             "option " + name + " has no value: its min, " + std::to_string(o.min) +
                 (decl.find("min") ? "" : " (the default)") + ", is greater than its max, " +
                 std::to_string(o.max) + (max ? "" : " (the default)"));
      }
      if (o.type == OptionDecl::Type::choice && o.values.empty())
        fail(decl.loc, "option " + name + " needs 'values' (or a type: int or bool)");
      const Doc* def = decl.find("default");
      if (!def && !builtin) fail(decl.loc, "option " + name + " needs a 'default'");
      if (def) {
        if (!def->is_scalar())
          fail(def->loc, "the default of option " + name + " is a single value");
        std::string err = check_value(name, o, def->scalar);
        if (!err.empty()) fail(def->loc, err);
        o.value = def->scalar;
      }
      decls[name] = o;
    }
  }

  for (const auto& [name, value] : overrides) {
    auto it = decls.find(name);
    if (it == decls.end()) {
      std::vector<std::string> names;
      names.reserve(decls.size());
      for (const auto& kv : decls) names.push_back(kv.first);
      fail(doc.loc, "unknown option '" + name + "'" +
                        nearest_or_list(name, names, "options of this variant"));
    }
    std::string err = check_value(name, it->second, value);
    if (!err.empty()) fail(it->second.loc, err);
    it->second.value = value;
  }

  for (auto& kv : doc.map)
    if (kv.first != "options") substitute(kv.second, decls);

  Options out;
  for (const auto& kv : decls) out[kv.first] = kv.second.value;
  return out;
}

}  // namespace koma::detail
