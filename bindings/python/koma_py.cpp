// The Python API of koma (docs/python.md), built with pybind11 as the
// extension `koma._koma`; the package `koma` (bindings/python/koma/) re-exports
// it. It calls the public C++ API only (docs/bindings.md). koma's exceptions
// become the Python classes koma.Error, DescriptorError, NotationError,
// IllegalMove and RecordError with the same message; a value out of range
// (a seat, a square, an action) raises ValueError; no input crashes the module.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <compare>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "koma/koma.hpp"

namespace py = pybind11;

// ---------------------------------------------------------------------------
// What pybind11 reads from Python: the module's objects, refused when their
// __init__ never ran, and text, refused with a message when UTF-8 cannot
// encode it.

namespace {

struct PyVariant;
struct PyMove;
struct PyGame;
struct PyPlayer;

// A string literal as a template argument: what a Text argument is, in errors.
template <std::size_t N>
struct Name {
  char text[N];
  constexpr Name(const char (&s)[N]) {
    std::copy_n(s, N, text);
  }  // NOLINT(google-explicit-constructor)
};

// A text argument: a str (or bytes, as pybind11 takes for std::string). A str
// that UTF-8 cannot encode raises TypeError naming `What` and the character,
// not pybind11's "incompatible function arguments".
template <Name What>
struct Text {
  std::string s;
  auto operator<=>(const Text&) const = default;
};

template <Name What>
std::vector<std::string> strings(const std::vector<Text<What>>& texts) {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const auto& t : texts) out.push_back(t.s);
  return out;
}

// The UTF-8 of `str`, a Python str. Only a surrogate (U+D800 to U+DFFF, which
// Python keeps alone, e.g. from undecodable bytes) cannot be encoded.
std::string utf8_of(py::handle str, const char* what) {
  Py_ssize_t size = 0;
  if (const char* data = PyUnicode_AsUTF8AndSize(str.ptr(), &size))
    return std::string(data, static_cast<std::size_t>(size));
  Py_ssize_t at = 0;
  if (PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
    py::error_already_set e;
    if (PyUnicodeEncodeError_GetStart(e.value().ptr(), &at) != 0) PyErr_Clear();
  } else {
    throw py::error_already_set();  // out of memory
  }
  const Py_UCS4 c = PyUnicode_ReadChar(str.ptr(), at);
  char code[16];
  std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
  // The text near it, as Python writes it (\ud800), at most 20 characters each side.
  const Py_ssize_t length = PyUnicode_GetLength(str.ptr());
  const Py_ssize_t from = std::max<Py_ssize_t>(at - 20, 0), to = std::min(at + 21, length);
  py::object near = py::reinterpret_steal<py::object>(PyUnicode_Substring(str.ptr(), from, to));
  std::string shown = py::repr(near);
  if (from > 0) shown = "..." + shown;
  if (to < length) shown += "...";
  throw py::type_error(std::string(what) + " must be valid Unicode: " + code + " at index " +
                       std::to_string(at) + " is a lone surrogate, which UTF-8 cannot encode (" +
                       shown + ")");
}

// Type.__new__(Type) makes an object whose __init__ never ran: it holds no
// C++ value, and pybind11 would hand a method raw, unconstructed memory (a
// crash, or garbage). The casters of the module's classes call this first, so
// that every method, property and argument refuses such an object.
void check_initialised(py::handle src, const std::type_info& type) {
  const py::detail::type_info* info = py::detail::get_type_info(type);
  if (!src || !info || !PyType_IsSubtype(Py_TYPE(src.ptr()), info->type)) return;
  auto* instance = reinterpret_cast<py::detail::instance*>(src.ptr());
  const py::detail::value_and_holder v = instance->get_value_and_holder(info, false);
  // Made by __init__ or returned by value: its holder was made. Returned by
  // reference (Record.result): not owned, and its value is there.
  if (v.inst && (v.holder_constructed() || (!instance->owned && v.value_ptr()))) return;
  const std::string name =
      py::str(py::handle(reinterpret_cast<PyObject*>(info->type)).attr("__name__"));
  throw py::type_error("this koma." + name + " holds nothing: " + name +
                       ".__init__ was not called (" + name +
                       ".__new__ alone makes an empty object)");
}

}  // namespace

namespace pybind11::detail {

template <Name What>
struct type_caster<Text<What>> {
  PYBIND11_TYPE_CASTER(Text<What>, const_name("str"));
  bool load(handle src, bool convert) {
    if (src && PyUnicode_Check(src.ptr())) {
      value.s = utf8_of(src, What.text);
      return true;
    }
    make_caster<std::string> bytes;
    if (!bytes.load(src, convert)) return false;
    value.s = cast_op<std::string&&>(std::move(bytes));
    return true;
  }
  static handle cast(const Text<What>& text, return_value_policy policy, handle parent) {
    return make_caster<std::string>::cast(text.s, policy, parent);
  }
};

template <class T>
class initialised_caster : public type_caster_base<T> {
 public:
  bool load(handle src, bool convert) {
    check_initialised(src, typeid(T));
    return type_caster_base<T>::load(src, convert);
  }
};

#define KOMA_INITIALISED(T) \
  template <>               \
  class type_caster<T> : public initialised_caster<T> {}
KOMA_INITIALISED(PyMove);
KOMA_INITIALISED(PyGame);
KOMA_INITIALISED(PyPlayer);
KOMA_INITIALISED(PyVariant);
KOMA_INITIALISED(koma::Position);
KOMA_INITIALISED(koma::GameRecord);
KOMA_INITIALISED(koma::Result);
KOMA_INITIALISED(koma::PieceKindInfo);
KOMA_INITIALISED(koma::PieceOnBoard);
KOMA_INITIALISED(koma::SeatScore);
#undef KOMA_INITIALISED

// Variants are held by shared_ptr: the holder's caster checks too.
template <class T>
class initialised_holder_caster : public copyable_holder_caster<T, std::shared_ptr<T>> {
 public:
  bool load(handle src, bool convert) {
    check_initialised(src, typeid(T));
    return copyable_holder_caster<T, std::shared_ptr<T>>::load(src, convert);
  }
};
template <>
class type_caster<std::shared_ptr<PyVariant>> : public initialised_holder_caster<PyVariant> {};

}  // namespace pybind11::detail

namespace {

// ---------------------------------------------------------------------------
// Variants: where each came from (to load it again when unpickled), its
// action space and its observation layout.

// How a variant was loaded, enough to load it again in another process.
struct Source {
  std::string kind;               // "shipped" (a name of the package's variants), "file" or "text"
  std::string where;              // the name, the absolute path, or the YAML text
  std::string origin = "<text>";  // for "text"
  std::string base_dir;           // for "text": an absolute path, or "" for the shipped descriptors
  koma::Options overrides;
};

// The package's own descriptors (koma/variants/), set by koma/__init__.py.
std::string g_shipped_dir;

const char* facing_name(koma::Facing f) {
  static const char* const names[] = {"up", "right", "down", "left"};
  return names[static_cast<int>(f)];
}

// One loaded variant as Python sees it. Immutable after construction.
struct PyVariant {
  std::shared_ptr<const koma::Variant> v;
  Source source;

  // Action space: board moves (from cell, to cell, promote), drops (kind,
  // to cell), then where some piece has a double move, double moves (from
  // cell, first step, second step, promote; each step one of the eight
  // king steps); cells are the board's squares that are not voids, row by row.
  std::vector<int> cell_of;    // square -> cell, -1 for a void
  std::vector<int> square_of;  // cell -> square
  int cells = 0;
  int board_actions = 0;
  int double_actions = 0;  // where the double moves start (0: the variant has none)
  int actions = 0;

  // Observation layout (docs/python.md#observations).
  int seats = 0;
  std::vector<int> order_of;               // seat -> its index in the turn order
  int facing_plane[4] = {-1, -1, -1, -1};  // relative facing -> plane within a group
  int facings = 0;
  std::vector<int> hand_kinds;  // the unpromoted kinds, in kind order
  bool quarter_turns = false;   // a seat faces left or right
  int plane_overturned = 0, plane_hands = 0, plane_to_move = 0, plane_check = 0,
      plane_eliminated = 0, plane_cells = 0, planes = 0;

