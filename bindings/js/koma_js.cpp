// The JavaScript API of koma (docs/js.md), built to WebAssembly with
// emscripten's embind. It calls the public C++ API only (docs/bindings.md).
// Every entry point that can fail catches koma's exceptions and hands the
// refusal to post.js, which throws a JavaScript Error with the same message,
// its `name` the C++ class ("DescriptorError", "NotationError",
// "IllegalMove", "RecordError", "Error"), once the call into WebAssembly has
// returned; no input, of any type, aborts the module or leaves anything
// behind. Variant, Game and Player are held by shared_ptr, so that embind
// frees one its caller dropped without delete() when it is garbage-collected.
#include <emscripten.h>
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "koma/koma.hpp"

using emscripten::val;

namespace {

// Descriptors bundled into the module (scripts/wasm.sh embeds variants/ here).
constexpr const char* kBundled = "/share/koma/variants";

// A refusal for post.js to throw as Error(message) named `name`, once the
// call has returned (komaRefusal is post.js's).
EM_JS(void, report_refusal, (const char* name, const char* message),
      { komaRefusal = {name : UTF8ToString(name), message : UTF8ToString(message)}; });

// The JavaScript operations on a caller's values that may run the caller's
// code (a getter, a Proxy's trap). A throw there is caught in JavaScript and
// kept for post.js to throw again as it was; the answer is then 0 (no
// handle) or -1, and C++ unwinds with JsThrew.
EM_JS(emscripten::EM_VAL, js_get, (emscripten::EM_VAL object, emscripten::EM_VAL key), {
  try {
    return Emval.toHandle(Emval.toValue(object)[Emval.toValue(key)]);
  } catch (e) {
    komaRefusal = {thrown : e};
    return 0;
  }
});

EM_JS(emscripten::EM_VAL, js_keys, (emscripten::EM_VAL object), {
  try {
    return Emval.toHandle(Object.keys(Emval.toValue(object)));
  } catch (e) {
    komaRefusal = {thrown : e};
    return 0;
  }
});

EM_JS(int, js_is_array, (emscripten::EM_VAL value), {
  try {
    return Array.isArray(Emval.toValue(value)) ? 1 : 0;
  } catch (e) {
    komaRefusal = {thrown : e};
    return -1;
  }
});

// The caller's code threw (the exception is kept for post.js).
struct JsThrew {};

val handle_or_throw(emscripten::EM_VAL handle) {
  if (!handle) throw JsThrew{};
  return val::take_ownership(handle);
}

// object[key], and Object.keys(object).
val get(const val& object, const val& key) {
  return handle_or_throw(js_get(object.as_handle(), key.as_handle()));
}
val get(const val& object, const char* key) {
  return get(object, val(key));
}
val keys_of(const val& object) {
  return handle_or_throw(js_keys(object.as_handle()));
}

bool is_array(const val& v) {
  const int answer = js_is_array(v.as_handle());
  if (answer < 0) throw JsThrew{};
  return answer == 1;
}

// What a refused call returns (post.js throws instead of returning it): for
// a Variant, Game or Player, null.
template <class R>
R refused() {
  if constexpr (std::is_same_v<R, val>)
    return val::undefined();
  else
    return R{};
}

// Runs `f`, turning any exception into a refusal for post.js.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  using R = decltype(f());
  try {
    return f();
  } catch (const JsThrew&) {
    // The caller's exception is kept already.
  } catch (const koma::DescriptorError& e) {
    report_refusal("DescriptorError", e.what());
  } catch (const koma::NotationError& e) {
    report_refusal("NotationError", e.what());
  } catch (const koma::IllegalMove& e) {
    report_refusal("IllegalMove", e.what());
  } catch (const koma::RecordError& e) {
    report_refusal("RecordError", (std::string(e.what()) + " (" + e.where() + ")").c_str());
  } catch (const std::exception& e) {
    report_refusal("Error", e.what());
  }
  if constexpr (!std::is_void_v<R>) return refused<R>();
}

[[noreturn]] void fail(const std::string& message) {
  throw koma::Error(message);
}

std::string type_of(const val& v) {
  return v.typeOf().as<std::string>();
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// A JavaScript string (typeof "string") as UTF-8. embind's own conversion
// turns a lone surrogate into another character (U+10000 at a string's
// end), so the string is read as its UTF-16 code units and one that is not
// well-formed UTF-16 is refused, naming `what`.
std::string utf8_of(const val& text, const std::string& what) {
  const std::u16string units = text.as<std::u16string>();
  std::string out;
  out.reserve(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    char32_t c = units[i];
    if (c >= 0xD800 && c <= 0xDFFF) {
      const bool pair =
          c <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF;
      if (!pair) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(c));
        fail(what + " is not well-formed UTF-16: a lone surrogate U+" + hex + " at index " +
             std::to_string(i));
      }
      c = 0x10000 + ((c - 0xD800) << 10) + (units[++i] - 0xDC00);
    }
    append_utf8(out, c);
  }
  return out;
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
  const val keys = keys_of(object);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = utf8_of(keys[i], std::string("a key of ") + what);
    const val value = get(object, keys[i]);
    const std::string t = type_of(value);
    if (t == "string")
      out[key] = utf8_of(value, std::string(what) + " '" + koma::escape_text(key, 40) + "'");
    else if (t == "number" || t == "boolean")
      out[key] = val::global("String")(value).as<std::string>();
    else
      fail(std::string(what) + " '" + koma::escape_text(key, 40) +
           "' must be a string, number or boolean, not " + t);
  }
  return out;
}

