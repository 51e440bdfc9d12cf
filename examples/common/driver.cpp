#include "driver.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <system_error>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

namespace po = boost::program_options;

namespace driver {

void add_common(po::options_description& desc) {
  desc.add_options()("help,h", "show this help")(
      "variant", po::value<std::string>(),
      "descriptor file (or a name found in share/koma/variants)")(
      "option", po::value<std::vector<std::string>>()->composing(),
      "key=value descriptor option override (repeatable)")(
      "first-seat", po::value<int>(), "seat to move first (shorthand for --option first_seat=N)")(
      "position", po::value<std::string>(),
      "start position (SFEN for SFEN variants, else generic text)");
}

std::shared_ptr<const koma::Variant> load_variant(const po::variables_map& vm,
                                                  const koma::Options& base) {
  if (!vm.count("variant")) throw Failure("--variant FILE is required");
  koma::Options options = base;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Failure("--option takes key=value, not '" + kv + "'");
      options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  if (vm.count("first-seat")) options["first_seat"] = std::to_string(vm["first-seat"].as<int>());
  return koma::Variant::load(koma::Variant::locate(vm["variant"].as<std::string>()), options);
}

koma::Position start_position(const std::shared_ptr<const koma::Variant>& variant,
                              const po::variables_map& vm) {
  if (vm.count("position"))
    return koma::Position::from_text(variant, vm["position"].as<std::string>());
  return variant->start_position();
}

namespace {

// A malformed record line: "game N: <what>" at FILE:LINE.
[[noreturn]] void bad_record(const GameRecord& r, int game, const std::string& what) {
  throw Failure("game " + std::to_string(game) + " of the record: " + what, r.where);
}

std::string scalar(const GameRecord& r, int game, const YAML::Node& node, const std::string& what) {
  if (!node.IsScalar()) bad_record(r, game, what + " must be a single value");
  return node.Scalar();
}

int integer(const GameRecord& r, int game, const YAML::Node& node, const std::string& what) {
  std::string text = scalar(r, game, node, what);
  try {
    std::size_t used = 0;
    int n = std::stoi(text, &used);
    if (used == text.size()) return n;
  } catch (const std::exception&) {
  }
  bad_record(r, game, what + " must be a whole number, not '" + text + "'");
}

std::vector<std::string> strings(const GameRecord& r, int game, const YAML::Node& node,
                                 const std::string& what) {
  if (!node.IsSequence()) bad_record(r, game, what + " must be a list");
  std::vector<std::string> out;
  for (const auto& item : node) out.push_back(scalar(r, game, item, "each entry of " + what));
  return out;
}

GameRecord parse_record(const std::string& line, const std::string& where, int game) {
  GameRecord r;
  r.where = where;
  YAML::Node loaded;
  try {
    loaded = YAML::Load(line);
  } catch (const YAML::ParserException& e) {
    throw Failure("game " + std::to_string(game) + " of the record: " + e.msg,
                  where + ":" + std::to_string(e.mark.column + 1));
  }
  const YAML::Node& doc = loaded;  // const: looking a key up must not add it
  if (!doc.IsMap()) bad_record(r, game, "a game is one JSON object");
  if (auto n = doc["variant"]; n && !n.IsNull()) r.variant = scalar(r, game, n, "'variant'");
  if (auto n = doc["descriptor"]; n && !n.IsNull())
    r.descriptor = scalar(r, game, n, "'descriptor'");
  if (auto n = doc["options"]; n && !n.IsNull()) {
    if (!n.IsMap()) bad_record(r, game, "'options' must be an object of key: value");
    for (const auto& kv : n) {
      std::string key = scalar(r, game, kv.first, "an option name");
      r.options[key] = scalar(r, game, kv.second, "option '" + key + "'");
    }
  }
  if (auto n = doc["first_seat"]; n && !n.IsNull())
    r.first_seat = integer(r, game, n, "'first_seat'");
  if (auto n = doc["start"]; n && !n.IsNull()) r.start = scalar(r, game, n, "'start'");
  if (auto n = doc["seats"]; n && !n.IsNull()) r.seats = strings(r, game, n, "'seats'");
  if (auto n = doc["moves"]; n && !n.IsNull()) r.moves = strings(r, game, n, "'moves'");
  if (auto n = doc["result"]; n && !n.IsNull()) {
    if (!n.IsMap()) bad_record(r, game, "'result' must be null or an object");
    koma::Result result;
    if (auto places = n["places"]; places && !places.IsNull()) {
      if (!places.IsSequence()) bad_record(r, game, "'places' must be a list");
      for (const auto& p : places) result.places.push_back(integer(r, game, p, "each place"));
    }
    if (auto reason = n["reason"]; reason && !reason.IsNull())
      result.reason = koma::reason_from_name(scalar(r, game, reason, "'reason'"));
    r.result = result;
  }
  return r;
}

}  // namespace

GameRecord read_record(const std::string& path, int game) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Failure("cannot read the record file", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Failure("cannot read the record file", path);
  return read_record_text(text.str(), path, game);
}

GameRecord read_record_text(std::string_view text, const std::string& origin, int game) {
  int line_no = 0, games = 0;
  std::optional<GameRecord> found;
  // Lines as std::getline splits them: a last line needs no newline.
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (++games != game) continue;
    std::string where = origin;
    where += ':';
    where += std::to_string(line_no);
    if (line.size() > kMaxRecordLineBytes) {
      std::string what = "game ";
      what += std::to_string(game);
      what += " of the record is longer than ";
      what += std::to_string(kMaxRecordLineBytes);
      what += " bytes, the limit for one game";
      throw Failure(what, where);
    }
    found = parse_record(std::string(line), where, game);
  }
  if (!found)
    throw Failure("there is no game " + std::to_string(game) + "; the record holds " +
                      std::to_string(games) + (games == 1 ? " game" : " games"),
                  origin);
  return *found;
}