  PyVariant(std::shared_ptr<const koma::Variant> variant, Source src)
      : v(std::move(variant)), source(std::move(src)) {
    cell_of.assign(static_cast<std::size_t>(v->squares()), -1);
    for (int sq = 0; sq < v->squares(); ++sq)
      if (v->is_square(sq)) {
        cell_of[static_cast<std::size_t>(sq)] = cells++;
        square_of.push_back(sq);
      }
    board_actions = 2 * cells * cells;
    actions = board_actions + v->kinds() * cells;
    for (int k = 0; k < v->kinds(); ++k)
      if (!v->kind_info(k).double_move.empty()) double_actions = actions;
    if (double_actions) actions += cells * kSteps * kSteps * 2;

    seats = v->seats();
    order_of.assign(static_cast<std::size_t>(seats) + 1, 0);
    const std::vector<int>& order = v->turn_order();
    const bool full_order = static_cast<int>(order.size()) == seats;
    for (int seat = 1; seat <= seats; ++seat) order_of[static_cast<std::size_t>(seat)] = seat - 1;
    if (full_order)
      for (std::size_t i = 0; i < order.size(); ++i)
        order_of[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
    bool relative[4] = {false, false, false, false};
    for (int a = 1; a <= seats; ++a) {
      const int fa = static_cast<int>(v->seat_facing(a));
      if (fa % 2) quarter_turns = true;
      for (int b = 1; b <= seats; ++b)
        relative[(static_cast<int>(v->seat_facing(b)) - fa + 4) % 4] = true;
    }
    for (int f = 0; f < 4; ++f)
      if (relative[f]) facing_plane[f] = facings++;
    for (int k = 0; k < v->kinds(); ++k)
      if (!v->kind_info(k).promoted) hand_kinds.push_back(k);
    plane_overturned = v->kinds() * seats * facings;
    plane_hands = plane_overturned + 1;
    plane_to_move = plane_hands + seats * static_cast<int>(hand_kinds.size());
    plane_check = plane_to_move + seats;
    plane_eliminated = plane_check + seats;
    plane_cells = plane_eliminated + seats;
    planes = plane_cells + 1;
  }

  int rows() const { return quarter_turns ? std::max(v->width(), v->height()) : v->height(); }
  int cols() const { return quarter_turns ? std::max(v->width(), v->height()) : v->width(); }

  void check_seat(int seat) const {
    if (seat < 1 || seat > seats)
      throw py::value_error("seat " + std::to_string(seat) + " is out of range: " + v->name() +
                            " has seats 1 to " + std::to_string(seats));
  }
  void check_square(int sq) const {
    if (sq < 0 || sq >= v->squares())
      throw py::value_error("square " + std::to_string(sq) + " is out of range: " + v->name() +
                            " has squares 0 to " + std::to_string(v->squares() - 1));
  }
  void check_kind(int kind) const {
    if (kind < 0 || kind >= v->kinds())
      throw py::value_error("kind " + std::to_string(kind) + " is out of range: " + v->name() +
                            " has kinds 0 to " + std::to_string(v->kinds() - 1));
  }

  // A double move's steps: the eight king steps, (dx, dy) in this order.
  static constexpr int kSteps = 8;
  static constexpr std::array<std::array<int, 2>, kSteps> kStep{
      {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}};
  // The step from square a to square b, -1 if it is none of them.
  int step_of(int a, int b) const {
    const int w = v->width();
    const std::array<int, 2> d{b % w - a % w, b / w - a / w};
    const auto* it = std::find(kStep.begin(), kStep.end(), d);
    return it == kStep.end() ? -1 : static_cast<int>(it - kStep.begin());
  }
  // The square one step `i` from `sq`, or -1 off the board.
  int stepped(int sq, int i) const {
    const int w = v->width(), x = sq % w + kStep[static_cast<std::size_t>(i)][0],
              y = sq / w + kStep[static_cast<std::size_t>(i)][1];
    if (x < 0 || y < 0 || x >= w || y >= v->height() || !v->is_square(y * w + x)) return -1;
    return y * w + x;
  }
  // Whether the move has an action: its squares on the board, a double
  // move's steps king steps where the variant has double moves.
  bool has_action(koma::Move m) const {
    auto on_board = [&](int sq) { return sq < v->squares() && cell_of[static_cast<std::size_t>(sq)] >= 0; };
    if (!on_board(m.to)) return false;
    if (m.is_drop()) return m.kind < v->kinds();
    if (!on_board(m.from)) return false;
    if (!m.is_double()) return true;
    return double_actions && on_board(m.middle()) && step_of(m.from, m.middle()) >= 0 &&
           step_of(m.middle(), m.to) >= 0;
  }

  int action_of(koma::Move m) const {
    const int to = cell_of[m.to];
    if (m.is_drop()) return board_actions + m.kind * cells + to;
    if (m.is_double()) [[unlikely]]
      return double_actions + ((cell_of[m.from] * kSteps + step_of(m.from, m.middle())) * kSteps +
                               step_of(m.middle(), m.to)) *
                                  2 +
             (m.promote ? 1 : 0);
    return (cell_of[m.from] * cells + to) * 2 + (m.promote ? 1 : 0);
  }
  koma::Move move_of(long long action) const {
    if (action < 0 || action >= actions)
      throw py::value_error("action " + std::to_string(action) + " is out of range: " + v->name() +
                            " has actions 0 to " + std::to_string(actions - 1));
    const int a = static_cast<int>(action);
    if (double_actions && a >= double_actions) {
      // A step off the board makes a move to no square: never legal.
      const int d = a - double_actions;
      const int from = square_of[static_cast<std::size_t>(d / (kSteps * kSteps * 2))];
      const int mid = stepped(from, (d / (kSteps * 2)) % kSteps);
      const int to = mid < 0 ? -1 : stepped(mid, (d / 2) % kSteps);
      if (to < 0) return koma::Move::double_move(from, from, koma::Move::kDrop, d % 2 == 1);
      return koma::Move::double_move(from, mid, to, d % 2 == 1);
    }
    if (a >= board_actions) {
      const int d = a - board_actions;
      return koma::Move::drop(d / cells, square_of[static_cast<std::size_t>(d % cells)]);
    }
    const int pair = a / 2;
    return koma::Move::board(square_of[static_cast<std::size_t>(pair / cells)],
                             square_of[static_cast<std::size_t>(pair % cells)], a % 2 == 1);
  }
};

using VariantPtr = std::shared_ptr<PyVariant>;

// The variants this process has loaded, held weakly: a variant lives as
// long as a Python object or a position uses it. Loading a descriptor again
// while it lives (the same source, unchanged file, and options that come to
// the same rules) gives the same object, so positions of both compare equal.
struct Loaded {
  std::weak_ptr<PyVariant> py;
  std::weak_ptr<const koma::Variant> variant;
  Source source;
};
std::map<std::string, std::weak_ptr<PyVariant>> g_by_source;  // as asked: the overrides
std::map<std::string, std::weak_ptr<PyVariant>> g_by_rules;   // every option in force
std::unordered_map<const koma::Variant*, Loaded> g_by_variant;

// The source's identity with `options`: a file's path and modification time.
std::string source_key(const Source& s, const koma::Options& options) {
  std::string key = s.kind + '\0' + s.where + '\0' + s.origin + '\0' + s.base_dir;
  if (s.kind != "text") {
    std::error_code ec;
    auto path = s.kind == "file" ? std::filesystem::path(s.where)
                                 : std::filesystem::path(g_shipped_dir) / (s.where + ".yaml");
    auto t = std::filesystem::last_write_time(path, ec);
    key += '\0' + std::to_string(ec ? 0 : t.time_since_epoch().count());
  }
  for (const auto& [k, value] : options) key += '\0' + k + '=' + value;
  return key;
}

void forget_unused() {
  std::erase_if(g_by_source, [](const auto& e) { return e.second.expired(); });
  std::erase_if(g_by_rules, [](const auto& e) { return e.second.expired(); });
  std::erase_if(g_by_variant, [](const auto& e) { return e.second.variant.expired(); });
}

// Registers a Python variant under its keys.
void remember(const VariantPtr& p) {
  g_by_source[source_key(p->source, p->source.overrides)] = p;
  g_by_rules[source_key(p->source, p->v->options())] = p;
  g_by_variant[p->v.get()] = Loaded{p, p->v, p->source};
}

VariantPtr load_source(const Source& s) {
  forget_unused();
  if (auto it = g_by_source.find(source_key(s, s.overrides)); it != g_by_source.end())
    if (VariantPtr p = it->second.lock()) return p;
  std::shared_ptr<const koma::Variant> v;
  if (s.kind == "text")
    v = koma::Variant::parse(s.where, s.origin, s.overrides,
                             s.base_dir.empty() ? g_shipped_dir : s.base_dir);
  else if (s.kind == "shipped")
    v = koma::Variant::load((std::filesystem::path(g_shipped_dir) / (s.where + ".yaml")).string(),
                            s.overrides);
  else
    v = koma::Variant::load(s.where, s.overrides);
  VariantPtr p;
  if (auto it = g_by_rules.find(source_key(s, v->options())); it != g_by_rules.end())
    p = it->second.lock();
  if (!p) p = std::make_shared<PyVariant>(v, s);
  g_by_source[source_key(s, s.overrides)] = p;
  if (p->v == v) remember(p);
  return p;
}

// The Python variant of a C++ one the module handed out (a position's), made
// again if Python let it go while a position kept the rules.
VariantPtr of(const koma::Variant& v) {
  Loaded& loaded = g_by_variant.at(&v);
  if (VariantPtr p = loaded.py.lock()) return p;
  auto p = std::make_shared<PyVariant>(v.shared_from_this(), loaded.source);
  remember(p);
  return p;
}

// Option values from Python: str, bool ("true"/"false") or int.
koma::Options options_of(const py::dict& kwargs) {
  koma::Options out;
  for (const auto& [key, value] : kwargs) {
    const std::string name = utf8_of(key, "an option name");
    if (py::isinstance<py::bool_>(value))
      out[name] = value.cast<bool>() ? "true" : "false";
    else if (py::isinstance<py::int_>(value))
      out[name] = py::str(value);
    else if (py::isinstance<py::str>(value))
      out[name] = utf8_of(value, ("the value of option '" + name + "'").c_str());
    else
      throw py::type_error("option '" + name + "' must be a str, int or bool, not " +
                           std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  return out;
}

std::vector<std::string> shipped_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(g_shipped_dir, ec))
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Variant.load's name or path: a file that exists, else a descriptor of the
// package (with or without .yaml), else where Variant::locate finds it.
VariantPtr load_named(const std::string& name, const koma::Options& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  Source s;
  s.overrides = options;
  if (fs::is_regular_file(name, ec)) {
    s.kind = "file";
    s.where = fs::absolute(name, ec).lexically_normal().string();
    return load_source(s);
  }
  std::string stem = name;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".yaml") == 0)
    stem.resize(stem.size() - 5);
  if (!g_shipped_dir.empty() && !stem.empty() && stem.find('/') == std::string::npos &&
      fs::is_regular_file(fs::path(g_shipped_dir) / (stem + ".yaml"), ec)) {
    s.kind = "shipped";
    s.where = stem;
    return load_source(s);
  }
  // Not found: Variant::locate's folders. What it finds there that is no file
  // (for "" or "x/", the folder itself) is not used: the error names `name`,
  // not a folder of the machine that built the module.
  s.kind = "file";
  s.where = koma::Variant::locate(name);
  if (fs::is_regular_file(s.where, ec))
    s.where = fs::absolute(s.where, ec).lexically_normal().string();
  else
    s.where = name;
  return load_source(s);  // koma::Variant::load names a missing file in its error
}

// ---------------------------------------------------------------------------
// Moves: the C++ move and, when it came from a position, its text.

struct PyMove {
  koma::Move m;
  std::string text;
};

PyMove with_text(const koma::Position& p, koma::Move m) {
  return PyMove{m, p.move_text(m)};
}

std::string move_repr(const PyMove& m) {
  if (!m.text.empty()) return "Move('" + m.text + "')";
  if (m.m.is_drop())
    return "Move.drop(" + std::to_string(m.m.kind) + ", " + std::to_string(m.m.to) + ")";
  if (m.m.is_double())
    return "Move.double(" + std::to_string(m.m.from) + ", " + std::to_string(m.m.middle()) + ", " +
           std::to_string(m.m.to) + (m.m.promote ? ", promote=True)" : ")");
  return "Move.board(" + std::to_string(m.m.from) + ", " + std::to_string(m.m.to) +
         (m.m.promote ? ", promote=True)" : ")");
}

std::string type_name(const py::handle& value) {
  return py::str(py::type::of(value).attr("__name__"));
}

// A move argument: a Move, or move text read for position `p`.
koma::Move move_arg(const koma::Position& p, const py::handle& move) {
  if (py::isinstance<py::str>(move)) return p.parse_move(utf8_of(move, "move text"));
  if (!py::isinstance<PyMove>(move))
    throw py::type_error("a move must be a koma.Move or move text (str), not " + type_name(move));
  return move.cast<const PyMove&>().m;
}

// ---------------------------------------------------------------------------
// Positions: hands, pieces and the observation tensor.

py::dict hands_of(const koma::Position& p) {
  py::dict out;
  const koma::Variant& v = p.variant();
  for (int seat = 1; seat <= v.seats(); ++seat) {
    py::dict hand;
    for (int k = 0; k < v.kinds(); ++k)
      if (int n = p.in_hand(seat, k)) hand[py::str(v.kind_info(k).letter)] = n;
    out[py::int_(seat)] = hand;
  }
  return out;
}

struct View {
  int rows, cols;
  koma::Facing facing;
  int width, height;
  // The observer's view of square (x, y): its forward is up, as South sees.
  std::pair<int, int> at(int x, int y) const {
    switch (facing) {
      case koma::Facing::up:
        return {y, x};
      case koma::Facing::down:
        return {height - 1 - y, width - 1 - x};
      case koma::Facing::right:
        return {width - 1 - x, y};
      case koma::Facing::left:
        return {x, height - 1 - y};
    }
    return {y, x};
  }
};

// numpy's C API, which pybind11 sets up at the first array it makes, under a
// static's guard. Set up at the first observation(), two threads making their
// first arrays at once deadlocked: one held the guard and waited for the GIL
// inside the numpy import, the other held the GIL and waited for the guard.
// So it is set up as the module is imported; without numpy, the arrays raise
// ImportError (and never reach that guard).
std::string g_numpy_missing;

void init_numpy() {
  try {
    (void)py::array_t<float>(0);
    (void)py::array_t<bool>(0);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_ImportError)) throw;
    g_numpy_missing = e.what();
  }
}

