// The JavaScript API of koma (docs/js.md), built to WebAssembly with
// emscripten's embind. It calls the public C++ API only (docs/bindings.md).
// Every entry point catches koma's exceptions and throws a JavaScript Error
// with the same message, its `name` the C++ class ("DescriptorError",
// "NotationError", "IllegalMove", "RecordError", "Error"); no input, of any
// type, aborts the module.
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/koma.hpp"

using emscripten::val;

namespace {

// Descriptors bundled into the module (scripts/wasm.sh embeds variants/ here).
constexpr const char* kBundled = "/share/koma/variants";

EM_JS(void, throw_js_error, (const char* name, const char* message), {
  const error = new Error(UTF8ToString(message));
  error.name = UTF8ToString(name);
  throw error;
});

// The error to throw once the C++ frames are left (a JavaScript throw does
// not run C++ destructors, so nothing owning memory may be alive then).
std::string pending_name, pending_message;

[[noreturn]] void throw_pending() {
  throw_js_error(pending_name.c_str(), pending_message.c_str());
  __builtin_unreachable();
}

// Runs `f`, turning any exception into the pending JavaScript Error.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  bool failed = false;
  try {
    return f();
  } catch (const koma::DescriptorError& e) {
    pending_name = "DescriptorError", pending_message = e.what();
    failed = true;
  } catch (const koma::NotationError& e) {
    pending_name = "NotationError", pending_message = e.what();
    failed = true;
  } catch (const koma::IllegalMove& e) {
    pending_name = "IllegalMove", pending_message = e.what();
    failed = true;
  } catch (const koma::RecordError& e) {
    pending_name = "RecordError", pending_message = std::string(e.what()) + " (" + e.where() + ")";
    failed = true;
  } catch (const std::exception& e) {
    pending_name = "Error", pending_message = e.what();
    failed = true;
  }
  if (failed) throw_pending();
  __builtin_unreachable();
}

[[noreturn]] void fail(const std::string& message) {
  throw koma::Error(message);
}

std::string type_of(const val& v) {
  return v.typeOf().as<std::string>();
}

bool is_array(const val& v) {
  return val::global("Array").call<bool>("isArray", v);
}

// A value's type for messages: typeof, but null and arrays by name (typeof
// says "object" for both).
std::string type_name(const val& v) {
  if (v.isNull()) return "null";
  return is_array(v) ? "array" : type_of(v);
}

// An options object {name: value} as koma::Options; values may be strings,
// numbers or booleans.
koma::Options options_of(const val& object, const char* what) {
  koma::Options out;
  if (object.isUndefined() || object.isNull()) return out;
  if (type_of(object) != "object" || is_array(object))
    fail(std::string(what) + " must be an object of name: value");
  val keys = val::global("Object").call<val>("keys", object);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val value = object[key];
    const std::string t = type_of(value);
    if (t == "string")
      out[key] = value.as<std::string>();
    else if (t == "number" || t == "boolean")
      out[key] = val::global("String")(value).as<std::string>();
    else
      fail(std::string(what) + " '" + key + "' must be a string, number or boolean, not " + t);
  }
  return out;
}

std::string string_of(const val& v, const std::string& what) {
  if (type_of(v) != "string") fail(what + " must be a string, not " + type_name(v));
  return v.as<std::string>();
}

