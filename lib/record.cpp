// Game records (include/koma/record.hpp, docs/notation.md#game-records).
#include "koma/record.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <streambuf>
#include <system_error>
#include <utility>

namespace koma {

RecordError::RecordError(const std::string& message, std::string where)
    : Error(message), where_(std::move(where)) {}

RecordMoveError::RecordMoveError(std::size_t index, std::string move, std::string reason,
                                 std::string where)
    : RecordError("move " + std::to_string(index) + " '" + escape_text(move, 80) +
                      "' is illegal: " + reason,
                  std::move(where)),
      index_(index),
      move_(std::move(move)),
      reason_(std::move(reason)) {}

namespace {

std::string record_too_large() {
  return "the record file is larger than " + std::to_string(kMaxRecordFileBytes) +
         " bytes (64 MiB), the limit for a record";
}

// A malformed record line: "game N of the record: <what>" at FILE:LINE.
[[noreturn]] void bad_record(const GameRecord& r, int game, const std::string& what) {
  throw RecordError("game " + std::to_string(game) + " of the record: " + what, r.where);
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

// A JSON object names each key once, as a descriptor's mappings must
// (yaml-cpp keeps both entries and a lookup finds the first).
void check_unique_keys(const GameRecord& r, int game, const YAML::Node& object,
                       const std::string& what) {
  std::vector<std::string> seen;
  for (const auto& kv : object) {
    if (!kv.first.IsScalar()) continue;
    const std::string& key = kv.first.Scalar();
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      bad_record(r, game, what + " has the key '" + escape_text(key, 40) + "' twice");
    seen.push_back(key);
  }
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
    throw RecordError("game " + std::to_string(game) + " of the record: " + e.msg,
                      where + ":" + std::to_string(e.mark.column + 1));
  }
  const YAML::Node& doc = loaded;  // const: looking a key up must not add it
  if (!doc.IsMap()) bad_record(r, game, "a game is one JSON object");
  check_unique_keys(r, game, doc, "the game");
  if (auto n = doc["variant"]; n && !n.IsNull()) r.variant = scalar(r, game, n, "'variant'");
  if (auto n = doc["descriptor"]; n && !n.IsNull())
    r.descriptor = scalar(r, game, n, "'descriptor'");
  if (auto n = doc["options"]; n && !n.IsNull()) {
    if (!n.IsMap()) bad_record(r, game, "'options' must be an object of key: value");
    check_unique_keys(r, game, n, "'options'");
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
    check_unique_keys(r, game, n, "'result'");
    Result result;
    if (auto places = n["places"]; places && !places.IsNull()) {
      if (!places.IsSequence()) bad_record(r, game, "'places' must be a list");
      for (const auto& p : places) result.places.push_back(integer(r, game, p, "each place"));
    }
    if (auto reason = n["reason"]; reason && !reason.IsNull())
      result.reason = reason_from_name(scalar(r, game, reason, "'reason'"));
    r.result = result;
  }
  return r;
}

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
        throw RecordError("a line of the record is longer than " +
                              std::to_string(kMaxRecordLineBytes) +
                              " bytes, the limit for one game",
                          origin + ":" + std::to_string(line_no + 1));
      line += Traits::to_char_type(c);
    }
    total += line.size() + 1;
    if (total > kMaxRecordFileBytes + 1) throw RecordError(record_too_large(), origin);
    end = Traits::eq_int_type(c, Traits::eof());
    if (end && line.empty()) break;  // as std::getline: a last line needs no newline
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (++games == game) return parse_record(line, origin + ":" + std::to_string(line_no), game);
  }
  throw RecordError("there is no game " + std::to_string(game) + "; the record holds " +
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
  if (ec) throw RecordError("cannot read the record file: " + ec.message(), path);
  if (!fs::is_regular_file(st))
    throw RecordError(fs::is_directory(st) ? "the record file is a directory, not a regular file"
                                           : "the record file is not a regular file",
                      path);
  if (std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxRecordFileBytes)
    throw RecordError(record_too_large(), path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw RecordError("cannot read the record file: " + std::generic_category().message(errno),
                      path);
  return read_records(*in.rdbuf(), path, game);
}

GameRecord read_record_text(std::string_view text, const std::string& origin, int game) {
  TextBuffer buffer(text);
  return read_records(buffer, origin, game);
}

Options record_options(const GameRecord& record) {
  Options options = record.options;
  if (record.first_seat) options["first_seat"] = std::to_string(*record.first_seat);
  return options;
}

std::optional<Move> play_moves(Game& game, const std::vector<std::string>& moves,
                               const std::string& where) {
  std::optional<Move> last;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    std::optional<Move> move;
    try {
      move = game.position().parse_move(moves[i]);
    } catch (const Error&) {  // an action, or unreadable: play() says which
    }
    try {
      game.play(moves[i]);
    } catch (const Error& e) {  // NotationError (malformed) or IllegalMove
      throw RecordMoveError(i + 1, moves[i], e.what(), where);
    }
    if (move) last = move;
  }
  return last;
}

Game replay_record(const std::shared_ptr<const Variant>& variant, const GameRecord& record) {
  auto start = [&] {
    if (!record.start) return Game(variant);
    try {
      return Game(Position::from_text(variant, *record.start));
    } catch (const NotationError& e) {
      throw RecordError(std::string("the record's start position: ") + e.what(), record.where);
    }
  };
  Game game = start();
  play_moves(game, record.moves, record.where);
  // An outside ending (a match's ply cap, say) is not in the moves: repeat it.
  if (record.result && record.result->reason == Reason::adjudicated) {
    if (game.over())
      throw RecordError("the record's result is adjudicated, but its moves end the game already (" +
                            std::string(reason_name(game.result()->reason)) + ")",
                        record.where);
    try {
      game.adjudicate(record.result->places);
    } catch (const IllegalMove& e) {
      throw RecordError(std::string("the record's adjudicated result: ") + e.what(), record.where);
    }
  }
  return game;
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
          std::array<char, 8>
              buf{};  // DEL too: YAML, which reads the records, does not take it raw
          std::snprintf(buf.data(), buf.size(), "\\u%04x", static_cast<unsigned>(u));
          out += buf.data();
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
    out += "], \"reason\": " + json_string(reason_name(r.result->reason)) + "}";
  } else {
    out += "null";
  }
  return out + "}";
}

bool GameRecord::operator==(const GameRecord& o) const {
  return variant == o.variant && descriptor == o.descriptor && options == o.options &&
         first_seat == o.first_seat && start == o.start && seats == o.seats && moves == o.moves &&
         result == o.result;
}

}  // namespace koma