void need_numpy() {
  if (!g_numpy_missing.empty())
    throw py::import_error("observations and action masks need numpy: " + g_numpy_missing);
}

py::array_t<float> observation(const koma::Position& p, int seat) {
  need_numpy();
  const VariantPtr held = of(p.variant());  // may be made here: keep it alive
  const PyVariant& pv = *held;
  const koma::Variant& v = *pv.v;
  pv.check_seat(seat);
  const int rows = pv.rows(), cols = pv.cols(), n = pv.seats;
  py::array_t<float> out({pv.planes, rows, cols});
  float* data = out.mutable_data();
  std::fill(data, data + static_cast<std::size_t>(pv.planes) * rows * cols, 0.0f);
  const std::size_t area = static_cast<std::size_t>(rows) * cols;
  auto plane = [&](int index) { return data + static_cast<std::size_t>(index) * area; };
  auto fill = [&](int index, float value) { std::fill(plane(index), plane(index) + area, value); };
  const View view{rows, cols, v.seat_facing(seat), v.width(), v.height()};
  const int me = pv.order_of[static_cast<std::size_t>(seat)];
  auto relative = [&](int other) {
    return (pv.order_of[static_cast<std::size_t>(other)] - me + n) % n;
  };
  const int my_facing = static_cast<int>(view.facing);
  for (int sq = 0; sq < v.squares(); ++sq) {
    if (!v.is_square(sq)) continue;
    const auto [y, x] = view.at(sq % v.width(), sq / v.width());
    const std::size_t cell = static_cast<std::size_t>(y) * cols + x;
    plane(pv.plane_cells)[cell] = 1;
    std::optional<koma::PieceOnBoard> piece = p.at(sq);
    if (!piece) continue;
    const int f = pv.facing_plane[(static_cast<int>(piece->facing) - my_facing + 4) % 4];
    const int group = (piece->kind * n + relative(piece->owner)) * pv.facings;
    plane(group + std::max(f, 0))[cell] = 1;
    if (piece->overturned) plane(pv.plane_overturned)[cell] = 1;
  }
  const int hand_kinds = static_cast<int>(pv.hand_kinds.size());
  for (int other = 1; other <= n; ++other) {
    const int r = relative(other);
    for (int h = 0; h < hand_kinds; ++h)
      if (int count = p.in_hand(other, pv.hand_kinds[static_cast<std::size_t>(h)]))
        fill(pv.plane_hands + r * hand_kinds + h, static_cast<float>(count));
    if (p.in_check(other)) fill(pv.plane_check + r, 1);
    if (!p.active(other)) fill(pv.plane_eliminated + r, 1);
  }
  if (!p.result()) fill(pv.plane_to_move + relative(p.to_move()), 1);
  return out;
}