int int_of(const val& v, const std::string& what, int lo, int hi) {
  if (type_of(v) != "number") fail(what + " must be a number, not " + type_name(v));
  const double d = v.as<double>();
  if (!(d >= lo && d <= hi) || d != static_cast<int>(d))
    fail(what + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(d);
}

const char* facing_name(koma::Facing f) {
  static const char* names[] = {"up", "right", "down", "left"};
  return names[static_cast<int>(f)];
}

template <class T>
val array_of(const std::vector<T>& items) {
  val out = val::array();
  for (const auto& item : items) out.call<void>("push", item);
  return out;
}

class JsVariant {
 public:
  explicit JsVariant(std::shared_ptr<const koma::Variant> v) : v_(std::move(v)) {}
  const std::shared_ptr<const koma::Variant>& get() const { return v_; }

  std::string name() const { return v_->name(); }
  std::string title() const { return v_->title(); }
  int width() const { return v_->width(); }
  int height() const { return v_->height(); }
  bool uses_sfen() const { return v_->uses_sfen(); }
  bool has_resignation() const { return v_->has_resignation(); }
  bool has_declaration() const { return v_->has_declaration(); }
  bool captures_to_hand() const { return v_->captures_to_hand(); }
  val options() const {
    val out = val::object();
    for (const auto& [k, value] : v_->options()) out.set(k, value);
    return out;
  }
  // [{seat, name, facing}] in seat order.
  val seats() const {
    val out = val::array();
    for (int s = 1; s <= v_->seats(); ++s) {
      val seat = val::object();
      seat.set("seat", s);
      seat.set("name", v_->seat_name(s));
      seat.set("facing", std::string(facing_name(v_->seat_facing(s))));
      out.call<void>("push", seat);
    }
    return out;
  }
  val turn_order() const { return array_of(v_->turn_order()); }
  // Every cell of the bounding rectangle, row by row from the top: its name,
  // or null for a void.
  val cells() const {
    val out = val::array();
    for (int sq = 0; sq < v_->squares(); ++sq)
      out.call<void>("push", v_->is_square(sq) ? val(v_->square_name(sq)) : val::null());
    return out;
  }
  // [{kind, letter, name, kanji, royal, promoted, promotesTo}] in descriptor order.
  val kinds() const {
    val out = val::array();
    for (int k = 0; k < v_->kinds(); ++k) {
      const koma::PieceKindInfo& info = v_->kind_info(k);
      val kind = val::object();
      kind.set("kind", k);
      kind.set("letter", info.letter);
      kind.set("name", info.name);
      kind.set("kanji", info.kanji);
      kind.set("royal", info.royal);
      kind.set("promoted", info.promoted);
      kind.set("promotesTo", info.promotes_to);
      out.call<void>("push", kind);
    }
    return out;
  }
  std::string start_position() const { return v_->start_position().text(); }

 private:
  std::shared_ptr<const koma::Variant> v_;
};

bool looks_like_yaml(const std::string& text) {
  return text.find('\n') != std::string::npos || text.rfind("koma:", 0) == 0;
}

JsVariant load_variant(val source, val options) {
  return guarded([&] {
    const std::string text = string_of(source, "the variant");
    const koma::Options o = options_of(options, "options");
    if (looks_like_yaml(text)) return JsVariant(koma::Variant::parse(text, "<yaml>", o, kBundled));
    std::error_code ec;
    std::string path = std::string(kBundled) + "/" + text + ".yaml";
    if (text.find('/') != std::string::npos || !std::filesystem::is_regular_file(path, ec))
      path = text;  // a path in the module's file system
    if (!std::filesystem::is_regular_file(path, ec))
      fail("no variant named '" + koma::escape_text(text, 200) +
           "'; variants() lists the bundled ones");
    return JsVariant(koma::Variant::load(path, o));
  });
}

val bundled_variants() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(kBundled, ec))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return array_of(names);
}

class JsGame {
 public:
  explicit JsGame(const JsVariant& v) : game_(guarded([&] { return koma::Game(v.get()); })) {}
  JsGame(const JsVariant& v, val position)
      : game_(guarded([&] {
          return koma::Game(
              koma::Position::from_text(v.get(), string_of(position, "the position")));
        })) {}
  const koma::Game& get() const { return game_; }
  koma::Game& get() { return game_; }