std::string string_of(const val& v, const std::string& what) {
  if (type_of(v) != "string") fail(what + " must be a string, not " + type_name(v));
  return utf8_of(v, what);
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

// The variant read from `source` (a descriptor's text, or the path of a
// file) with `options`, loaded once while any Variant, Game or Player of it
// lives: a second load of the same source and options shares the first's
// rules. The module's files never change (the bundled descriptors; the
// module exports no file system), so neither does what a source reads as.
template <class Load>
std::shared_ptr<const koma::Variant> shared_variant(const std::string& source,
                                                    const koma::Options& options, Load&& load) {
  static std::map<std::pair<std::string, koma::Options>, std::weak_ptr<const koma::Variant>> loaded;
  auto key = std::make_pair(source, options);
  if (auto it = loaded.find(key); it != loaded.end())
    if (auto variant = it->second.lock()) return variant;
  std::shared_ptr<const koma::Variant> variant = load();
  std::erase_if(loaded, [](const auto& entry) { return entry.second.expired(); });
  loaded[std::move(key)] = variant;
  return variant;
}

std::shared_ptr<JsVariant> load_variant(val source, val options) {
  return guarded([&] {
    const std::string text = string_of(source, "the variant");
    const koma::Options o = options_of(options, "options");
    if (looks_like_yaml(text))
      return std::make_shared<JsVariant>(shared_variant(
          "yaml:" + text, o, [&] { return koma::Variant::parse(text, "<yaml>", o, kBundled); }));
    std::error_code ec;
    std::string path = std::string(kBundled) + "/" + text + ".yaml";
    if (text.find('/') != std::string::npos || !std::filesystem::is_regular_file(path, ec))
      path = text;  // a path in the module's file system
    if (!std::filesystem::is_regular_file(path, ec))
      fail("no variant named '" + koma::escape_text(text, 200) +
           "'; variants() lists the bundled ones");
    return std::make_shared<JsVariant>(
        shared_variant("file:" + path, o, [&] { return koma::Variant::load(path, o); }));
  });
}

std::shared_ptr<JsVariant> load_variant_default(val source) {
  return load_variant(std::move(source), val::undefined());
}

val bundled_variants() {
  return guarded([] {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(kBundled, ec))
      if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return array_of(names);
  });
}