// What a pickled position holds: its variant and generic text. A position
// where a two-player game ended has no text that reads back (docs/notation.md):
// refused here, not when unpickled.
py::tuple position_state(const koma::Position& p) {
  const std::string text = p.generic_text();
  try {
    (void)koma::Position::from_text(p.variant_ptr(), text);
  } catch (const koma::NotationError&) {
    throw koma::Error(
        "this position (where a two-player game ended) has no text to pickle it by; pickle the "
        "Game instead");
  }
  return py::make_tuple(of(p.variant()), text);
}

py::object piece_at(const koma::Position& p, int sq) {
  of(p.variant())->check_square(sq);
  std::optional<koma::PieceOnBoard> piece = p.at(sq);
  if (!piece) return py::none();
  return py::cast(*piece);
}

// ---------------------------------------------------------------------------
// Results and returns.

py::object result_or_none(const std::optional<koma::Result>& r) {
  return r ? py::cast(*r) : py::none();
}

// A seat at place p of n scores (n + 1 - 2p) / (n - 1), averaged over the places
// a tie spans: a place shared by k seats spans p .. p + k - 1.
std::vector<double> returns_of(const std::optional<koma::Result>& r, int seats) {
  std::vector<double> out(static_cast<std::size_t>(seats), 0.0);
  if (!r || seats < 2) return out;
  for (int i = 0; i < seats; ++i) {
    const int place = r->places[static_cast<std::size_t>(i)];
    const auto tied = std::count(r->places.begin(), r->places.end(), place);
    out[static_cast<std::size_t>(i)] =
        (seats + 1 - 2.0 * place - static_cast<double>(tied - 1)) / (seats - 1);
  }
  return out;
}

koma::Reason reason_arg(const std::string& word) {
  const koma::Reason r = koma::reason_from_name(word);
  if (r == koma::Reason::none && word != "none")
    throw py::value_error("unknown reason '" + word + "'");
  return r;
}

// ---------------------------------------------------------------------------
// Games.

struct PyGame {
  VariantPtr variant;
  koma::Game game;

  const koma::Position& position() const { return game.position(); }

  py::list legal_moves() const {
    const koma::Position& p = game.position();
    py::list out;
    for (koma::Move m : game.legal_moves()) out.append(with_text(p, m));
    return out;
  }
  py::list legal_actions() const {
    std::vector<koma::Move> moves = game.legal_moves();
    std::vector<int> actions(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) actions[i] = variant->action_of(moves[i]);
    std::sort(actions.begin(), actions.end());
    py::list out(actions.size());
    for (std::size_t i = 0; i < actions.size(); ++i)
      PyList_SET_ITEM(out.ptr(), static_cast<py::ssize_t>(i), PyLong_FromLong(actions[i]));
    return out;
  }
  py::array_t<bool> legal_actions_mask() const {
    need_numpy();
    py::array_t<bool> out(variant->actions);
    bool* data = out.mutable_data();
    std::fill(data, data + variant->actions, false);
    for (koma::Move m : game.legal_moves()) data[variant->action_of(m)] = true;
    return out;
  }
  void play(const py::handle& move) {
    if (py::isinstance<py::str>(move))
      game.play(std::string_view(utf8_of(move, "move text")));
    else
      game.play(move_arg(game.position(), move));
  }
  int seat_to_move() const { return game.over() ? 0 : game.position().to_move(); }
};

// What a pickled game holds: its variant, start position, moves and actions
// played, and an adjudication, if it ended by one.
py::tuple game_state(const PyGame& g) {
  std::vector<std::string> moves = g.game.history();
  py::object adjudication = py::none();
  if (!moves.empty() && moves.back() == "adjudicate") {
    moves.pop_back();
    const koma::Result r = *g.game.result();
    adjudication = py::make_tuple(r.places, std::string(koma::reason_name(r.reason)));
  }
  const char* referee = g.game.referee() == koma::Game::Referee::koma ? "koma" : "outside";
  return py::make_tuple(g.variant, g.game.start().generic_text(), moves, referee, adjudication);
}

koma::Game::Referee referee_arg(const std::string& word) {
  if (word == "koma") return koma::Game::Referee::koma;
  if (word == "outside") return koma::Game::Referee::outside;
  throw py::value_error("referee must be 'koma' or 'outside', not '" + word + "'");
}

PyGame make_game(const VariantPtr& v, const py::object& position, const std::string& referee) {
  const koma::Game::Referee ref = referee_arg(referee);
  if (position.is_none()) return PyGame{v, koma::Game(v->v, ref)};
  if (py::isinstance<py::str>(position))
    return PyGame{
        v, koma::Game(koma::Position::from_text(v->v, utf8_of(position, "position text")), ref)};
  if (!py::isinstance<koma::Position>(position))
    throw py::type_error("a position must be a koma.Position or position text (str), not " +
                         type_name(position));
  const koma::Position& p = position.cast<const koma::Position&>();
  if (&p.variant() != v->v.get())
    throw py::value_error("the position is of another variant (" + p.variant().name() + ")");
  return PyGame{v, koma::Game(p, ref)};
}

PyGame restore_game(const VariantPtr& v, const std::string& start,
                    const std::vector<std::string>& moves, const std::string& referee,
                    const py::object& adjudication) {
  PyGame g{v, koma::Game(koma::Position::from_text(v->v, start), referee_arg(referee))};
  koma::play_moves(g.game, moves, "the pickled game");
  if (!adjudication.is_none()) {
    auto [places, reason] = adjudication.cast<std::pair<std::vector<int>, std::string>>();
    g.game.adjudicate(places, reason_arg(reason));
  }
  return g;
}

PyGame game_of_record(const koma::GameRecord& r) {
  const std::string name = !r.descriptor.empty() ? r.descriptor : r.variant;
  if (name.empty())
    throw koma::RecordError("the record names no variant: its descriptor and variant are empty",
                            r.where);
  VariantPtr v = load_named(name, koma::record_options(r));
  return PyGame{v, koma::replay_record(v->v, r)};
}

// ---------------------------------------------------------------------------
// Players.

struct PyPlayer {
  VariantPtr variant;
  koma::Player player;
  // Set while choose() runs: a second thread's call is refused, not raced.
  std::shared_ptr<std::atomic<bool>> busy = std::make_shared<std::atomic<bool>>(false);

  PyMove choose(const PyGame& g) {
    if (&g.game.variant() != variant->v.get())
      throw py::value_error("the game is of another variant (" + g.variant->v->name() +
                            " with other options, or another descriptor) than the player's (" +
                            variant->v->name() + ")");
    if (busy->exchange(true))
      throw koma::Error(
          "this Player is choosing a move in another thread already; give each thread its "
          "own Player");
    struct Release {
      std::atomic<bool>& flag;
      ~Release() { flag = false; }
    } release_busy{*busy};
    koma::Game copy = g.game;  // the search runs without the GIL on its own game
    koma::Move m;
    try {
      py::gil_scoped_release release;
      m = player.choose(copy);
    } catch (...) {
      player.cancel_stop();
      throw;
    }
    // A stop() made since the search ended, while this waited for the GIL, was
    // made before this call returns: it is this call's too (docs/python.md).
    player.cancel_stop();
    return with_text(copy.position(), m);
  }
};

koma::Level level_arg(const std::string& name) {
  auto level = koma::level_from_name(name);
  if (!level)
    throw py::value_error("unknown level '" + name +
                          "'; levels: easy, normal, medium, strong, hard, expert");
  return *level;
}

// ---------------------------------------------------------------------------
// Perft.

std::uint64_t perft_of(const koma::Game& game, int depth, const std::string& mode) {
  if (depth < 0) throw py::value_error("depth must be 0 or more, not " + std::to_string(depth));
  koma::PerftMode m = koma::PerftMode::bulk;
  if (mode == "full")
    m = koma::PerftMode::full;
  else if (mode != "bulk")
    throw py::value_error("mode must be 'bulk' or 'full', not '" + mode + "'");
  py::gil_scoped_release release;
  return koma::perft(game, depth, m);
}