  val legal_moves() const {
    const koma::Position& p = game_.position();
    val out = val::array();
    for (koma::Move m : game_.legal_moves()) out.call<void>("push", p.move_text(m));
    return out;
  }
  // The legal moves of the piece on a square ("5g"), or the drops of a kind
  // ("P*": its letter and a star; "+P*" for drops promoted side up).
  val moves_from(val where) const {
    return guarded([&] {
      const std::string text = string_of(where, "the square");
      const koma::Position& p = game_.position();
      const koma::Variant& v = game_.variant();
      val out = val::array();
      if (!text.empty() && text.back() == '*') {
        auto kind = v.kind_by_letter(text.substr(0, text.size() - 1));
        if (!kind) fail("no piece letter '" + koma::escape_text(text, 20) + "' in this variant");
        for (koma::Move m : game_.legal_moves())
          if (m.is_drop() && m.kind == *kind) out.call<void>("push", p.move_text(m));
        return out;
      }
      auto sq = v.parse_square(text);
      if (!sq) fail("'" + koma::escape_text(text, 20) + "' is not a square of this board");
      for (koma::Move m : game_.legal_moves())
        if (!m.is_drop() && m.from == *sq) out.call<void>("push", p.move_text(m));
      return out;
    });
  }
  void play(val move) {
    guarded([&] { game_.play(string_of(move, "the move")); });
  }
  void undo() {
    guarded([&] { game_.undo(); });
  }
  std::string why_illegal(val move) const {
    return guarded([&] {
      return game_.why_illegal(game_.position().parse_move(string_of(move, "the move")));
    });
  }
  std::string position() const { return game_.position().text(); }
  int to_move() const { return game_.position().to_move(); }
  bool in_check() const { return game_.position().in_check(game_.position().to_move()); }
  bool over() const { return game_.over(); }
  val seats_in_check() const { return array_of(game_.position().seats_in_check()); }
  val eliminated() const { return array_of(game_.position().eliminated()); }
  val history() const { return array_of(game_.history()); }
  // One object per seat: {letter: count} of what it holds.
  val hands() const {
    const koma::Variant& v = game_.variant();
    val out = val::array();
    for (int s = 1; s <= v.seats(); ++s) {
      val hand = val::object();
      for (int k = 0; k < v.kinds(); ++k)
        if (int n = game_.position().in_hand(s, k)) hand.set(v.kind_info(k).letter, n);
      out.call<void>("push", hand);
    }
    return out;
  }
  // The occupied cells: [{square, name, kind, letter, owner, facing, overturned}].
  val board() const {
    const koma::Variant& v = game_.variant();
    val out = val::array();
    for (int sq = 0; sq < v.squares(); ++sq) {
      auto piece = game_.position().at(sq);
      if (!piece) continue;
      val cell = val::object();
      cell.set("square", sq);
      cell.set("name", v.square_name(sq));
      cell.set("kind", piece->kind);
      cell.set("letter", v.kind_info(piece->kind).letter);
      cell.set("owner", piece->owner);
      cell.set("facing", std::string(facing_name(piece->facing)));
      cell.set("overturned", piece->overturned);
      out.call<void>("push", cell);
    }
    return out;
  }
  val result() const {
    auto r = game_.result();
    if (!r) return val::null();
    val out = val::object();
    out.set("places", array_of(r->places));
    out.set("reason", std::string(koma::reason_name(r->reason)));
    return out;
  }

 private:
  koma::Game game_;
};

double perft_of(const JsVariant& v, val depth, val position) {
  return guarded([&] {
    const int d = int_of(depth, "the depth", 0, 64);
    koma::Game g =
        position.isUndefined() || position.isNull()
            ? koma::Game(v.get())
            : koma::Game(koma::Position::from_text(v.get(), string_of(position, "the position")));
    return static_cast<double>(koma::perft(g, d));
  });
}

// A game record line as a plain object (docs/notation.md#game-records).
val record_object(const koma::GameRecord& r) {
  val out = val::object();
  out.set("variant", r.variant);
  out.set("descriptor", r.descriptor);
  val options = val::object();
  for (const auto& [k, value] : r.options) options.set(k, value);
  out.set("options", options);
  out.set("firstSeat", r.first_seat ? val(*r.first_seat) : val::null());
  out.set("start", r.start ? val(*r.start) : val::null());
  out.set("seats", array_of(r.seats));
  out.set("moves", array_of(r.moves));
  if (r.result) {
    val result = val::object();
    result.set("places", array_of(r.result->places));
    result.set("reason", std::string(koma::reason_name(r.result->reason)));
    out.set("result", result);
  } else {
    out.set("result", val::null());
  }
  out.set("where", r.where);
  return out;
}