void write_file(const std::string& path, std::string_view content, const std::string& what) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& reason) {
    throw Failure("cannot write " + what + ": " + reason, path);
  };
  auto reason = [] { return std::generic_category().message(errno); };
  // Writes `content` to an open file and closes it; the reason on failure.
  auto put = [&](std::FILE* f) {
    bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    ok = std::fflush(f) == 0 && ok;
    std::string why = ok ? "" : reason();
    if (std::fclose(f) != 0 && ok) why = reason();
    return why;
  };
  // A special file (a device, a FIFO) or a link that points nowhere is
  // written in place, and left as it is if that fails.
  std::error_code ec;
  fs::path target = path;
  const fs::file_status st = fs::status(target, ec);  // what a link points to
  bool in_place =
      fs::exists(st) ? !fs::is_regular_file(st) : fs::is_symlink(fs::symlink_status(target, ec));
  if (!in_place && fs::exists(st)) {
    target = fs::canonical(target, ec);  // a link stays a link: its file is replaced
    in_place = static_cast<bool>(ec);
  }
  auto write_in_place = [&] {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) fail(reason());
    if (std::string why = put(f); !why.empty()) fail(why);
  };
  if (in_place) return write_in_place();
  // A new file under a name no other file has ("x": created, never opened).
  std::string temporary;
  std::FILE* f = nullptr;
  std::random_device random;
  for (int attempt = 0; !f && attempt < 100; ++attempt) {
    temporary = target.string() + "." + std::to_string(random() % 1000000) + ".tmp";
    f = std::fopen(temporary.c_str(), "wbx");
    if (!f && errno != EEXIST) break;
  }
  if (!f) {
    // A folder this user may not write to, holding a file they may.
    if ((errno == EACCES || errno == EPERM) && fs::exists(st)) return write_in_place();
    fail(reason());
  }
  if (std::string why = put(f); !why.empty()) {
    std::remove(temporary.c_str());
    fail(why);
  }
  if (fs::exists(st)) fs::permissions(temporary, st.permissions(), ec);
  fs::rename(temporary, target, ec);
  if (ec) {
    std::remove(temporary.c_str());
    fail(ec.message());
  }
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (auto u = static_cast<unsigned char>(c); u < 0x20 || u == 0x7f) {
          char buf[8];  // DEL too: YAML, which reads the records, does not take it raw
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(u));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

std::string record_line(const GameRecord& r) {
  auto list = [](const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
    return out + "]";
  };
  std::string out = "{\"variant\": " + json_string(r.variant) +
                    ", \"descriptor\": " + json_string(r.descriptor) + ", \"options\": {";
  bool first = true;
  for (const auto& [key, value] : r.options) {
    out += (first ? "" : ", ") + json_string(key) + ": " + json_string(value);
    first = false;
  }
  out += "}, \"first_seat\": " + (r.first_seat ? std::to_string(*r.first_seat) : "null");
  out += ", \"start\": " + (r.start ? json_string(*r.start) : "null");
  out += ", \"seats\": " + list(r.seats) + ", \"moves\": " + list(r.moves) + ", \"result\": ";
  if (r.result) {
    out += "{\"places\": [";
    for (std::size_t i = 0; i < r.result->places.size(); ++i)
      out += (i ? ", " : "") + std::to_string(r.result->places[i]);
    out += "], \"reason\": " + json_string(koma::reason_name(r.result->reason)) + "}";
  } else {
    out += "null";
  }
  return out + "}";
}

po::variables_map parse(int argc, char** argv, const po::options_description& desc,
                        const std::string& usage) {
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << usage << "\n" << desc << "\n";
    std::exit(0);
  }
  return vm;
}

int run(const std::string& name, int (*body)(int, char**), int argc, char** argv) {
  try {
    return body(argc, argv);
  } catch (const koma::DescriptorError& e) {
    std::cerr << name << ": " << e.message() << " (" << e.file();
    if (e.line() > 0) std::cerr << ":" << e.line() << ":" << e.column();
    std::cerr << ")\n";
  } catch (const Failure& e) {
    std::cerr << name << ": " << e.what() << " (" << (e.where.empty() ? name : e.where) << ")\n";
  } catch (const po::error& e) {
    std::cerr << name << ": " << e.what() << " (command line)\n";
  } catch (const koma::NotationError& e) {
    std::cerr << name << ": " << e.what() << " (--position)\n";
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << " (" << name << ")\n";
  }
  return 1;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t from = 0;;) {
    std::size_t comma = list.find(',', from);
    std::string item = list.substr(from, comma == std::string::npos ? comma : comma - from);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    out.push_back(item);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

bool is_terminal(int fd) {
#if defined(_WIN32)
  return _isatty(fd) != 0;
#else
  return isatty(fd) != 0;
#endif
}

}  // namespace driver