koma::Game perft_game(const py::object& target, const py::object& position) {
  if (py::isinstance<PyGame>(target)) {
    if (!position.is_none()) throw py::value_error("give a position with a variant, not a game");
    return target.cast<const PyGame&>().game;
  }
  if (!py::isinstance<PyVariant>(target))
    throw py::type_error("perft counts for a koma.Variant or a koma.Game, not " +
                         type_name(target));
  const VariantPtr v = target.cast<VariantPtr>();
  return make_game(v, position, "koma").game;
}

// ---------------------------------------------------------------------------
// Exceptions.

// The classes are made once, when the module is imported, and live as long as
// the interpreter.
PyObject *g_error, *g_descriptor_error, *g_notation_error, *g_illegal_move, *g_record_error;

// Text from C++ for Python: UTF-8, any byte that is not shown as U+FFFD (a
// descriptor or record may hold anything).
py::str lenient(const std::string& text) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<py::ssize_t>(text.size()), "replace"));
}

// A message with its place, "what (where)", or the message alone.
std::string located(const std::string& what, const std::string& where) {
  return where.empty() ? what : what + " (" + where + ")";
}

void raise(PyObject* type, const std::string& message, const py::dict& attributes = {}) {
  py::object instance = py::reinterpret_borrow<py::object>(type)(lenient(message));
  for (const auto& [key, value] : attributes) py::setattr(instance, key, value);
  PyErr_SetObject(type, instance.ptr());
}

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const koma::DescriptorError& e) {
    // Not what(): a C string, cut at a NUL the file name may hold.
    raise(g_descriptor_error,
          e.file() + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " +
              e.message(),
          py::dict(py::arg("file") = lenient(e.file()), py::arg("line") = e.line(),
                   py::arg("column") = e.column(), py::arg("message") = lenient(e.message())));
  } catch (const koma::RecordMoveError& e) {
    raise(g_record_error, located(e.what(), e.where()),
          py::dict(py::arg("where") = lenient(e.where()), py::arg("index") = e.index(),
                   py::arg("move") = lenient(e.move()), py::arg("reason") = lenient(e.reason())));
  } catch (const koma::RecordError& e) {
    raise(g_record_error, located(e.what(), e.where()),
          py::dict(py::arg("where") = lenient(e.where())));
  } catch (const koma::NotationError& e) {
    raise(g_notation_error, e.what());
  } catch (const koma::IllegalMove& e) {
    raise(g_illegal_move, e.what());
  } catch (const koma::Error& e) {
    raise(g_error, e.what());
  } catch (const py::cast_error& e) {  // a value pybind11 cannot convert (a lone surrogate)
    PyErr_SetString(PyExc_TypeError, e.what());
  }
}