// Game `game` (from 1) of a record file's text.
val read_record(val text, val game) {
  return guarded([&] {
    return record_object(koma::read_record_text(string_of(text, "the record"), "<record>",
                                                int_of(game, "the game", 1, 100000000)));
  });
}

// writeRecord's input: readRecord's objects, or the same keys set by hand.
// A missing or null descriptor, options, firstSeat, start or result is the
// C++ default ("", none, absent); `where` is not written, so not read.

bool absent(const val& v) {
  return v.isUndefined() || v.isNull();
}

// Refuses a key not in `keys`: a misspelt or snake_case key ("first_seat", as
// in the file) would otherwise be dropped from the line without a word.
void only_keys(const val& object, std::initializer_list<std::string_view> keys,
               const std::string& what) {
  const val names = val::global("Object").call<val>("keys", object);
  const int n = names["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string name = names[i].as<std::string>();
    if (std::find(keys.begin(), keys.end(), name) != keys.end()) continue;
    std::string known;
    for (std::string_view k : keys) known += (known.empty() ? "" : ", ") + std::string(k);
    fail(what + " has an unknown key '" + koma::escape_text(name, 40) + "'; its keys are " + known);
  }
}

// The entries of an array, each checked by `item` and named what[i] in errors.
template <class Item>
auto entries_of(const val& list, const std::string& what, const char* of, Item&& item) {
  if (!is_array(list)) fail(what + " must be an array of " + of + ", not " + type_name(list));
  std::vector<decltype(item(list, what))> out;
  const int n = list["length"].as<int>();
  for (int i = 0; i < n; ++i) out.push_back(item(list[i], what + "[" + std::to_string(i) + "]"));
  return out;
}

std::vector<std::string> strings_of(const val& list, const std::string& what) {
  return entries_of(list, what, "strings", string_of);
}