class JsGame {
 public:
  explicit JsGame(koma::Game game) : game_(std::move(game)) {}
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

bool absent(const val& v) {
  return v.isUndefined() || v.isNull();
}

// A game from the start, or from a position text.
koma::Game game_at(const JsVariant& v, const val& position) {
  if (absent(position)) return koma::Game(v.get());
  return koma::Game(koma::Position::from_text(v.get(), string_of(position, "the position")));
}

std::shared_ptr<JsGame> make_game_at(const JsVariant& v, val position) {
  return guarded([&] { return std::make_shared<JsGame>(game_at(v, position)); });
}

std::shared_ptr<JsGame> make_game(const JsVariant& v) {
  return make_game_at(v, val::undefined());
}

double perft_of(const JsVariant& v, val depth, val position) {
  return guarded([&] {
    const int d = int_of(depth, "the depth", 0, 64);
    koma::Game g = game_at(v, position);
    return static_cast<double>(koma::perft(g, d));
  });
}

double perft_from_start(const JsVariant& v, val depth) {
  return perft_of(v, std::move(depth), val::undefined());
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

// Game `game` (from 1; missing or null: 1) of a record file's text.
val read_record(val text, val game) {
  return guarded([&] {
    const std::string record = string_of(text, "the record");
    const int n = absent(game) ? 1 : int_of(game, "the game", 1, 100000000);
    return record_object(koma::read_record_text(record, "<record>", n));
  });
}

val read_first_record(val text) {
  return read_record(std::move(text), val::undefined());
}

// writeRecord's input: readRecord's objects, or the same keys set by hand.
// A missing or null descriptor, options, firstSeat, start or result is the
// C++ default ("", none, absent); `where` is not written, so not read.

// Refuses a key not in `keys`: a misspelt or snake_case key ("first_seat", as
// in the file) would otherwise be dropped from the line without a word.
void only_keys(const val& object, std::initializer_list<std::string_view> keys,
               const std::string& what) {
  const val names = keys_of(object);
  const int n = names["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string name = utf8_of(names[i], "a key of " + what);
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
  const val length = get(list, "length");
  const int n = type_of(length) == "number" ? length.as<int>() : 0;
  for (int i = 0; i < n; ++i)
    out.push_back(item(get(list, val(i)), what + "[" + std::to_string(i) + "]"));
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
  result.places = entries_of(get(v, "places"), "record.result.places", "whole numbers", whole_of);
  result.reason = reason_of(get(v, "reason"));
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
  r.variant = string_of(get(record, "variant"), "record.variant");
  if (const val d = get(record, "descriptor"); !absent(d))
    r.descriptor = string_of(d, "record.descriptor");
  r.options = options_of(get(record, "options"), "record.options");
  if (const val s = get(record, "firstSeat"); !absent(s))
    r.first_seat = whole_of(s, "record.firstSeat");
  if (const val s = get(record, "start"); !absent(s)) r.start = string_of(s, "record.start");
  r.seats = strings_of(get(record, "seats"), "record.seats");
  r.moves = strings_of(get(record, "moves"), "record.moves");
  r.result = result_of(get(record, "result"));
  return r;
}

// One line of a record file for a record object, without the newline.
std::string write_record(val record) {
  return guarded([&] { return koma::record_line(game_record_of(record)); });
}

class JsPlayer {
 public:
  JsPlayer(std::shared_ptr<const koma::Variant> variant, koma::Level level, koma::Limits limits)
      : variant_(std::move(variant)), player_(level, limits) {}

  std::string choose(JsGame& game) {
    return guarded([&] {
      if (&game.get().variant() != variant_.get())
        fail("the game is of another variant than this player's");
      const koma::Move m = player_.choose(game.get());
      return game.get().position().move_text(m);
    });
  }
  // Frees the memory the two-seat expert keeps between moves.
  void release() { player_.release(); }

 private:
  std::shared_ptr<const koma::Variant> variant_;
  koma::Player player_;
};

koma::Limits limits_of(const val& limits) {
  koma::Limits lim;
  if (absent(limits)) return lim;
  if (type_of(limits) != "object" || is_array(limits))
    fail("the limits must be an object {nodes, depth, seconds, seed}, not " + type_name(limits));
  only_keys(limits, {"nodes", "depth", "seconds", "seed"}, "the limits object");
  if (const val n = get(limits, "nodes"); !n.isUndefined())
    lim.nodes = static_cast<std::uint64_t>(int_of(n, "nodes", 0, 2000000000));
  if (const val d = get(limits, "depth"); !d.isUndefined()) lim.depth = int_of(d, "depth", 0, 64);
  if (const val s = get(limits, "seed"); !s.isUndefined())
    lim.seed = static_cast<std::uint64_t>(int_of(s, "seed", 0, 2147483647));
  if (const val s = get(limits, "seconds"); !s.isUndefined()) {
    if (type_of(s) != "number") fail("seconds must be a number");
    lim.seconds = s.as<double>();
  }
  return lim;
}

std::shared_ptr<JsPlayer> make_player(const JsVariant& v, val level, val limits) {
  return guarded([&] {
    const std::string name = string_of(level, "the level");
    auto l = koma::level_from_name(name);
    if (!l)
      fail("no CPU level '" + koma::escape_text(name, 40) +
           "'; levels: easy, normal, medium, strong, hard, expert");
    return std::make_shared<JsPlayer>(v.get(), *l, limits_of(limits));
  });
}

std::shared_ptr<JsPlayer> make_player_default(const JsVariant& v, val level) {
  return make_player(v, std::move(level), val::undefined());
}

}  // namespace

// Each optional argument of docs/js.md is an overload with one argument
// fewer (embind picks by the count). Every entry point that can fail runs
// its work through guarded(); the getters cannot fail.
EMSCRIPTEN_BINDINGS(koma) {
  using namespace emscripten;
  class_<JsVariant>("Variant")
      .smart_ptr<std::shared_ptr<JsVariant>>("Variant*")
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
      .smart_ptr<std::shared_ptr<JsGame>>("Game*")
      .constructor(&make_game)
      .constructor(&make_game_at)
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
  class_<JsPlayer>("Player")
      .smart_ptr<std::shared_ptr<JsPlayer>>("Player*")
      .constructor(&make_player_default)
      .constructor(&make_player)
      .function("choose", &JsPlayer::choose)
      .function("release", &JsPlayer::release);
  function("loadVariant", &load_variant_default);
  function("loadVariant", &load_variant);
  function("variants", &bundled_variants);
  function("perft", &perft_from_start);
  function("perft", &perft_of);
  function("readRecord", &read_first_record);
  function("readRecord", &read_record);
  function("writeRecord", &write_record);
}
