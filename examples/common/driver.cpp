#include "driver.hpp"

#include <yaml-cpp/depthguard.h>
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
  if (!vm.count("variant")) throw Failure("--variant FILE is required", "--variant");
  koma::Options options = base;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw Failure("--option takes key=value, not '" + kv + "'", "--option");
      options[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  const std::string path = koma::Variant::locate(vm["variant"].as<std::string>());
  if (!vm.count("first-seat")) return koma::Variant::load(path, options);
  // --first-seat replaces any first_seat; its range is the variant's seats,
  // known once it is loaded.
  options.erase("first_seat");
  auto variant = koma::Variant::load(path, options);
  int seat = checked(vm, "first-seat", 1, 1, variant->seats());
  options["first_seat"] = std::to_string(seat);
  return koma::Variant::load(path, options);
}

koma::Position start_position(const std::shared_ptr<const koma::Variant>& variant,
                              const po::variables_map& vm) {
  if (vm.count("position"))
    return koma::Position::from_text(variant, vm["position"].as<std::string>());
  return variant->start_position();
}

namespace {

std::string record_too_large() {
  return "the record file is larger than " + std::to_string(kMaxRecordFileBytes) +
         " bytes (64 MiB), the limit for a record";
}

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
  // yaml-cpp recurses per level, and its own guard says only "bad file".
  // Brackets inside strings count too (the safe side).
  int depth = 0, deepest = 0;
  for (char c : line) {
    if (c == '[' || c == '{') deepest = std::max(deepest, ++depth);
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  const std::string too_deep = "lists and objects nest deeper than " +
                               std::to_string(kMaxRecordNesting) + " levels, the limit for a game";
  if (deepest > kMaxRecordNesting) bad_record(r, game, too_deep);
  YAML::Node loaded;
  try {
    loaded = YAML::Load(line);
  } catch (const YAML::DeepRecursion&) {  // block nesting ("- - - ...")
    bad_record(r, game, too_deep);
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

namespace {

// Game `game` of a record read from `in`, a line at a time up to that game's.
GameRecord read_records(std::streambuf& in, const std::string& origin, int game) {
  using Traits = std::streambuf::traits_type;
  std::string line;
  std::uintmax_t total = 0;
  int line_no = 0, games = 0;
  for (bool end = false; !end;) {
    line.clear();
    Traits::int_type c;
    while (!Traits::eq_int_type(c = in.sbumpc(), Traits::eof()) && c != '\n') {
      if (line.size() == kMaxRecordLineBytes)
        throw Failure("a line of the record is longer than " + std::to_string(kMaxRecordLineBytes) +
                          " bytes, the limit for one game",
                      origin + ":" + std::to_string(line_no + 1));
      line += Traits::to_char_type(c);
    }
    total += line.size() + 1;
    if (total > kMaxRecordFileBytes + 1) throw Failure(record_too_large(), origin);
    end = Traits::eq_int_type(c, Traits::eof());
    if (end && line.empty()) break;  // as std::getline: a last line needs no newline
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (++games == game) return parse_record(line, origin + ":" + std::to_string(line_no), game);
  }
  throw Failure("there is no game " + std::to_string(game) + "; the record holds " +
                    std::to_string(games) + (games == 1 ? " game" : " games"),
                origin);
}

// A read-only stream buffer over text that is not copied.
struct TextBuffer : std::streambuf {
  explicit TextBuffer(std::string_view text) {
    char* begin = const_cast<char*>(text.data());
    setg(begin, begin, begin + text.size());
  }
};

}  // namespace

GameRecord read_record(const std::string& path, int game) {
  namespace fs = std::filesystem;
  // Checked before the file is opened: a FIFO would block, /dev/zero never end.
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec) throw Failure("cannot read the record file: " + ec.message(), path);
  if (!fs::is_regular_file(st))
    throw Failure(fs::is_directory(st) ? "the record file is a directory, not a regular file"
                                       : "the record file is not a regular file",
                  path);
  if (std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxRecordFileBytes)
    throw Failure(record_too_large(), path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Failure("cannot read the record file: " + std::generic_category().message(errno), path);
  return read_records(*in.rdbuf(), path, game);
}

GameRecord read_record_text(std::string_view text, const std::string& origin, int game) {
  TextBuffer buffer(text);
  return read_records(buffer, origin, game);
}

koma::Options record_options(const GameRecord& record) {
  koma::Options options = record.options;
  if (record.first_seat) options["first_seat"] = std::to_string(*record.first_seat);
  return options;
}

std::optional<koma::Move> play_moves(koma::Game& game, const std::vector<std::string>& moves,
                                     const std::string& where) {
  std::optional<koma::Move> last;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    std::optional<koma::Move> move;
    try {
      move = game.position().parse_move(moves[i]);
    } catch (const koma::Error&) {  // an action, or unreadable: play() says which
    }
    try {
      game.play(moves[i]);
    } catch (const koma::Error& e) {  // NotationError (malformed) or IllegalMove
      throw BadMove("move " + std::to_string(i + 1) + " '" + moves[i] + "' is illegal: " + e.what(),
                    where);
    }
    if (move) last = move;
  }
  return last;
}

koma::Game replay_record(const std::shared_ptr<const koma::Variant>& variant,
                         const po::variables_map& vm, const GameRecord& record) {
  std::optional<koma::Game> game;
  if (vm.count("position") || !record.start) {
    game.emplace(start_position(variant, vm));
  } else {
    try {
      game.emplace(koma::Position::from_text(variant, *record.start));
    } catch (const koma::NotationError& e) {
      throw Failure(std::string("the record's start position: ") + e.what(), record.where);
    }
  }
  play_moves(*game, record.moves, record.where);
  // An outside ending (a match's ply cap, say) is not in the moves: repeat it.
  if (record.result && record.result->reason == koma::Reason::adjudicated) {
    if (game->over())
      throw Failure("the record's result is adjudicated, but its moves end the game already (" +
                        std::string(koma::reason_name(game->result()->reason)) + ")",
                    record.where);
    try {
      game->adjudicate(record.result->places);
    } catch (const koma::IllegalMove& e) {
      throw Failure(std::string("the record's adjudicated result: ") + e.what(), record.where);
    }
  }
  return std::move(*game);
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

void out_of_range(const char* name, const std::string& value, const std::string& min,
                  const std::string& max, bool whole) {
  std::string option = "--";
  option += name;
  throw Failure(option + " takes " + (whole ? "a whole number" : "a number") + " from " + min +
                    " to " + max + ", not '" + value + "'",
                option);
}

std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

koma::Limits search_limits(const po::variables_map& vm) {
  koma::Limits limits;
  limits.nodes = static_cast<std::uint64_t>(checked(vm, "nodes", 0LL, 0LL, kMaxNodes));
  limits.seconds = checked(vm, "seconds", 0.0, 0.0, kMaxSeconds);
  return limits;
}

bool is_terminal(int fd) {
#if defined(_WIN32)
  return _isatty(fd) != 0;
#else
  return isatty(fd) != 0;
#endif
}

}  // namespace driver