// Any int, as the record's reader takes (it does not check a seat's range).
int whole_of(const val& v, const std::string& what) {
  return int_of(v, what, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
}

// A reason word as readRecord and Game.result() name it (reason_name), the
// reverse of the name: "none", which an unknown word reads as, included.
koma::Reason reason_of(const val& v) {
  const std::string word = string_of(v, "record.result.reason");
  const koma::Reason reason = koma::reason_from_name(word);
  if (koma::reason_name(reason) == word) return reason;
  std::string words;
  for (int i = 0; i < koma::kReasonCount; ++i)
    words += (i ? ", " : "") + std::string(koma::reason_name(static_cast<koma::Reason>(i)));
  fail("record.result.reason '" + koma::escape_text(word, 40) + "' is not a reason word: " + words);
}

std::optional<koma::Result> result_of(const val& v) {
  if (absent(v)) return std::nullopt;
  if (type_of(v) != "object" || is_array(v))
    fail("record.result must be null or an object {places, reason}, not " + type_name(v));
  only_keys(v, {"places", "reason"}, "record.result");
  koma::Result result;
  result.places = entries_of(v["places"], "record.result.places", "whole numbers", whole_of);
  result.reason = reason_of(v["reason"]);
  return result;
}

koma::GameRecord game_record_of(const val& record) {
  if (type_of(record) != "object" || record.isNull() || is_array(record))
    fail("the record must be an object, not " + type_name(record));
  only_keys(record,
            {"variant", "descriptor", "options", "firstSeat", "start", "seats", "moves", "result",
             "where"},
            "the record");
  koma::GameRecord r;
  r.variant = string_of(record["variant"], "record.variant");
  if (const val d = record["descriptor"]; !absent(d))
    r.descriptor = string_of(d, "record.descriptor");
  r.options = options_of(record["options"], "record.options");
  if (const val s = record["firstSeat"]; !absent(s)) r.first_seat = whole_of(s, "record.firstSeat");
  if (const val s = record["start"]; !absent(s)) r.start = string_of(s, "record.start");
  r.seats = strings_of(record["seats"], "record.seats");
  r.moves = strings_of(record["moves"], "record.moves");
  r.result = result_of(record["result"]);
  return r;
}

// One line of a record file for a record object, without the newline.
std::string write_record(val record) {
  return guarded([&] { return koma::record_line(game_record_of(record)); });
}

class JsPlayer {
 public:
  JsPlayer(const JsVariant& v, val level, val limits)
      : variant_(v.get()), player_(guarded([&] { return make(level, limits); })) {}

  std::string choose(JsGame& game) {
    return guarded([&] {
      if (&game.get().variant() != variant_.get())
        fail("the game is of another variant than this player's");
      const koma::Move m = player_->choose(game.get());
      return game.get().position().move_text(m);
    });
  }

 private:
  static std::unique_ptr<koma::Player> make(const val& level, const val& limits) {
    const std::string name = string_of(level, "the level");
    auto l = koma::level_from_name(name);
    if (!l)
      fail("no CPU level '" + koma::escape_text(name, 40) +
           "'; levels: easy, normal, medium, strong, hard, expert");
    koma::Limits lim;
    if (!limits.isUndefined() && !limits.isNull()) {
      if (type_of(limits) != "object") fail("the limits must be an object");
      if (!limits["nodes"].isUndefined())
        lim.nodes = static_cast<std::uint64_t>(int_of(limits["nodes"], "nodes", 0, 2000000000));
      if (!limits["depth"].isUndefined()) lim.depth = int_of(limits["depth"], "depth", 0, 64);
      if (!limits["seed"].isUndefined())
        lim.seed = static_cast<std::uint64_t>(int_of(limits["seed"], "seed", 0, 2147483647));
      if (!limits["seconds"].isUndefined()) {
        if (type_of(limits["seconds"]) != "number") fail("seconds must be a number");
        lim.seconds = limits["seconds"].as<double>();
      }
    }
    return std::make_unique<koma::Player>(*l, lim);
  }

  std::shared_ptr<const koma::Variant> variant_;
  std::unique_ptr<koma::Player> player_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(koma) {
  using namespace emscripten;
  class_<JsVariant>("Variant")
      .property("name", &JsVariant::name)
      .property("title", &JsVariant::title)
      .property("width", &JsVariant::width)
      .property("height", &JsVariant::height)
      .property("usesSfen", &JsVariant::uses_sfen)
      .property("hasResignation", &JsVariant::has_resignation)
      .property("hasDeclaration", &JsVariant::has_declaration)
      .property("capturesToHand", &JsVariant::captures_to_hand)
      .function("options", &JsVariant::options)
      .function("seats", &JsVariant::seats)
      .function("turnOrder", &JsVariant::turn_order)
      .function("cells", &JsVariant::cells)
      .function("kinds", &JsVariant::kinds)
      .function("startPosition", &JsVariant::start_position);
  class_<JsGame>("Game")
      .constructor<const JsVariant&>()
      .constructor<const JsVariant&, val>()
      .function("legalMoves", &JsGame::legal_moves)
      .function("movesFrom", &JsGame::moves_from)
      .function("play", &JsGame::play)
      .function("undo", &JsGame::undo)
      .function("whyIllegal", &JsGame::why_illegal)
      .function("position", &JsGame::position)
      .function("toMove", &JsGame::to_move)
      .function("inCheck", &JsGame::in_check)
      .function("over", &JsGame::over)
      .function("seatsInCheck", &JsGame::seats_in_check)
      .function("eliminated", &JsGame::eliminated)
      .function("history", &JsGame::history)
      .function("hands", &JsGame::hands)
      .function("board", &JsGame::board)
      .function("result", &JsGame::result);
  class_<JsPlayer>("Player").constructor<const JsVariant&, val, val>().function("choose",
                                                                                &JsPlayer::choose);
  function("loadVariant", &load_variant);
  function("variants", &bundled_variants);
  function("perft", &perft_of);
  function("readRecord", &read_record);
  function("writeRecord", &write_record);
}