PyObject* new_exception(py::module_& m, const char* name, PyObject* base, const char* doc) {
  const std::string full = std::string("koma.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(full.c_str(), doc, base, nullptr);
  if (!type) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

// What __reduce__ returns: koma._restore (koma/__init__.py, a plain Python
// function that pickle finds by name) and its arguments: the name of the
// function that remakes the object, and that function's arguments.
py::tuple restore(const char* maker, const py::tuple& args) {
  return py::make_tuple(py::module_::import("koma").attr("_restore"), py::make_tuple(maker, args));
}

// The __reduce__ of a value that does not pickle. Without one, Python's
// pickling protocols 0 and 1 made an instance of pybind11's base class, which
// aborted the interpreter.
py::object not_pickled(const std::string& name, const std::string& instead) {
  throw py::type_error("koma." + name + " objects do not pickle or copy: pickle the " + instead +
                       " they come from");
}

std::string kind_repr(const koma::PieceKindInfo& k) {
  return "Kind('" + k.letter + "', '" + k.name + "')";
}

// The exception classes and the translation of koma's C++ exceptions.
void bind_errors(py::module_& m) {
  g_error = new_exception(m, "Error", PyExc_Exception, "Base of every koma error.");
  g_descriptor_error =
      new_exception(m, "DescriptorError", g_error,
                    "A descriptor (YAML) or option is malformed; has file, line, column, message.");
  g_notation_error = new_exception(m, "NotationError", g_error,
                                   "Position, move or square text that cannot be read.");
  g_illegal_move = new_exception(m, "IllegalMove", g_error,
                                 "A move or call the game does not allow (the game is unchanged).");
  g_record_error = new_exception(m, "RecordError", g_error,
                                 "A game record that cannot be read or replayed; has where.");
  py::register_exception_translator(&translate);
}

// Kind, Piece, SeatScore and Result: plain values.
void bind_values(py::module_& m) {
  py::class_<koma::PieceKindInfo>(m, "Kind", "A piece kind of a variant (Variant.kinds).")
      .def_readonly("letter", &koma::PieceKindInfo::letter)
      .def_readonly("name", &koma::PieceKindInfo::name)
      .def_readonly("kanji", &koma::PieceKindInfo::kanji)
      .def_readonly("moves", &koma::PieceKindInfo::moves)
      .def_readonly("double_move", &koma::PieceKindInfo::double_move)
      .def_property_readonly("promotes_to",
                             [](const koma::PieceKindInfo& k) -> std::optional<int> {
                               if (k.promotes_to < 0) return std::nullopt;
                               return k.promotes_to;
                             })
      .def_readonly("demotes_to", &koma::PieceKindInfo::demotes_to)
      .def_readonly("royal", &koma::PieceKindInfo::royal)
      .def_readonly("promoted", &koma::PieceKindInfo::promoted)
      .def_readonly("value", &koma::PieceKindInfo::value)
      .def(
          "__eq__",
          [](const koma::PieceKindInfo& a, const koma::PieceKindInfo& b) {
            return a.letter == b.letter && a.name == b.name && a.kanji == b.kanji &&
                   a.moves == b.moves && a.promotes_to == b.promotes_to &&
                   a.demotes_to == b.demotes_to && a.royal == b.royal && a.promoted == b.promoted &&
                   a.value == b.value;
          },
          py::is_operator())
      .def("__hash__",
           [](const koma::PieceKindInfo& k) { return py::hash(py::make_tuple(k.letter, k.name)); })
      .def("__reduce__", [](const koma::PieceKindInfo&) { return not_pickled("Kind", "Variant"); })
      .def("__repr__", &kind_repr);

  py::class_<koma::PieceOnBoard>(m, "Piece", "A piece on the board (Position.at).")
      .def_readonly("kind", &koma::PieceOnBoard::kind)
      .def_readonly("owner", &koma::PieceOnBoard::owner)
      .def_property_readonly("facing",
                             [](const koma::PieceOnBoard& p) { return facing_name(p.facing); })
      .def_readonly("overturned", &koma::PieceOnBoard::overturned)
      .def(
          "__eq__",
          [](const koma::PieceOnBoard& a, const koma::PieceOnBoard& b) {
            return a.kind == b.kind && a.owner == b.owner && a.facing == b.facing &&
                   a.overturned == b.overturned;
          },
          py::is_operator())
      .def("__hash__",
           [](const koma::PieceOnBoard& p) {
             return py::hash(
                 py::make_tuple(p.kind, p.owner, static_cast<int>(p.facing), p.overturned));
           })
      .def("__reduce__", [](const koma::PieceOnBoard&) { return not_pickled("Piece", "Position"); })
      .def("__repr__", [](const koma::PieceOnBoard& p) {
        return "Piece(kind=" + std::to_string(p.kind) + ", owner=" + std::to_string(p.owner) +
               ", facing='" + facing_name(p.facing) + "'" +
               (p.overturned ? ", overturned=True)" : ")");
      });

  py::class_<koma::SeatScore>(m, "SeatScore", "What places by score compare (Position.score).")
      .def_readonly("mates", &koma::SeatScore::mates)
      .def_readonly("pieces", &koma::SeatScore::pieces)
      .def_readonly("last_mate", &koma::SeatScore::last_mate)
      .def(
          "__eq__",
          [](const koma::SeatScore& a, const koma::SeatScore& b) {
            return a.mates == b.mates && a.pieces == b.pieces && a.last_mate == b.last_mate;
          },
          py::is_operator())
      .def("__hash__",
           [](const koma::SeatScore& s) {
             return py::hash(py::make_tuple(s.mates, s.pieces, s.last_mate));
           })
      .def("__reduce__",
           [](const koma::SeatScore&) { return not_pickled("SeatScore", "Position"); })
      .def("__repr__", [](const koma::SeatScore& s) {
        return "SeatScore(mates=" + std::to_string(s.mates) +
               ", pieces=" + std::to_string(s.pieces) +
               ", last_mate=" + std::to_string(s.last_mate) + ")";
      });

  py::class_<koma::Result>(m, "Result", "How a game ended: a place for every seat and a reason.")
      .def(py::init([](std::vector<int> places, const Text<"the reason">& reason) {
             return koma::Result{std::move(places), reason_arg(reason.s)};
           }),
           py::arg("places"), py::arg("reason"))
      .def_readonly("places", &koma::Result::places)
      .def_property_readonly("reason",
                             [](const koma::Result& r) { return koma::reason_name(r.reason); })
      .def(
          "__eq__", [](const koma::Result& a, const koma::Result& b) { return a == b; },
          py::is_operator())
      .def("__hash__",
           [](const koma::Result& r) {
             return py::hash(py::make_tuple(py::tuple(py::cast(r.places)),
                                            std::string(koma::reason_name(r.reason))));
           })
      .def("__repr__",
           [](const koma::Result& r) {
             std::string out = "Result(places=[";
             for (std::size_t i = 0; i < r.places.size(); ++i)
               out += (i ? ", " : "") + std::to_string(r.places[i]);
             return out + "], reason='" + std::string(koma::reason_name(r.reason)) + "')";
           })
      .def("__reduce__", [](const koma::Result& r) {
        return restore("Result",
                       py::make_tuple(r.places, std::string(koma::reason_name(r.reason))));
      });
}

// Move.
void bind_move(py::module_& m) {
  py::class_<PyMove>(m, "Move",
                     "A board move or a drop; str() is its text when it came from a position.")
      .def_static(
          "board",
          [](int from, int to, bool promote) {
            if (from < 0 || from > 254 || to < 0 || to > 254)
              throw py::value_error("squares are numbered 0 to 254");
            return PyMove{koma::Move::board(from, to, promote), ""};
          },
          py::arg("from_square"), py::arg("to_square"), py::arg("promote") = false)
      .def_static(
          "double",
          [](int from, int middle, int to, bool promote) {
            if (from < 0 || from > 254 || middle < 0 || middle > 253 || to < 0 || to > 254)
              throw py::value_error("squares are numbered 0 to 254 (a middle square 0 to 253)");
            return PyMove{koma::Move::double_move(from, middle, to, promote), ""};
          },
          py::arg("from_square"), py::arg("middle_square"), py::arg("to_square"),
          py::arg("promote") = false)
      .def_static(
          "drop",
          [](int kind, int to) {
            if (kind < 0 || kind > 254 || to < 0 || to > 254)
              throw py::value_error("kinds and squares are numbered 0 to 254");
            return PyMove{koma::Move::drop(kind, to), ""};
          },
          py::arg("kind"), py::arg("to_square"))
      .def_property_readonly("from_square",
                             [](const PyMove& mv) -> std::optional<int> {
                               if (mv.m.is_drop()) return std::nullopt;
                               return mv.m.from;
                             })
      .def_property_readonly("to_square", [](const PyMove& mv) { return int{mv.m.to}; })
      .def_property_readonly("middle_square",
                             [](const PyMove& mv) -> std::optional<int> {
                               if (!mv.m.is_double()) return std::nullopt;
                               return mv.m.middle();
                             })
      .def_property_readonly("is_double", [](const PyMove& mv) { return mv.m.is_double(); })
      .def_property_readonly("kind",
                             [](const PyMove& mv) -> std::optional<int> {
                               if (!mv.m.is_drop()) return std::nullopt;
                               return mv.m.kind;
                             })
      .def_property_readonly("promote", [](const PyMove& mv) { return mv.m.promote; })
      .def_property_readonly("is_drop", [](const PyMove& mv) { return mv.m.is_drop(); })
      .def_readonly("text", &PyMove::text)
      .def("__str__", [](const PyMove& mv) { return mv.text.empty() ? move_repr(mv) : mv.text; })
      .def("__repr__", &move_repr)
      .def(
          "__eq__", [](const PyMove& a, const PyMove& b) { return a.m == b.m; }, py::is_operator())
      .def("__hash__",
           [](const PyMove& mv) {
             return (mv.m.from << 17) ^ (mv.m.to << 9) ^ (mv.m.kind << 1) ^ (mv.m.promote ? 1 : 0);
           })
      .def("__reduce__",
           [](const PyMove& mv) {
             return restore("Move._make",
                            py::make_tuple(mv.m.from, mv.m.to, mv.m.kind, mv.m.promote, mv.text));
           })
      .def_static("_make", [](int from, int to, int kind, bool promote, std::string text) {
        if (from < 0 || from > 255 || to < 0 || to > 254 || kind < 0 || kind > 254)
          throw py::value_error("not a pickled move");
        return PyMove{koma::Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                                 static_cast<std::uint8_t>(kind), promote},
                      std::move(text)};
      });
}

// Variant: loading, the board, the kinds, the action space and the observation layout.
void bind_variant(py::module_& m) {
  py::class_<PyVariant, VariantPtr>(m, "Variant",
                                    "The immutable rules of one game, loaded from a descriptor.")
      .def_static(
          "load",
          [](const Text<"the variant name or descriptor path">& name, const py::kwargs& options) {
            return load_named(name.s, options_of(options));
          },
          py::arg("name"),
          "A shipped variant by name ('yonin'), or a descriptor file; options as keywords.")
      .def_static(
          "parse",
          [](const Text<"the descriptor text">& text, const Text<"the origin">& origin,
             const Text<"the base folder">& base_dir, const py::kwargs& options) {
            Source s;
            s.kind = "text";
            s.where = text.s;
            s.origin = origin.s;
            std::error_code ec;
            if (!base_dir.s.empty())
              s.base_dir = std::filesystem::absolute(base_dir.s, ec).lexically_normal().string();
            s.overrides = options_of(options);
            return load_source(s);
          },
          py::arg("text"), py::arg("origin") = "<text>", py::arg("base_dir") = "",
          "A descriptor from YAML text; `extends:` is found in base_dir (default: the shipped "
          "descriptors).")
      .def_static("_from_source",
                  [](const std::string& kind, const std::string& where, const std::string& origin,
                     const std::string& base_dir, const koma::Options& overrides) {
                    if (kind != "shipped" && kind != "file" && kind != "text")
                      throw py::value_error("not a pickled variant");
                    return load_source(Source{kind, where, origin, base_dir, overrides});
                  })
      .def("__reduce__",
           [](const PyVariant& v) {
             const Source& s = v.source;
             return restore("Variant._from_source",
                            py::make_tuple(s.kind, s.where, s.origin, s.base_dir, s.overrides));
           })
      .def_property_readonly("name", [](const PyVariant& v) { return v.v->name(); })
      .def_property_readonly("title", [](const PyVariant& v) { return v.v->title(); })
      .def_property_readonly("path", [](const PyVariant& v) { return v.v->path(); })
      .def_property_readonly("options", [](const PyVariant& v) { return v.v->options(); })
      .def_property_readonly("seats", [](const PyVariant& v) { return v.seats; })
      .def(
          "seat_name",
          [](const PyVariant& v, int seat) {
            v.check_seat(seat);
            return v.v->seat_name(seat);
          },
          py::arg("seat"))
      .def(
          "seat_facing",
          [](const PyVariant& v, int seat) {
            v.check_seat(seat);
            return facing_name(v.v->seat_facing(seat));
          },
          py::arg("seat"))
      .def_property_readonly("turn_order", [](const PyVariant& v) { return v.v->turn_order(); })
      .def_property_readonly("width", [](const PyVariant& v) { return v.v->width(); })
      .def_property_readonly("height", [](const PyVariant& v) { return v.v->height(); })
      .def_property_readonly("squares", [](const PyVariant& v) { return v.v->squares(); })
      .def(
          "is_square", [](const PyVariant& v, int sq) { return v.v->is_square(sq); },
          py::arg("square"))
      .def(
          "square_name",
          [](const PyVariant& v, int sq) {
            v.check_square(sq);
            return v.v->square_name(sq);
          },
          py::arg("square"))
      .def(
          "parse_square",
          [](const PyVariant& v, const Text<"a square name">& name) {
            return v.v->parse_square(name.s);
          },
          py::arg("name"))
      .def_property_readonly("kinds",
                             [](const PyVariant& v) {
                               std::vector<koma::PieceKindInfo> out;
                               for (int k = 0; k < v.v->kinds(); ++k)
                                 out.push_back(v.v->kind_info(k));
                               return out;
                             })
      .def(
          "kind_by_letter",
          [](const PyVariant& v, const Text<"a kind letter">& letter) {
            return v.v->kind_by_letter(letter.s);
          },
          py::arg("letter"))
      .def_property_readonly("uses_sfen", [](const PyVariant& v) { return v.v->uses_sfen(); })
      .def_property_readonly("has_check", [](const PyVariant& v) { return v.v->has_check(); })
      .def_property_readonly("has_resignation",
                             [](const PyVariant& v) { return v.v->has_resignation(); })
      .def_property_readonly("has_declaration",
                             [](const PyVariant& v) { return v.v->has_declaration(); })
      .def_property_readonly("captures_to_hand",
                             [](const PyVariant& v) { return v.v->captures_to_hand(); })
      .def_property_readonly("places_by_score",
                             [](const PyVariant& v) { return v.v->places_by_score(); })
      .def(
          "start_position",
          [](const PyVariant& v, std::optional<int> first_seat) {
            if (!first_seat) return v.v->start_position();
            v.check_seat(*first_seat);
            return v.v->start_position(*first_seat);
          },
          py::arg("first_seat") = py::none())
      .def_property_readonly("num_actions", [](const PyVariant& v) { return v.actions; })
      .def(
          "action_to_move",
          [](const PyVariant& v, long long a) {
            return PyMove{v.move_of(a), ""};
          },
          py::arg("action"))
      .def(
          "move_to_action",
          [](const PyVariant& v, const PyMove& mv) {
            if (!v.has_action(mv.m))
              throw py::value_error(move_repr(mv) + " is not a move of " + v.v->name());
            return v.action_of(mv.m);
          },
          py::arg("move"))
      .def_property_readonly(
          "observation_shape",
          [](const PyVariant& v) { return py::make_tuple(v.planes, v.rows(), v.cols()); })
      .def_property_readonly("observation_planes",
                             [](const PyVariant& v) {
                               py::dict out;
                               out["pieces"] = py::make_tuple(0, v.plane_overturned);
                               out["facings"] = v.facings;
                               out["overturned"] = v.plane_overturned;
                               out["hands"] = py::make_tuple(v.plane_hands, v.plane_to_move);
                               out["hand_kinds"] = v.hand_kinds;
                               out["to_move"] = py::make_tuple(v.plane_to_move, v.plane_check);
                               out["in_check"] = py::make_tuple(v.plane_check, v.plane_eliminated);
                               out["eliminated"] =
                                   py::make_tuple(v.plane_eliminated, v.plane_cells);
                               out["cells"] = v.plane_cells;
                               return out;
                             })
      .def("__repr__", [](const PyVariant& v) { return "Variant('" + v.v->name() + "')"; });
}

// Position.
void bind_position(py::module_& m) {
  py::class_<koma::Position>(m, "Position", "A position: board, hands, seat to move, eliminated.")
      .def_static(
          "from_text",
          [](const VariantPtr& v, const Text<"position text">& text) {
            return koma::Position::from_text(v->v, text.s);
          },
          py::arg("variant").none(false), py::arg("text"))
      .def_property_readonly("variant", [](const koma::Position& p) { return of(p.variant()); })
      .def_property_readonly("text", &koma::Position::text)
      .def_property_readonly("generic_text", &koma::Position::generic_text)
      .def_property_readonly("to_move", &koma::Position::to_move)
      .def_property_readonly("ply", &koma::Position::ply)
      .def("at", &piece_at, py::arg("square"))
      .def(
          "in_hand",
          [](const koma::Position& p, int seat, int kind) {
            of(p.variant())->check_seat(seat);
            of(p.variant())->check_kind(kind);
            return p.in_hand(seat, kind);
          },
          py::arg("seat"), py::arg("kind"))
      .def_property_readonly("hands", &hands_of)
      .def(
          "active",
          [](const koma::Position& p, int seat) {
            of(p.variant())->check_seat(seat);
            return p.active(seat);
          },
          py::arg("seat"))
      .def_property_readonly("eliminated", &koma::Position::eliminated)
      .def(
          "in_check",
          [](const koma::Position& p, std::optional<int> seat) {
            const int s = seat.value_or(p.to_move());
            of(p.variant())->check_seat(s);
            return p.in_check(s);
          },
          py::arg("seat") = py::none())
      .def_property_readonly("seats_in_check", &koma::Position::seats_in_check)
      .def(
          "score",
          [](const koma::Position& p, int seat) {
            of(p.variant())->check_seat(seat);
            return p.score(seat);
          },
          py::arg("seat"))
      .def("legal_moves",
           [](const koma::Position& p) {
             std::vector<PyMove> out;
             for (koma::Move mv : p.legal_moves()) out.push_back(with_text(p, mv));
             return out;
           })
      .def(
          "is_legal",
          [](const koma::Position& p, const py::object& mv) { return p.is_legal(move_arg(p, mv)); },
          py::arg("move"))
      .def(
          "parse_move",
          [](const koma::Position& p, const Text<"move text">& text) {
            return with_text(p, p.parse_move(text.s));
          },
          py::arg("text"))
      .def(
          "move_text", [](const koma::Position& p, const PyMove& mv) { return p.move_text(mv.m); },
          py::arg("move"))
      .def_property_readonly("result",
                             [](const koma::Position& p) { return result_or_none(p.result()); })
      .def("observation", &observation, py::arg("seat"))
      .def(
          "__eq__", [](const koma::Position& a, const koma::Position& b) { return a == b; },
          py::is_operator())
      .def("__hash__", [](const koma::Position& p) { return p.hash(); })
      .def("__repr__",
           [](const koma::Position& p) {
             return "Position('" + p.variant().name() + "', '" + p.text() + "')";
           })
      .def("__str__", &koma::Position::text)
      .def("__copy__", [](const koma::Position& p) { return p; })
      .def("__deepcopy__", [](const koma::Position& p, const py::object&) { return p; })
      .def("__reduce__", [](const koma::Position& p) {
        return restore("Position.from_text", position_state(p));
      });
}

// Game, with the learning interface.
void bind_game(py::module_& m) {
  py::class_<PyGame>(m, "Game", "A game: a start position and the moves played since.")
      .def(py::init([](const VariantPtr& v, const py::object& position,
                       const Text<"the referee">& referee) {
             return make_game(v, position, referee.s);
           }),
           py::arg("variant").none(false), py::arg("position") = py::none(),
           py::arg("referee") = "koma")
      .def_static("from_record", &game_of_record, py::arg("record"),
                  "The game of a record, replayed (its variant loaded with its options).")
      .def_static("_restore", &restore_game, py::arg("variant").none(false), py::arg("start"),
                  py::arg("moves"), py::arg("referee"), py::arg("adjudication"))
      .def("__reduce__", [](const PyGame& g) { return restore("Game._restore", game_state(g)); })
      .def("__copy__", [](const PyGame& g) { return PyGame(g); })
      .def("__deepcopy__", [](const PyGame& g, const py::object&) { return PyGame(g); })
      .def("copy", [](const PyGame& g) { return PyGame(g); })
      .def_property_readonly("variant", [](const PyGame& g) { return g.variant; })
      .def_property_readonly("position", [](const PyGame& g) { return g.position(); })
      .def_property_readonly("start", [](const PyGame& g) { return g.game.start(); })
      .def_property_readonly("to_move", &PyGame::seat_to_move,
                             "The seat to move, 0 once the game is over.")
      .def_property_readonly("in_check",
                             [](const PyGame& g) {
                               return !g.game.over() &&
                                      g.position().in_check(g.position().to_move());
                             })
      .def_property_readonly("seats_in_check",
                             [](const PyGame& g) { return g.position().seats_in_check(); })
      .def_property_readonly("eliminated",
                             [](const PyGame& g) { return g.position().eliminated(); })
      .def_property_readonly("hands", [](const PyGame& g) { return hands_of(g.position()); })
      .def_property_readonly("over", [](const PyGame& g) { return g.game.over(); })
      .def_property_readonly("result",
                             [](const PyGame& g) { return result_or_none(g.game.result()); })
      .def_property_readonly("rule_ending",
                             [](const PyGame& g) { return result_or_none(g.game.rule_ending()); })
      .def_property_readonly("referee",
                             [](const PyGame& g) {
                               return g.game.referee() == koma::Game::Referee::koma ? "koma"
                                                                                    : "outside";
                             })
      .def_property_readonly("history", [](const PyGame& g) { return g.game.history(); })
      .def_property_readonly("occurrences", [](const PyGame& g) { return g.game.occurrences(); })
      .def("legal_moves", &PyGame::legal_moves)
      .def(
          "is_legal",
          [](const PyGame& g, const py::object& mv) {
            return g.game.is_legal(move_arg(g.position(), mv));
          },
          py::arg("move"))
      .def(
          "why_illegal",
          [](const PyGame& g, const py::object& mv) {
            return g.game.why_illegal(move_arg(g.position(), mv));
          },
          py::arg("move"))
      .def("play", &PyGame::play, py::arg("move"),
           "Plays a Move, move text, or the actions 'resign' and 'win'.")
      .def("undo", [](PyGame& g) { g.game.undo(); })
      .def("resign", [](PyGame& g) { g.game.resign(); })
      .def("declare_win", [](PyGame& g) { g.game.declare_win(); })
      .def(
          "adjudicate",
          [](PyGame& g, const std::vector<int>& places, const Text<"the reason">& reason) {
            g.game.adjudicate(places, reason_arg(reason.s));
          },
          py::arg("places"), py::arg("reason") = "adjudicated")
      .def("legal_actions", &PyGame::legal_actions)
      .def("legal_actions_mask", &PyGame::legal_actions_mask)
      .def(
          "apply_action", [](PyGame& g, long long a) { g.game.play(g.variant->move_of(a)); },
          py::arg("action"))
      .def(
          "action_to_move",
          [](const PyGame& g, long long a) {
            return with_text(g.position(), g.variant->move_of(a));
          },
          py::arg("action"))
      .def("returns", [](const PyGame& g) { return returns_of(g.game.result(), g.variant->seats); })
      .def(
          "observation",
          [](const PyGame& g, std::optional<int> seat) {
            return observation(g.position(), seat.value_or(g.position().to_move()));
          },
          py::arg("seat") = py::none())
      .def("__repr__", [](const PyGame& g) {
        return "Game('" + g.variant->v->name() + "', " + std::to_string(g.game.history().size()) +
               " plies" + (g.game.over() ? ", over)" : ")");
      });
}

// Player and WIN_SCORE.
void bind_player(py::module_& m) {
  py::class_<PyPlayer>(m, "Player", "A CPU player of a variant (docs/ai.md).")
      .def(py::init([](const VariantPtr& v, const Text<"the level">& level, int depth,
                       std::uint64_t nodes, double seconds, std::uint64_t seed) {
             koma::Limits limits;
             limits.depth = depth;
             limits.nodes = nodes;
             limits.seconds = seconds;
             limits.seed = seed;
             return PyPlayer{v, koma::Player(level_arg(level.s), limits)};
           }),
           py::arg("variant").none(false), py::arg("level"), py::kw_only(), py::arg("depth") = 0,
           py::arg("nodes") = 0, py::arg("seconds") = 0.0, py::arg("seed") = 1)
      .def("choose", &PyPlayer::choose, py::arg("game"),
           "A legal move for the seat to move; the GIL is released while it searches.")
      .def("stop", [](PyPlayer& p) { p.player.stop(); })
      .def("cancel_stop", [](PyPlayer& p) { p.player.cancel_stop(); })
      .def_property_readonly("level",
                             [](const PyPlayer& p) { return koma::level_name(p.player.level()); })
      .def_property_readonly("info",
                             [](const PyPlayer& p) {
                               const koma::SearchInfo i = p.player.info();
                               py::dict out;
                               out["depth"] = i.depth;
                               out["nodes"] = i.nodes;
                               out["seconds"] = i.seconds;
                               out["score"] = i.score;
                               out["stopped"] = i.stopped;
                               return out;
                             })
      .def("__reduce__", [](const PyPlayer&) -> py::object {
        throw py::type_error(
            "koma.Player objects do not pickle or copy: make a new Player with the same level "
            "and limits");
      });
  m.attr("WIN_SCORE") = koma::kWinScore;
}

// perft, perft_divide, variants, Record, read_record, read_record_text.
void bind_functions(py::module_& m) {
  m.def(
      "perft",
      [](const py::object& target, int depth, const py::object& position,
         const Text<"the perft mode">& mode) {
        return perft_of(perft_game(target, position), depth, mode.s);
      },
      py::arg("target"), py::arg("depth"), py::arg("position") = py::none(),
      py::arg("mode") = "bulk",
      "Leaves of the legal-move tree of `depth` from a Variant's start (or `position`) or a "
      "Game; the GIL is released while it counts.");
  m.def(
      "perft_divide",
      [](const py::object& target, int depth, const py::object& position) {
        if (depth < 1) throw py::value_error("depth must be 1 or more");
        koma::Game g = perft_game(target, position);
        std::vector<std::pair<koma::Move, std::uint64_t>> counts;
        {
          py::gil_scoped_release release;
          counts = koma::perft_divide(g, depth);
        }
        py::dict out;
        for (const auto& [mv, n] : counts) out[py::str(g.position().move_text(mv))] = n;
        return out;
      },
      py::arg("target"), py::arg("depth"), py::arg("position") = py::none());
  m.def("variants", &shipped_names, "The names of the shipped variants.");
  m.def("_set_variants_dir", [](const std::string& dir) { g_shipped_dir = dir; });

  py::class_<koma::GameRecord>(m, "Record", "One game of a JSON Lines game record.")
      .def(py::init<>())
      .def_property(
          "variant", [](const koma::GameRecord& r) { return r.variant; },
          [](koma::GameRecord& r, const Text<"the record's variant">& t) { r.variant = t.s; })
      .def_property(
          "descriptor", [](const koma::GameRecord& r) { return r.descriptor; },
          [](koma::GameRecord& r, const Text<"the record's descriptor">& t) { r.descriptor = t.s; })
      .def_property(
          "options", [](const koma::GameRecord& r) { return r.options; },
          [](koma::GameRecord& r,
             const std::map<Text<"an option name">, Text<"an option value">>& options) {
            r.options.clear();
            for (const auto& [key, value] : options) r.options[key.s] = value.s;
          })
      .def_readwrite("first_seat", &koma::GameRecord::first_seat)
      .def_property(
          "start", [](const koma::GameRecord& r) { return r.start; },
          [](koma::GameRecord& r, const std::optional<Text<"the record's start">>& t) {
            r.start = t ? std::optional<std::string>(t->s) : std::nullopt;
          })
      .def_property(
          "seats", [](const koma::GameRecord& r) { return r.seats; },
          [](koma::GameRecord& r, const std::vector<Text<"a seat of the record">>& seats) {
            r.seats = strings(seats);
          })
      .def_property(
          "moves", [](const koma::GameRecord& r) { return r.moves; },
          [](koma::GameRecord& r, const std::vector<Text<"a move of the record">>& moves) {
            r.moves = strings(moves);
          })
      .def_readwrite("result", &koma::GameRecord::result)
      .def_readonly("where", &koma::GameRecord::where)
      .def_static("_from_line",
                  [](const std::string& line, const std::string& where) {
                    koma::GameRecord r = koma::read_record_text(line, "the pickled record", 1);
                    r.where = where;
                    return r;
                  })
      .def("line", &koma::record_line, "The record as one line of JSON, without the newline.")
      .def("load_options", &koma::record_options,
           "The options to load the record's variant with (its overrides and first seat).")
      .def(
          "__eq__", [](const koma::GameRecord& a, const koma::GameRecord& b) { return a == b; },
          py::is_operator())
      .def("__repr__",
           [](const koma::GameRecord& r) { return "Record(" + koma::record_line(r) + ")"; })
      .def("__reduce__", [](const koma::GameRecord& r) {
        return restore("Record._from_line", py::make_tuple(koma::record_line(r), r.where));
      });
  m.def(
      "read_record",
      [](const Text<"the record path">& path, int game) { return koma::read_record(path.s, game); },
      py::arg("path"), py::arg("game") = 1, "Game `game` (from 1) of a record file.");
  m.def(
      "read_record_text",
      [](const Text<"the record text">& text, int game, const Text<"the origin">& origin) {
        return koma::read_record_text(text.s, origin.s.empty() ? "<text>" : origin.s, game);
      },
      py::arg("text"), py::arg("game") = 1, py::arg("origin") = "<text>");
}

}  // namespace

PYBIND11_MODULE(_koma, m) {
  m.doc() = "koma: exact rules of shogi and its variants (docs/python.md)";
  init_numpy();
  bind_errors(m);
  bind_values(m);
  bind_move(m);
  bind_variant(m);
  bind_position(m);
  bind_game(m);
  bind_player(m);
  bind_functions(m);
}
